//! Searching the index of what was said, and reading a session's
//! conversation back from it.

use anyhow::Result;
use rusqlite::OptionalExtension;

use super::blocks::TextReader;
use super::{role_code, role_of};
use crate::domain::clock::Millis;
use crate::domain::transcript::said::Role;
use crate::store::Store;

/// Matches looked at per hit asked for: a tool's repeated calls (a todo
/// list sent again each turn) fold into one hit.
const FOLD_LOOK: usize = 10;

/// What a search asks for.
#[derive(Debug, Clone, Default)]
pub struct SearchQuery<'a> {
    /// An FTS5 query over the index's terms
    /// (`domain::matching::search_expression`).
    pub expression: &'a str,
    /// Runs of terms a text must also hold, one after another.
    pub phrases: &'a [Vec<String>],
    pub project: Option<&'a str>,
    pub harness: Option<&'a str>,
    pub session: Option<&'a str>,
    pub role: Option<Role>,
    pub since: Option<Millis>,
    pub until: Option<Millis>,
    /// Newest first rather than by relevance.
    pub newest: bool,
    pub limit: usize,
    /// Relevance ranks the newest this many matching texts.
    pub window: usize,
    /// A phrase is looked for in the newest this many texts holding its
    /// terms (each read and checked: fewer than `window`).
    pub phrase_window: usize,
}

/// One text a search found, where it was said last (within the filters).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub session_id: String,
    pub agent_id: Option<String>,
    pub record: String,
    pub at: Option<Millis>,
    pub role: String,
    pub output: bool,
    pub tool: Option<String>,
    pub harness: String,
    pub project: Option<String>,
    /// The session's title.
    pub title: Option<String>,
    /// The whole text (the caller cuts its snippet).
    pub text: String,
    /// Places the text was said (within the filters).
    pub places: u64,
    /// bm25 (lower is better); 0 when sorted newest first.
    pub score: f64,
    /// Calls of the same tool by the same agent in the same session that
    /// also matched, ranked below this one (`Store::search`): shown once.
    pub similar: u64,
}

/// What a search found.
#[derive(Debug, Clone, Default)]
pub struct Matches {
    pub hits: Vec<Hit>,
    /// The walk stopped at its window: older texts may match too.
    pub more: bool,
}

/// The conditions `q` puts on a place a text was said (`s` the said row,
/// `sn` its session's name, `x` its session), with their arguments in
/// order: only those asked for, so SQLite can use the indexes. `session`
/// says whether one reads `x`, `named` whether one reads `sn`.
struct PlaceFilter<'q> {
    conds: Vec<&'static str>,
    args: Vec<Box<dyn rusqlite::ToSql + 'q>>,
    session: bool,
    named: bool,
}

fn place_filter<'q>(q: &'q SearchQuery<'_>) -> PlaceFilter<'q> {
    let mut f = PlaceFilter {
        conds: Vec::new(),
        args: Vec::new(),
        session: q.project.is_some() || q.harness.is_some(),
        named: q.project.is_some() || q.harness.is_some() || q.session.is_some(),
    };
    if let Some(p) = q.project {
        f.conds.push("(x.project = ? OR x.project_slug = ?)");
        f.args.push(Box::new(p));
        f.args.push(Box::new(p));
    }
    if let Some(h) = q.harness {
        f.conds.push("x.harness = ?");
        f.args.push(Box::new(h));
    }
    if let Some(sid) = q.session {
        f.conds.push("sn.name = ?");
        f.args.push(Box::new(sid));
    }
    match q.role {
        Some(Role::Tool) => f.conds.push("s.role >= 2"),
        Some(r) => {
            f.conds.push("s.role = ?");
            f.args.push(Box::new(role_code(r, false)));
        }
        None => {}
    }
    if let Some(t) = q.since {
        f.conds.push("s.at >= ?");
        f.args.push(Box::new(t));
    }
    if let Some(t) = q.until {
        f.conds.push("s.at < ?");
        f.args.push(Box::new(t));
    }
    f
}

impl PlaceFilter<'_> {
    /// The joins the conditions read.
    fn joins(&self) -> &'static str {
        match (self.named, self.session) {
            (_, true) => {
                "JOIN said_names sn ON sn.n = s.session JOIN sessions x ON x.session_id = sn.name"
            }
            (true, false) => "JOIN said_names sn ON sn.n = s.session",
            _ => "",
        }
    }

    /// The conditions, each after `AND`.
    fn and_conds(&self) -> String {
        self.conds.iter().map(|c| format!(" AND {c}")).collect()
    }
}

/// `q`'s conditions on the full-text index's walk: the texts said in a
/// place the filter keeps (`EXISTS`), with their arguments.
fn walk_conditions<'q>(q: &'q SearchQuery<'_>) -> (String, Vec<Box<dyn rusqlite::ToSql + 'q>>) {
    let f = place_filter(q);
    if f.conds.is_empty() {
        return (String::new(), Vec::new());
    }
    let sql = format!(
        "AND EXISTS (SELECT 1 FROM said s {} WHERE s.text_id = f.rowid{})",
        f.joins(),
        f.and_conds()
    );
    (sql, f.args)
}

