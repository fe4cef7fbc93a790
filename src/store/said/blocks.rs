//! How the search index stores its texts: side by side in blocks of about
//! `BLOCK_BYTES`, each an LZ4 block (its length first). A session's new
//! texts go on at the end of the last block it filled while that is under
//! `BLOCK_BYTES` (a text at least that long has a block of its own); a
//! block whose texts are all gone is deleted.

use std::collections::HashMap;
use std::rc::Rc;

use anyhow::{Result, bail};
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::transcript::ParsedSession;

/// The bytes of text a block is filled to.
pub(super) const BLOCK_BYTES: usize = 128 << 10;

/// The longest block `unpack` gives back: a stored length beyond it is
/// damage, not a block.
const UNPACK_MOST: usize = 256 << 20;

fn pack(raw: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(raw)
}

fn unpack(data: &[u8]) -> Result<Vec<u8>> {
    let Some(len) = data.get(..4) else {
        bail!("a stored block of texts is cut short");
    };
    let len = u32::from_le_bytes(len.try_into()?) as usize;
    if len > UNPACK_MOST {
        bail!("a stored block of texts says it holds {len} bytes: it is damaged");
    }
    Ok(lz4_flex::block::decompress_size_prepended(data)?)
}

/// A part's texts packed into blocks where the part was read (a build's
/// reader thread), so that the writer only stores them: each distinct
/// text of the part once, side by side, blocks filled as `BlockWriter`
/// fills them. A block whose texts the index holds already (said in
/// another session) is not stored; one that holds some of them keeps
/// their bytes too.
#[derive(Debug, Default)]
pub struct Prepacked {
    /// Each block's bytes of text, and the block packed.
    blocks: Vec<(usize, Vec<u8>)>,
    /// Each piece's block and where its text starts, in the order of the
    /// part's records and their pieces.
    places: Vec<(u32, u32)>,
}

/// Packs the texts of part `p` (`Prepacked`).
pub fn prepack(p: &ParsedSession) -> Prepacked {
    let mut out = Prepacked::default();
    let mut raw: Vec<u8> = Vec::new();
    // A text by its hash, length and tool (as the index finds it again),
    // and where it was packed.
    type Key<'t> = (u64, usize, Option<&'t str>);
    let mut seen: HashMap<Key<'_>, (u32, u32), foldhash::fast::RandomState> = HashMap::default();
    let seal = |raw: &mut Vec<u8>, out: &mut Prepacked| {
        if !raw.is_empty() {
            out.blocks.push((raw.len(), pack(raw)));
            raw.clear();
        }
    };
    for piece in p.said.iter().flat_map(|s| &s.pieces) {
        let key = (piece.hash, piece.text.len(), piece.tool.as_deref());
        if let Some(&at) = seen.get(&key) {
            out.places.push(at);
            continue;
        }
        if !raw.is_empty() && raw.len() + piece.text.len() > BLOCK_BYTES {
            seal(&mut raw, &mut out);
        }
        let at = (out.blocks.len() as u32, raw.len() as u32);
        raw.extend_from_slice(piece.text.as_bytes());
        seen.insert(key, at);
        out.places.push(at);
    }
    seal(&mut raw, &mut out);
    out
}

/// The block a transaction is filling: written out (`flush`) when full,
/// and before anything else reads or changes blocks. With a part's
/// `Prepacked` blocks, it stores those its new texts are in instead.
pub(super) struct BlockWriter<'p> {
    session: i64,
    open: Option<Open>,
    packed: Option<Stored<'p>>,
}

/// A `Prepacked` part's blocks as they are stored: each one's id once a
/// new text is in it (0 before), and its new texts.
struct Stored<'p> {
    pre: &'p Prepacked,
    ids: Vec<i64>,
    live: Vec<i64>,
    next: i64,
}

struct Open {
    id: i64,
    raw: Vec<u8>,
    live: i64,
    stored: bool,
}

