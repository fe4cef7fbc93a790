//! Claude Code's status line (`hooks install --statusline`): sessionkit's
//! `statusline` set where the key is free or already sessionkit's, taken
//! out on uninstall only when it is sessionkit's.

use anyhow::Result;

use super::json::Json;
use super::{Places, Scope, Target, absolute, edit, parse, plan, read};
use crate::domain::harness::Harness;

/// The key of Claude Code's status line in its settings.
const STATUS_LINE: &str = "statusLine";

/// Claude Code's status line in `doc`: set to `target`'s when asked and
/// the key is free or already sessionkit's (`added` or `updated`), taken
/// out on uninstall when it is sessionkit's (`removed`). A status line of
/// the user's own is left as it is.
pub(super) fn status_line(doc: &mut Json, target: Option<&Target>, change: &mut edit::Change) {
    let current = doc
        .get(STATUS_LINE)
        .and_then(|s| s.get("command"))
        .and_then(Json::as_str)
        .map(str::to_string);
    let ours = current
        .as_deref()
        .is_some_and(plan::is_sessionkit_statusline);
    match target {
        Some(t) if t.statusline => {
            let command = plan::statusline_command(&t.program, t.db.as_deref());
            if doc.get(STATUS_LINE).is_some() && !ours {
                return;
            }
            if current.as_deref() == Some(command.as_str()) {
                return;
            }
            let mut v = Json::object();
            v.set("type", Json::str("command"));
            v.set("command", Json::str(&command));
            doc.set(STATUS_LINE, v);
            let list = if ours {
                &mut change.updated
            } else {
                &mut change.added
            };
            list.push(STATUS_LINE.to_string());
        }
        Some(_) => {}
        None => {
            if ours && doc.remove(STATUS_LINE) {
                change.removed.push(STATUS_LINE.to_string());
            }
        }
    }
}

/// The status line command `h`'s settings at `scope` name, if any.
pub fn status_line_of(places: &Places, h: Harness, scope: Scope) -> Result<Option<String>> {
    let path = absolute(&places.settings(h, scope))?;
    let doc = parse(&path, read(&path)?.as_deref())?;
    Ok(doc
        .get(STATUS_LINE)
        .and_then(|s| s.get("command"))
        .and_then(Json::as_str)
        .map(str::to_string))
}
