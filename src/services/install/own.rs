//! Handlers sessionkit owns whole: one marked block at the end of a
//! settings file in another language than JSON (Kimi CLI's TOML, Hermes
//! Agent's YAML), or files of their own in a folder (a plugin, an
//! extension, a program per event). Each carries a line that lists its
//! handlers as JSON (`<comment> sessionkit-hooks [...]`): what `status`
//! and `doctor` read back, as the grouped document a JSON client's file
//! would be.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::json::Json;
use super::plan::{command, command_key, registrations};
use super::{FileChange, Pending, Places, Scope, Target, absolute, edit, read};
use crate::domain::harness::{
    Block, Consent, Form, Handler, Harness, Listed, MARK, Owned, listed, marker,
};

/// The first line of a block, after the comment.
const BEGIN: &str = ">>> sessionkit hooks: written by `sessionkit hooks install`, taken out by `sessionkit hooks uninstall` >>>";
/// The last line of a block, after the comment.
const END: &str = "<<< sessionkit hooks <<<";

/// Whether a text carries sessionkit's marker line.
fn is_ours(comment: &str, text: &str) -> bool {
    let head = format!("{comment} {MARK} ");
    text.lines().any(|l| l.trim_start().starts_with(&head))
}

/// `text` without sessionkit's block (the same text when it has none).
/// A block whose end marker is gone is refused: sessionkit cannot tell
/// where its lines stop.
pub fn without_block(comment: &str, text: &str) -> Result<String, String> {
    let begin = format!("{comment} {BEGIN}");
    let end = format!("{comment} {END}");
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if !inside && bare == begin {
            inside = true;
        } else if inside && bare == end {
            inside = false;
        } else if !inside {
            out.push_str(line);
        }
    }
    if inside {
        return Err(format!(
            "sessionkit's block has no end line (`{end}`); put it back or delete the block by hand"
        ));
    }
    Ok(out)
}

/// `text` with `handlers` as sessionkit's block at its end (replacing the
/// one there).
pub fn with_block(b: &Block, text: &str, handlers: &[Handler<'_>]) -> Result<String, String> {
    let mut out = without_block(b.comment, text)?;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    let c = b.comment;
    out.push_str(&format!("{c} {BEGIN}\n{}\n", marker(c, handlers)));
    out.push_str(&(b.render)(handlers));
    out.push_str(&format!("{c} {END}\n"));
    Ok(out)
}

/// Where `h` keeps its handlers at `scope`: its settings file (a block)
/// or its folder (files of its own).
pub fn place(places: &Places, h: Harness, scope: Scope) -> Result<PathBuf> {
    absolute(&places.settings(h, scope))
}

/// What `h`'s registrations are with `target`'s commands.
fn handlers(h: Harness, target: &Target) -> Vec<Handler<'static>> {
    registrations(h)
        .iter()
        .map(|r| (r, command(&target.program, target.db.as_deref(), r, h)))
        .collect()
}

/// What changed between the handlers listed before and after, by event.
fn change_of(before: &[Listed], after: &[Listed]) -> edit::Change {
    let mut c = edit::Change::default();
    for a in after {
        match before.iter().find(|b| b.event == a.event) {
            None => c.added.push(a.event.clone()),
            Some(b) if b != a => c.updated.push(a.event.clone()),
            Some(_) => {}
        }
    }
    for b in before {
        if !after.iter().any(|a| a.event == b.event) {
            c.removed.push(b.event.clone());
        }
    }
    c
}

/// Plans installing (`target`) or removing sessionkit's handlers for a
/// harness whose handlers sessionkit owns whole. Nothing is written.
pub fn plan(places: &Places, h: Harness, scope: Scope, target: Option<&Target>) -> Result<Pending> {
    let at = place(places, h, scope)?;
    let (change, files) = match &h.settings.form {
        Form::Block(b) => block(b, &at, h, target)?,
        Form::Files(o) => owned(o, &at, h, target)?,
        Form::Json => bail!("internal error: {} keeps JSON settings", h.as_str()),
    };
    Ok(Pending {
        harness: h,
        scope,
        change,
        place: at,
        files,
        mcp_file: None,
    })
}

