//! `project_of(cwd)`: one meaning of "project" for both halves of the tool.
//!
//! The name of the git remote `origin` (its last path segment, `.git`
//! stripped, lowercased) when the directory exists inside a repository that
//! has one; else the directory's base name. Computed once per cwd and
//! remembered in the store, so a replay never changes it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::store::Store;

/// The remembered project of `cwd`, computing and storing it on first sight.
pub fn project_of(store: &Store, cwd: &str) -> Result<String> {
    if let Some(p) = store.project_of_cwd(cwd)? {
        return Ok(p);
    }
    let p = compute(Path::new(cwd));
    store.remember_project(cwd, &p)?;
    Ok(p)
}

/// The project of `cwd` as `project_of` names it, for a reader: the
/// remembered one, else computed, never stored (a missing store: computed).
pub fn named(store: Option<&Store>, cwd: &Path) -> String {
    store
        .and_then(|s| s.project_of_cwd(&cwd.to_string_lossy()).ok().flatten())
        .unwrap_or_else(|| compute(cwd))
}

/// The project a command works on: `given` (`--project`), else the
/// directory's (`dir`, the current one when `None`). An error when the
/// directory names none (the file system root is `unknown`): every command
/// that takes a project decides it here.
pub fn chosen(store: &Store, given: Option<&str>, dir: Option<&Path>) -> Result<String> {
    if let Some(p) = given {
        return Ok(p.to_string());
    }
    let cwd = match dir {
        Some(d) => d.to_path_buf(),
        None => std::env::current_dir().context("reading the current directory")?,
    };
    let p = project_of(store, &cwd.to_string_lossy())?;
    if p.is_empty() || p == "unknown" {
        bail!(
            "cannot name a project for {}: pass --project",
            cwd.display()
        );
    }
    Ok(p)
}

/// The rule itself, reading the file system (no `git` process).
pub fn compute(cwd: &Path) -> String {
    if cwd.is_dir()
        && let Some(name) = git_dir(cwd)
            .and_then(|g| origin_url(&g))
            .and_then(|u| repo_name(&u))
    {
        return name;
    }
    base_name(cwd)
}

fn base_name(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    let trimmed = s.trim_end_matches(['/', '\\']);
    let last = trimmed.rsplit(['/', '\\']).next().unwrap_or("");
    if last.is_empty() {
        s.to_string()
    } else {
        last.to_string()
    }
}

/// Git's small files (`.git`, `commondir`, `config`) are read only when they
/// are regular files of at most this many bytes: a FIFO must not hang a hook,
/// nor a huge file fill its memory.
const MAX_GIT_FILE: u64 = 1 << 20;

/// The text of a small regular file; `None` for anything else (a FIFO, a
/// device, a directory, a file over `MAX_GIT_FILE`, not UTF-8). Opened
/// without blocking, and checked on the open descriptor.
pub fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_GIT_FILE {
        return None;
    }
    let mut text = String::new();
    f.take(MAX_GIT_FILE + 1).read_to_string(&mut text).ok()?;
    (text.len() as u64 <= MAX_GIT_FILE).then_some(text)
}

/// The git directory holding `config` for the repository containing `dir`:
/// follows `.git` files (worktrees, submodules) and their `commondir`.
fn git_dir(dir: &Path) -> Option<PathBuf> {
    let mut cur = Some(dir);
    while let Some(d) = cur {
        let dot = d.join(".git");
        if dot.is_dir() {
            return Some(dot);
        }
        if dot.is_file() {
            let text = read_small(&dot)?;
            let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
            let gd = if Path::new(target).is_absolute() {
                PathBuf::from(target)
            } else {
                d.join(target)
            };
            if let Some(common) = read_small(&gd.join("commondir")) {
                let c = common.trim();
                return Some(if Path::new(c).is_absolute() {
                    PathBuf::from(c)
                } else {
                    gd.join(c)
                });
            }
            return Some(gd);
        }
        cur = d.parent();
    }
    None
}

/// `url` of `[remote "origin"]` in a git config file.
fn origin_url(git_dir: &Path) -> Option<String> {
    let text = read_small(&git_dir.join("config"))?;
    let mut in_origin = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            let inner = l.trim_start_matches('[').trim_end_matches(']');
            let norm: String = inner.split_whitespace().collect::<Vec<_>>().join(" ");
            in_origin = norm == "remote \"origin\"";
            continue;
        }
        if in_origin
            && let Some((k, v)) = l.split_once('=')
            && k.trim().eq_ignore_ascii_case("url")
        {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// `git@github.com:Org/Repo.git` → `repo`; `https://host/a/b/` → `b`.
fn repo_name(url: &str) -> Option<String> {
    let last = url.trim_end_matches('/').rsplit(['/', ':', '\\']).next()?;
    let name = last.strip_suffix(".git").unwrap_or(last).to_lowercase();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_names() {
        assert_eq!(
            repo_name("git@github.com:Org/SessionKit.git").as_deref(),
            Some("sessionkit")
        );
        assert_eq!(repo_name("https://example.com/a/b/").as_deref(), Some("b"));
        assert_eq!(repo_name("/srv/git/tool.git").as_deref(), Some("tool"));
        assert_eq!(repo_name(".git"), None);
    }

    #[test]
    fn origin_of_a_repo_else_base_name() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("Checkout");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        std::fs::write(
            repo.join(".git/config"),
            "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = x/other.git\n[remote \"origin\"]\n\turl = git@github.com:Acme/Widget-API.git\n",
        )
        .unwrap();
        assert_eq!(compute(&repo), "widget-api");
        assert_eq!(compute(&repo.join("src/deep")), "widget-api");
        let plain = d.path().join("Plain");
        std::fs::create_dir_all(&plain).unwrap();
        assert_eq!(compute(&plain), "Plain");
        assert_eq!(compute(Path::new("/no/such/dir/Demo")), "Demo");
    }

    /// a `.git/config` that is a FIFO hung `hook session-start`;
    /// one that is huge filled memory. Neither is read: the base name.
    #[test]
    fn a_fifo_or_huge_git_file_is_not_read() {
        let d = tempfile::tempdir().unwrap();
        let fifo_repo = d.path().join("Fifo");
        std::fs::create_dir_all(fifo_repo.join(".git")).unwrap();
        let c = std::ffi::CString::new(fifo_repo.join(".git/config").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        #[allow(unsafe_code)]
        let made = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        assert_eq!(made, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let repo = fifo_repo.clone();
        std::thread::spawn(move || tx.send(compute(&repo)).unwrap());
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("a FIFO must not hang");
        assert_eq!(got, "Fifo");
        let huge = d.path().join("Huge");
        std::fs::create_dir_all(&huge).unwrap();
        let f = std::fs::File::create(huge.join(".git")).unwrap();
        f.set_len(MAX_GIT_FILE + 1).unwrap();
        assert_eq!(read_small(&huge.join(".git")), None);
        assert_eq!(compute(&huge), "Huge");
    }
}
