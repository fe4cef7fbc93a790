//! Files in a folder someone else gave sessionkit (a golden directory, a
//! report's target folder, a pull request's fixtures): a file is opened
//! without following a symbolic link and checked, on the open descriptor,
//! to be a regular file; it is read up to a size bound; a folder below the
//! one given is a real folder, never a link out of it; a write goes to a
//! fresh temporary (`O_CREAT|O_EXCL|O_NOFOLLOW`) beside its target,
//! synced and renamed over it (a link at the target is replaced, never
//! written through), and the temporary is removed on every error.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// What a path inside a confined folder is, by its own entry (a link is
/// not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Missing,
    File,
    Dir,
    /// A symbolic link, a FIFO, a socket or a device.
    Other(&'static str),
}

/// What the entry at `path` is, without following a link.
pub fn entry(path: &Path) -> Result<Entry> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Entry::Missing),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let t = meta.file_type();
    Ok(if t.is_symlink() {
        Entry::Other("a symbolic link")
    } else if t.is_file() {
        Entry::File
    } else if t.is_dir() {
        Entry::Dir
    } else {
        Entry::Other("not a regular file (a FIFO, socket or device)")
    })
}

/// A folder that is really there, not a link: `Some` when it is one,
/// `None` when nothing is at `path`, an error naming what is there
/// otherwise.
pub fn real_dir(path: &Path) -> Result<Option<PathBuf>> {
    match entry(path)? {
        Entry::Missing => Ok(None),
        Entry::Dir => Ok(Some(path.to_path_buf())),
        Entry::File => bail!("{} is a file, not a folder", path.display()),
        Entry::Other(what) => bail!(
            "{} is {what}: a folder sessionkit reads or writes in is never followed out of the one it was given",
            path.display()
        ),
    }
}

/// Opens `path` to read without following a link (`O_NONBLOCK`, so a FIFO
/// cannot hang the run) and checks the descriptor is a regular file of at
/// most `max` bytes. `None` when nothing is there.
fn open_regular(path: &Path, max: u64) -> Result<Option<(File, u64)>> {
    let f = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => bail!(
            "{} is a symbolic link: a file sessionkit reads here must be the folder's own",
            path.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let meta = f
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{} is not a regular file (a folder, FIFO, socket or device)",
            path.display()
        );
    }
    if meta.len() > max {
        bail!(
            "{} is {} bytes, more than the {max} this file may hold",
            path.display(),
            meta.len()
        );
    }
    Ok(Some((f, meta.len())))
}

/// The bytes of the regular file at `path` (never a link, at most `max`
/// bytes: a file that grows past it while read is refused too). `None`
/// when nothing is there.
pub fn read(path: &Path, max: u64) -> Result<Option<Vec<u8>>> {
    let Some((f, len)) = open_regular(path, max)? else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > max {
        bail!(
            "{} grew past the {max} bytes this file may hold while it was read",
            path.display()
        );
    }
    Ok(Some(bytes))
}

/// `read` as UTF-8 text.
pub fn read_text(path: &Path, max: u64) -> Result<Option<String>> {
    read(path, max)?
        .map(|b| {
            String::from_utf8(b).with_context(|| format!("{} is not UTF-8 text", path.display()))
        })
        .transpose()
}

/// The text of the file at `path` through a link (a settings file a
/// dotfiles checkout links), which must end at a regular file of at most
/// `max` bytes (never a FIFO or a device, read without waiting). `None`
/// when nothing is there.
pub fn read_linked_text(path: &Path, max: u64) -> Result<Option<String>> {
    let f = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let meta = f
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() || meta.len() > max {
        bail!(
            "{} is not a regular file of at most {max} bytes: sessionkit does not read it",
            path.display()
        );
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > max {
        bail!("{} grew past {max} bytes while it was read", path.display());
    }
    String::from_utf8(bytes)
        .map(Some)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))
}

/// The names of the regular files in the real folder `dir` whose names end
/// in `.ext`, sorted; an entry of that name that is a link or not a
/// regular file is an error that names it.
pub fn files_with_ext(dir: &Path, ext: &str) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let e = e.with_context(|| format!("reading {}", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if Path::new(&name).extension().is_none_or(|x| x != ext) {
            continue;
        }
        match entry(&e.path())? {
            Entry::File => names.push(name),
            Entry::Missing => {}
            Entry::Dir => bail!("{} is a folder, not a file", e.path().display()),
            Entry::Other(what) => bail!(
                "{} is {what}: a file sessionkit reads here must be the folder's own",
                e.path().display()
            ),
        }
    }
    names.sort();
    Ok(names)
}

