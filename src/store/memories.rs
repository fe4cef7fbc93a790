//! Memories, commitments, their audit log, search and demand (issue 6). Every
//! write is one `BEGIN IMMEDIATE` transaction that writes its audit events
//! with it; a refused write changes nothing.

use anyhow::{Result, bail};
use rusqlite::{OptionalExtension, Row, Transaction, TransactionBehavior, params};

use super::Store;
use super::runs::{attach, check_run};
use crate::clock::{Millis, format_instant};
use crate::continuity::memory::duplicate::{Likeness, likeness, memory_words, probe_words};
use crate::continuity::memory::{
    self, Actor, Commitment, CommitmentStatus, CommitmentView, Demand, EventKind, Hit, Kind,
    Memory, MemoryError, MemoryEvent, MemoryFilter, MemoryStatus, MemoryView, NewMemory, REDACTED,
    Recalled, Remembered, Settle, SettlePlan, StatusFilter, Tags, Transition,
    commitment_transition, content_hash, decay, demand_weight,
};

/// A query word must be in more memories than this (and in over a tenth of
/// them) before `recall` leaves it out for rarer words; small stores keep
/// every word.
const COMMON_WORD_MIN_DOCS: i64 = 2000;

/// When every word of a query is common, `recall` ranks only this many of
/// the newest memories that match (bm25 reads a row of sizes for every
/// match it scores: a word in 10,000 memories cost 35 ms), widening it when
/// the filters leave fewer hits than asked for, and says so.
pub const COMMON_QUERY_POOL: i64 = 2000;

/// The run a transaction's events carry, found when the first event is
/// written (a write that turns out a no-op touches no run).
struct Provenance<'a> {
    project: &'a str,
    run: Option<Option<String>>,
}

impl<'a> Provenance<'a> {
    /// Refuses an unknown explicit run before anything else happens.
    fn start(tx: &Transaction<'_>, who: &Actor<'_>, project: &'a str) -> Result<Provenance<'a>> {
        check_run(tx, who.run)?;
        Ok(Provenance { project, run: None })
    }

    fn run(&mut self, tx: &Transaction<'_>, who: &Actor<'_>) -> Result<Option<String>> {
        if self.run.is_none() {
            self.run = Some(attach(tx, who.run, self.project, who.now, who.lease_ms)?);
        }
        Ok(self.run.clone().flatten())
    }
}

const MEMORY_COLUMNS: &str = "m.memory_id, m.kind, m.topic, m.description, m.content, m.project, m.scope, m.tags,
     m.status, m.pinned, m.content_hash, m.supersedes, m.valid_from, m.valid_to, m.created_at, m.updated_at,
     c.status, c.due_at, c.owner, c.resolved_at, c.updated_at";

pub(crate) fn memory_from(r: &Row<'_>) -> rusqlite::Result<Memory> {
    Ok(memory_view(r)?.to_memory())
}

/// The row of `MEMORY_COLUMNS`, borrowed.
fn memory_view<'r>(r: &'r Row<'_>) -> rusqlite::Result<MemoryView<'r>> {
    let text = |i: usize| -> rusqlite::Result<&'r str> {
        r.get_ref(i)?.as_str().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    let text_or_null = |i: usize| -> rusqlite::Result<Option<&'r str>> {
        r.get_ref(i)?.as_str_or_null().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    let commitment = match r.get::<_, Option<CommitmentStatus>>(16)? {
        Some(status) => Some(CommitmentView {
            status,
            due_at: r.get(17)?,
            owner: text_or_null(18)?,
            resolved_at: r.get(19)?,
            updated_at: r.get(20)?,
        }),
        None => None,
    };
    Ok(MemoryView {
        memory_id: text(0)?,
        kind: r.get(1)?,
        topic: text(2)?,
        description: text_or_null(3)?,
        content: text(4)?,
        project: text(5)?,
        scope: text(6)?,
        tags: Tags::Json(text(7)?),
        status: r.get(8)?,
        pinned: r.get(9)?,
        content_hash: text_or_null(10)?,
        supersedes: text_or_null(11)?,
        valid_from: r.get(12)?,
        valid_to: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
        commitment,
    })
}

pub(super) fn get_memory(tx: &rusqlite::Connection, id: &str) -> Result<Option<Memory>> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m LEFT JOIN commitments c USING (memory_id) WHERE m.memory_id = ?1"
        ))?
        .query_row([id], memory_from)
        .optional()?)
}

