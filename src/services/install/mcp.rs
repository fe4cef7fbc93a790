//! sessionkit's MCP server where a client takes MCP servers (`hooks
//! install --with-mcp`): one entry named `sessionkit` in the object of
//! servers its file keeps, in the shape the client's own `mcp add`
//! writes, at user scope. An entry of that name that does not run
//! `... mcp` is the user's and is left alone; uninstall takes out only
//! sessionkit's, and gives a file's bytes back when nothing else changed.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::json::Json;
use super::{FileChange, Places, Target, absolute, edit, parse, read, read_original};
use crate::domain::harness::{Harness, McpServers};

/// The server's name in a client's list.
pub const NAME: &str = "sessionkit";

/// The label a change names the entry by.
pub const LABEL: &str = "mcp server";

/// The server's arguments after its program: `[--db DB] mcp`.
pub fn args(db: Option<&str>) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(db) = db {
        words.extend(["--db".to_string(), db.to_string()]);
    }
    words.push("mcp".to_string());
    words
}

/// Whether a server entry is sessionkit's: it runs `... mcp`.
fn is_ours(entry: &Json) -> bool {
    entry
        .get("args")
        .and_then(Json::as_array)
        .and_then(|a| a.last())
        .and_then(Json::as_str)
        == Some("mcp")
}

/// The file `h` keeps its MCP servers in, when sessionkit registers there.
pub fn file(places: &Places, h: Harness) -> Option<(PathBuf, &'static McpServers)> {
    let m = h.hooks().settings.mcp.as_ref()?;
    let path = (m.file)(&places.home, &|k: &str| places.vars.get(k).cloned());
    Some((path, m))
}

/// Sets (`target` asking for it) or takes out (`None`) sessionkit's
/// entry in `doc`, noting what changed in `change`.
pub fn edit(doc: &mut Json, m: &McpServers, target: Option<&Target>, change: &mut edit::Change) {
    let current = doc.get(m.key).and_then(|s| s.get(NAME));
    let ours = current.is_some_and(is_ours);
    match target {
        Some(t) if t.mcp => {
            let value = (m.entry)(&t.program, &args(t.db.as_deref()));
            let Ok(wanted) = Json::parse(&value.to_string()) else {
                return;
            };
            if current.is_some_and(|c| !is_ours(c) || *c == wanted) {
                return;
            }
            let Some(servers) = doc.entry(m.key, Json::object) else {
                return;
            };
            servers.set(NAME, wanted);
            let list = if ours {
                &mut change.updated
            } else {
                &mut change.added
            };
            list.push(LABEL.to_string());
        }
        Some(_) => {}
        None => {
            if !ours {
                return;
            }
            if let Some(servers) = doc.get_mut(m.key) {
                servers.remove(NAME);
                if servers.members().is_some_and(<[_]>::is_empty) {
                    doc.remove(m.key);
                }
            }
            change.removed.push(LABEL.to_string());
        }
    }
}

/// The change to `h`'s own MCP file (one apart from its settings file):
/// `None` when `h` takes no server there or nothing changes.
pub fn change(
    places: &Places,
    h: Harness,
    target: Option<&Target>,
    change: &mut edit::Change,
) -> Result<Option<FileChange>> {
    let Some((path, m)) = file(places, h) else {
        return Ok(None);
    };
    let path = absolute(&path)?;
    let before_text = read(&path)?;
    let before = parse(&path, before_text.as_deref())?;
    let mut after = before.clone();
    let mut mine = edit::Change::default();
    edit(&mut after, m, target, &mut mine);
    if mine.is_empty() {
        return Ok(None);
    }
    let keep_original = before_text.is_some()
        && !before
            .get(m.key)
            .and_then(|s| s.get(NAME))
            .is_some_and(is_ours);
    let after_text = text(&path, before_text.as_deref(), &after, target.is_none());
    change.added.extend(mine.added);
    change.updated.extend(mine.updated);
    change.removed.extend(mine.removed);
    Ok(Some(FileChange {
        path,
        before: before_text,
        after: after_text,
        executable: false,
        owned: false,
        keep_original,
    }))
}

/// The text the file gets: on uninstall, the user's own bytes from before
/// the first install when that is the result, nothing when install made
/// the file and it is left empty; else the document in the file's
/// indentation.
fn text(path: &Path, before: Option<&str>, after: &Json, removing: bool) -> Option<String> {
    if removing {
        let original = read_original(path);
        match original {
            Some(orig) if parse(path, Some(&orig)).is_ok_and(|d| d == *after) => {
                return Some(orig);
            }
            None if after.members().is_some_and(<[_]>::is_empty) => return None,
            _ => {}
        }
    }
    Some(after.render(&super::json::indent_of(before.unwrap_or(""))))
}
