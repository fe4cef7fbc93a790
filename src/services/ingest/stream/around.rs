//! Reading a file around its holes: runs of whole lines that say nothing
//! to the search index, which ingest noted where it read them. A build of
//! the index seeks past each instead of copying it out of the page cache
//! and scanning it.

use std::fs::File;
use std::io::{Seek, SeekFrom};

use crate::domain::corpus::{self, ReadError};
use crate::domain::transcript::{Gap, Hole};

/// A file's reading position and the holes ahead of it.
pub(super) struct Around {
    holes: Vec<Hole>,
    next: usize,
    /// The offset of the next byte to read.
    pos: u64,
    /// The last byte read ends a line: a hole may start here.
    line_start: bool,
}

impl Around {
    /// Reading from `start` (where the file's position is: a line start,
    /// or the file's start), around
    /// `holes` (in order, none before `start`).
    pub(super) fn new(holes: Vec<Hole>, start: u64) -> Around {
        Around {
            holes,
            next: 0,
            pos: start,
            line_start: false,
        }
    }

    /// No more holes are read around: the file is read on where its
    /// position is (a reading that moved it itself).
    pub(super) fn give_up(&mut self) {
        self.holes.clear();
    }

    /// Reads up to `max` bytes of `file` from its position onto `buf`,
    /// seeking past each hole that starts where a line ends, its gap (where
    /// in `buf` it was) put on `gaps`. A hole that starts elsewhere (the
    /// file is not as ingest read it) ends the reading around. Returns the
    /// bytes read and the bytes of the holes passed; none of either at the
    /// end of the file.
    pub(super) fn read(
        &mut self,
        mut file: &File,
        max: u64,
        buf: &mut Vec<u8>,
        gaps: &mut Vec<Gap>,
    ) -> Result<(u64, u64), ReadError> {
        let (mut read, mut passed) = (0u64, 0u64);
        while read < max {
            let hole = self.holes.get(self.next).copied();
            if let Some(h) = hole
                && h.at <= self.pos
            {
                if h.at < self.pos || !self.line_start {
                    self.give_up();
                    continue;
                }
                file.seek(SeekFrom::Start(h.end()))
                    .map_err(|e| corpus::unreadable(&e))?;
                gaps.push(Gap {
                    pos: buf.len(),
                    hole: h,
                });
                self.pos = h.end();
                self.next += 1;
                passed += h.len;
                continue;
            }
            let want = hole.map_or(max - read, |h| (h.at - self.pos).min(max - read));
            let n = corpus::read_more(file, want, buf)? as u64;
            if n == 0 {
                break;
            }
            self.pos += n;
            read += n;
            self.line_start = buf.last() == Some(&b'\n');
            if n < want {
                break; // the end of the file
            }
        }
        Ok((read, passed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(bytes: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut t = tempfile::NamedTempFile::new().unwrap();
        t.write_all(bytes).unwrap();
        let f = File::open(t.path()).unwrap();
        (t, f)
    }

    /// Reads all of `f` around `holes`, `max` bytes at a time: the bytes
    /// read and every gap as (its place in them, the hole's offset).
    fn read_all(mut f: &File, holes: Vec<Hole>, max: u64) -> (Vec<u8>, Vec<(usize, u64)>, u64) {
        f.seek(SeekFrom::Start(0)).unwrap();
        let mut a = Around::new(holes, 0);
        let (mut buf, mut gaps, mut passed) = (Vec::new(), Vec::new(), 0);
        loop {
            let mut g = Vec::new();
            let base = buf.len();
            let (n, p) = a.read(f, max, &mut buf, &mut g).unwrap();
            assert!(g.iter().all(|g| g.pos >= base));
            gaps.extend(g.iter().map(|g| (g.pos, g.hole.at)));
            passed += p;
            if n == 0 && p == 0 {
                return (buf, gaps, passed);
            }
        }
    }

    #[test]
    fn holes_at_line_starts_are_passed_others_end_it() {
        let text = b"one\ntwo two\nthree\nfour\nfive\n";
        let (_t, f) = file_of(text);
        let hole = |at, len| Hole { at, len, lines: 1 };
        // "two two\n" (4..12) and "four\n" (18..23), a byte at a time too.
        for max in [1, 3, 100] {
            let (bytes, gaps, passed) = read_all(&f, vec![hole(4, 8), hole(18, 5)], max);
            assert_eq!(bytes, b"one\nthree\nfive\n", "max {max}");
            assert_eq!(gaps, [(4, 4), (10, 18)]);
            assert_eq!(passed, 13);
        }
        // A hole that starts inside a line: that one and the next are read.
        let (bytes, gaps, _) = read_all(&f, vec![hole(5, 7), hole(18, 5)], 100);
        assert_eq!(bytes, text);
        assert!(gaps.is_empty());
        // A hole at the end of the file.
        let (bytes, gaps, passed) = read_all(&f, vec![hole(23, 5)], 7);
        assert_eq!(bytes, b"one\ntwo two\nthree\nfour\n");
        assert_eq!((gaps, passed), (vec![(23, 23)], 5));
    }
}
