//! Where a root is a store of sessions rather than a folder of
//! transcripts: a client's database (OpenClaw's agents', Hermes Agent's,
//! OpenCode's or Kilo's), OpenCode's older `storage/`, or Mistral Vibe's
//! session store. Such a root is read through its stores alone.

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use super::discover::{Discovery, mtime_ns};
use crate::domain::transcript::Format;

/// The stores of sessions at the top of `root` (a client's database, or
/// OpenCode's older `storage/`): `true` when the root is one, and is read
/// through them alone.
pub(super) fn walk(root_idx: usize, root: &Path, into: &mut Discovery) -> bool {
    let database = |path: PathBuf, format| {
        let meta = std::fs::metadata(&path).ok();
        super::opencode::Database {
            root: root_idx,
            size: meta.as_ref().map_or(0, Metadata::len),
            mtime_ns: meta.as_ref().map_or(0, mtime_ns),
            path,
            format,
        }
    };
    if let Some(path) = super::vibe::store_in(root) {
        // Mistral Vibe's session store: its sessions are its folders.
        into.databases.push(database(path, Format::Vibe));
        return true;
    }
    let openclaw = super::openclaw::databases_in(root);
    if !openclaw.is_empty() {
        // OpenClaw's state folder: each agent's sessions are in its
        // database.
        for path in openclaw {
            into.databases.push(database(path, Format::OpenClaw));
        }
        return true;
    }
    if let Some(path) = super::hermes::database_in(root) {
        // Hermes Agent's home: its sessions are in its database.
        into.databases.push(database(path, Format::Hermes));
        return true;
    }
    let stores = super::opencode::stores_in(root);
    if !stores.is_empty() {
        // OpenCode's data folder: its sessions are in the database and (of
        // older versions) the `storage/` folder; the rest (logs, snapshots)
        // is not read.
        for path in stores {
            let format = if path
                .file_name()
                .is_some_and(|n| n == super::opencode::KILO_DATABASE)
            {
                Format::Kilo
            } else {
                Format::OpenCode
            };
            into.databases.push(database(path, format));
        }
        return true;
    }
    false
}
