//! A settings file's lifecycle on disk: its original kept beside it, a
//! read-only file refused, the change backed up and written by rename.
use super::json::Json;
use super::{Pending, edit};
use crate::domain::harness::Harness;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The first backup of a settings file: its bytes before sessionkit first
/// changed it, kept forever beside it (`<file>.sessionkit-orig`).
pub fn original_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".sessionkit-orig");
    PathBuf::from(name)
}

/// Where a settings file's bytes are: the file itself, or, for a
/// settings file that is a symlink (a dotfiles checkout), its target,
/// beside which its original is kept.
fn resolved(path: &Path) -> Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path)
            .with_context(|| format!("following the symlink {}", path.display())),
        _ => Ok(path.to_path_buf()),
    }
}

/// The original's text, when there is one (a regular file, not followed
/// through a link; for a settings file that is a link, the one beside its
/// target).
pub(super) fn read_original(path: &Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(original_path(&resolved(path).ok()?))
        .ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    f.read_to_string(&mut text).ok()?;
    Some(text)
}

/// Creates `path` with `bytes`, never replacing a file (or following a
/// link) already there: `false` when one is.
pub(super) fn create_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(mut f) => {
            f.write_all(bytes)
                .and_then(|()| f.sync_all())
                .with_context(|| format!("writing {}", path.display()))?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
    }
}

/// Refuses to change a settings file its owner made read-only, unless
/// `force`.
pub fn refuse_read_only(p: &Pending, force: bool) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for f in p.files.iter().filter(|f| f.changes()) {
        if let Ok(meta) = std::fs::metadata(&f.path)
            && meta.permissions().mode() & 0o222 == 0
            && !force
        {
            anyhow::bail!(
                "{} is read-only (mode {:o}): sessionkit does not change a file its owner protected; make it writable, or pass --force",
                f.path.display(),
                meta.permissions().mode() & 0o777
            );
        }
    }
    Ok(())
}

/// Whether a file's text is already a bare document (then uninstall leaves
/// it rather than deleting a file the user made).
pub(super) fn is_bare_text(text: Option<&str>, h: Harness) -> bool {
    text.and_then(|t| Json::parse(t).ok())
        .is_some_and(|d| edit::is_bare(&d, h))
}

/// Writes every changed file of `p`: the old one copied to
/// `<file>.sessionkit-<stamp>.bak`, the new one written to a temporary
/// file beside it, synced, and renamed over. Returns the backups made.
pub fn commit(p: &Pending, stamp: &str) -> Result<Vec<PathBuf>> {
    let mut backups = Vec::new();
    for f in p.files.iter().filter(|f| f.changes()) {
        // A settings file that is a symlink (a dotfiles checkout) stays
        // one: its target is what changes.
        let path = resolved(&f.path)?;
        if let Some(before) = f.before.as_ref().filter(|_| !f.owned) {
            // The first time sessionkit changes a file that holds none of
            // its entries, those bytes are the user's original: kept
            // forever, never overwritten.
            if f.keep_original {
                let orig = original_path(&path);
                if create_new(&orig, before.as_bytes())? {
                    backups.push(orig);
                }
            }
            // Then a backup of this change's old text, under a name no
            // other run (the same second, another process) takes.
            let mut n = 0u32;
            loop {
                let mut name = path.as_os_str().to_owned();
                name.push(format!(
                    ".sessionkit-{stamp}-{}-{n}.bak",
                    std::process::id()
                ));
                let backup = PathBuf::from(name);
                if create_new(&backup, before.as_bytes())? {
                    backups.push(backup);
                    break;
                }
                n += 1;
            }
        }
        match &f.after {
            Some(text) => write_atomic(&path, text, f.executable)?,
            None => std::fs::remove_file(&f.path)
                .with_context(|| format!("removing {}", f.path.display()))?,
        }
    }
    Ok(backups)
}

/// Temp file in the same folder, synced, renamed over `path` (keeping an
/// existing file's permissions).
pub(super) fn write_atomic(path: &Path, text: &str, executable: bool) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().context("a settings file has a folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(format!(".sessionkit-tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp_name);
    let result = (|| -> Result<()> {
        // A fresh file, never one planted there nor a link's target.
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::remove_file(&tmp);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&tmp)?;
        if executable {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o755))?;
        } else if let Ok(meta) = std::fs::metadata(path) {
            f.set_permissions(meta.permissions())?;
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {}", path.display()))
}
