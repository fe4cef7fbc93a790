//! The search index of what was said: `said_texts` (each distinct text
//! once, with its FTS5 index `said_fts`) and `said` (every place a text
//! was said). The texts and places are written with the session's part,
//! in its transaction; the full-text index takes the new texts after the
//! run, in batches (`index_pending`): indexing a run's texts at once
//! writes each index page a few times, part by part dozens. Searched
//! newest text first.

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, params};

use super::Store;

mod pack;
use crate::domain::clock::Millis;
use crate::domain::transcript::ParsedSession;
use crate::domain::transcript::said::{Piece, Role};
use pack::{pack, unpack};

/// Matches looked at per hit asked for: a tool's repeated calls (a todo
/// list sent again each turn) fold into one hit.
const FOLD_LOOK: usize = 10;

/// Bits of a text's id below its first second (`said_texts`).
const SECOND_SHIFT: u32 = 20;

/// The hash a text is found by: xxh3-64 of its tool's name and its text.
fn hash_of(tool: Option<&str>, text: &str) -> i64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(tool.unwrap_or("").as_bytes());
    h.update(&[0]);
    h.update(text.as_bytes());
    h.digest() as i64
}

/// The id a text first said at `at` would take (before collisions).
fn fresh_id(at: Option<Millis>, hash: i64) -> i64 {
    let secs = at.map_or(0, |ms| ms.div_euclid(1000)).clamp(0, 1 << 40);
    (secs << SECOND_SHIFT) | (hash & ((1 << SECOND_SHIFT) - 1))
}

/// Adds a text to `said_texts` under a free id from `start`, to be
/// indexed (`Store::index_pending`).
fn insert_text(tx: &Transaction<'_>, start: i64, hash: i64, p: &Piece) -> Result<i64> {
    let mut id = start;
    let mut ins = tx.prepare_cached(
        "INSERT INTO said_texts(text_id, hash, tool, text) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(text_id) DO NOTHING",
    )?;
    let stored = pack(p);
    while ins.execute(params![id, hash, p.tool, stored])? == 0 {
        id += 1;
    }
    tx.prepare_cached("INSERT INTO said_unindexed(text_id) VALUES (?1)")?
        .execute([id])?;
    Ok(id)
}

/// Takes a text out of `said_texts` and the index.
fn delete_text(tx: &Transaction<'_>, id: i64) -> Result<()> {
    let row: Option<(Option<String>, String)> = tx
        .prepare_cached("SELECT tool, text FROM said_texts WHERE text_id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, unpack(r.get_ref(1)?)?)))
        .optional()?;
    let unindexed = tx
        .prepare_cached("DELETE FROM said_unindexed WHERE text_id = ?1")?
        .execute([id])?
        > 0;
    if let Some((tool, text)) = row {
        if !unindexed {
            tx.prepare_cached(
                "INSERT INTO said_fts(said_fts, rowid, tool, text) VALUES ('delete', ?1, ?2, ?3)",
            )?
            .execute(params![id, tool, text])?;
        }
        tx.prepare_cached("DELETE FROM said_texts WHERE text_id = ?1")?
            .execute([id])?;
    }
    Ok(())
}

/// The id of a piece's text, added when new. A text said earlier than its
/// id says moves to the earlier id, so that ids do not depend on the
/// order sessions are read in.
fn text_id(tx: &Transaction<'_>, p: &Piece, at: Option<Millis>) -> Result<i64> {
    let hash = hash_of(p.tool.as_deref(), &p.text);
    let found: Option<i64> = {
        let mut stmt =
            tx.prepare_cached("SELECT text_id, tool, text FROM said_texts WHERE hash = ?1")?;
        let mut rows = stmt.query([hash])?;
        let mut found = None;
        while let Some(r) = rows.next()? {
            let (tool, text): (Option<String>, String) = (r.get(1)?, unpack(r.get_ref(2)?)?);
            if tool == p.tool && text == p.text {
                found = Some(r.get(0)?);
                break;
            }
        }
        found
    };
    let start = fresh_id(at, hash);
    match found {
        Some(id) if id >> SECOND_SHIFT <= start >> SECOND_SHIFT => Ok(id),
        Some(old) => {
            let id = insert_text(tx, start, hash, p)?;
            tx.prepare_cached("UPDATE said SET text_id = ?2 WHERE text_id = ?1")?
                .execute(params![old, id])?;
            delete_text(tx, old)?;
            Ok(id)
        }
        None => insert_text(tx, start, hash, p),
    }
}

/// Removes the texts among `ids` that nothing says any more.
fn drop_unsaid(tx: &Transaction<'_>, ids: &[i64]) -> Result<()> {
    for &id in ids {
        let said: bool = tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM said WHERE text_id = ?1)")?
            .query_row([id], |r| r.get(0))?;
        if !said {
            delete_text(tx, id)?;
        }
    }
    Ok(())
}

