//! Reading untrusted corpus files: no links followed, re-checked after open, capped.

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

/// Opens `path` without following a link, checks on the open descriptor that
/// it is a regular file of at most `cap` bytes, and reads at most `limit` bytes.
fn open_checked(path: &Path, cap: u64) -> Result<(File, u64), ReadError> {
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
    if meta.len() > cap {
        return Err(ReadError {
            reason: SkipReason::Oversize,
            detail: format!(
                "{} bytes is over the {cap}-byte cap (--max-file-size)",
                meta.len()
            ),
        });
    }
    Ok((file, meta.len()))
}

/// Reads a whole file into `buf` (cleared first; its capacity is reused, so a
/// worker reading many files touches fresh memory only for the largest).
pub fn read_into(path: &Path, cap: u64, buf: &mut Vec<u8>) -> Result<(), ReadError> {
    let (file, len) = open_checked(path, cap)?;
    buf.clear();
    buf.reserve(usize::try_from(len).unwrap_or(0).saturating_add(1));
    file.take(cap.saturating_add(1))
        .read_to_end(buf)
        .map_err(|e| ReadError {
            reason: SkipReason::Unreadable,
            detail: io_detail(&e),
        })?;
    if buf.len() as u64 > cap {
        return Err(ReadError {
            reason: SkipReason::Oversize,
            detail: format!("grew past the {cap}-byte cap while being read"),
        });
    }
    Ok(())
}

/// Reads the first `limit` bytes of a file under the same rules.
pub fn read_head(path: &Path, cap: u64, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, _) = open_checked(path, cap)?;
    let mut buf = Vec::new();
    file.take(limit)
        .read_to_end(&mut buf)
        .map_err(|e| ReadError {
            reason: SkipReason::Unreadable,
            detail: io_detail(&e),
        })?;
    Ok(buf)
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
        assert_eq!(read_head(&f, 10, 4).unwrap(), b"0123");
    }
}
