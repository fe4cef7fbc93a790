//! Merging sessionkit's registrations into a client's settings document,
//! and taking them out again. Only handlers that run `sessionkit hook` are
//! touched: every other group, handler and key stays as it was, in place.

use anyhow::{Result, bail};

use crate::domain::harness::Harness;

use super::json::Json;
use super::plan::{self, Layout, Registration};

/// What a merge did, by event.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Events that had no sessionkit handler and now have one.
    pub added: Vec<String>,
    /// Events whose sessionkit handler was rewritten (another program,
    /// database or timeout).
    pub updated: Vec<String>,
    /// Events whose hand-written sessionkit handler (no `--harness`) became
    /// the registered one.
    pub adopted: Vec<String>,
    /// Events a sessionkit handler was taken from (uninstall; a duplicate;
    /// an event sessionkit no longer registers).
    pub removed: Vec<String>,
}

impl Change {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.updated.is_empty()
            && self.adopted.is_empty()
            && self.removed.is_empty()
    }
}

/// Whether a handler object runs a sessionkit hook for `h`: written by
/// `install` (`--harness` names `h`) or by hand (no `--harness`). With
/// `installed_only`, only the first kind.
fn is_ours(h: Harness, handler: &Json, installed_only: bool) -> Option<bool> {
    let cmd = handler.get(plan::command_key(h))?.as_str()?;
    let hook = plan::sessionkit_hook(cmd)?;
    match hook.harness.as_deref() {
        Some(name) => {
            let named = Harness::named(name)?;
            (named == h).then_some(true)
        }
        None if installed_only => None,
        None => Some(false),
    }
}

/// Whether `handler` is one `install` wrote for `h`.
pub(super) fn is_installed(h: Harness, handler: &Json) -> bool {
    is_ours(h, handler, true) == Some(true)
}

/// `(group, handler)` of every sessionkit handler in one event's array;
/// `group` is the array index, `handler` the index inside a group's
/// `hooks` (always 0 for the flat layout).
fn sites(h: Harness, arr: &[Json], installed_only: bool) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::new();
    for (g, item) in arr.iter().enumerate() {
        match plan::layout(h) {
            Layout::Flat => {
                if let Some(installed) = is_ours(h, item, installed_only) {
                    out.push((g, 0, installed));
                }
            }
            Layout::Grouped => {
                let Some(handlers) = item.get("hooks").and_then(Json::as_array) else {
                    continue;
                };
                for (i, handler) in handlers.iter().enumerate() {
                    if let Some(installed) = is_ours(h, handler, installed_only) {
                        out.push((g, i, installed));
                    }
                }
            }
        }
    }
    out
}

/// Removes the handlers at `sites` (taken from `arr`), dropping the groups
/// this left with no handler (a group the user left empty stays).
fn remove_sites(h: Harness, arr: &mut Vec<Json>, sites: &[(usize, usize, bool)]) {
    match plan::layout(h) {
        Layout::Flat => {
            let drop: Vec<usize> = sites.iter().map(|s| s.0).collect();
            let mut i = 0;
            arr.retain(|_| {
                i += 1;
                !drop.contains(&(i - 1))
            });
        }
        Layout::Grouped => {
            for &(g, i, _) in sites.iter().rev() {
                if let Some(handlers) = arr[g].get_mut("hooks").and_then(Json::as_array_mut) {
                    handlers.remove(i);
                }
            }
            let mut g = 0;
            arr.retain(|group| {
                g += 1;
                !sites.iter().any(|s| s.0 == g - 1)
                    || group
                        .get("hooks")
                        .and_then(Json::as_array)
                        .is_none_or(|a| !a.is_empty())
            });
        }
    }
}

/// The root object's `hooks` object, created when absent.
fn hooks_of(doc: &mut Json, create: bool) -> Result<Option<&mut Json>> {
    if doc.members().is_none() {
        bail!("the file's top level is not a JSON object");
    }
    if doc.get("hooks").is_none() && !create {
        return Ok(None);
    }
    let hooks = doc
        .entry("hooks", Json::object)
        .expect("checked: an object");
    if hooks.members().is_none() {
        bail!("\"hooks\" is not a JSON object");
    }
    Ok(Some(hooks))
}