/// A block of a settings file: merged in at its end, taken out again; an
/// uninstall that leaves what the user had gives their bytes back.
fn block(
    b: &Block,
    path: &Path,
    h: Harness,
    target: Option<&Target>,
) -> Result<(edit::Change, Vec<FileChange>)> {
    let before = read(path)?;
    let text = before.as_deref().unwrap_or("");
    let unreadable = |why: String| {
        anyhow::anyhow!(
            "{}: {why}; sessionkit changes nothing in a file {} cannot read: fix it, then run this again",
            path.display(),
            h.label
        )
    };
    (b.parses)(text).map_err(unreadable)?;
    let was = listed(b.comment, text);
    let (after, now) = if let Some(t) = target {
        let hs = handlers(h, t);
        let after = with_block(b, text, &hs).map_err(unreadable)?;
        (b.parses)(&after).map_err(|why| {
            anyhow::anyhow!(
                "{}: with sessionkit's handlers added {why}; nothing was written (a key `hooks` of another kind there?)",
                path.display()
            )
        })?;
        (Some(after), listed(b.comment, &marker(b.comment, &hs)))
    } else {
        let cut = without_block(b.comment, text).map_err(unreadable)?;
        let after = match super::files::read_original(path) {
            Some(orig) if orig.trim_end() == cut.trim_end() => Some(orig),
            _ if before.is_some() && cut.trim().is_empty() && !was.is_empty() => None,
            _ => Some(cut),
        };
        (after, Vec::new())
    };
    let after = if before.is_none() && target.is_none() {
        None
    } else {
        after
    };
    let change = change_of(&was, &now);
    let after = if change.is_empty() {
        before.clone()
    } else {
        after
    };
    let keep_original = was.is_empty() && before.is_some();
    let mut files = vec![FileChange {
        path: path.to_path_buf(),
        before,
        after,
        executable: false,
        owned: false,
        keep_original,
    }];
    if let Some(c) = b.consent.as_ref().filter(|_| !change.is_empty()) {
        files.push(consent(c, path, &was, &now)?);
    }
    Ok((change, files))
}

/// The client's record of consent beside `settings`, with `was`'s
/// handlers' taken back and `now`'s given; removed when nothing is left
/// in it.
fn consent(c: &Consent, settings: &Path, was: &[Listed], now: &[Listed]) -> Result<FileChange> {
    let path = settings.with_file_name(c.file);
    let before = read(&path)?;
    let stamp = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    let text = (c.update)(before.as_deref(), was, now, &stamp).map_err(|why| {
        anyhow::anyhow!(
            "{}: {why}; sessionkit changes nothing in a file it cannot read: fix it, then run this again",
            path.display()
        )
    })?;
    let empty = serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|v| v == serde_json::json!({"approvals": []}));
    Ok(FileChange {
        path,
        after: (!empty).then_some(text),
        before,
        executable: false,
        owned: false,
        keep_original: false,
    })
}

