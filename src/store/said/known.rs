//! The texts a build has written, kept in memory so that a text said
//! again is found without a lookup in `said_texts`: a build writes most of
//! the index, and looking each piece's text up by hash was a fifth of its
//! writer's statements. What the map holds is trusted only while no other
//! connection has written the database (`PRAGMA data_version`, read as each
//! batch begins); when another has, or a batch is rolled back, it starts
//! again empty. It is used only between a build's `start` and `end`: any
//! other write through the same connection (which `data_version` does not
//! see) happens outside them.
//!
//! A build that begins on an empty index writes it without the texts' hash
//! index (`said_texts_hash`, a random insert per text, more than half of
//! writing the texts' rows): the map answers every lookup. The index is
//! made again, sorted in one pass, when the build ends (`end`), and before
//! any text is looked up without the map (`index_lookups`), by whichever
//! connection looks first: a hook writing while a build runs, the build
//! itself once its map no longer holds every text, or the next build after
//! one that was killed.

use std::collections::HashMap;

use anyhow::Result;
use rusqlite::Connection;

/// Texts the map holds at most (about 40 bytes each): past it, it starts
/// again empty and no longer holds every text (a history of several GiB
/// is then looked up in part, as before the map). Four in unit tests, so
/// that they cross it.
const KNOWN_MOST: usize = if cfg!(test) { 4 } else { 500_000 };

/// A text's key: its hash (`said::text_hash`), its length and its tool's name
/// hashed (the same three a lookup in `said_texts` matches).
type Key = (i64, u32, u64);

#[derive(Debug, Default)]
pub(crate) struct KnownTexts {
    /// A build is writing (`start`): the map is kept.
    active: bool,
    /// `data_version` when the map was last known to be current.
    version: Option<i64>,
    /// The map holds every text of the index (it began with the index
    /// empty): a text it lacks is new, with no lookup.
    whole: bool,
    /// The hash index is known to be there (`index_lookups`) in this
    /// transaction or an earlier committed one.
    indexed: bool,
    ids: HashMap<Key, i64>,
}

/// Whether the index holds no text yet.
fn no_texts(conn: &Connection) -> Result<bool> {
    let any: bool = conn.query_row("SELECT EXISTS (SELECT 1 FROM said_texts)", [], |r| r.get(0))?;
    Ok(!any)
}

/// The texts' hash index (as migrations make it), made when missing.
const HASH_INDEX: &str =
    "CREATE INDEX IF NOT EXISTS said_texts_hash ON said_texts (hash, len, tool)";

/// How a text the map was asked for stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Known {
    /// The index holds it, with this id.
    Id(i64),
    /// The index does not hold it.
    New,
    /// The map cannot say: look it up.
    Unsure,
}

pub(super) fn key(hash: i64, tool: Option<&str>, len: usize) -> Key {
    let tool = tool.map_or(0, |t| xxhash_rust::xxh3::xxh3_64(t.as_bytes()) | 1);
    (hash, len as u32, tool)
}

impl KnownTexts {
    /// Called as a batch's transaction begins: keeps the map only when no
    /// other connection has written since the map was last current.
    pub(crate) fn begin(&mut self, conn: &Connection) -> Result<()> {
        if !self.active {
            return Ok(());
        }
        let version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        if self.version != Some(version) {
            self.ids.clear();
            self.whole = no_texts(conn)?;
            self.version = Some(version);
        }
        Ok(())
    }

    /// A build begins writing: the map is kept from its first batch. On
    /// an empty index, the texts' hash index goes until `end`.
    pub(crate) fn start(&mut self, conn: &Connection) -> Result<()> {
        self.clear();
        self.active = true;
        if no_texts(conn)? {
            conn.execute_batch("DROP INDEX IF EXISTS said_texts_hash")?;
        }
        Ok(())
    }

    /// The build is done (or failed): the map is dropped and no longer
    /// kept, and the hash index is there again.
    pub(crate) fn end(&mut self, conn: &Connection) -> Result<()> {
        self.clear();
        self.active = false;
        self.ids.shrink_to_fit();
        conn.execute_batch(HASH_INDEX)?;
        Ok(())
    }

    /// Forgets what the map holds (a batch was rolled back, and with it
    /// perhaps the hash index it made).
    pub(crate) fn clear(&mut self) {
        self.ids.clear();
        self.whole = false;
        self.indexed = false;
        self.version = None;
    }