/// A file being written whole: a fresh temporary beside its target
/// (created with `O_EXCL|O_NOFOLLOW`, so a planted file or link there is
/// never written through), renamed over the target by `commit` (which
/// replaces a link there rather than following it). Dropped without
/// `commit` (an error, a full disk), the temporary is removed. A reader
/// never sees half a file.
pub struct Whole {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<File>>,
}

impl Whole {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> Result<Whole> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .with_context(|| format!("{} names no file", path.display()))?;
        if entry(path)? == Entry::Dir {
            bail!("cannot write {}: it is a folder", path.display());
        }
        if !dir.is_dir() {
            bail!(
                "cannot write {}: {} is not a directory",
                path.display(),
                dir.display()
            );
        }
        remove_stale(&dir, &name.to_string_lossy());
        let mut n = 0u32;
        loop {
            let tmp = dir.join(format!(
                ".{}.sessionkit-tmp-{}-{n}",
                name.to_string_lossy(),
                std::process::id()
            ));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o644)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&tmp)
            {
                Ok(f) => {
                    return Ok(Whole {
                        path: path.to_path_buf(),
                        tmp,
                        file: Some(std::io::BufWriter::new(f)),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot write in {}", dir.display()));
                }
            }
        }
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let done = match self.file.take() {
            Some(f) => f
                .into_inner()
                .map_err(std::io::IntoInnerError::into_error)
                .and_then(|f| f.sync_all())
                .and_then(|()| std::fs::rename(&self.tmp, &self.path)),
            None => Ok(()),
        };
        done.with_context(|| format!("cannot write {}", self.path.display()))?;
        // In place: nothing is left to remove.
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl Write for Whole {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), Write::flush)
    }
}

impl Drop for Whole {
    fn drop(&mut self) {
        drop(self.file.take());
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Removes the temporaries an earlier writer of `name` in `dir` left when
/// it was killed (`.NAME.sessionkit-tmp-PID-N` whose process is gone): a
/// regular file of that name only, never a link's target. Where process
/// ids cannot be checked (no `/proc`), nothing is removed.
fn remove_stale(dir: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.sessionkit-tmp-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, n)| n.parse::<u32>().ok().and(pid.parse::<u32>().ok()))
        else {
            continue;
        };
        let gone = !Path::new("/proc").join(pid.to_string()).exists();
        if gone && entry(&e.path()).is_ok_and(|t| t == Entry::File) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `bytes` to `path` whole (see `Whole`).
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut w = Whole::create(path)?;
    w.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    w.commit()
}

/// Removes the file at `path` (a link there is removed itself, never its
/// target); nothing there is not an error.
pub fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("removing {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn a_link_a_fifo_and_a_large_file_are_refused() {
        let d = scratch();
        let outside = d.path().join("outside.txt");
        std::fs::write(&outside, "secret").unwrap();
        let inside = d.path().join("in");
        std::fs::create_dir(&inside).unwrap();
        std::os::unix::fs::symlink(&outside, inside.join("a.json")).unwrap();
        let e = read(&inside.join("a.json"), 100).unwrap_err();
        assert!(format!("{e:#}").contains("symbolic link"), "{e:#}");
        assert!(files_with_ext(&inside, "json").is_err());
        let fifo = inside.join("f.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let e = read(&fifo, 100).unwrap_err();
        assert!(format!("{e:#}").contains("not a regular file"), "{e:#}");
        std::fs::write(inside.join("big.json"), vec![b'x'; 101]).unwrap();
        assert!(read(&inside.join("big.json"), 100).is_err());
        assert_eq!(read(&inside.join("none"), 100).unwrap(), None);
        std::os::unix::fs::symlink(d.path(), d.path().join("loop")).unwrap();
        assert!(real_dir(&d.path().join("loop")).is_err());
    }

    #[test]
    fn a_write_replaces_a_link_and_leaves_no_temporary() {
        let d = scratch();
        let outside = d.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        let target = d.path().join("report.html");
        std::os::unix::fs::symlink(&outside, &target).unwrap();
        write_whole(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(entry(&target).unwrap(), Entry::File);
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        // A temporary a killed writer left is removed by the next one; one
        // of a live process, a link, or another file's is not.
        let stale = d.path().join(".report.html.sessionkit-tmp-999999999-0");
        let live = d.path().join(format!(
            ".report.html.sessionkit-tmp-{}-7",
            std::process::id()
        ));
        let other = d.path().join(".other.sessionkit-tmp-999999999-0");
        for f in [&stale, &live, &other] {
            std::fs::write(f, "x").unwrap();
        }
        write_whole(&target, b"newer").unwrap();
        assert!(!stale.exists() && live.exists() && other.exists());
        // A write into a folder that is not there fails and leaves nothing.
        assert!(write_whole(&d.path().join("no/such/x"), b"x").is_err());
    }
}
