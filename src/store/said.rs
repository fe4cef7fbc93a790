//! The search index of what was said: `said_texts` (each distinct text
//! once, its bytes in compressed blocks, `blocks`), `said` (every place a
//! text was said) and the full-text index `said_fts` (contentless: which
//! texts hold each term, the terms made on the reader threads by
//! `matching::index_terms`). A part's texts, places and terms are written
//! in one transaction, so the index never lags what is stored. Searched
//! newest text first (`find`).

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, params};

mod blocks;
mod find;
mod known;

pub use find::{Hit, Matches, Place, SearchQuery};

use crate::domain::clock::Millis;
use crate::domain::transcript::ParsedSession;
use crate::domain::transcript::said::{Piece, Role};
use blocks::BlockWriter;
pub use blocks::{Prepacked, prepack};
use known::Known;
pub(crate) use known::KnownTexts;

/// Bits of a text's id below its first second (`said_texts`): few, so
/// that the full-text index, which stores each term's texts as the
/// differences between their ids, stores small numbers.
const SECOND_SHIFT: u32 = 2;

/// Texts said at no known time take ids below this, by their hash (spread
/// out: never a long run of taken ids to step over).
const UNTIMED: i64 = 1 << 20;

/// The id a text first said at `at` would take (before collisions).
fn fresh_id(at: Option<Millis>, hash: i64) -> i64 {
    match at {
        None => hash & (UNTIMED - 1),
        Some(ms) => {
            let secs = ms.div_euclid(1000).clamp(0, 1 << 50);
            ((secs << SECOND_SHIFT) | (hash & ((1 << SECOND_SHIFT) - 1))).max(UNTIMED)
        }
    }
}

/// How `said.role` holds who said a piece, and whether it is an output.
fn role_code(role: Role, output: bool) -> i64 {
    match (role, output) {
        (Role::User, _) => 0,
        (Role::Assistant, _) => 1,
        (Role::Tool, false) => 2,
        (Role::Tool, true) => 3,
    }
}

/// `role_code`'s inverse: the role's name and whether it is an output.
fn role_of(code: i64) -> (&'static str, bool) {
    match code {
        0 => ("user", false),
        1 => ("assistant", false),
        3 => ("tool", true),
        _ => ("tool", false),
    }
}

/// The number of a session's or agent's id (`said_names`), added when new.
fn name_id(conn: &Connection, name: &str) -> Result<i64> {
    match known_name(conn, name)? {
        Some(n) => Ok(n),
        None => Ok(conn
            .prepare_cached("INSERT INTO said_names(name) VALUES (?1) RETURNING n")?
            .query_row([name], |r| r.get(0))?),
    }
}

/// The number of a name already known.
fn known_name(conn: &Connection, name: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT n FROM said_names WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?)
}

/// Terms waiting to go into the full-text index, written in order of id
/// at the end (`flush`): FTS5 writes its in-memory postings out as a
/// segment whenever a text's id is below the one before (and then merges
/// the segments), and texts come in the order sessions were read. Each
/// text's terms are copied into one buffer (a build holds a batch of
/// tens of thousands: one allocation each was a tenth of its writer).
#[derive(Debug, Default)]
pub(super) struct PendingTerms {
    /// Text id -> where its terms are in `buf`.
    at: std::collections::BTreeMap<i64, (usize, usize)>,
    buf: String,
}

impl PendingTerms {
    /// Text `id`'s terms wait for the next flush.
    fn add(&mut self, id: i64, terms: &str) {
        let start = self.buf.len();
        self.buf.push_str(terms);
        self.at.insert(id, (start, self.buf.len()));
    }

    /// Writes the waiting terms, in order of id.
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<()> {
        let mut add = conn.prepare_cached("INSERT INTO said_fts(rowid, terms) VALUES (?1, ?2)")?;
        for (id, (start, end)) in std::mem::take(&mut self.at) {
            add.execute(params![id, &self.buf[start..end]])?;
        }
        self.buf.clear();
        Ok(())
    }

    /// Forgets the waiting terms (their transaction was rolled back).
    pub(super) fn clear(&mut self) {
        self.at.clear();
        self.buf.clear();
    }

    /// Takes text `id` out of the full-text index, or out of the wait.
    fn remove(&mut self, conn: &Connection, id: i64) -> Result<()> {
        if self.at.remove(&id).is_none() {
            conn.prepare_cached("DELETE FROM said_fts WHERE rowid = ?1")?
                .execute([id])?;
        }
        Ok(())
    }
}

/// The first id from `start` no text holds.
fn free_id(conn: &Connection, start: i64) -> Result<i64> {
    let mut id = start;
    let mut taken =
        conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM said_texts WHERE text_id = ?1)")?;
    while taken.query_row([id], |r| r.get::<_, bool>(0))? {
        id += 1;
    }
    Ok(id)
}