impl Store {
    /// The texts matching `q`, best (or newest) first, each where it was
    /// said last. Relevance (bm25) ranks the newest `window` matches, so a
    /// word in every text costs a bounded time; a phrase is looked for in
    /// the newest `phrase_window` texts holding its terms.
    pub fn search(&self, q: &SearchQuery<'_>) -> Result<Matches> {
        // Repeated tool calls fold into their best: more are looked at
        // than are shown.
        let look = q.limit.saturating_mul(FOLD_LOOK);
        let mut reader = TextReader::default();
        let (mut found, more) = self.walk(q, look, &mut reader)?;
        if !q.newest {
            found.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        }
        found.truncate(look);
        let mut out: Vec<Hit> = Vec::with_capacity(q.limit);
        let mut calls: std::collections::HashSet<(String, Option<String>, Option<String>)> =
            std::collections::HashSet::new();
        for &(id, score) in &found {
            if out.len() == q.limit {
                break;
            }
            let score = if q.newest { 0.0 } else { score };
            let Some(hit) = self.place_of(q, &mut reader, id, score)? else {
                continue;
            };
            if hit.role == "tool"
                && !hit.output
                && !calls.insert((
                    hit.session_id.clone(),
                    hit.agent_id.clone(),
                    hit.tool.clone(),
                ))
            {
                continue;
            }
            out.push(hit);
        }
        // How many more calls of each chosen call's tool, agent and session
        // matched: one count over the matches looked at.
        let ids = serde_json::to_string(&found.iter().map(|f| f.0).collect::<Vec<_>>())?;
        for hit in out.iter_mut().filter(|h| h.role == "tool" && !h.output) {
            hit.similar = self.similar_calls(q, hit, &ids)?;
        }
        Ok(Matches { hits: out, more })
    }

    /// The matching texts newest first, with their bm25 scores: `look`
    /// of them newest first, else the newest `window` for relevance to
    /// rank; a phrase is looked for in the newest `phrase_window` texts holding
    /// its terms. Says whether the walk stopped at its end (older texts
    /// may match too).
    fn walk(
        &self,
        q: &SearchQuery<'_>,
        look: usize,
        reader: &mut TextReader,
    ) -> Result<(Vec<(i64, f64)>, bool)> {
        let (exists, mut args) = walk_conditions(q);
        let take = if q.newest { look } else { q.window.max(look) };
        let walk = if q.phrases.is_empty() {
            take
        } else {
            q.phrase_window.max(look)
        };
        let sql = format!(
            "SELECT f.rowid, bm25(said_fts) FROM said_fts f
             WHERE said_fts MATCH ? {exists} ORDER BY f.rowid DESC LIMIT ?"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        args.insert(0, Box::new(q.expression));
        args.push(Box::new(walk as i64));
        let args: Vec<&dyn rusqlite::ToSql> = args.iter().map(AsRef::as_ref).collect();
        let mut rows = stmt.query(args.as_slice())?;
        let mut found: Vec<(i64, f64)> = Vec::new();
        let mut walked = 0;
        while let Some(r) = rows.next()? {
            walked += 1;
            found.push((r.get(0)?, r.get(1)?));
            if q.phrases.is_empty() && found.len() >= take {
                break;
            }
        }
        if !q.phrases.is_empty() {
            found = self.holding_phrases(q.phrases, found, reader)?;
        }
        found.truncate(take);
        Ok((found, walked == walk))
    }

    /// The texts of `chunk` that hold every phrase, in order: their texts
    /// read block by block (each block unpacked once).
    fn holding_phrases(
        &self,
        phrases: &[Vec<String>],
        chunk: Vec<(i64, f64)>,
        reader: &mut TextReader,
    ) -> Result<Vec<(i64, f64)>> {
        let mut at: Vec<(i64, i64, i64, usize)> = Vec::with_capacity(chunk.len());
        let mut locate = self
            .conn
            .prepare_cached("SELECT block, start, len FROM said_texts WHERE text_id = ?1")?;
        for (i, (id, _)) in chunk.iter().enumerate() {
            if let Some((b, s, l)) = locate
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?
            {
                at.push((b, s, l, i));
            }
        }
        at.sort_unstable();
        let mut holds = vec![false; chunk.len()];
        for (block, start, len, i) in at {
            let text = reader.text(&self.conn, block, start, len)?;
            holds[i] = crate::domain::matching::holds_phrases(&text, phrases);
        }
        Ok(chunk
            .into_iter()
            .zip(holds)
            .filter(|(_, h)| *h)
            .map(|(c, _)| c)
            .collect())
    }

    /// Whether some text holds the term `term`.
    pub fn holds_term(&self, term: &str) -> Result<bool> {
        let quoted = format!("\"{}\"", term.replace('"', "\"\""));
        Ok(self
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM said_fts WHERE said_fts MATCH ?1)")?
            .query_row([quoted], |r| r.get(0))?)
    }

