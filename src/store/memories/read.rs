//! Memory reads: the listing (streamed), recall (full-text search ranked
//! by relevance, utility and recency) and the export snapshot.

use anyhow::{Result, bail};
use rusqlite::{OptionalExtension, params};

use super::{MEMORY_COLUMNS, memory_from, memory_view};
use crate::domain::matching::Aliases;
use crate::domain::memory::{
    Hit, Kind, Memory, MemoryEvent, MemoryFilter, MemoryView, Recalled, StatusFilter,
};
use crate::store::Store;

/// When every word of a query is common, `recall` ranks only this many of
/// the newest memories that match (bm25 reads a row of sizes for every
/// match it scores: a word in 10,000 memories cost 35 ms), widening it when
/// the filters leave fewer hits than asked for, and says so.
pub const COMMON_QUERY_POOL: i64 = 2000;

/// The listing's statement: the columns (content only with `full`), the
/// index to use, the join (inner when a commitment status filters), the
/// conditions given.
fn listing_sql(
    f: &MemoryFilter,
    cond: &[&str],
    by_commitment: bool,
    by_memory_status: bool,
) -> String {
    let join = if by_commitment { "JOIN" } else { "LEFT JOIN" };
    let filter = if cond.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", cond.join(" AND "))
    };
    let columns = if f.full {
        MEMORY_COLUMNS.to_string()
    } else {
        MEMORY_COLUMNS.replacen("m.content,", "'' AS content,", 1)
    };
    // Live memories of a kind, without their content: the listing index
    // holds every column printed (the planner, left alone, picks a
    // smaller index and reads a table page per row).
    let index = if f.kind.is_some() && f.project.is_none() && !f.all && !by_memory_status && !f.full
    {
        "INDEXED BY memories_listing"
    } else {
        ""
    };
    let sql = format!(
        "SELECT {columns} FROM memories m {index} {join} commitments c USING (memory_id) {filter}
         ORDER BY m.created_at DESC, m.memory_id DESC"
    );
    sql
}

/// A memory that matched, its bm25 rank and its rowid.
type Ranked = (Memory, f64, i64);

/// A project as the one token the full-text index holds for it: `p` and
/// its UTF-8 bytes in lowercase hex (migration 0017).
pub fn project_token(project: &str) -> String {
    let mut t = String::with_capacity(1 + 2 * project.len());
    t.push('p');
    for b in project.bytes() {
        t.push_str(&format!("{b:02x}"));
    }
    t
}

/// What `recall` looks for.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    pub query: &'a str,
    pub kind: Option<Kind>,
    pub project: Option<&'a str>,
    /// Superseded and archived memories too.
    pub all: bool,
    pub limit: u64,
    pub snippets: bool,
    /// The query's last word matches as a prefix too (a typed query; not
    /// a prompt, whose last word is arbitrary).
    pub prefix: bool,
    pub aliases: &'a Aliases,
}

/// A query's words, folded, each once, in order.
fn query_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .fold(Vec::new(), |mut seen, t| {
            if !seen.contains(&t) {
                seen.push(t);
            }
            seen
        })
}

/// The FTS5 query for `words`: any of them, each with the words its alias
/// group holds (`postgres` finds "PostgreSQL"); `last`, when given and
/// three letters or more, also as a prefix. Every word quoted: no query
/// syntax leaks. The index stems what it reads, so each word finds its
/// inflections (`deploy`, "deployment", "deployed").
pub fn search_query(
    words: &[&str],
    last: Option<&str>,
    prefixes: bool,
    aliases: &Aliases,
) -> String {
    let quote = |w: &str| format!("\"{}\"", w.replace('-', " ").replace('"', "\"\""));
    let mut parts: Vec<String> = Vec::new();
    for w in words {
        for v in aliases.variants(w) {
            let q = quote(&v);
            if !parts.contains(&q) {
                parts.push(q);
            }
        }
    }
    if let Some(l) = last.filter(|l| l.chars().count() >= 3 && words.contains(l)) {
        parts.push(format!("{}*", quote(l)));
    }
    if prefixes {
        // Each word's stem without a final vowel, as a prefix: the index's
        // Porter stems keep derived words apart (`deploy`, "deploi" for
        // "deployment"), and this joins them.
        for w in words {
            let stem = crate::domain::matching::stem(w);
            let root = stem.trim_end_matches(['e', 'i', 'y']);
            if root.chars().count() >= 4 {
                let p = format!("{}*", quote(root));
                if !parts.contains(&p) {
                    parts.push(p);
                }
            }
        }
    }
    parts.join(" OR ")
}