/// Files of sessionkit's own in a folder: written whole, removed whole;
/// a file of that name that is not sessionkit's is never replaced.
fn owned(
    o: &Owned,
    dir: &Path,
    h: Harness,
    target: Option<&Target>,
) -> Result<(edit::Change, Vec<FileChange>)> {
    let rendered = match target {
        Some(t) => (o.render)(&handlers(h, t)),
        None => Vec::new(),
    };
    let mut names = (o.names)();
    for f in &rendered {
        if !names.contains(&f.name) {
            names.push(f.name.clone());
        }
    }
    let mut files = Vec::new();
    let (mut was, mut now) = (Vec::new(), Vec::new());
    for name in names {
        let path = dir.join(&name);
        let before = read(&path)?;
        let ours = before.as_deref().is_some_and(|t| is_ours(o.comment, t));
        if before.is_some() && !ours {
            if target.is_some() && rendered.iter().any(|f| f.name == name) {
                bail!(
                    "{} is not sessionkit's (it has no `{MARK}` line): sessionkit never replaces a file it did not write; move it away, then run this again",
                    path.display()
                );
            }
            continue;
        }
        if let Some(t) = &before {
            was.extend(listed(o.comment, t));
        }
        let (after, executable) = match rendered.iter().find(|f| f.name == name) {
            Some(f) => (Some(f.text.clone()), f.program),
            None => (None, false),
        };
        if let Some(t) = &after {
            now.extend(listed(o.comment, t));
        }
        files.push(FileChange {
            path,
            before,
            after,
            executable,
            owned: true,
            keep_original: false,
        });
    }
    let mut change = change_of(&was, &now);
    // A file rewritten to the same handlers (a newer plugin) is a change.
    if change.is_empty() && files.iter().any(FileChange::changes) {
        change.updated.extend(now.iter().map(|l| l.event.clone()));
    }
    Ok((change, files))
}

/// What `h` registers at `scope`, read back from its marker lines as the
/// grouped document a JSON client's settings would be: `(the file or
/// folder, the document)`.
pub fn view(places: &Places, h: Harness, scope: Scope) -> Result<(PathBuf, Json)> {
    let at = place(places, h, scope)?;
    let listed = match &h.settings.form {
        Form::Block(b) => {
            // Only sessionkit's block is read: the rest of the file is the
            // client's to judge (install refuses what it cannot join).
            let text = read(&at)?.unwrap_or_default();
            listed(b.comment, &text)
        }
        Form::Files(o) => {
            let mut out = Vec::new();
            for name in (o.names)() {
                if let Some(t) = read(&at.join(&name))? {
                    out.extend(listed(o.comment, &t));
                }
            }
            out
        }
        Form::Json => Vec::new(),
    };
    let mut hooks = Json::object();
    for l in listed {
        let mut handler = Json::object();
        handler.set("type", Json::str("command"));
        handler.set(command_key(h), Json::str(&l.command));
        if let Some(t) = l.timeout {
            handler.set(h.handlers.timeout_key, Json::num(t));
        }
        let mut group = Json::object();
        group.set("hooks", Json::Array(vec![handler]));
        let mut list = hooks
            .get(&l.event)
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        list.push(group);
        hooks.set(&l.event, Json::Array(list));
    }
    let mut doc = Json::object();
    if hooks.members().is_some_and(|m| !m.is_empty()) {
        doc.set("hooks", hooks);
    }
    Ok((at, doc))
}

/// Marks a registered handler the client has no consent for as
/// `untrusted` (for a client that asks before it runs one).
pub fn consented(places: &Places, h: Harness, rows: &mut [super::Standing]) -> Result<()> {
    let Form::Block(Block {
        consent: Some(c), ..
    }) = &h.settings.form
    else {
        return Ok(());
    };
    let path = place(places, h, Scope::User)?.with_file_name(c.file);
    let text = read(&path)?.unwrap_or_default();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let approved = |event: &str, command: &str| {
        doc.get("approvals")
            .and_then(serde_json::Value::as_array)
            .is_some_and(|list| {
                list.iter().any(|e| {
                    e.get("event").and_then(serde_json::Value::as_str) == Some(event)
                        && e.get("command").and_then(serde_json::Value::as_str) == Some(command)
                })
            })
    };
    for r in rows.iter_mut() {
        if r.state == super::Registration::Registered
            && !r
                .command
                .as_deref()
                .is_some_and(|cmd| approved(&r.event, cmd))
        {
            r.state = super::Registration::Untrusted;
        }
    }
    Ok(())
}
