//! The thread that reads a large file ahead of its parsing: a block at a
//! time, around the file's holes, with the later lines of each scanned
//! meanwhile.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError};

use super::BLOCK;
use super::around::Around;
use crate::domain::corpus::ReadError;
use crate::domain::transcript::{Gap, ScannedLines, SpareCore, scan_later};

/// The share of each block's lines (in 64ths) that the thread reading
/// ahead scans (`Reader::read_ahead`): where it starts, and the bounds it
/// moves within to keep pace with the parsing thread.
const SCAN_SHARE: u32 = 28;
const SCAN_SHARE_MIN: u32 = 8;
const SCAN_SHARE_MAX: u32 = 56;

self_cell::self_cell!(
    /// A block read ahead, with the scan of its later lines when it has one
    /// (the holes it was read around go beside it).
    pub(super) struct Ahead {
        owner: Vec<u8>,
        #[covariant]
        dependent: Later,
    }
);

/// Where a block's scanned later lines start, and their scan.
pub(super) type Later<'a> = Option<(usize, ScannedLines<'a>)>;

/// A block read ahead, the holes it was read around, and their bytes.
pub(super) type Fetched = (Ahead, Vec<Gap>, u64);

/// `Reader::read_ahead`'s reading thread, on a borrowed `core`: reads
/// `file` around its holes a block at a time, each sent on `tx` with the
/// scan of its later lines when it `scans` (with content blocks when
/// `blocks`), in buffers given back on `spent`; it scans more of each
/// block while the parsing thread is behind, less while it waits.
pub(super) fn read_blocks(
    file: &std::fs::File,
    mut around: Around,
    (tx, spent): (SyncSender<Result<Fetched, ReadError>>, Receiver<Vec<u8>>),
    (scans, blocks): (bool, bool),
    core: SpareCore,
) {
    let _core = core;
    let mut share = SCAN_SHARE;
    loop {
        let mut b = spent.try_recv().unwrap_or_default();
        b.clear();
        let mut gaps = Vec::new();
        let read = around.read(file, BLOCK, &mut b, &mut gaps);
        let end = !matches!(read, Ok((n, passed)) if n + passed > 0);
        let ahead = read.map(|(_, passed)| {
            let ahead = Ahead::new(b, |b| match scans {
                true => scan_later(b, share, blocks, &gaps),
                false => None,
            });
            (ahead, gaps, passed)
        });
        // A block still waiting: the parsing thread is behind, so scan
        // more of the next; none: it may be waiting.
        let sent = match tx.try_send(ahead) {
            Ok(()) => {
                share = share.saturating_sub(1).max(SCAN_SHARE_MIN);
                true
            }
            Err(TrySendError::Full(ahead)) => {
                share = (share + 1).min(SCAN_SHARE_MAX);
                tx.send(ahead).is_ok()
            }
            Err(TrySendError::Disconnected(_)) => false,
        };
        if !sent || end {
            return;
        }
    }
}