/// Takes a text out of `said_texts`, its block, the full-text index and
/// the build's map.
fn delete_text(
    conn: &Connection,
    id: i64,
    terms: &mut PendingTerms,
    known: &mut KnownTexts,
) -> Result<()> {
    let row: Option<(i64, i64, Option<String>, i64)> = conn
        .prepare_cached("SELECT block, hash, tool, len FROM said_texts WHERE text_id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    if let Some((block, hash, tool, len)) = row {
        conn.prepare_cached("DELETE FROM said_texts WHERE text_id = ?1")?
            .execute([id])?;
        terms.remove(conn, id)?;
        known.remove(known::key(hash, tool.as_deref(), len as usize));
        blocks::release(conn, block)?;
    }
    Ok(())
}

/// The id of a piece's text, added when new (its bytes to `blocks`, its
/// terms to the full-text index). A text said earlier than its id says
/// moves to the earlier id, so that ids do not depend on the order
/// sessions are read in.
fn text_id(
    conn: &Connection,
    (p, n): (&Piece, usize),
    at: Option<Millis>,
    (blocks, add): (&mut BlockWriter<'_>, &mut rusqlite::CachedStatement<'_>),
    batch: (&mut PendingTerms, &mut KnownTexts),
) -> Result<i64> {
    let (terms, known) = batch;
    // Made on the reader (`said::text_hash`), stored signed.
    let hash = p.hash as i64;
    let key = known::key(hash, p.tool.as_deref(), p.text.len());
    let found: Option<i64> = match known.get(key) {
        Known::Id(id) => Some(id),
        Known::New => None,
        Known::Unsure => {
            known.index_lookups(conn)?;
            conn.prepare_cached(
                "SELECT text_id FROM said_texts WHERE hash = ?1 AND tool IS ?2 AND len = ?3 LIMIT 1",
            )?
            .query_row(params![hash, p.tool, p.text.len() as i64], |r| r.get(0))
            .optional()?
        }
    };
    let start = fresh_id(at, hash);
    match found {
        Some(id) if at.is_none() || id >> SECOND_SHIFT <= start >> SECOND_SHIFT => {
            known.set(key, id);
            Ok(id)
        }
        Some(old) => {
            let id = free_id(conn, start)?;
            conn.prepare_cached("UPDATE said_texts SET text_id = ?2 WHERE text_id = ?1")?
                .execute(params![old, id])?;
            conn.prepare_cached("UPDATE said SET text_id = ?2 WHERE text_id = ?1")?
                .execute(params![old, id])?;
            terms.remove(conn, old)?;
            terms.add(id, &p.terms);
            known.set(key, id);
            Ok(id)
        }
        None => {
            let (block, at) = blocks.place(conn, &p.text, n)?;
            // The first free id from `start`, taken as it is found.
            let mut id = start;
            while add.execute(params![id, hash, p.tool, block, at, p.text.len() as i64])? == 0 {
                id += 1;
            }
            terms.add(id, &p.terms);
            known.set(key, id);
            Ok(id)
        }
    }
}

/// Removes the texts among `ids` that nothing says any more.
fn drop_unsaid(
    conn: &Connection,
    ids: &[i64],
    terms: &mut PendingTerms,
    known: &mut KnownTexts,
) -> Result<()> {
    for &id in ids {
        let said: bool = conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM said WHERE text_id = ?1)")?
            .query_row([id], |r| r.get(0))?;
        if !said {
            delete_text(conn, id, terms, known)?;
        }
    }
    Ok(())
}

/// The texts a session's places name.
fn texts_of(conn: &Connection, session: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached("SELECT DISTINCT text_id FROM said WHERE session = ?1")?;
    let ids = stmt.query_map([session], |r| r.get(0))?;
    Ok(ids.collect::<Result<_, _>>()?)
}

/// Removes what sessions said, and the texts only they said.
pub(super) fn forget_sessions(conn: &Connection, ids: &[String]) -> Result<()> {
    for sid in ids {
        super::said_whole::mark(conn, sid, false)?;
        let Some(n) = known_name(conn, sid)? else {
            continue;
        };
        let texts = texts_of(conn, n)?;
        conn.execute("DELETE FROM said WHERE session = ?1", [n])?;
        drop_unsaid(
            conn,
            &texts,
            &mut PendingTerms::default(),
            &mut KnownTexts::default(),
        )?;
    }
    Ok(())
}

