//! Walks a corpus root and finds every session and subagent transcript in all
//! four Claude Code layouts, with `lstat` only.
//!
//! ```text
//! <root>/<slug>/<session>.jsonl                                        main
//! <root>/<slug>/agent-<id>.jsonl                                       flat (owner read from its records)
//! <root>/<slug>/<session>/subagents/agent-<id>.jsonl [+ .meta.json]    nested
//! <root>/<slug>/<session>/subagents/workflows/wf_<id>/agent-<id>.jsonl workflow
//! ```
//! Nothing deeper is entered (that is the depth cap); everything not read is
//! counted as a `Skip` with its reason.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{Layout, Skip, SkipReason};
use crate::domain::clients::Finds;
use crate::domain::transcript::{AgentLayout, FileRole, Format};

/// A file found by the walk, with the `lstat` facts its fingerprint uses.
#[derive(Debug, Clone)]
pub struct PlannedFile {
    pub rel: String,
    pub abs: PathBuf,
    pub size: u64,
    pub mtime_ns: i128,
    pub role: FileRole,
    /// `(rel, abs, size, mtime_ns)` of its sidecar: a subagent's
    /// `.meta.json`, a Droid session's `.settings.json`.
    pub sidecar: Option<(String, PathBuf, u64, i128)>,
    /// Its format: its name's (`Format::of_file`), or what the walk knew
    /// it by.
    pub format: Format,
}

/// One session's files under one root.
#[derive(Debug, Clone)]
pub struct SessionFiles {
    pub session_id: String,
    pub slug: String,
    pub root: usize,
    pub main: PlannedFile,
    pub agents: Vec<PlannedFile>,
    /// The working directory the layout itself names when the transcript
    /// does not (a Gemini CLI project's `.project_root`).
    pub cwd_hint: Option<String>,
}

/// A `<slug>/agent-<id>.jsonl` file: its owner is the session its records name,
/// which only a read can tell (the caller remembers it).
#[derive(Debug, Clone)]
pub struct FlatAgentFile {
    pub root: usize,
    pub file: PlannedFile,
}

/// What the walk of every root found.
#[derive(Debug, Default)]
pub struct Discovery {
    pub sessions: BTreeMap<String, SessionFiles>,
    pub flat: Vec<FlatAgentFile>,
    pub skips: Vec<Skip>,
    /// OpenCode databases: a root holding one is read through it alone.
    pub databases: Vec<super::Database>,
}

/// A session id as clients write it in a file or folder name.
pub fn is_session_uuid(s: &str) -> bool {
    crate::domain::transcript::uuid_like(s)
}

/// `agent-<id><suffix>` with a safe id of letters, digits, `-` and `_`.
fn agent_id_of<'n>(name: &'n str, suffix: &str) -> Option<&'n str> {
    let id = name.strip_prefix("agent-")?.strip_suffix(suffix)?;
    let ok = !id.is_empty()
        && id
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_');
    ok.then_some(id)
}

pub(crate) fn mtime_ns(m: &Metadata) -> i128 {
    i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec())
}

#[derive(Debug)]
pub struct Entry {
    pub name: String,
    pub path: PathBuf,
    pub meta: Metadata,
}

impl Entry {
    /// The directory `root/rel` (not a link), named `rel`, if it is one.
    pub fn dir_at(root: &Path, rel: &str) -> Option<Entry> {
        let path = root.join(rel);
        let meta = std::fs::symlink_metadata(&path)
            .ok()
            .filter(Metadata::is_dir)?;
        Some(Entry {
            name: rel.to_string(),
            path,
            meta,
        })
    }
}