impl<'p> BlockWriter<'p> {
    /// The writer of session `session`'s (a `said_names` number) texts.
    pub(super) fn new(session: i64) -> BlockWriter<'p> {
        BlockWriter {
            session,
            open: None,
            packed: None,
        }
    }

    /// The writer of a part of session `session` whose texts `pre` packed.
    pub(super) fn prepacked(session: i64, pre: &'p Prepacked) -> BlockWriter<'p> {
        BlockWriter {
            session,
            open: None,
            packed: Some(Stored {
                pre,
                ids: vec![0; pre.blocks.len()],
                live: vec![0; pre.blocks.len()],
                next: 0,
            }),
        }
    }

    /// Places the text of the part's `piece`th piece (in the order of its
    /// records and their pieces): where it was packed, else as `add`.
    pub(super) fn place(
        &mut self,
        conn: &Connection,
        text: &str,
        piece: usize,
    ) -> Result<(i64, i64)> {
        let Some(s) = &mut self.packed else {
            return self.add(conn, text);
        };
        let Some(&(b, start)) = s.pre.places.get(piece) else {
            bail!("a part's packed texts hold no piece {piece}");
        };
        let b = b as usize;
        if s.ids[b] == 0 {
            if s.next == 0 {
                s.next = next_block(conn)?;
            }
            s.ids[b] = s.next;
            s.next += 1;
        }
        s.live[b] += 1;
        Ok((s.ids[b], i64::from(start)))
    }

    /// Places `text` in a block: the block and where the text starts.
    pub(super) fn add(&mut self, conn: &Connection, text: &str) -> Result<(i64, i64)> {
        if self.open.is_none() {
            self.open = self.last_open(conn)?;
        }
        if let Some(o) = &self.open
            && !o.raw.is_empty()
            && o.raw.len() + text.len() > BLOCK_BYTES
        {
            self.flush(conn)?;
        }
        if self.open.is_none() {
            let id = next_block(conn)?;
            self.open = Some(Open {
                id,
                raw: Vec::with_capacity(BLOCK_BYTES.min(text.len() * 2)),
                live: 0,
                stored: false,
            });
        }
        let o = self.open.as_mut().expect("a block is open");
        let start = o.raw.len() as i64;
        o.raw.extend_from_slice(text.as_bytes());
        o.live += 1;
        Ok((o.id, start))
    }

    /// The session's last block, when it has room.
    fn last_open(&self, conn: &Connection) -> Result<Option<Open>> {
        let row: Option<(i64, i64, i64, Vec<u8>)> = conn
            .prepare_cached(
                "SELECT block_id, raw, live, data FROM said_blocks WHERE session = ?1
                 ORDER BY block_id DESC LIMIT 1",
            )?
            .query_row([self.session], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()?;
        match row {
            Some((id, raw, live, data)) if (raw as usize) < BLOCK_BYTES => Ok(Some(Open {
                id,
                raw: unpack(&data)?,
                live,
                stored: true,
            })),
            _ => Ok(None),
        }
    }

    /// Writes the open block out (compressed); of a `Prepacked` part,
    /// the blocks its new texts are in.
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<()> {
        if let Some(s) = &mut self.packed {
            for (b, (raw, data)) in s.pre.blocks.iter().enumerate() {
                if s.live[b] > 0 {
                    insert_block(conn, (s.ids[b], self.session), (*raw, s.live[b]), data)?;
                    s.live[b] = 0;
                }
            }
            return Ok(());
        }
        let Some(o) = self.open.take() else {
            return Ok(());
        };
        let data = pack(&o.raw);
        if o.stored {
            conn.prepare_cached(
                "UPDATE said_blocks SET raw = ?2, live = ?3, data = ?4 WHERE block_id = ?1",
            )?
            .execute(params![o.id, o.raw.len() as i64, o.live, data])?;
        } else {
            insert_block(conn, (o.id, self.session), (o.raw.len(), o.live), &data)?;
        }
        Ok(())
    }
}

/// Stores block `id` of `session`: `raw` bytes of text, `live` of its
/// texts said, packed as `data`.
fn insert_block(
    conn: &Connection,
    (id, session): (i64, i64),
    (raw, live): (usize, i64),
    data: &[u8],
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO said_blocks(block_id, session, raw, live, data)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, session, raw as i64, live, data])?;
    Ok(())
}

