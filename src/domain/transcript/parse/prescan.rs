//! A large block's later lines scanned on a helper thread while the
//! parser reads the first ones: where the block is cut, and each line's
//! scan.

use super::holes::{Gap, Gaps};
use super::lines::Lines;
use crate::domain::transcript::scan;
use crate::domain::transcript::wire::Record;

/// Blocks smaller than this are read by one thread (unit tests read
/// blocks of a kilobyte, src/services/ingest/stream.rs).
pub(super) const SPLIT_MIN: usize = if cfg!(test) { 256 } else { 1 << 20 };

#[cfg(test)]
thread_local! {
    /// Blocks a helper has scanned for this thread (the tests' proof that
    /// it did; other tests split blocks on their own threads meanwhile).
    pub(super) static SPLITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The helper's share of a block's lines, in 64ths: the larger, as it
/// only scans, while this thread also takes every record.
pub(super) const HELPER_SHARE: u32 = 35;

/// Where lines from `from` (a line start) to the end of `body` (a line end)
/// are split to give the later `share` 64ths or so to a helper: the line
/// start at or after that point (`body.len()` when there is none).
pub(super) fn split_at(body: &[u8], from: usize, share: u32) -> usize {
    let target = body.len() - (body.len() - from) * share as usize / 64;
    if target == from {
        return from;
    }
    memchr::memchr(b'\n', &body[target - 1..]).map_or(body.len(), |i| target + i)
}

/// A line a helper scanned: its number within the helper's lines, its
/// content and length (line ending included), and the scanner's reading.
pub(super) struct Prescanned<'a> {
    pub(super) n: u64,
    pub(super) line: &'a [u8],
    pub(super) len: u64,
    pub(super) scanned: Option<scan::Scanned<'a>>,
    pub(super) rec: Record<'a>,
}

/// The complete lines of part of a block, scanned by a helper: each with
/// its number among them, content, length and the scanner's reading.
pub struct ScannedLines<'a> {
    pub(super) lines: Vec<Prescanned<'a>>,
    /// Lines counted, blank ones too.
    pub(super) count: u64,
    /// Bytes of the lines, line endings included.
    pub(super) bytes: u64,
    /// Bytes of the gaps left out of them.
    pub(super) skipped: u64,
}

/// Scans the later `share` 64ths of the complete lines of `block` (bytes
/// read on from a file's cursor: its first line may end one begun before;
/// `gaps` were left out of it) for `SessionParser::block_scanned`: where
/// they start, and their scan, with content blocks when `blocks`
/// (`SessionParser::scans_blocks`). `None` for a block with less than
/// `SPLIT_MIN` of whole lines.
pub fn scan_later<'a>(
    block: &'a [u8],
    share: u32,
    blocks: bool,
    gaps: &[Gap],
) -> Option<(usize, ScannedLines<'a>)> {
    let start = memchr::memchr(b'\n', block)? + 1;
    let end = memchr::memrchr(b'\n', block)? + 1;
    if end - start < SPLIT_MIN {
        return None;
    }
    let split = split_at(&block[..end], start, share);
    let gaps = Gaps::between(gaps, split, usize::MAX);
    (split < end).then(|| (split, scan_lines(&block[split..end], blocks, gaps)))
}

/// Scans every line of `body`, which begins at a line start and ends with
/// a newline (what `Lines` gives, blank lines counted and passed over, the
/// lines of `gaps` counted where they were).
pub(super) fn scan_lines(body: &[u8], blocks: bool, gaps: Gaps) -> ScannedLines<'_> {
    let mut lines = Lines {
        body,
        at: 0,
        n: 0,
        blocks,
        gaps,
    };
    let mut out = Vec::with_capacity(body.len() / 2048);
    loop {
        let mut rec = Record::default();
        let Some((n, line, scanned)) = lines.next_into(&mut rec) else {
            break;
        };
        let len = lines.ended_at(line);
        out.push(Prescanned {
            n,
            line,
            len,
            scanned,
            rec,
        });
    }
    ScannedLines {
        lines: out,
        count: lines.n,
        bytes: body.len() as u64,
        skipped: lines.gaps.skipped,
    }
}