/// Lists a directory sorted by name; bad names, symlinks and entries that
/// vanish are handled here so callers see only real files and directories.
pub fn list(dir: &Path, rel: &str, skips: &mut Vec<Skip>) -> Vec<Entry> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        skips.push(Skip {
            root: 0,
            reason: SkipReason::Unreadable,
            path: rel.to_string(),
        });
        return Vec::new();
    };
    let mut out = Vec::new();
    for ent in rd.flatten() {
        let raw = ent.file_name();
        let join = |n: &str| {
            if rel.is_empty() {
                n.to_string()
            } else {
                format!("{rel}/{n}")
            }
        };
        let Some(name) = raw.to_str().filter(|n| !n.contains('\\')) else {
            skips.push(Skip {
                root: 0,
                reason: SkipReason::BadName,
                path: join(&raw.to_string_lossy()),
            });
            continue;
        };
        let path = ent.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue; // vanished between readdir and lstat
        };
        let ft = meta.file_type();
        let reason = if ft.is_symlink() {
            Some(SkipReason::Symlink)
        } else if !ft.is_file() && !ft.is_dir() {
            Some(SkipReason::NotRegularFile)
        } else {
            None
        };
        if let Some(reason) = reason {
            skips.push(Skip {
                root: 0,
                reason,
                path: join(name),
            });
            continue;
        }
        out.push(Entry {
            name: name.to_string(),
            path,
            meta,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Admits a transcript file of any size but an empty one (`None`: skipped,
/// recorded). Size is no reason to skip: a session is read as a stream.
pub fn admit(e: &Entry, rel: String, role: FileRole, skips: &mut Vec<Skip>) -> Option<PlannedFile> {
    if e.meta.len() == 0 {
        skips.push(Skip {
            root: 0,
            reason: SkipReason::Empty,
            path: rel,
        });
        return None;
    }
    Some(PlannedFile {
        format: Format::of_file(&rel),
        rel,
        abs: e.path.clone(),
        size: e.meta.len(),
        mtime_ns: mtime_ns(&e.meta),
        role,
        sidecar: None,
    })
}

/// Walks one root. Sessions already found under an earlier root or a
/// lexicographically smaller slug win; later copies are `duplicate-session`.
pub fn discover(root_idx: usize, root: &Path, cap: u64, into: &mut Discovery) {
    let first_skip = into.skips.len();
    walk_root(root_idx, root, cap, into);
    for s in &mut into.skips[first_skip..] {
        s.root = root_idx;
    }
}

/// One session's files: `<root>/<slug>/<sid>.jsonl`, its `<sid>/` folder
/// and the slug's flat agent files (whose owner only a read can tell), as
/// the full walk finds them, without walking the rest of the root. What a
/// hook's catch-up ingest reads.
pub fn discover_one(
    root_idx: usize,
    root: &Path,
    (slug, sid): (&str, &str),
    cap: u64,
    into: &mut Discovery,
) {
    let first_skip = into.skips.len();
    let walked = layouts().any(|l| l.walk_one(root_idx, root, (slug, sid), into));
    if !walked && let Some(entry) = Entry::dir_at(root, slug) {
        walk_slug(root_idx, &entry, cap, Some(sid), into);
    }
    for s in &mut into.skips[first_skip..] {
        s.root = root_idx;
    }
}

/// The layouts of the clients that keep one of their own, in the order
/// clients are declared.
fn layouts() -> impl Iterator<Item = &'static dyn Layout> {
    crate::domain::clients::ALL
        .iter()
        .filter_map(|c| match c.finds {
            Finds::Layout(l) => Some(l),
            Finds::Rest | Finds::Store(_) | Finds::Parent(_) => None,
        })
}

fn walk_root(root_idx: usize, root: &Path, cap: u64, into: &mut Discovery) {
    if super::stores::walk(root_idx, root, into) {
        return;
    }
    let mut entries = list(root, "", &mut into.skips);
    for layout in layouts() {
        entries = layout.claim(root_idx, entries, into);
    }
    'entries: for slug in entries {
        if !slug.meta.is_dir() {
            into.skips.push(Skip {
                root: 0,
                reason: SkipReason::NonArtifact,
                path: slug.name,
            });
            continue;
        }
        for layout in layouts() {
            if layout.is(&slug) {
                layout.walk(root_idx, root, &slug, None, into);
                continue 'entries;
            }
        }
        // Claude Code's layout: every folder no other client's.
        walk_slug(root_idx, &slug, cap, None, into);
    }
}

/// One `<slug>/` folder; with `only`, just that session (and the flat
/// agent files), the rest neither read nor counted as skipped.
fn walk_slug(root_idx: usize, slug: &Entry, cap: u64, only: Option<&str>, into: &mut Discovery) {
    let skips = &mut into.skips;
    {
        let entries = list(&slug.path, &slug.name, skips);
        let mut dirs: BTreeMap<&str, &Entry> = BTreeMap::new();
        for e in entries.iter().filter(|e| e.meta.is_dir()) {
            dirs.insert(e.name.as_str(), e);
        }
        let mut used_dirs: Vec<&str> = Vec::new();
        for e in entries.iter().filter(|e| e.meta.is_file()) {
            let rel = format!("{}/{}", slug.name, e.name);
            if let Some(sid) = e.name.strip_suffix(".jsonl").filter(|s| is_session_uuid(s)) {
                if only.is_some_and(|o| o != sid) {
                    continue;
                }
                if into.sessions.contains_key(sid) {
                    skips.push(Skip {
                        root: 0,
                        reason: SkipReason::DuplicateSession,
                        path: rel,
                    });
                    used_dirs.push(sid);
                    continue;
                }
                let mut agents = Vec::new();
                if let Some(d) = dirs.get(sid) {
                    used_dirs.push(sid);
                    walk_session_dir(d, &format!("{}/{sid}", slug.name), cap, &mut agents, skips);
                }
                let Some(main) = admit(e, rel, FileRole::Main, skips) else {
                    // The session is skipped: so are its subagent files, for the same reason.
                    let reason = skips.last().map_or(SkipReason::Empty, |s| s.reason);
                    for a in agents {
                        skips.push(Skip {
                            root: 0,
                            reason,
                            path: a.rel,
                        });
                        if let Some((rel, ..)) = a.sidecar {
                            skips.push(Skip {
                                root: 0,
                                reason,
                                path: rel,
                            });
                        }
                    }
                    continue;
                };
                into.sessions.insert(
                    sid.to_string(),
                    SessionFiles {
                        session_id: sid.to_string(),
                        slug: slug.name.clone(),
                        root: root_idx,
                        main,
                        agents,
                        cwd_hint: None,
                    },
                );
            } else if let Some(id) = agent_id_of(&e.name, ".jsonl") {
                let role = FileRole::Agent {
                    agent_id: id.to_string(),
                    layout: AgentLayout::Flat,
                    workflow_id: None,
                };
                if let Some(file) = admit(e, rel, role, skips) {
                    into.flat.push(FlatAgentFile {
                        root: root_idx,
                        file,
                    });
                }
            } else if only.is_none() {
                skips.push(Skip {
                    root: 0,
                    reason: SkipReason::NonArtifact,
                    path: rel,
                });
            }
        }
        for (name, d) in &dirs {
            if used_dirs.contains(name) || only.is_some() {
                continue;
            }
            let rel = format!("{}/{name}", slug.name);
            if is_session_uuid(name) {
                // A session directory without its main transcript.
                let mut orphans = Vec::new();
                walk_session_dir(d, &rel, cap, &mut orphans, skips);
                for o in orphans {
                    skips.push(Skip {
                        root: 0,
                        reason: SkipReason::OrphanAgent,
                        path: o.rel,
                    });
                    if let Some((rel, ..)) = o.sidecar {
                        skips.push(Skip {
                            root: 0,
                            reason: SkipReason::OrphanAgent,
                            path: rel,
                        });
                    }
                }
            } else {
                skips.push(Skip {
                    root: 0,
                    reason: SkipReason::NonArtifact,
                    path: rel,
                });
            }
        }
    }
}

/// `<session>/`: only `subagents/` is read; anything else is non-artifact.
fn walk_session_dir(
    dir: &Entry,
    rel: &str,
    cap: u64,
    agents: &mut Vec<PlannedFile>,
    skips: &mut Vec<Skip>,
) {
    for e in list(&dir.path, rel, skips) {
        let erel = format!("{rel}/{}", e.name);
        if e.name == "subagents" && e.meta.is_dir() {
            walk_agents(&e, &erel, cap, None, agents, skips);
        } else {
            skips.push(Skip {
                root: 0,
                reason: SkipReason::NonArtifact,
                path: erel,
            });
        }
    }
}

/// `subagents/` or `subagents/workflows/wf_<id>/`: agent files and sidecars.
pub fn walk_agents(
    dir: &Entry,
    rel: &str,
    cap: u64,
    workflow: Option<&str>,
    agents: &mut Vec<PlannedFile>,
    skips: &mut Vec<Skip>,
) {
    let entries = list(&dir.path, rel, skips);
    let mut sidecars: BTreeMap<String, (String, PathBuf, u64, i128)> = BTreeMap::new();
    let mut skipped_agents: BTreeMap<String, SkipReason> = BTreeMap::new();
    let start = agents.len();
    for e in &entries {
        let erel = format!("{rel}/{}", e.name);
        if e.meta.is_dir() {
            if workflow.is_none() && e.name == "workflows" {
                for wf in list(&e.path, &erel, skips) {
                    let wrel = format!("{erel}/{}", wf.name);
                    match wf.name.strip_prefix("wf_").filter(|_| wf.meta.is_dir()) {
                        Some(id) if !id.is_empty() => {
                            walk_agents(&wf, &wrel, cap, Some(id), agents, skips);
                        }
                        _ => skips.push(Skip {
                            root: 0,
                            reason: SkipReason::NonArtifact,
                            path: wrel,
                        }),
                    }
                }
            } else {
                skips.push(Skip {
                    root: 0,
                    reason: SkipReason::NonArtifact,
                    path: erel,
                });
            }
        } else if let Some(id) = agent_id_of(&e.name, ".jsonl") {
            let role = FileRole::Agent {
                agent_id: id.to_string(),
                layout: if workflow.is_some() {
                    AgentLayout::Workflow
                } else {
                    AgentLayout::Nested
                },
                workflow_id: workflow.map(str::to_string),
            };
            match admit(e, erel, role, skips) {
                Some(f) => agents.push(f),
                None => {
                    if let Some(last) = skips.last() {
                        skipped_agents.insert(id.to_string(), last.reason);
                    }
                }
            }
        } else if let Some(id) = agent_id_of(&e.name, ".meta.json") {
            sidecars.insert(
                id.to_string(),
                (erel, e.path.clone(), e.meta.len(), mtime_ns(&e.meta)),
            );
        } else if workflow.is_some() && e.name == "journal.jsonl" {
            // The workflow journal: known, and not needed for counting.
        } else {
            skips.push(Skip {
                root: 0,
                reason: SkipReason::NonArtifact,
                path: erel,
            });
        }
    }
    for f in &mut agents[start..] {
        // Files of a nested workflow directory already have theirs.
        if let FileRole::Agent { agent_id, .. } = &f.role
            && let Some(sc) = sidecars.remove(agent_id)
        {
            f.sidecar = Some(sc);
        }
    }
    for (id, (rel, _, size, _)) in sidecars {
        // A sidecar shares its transcript's fate; alone, it is not an artifact.
        let reason = match skipped_agents.get(&id) {
            Some(r) => *r,
            None if size > cap => SkipReason::Oversize,
            None => SkipReason::NonArtifact,
        };
        skips.push(Skip {
            root: 0,
            reason,
            path: rel,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_session_uuid("5c0375b4-57a5-4f26-b12d-d022ee4e51b7"));
        assert!(!is_session_uuid("5C0375B4-57a5-4f26-b12d-d022ee4e51b7"));
        assert!(!is_session_uuid("agent-1234"));
        assert_eq!(
            agent_id_of("agent-test-hash-123.jsonl", ".jsonl"),
            Some("test-hash-123")
        );
        assert_eq!(agent_id_of("agent-ab.meta.json", ".meta.json"), Some("ab"));
        assert_eq!(agent_id_of("agent-.jsonl", ".jsonl"), None);
        assert_eq!(agent_id_of("agent-a b.jsonl", ".jsonl"), None);
    }
}