/// Writes what a part of a session says: with `replace`, in place of what
/// the session said before (texts nothing says any more are dropped); a
/// record said again (a client rewriting a message) keeps its last words.
pub(super) fn write_said(conn: &Connection, p: &ParsedSession, replace: bool) -> Result<()> {
    let mut terms = PendingTerms::default();
    write_said_into(
        conn,
        (p, None),
        replace,
        (&mut terms, &mut KnownTexts::default()),
    )?;
    terms.flush(conn)
}

/// The number of a record's agent (`said_names`), `None` for the
/// session's main one; `agents` remembers those numbered in this part.
fn agent_of<'a>(
    conn: &Connection,
    session_id: &str,
    agent_id: &'a str,
    agents: &mut std::collections::HashMap<&'a str, i64, foldhash::fast::RandomState>,
) -> Result<Option<i64>> {
    if agent_id == session_id {
        return Ok(None);
    }
    if let Some(&n) = agents.get(agent_id) {
        return Ok(Some(n));
    }
    let n = name_id(conn, agent_id)?;
    agents.insert(agent_id, n);
    Ok(Some(n))
}

/// The statements a part runs for each piece, taken from the statement
/// cache once per part rather than once per piece (each time, the cache
/// hashes the statement's text).
struct PieceStatements<'c> {
    /// A new text's row (`text_id`).
    add_text: rusqlite::CachedStatement<'c>,
    /// The text a place named before.
    before: rusqlite::CachedStatement<'c>,
    /// A place, in place of the one it was.
    place: rusqlite::CachedStatement<'c>,
}

impl<'c> PieceStatements<'c> {
    fn new(conn: &'c Connection) -> Result<PieceStatements<'c>> {
        Ok(PieceStatements {
            add_text: conn.prepare_cached(
                "INSERT INTO said_texts(text_id, hash, tool, block, start, len)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(text_id) DO NOTHING",
            )?,
            before: conn.prepare_cached(
                "SELECT text_id FROM said WHERE session = ?1 AND record = ?2 AND piece = ?3",
            )?,
            place: conn.prepare_cached(
                "INSERT INTO said(session, record, piece, agent, at, role, text_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT(session, record, piece) DO UPDATE SET agent = excluded.agent,
                   at = excluded.at, role = excluded.role, text_id = excluded.text_id",
            )?,
        })
    }
}

/// `write_said`, its new texts' terms left in `terms` for the caller to
/// flush before it commits, the texts it finds or adds kept in `known`.
pub(super) fn write_said_into(
    conn: &Connection,
    (p, pre): (&ParsedSession, Option<&Prepacked>),
    replace: bool,
    batch: (&mut PendingTerms, &mut KnownTexts),
) -> Result<()> {
    let (terms, known) = batch;
    let sid = p.session_id.as_str();
    // A session is numbered when it first says something.
    let session = match known_name(conn, sid)? {
        Some(n) => n,
        None if p.said.is_empty() => return Ok(()),
        None => name_id(conn, sid)?,
    };
    let mut replaced = Vec::new();
    if replace {
        replaced = texts_of(conn, session)?;
        conn.execute("DELETE FROM said WHERE session = ?1", [session])?;
    }
    let mut blocks = match pre {
        Some(pre) => BlockWriter::prepacked(session, pre),
        None => BlockWriter::new(session),
    };
    // Each piece's place in the part (`Prepacked`'s order).
    let mut nth = 0;
    // After a replace, a place can only be there already when this part
    // said its record twice: only then is it looked up.
    // (Hashed with foldhash: std's SipHash was a few percent of the writer.)
    let mut records: std::collections::HashSet<&str, foldhash::fast::RandomState> =
        std::collections::HashSet::default();
    let mut agents = std::collections::HashMap::default();
    let mut st = PieceStatements::new(conn)?;
    for s in &p.said {
        let agent = agent_of(conn, sid, &s.agent_id, &mut agents)?;
        let again = !records.insert(s.record.as_str());
        for (n, piece) in s.pieces.iter().enumerate() {
            let texts = (&mut blocks, &mut st.add_text);
            let id = text_id(conn, (piece, nth), s.at, texts, (&mut *terms, &mut *known))?;
            nth += 1;
            let before: Option<i64> = if replace && !again {
                None
            } else {
                st.before
                    .query_row(params![session, s.record, n as i64], |r| r.get(0))
                    .optional()?
            };
            let role = role_code(piece.role, piece.output);
            st.place
                .execute(params![session, s.record, n as i64, agent, s.at, role, id])?;
            if let Some(b) = before.filter(|b| *b != id) {
                replaced.push(b);
            }
        }
    }
    blocks.flush(conn)?;
    replaced.sort_unstable();
    replaced.dedup();
    drop_unsaid(conn, &replaced, terms, known)
}
