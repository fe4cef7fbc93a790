//! Reading untrusted corpus files: no links followed, re-checked after open,
//! read as a stream (files have no size cap; lines and sidecars do).

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::SkipReason;

/// Why a file could not be read; the reason is what the summary counts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}: {detail}")]
pub struct ReadError {
    pub reason: SkipReason,
    pub detail: String,
}

fn open_nofollow(path: &Path) -> Result<File, ReadError> {
    std::fs::OpenOptions::new()
        .read(true)
        // O_NONBLOCK: a fifo swapped in after the walk must not hang the run.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                ReadError {
                    reason: SkipReason::Symlink,
                    detail: "is a symbolic link".into(),
                }
            } else {
                ReadError {
                    reason: SkipReason::Unreadable,
                    detail: io_detail(&e),
                }
            }
        })
}

/// An I/O error without the path (paths never reach reports).
pub fn io_detail(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s.to_lowercase(),
    }
}

/// A corpus file opened for reading: a regular file, not a link, with the
/// identity a later run checks before it reads on from where this one stopped.
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    pub len: u64,
    pub dev: u64,
    pub ino: u64,
}

/// Opens `path` without following a link and checks on the open descriptor
/// that it is a regular file. Files have no size cap: a session of any size
/// is read as a stream (lines have one).
pub fn open(path: &Path) -> Result<Opened, ReadError> {
    use std::os::unix::fs::MetadataExt;
    let file = open_nofollow(path)?;
    let meta = file.metadata().map_err(|e| ReadError {
        reason: SkipReason::Unreadable,
        detail: io_detail(&e),
    })?;
    if !meta.is_file() {
        return Err(ReadError {
            reason: SkipReason::NotRegularFile,
            detail: "not a regular file".into(),
        });
    }
    Ok(Opened {
        len: meta.len(),
        dev: meta.dev(),
        ino: meta.ino(),
        file,
    })
}

/// An I/O error while reading, as a skip reason.
pub fn unreadable(e: &std::io::Error) -> ReadError {
    ReadError {
        reason: SkipReason::Unreadable,
        detail: io_detail(e),
    }
}

/// Reads a small whole file (a sidecar) into `buf`, at most `cap` bytes.
pub fn read_into(path: &Path, cap: u64, buf: &mut Vec<u8>) -> Result<(), ReadError> {
    let f = open(path)?;
    if f.len > cap {
        return Err(ReadError {
            reason: SkipReason::Oversize,
            detail: format!("{} bytes is over the {cap}-byte cap", f.len),
        });
    }
    buf.clear();
    buf.reserve(usize::try_from(f.len).unwrap_or(0).saturating_add(1));
    f.file
        .take(cap.saturating_add(1))
        .read_to_end(buf)
        .map_err(|e| unreadable(&e))?;
    if buf.len() as u64 > cap {
        return Err(ReadError {
            reason: SkipReason::Oversize,
            detail: format!("grew past the {cap}-byte cap while being read"),
        });
    }
    Ok(())
}

/// Reads the first `limit` bytes of a file under the same rules.
pub fn read_head(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let f = open(path)?;
    let mut buf = Vec::new();
    f.file
        .take(limit)
        .read_to_end(&mut buf)
        .map_err(|e| unreadable(&e))?;
    Ok(buf)
}

/// Bytes a resume check hashes before the offset it goes on from.
pub const TAIL_CHECK: u64 = 4096;

/// SHA-256 (hex) of the up to `TAIL_CHECK` bytes before `offset`: what a
/// later run compares to tell a file that only grew from one rewritten.
pub fn tail_hash(f: &File, offset: u64) -> Result<String, ReadError> {
    range_hash(f, offset.saturating_sub(TAIL_CHECK), offset)
}

/// SHA-256 (hex) of the file's first `TAIL_CHECK` bytes up to `offset`:
/// a file rewritten from its start (another session's content, say) is
/// told apart even when its tail window matches.
pub fn head_hash(f: &File, offset: u64) -> Result<String, ReadError> {
    range_hash(f, 0, offset.min(TAIL_CHECK))
}

fn range_hash(f: &File, from: u64, to: u64) -> Result<String, ReadError> {
    use sha2::{Digest, Sha256};
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; (to - from) as usize];
    f.read_exact_at(&mut buf, from)
        .map_err(|e| unreadable(&e))?;
    Ok(Sha256::digest(&buf)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Appends up to `max` bytes of `f` (read on from where it is) to `buf`;
/// returns how many (0 at the end of the file).
pub fn read_more(f: impl Read, max: u64, buf: &mut Vec<u8>) -> Result<usize, ReadError> {
    f.take(max).read_to_end(buf).map_err(|e| unreadable(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
        let mut buf = Vec::new();
        read_into(path, cap, &mut buf).map(|()| buf)
    }

    #[test]
    fn missing_file_is_unreadable_without_its_path() {
        let e = read_capped(Path::new("/nonexistent/dir/x.jsonl"), 10).unwrap_err();
        assert_eq!(e.reason, SkipReason::Unreadable);
        assert_eq!(e.detail, "no such file or directory");
    }

    #[test]
    fn links_dirs_and_oversize_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"0123456789").unwrap();
        let l = dir.path().join("l");
        std::os::unix::fs::symlink(&f, &l).unwrap();
        assert_eq!(
            read_capped(&l, 100).unwrap_err().reason,
            SkipReason::Symlink
        );
        assert_eq!(
            read_capped(dir.path(), 100).unwrap_err().reason,
            SkipReason::NotRegularFile
        );
        assert_eq!(read_capped(&f, 9).unwrap_err().reason, SkipReason::Oversize);
        assert_eq!(read_capped(&f, 10).unwrap(), b"0123456789");
        assert_eq!(read_head(&f, 4).unwrap(), b"0123");
        assert_eq!(open(&l).unwrap_err().reason, SkipReason::Symlink);
        assert_eq!(open(&f).unwrap().len, 10);
    }

    /// The tail hash covers the 4 KiB before the offset, no more: a change
    /// before that window is not seen (the file identity and size are the
    /// other checks), a change inside it is.
    #[test]
    fn tail_hash_covers_the_window_before_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        let mut bytes = vec![b'a'; 10_000];
        std::fs::write(&f, &bytes).unwrap();
        let h = |off| tail_hash(&open(&f).unwrap().file, off).unwrap();
        let (at_9000, at_3) = (h(9000), h(3));
        assert_eq!(at_3.len(), 64);
        bytes[4903] = b'b'; // before 9000 - 4096 = 4904: outside the window
        std::fs::write(&f, &bytes).unwrap();
        assert_eq!(h(9000), at_9000);
        bytes[4904] = b'b';
        std::fs::write(&f, &bytes).unwrap();
        assert_ne!(h(9000), at_9000);
        assert_eq!(h(3), at_3);
        assert_eq!(
            tail_hash(&open(&f).unwrap().file, 20_000)
                .unwrap_err()
                .reason,
            SkipReason::Unreadable
        );
    }
}