/// Merges `regs` (with their command lines) into `doc`.
pub fn install(
    doc: &mut Json,
    h: Harness,
    regs: &[Registration],
    commands: &[String],
) -> Result<Change> {
    let mut change = Change::default();
    if plan::layout(h) == Layout::Flat && doc.members().is_some() && doc.get("version").is_none() {
        doc.set("version", Json::num(1));
    }
    let hooks = hooks_of(doc, true)?.expect("created");
    drop_unregistered(hooks, h, regs, &mut change);
    for (r, cmd) in regs.iter().zip(commands) {
        let want = plan::handler(h, r, cmd);
        let arr = hooks
            .entry(r.event, || Json::Array(Vec::new()))
            .expect("an object");
        let Some(arr) = arr.as_array_mut() else {
            bail!("\"hooks\".{:?} is not a JSON array", r.event);
        };
        let found = sites(h, arr, false);
        let Some(&(g, i, installed)) = found.first() else {
            arr.push(match plan::layout(h) {
                Layout::Flat => want,
                Layout::Grouped => group(r, want),
            });
            change.added.push(r.event.to_string());
            continue;
        };
        if found.len() > 1 {
            remove_sites(h, arr, &found[1..]);
            change.removed.push(r.event.to_string());
        }
        let current = match plan::layout(h) {
            Layout::Flat => &mut arr[g],
            Layout::Grouped => {
                let grp = &mut arr[g];
                let alone = grp.get("hooks").and_then(Json::as_array).map(Vec::len) == Some(1);
                if alone {
                    set_matcher(grp, r.matcher);
                }
                &mut grp
                    .get_mut("hooks")
                    .and_then(Json::as_array_mut)
                    .expect("a site")[i]
            }
        };
        if *current != want {
            *current = want;
            if installed {
                change.updated.push(r.event.to_string());
            } else {
                change.adopted.push(r.event.to_string());
            }
        }
    }
    Ok(change)
}

/// Takes sessionkit's handlers out of the events it registered once but
/// registers no more (an event left empty goes too).
fn drop_unregistered(hooks: &mut Json, h: Harness, regs: &[Registration], change: &mut Change) {
    for (event, arr) in hooks.members_mut().expect("an object").iter_mut() {
        if regs.iter().any(|r| r.event == event) {
            continue;
        }
        if let Some(arr) = arr.as_array_mut() {
            let s = sites(h, arr, true);
            if !s.is_empty() {
                remove_sites(h, arr, &s);
                change.removed.push(event.clone());
            }
        }
    }
    hooks
        .members_mut()
        .expect("an object")
        .retain(|(_, v)| v.as_array().is_none_or(|a| !a.is_empty()));
}

/// A new matcher group holding `handler`.
fn group(r: &Registration, handler: Json) -> Json {
    let mut g = Json::object();
    if let Some(m) = r.matcher {
        g.set("matcher", Json::str(m));
    }
    g.set("hooks", Json::Array(vec![handler]));
    g
}

fn set_matcher(group: &mut Json, matcher: Option<&str>) {
    let now = group.get("matcher").and_then(Json::as_str);
    if now == matcher {
        return;
    }
    match matcher {
        Some(m) => {
            if group.get("matcher").is_some() {
                group.set("matcher", Json::str(m));
            } else {
                // A new key goes first, where `group` puts it.
                if let Some(members) = group.members_mut() {
                    members.insert(0, ("matcher".to_string(), Json::str(m)));
                }
            }
        }
        None => {
            group.remove("matcher");
        }
    }
}

/// Takes every handler `install` wrote for `h` out of `doc` (hand-written
/// ones without `--harness` stay), then the groups, event arrays and
/// `hooks` object left empty.
pub fn uninstall(doc: &mut Json, h: Harness) -> Result<Change> {
    let mut change = Change::default();
    let Some(hooks) = hooks_of(doc, false)? else {
        return Ok(change);
    };
    for (event, arr) in hooks.members_mut().expect("an object").iter_mut() {
        if let Some(arr) = arr.as_array_mut() {
            let s = sites(h, arr, true);
            if !s.is_empty() {
                remove_sites(h, arr, &s);
                change.removed.push(event.clone());
            }
        }
    }
    // Events this left with no handler go (an event the user left empty stays).
    let members = hooks.members_mut().expect("an object");
    members
        .retain(|(k, v)| !change.removed.contains(k) || v.as_array().is_none_or(|a| !a.is_empty()));
    if members.is_empty() && !change.removed.is_empty() {
        doc.remove("hooks");
    }
    Ok(change)
}

/// Whether `doc` holds nothing but what `install` creates in an empty
/// file (so uninstall can remove the file it created).
pub fn is_bare(doc: &Json, h: Harness) -> bool {
    match doc.members() {
        Some([]) => true,
        Some([(k, v)]) => plan::layout(h) == Layout::Flat && k == "version" && *v == Json::num(1),
        _ => false,
    }
}

/// One sessionkit handler found in a settings document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub event: String,
    pub group: usize,
    pub handler: usize,
    pub command: String,
    /// Written by `install` (it names `--harness`), not by hand.
    pub installed: bool,
    /// The handler's timeout, in the client's unit, when it names one.
    pub timeout: Option<u64>,
}

