//! sessionkit's MCP server where a client takes MCP servers (`hooks
//! install --with-mcp`): one entry named `sessionkit` in the object of
//! servers its file keeps, in the shape the client's own `mcp add`
//! writes, at user scope. An entry of that name that does not run
//! `... mcp` is the user's and is left alone; uninstall takes out only
//! sessionkit's, and gives a file's bytes back when nothing else changed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::json::Json;
use super::{FileChange, Places, Target, absolute, edit, parse, read, read_original};
use crate::domain::harness::{Harness, McpForm, McpServers};

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

/// Whether a server entry is sessionkit's: its command line (a command
/// and its `args`, or one list as OpenCode's; under `transport` as
/// Cline's) ends in `mcp`.
fn is_ours(entry: &Json) -> bool {
    let entry = entry.get("transport").unwrap_or(entry);
    let last = |key: &str| {
        entry
            .get(key)
            .and_then(Json::as_array)
            .and_then(|a| a.last())
            .and_then(Json::as_str)
    };
    last("args").or_else(|| last("command")) == Some("mcp")
}

/// The file `h` keeps its MCP servers in, when sessionkit registers there.
pub fn file(places: &Places, h: Harness) -> Option<(PathBuf, &'static McpServers)> {
    let m = h.hooks().settings.mcp.as_ref()?;
    let path = (m.file)(&places.home, &|k: &str| places.vars.get(k).cloned());
    Some((path, m))
}

/// The file where sessionkit's server is registered for `h`, when it is
/// (an entry of its name that runs `... mcp`; one of the user's own of
/// that name is not).
pub fn registered(places: &Places, h: Harness) -> Result<Option<PathBuf>> {
    let Some((path, m)) = file(places, h) else {
        return Ok(None);
    };
    let path = absolute(&path)?;
    let Some(text) = read(&path)? else {
        return Ok(None);
    };
    // What uninstall would take out is what is there.
    let mut taken = edit::Change::default();
    if m.form == McpForm::Json {
        let mut doc = parse(&path, Some(&text))?;
        edit(&mut doc, m, None, &mut taken);
    } else {
        other_text(&text, m, None, &mut taken).with_context(|| path.display().to_string())?;
    }
    Ok((!taken.removed.is_empty()).then_some(path))
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
    if m.form != McpForm::Json {
        let before = read(&path)?;
        let text = before.clone().unwrap_or_default();
        return Ok(
            toml_text(&text, m, target, change)?.map(|after| FileChange {
                path,
                // A file install made and left empty goes again.
                after: (!(before.is_none() && after.trim().is_empty())).then_some(after),
                before,
                executable: false,
                owned: false,
                keep_original: false,
            }),
        );
    }
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

/// `f` (a change to the client's TOML or YAML settings already planned:
/// Codex's trust, Hermes Agent's hooks) with sessionkit's server set or
/// taken out of its new text too.
pub fn retext(
    f: &mut FileChange,
    m: &McpServers,
    target: Option<&Target>,
    change: &mut edit::Change,
) -> Result<()> {
    let text = f.after.clone().unwrap_or_default();
    let after =
        other_text(&text, m, target, change).with_context(|| f.path.display().to_string())?;
    if let Some(after) = after {
        // On uninstall, the user's own bytes when only blank lines differ;
        // a file install made, left with nothing, goes.
        let original = target.is_none().then(|| read_original(&f.path)).flatten();
        f.after = match original {
            Some(orig) if orig.trim() == after.trim() => Some(orig),
            _ if after.trim().is_empty() => None,
            _ => Some(after),
        };
    }
    Ok(())
}

/// `text` in `m`'s language (TOML or YAML) with sessionkit's server set
/// or taken out; `None` when nothing changes.
fn other_text(
    text: &str,
    m: &McpServers,
    target: Option<&Target>,
    change: &mut edit::Change,
) -> Result<Option<String>> {
    match m.form {
        McpForm::Yaml => super::mcp_yaml::text(text, m, target, change),
        _ => toml_text(text, m, target, change),
    }
}

/// TOML `text` with sessionkit's server set (`target` asking for it) or
/// taken out (`None`) of its table `key`; `None` when nothing changes.
fn toml_text(
    text: &str,
    m: &McpServers,
    target: Option<&Target>,
    change: &mut edit::Change,
) -> Result<Option<String>> {
    use toml_edit::{Array, DocumentMut, Item, Table, value};
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e| anyhow::anyhow!("not valid TOML ({e}); nothing was written"))?;
    let words = |t: &Table| -> Option<(String, Vec<String>)> {
        let command = t.get("command")?.as_str()?.to_string();
        let args = t
            .get("args")?
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()?;
        Some((command, args))
    };
    let current = doc
        .get(m.key)
        .and_then(|s| s.get(NAME))
        .and_then(Item::as_table)
        .map(words);
    let ours = matches!(&current, Some(Some((_, a))) if a.last().is_some_and(|w| w == "mcp"));
    match target {
        Some(t) if t.mcp => {
            let wanted = (t.program.clone(), args(t.db.as_deref()));
            if current.is_some() && (!ours || current == Some(Some(wanted.clone()))) {
                return Ok(None);
            }
            let mut entry = Table::new();
            entry.insert("command", value(wanted.0));
            entry.insert("args", value(wanted.1.iter().collect::<Array>()));
            let servers = doc.entry(m.key).or_insert_with(|| {
                let mut t = Table::new();
                t.set_implicit(true);
                Item::Table(t)
            });
            let Some(servers) = servers.as_table_mut() else {
                anyhow::bail!("{} is not a table; nothing was written", m.key);
            };
            servers.insert(NAME, Item::Table(entry));
            if ours {
                change.updated.push(LABEL.to_string());
            } else {
                change.added.push(LABEL.to_string());
            }
        }
        Some(_) => return Ok(None),
        None => {
            if !ours {
                return Ok(None);
            }
            if let Some(servers) = doc.get_mut(m.key).and_then(Item::as_table_mut) {
                servers.remove(NAME);
                if servers.is_empty() {
                    doc.remove(m.key);
                }
            }
            change.removed.push(LABEL.to_string());
        }
    }
    Ok(Some(doc.to_string()))
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
