//! Mistral Vibe's session store as a source of sessions:
//!
//! ```text
//! <root>/<session id>/CURRENT                          the latest snapshot's number
//! <root>/<session id>/meta.json                        cwd, model, start (a root session's)
//! <root>/<session id>/generations/<n>/projection-state.json   the session, its running totals
//! <root>/<session id>/generations/<n>/runtime-state.json      its actions (completions among them)
//! <root>/<session id>/journal/<first seq>.jsonl        the records since the last-but-one snapshot
//! <root>/child-<hex>/…                                 a subagent's session, the same
//! ```
//! `<root>` is `~/.vibe/logs/session/unified` (`$VIBE_HOME/logs/…`). Only
//! the latest generation is read (the older one and the catalogue,
//! `.session-index.json`, repeat older values). A subagent's snapshot names
//! its parent: a tree of sessions is one sessionkit session. Whether a tree
//! changed is told from each session's `CURRENT` and its journal files'
//! sizes and times; every file is read bounded, no link followed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::read::{STORE, SessionFiles, Totals};
use crate::domain::corpus::kit::{OpenStore, SessionStore, Tree, group_trees};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{BadLine, ParsedSession, SessionRow};

/// The most a snapshot's or a meta file may hold.
const SMALL: u64 = 16 << 20;
/// The most one journal segment may hold.
const SEGMENT: u64 = 512 << 20;

/// Vibe's store: the folder of its sessions.
#[derive(Debug)]
pub struct Store;

impl SessionStore for Store {
    fn stores_in(&self, root: &Path) -> Vec<PathBuf> {
        store_in(root).into_iter().collect()
    }

    fn label(&self, _: &Path) -> &'static str {
        STORE
    }

    fn open(&self, path: &Path) -> Result<Box<dyn OpenStore>> {
        Ok(Box::new(Opened(path.to_path_buf())))
    }
}

struct Opened(PathBuf);

impl OpenStore for Opened {
    fn trees(&self) -> Result<Vec<Tree>> {
        trees(&self.0)
    }

    fn parse(&self, label: &str, tree: &Tree, said: Option<SaidOptions>) -> Result<ParsedSession> {
        let files = files(&self.0, tree);
        let mut parsed = super::read::parse_tree(label, &tree.sessions, &files);
        parsed.title_and_said(tree.sessions[0].title.as_deref(), said, |o| {
            Some(super::said::said_of_journals(&files, o))
        });
        Ok(parsed)
    }
}

/// Whether `root` is Vibe's session store: a session folder in it (one
/// whose name is a session's) holds a `CURRENT` of Vibe's store format.
pub fn store_in(root: &Path) -> Option<PathBuf> {
    let rd = std::fs::read_dir(root).ok()?;
    for e in rd.flatten() {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if !is_session_dir_name(&name) {
            continue;
        }
        return current(&e.path())
            .is_some_and(|c| c.store_format.starts_with("mistral.vibe."))
            .then(|| root.to_path_buf());
    }
    None
}

