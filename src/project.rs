//! `project_of(cwd)`: one meaning of "project" for both halves of the tool.
//!
//! The name of the git remote `origin` (its last path segment, `.git`
//! stripped, lowercased) when the directory exists inside a repository that
//! has one; else the directory's base name. Computed once per cwd and
//! remembered in the store, so a replay never changes it (DESIGN.md).

use std::path::{Path, PathBuf};

use anyhow::Result;

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
            let text = std::fs::read_to_string(&dot).ok()?;
            let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
            let gd = if Path::new(target).is_absolute() {
                PathBuf::from(target)
            } else {
                d.join(target)
            };
            if let Ok(common) = std::fs::read_to_string(gd.join("commondir")) {
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
    let text = std::fs::read_to_string(git_dir.join("config")).ok()?;
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
}