pub fn fts_query<'a>(terms: impl Iterator<Item = &'a str>) -> String {
    terms
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" OR ")
}

impl Store {
    /// `memories`, one borrowed row at a time (a listing streams them).
    pub fn each_memory(
        &self,
        f: &MemoryFilter,
        mut visit: impl FnMut(MemoryView<'_>) -> Result<()>,
    ) -> Result<()> {
        let (status_memory, status_commitment) = match f.status {
            Some(StatusFilter::Memory(s)) => (Some(s), None),
            Some(StatusFilter::Commitment(s)) => (None, Some(s)),
            None => (None, None),
        };
        // Only the conditions asked for, so SQLite can use the indexes
        // (an `?1 IS NULL OR` guard hides them).
        let mut cond: Vec<&str> = Vec::new();
        let mut args: Vec<&dyn rusqlite::ToSql> = Vec::new();
        if let Some(k) = &f.kind {
            cond.push("m.kind = ?");
            args.push(k);
        }
        if let Some(p) = &f.project {
            cond.push("m.project = ?");
            args.push(p);
        }
        if let Some(s) = &status_memory {
            cond.push("m.status = ?");
            args.push(s);
        }
        if let Some(s) = &status_commitment {
            cond.push("c.status = ?");
            args.push(s);
        }
        if !f.all {
            cond.push("m.valid_to IS NULL");
            if status_memory.is_none() {
                cond.push("m.status = 'active'");
            }
        }
        if let Some(t) = &f.since {
            cond.push("m.created_at >= ?");
            args.push(t);
        }
        let sql = listing_sql(
            f,
            &cond,
            status_commitment.is_some(),
            status_memory.is_some(),
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(args.as_slice())?;
        while let Some(r) = rows.next()? {
            visit(memory_view(r)?)?;
        }
        Ok(())
    }

    /// Ranked search (bm25: topic ×4, description and tags ×2, content ×1;
    /// ties by recency) with a highlighted snippet; the last word also as
    /// a prefix.
    pub fn recall(
        &self,
        query: &str,
        kind: Option<Kind>,
        project: Option<&str>,
        all: bool,
        limit: u64,
        aliases: &Aliases,
    ) -> Result<Recalled> {
        self.recall_hits(&Search {
            query,
            kind,
            project,
            all,
            limit,
            snippets: true,
            prefix: true,
            aliases,
        })
    }

    /// `recall` as `s` asks: each hit's snippet only when `s.snippets` (a
    /// snippet runs the match again for its row: the prompt hook shows none).
    pub fn recall_hits(&self, s: &Search<'_>) -> Result<Recalled> {
        let terms: Vec<String> = query_words(s.query);
        if terms.is_empty() {
            bail!("the query {:?} has no words to search for", s.query);
        }
        let (total, counted) = self.term_counts(&terms)?;
        let (kept, all_common) = crate::domain::matching::uncommon(&counted, total);
        let last = terms.last().filter(|_| s.prefix).map(String::as_str);
        let q = search_query(&kept, last, s.prefix, s.aliases);
        // Only this project's matches are ranked (migration 0017).
        let ranked = match s.project {
            Some(p) => format!("({q}) AND project_key:{}", project_token(p)),
            None => q.clone(),
        };
        let (rows, pool) = self.ranked_rows(s, &ranked, total, all_common)?;
        // Whether the pool left matches out: surely when one word alone has
        // more (in every project); else count (no more than pool + 1 of them).
        let most = counted.iter().map(|(n, _)| *n).max().unwrap_or(0);
        let newest_ranked = if !all_common || pool >= total {
            None
        } else if pool < most && s.project.is_none() {
            Some(pool)
        } else {
            let matched: i64 = self.conn.query_row(
                "SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?1 LIMIT ?2)",
                params![ranked, pool + 1],
                |r| r.get(0),
            )?;
            (matched > pool).then_some(pool)
        };
        let mut snip = self.conn.prepare_cached(
            "SELECT snippet(memories_fts, -1, '**', '**', '…', 12) FROM memories_fts
             WHERE memories_fts MATCH ?1 AND rowid = ?2",
        )?;
        let mut hits = Vec::with_capacity(rows.len());
        for (memory, rank, rowid) in rows {
            let snippet: String = if s.snippets {
                snip.query_row(params![q, rowid], |r| r.get(0))?
            } else {
                String::new()
            };
            hits.push(Hit {
                memory,
                rank,
                snippet,
            });
        }
        Ok(Recalled {
            hits,
            newest_ranked,
        })
    }

    /// How many memories there are (memories are never deleted, so the
    /// largest rowid is their number, read without a scan), and how many
    /// hold each term (the index holds stems: a word is looked up by its
    /// own).
    fn term_counts<'t>(&self, terms: &'t [String]) -> Result<(i64, Vec<(i64, &'t str)>)> {
        let total: i64 =
            self.conn
                .query_row("SELECT COALESCE(MAX(rowid), 0) FROM memories", [], |r| {
                    r.get(0)
                })?;
        let mut doc = self
            .conn
            .prepare_cached("SELECT doc FROM memories_vocab WHERE term = ?1")?;
        let mut counted = Vec::with_capacity(terms.len());
        for t in terms {
            let stem = crate::domain::matching::stem(t);
            let n = doc.query_row([&stem], |r| r.get(0)).optional()?;
            counted.push((n.unwrap_or(0), t.as_str()));
        }
        Ok((total, counted))
    }

    /// The best matches of `ranked`, filtered, with their rank and rowid:
    /// ranked inside the index first (only the best `k`; of only the newest
    /// `pool` matches when every word is common), then filtered, widened
    /// when the filters leave fewer than the limit. Also the pool it ended
    /// with.
    fn ranked_rows(
        &self,
        s: &Search<'_>,
        ranked: &str,
        total: i64,
        all_common: bool,
    ) -> Result<(Vec<Ranked>, i64)> {
        let matches = if all_common {
            "(SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?7)"
        } else {
            "memories_fts WHERE memories_fts MATCH ?1"
        };
        let sql = format!(
            "SELECT {MEMORY_COLUMNS}, f.rank, m.rowid
             FROM (SELECT rowid, rank FROM {matches} ORDER BY rank LIMIT ?2) f
             JOIN memories m ON m.rowid = f.rowid LEFT JOIN commitments c USING (memory_id)
             WHERE (?3 IS NULL OR m.kind = ?3) AND (?4 IS NULL OR m.project = ?4)
               AND (?5 OR (m.valid_to IS NULL AND m.status = 'active'))
             ORDER BY f.rank, m.created_at DESC, m.memory_id DESC LIMIT ?6"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = s.limit as i64;
        let mut k = limit.saturating_mul(4).max(40);
        let mut pool = COMMON_QUERY_POOL;
        loop {
            let mut args: Vec<&dyn rusqlite::ToSql> =
                vec![&ranked, &k, &s.kind, &s.project, &s.all, &limit];
            if all_common {
                args.push(&pool);
            }
            let rows: Vec<Ranked> = stmt
                .query_map(args.as_slice(), |r| {
                    Ok((memory_from(r)?, r.get(21)?, r.get(22)?))
                })?
                .collect::<Result<_, _>>()?;
            // Every match ranked: the best k of all of them, k past their number.
            let everything = k >= total && (!all_common || pool >= total);
            if rows.len() as i64 >= limit || everything {
                return Ok((rows, pool));
            }
            k = k.saturating_mul(4);
            pool = pool.saturating_mul(4);
        }
    }

    /// Every memory (of a project), commitment and event, in a stable order.
    pub fn export_rows(&self, project: Option<&str>) -> Result<(Vec<Memory>, Vec<MemoryEvent>)> {
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m LEFT JOIN commitments c USING (memory_id)
             WHERE ?1 IS NULL OR m.project = ?1 ORDER BY m.created_at, m.memory_id"
        );
        let memories: Vec<Memory> = self
            .conn
            .prepare(&sql)?
            .query_map([project], memory_from)?
            .collect::<Result<_, _>>()?;
        let events: Vec<MemoryEvent> = self
            .memory_events(None)?
            .into_iter()
            .filter(|e| project.is_none() || memories.iter().any(|m| m.memory_id == e.memory_id))
            .collect();
        Ok((memories, events))
    }
}
