use super::*;
use crate::domain::memory::{Actor, Kind, NewMemory};

fn store(dir: &std::path::Path, name: &str) -> Store {
    Store::open(&dir.join(name)).unwrap()
}

/// `n` memories remembered in a scratch store, exported: what an
/// import reads.
fn exported(dir: &std::path::Path, n: usize) -> (Vec<Memory>, Vec<MemoryEvent>) {
    let mut from = store(dir, "from.db");
    let who = Actor {
        actor: "cli",
        run: None,
        now: 1_700_000_000_000,
        lease_ms: 3_600_000,
    };
    for i in 0..n {
        let m = NewMemory {
            kind: Kind::Fact,
            topic: format!("loader {i}"),
            description: None,
            content: format!("the cache loader warms shard {i} before serving"),
            project: "shop".into(),
            scope: "project".into(),
            tags: vec![],
            pinned: false,
            due_at: None,
            owner: None,
        };
        from.remember(&m, true, &who).unwrap();
    }
    from.export_rows(None).unwrap()
}

fn count(s: &Store, sql: &str) -> i64 {
    s.conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// The records as the import reads them, lines numbered in file order
/// (memories first).
fn reads(ms: &[Memory], es: &[MemoryEvent]) -> Vec<Read> {
    let recs = ms
        .iter()
        .cloned()
        .map(Rec::Memory)
        .chain(es.iter().cloned().map(Rec::Event));
    recs.enumerate()
        .map(|(i, record)| Read {
            line: i + 1,
            digest: i as u64,
            record,
        })
        .collect()
}

fn check(s: &Store, ms: &[Memory], es: &[MemoryEvent]) -> Checked {
    let mut c = s.check_import().unwrap();
    for r in reads(ms, es) {
        c.check(&r).unwrap();
    }
    c.finish().unwrap()
}

fn write(s: &mut Store, ms: &[Memory], es: &[MemoryEvent], c: &Checked) -> Result<usize> {
    s.write_import(c, reads(ms, es).into_iter().map(Ok))
}

/// The import fills the search index a batch at a time, with the insert
/// trigger off: afterwards every memory is found, and the index is
/// consistent with its table; the trigger works again after.
#[test]
fn imported_memories_are_searchable_and_the_trigger_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let (ms, es) = exported(dir.path(), 30);
    let mut to = store(dir.path(), "to.db");
    let checked = check(&to, &ms, &es);
    assert_eq!(write(&mut to, &ms, &es, &checked).unwrap(), 60);
    assert_eq!(
        count(
            &to,
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'shard'"
        ),
        30
    );
    assert_eq!(
        count(
            &to,
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH '\"shard 17\"'"
        ),
        1
    );
    to.conn
        .execute(
            "INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)",
            [],
        )
        .unwrap();
    let tx = to.conn.transaction().unwrap();
    let mut m = ms[0].clone();
    m.memory_id = "0190aaaa-0000-7000-8000-000000000001".into();
    m.content = "a lighthouse keeper".into();
    m.content_hash = None;
    super::super::memories::insert_memory(&tx, &m).unwrap();
    tx.commit().unwrap();
    assert_eq!(
        count(
            &to,
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'lighthouse'"
        ),
        1
    );
}

/// The import writes with triggers off and indexes the search itself:
/// that is sound only while the search index's insert trigger is the
/// one trigger its statements would fire. A new trigger on these
/// tables must be weighed here.
#[test]
fn the_search_trigger_is_the_only_one_an_import_skips() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path(), "t.db");
    let names: Vec<String> = s
            .conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'
                   AND tbl_name IN ('memories', 'commitments', 'memory_events')
                   AND (sql LIKE '%INSERT ON%' OR (tbl_name = 'commitments' AND sql LIKE '%UPDATE%'))
                 ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    assert_eq!(names, ["memories_fts_insert"]);
}

/// The write pass takes only the lines the check read: a line whose
/// bytes differ, one missing, or one more stops it, and what its
/// transaction held is rolled back; a bulk load is one transaction, so
/// nothing of it is written.
#[test]
fn a_file_changed_between_the_passes_stops_the_write() {
    let dir = tempfile::tempdir().unwrap();
    let (ms, es) = exported(dir.path(), 3);
    let mut to = store(dir.path(), "to.db");
    let checked = check(&to, &ms, &es);
    let mut changed = reads(&ms, &es);
    changed[4].digest += 1;
    let err = to
        .write_import(&checked, changed.into_iter().map(Ok))
        .unwrap_err();
    let stopped = err.downcast_ref::<Interrupted>().unwrap();
    assert_eq!((stopped.what, stopped.written), ("file", 0));
    assert_eq!(stopped.why, "line 5 is not the line checked");
    let mut shorter = reads(&ms, &es);
    shorter.pop();
    let err = to
        .write_import(&checked, shorter.into_iter().map(Ok))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the file changed while importing (line 6 is gone): 0 record(s) were written before it; run the import again to finish (records already written count as present)"
    );
    assert_eq!(count(&to, "SELECT count(*) FROM memories"), 0);
    assert_eq!(count(&to, "SELECT count(*) FROM memory_events"), 0);
    // The same lines: written.
    let all = reads(&ms, &es).into_iter().map(Ok);
    assert_eq!(to.write_import(&checked, all).unwrap(), 6);
}

/// A commit by another connection between the check and the write
/// makes the write check again: a memory that became a duplicate stops
/// the import, and nothing of its batch is written.
#[test]
fn a_commit_between_check_and_write_is_checked_again() {
    let dir = tempfile::tempdir().unwrap();
    let (ms, es) = exported(dir.path(), 3);
    let mut to = store(dir.path(), "to.db");
    let checked = check(&to, &ms, &es);
    assert!(checked.records.iter().all(|r| r.outcome == Ok(true)));
    // Another process stores the second memory's content as a live memory.
    let other = store(dir.path(), "to.db");
    let tx = other.conn.unchecked_transaction().unwrap();
    let mut dup = ms[1].clone();
    dup.memory_id = "0190aaaa-0000-7000-8000-000000000002".into();
    super::super::memories::insert_memory(&tx, &dup).unwrap();
    tx.commit().unwrap();
    let err = write(&mut to, &ms, &es, &checked).unwrap_err();
    let interrupted = err.downcast_ref::<Interrupted>().unwrap();
    assert_eq!(interrupted.written, 0);
    assert!(
        interrupted
            .why
            .contains("the same content is live as 0190aaaa"),
        "{}",
        interrupted.why
    );
    assert_eq!(count(&to, "SELECT count(*) FROM memories"), 1);
    assert_eq!(
        count(
            &to,
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'shard'"
        ),
        1
    );
}