    /// Before a text is looked up in `said_texts`: its hash index is there
    /// (made now, sorted, when a build began without it).
    pub(super) fn index_lookups(&mut self, conn: &Connection) -> Result<()> {
        if !self.indexed {
            conn.execute_batch(HASH_INDEX)?;
            self.indexed = true;
        }
        Ok(())
    }

    pub(super) fn get(&self, key: Key) -> Known {
        match self.ids.get(&key) {
            Some(&id) => Known::Id(id),
            None if self.whole => Known::New,
            None => Known::Unsure,
        }
    }

    pub(super) fn set(&mut self, key: Key, id: i64) {
        if !self.active {
            return;
        }
        if self.ids.len() >= KNOWN_MOST && !self.ids.contains_key(&key) {
            self.ids.clear();
            self.whole = false;
        }
        self.ids.insert(key, id);
    }

    /// A text gone from the index.
    pub(super) fn remove(&mut self, key: Key) {
        self.ids.remove(&key);
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::ParsedSession;
    use crate::domain::transcript::said::{Role, Said, push_text};
    use crate::store::Store;

    /// A time, in milliseconds, the texts are said after.
    const T: i64 = 1_700_000_000_000;

    fn session(id: &str, texts: &[(&str, i64)]) -> ParsedSession {
        let mut p = ParsedSession {
            session_id: id.to_string(),
            ..ParsedSession::default()
        };
        for (n, (text, at)) in texts.iter().enumerate() {
            let mut pieces = Vec::new();
            push_text(&mut pieces, Role::User, None, false, *text);
            p.said.push(Said {
                agent_id: id.to_string(),
                record: format!("r{n}"),
                at: Some(T + *at),
                pieces,
            });
        }
        p
    }

    /// A text's id and length.
    type Text = (i64, i64);

    fn texts(store: &Store) -> Vec<Text> {
        let mut stmt = store
            .conn
            .prepare("SELECT text_id, len FROM said_texts ORDER BY text_id")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        rows.map(Result::unwrap).collect()
    }

    /// Whether the texts' hash index is there.
    fn hash_index(store: &Store) -> bool {
        store
            .conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'said_texts_hash')",
                [],
                |r| r.get(0),
            )
            .unwrap()
    }

    /// Each text's second (its id's), after `T`.
    fn seconds(texts: &[Text]) -> Vec<i64> {
        texts
            .iter()
            .map(|t| (t.0 >> super::super::SECOND_SHIFT) - T / 1000)
            .collect()
    }

    /// Texts written by a build and by plain writes, in that order.
    fn written(build: &[&ParsedSession], plain: &[&ParsedSession]) -> (Vec<Text>, Vec<Text>) {
        let dir = tempfile::tempdir().unwrap();
        let mut b = Store::open(&dir.path().join("b.db")).unwrap();
        b.begin_said_batches().unwrap();
        for p in build {
            b.write_said_only(p, None, true, None, false).unwrap();
        }
        b.commit_said().unwrap();
        b.end_said_batches().unwrap();
        assert!(hash_index(&b), "a build leaves the hash index");
        let mut w = Store::open(&dir.path().join("w.db")).unwrap();
        for p in plain {
            let tx = w.conn.transaction().unwrap();
            super::super::write_said(&tx, p, true).unwrap();
            tx.commit().unwrap();
        }
        (texts(&b), texts(&w))
    }

    /// Outside a build's batches the map is not kept: a write through the
    /// same connection (which `data_version` does not see) cannot leave
    /// it stale. Here the connection forgets what it wrote, then says one
    /// of those texts again: it is written anew, as plain writes do.
    #[test]
    fn outside_a_build_nothing_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("o.db")).unwrap();
        let a = session("a", &[("deploy the cache", 5_000), ("rotate logs", 9_000)]);
        let c = session("c", &[("rotate logs", 7_000)]);
        store.write_said_only(&a, None, true, None, true).unwrap();
        {
            let tx = store.conn.transaction().unwrap();
            super::super::forget_sessions(&tx, &["a".to_string()]).unwrap();
            tx.commit().unwrap();
        }
        store.write_said_only(&c, None, true, None, true).unwrap();
        assert_eq!(seconds(&texts(&store)), vec![7]);
        let said: i64 = store
            .conn
            .query_row(
                "SELECT COUNT(*) FROM said JOIN said_texts USING (text_id)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(said, 1, "the place names a text the index holds");
    }

    /// A build that says more texts than the map holds (four in tests)
    /// from an empty index: past the bound the map no longer holds every
    /// text, so texts said again are looked up, not taken for new.
    #[test]
    fn past_its_bound_the_map_looks_texts_up() {
        // More texts than the map holds: it starts again part way.
        let more: Vec<String> = (0..9).map(|n| format!("text number {n}")).collect();
        let d = session(
            "d",
            &more
                .iter()
                .enumerate()
                .map(|(n, t)| (t.as_str(), 20_000 + n as i64 * 1000))
                .collect::<Vec<_>>(),
        );
        let e = session(
            "e",
            &more
                .iter()
                .rev()
                .enumerate()
                .map(|(n, t)| (t.as_str(), 10_000 + n as i64 * 1000))
                .collect::<Vec<_>>(),
        );
        let (build, plain) = written(&[&d, &e], &[&d, &e]);
        assert_eq!(build, plain);
        assert_eq!(seconds(&build), (10..19).collect::<Vec<_>>());
    }

    /// A build's batches find the texts they wrote in memory; when
    /// another connection writes between two batches (here: it says a
    /// text the build is about to say again, then forgets what the build
    /// wrote), the map is dropped and the next batch looks texts up: each
    /// text is held once, under the id of its first saying, as a build with
    /// no map writes them.
    #[test]
    fn a_text_another_connection_wrote_between_batches_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.db");
        let mut build = Store::open(&path).unwrap();
        build.begin_said_batches().unwrap();
        assert!(!hash_index(&build), "a build on an empty index drops it");
        let a = session("a", &[("deploy the cache", 5_000), ("rotate logs", 9_000)]);
        let b = session("b", &[("deploy the cache", 2_000), ("fresh words", 3_000)]);
        let c = session("c", &[("rotate logs", 1_000), ("fresh words", 4_000)]);
        build.write_said_only(&a, None, true, None, true).unwrap();
        // Another connection (a hook's ingest) says b, then forgets a; it
        // looks b's texts up, so it makes the hash index first.
        {
            let mut other = Store::open(&path).unwrap();
            let tx = other.conn.transaction().unwrap();
            super::super::write_said(&tx, &b, true).unwrap();
            super::super::forget_sessions(&tx, &["a".to_string()]).unwrap();
            tx.commit().unwrap();
            assert!(hash_index(&other));
        }
        build.write_said_only(&a, None, true, None, false).unwrap();
        build.write_said_only(&c, None, true, None, true).unwrap();
        build.end_said_batches().unwrap();
        let with_map = texts(&build);

        let mut plain = Store::open(&dir.path().join("p.db")).unwrap();
        for p in [&b, &a, &c] {
            let tx = plain.conn.transaction().unwrap();
            super::super::write_said(&tx, p, true).unwrap();
            tx.commit().unwrap();
        }
        assert_eq!(with_map, texts(&plain));
        // Three texts, each once, each at its earliest saying.
        assert_eq!(seconds(&with_map), vec![1, 2, 3]);
    }

    /// A build killed after a batch (here: dropped without its end) leaves
    /// no hash index; the next connection to look a text up makes it, and
    /// finds the text the build wrote rather than writing it twice. A
    /// build that begins on a non-empty index keeps it.
    #[test]
    fn a_killed_builds_hash_index_is_made_by_the_next_lookup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let a = session("a", &[("deploy the cache", 5_000), ("rotate logs", 9_000)]);
        let b = session("b", &[("rotate logs", 7_000)]);
        {
            let mut build = Store::open(&path).unwrap();
            build.begin_said_batches().unwrap();
            build.write_said_only(&a, None, true, None, true).unwrap();
        }
        let mut hook = Store::open(&path).unwrap();
        assert!(!hash_index(&hook));
        let tx = hook.conn.transaction().unwrap();
        super::super::write_said(&tx, &b, true).unwrap();
        tx.commit().unwrap();
        assert!(hash_index(&hook));
        // One text each, "rotate logs" moved to b's earlier saying.
        assert_eq!(seconds(&texts(&hook)), vec![5, 7]);
        let mut next = Store::open(&path).unwrap();
        next.begin_said_batches().unwrap();
        assert!(hash_index(&next), "kept: the index is not empty");
        next.end_said_batches().unwrap();
    }
}