fn is_session_dir_name(name: &str) -> bool {
    crate::domain::transcript::uuid_like(name)
        || name
            .strip_prefix("child-")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Current {
    generation: String,
    store_format: String,
}

fn current(dir: &Path) -> Option<Current> {
    let bytes = crate::domain::confined::read(&dir.join("CURRENT"), 1 << 16).ok()??;
    serde_json::from_slice(&bytes).ok()
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Projection {
    snapshot: Snapshot,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Snapshot {
    session: ProjectedSession,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ProjectedSession {
    id: Option<String>,
    #[serde(rename = "parentSessionId")]
    parent: Option<String>,
    title: Option<String>,
    #[serde(rename = "createdAt")]
    created: Option<i64>,
    #[serde(rename = "updatedAt")]
    updated: Option<i64>,
    #[serde(rename = "tokenUsage")]
    totals: Option<Totals>,
}

/// A session folder's latest snapshot of the session.
fn projection(dir: &Path, generation: &str) -> Option<ProjectedSession> {
    let path = dir
        .join("generations")
        .join(generation)
        .join("projection-state.json");
    let bytes = crate::domain::confined::read(&path, SMALL).ok()??;
    serde_json::from_slice::<Projection>(&bytes)
        .ok()
        .map(|p| p.snapshot.session)
}

/// Every session tree of the store.
pub fn trees(root: &Path) -> Result<Vec<Tree>> {
    let mut rows: Vec<(SessionRow, String)> = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(root)?
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| is_session_dir_name(n))
        .collect();
    names.sort();
    for name in names {
        let dir = root.join(&name);
        if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        let Some(cur) = current(&dir) else { continue };
        let p = projection(&dir, &cur.generation).unwrap_or_default();
        let created = p.created.unwrap_or(0);
        let row = SessionRow {
            id: p.id.filter(|i| !i.is_empty()).unwrap_or(name.clone()),
            parent_id: p.parent.filter(|i| !i.is_empty()),
            directory: name,
            title: p.title,
            version: None,
            agent: None,
            time_created: created,
            time_updated: p.updated.unwrap_or(created),
        };
        let mut sums = cur.generation.clone();
        for (seg, size, mtime) in segments(&dir) {
            sums.push_str(&format!("\t{seg}:{size}:{mtime}"));
        }
        rows.push((row, sums));
    }
    rows.sort_by(|a, b| (a.0.time_created, &a.0.id).cmp(&(b.0.time_created, &b.0.id)));
    Ok(group_trees(&rows, "vibe"))
}

/// A session folder's journal segments: name, size and mtime, in order.
fn segments(dir: &Path) -> Vec<(String, u64, i128)> {
    let Ok(rd) = std::fs::read_dir(dir.join("journal")) else {
        return Vec::new();
    };
    let mut out: Vec<(String, u64, i128)> = rd
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            (name.ends_with(".jsonl") && meta.is_file()).then(|| {
                (
                    name,
                    meta.len(),
                    crate::domain::corpus::kit::mtime_ns(&meta),
                )
            })
        })
        .collect();
    out.sort();
    out
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Meta {
    environment: Environment,
    config: Config,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Environment {
    working_directory: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Config {
    model_name: Option<String>,
    active_model: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Runtime {
    actions: Vec<Action>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Action {
    kind: String,
    state: String,
}

/// What each session of `tree` holds that its reading needs.
pub fn files(root: &Path, tree: &Tree) -> Vec<SessionFiles> {
    tree.sessions
        .iter()
        .map(|s| session_files(root, &s.directory, &s.id))
        .collect()
}

fn session_files(root: &Path, name: &str, id: &str) -> SessionFiles {
    let dir = root.join(name);
    let mut out = SessionFiles {
        id: id.to_string(),
        ..SessionFiles::default()
    };
    let read = |path: &Path, max: u64, out: &mut SessionFiles| -> Option<Vec<u8>> {
        match crate::domain::confined::read(path, max) {
            Ok(b) => b,
            Err(e) => {
                out.problems.push(BadLine {
                    file: format!("{name}/{}", rel_in(&dir, path)),
                    line: 0,
                    reason: format!(
                        "not read: {}",
                        crate::domain::text::sanitize_reason(&format!("{e:#}"))
                    ),
                });
                None
            }
        }
    };
    if let Some(m) = read(&dir.join("meta.json"), SMALL, &mut out)
        .and_then(|b| serde_json::from_slice::<Meta>(&b).ok())
    {
        out.cwd = m.environment.working_directory.filter(|c| !c.is_empty());
        out.model = m
            .config
            .model_name
            .or(m.config.active_model)
            .filter(|m| !m.is_empty());
    }
    if let Some(cur) = current(&dir) {
        out.totals = projection(&dir, &cur.generation).and_then(|p| p.totals);
        let runtime = dir
            .join("generations")
            .join(&cur.generation)
            .join("runtime-state.json");
        out.completions = read(&runtime, SMALL, &mut out)
            .and_then(|b| serde_json::from_slice::<Runtime>(&b).ok())
            .map(|r| {
                r.actions
                    .iter()
                    .filter(|a| a.kind == "completion" && a.state == "succeeded")
                    .count() as u64
            });
    }
    for (seg, _, _) in segments(&dir) {
        let path = dir.join("journal").join(&seg);
        if let Some(bytes) = read(&path, SEGMENT, &mut out) {
            out.journal.push((format!("{name}/journal/{seg}"), bytes));
        }
    }
    out
}

fn rel_in(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}
