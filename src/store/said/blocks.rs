//! How the search index stores its texts: side by side in blocks of about
//! `BLOCK_BYTES`, each an LZ4 block (its length first). A session's new
//! texts go on at the end of the last block it filled while that is under
//! `BLOCK_BYTES` (a text at least that long has a block of its own); a
//! block whose texts are all gone is deleted.

use std::collections::HashMap;
use std::rc::Rc;

use anyhow::{Result, bail};
use rusqlite::{Connection, OptionalExtension, params};

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

/// The block a transaction is filling: written out (`flush`) when full,
/// and before anything else reads or changes blocks.
pub(super) struct BlockWriter {
    session: i64,
    open: Option<Open>,
}

struct Open {
    id: i64,
    raw: Vec<u8>,
    live: i64,
    stored: bool,
}

impl BlockWriter {
    /// The writer of session `session`'s (a `said_names` number) texts.
    pub(super) fn new(session: i64) -> BlockWriter {
        BlockWriter {
            session,
            open: None,
        }
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
            let id: i64 = conn.query_row(
                "SELECT COALESCE(MAX(block_id), 0) + 1 FROM said_blocks",
                [],
                |r| r.get(0),
            )?;
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

    /// Writes the open block out (compressed).
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<()> {
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
            conn.prepare_cached(
                "INSERT INTO said_blocks(block_id, session, raw, live, data)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                o.id,
                self.session,
                o.raw.len() as i64,
                o.live,
                data
            ])?;
        }
        Ok(())
    }
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