/// The texts a session's rows name.
fn texts_of(tx: &Transaction<'_>, session_id: &str) -> Result<Vec<i64>> {
    let mut stmt = tx.prepare_cached("SELECT DISTINCT text_id FROM said WHERE session_id = ?1")?;
    let ids = stmt.query_map([session_id], |r| r.get(0))?;
    Ok(ids.collect::<Result<_, _>>()?)
}

/// Removes what sessions said, and the texts only they said.
pub(super) fn forget_sessions(tx: &Transaction<'_>, ids: &[String]) -> Result<()> {
    for sid in ids {
        let texts = texts_of(tx, sid)?;
        tx.execute("DELETE FROM said WHERE session_id = ?1", [sid])?;
        super::said_whole::mark(tx, sid, false)?;
        drop_unsaid(tx, &texts)?;
    }
    Ok(())
}

/// Writes what a part of a session says: with `replace`, in place of what
/// the session said before (texts nothing says any more are dropped); a
/// record said again (a client rewriting a message) keeps its last words.
pub(super) fn write_said(tx: &Transaction<'_>, p: &ParsedSession, replace: bool) -> Result<()> {
    let sid = p.session_id.as_str();
    let mut replaced = Vec::new();
    if replace {
        replaced = texts_of(tx, sid)?;
        tx.execute("DELETE FROM said WHERE session_id = ?1", [sid])?;
    }
    // After a replace, a place can only be there already when this part
    // said its record twice: only then is it looked up.
    let mut records: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for s in &p.said {
        let agent = (s.agent_id != sid).then_some(s.agent_id.as_str());
        let again = !records.insert(s.record.as_str());
        for (n, piece) in s.pieces.iter().enumerate() {
            let id = text_id(tx, piece, s.at)?;
            let before: Option<i64> = if replace && !again {
                None
            } else {
                tx.prepare_cached(
                    "SELECT text_id FROM said WHERE session_id = ?1 AND record = ?2 AND piece = ?3",
                )?
                .query_row(params![sid, s.record, n as i64], |r| r.get(0))
                .optional()?
            };
            tx.prepare_cached(
                "INSERT INTO said(session_id, record, piece, agent_id, at, role, output, text_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(session_id, record, piece) DO UPDATE SET agent_id = excluded.agent_id,
                   at = excluded.at, role = excluded.role, output = excluded.output,
                   text_id = excluded.text_id",
            )?
            .execute(params![
                sid,
                s.record,
                n as i64,
                agent,
                s.at,
                piece.role.as_str(),
                piece.output,
                id
            ])?;
            if let Some(b) = before.filter(|b| *b != id) {
                replaced.push(b);
            }
        }
    }
    replaced.sort_unstable();
    replaced.dedup();
    drop_unsaid(tx, &replaced)
}

/// What a search asks for.
#[derive(Debug, Clone, Default)]
pub struct SearchQuery<'a> {
    /// An FTS5 query (`domain::matching::search_expression`).
    pub expression: &'a str,
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

/// The conditions `q` puts on a place a text was said (`s` the said row,
/// `x` its session), with their arguments in order: only those asked for,
/// so SQLite can use the indexes. `session` says whether one reads `x`.
struct PlaceFilter<'q> {
    conds: Vec<&'static str>,
    args: Vec<Box<dyn rusqlite::ToSql + 'q>>,
    session: bool,
}