/// Every sessionkit handler in `doc`, written by `install` or by hand.
pub fn registered(doc: &Json, h: Harness) -> Vec<Found> {
    let Some(hooks) = doc.get("hooks").and_then(Json::members) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (event, arr) in hooks {
        let Some(arr) = arr.as_array() else { continue };
        for (g, i, installed) in sites(h, arr, false) {
            let handler = match plan::layout(h) {
                Layout::Flat => &arr[g],
                Layout::Grouped => &arr[g]["hooks"][i],
            };
            let cmd = handler
                .get(plan::command_key(h))
                .and_then(Json::as_str)
                .unwrap_or_default();
            let timeout = match handler.get(h.handlers.timeout_key) {
                Some(Json::Number(n)) => n.as_u64(),
                _ => None,
            };
            out.push(Found {
                event: event.clone(),
                group: g,
                handler: i,
                command: cmd.to_string(),
                installed,
                timeout,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::install::plan::registrations;

    fn cmds(h: Harness) -> Vec<String> {
        registrations(h)
            .iter()
            .map(|r| plan::command("/bin/sessionkit", None, r, h))
            .collect()
    }

    #[test]
    fn install_appends_groups_keeps_foreign_ones_and_is_idempotent() {
        let h = Harness::named("claude-code").unwrap();
        let text = r#"{"permissions":{"allow":["Bash(ls)"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]}}"#;
        let mut doc = Json::parse(text).unwrap();
        let change = install(&mut doc, h, registrations(h), &cmds(h)).unwrap();
        assert_eq!(change.added.len(), 9);
        let stop = doc["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 2);
        assert_eq!(
            stop[0]["hooks"][0]["command"],
            Json::str("notify-send done")
        );
        assert_eq!(
            stop[1]["hooks"][0]["command"],
            Json::str("/bin/sessionkit hook stop --harness claude-code")
        );
        assert_eq!(doc.members().unwrap()[0].0, "permissions");
        let again = install(&mut doc.clone(), h, registrations(h), &cmds(h)).unwrap();
        assert!(again.is_empty(), "{again:?}");
        // Uninstall takes out exactly what install added.
        let removed = uninstall(&mut doc, h).unwrap();
        assert_eq!(removed.removed.len(), 9);
        assert_eq!(doc, Json::parse(text).unwrap());
    }

    #[test]
    fn hand_written_entries_are_adopted_and_duplicates_removed() {
        let h = Harness::named("codex").unwrap();
        let text = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sessionkit hook event"},{"type":"command","command":"echo hi"}]},{"hooks":[{"type":"command","command":"sessionkit hook stop --harness codex","timeout":10}]}]}}"#;
        let mut doc = Json::parse(text).unwrap();
        let change = install(&mut doc, h, registrations(h), &cmds(h)).unwrap();
        assert_eq!(change.adopted, vec!["Stop"]);
        assert_eq!(change.removed, vec!["Stop"]);
        let stop = doc["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 1);
        assert_eq!(stop[0]["hooks"].as_array().unwrap().len(), 2);
        assert_eq!(
            stop[0]["hooks"][0]["command"],
            Json::str("/bin/sessionkit hook stop --harness codex")
        );
        assert_eq!(stop[0]["hooks"][1]["command"], Json::str("echo hi"));
    }

    #[test]
    fn a_moved_binary_updates_in_place_and_stale_events_go() {
        let h = Harness::named("gemini").unwrap();
        let mut doc = Json::object();
        let old: Vec<String> = registrations(h)
            .iter()
            .map(|r| plan::command("/old/sessionkit", None, r, h))
            .collect();
        install(&mut doc, h, registrations(h), &old).unwrap();
        // An event an older sessionkit registered.
        let stale = r#"{"matcher":"*","hooks":[{"name":"x","type":"command","command":"/old/sessionkit hook pre-compact --harness gemini"}]}"#;
        doc.get_mut("hooks").unwrap().set(
            "PreCompress",
            Json::Array(vec![Json::parse(stale).unwrap()]),
        );
        let change = install(&mut doc, h, registrations(h), &cmds(h)).unwrap();
        assert_eq!(change.updated.len(), 4);
        assert_eq!(change.removed, vec!["PreCompress"]);
        assert!(doc["hooks"].get("PreCompress").is_none());
        assert_eq!(
            doc["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"],
            Json::num(10_000)
        );
    }

    #[test]
    fn flat_files_get_a_version_and_a_bare_one_is_recognised() {
        for h in [
            Harness::named("cursor").unwrap(),
            Harness::named("copilot").unwrap(),
        ] {
            let mut doc = Json::object();
            install(&mut doc, h, registrations(h), &cmds(h)).unwrap();
            assert_eq!(doc["version"], Json::num(1));
            assert_eq!(registered(&doc, h).len(), registrations(h).len(), "{h:?}");
            uninstall(&mut doc, h).unwrap();
            assert!(is_bare(&doc, h));
        }
    }

    #[test]
    fn a_file_of_the_wrong_shape_is_refused() {
        let h = Harness::named("claude-code").unwrap();
        for bad in [r#"[]"#, r#"{"hooks":[]}"#, r#"{"hooks":{"Stop":{}}}"#] {
            let mut doc = Json::parse(bad).unwrap();
            assert!(
                install(&mut doc, h, registrations(h), &cmds(h)).is_err(),
                "{bad}"
            );
        }
    }
}