/// The next block's id.
fn next_block(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT COALESCE(MAX(block_id), 0) + 1 FROM said_blocks",
        [],
        |r| r.get(0),
    )?)
}

/// One text fewer in block `block`: the block goes with its last text.
pub(super) fn release(conn: &Connection, block: i64) -> Result<()> {
    conn.prepare_cached("UPDATE said_blocks SET live = live - 1 WHERE block_id = ?1")?
        .execute([block])?;
    conn.prepare_cached("DELETE FROM said_blocks WHERE block_id = ?1 AND live <= 0")?
        .execute([block])?;
    Ok(())
}

/// Reads texts back, keeping the blocks it unpacked (a search reads many
/// texts of few blocks).
#[derive(Default)]
pub(super) struct TextReader {
    blocks: HashMap<i64, Rc<Vec<u8>>>,
}

/// Blocks a reader keeps unpacked (4 MiB of text).
const KEPT_BLOCKS: usize = 16;

impl TextReader {
    /// The text at `start`, `len` bytes long, of block `block`.
    pub(super) fn text(
        &mut self,
        conn: &Connection,
        block: i64,
        start: i64,
        len: i64,
    ) -> Result<String> {
        let raw = if let Some(raw) = self.blocks.get(&block) {
            Rc::clone(raw)
        } else {
            let data: Vec<u8> = conn
                .prepare_cached("SELECT data FROM said_blocks WHERE block_id = ?1")?
                .query_row([block], |r| r.get(0))
                .optional()?
                .ok_or_else(|| anyhow::anyhow!("the search index lacks block {block}"))?;
            let raw = Rc::new(unpack(&data)?);
            if self.blocks.len() >= KEPT_BLOCKS {
                self.blocks.clear();
            }
            self.blocks.insert(block, Rc::clone(&raw));
            raw
        };
        let (a, b) = (start as usize, (start + len) as usize);
        let Some(bytes) = raw.get(a..b) else {
            bail!("a text of the search index lies past its block's end (block {block})");
        };
        Ok(String::from_utf8(bytes.to_vec())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::said::{Role, Said, push_text};
    use crate::store::Store;

    fn part(id: &str, texts: &[&str]) -> ParsedSession {
        let mut p = ParsedSession {
            session_id: id.to_string(),
            ..ParsedSession::default()
        };
        for (n, text) in texts.iter().enumerate() {
            let mut pieces = Vec::new();
            push_text(&mut pieces, Role::User, None, false, *text);
            p.said.push(Said {
                agent_id: id.to_string(),
                record: format!("r{n}"),
                at: Some(1_700_000_000_000 + n as i64 * 1000),
                pieces,
            });
        }
        p
    }

    /// Each stored text's bytes by its id, read back through its block.
    fn stored(store: &Store) -> Vec<(i64, String)> {
        let rows: Vec<(i64, i64, i64, i64)> = store
            .conn
            .prepare("SELECT text_id, block, start, len FROM said_texts ORDER BY text_id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut reader = TextReader::default();
        rows.into_iter()
            .map(|(id, b, s, l)| (id, reader.text(&store.conn, b, s, l).unwrap()))
            .collect()
    }

    /// A part packed where it was read: each distinct text once, blocks
    /// filled as the writer fills them; stored, it holds the texts a part
    /// written whole holds, and a block of texts the index had already
    /// is not stored.
    #[test]
    fn a_part_packed_where_it_was_read_stores_what_the_writer_would() {
        let (a, b, c) = (
            "a".repeat(50 << 10),
            "b".repeat(50 << 10),
            "c".repeat(50 << 10),
        );
        let big = "x".repeat(BLOCK_BYTES);
        let texts = ["alpha", &a, &b, &c, "alpha", &big, "tail"];
        let s = part("s", &texts);
        let pre = prepack(&s);
        let block0 = 5 + 2 * (50 << 10);
        assert_eq!(
            pre.places,
            [
                (0, 0),
                (0, 5),
                (0, 5 + (50 << 10)),
                (1, 0),
                (0, 0),
                (2, 0),
                (3, 0)
            ]
        );
        let raws: Vec<usize> = pre.blocks.iter().map(|b| b.0).collect();
        assert_eq!(raws, [block0, 50 << 10, BLOCK_BYTES, 4]);
        // Session `o`, written first, said `c` already.
        let o = part("o", &[&c]);
        let dir = tempfile::tempdir().unwrap();
        let mut both = Vec::new();
        for packed in [true, false] {
            let mut store = Store::open(&dir.path().join(format!("{packed}.db"))).unwrap();
            store.begin_said_batches().unwrap();
            store.write_said_only(&o, None, true, None, true).unwrap();
            let pre = packed.then_some(&pre);
            store.write_said_only(&s, pre, true, None, true).unwrap();
            store.end_said_batches().unwrap();
            let texts = stored(&store);
            let blocks: Vec<(i64, i64, i64)> = store
                .conn
                .prepare(
                    "SELECT raw, live, (SELECT COUNT(*) FROM said_texts WHERE block = block_id)
                     FROM said_blocks WHERE session = (SELECT n FROM said_names WHERE name = 's')
                     ORDER BY block_id",
                )
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            both.push((texts, blocks));
        }
        let (packed, whole) = (&both[0], &both[1]);
        assert_eq!(packed.0, whole.0, "the same texts, read back the same");
        assert_eq!(packed.0.len(), 6);
        // Packed: `c`'s block is not stored (the index holds `c`, said by
        // `o`); each stored block's live count is the texts in it.
        let k = |n: usize| n as i64;
        assert_eq!(
            packed.1,
            [(k(block0), 3, 3), (k(BLOCK_BYTES), 1, 1), (4, 1, 1)]
        );
        // Written whole, the writer's blocks: `alpha`, `a`, `b`; `big`; `tail`.
        assert_eq!(whole.1, packed.1);
    }

    fn db() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE said_blocks (block_id INTEGER PRIMARY KEY, session INTEGER NOT NULL,
               raw INTEGER NOT NULL, live INTEGER NOT NULL, data BLOB NOT NULL);",
        )
        .unwrap();
        c
    }

    /// Texts go on at the end of a session's last block until it is full,
    /// across writers (transactions); each reads back as it was; a block
    /// goes with its last text.
    #[test]
    fn texts_fill_blocks_and_read_back() {
        let c = db();
        let mut w = BlockWriter::new(7);
        let a = w.add(&c, "first text").unwrap();
        let b = w.add(&c, "second").unwrap();
        w.flush(&c).unwrap();
        assert_eq!((a, b), ((1, 0), (1, 10)));
        let mut w = BlockWriter::new(7);
        let big = "x".repeat(BLOCK_BYTES);
        let c1 = w.add(&c, "third").unwrap();
        let d = w.add(&c, &big).unwrap();
        let e = w.add(&c, "after").unwrap();
        w.flush(&c).unwrap();
        assert_eq!((c1, d, e), ((1, 16), (2, 0), (3, 0)));
        let mut other = BlockWriter::new(8);
        assert_eq!(other.add(&c, "elsewhere").unwrap(), (4, 0));
        other.flush(&c).unwrap();
        let mut r = TextReader::default();
        assert_eq!(r.text(&c, 1, 10, 6).unwrap(), "second");
        assert_eq!(r.text(&c, 1, 16, 5).unwrap(), "third");
        assert_eq!(r.text(&c, 2, 0, big.len() as i64).unwrap(), big);
        assert!(r.text(&c, 1, 16, 50).is_err());
        let live = |b: i64| -> i64 {
            c.query_row(
                "SELECT live FROM said_blocks WHERE block_id = ?1",
                [b],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(live(1), 3);
        release(&c, 3).unwrap();
        let n: i64 = c
            .query_row(
                "SELECT COUNT(*) FROM said_blocks WHERE block_id = 3",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 0);
        // Compressed: a block of repeated words is far smaller than its text.
        let data: Vec<u8> = c
            .query_row("SELECT data FROM said_blocks WHERE block_id = 2", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(data.len() * 50 < big.len(), "{}", data.len());
        // A damaged block is an error, never an allocation.
        assert!(unpack(&[0xff, 0xff, 0xff, 0x7f, 0]).is_err());
        assert!(unpack(&[1]).is_err());
    }
}