fn place_filter<'q>(q: &'q SearchQuery<'_>) -> PlaceFilter<'q> {
    let mut f = PlaceFilter {
        conds: Vec::new(),
        args: Vec::new(),
        session: q.project.is_some() || q.harness.is_some(),
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
        f.conds.push("s.session_id = ?");
        f.args.push(Box::new(sid));
    }
    if let Some(r) = q.role {
        f.conds.push("s.role = ?");
        f.args.push(Box::new(r.as_str()));
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

/// `q`'s conditions on the full-text index's walk: the texts said in a
/// place the filter keeps (`EXISTS`), and with `--until` an upper bound on
/// the ids; with their arguments.
fn walk_conditions<'q>(q: &'q SearchQuery<'_>) -> (String, Vec<Box<dyn rusqlite::ToSql + 'q>>) {
    let f = place_filter(q);
    let mut sql = String::new();
    let mut args: Vec<Box<dyn rusqlite::ToSql + 'q>> = Vec::new();
    if let Some(t) = q.until {
        // A text said before `until` was first said before it: its id is
        // below the next second's (ids are first seconds), a range the
        // index starts its walk from.
        sql.push_str("AND f.rowid < ? ");
        args.push(Box::new((t.div_euclid(1000) + 1).max(0) << SECOND_SHIFT));
    }
    if !f.conds.is_empty() {
        let join = if f.session {
            "JOIN sessions x ON x.session_id = s.session_id"
        } else {
            ""
        };
        sql.push_str(&format!(
            "AND EXISTS (SELECT 1 FROM said s {join} WHERE s.text_id = f.rowid AND {})",
            f.conds.join(" AND ")
        ));
        args.extend(f.args);
    }
    (sql, args)
}

impl Store {
    /// The texts matching `q`, best (or newest) first, each where it was
    /// said last. Relevance (bm25, with the tool's name worth twice the
    /// text) ranks the newest `window` matches, so a word in every text
    /// costs a bounded time.
    pub fn search(&self, q: &SearchQuery<'_>) -> Result<(Vec<Hit>, usize)> {
        let (exists, mut args) = walk_conditions(q);
        // Repeated tool calls fold into their best: more are looked at
        // than are shown.
        let look = q.limit.saturating_mul(FOLD_LOOK);
        let take = if q.newest { look } else { q.window.max(look) };
        let sql = format!(
            "SELECT f.rowid, bm25(said_fts, 2.0, 1.0) FROM said_fts f
             WHERE said_fts MATCH ? {exists} ORDER BY f.rowid DESC LIMIT ?"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        args.insert(0, Box::new(q.expression));
        args.push(Box::new(take as i64));
        let args: Vec<&dyn rusqlite::ToSql> = args.iter().map(AsRef::as_ref).collect();
        let mut found: Vec<(i64, f64)> = stmt
            .query_map(args.as_slice(), |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let matched = found.len();
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
            let Some(hit) = self.place_of(q, id, score)? else {
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
        Ok((out, matched))
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
        let conds: String = f.conds.iter().map(|c| format!(" AND {c}")).collect();
        let join = if f.session {
            "JOIN sessions x ON x.session_id = s.session_id"
        } else {
            ""
        };
        let sql = format!(
            "SELECT COUNT(*) FROM said s JOIN said_texts t ON t.text_id = s.text_id {join}
             WHERE s.session_id = ? AND s.agent_id IS ? AND s.role = 'tool' AND s.output = 0
               AND t.tool IS ? AND s.text_id IN (SELECT value FROM json_each(?))
               AND s.record != ?{conds}"
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
    fn place_of(&self, q: &SearchQuery<'_>, id: i64, score: f64) -> Result<Option<Hit>> {
        let f = place_filter(q);
        let conds: String = f.conds.iter().map(|c| format!(" AND {c}")).collect();
        let sql = format!(
            "SELECT s.session_id, s.agent_id, s.record, s.at, s.role, s.output, t.tool,
                    x.harness, x.project, COUNT(*) OVER (), t.text, x.title
             FROM said s JOIN sessions x ON x.session_id = s.session_id
             JOIN said_texts t ON t.text_id = s.text_id
             WHERE s.text_id = ?{conds}
             ORDER BY s.at DESC, s.session_id, s.record, s.piece LIMIT 1"
        );
        let mut args: Vec<&dyn rusqlite::ToSql> = vec![&id];
        args.extend(f.args.iter().map(AsRef::as_ref));
        let hit = self
            .conn
            .prepare_cached(&sql)?
            .query_row(args.as_slice(), |r| {
                Ok(Hit {
                    session_id: r.get(0)?,
                    agent_id: r.get(1)?,
                    record: r.get(2)?,
                    at: r.get(3)?,
                    role: r.get(4)?,
                    output: r.get(5)?,
                    tool: r.get(6)?,
                    harness: r.get(7)?,
                    project: r.get(8)?,
                    text: unpack(r.get_ref(10)?)?,
                    title: r.get(11)?,
                    places: r.get::<_, i64>(9)? as u64,
                    score,
                    similar: 0,
                })
            })
            .optional()?;
        Ok(hit)
    }

    /// Indexes the texts written since the last call, a batch of about
    /// `batch_bytes` of text per transaction (a hook waiting for the lock
    /// waits for one batch), until about `most` bytes are indexed (a hook's
    /// own run indexes its own texts, not what a killed bulk run left);
    /// the number of texts indexed.
    pub fn index_pending(&mut self, batch_bytes: u64, most: u64) -> Result<u64> {
        let (mut done, mut bytes) = (0, 0u64);
        while bytes < most {
            let n = self.index_batch(batch_bytes.min(most - bytes))?;
            if n == 0 {
                break;
            }
            done += n;
            bytes = bytes.saturating_add(batch_bytes.min(most - bytes));
        }
        Ok(done)
    }

    /// Indexes the oldest-written pending texts, about `batch_bytes` of
    /// them, in one transaction; how many (0: none was pending).
    pub fn index_batch(&mut self, batch_bytes: u64) -> Result<u64> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut n = 0u64;
        let mut last = None;
        {
            let mut bytes = 0u64;
            let mut stmt = tx.prepare_cached(
                // CROSS JOIN: the few pending ids lead, the texts are
                // looked up by id (never a scan of every text).
                "SELECT u.text_id, LENGTH(CAST(t.text AS BLOB)) FROM said_unindexed u
                 CROSS JOIN said_texts t ON t.text_id = u.text_id ORDER BY u.text_id",
            )?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                last = Some(r.get::<_, i64>(0)?);
                n += 1;
                bytes += r.get::<_, i64>(1)? as u64;
                if bytes >= batch_bytes {
                    break;
                }
            }
        }
        let Some(last) = last else {
            return Ok(0);
        };
        {
            // The index takes each text as it was said.
            let mut read = tx.prepare_cached(
                "SELECT t.text_id, t.tool, t.text FROM said_unindexed u
                 CROSS JOIN said_texts t ON t.text_id = u.text_id WHERE u.text_id <= ?1
                 ORDER BY u.text_id",
            )?;
            let mut add =
                tx.prepare_cached("INSERT INTO said_fts(rowid, tool, text) VALUES (?1, ?2, ?3)")?;
            let mut rows = read.query([last])?;
            while let Some(r) = rows.next()? {
                let id: i64 = r.get(0)?;
                let tool: Option<String> = r.get(1)?;
                add.execute(params![id, tool, unpack(r.get_ref(2)?)?])?;
            }
        }
        tx.execute("DELETE FROM said_unindexed WHERE text_id <= ?1", [last])?;
        tx.commit()?;
        self.pacer.committed();
        Ok(n)
    }

    /// Texts written but not yet in the full-text index.
    pub fn unindexed(&self) -> Result<u64> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM said_unindexed", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// What session `session_id` said, in order: each place's record,
    /// agent, time, role, tool and text.
    pub fn said_in(&self, session_id: &str) -> Result<Vec<Place>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.record, s.piece, s.agent_id, s.at, s.role, s.output, t.tool, t.text
             FROM said s JOIN said_texts t ON t.text_id = s.text_id
             WHERE s.session_id = ?1 ORDER BY s.at, s.record, s.piece",
        )?;
        let rows = stmt.query_map([session_id], |r| {
            Ok(Place {
                record: r.get(0)?,
                piece: r.get::<_, i64>(1)? as u32,
                agent_id: r.get(2)?,
                at: r.get(3)?,
                role: r.get(4)?,
                output: r.get(5)?,
                tool: r.get(6)?,
                text: unpack(r.get_ref(7)?)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
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