/// The live memory of this kind and project with this content hash: an
/// exact duplicate (the `memories_live_hash` index).
pub(super) fn live_with_hash(
    tx: &rusqlite::Connection,
    kind: Kind,
    project: &str,
    hash: &str,
) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached(
            "SELECT memory_id FROM memories WHERE kind = ?1 AND project = ?2 AND content_hash = ?3
               AND valid_to IS NULL AND status = 'active'",
        )?
        .query_row(params![kind, project, hash], |r| r.get(0))
        .optional()?)
}

/// The successor of a superseded memory.
pub(super) fn successor_of(tx: &rusqlite::Connection, id: &str) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached("SELECT memory_id FROM memories WHERE supersedes = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// A UUIDv7 at `now`; ids made in one process increase even within a
/// millisecond, so a transaction's events keep their order.
pub fn new_id(now: Millis) -> String {
    thread_local! {
        static CONTEXT: uuid::ContextV7 = const { uuid::ContextV7::new() };
    }
    CONTEXT.with(|ctx| {
        let ts = uuid::Timestamp::from_unix(
            ctx,
            u64::try_from(now.div_euclid(1000)).unwrap_or(0),
            (now.rem_euclid(1000) * 1_000_000) as u32,
        );
        uuid::Uuid::new_v7(ts).to_string()
    })
}

fn add_event(
    tx: &Transaction<'_>,
    prov: &mut Provenance<'_>,
    memory_id: &str,
    kind: EventKind,
    who: &Actor<'_>,
    reason: Option<&str>,
) -> Result<()> {
    let run = prov.run(tx, who)?;
    tx.prepare_cached(
        "INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, reason, created_at)
         VALUES (?1,?2,?3,?4,?5,?6,?7)",
    )?
    .execute(params![new_id(who.now), memory_id, kind, who.actor, run, reason, who.now])?;
    Ok(())
}

pub(super) fn insert_memory(tx: &Transaction<'_>, m: &Memory) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO memories(memory_id, kind, topic, description, content, project, scope, tags, status, pinned,
           content_hash, supersedes, valid_from, valid_to, created_at, updated_at)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
    )?
    .execute(params![
        m.memory_id,
        m.kind,
        m.topic,
        m.description,
        m.content,
        m.project,
        m.scope,
        serde_json::to_string(&m.tags)?,
        m.status,
        m.pinned,
        m.content_hash,
        m.supersedes,
        m.valid_from,
        m.valid_to,
        m.created_at,
        m.updated_at
    ])?;
    if let Some(c) = &m.commitment {
        write_commitment(tx, &m.memory_id, c)?;
    }
    Ok(())
}

fn write_commitment(tx: &Transaction<'_>, memory_id: &str, c: &Commitment) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO commitments(memory_id, status, due_at, owner, resolved_at, updated_at) VALUES (?1,?2,?3,?4,?5,?6)
         ON CONFLICT(memory_id) DO UPDATE SET status = excluded.status, due_at = excluded.due_at,
           owner = excluded.owner, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at",
    )?
    .execute(params![memory_id, c.status, c.due_at, c.owner, c.resolved_at, c.updated_at])?;
    Ok(())
}

/// The near-duplicate candidates: the search's matches first, then their
/// memories. CROSS JOIN keeps that order: left to choose, SQLite 3.54 read
/// the project's memories of the kind first and probed the index once per
/// memory, re-reading every query word each time (12 ms instead of 0.4 on
/// 200 memories).
const DUPLICATE_CANDIDATES: &str =
    "SELECT m.memory_id, m.topic, m.content FROM memories_fts f CROSS JOIN memories m ON m.rowid = f.rowid
     WHERE memories_fts MATCH ?1 AND m.kind = ?2 AND m.project = ?3 AND m.valid_to IS NULL
       AND m.status = 'active' AND m.memory_id IS NOT ?4
     ORDER BY f.rank LIMIT 50";

