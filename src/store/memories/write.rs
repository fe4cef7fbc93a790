//! Memory writes: remember (with the near-duplicate guard), revise, the
//! settling verbs and redaction, each one audited transaction.

use anyhow::{Result, bail};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::read::{fts_query, project_token};
use super::{
    Provenance, add_event, get_memory, insert_memory, live, live_with_hash, move_commitment,
    new_id, successor_of,
};
use crate::domain::memory::duplicate::{Likeness, likeness, memory_words, probe_words};
use crate::domain::memory::{
    self, Actor, Commitment, CommitmentStatus, EventKind, Kind, Memory, MemoryError, MemoryStatus,
    NewMemory, REDACTED, Remembered, Settle, SettlePlan, content_hash,
};
use crate::store::Store;

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
    // The index holds stems: a word's count is its stem's.
    let docs = mine
        .iter()
        .map(|w| {
            let stem = crate::domain::matching::stem(w);
            Ok(doc
                .query_row([&stem], |r| r.get(0))
                .optional()?
                .unwrap_or(0))
        })
        .collect::<Result<Vec<i64>>>()?;
    // Only the project's matches are ranked (migration 0017).
    let query = format!(
        "({}) AND project_key:{}",
        fts_query(probe_words(&mine, &docs).into_iter()),
        project_token(&m.project)
    );
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

impl Store {
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

    /// `resolve`, `unresolve`, `archive`. Returns whether
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
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    /// The candidates query reads the search's matches first, even where
    /// the statistics say a project's memories of a kind are few.
    #[test]
    fn duplicate_candidates_start_from_the_search() {
        let mut c = Connection::open_in_memory().unwrap();
        crate::store::migrate::migrate(&mut c, std::path::Path::new(":memory:")).unwrap();
        // 2,000 memories over 11 kinds and 20 projects.
        for i in 0..2000 {
            c.execute(
                "INSERT INTO memories(memory_id, kind, topic, content, project, scope, tags, status, valid_from,
                                      created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'measured words against the cache', ?4, 'project', '[]', 'active', 1, 1, 1)",
                rusqlite::params![
                    format!("m{i}"),
                    crate::domain::memory::Kind::ALL[i % 11],
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