    /// Whether the index holds any place at all.
    pub fn index_holds_anything(&self) -> Result<bool> {
        Ok(self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM said)", [], |r| r.get(0))?)
    }

    /// The places, within the filters, of the texts `ids` (a JSON array)
    /// where `hit`'s agent called its tool in its session, but for `hit`'s
    /// own record.
    fn similar_calls(&self, q: &SearchQuery<'_>, hit: &Hit, ids: &str) -> Result<u64> {
        let f = place_filter(q);
        let joins = if f.session {
            "JOIN sessions x ON x.session_id = sn.name"
        } else {
            ""
        };
        let sql = format!(
            "SELECT COUNT(*) FROM said s JOIN said_texts t ON t.text_id = s.text_id
             JOIN said_names sn ON sn.n = s.session {joins}
             WHERE sn.name = ? AND s.agent IS (SELECT n FROM said_names WHERE name = ?)
               AND s.role = 2 AND t.tool IS ? AND s.text_id IN (SELECT value FROM json_each(?))
               AND s.record != ?{}",
            f.and_conds()
        );
        let mut args: Vec<&dyn rusqlite::ToSql> =
            vec![&hit.session_id, &hit.agent_id, &hit.tool, &ids, &hit.record];
        args.extend(f.args.iter().map(AsRef::as_ref));
        let n: i64 = self
            .conn
            .prepare_cached(&sql)?
            .query_row(args.as_slice(), |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Where text `id` was said last within the filters, with its text.
    fn place_of(
        &self,
        q: &SearchQuery<'_>,
        reader: &mut TextReader,
        id: i64,
        score: f64,
    ) -> Result<Option<Hit>> {
        let f = place_filter(q);
        let sql = format!(
            "SELECT sn.name, an.name, s.record, s.at, s.role, t.tool,
                    x.harness, x.project, COUNT(*) OVER (), x.title, t.block, t.start, t.len
             FROM said s JOIN said_names sn ON sn.n = s.session
             JOIN sessions x ON x.session_id = sn.name
             LEFT JOIN said_names an ON an.n = s.agent
             JOIN said_texts t ON t.text_id = s.text_id
             WHERE s.text_id = ?{}
             ORDER BY s.at DESC, sn.name, s.record, s.piece LIMIT 1",
            f.and_conds()
        );
        let mut args: Vec<&dyn rusqlite::ToSql> = vec![&id];
        args.extend(f.args.iter().map(AsRef::as_ref));
        let row = self
            .conn
            .prepare_cached(&sql)?
            .query_row(args.as_slice(), |r| {
                let (role, output) = role_of(r.get(4)?);
                let text_at: (i64, i64, i64) = (r.get(10)?, r.get(11)?, r.get(12)?);
                Ok((
                    Hit {
                        session_id: r.get(0)?,
                        agent_id: r.get(1)?,
                        record: r.get(2)?,
                        at: r.get(3)?,
                        role: role.to_string(),
                        output,
                        tool: r.get(5)?,
                        harness: r.get(6)?,
                        project: r.get(7)?,
                        text: String::new(),
                        title: r.get(9)?,
                        places: r.get::<_, i64>(8)? as u64,
                        score,
                        similar: 0,
                    },
                    text_at,
                ))
            })
            .optional()?;
        let Some((mut hit, (block, start, len))) = row else {
            return Ok(None);
        };
        hit.text = reader.text(&self.conn, block, start, len)?;
        Ok(Some(hit))
    }

    /// What session `session_id` said, in order: each place's record,
    /// agent, time, role, tool and text.
    pub fn said_in(&self, session_id: &str) -> Result<Vec<Place>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.record, s.piece, an.name, s.at, s.role, t.tool, t.block, t.start, t.len
             FROM said s JOIN said_texts t ON t.text_id = s.text_id
             LEFT JOIN said_names an ON an.n = s.agent
             WHERE s.session = (SELECT n FROM said_names WHERE name = ?1)
             ORDER BY s.at, s.record, s.piece",
        )?;
        let mut reader = TextReader::default();
        let mut rows = stmt.query([session_id])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let (role, output) = role_of(r.get(4)?);
            out.push(Place {
                record: r.get(0)?,
                piece: r.get::<_, i64>(1)? as u32,
                agent_id: r.get(2)?,
                at: r.get(3)?,
                role: role.to_string(),
                output,
                tool: r.get(5)?,
                text: reader.text(&self.conn, r.get(6)?, r.get(7)?, r.get(8)?)?,
            });
        }
        Ok(out)
    }
}

/// One place of a session's conversation (`said_in`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub record: String,
    pub piece: u32,
    pub agent_id: Option<String>,
    pub at: Option<Millis>,
    pub role: String,
    pub output: bool,
    pub tool: Option<String>,
    pub text: String,
}