/// The live memory of the same kind and project that `m` most likely repeats.
fn likely_duplicate(
    tx: &Transaction<'_>,
    m: &NewMemory,
    except: Option<&str>,
) -> Result<Option<(String, Likeness)>> {
    let same_topic: Option<String> = tx
        .prepare_cached(
            "SELECT memory_id FROM memories WHERE kind = ?1 AND project = ?2 AND valid_to IS NULL AND status = 'active'
               AND lower(topic) = lower(?3) AND memory_id IS NOT ?4 LIMIT 1",
        )?
        .query_row(params![m.kind, m.project, m.topic, except], |r| r.get(0))
        .optional()?;
    if let Some(id) = same_topic {
        return Ok(Some((id, Likeness::SameTopic)));
    }
    let mine = memory_words(&m.topic, &m.content);
    if mine.is_empty() {
        return Ok(None);
    }
    let mut doc = tx.prepare_cached("SELECT doc FROM memories_vocab WHERE term = ?1")?;
    let docs = mine
        .iter()
        .map(|w| Ok(doc.query_row([w], |r| r.get(0)).optional()?.unwrap_or(0)))
        .collect::<Result<Vec<i64>>>()?;
    let query = fts_query(probe_words(&mine, &docs).into_iter());
    let mut stmt = tx.prepare_cached(DUPLICATE_CANDIDATES)?;
    let mut rows = stmt.query(params![query, m.kind, m.project, except])?;
    while let Some(r) = rows.next()? {
        let (id, topic, content): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
        if let Some(l) = likeness(&mine, &topic, &content) {
            return Ok(Some((id, l)));
        }
    }
    Ok(None)
}

/// An FTS5 query matching any of `terms`, each quoted (no query syntax leaks).
pub fn fts_query<'a>(terms: impl Iterator<Item = &'a str>) -> String {
    terms
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" OR ")
}

impl Store {
    /// A memory id from a unique prefix (at least 4 characters).
    pub fn resolve_memory(&self, prefix: &str) -> Result<String> {
        let prefix = prefix.trim();
        if prefix.len() < 4 {
            bail!("give at least 4 characters of a memory id, not {prefix:?}");
        }
        match self.match_prefix("memories", "memory_id", prefix)? {
            super::PrefixMatch::None => Err(MemoryError::NotFound(prefix.to_string()).into()),
            super::PrefixMatch::One(id) => Ok(id),
            super::PrefixMatch::Many { count, .. } => Err(MemoryError::Ambiguous {
                prefix: prefix.to_string(),
                count,
            }
            .into()),
        }
    }

    pub fn memory(&self, id: &str) -> Result<Memory> {
        get_memory(&self.conn, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()).into())
    }

    /// Writes a new memory (event `create`), unless an exact duplicate is
    /// live (its id is returned, nothing is written) or, without `force`, a
    /// likely duplicate is (refused).
    pub fn remember(&mut self, m: &NewMemory, force: bool, who: &Actor<'_>) -> Result<Remembered> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut prov = Provenance::start(&tx, who, &m.project)?;
        let hash = content_hash(&m.content);
        let exact = live_with_hash(&tx, m.kind, &m.project, &hash)?;
        if let Some(id) = exact {
            return Ok(Remembered::Existing(id));
        }
        if !force && let Some((id, why)) = likely_duplicate(&tx, m, None)? {
            return Err(MemoryError::LikelyDuplicate { id, why }.into());
        }
        let id = new_id(who.now);
        let memory = Memory {
            memory_id: id.clone(),
            kind: m.kind,
            topic: m.topic.clone(),
            description: m.description.clone(),
            content: m.content.clone(),
            project: m.project.clone(),
            scope: m.scope.clone(),
            tags: m.tags.clone(),
            status: MemoryStatus::Active,
            pinned: m.pinned,
            content_hash: Some(hash),
            supersedes: None,
            valid_from: who.now,
            valid_to: None,
            created_at: who.now,
            updated_at: who.now,
            commitment: (m.kind == Kind::Commitment).then(|| Commitment {
                status: CommitmentStatus::Open,
                due_at: m.due_at,
                owner: m.owner.clone(),
                resolved_at: None,
                updated_at: who.now,
            }),
        };
        insert_memory(&tx, &memory)?;
        add_event(&tx, &mut prov, &id, EventKind::Create, who, None)?;
        tx.commit()?;
        Ok(Remembered::Created(id))
    }

    /// Supersedes the live memory `id` with `next` (events `create` on the
    /// successor and `supersede` on the predecessor, in one transaction); a
    /// commitment carries its state over, then moves to `status` when given.
    /// With no change of content or fields, only the status moves. Returns the
    /// live id afterwards.
    pub fn revise(
        &mut self,
        id: &str,
        next: &NewMemory,
        status: Option<CommitmentStatus>,
        force: bool,
        who: &Actor<'_>,
    ) -> Result<String> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let old = live(&tx, id)?;
        let mut prov = Provenance::start(&tx, who, &next.project)?;
        let mut live_id = old.memory_id.clone();
        let changed = old.kind != next.kind
            || old.topic != next.topic
            || old.description != next.description
            || old.content != next.content
            || old.project != next.project
            || old.scope != next.scope
            || old.tags != next.tags
            || old.pinned != next.pinned
            || old.commitment.as_ref().map(|c| (c.due_at, c.owner.clone()))
                != (next.kind == Kind::Commitment).then(|| (next.due_at, next.owner.clone()));
        if changed {
            if !force
                && let Some((dup, why)) = likely_duplicate(&tx, next, Some(&old.memory_id))?
                && dup != old.memory_id
            {
                return Err(MemoryError::LikelyDuplicate { id: dup, why }.into());
            }
            tx.prepare_cached(
                "UPDATE memories SET valid_to = ?2, updated_at = ?2 WHERE memory_id = ?1",
            )?
            .execute(params![old.memory_id, who.now])?;
            let new_id = new_id(who.now);
            let hash = content_hash(&next.content);
            let clash = live_with_hash(&tx, next.kind, &next.project, &hash)?;
            if let Some(other) = clash {
                bail!(
                    "the revised memory would repeat {other} exactly: revise or archive that one instead"
                );
            }
            let commitment = (next.kind == Kind::Commitment).then(|| {
                let carried = old.commitment.clone();
                Commitment {
                    status: carried
                        .as_ref()
                        .map_or(CommitmentStatus::Open, |c| c.status),
                    due_at: next.due_at,
                    owner: next.owner.clone(),
                    resolved_at: carried.and_then(|c| c.resolved_at),
                    updated_at: who.now,
                }
            });
            insert_memory(
                &tx,
                &Memory {
                    memory_id: new_id.clone(),
                    kind: next.kind,
                    topic: next.topic.clone(),
                    description: next.description.clone(),
                    content: next.content.clone(),
                    project: next.project.clone(),
                    scope: next.scope.clone(),
                    tags: next.tags.clone(),
                    status: MemoryStatus::Active,
                    pinned: next.pinned,
                    content_hash: Some(hash),
                    supersedes: Some(old.memory_id.clone()),
                    valid_from: who.now,
                    valid_to: None,
                    created_at: who.now,
                    updated_at: who.now,
                    commitment,
                },
            )?;
            add_event(&tx, &mut prov, &new_id, EventKind::Create, who, None)?;
            add_event(
                &tx,
                &mut prov,
                &old.memory_id,
                EventKind::Supersede,
                who,
                None,
            )?;
            live_id = new_id;
        }
        if let Some(to) = status {
            move_commitment(&tx, &mut prov, &live_id, memory::revise_status(to)?, who)?;
        } else if !changed {
            bail!("nothing to revise: give a field to change or --status");
        }
        tx.commit()?;
        Ok(live_id)
    }

    /// `resolve`, `unresolve`, `archive` (study B3, B4). Returns whether
    /// anything changed (a no-op writes nothing).
    pub fn settle_memory(&mut self, id: &str, verb: Settle, who: &Actor<'_>) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let m = get_memory(&tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
        if m.valid_to.is_some() {
            let by = successor_of(&tx, id)?.unwrap_or_default();
            return Err(MemoryError::Superseded {
                id: id.to_string(),
                by,
            }
            .into());
        }
        let plan = memory::settle_plan(verb, m.kind)?;
        let mut prov = Provenance::start(&tx, who, &m.project)?;
        let changed = match plan {
            SettlePlan::Commitment(to) => move_commitment(&tx, &mut prov, id, to, who)?,
            SettlePlan::Archive if m.status == MemoryStatus::Archived => false,
            SettlePlan::Archive => {
                tx.prepare_cached(
                    "UPDATE memories SET status = 'archived', updated_at = ?2 WHERE memory_id = ?1",
                )?
                .execute(params![id, who.now])?;
                add_event(&tx, &mut prov, id, EventKind::Archive, who, None)?;
                true
            }
        };
        tx.commit()?;
        Ok(changed)
    }

    /// Replaces a memory's content, topic and description with a marker and
    /// empties its tags (a secret pasted into any of them); the search index
    /// follows; event `redact` says who and when, never what.
    /// Freed pages are zeroed and the search index merged, so the old text
    /// does not linger in the file.
    pub fn redact_memory(&mut self, id: &str, reason: Option<&str>, who: &Actor<'_>) -> Result<()> {
        self.conn.execute_batch("PRAGMA secure_delete = ON")?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let m = get_memory(&tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
        tx.prepare_cached(
            "UPDATE memories SET content = ?2, topic = ?2, tags = '[]',
               description = CASE WHEN description IS NULL THEN NULL ELSE ?2 END,
               content_hash = NULL, updated_at = ?3 WHERE memory_id = ?1",
        )?
        .execute(params![m.memory_id, REDACTED, who.now])?;
        // A redaction is upkeep, not a run's work: never attributed.
        let mut prov = Provenance {
            project: &m.project,
            run: Some(None),
        };
        add_event(&tx, &mut prov, id, EventKind::Redact, who, reason)?;
        tx.execute(
            "INSERT INTO memories_fts(memories_fts) VALUES ('optimize')",
            [],
        )?;
        tx.commit()?;
        Ok(())
    }

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
        let join = if status_commitment.is_some() {
            "JOIN"
        } else {
            "LEFT JOIN"
        };
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
        let index = if f.kind.is_some()
            && f.project.is_none()
            && !f.all
            && status_memory.is_none()
            && !f.full
        {
            "INDEXED BY memories_listing"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {columns} FROM memories m {index} {join} commitments c USING (memory_id) {filter}
             ORDER BY m.created_at DESC, m.memory_id DESC"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(args.as_slice())?;
        while let Some(r) = rows.next()? {
            visit(memory_view(r)?)?;
        }
        Ok(())
    }

    /// The supersession chain through `id`, oldest first.
    pub fn chain(&self, id: &str) -> Result<Vec<String>> {
        let mut back = vec![id.to_string()];
        while let Some(prev) =
            get_memory(&self.conn, back.last().unwrap())?.and_then(|m| m.supersedes)
        {
            if back.contains(&prev) {
                break;
            }
            back.push(prev);
        }
        back.reverse();
        let mut cur = id.to_string();
        while let Some(next) = successor_of(&self.conn, &cur)? {
            if back.contains(&next) {
                break;
            }
            back.push(next.clone());
            cur = next;
        }
        Ok(back)
    }

    pub fn memory_events(&self, memory_id: Option<&str>) -> Result<Vec<MemoryEvent>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT event_id, memory_id, kind, actor, session_run_id, reason, created_at FROM memory_events
             WHERE ?1 IS NULL OR memory_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([memory_id], |r| {
            Ok(MemoryEvent {
                event_id: r.get(0)?,
                memory_id: r.get(1)?,
                kind: r.get(2)?,
                actor: r.get(3)?,
                session_run_id: r.get(4)?,
                reason: r.get(5)?,
                created_at: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Ranked search (bm25: topic ×4, description and tags ×2, content ×1;
    /// ties by recency) with a highlighted snippet.
    pub fn recall(
        &self,
        query: &str,
        kind: Option<Kind>,
        project: Option<&str>,
        all: bool,
        limit: u64,
    ) -> Result<Recalled> {
        let terms: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .fold(Vec::new(), |mut seen, t| {
                // A repeated word counts once.
                if !seen.contains(&t) {
                    seen.push(t);
                }
                seen
            });
        if terms.is_empty() {
            bail!("the query {query:?} has no words to search for");
        }
        // A word in more than a tenth of all memories (and in thousands of
        // them) barely moves bm25 but costs a score for every memory it is
        // in: when the query has rarer words, it is left out. (Memories are never deleted, so the largest
        // rowid is their number, read without a scan.)
        let total: i64 =
            self.conn
                .query_row("SELECT COALESCE(MAX(rowid), 0) FROM memories", [], |r| {
                    r.get(0)
                })?;
        let mut doc = self
            .conn
            .prepare_cached("SELECT doc FROM memories_vocab WHERE term = ?1")?;
        let mut counted: Vec<(i64, &str)> = Vec::with_capacity(terms.len());
        for t in &terms {
            counted.push((doc.query_row([t], |r| r.get(0)).optional()?.unwrap_or(0), t));
        }
        let common = |n: i64| n * 10 > total && n > COMMON_WORD_MIN_DOCS;
        let all_common = counted.iter().all(|(n, _)| common(*n));
        let kept: Vec<&str> = if all_common {
            terms.iter().map(String::as_str).collect()
        } else {
            counted
                .iter()
                .filter(|(n, _)| !common(*n))
                .map(|(_, t)| *t)
                .collect()
        };
        let q = fts_query(kept.into_iter());
        // Rank inside the index first (only the best `k`; of only the newest
        // `pool` matches when every word is common), then filter; widen
        // when the filters leave fewer than `limit`.
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
        let mut k = (limit as i64).saturating_mul(4).max(40);
        let mut pool = COMMON_QUERY_POOL;
        let rows: Vec<(Memory, f64, i64)> = loop {
            let limit = limit as i64;
            let mut args: Vec<&dyn rusqlite::ToSql> = vec![&q, &k, &kind, &project, &all, &limit];
            if all_common {
                args.push(&pool);
            }
            let rows: Vec<(Memory, f64, i64)> = stmt
                .query_map(args.as_slice(), |r| {
                    Ok((memory_from(r)?, r.get(21)?, r.get(22)?))
                })?
                .collect::<Result<_, _>>()?;
            // Every match ranked: the best k of all of them, k past their number.
            let everything = k >= total && (!all_common || pool >= total);
            if rows.len() as i64 >= limit || everything {
                break rows;
            }
            k = k.saturating_mul(4);
            pool = pool.saturating_mul(4);
        };
        // Whether the pool left matches out: surely when one word alone has
        // more; else count (no more than pool + 1 of them).
        let most = counted.iter().map(|(n, _)| *n).max().unwrap_or(0);
        let newest_ranked = if !all_common || pool >= total {
            None
        } else if pool < most {
            Some(pool)
        } else {
            let matched: i64 = self.conn.query_row(
                "SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?1 LIMIT ?2)",
                params![q, pool + 1],
                |r| r.get(0),
            )?;
            (matched > pool).then_some(pool)
        };
        let mut snip = self.conn.prepare_cached(
            "SELECT snippet(memories_fts, -1, '**', '**', '…', 12) FROM memories_fts
             WHERE memories_fts MATCH ?1 AND rowid = ?2",
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for (memory, rank, rowid) in rows {
            let snippet: String = snip.query_row(params![q, rowid], |r| r.get(0))?;
            out.push(Hit {
                memory,
                rank,
                snippet,
            });
        }
        Ok(Recalled {
            hits: out,
            newest_ranked,
        })
    }

    /// Logs demand for memories (Decision 12): counted once per (kind, run,
    /// memory) — outside a run, once per UTC day — and folded into each
    /// memory's decayed score at once. `project`: the project of every id,
    /// when the caller knows it (else each id's is looked up).
    pub fn record_demand(
        &mut self,
        kind: Demand,
        run: Option<&str>,
        ids: &[&str],
        project: Option<&str>,
        now: Millis,
    ) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let run_key = match run {
            Some(r) => r.to_string(),
            None => format!("day:{}", &format_instant(now)[..10]),
        };
        let weight = demand_weight(kind);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if weight == 0.0 {
            // Exposure (a briefing's ids): no score to fold, so one
            // statement logs them all.
            tx.prepare_cached(
                "INSERT OR IGNORE INTO memory_demand(kind, run_key, memory_id, weight, created_at, project)
                 SELECT ?1, ?2, j.value, 0.0, ?3, COALESCE(?4, (SELECT project FROM memories WHERE memory_id = j.value))
                 FROM json_each(?5) j",
            )?
            .execute(params![
                kind,
                run_key,
                now,
                project,
                serde_json::to_string(ids)?
            ])?;
            tx.commit()?;
            return Ok(());
        }
        for id in ids {
            let added = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO memory_demand(kind, run_key, memory_id, weight, created_at, project)
                     VALUES (?1, ?2, ?3, ?4, ?5, COALESCE(?6, (SELECT project FROM memories WHERE memory_id = ?3)))",
                )?
                .execute(params![kind, run_key, id, weight, now, project])?;
            if added == 0 {
                continue;
            }
            let prev: Option<(f64, i64)> = tx
                .prepare_cached("SELECT raw, at FROM memory_utility WHERE memory_id = ?1")?
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            let raw = prev.map_or(0.0, |(raw, at)| decay(raw, at, now)) + weight;
            tx.prepare_cached(
                "INSERT INTO memory_utility(memory_id, raw, at) VALUES (?1,?2,?3)
                 ON CONFLICT(memory_id) DO UPDATE SET raw = excluded.raw, at = excluded.at",
            )?
            .execute(params![id, raw, now])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// A memory's decayed demand score at `now` (raw, utility).
    pub fn memory_utility(&self, id: &str, now: Millis) -> Result<(f64, f64)> {
        let prev: Option<(f64, i64)> = self
            .conn
            .prepare_cached("SELECT raw, at FROM memory_utility WHERE memory_id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let raw = prev.map_or(0.0, |(raw, at)| decay(raw, at, now));
        Ok((raw, memory::utility(raw)))
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

/// The live memory `id`, or why not.
fn live(tx: &Transaction<'_>, id: &str) -> Result<Memory> {
    let m = get_memory(tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
    if m.valid_to.is_some() {
        let by = successor_of(tx, id)?.unwrap_or_default();
        return Err(MemoryError::Superseded {
            id: id.to_string(),
            by,
        }
        .into());
    }
    Ok(m)
}

/// Moves a commitment per study B3; true when something was written.
fn move_commitment(
    tx: &Transaction<'_>,
    prov: &mut Provenance<'_>,
    id: &str,
    to: CommitmentStatus,
    who: &Actor<'_>,
) -> Result<bool> {
    let m = get_memory(tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
    let Some(mut c) = m.commitment else {
        bail!("{id} is a {}, not a commitment", m.kind);
    };
    match commitment_transition(c.status, to)? {
        Transition::NoOp => Ok(false),
        Transition::Event(event) => {
            c.status = to;
            c.resolved_at = (to == CommitmentStatus::Resolved).then_some(who.now);
            c.updated_at = who.now;
            write_commitment(tx, id, &c)?;
            add_event(tx, prov, id, event, who, None)?;
            Ok(true)
        }
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    /// The candidates query reads the search's matches first, even where
    /// the statistics say a project's memories of a kind are few.
    #[test]
    fn duplicate_candidates_start_from_the_search() {
        let mut c = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut c, std::path::Path::new(":memory:")).unwrap();
        // 2,000 memories over 11 kinds and 20 projects.
        for i in 0..2000 {
            c.execute(
                "INSERT INTO memories(memory_id, kind, topic, content, project, scope, tags, status, valid_from,
                                      created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'measured words against the cache', ?4, 'project', '[]', 'active', 1, 1, 1)",
                rusqlite::params![
                    format!("m{i}"),
                    crate::continuity::memory::Kind::ALL[i % 11],
                    format!("bench {i}"),
                    format!("p{}", i % 20)
                ],
            )
            .unwrap();
        }
        // Statistics from when the store was small and assorted (a kind of
        // a project: 2 rows), as PRAGMA optimize left them in the bench
        // database where this was found.
        c.execute_batch(
            "ANALYZE;
             DELETE FROM sqlite_stat1 WHERE tbl = 'memories';
             INSERT INTO sqlite_stat1 VALUES ('memories', 'memories_live_topic', '100 10 2 1'),
                                             ('memories', 'memories_kind', '100 10 2 1');
             ANALYZE sqlite_schema;",
        )
        .unwrap();
        let plan: Vec<String> = c
            .prepare(&format!(
                "EXPLAIN QUERY PLAN {}",
                super::DUPLICATE_CANDIDATES
            ))
            .unwrap()
            .query_map(rusqlite::params!["\"cache\"", "finding", "p3", "x"], |r| {
                r.get(3)
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(plan[0].starts_with("SCAN f VIRTUAL TABLE"), "{plan:?}");
        assert_eq!(
            plan[1], "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)",
            "{plan:?}"
        );
    }
}
