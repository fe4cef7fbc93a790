//! `sessionkit hooks doctor`: every registered hook run the way its client
//! runs it — the client's payload shape on stdin, its environment — against
//! a scratch database, and its answer judged by the client's own output
//! rules.
//!
//! `payloads`: the payload each client sends, per event; `runner`: a
//! scratch directory and database, and one registered command run in the
//! client's environment; `rules`: what each client accepts on stdout and
//! stderr; `health`: the database's own checks (its file, the nudge, the
//! hooks' recorded failures).

mod health;
mod payloads;
mod rules;
mod runner;

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::domain::harness::Harness;
use crate::services::install::{self, Places, Registration, Scope, plan, validate};
use health::{database, failures, nudge};
use runner::{Scratch, run_one};

vocabulary! {
    /// What a doctor's finding checked.
    Check, "check", "checks" {
        /// A client's settings file: readable, valid, sessionkit's
        /// handlers registered (and trusted, for Codex).
        Settings = "settings",
        /// Codex's trust of a handler.
        Trust = "trust",
        /// A registered command run as its client runs it: its output.
        Output = "output",
        /// The database the hooks write to.
        Database = "database",
        /// The turn-end nudge's setting.
        Nudge = "nudge",
        /// Failures hooks recorded.
        Failures = "failures",
    }
}

/// One check and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub harness: String,
    pub scope: Option<String>,
    pub check: Check,
    pub event: Option<String>,
    pub ok: bool,
    pub detail: String,
    pub fix: Option<String>,
    pub ms: Option<u64>,
}

fn finding(h: Option<Harness>, scope: Option<Scope>, check: Check) -> Finding {
    Finding {
        harness: h.map_or("-", Harness::as_str).to_string(),
        scope: scope.map(|s| s.as_str().to_string()),
        check,
        event: None,
        ok: true,
        detail: String::new(),
        fix: None,
        ms: None,
    }
}

impl Finding {
    fn fail(mut self, detail: String, fix: String) -> Finding {
        self.ok = false;
        self.detail = detail;
        self.fix = Some(fix);
        self
    }

    fn pass(mut self, detail: String) -> Finding {
        self.detail = detail;
        self
    }

    fn on(mut self, event: &str) -> Finding {
        self.event = Some(event.to_string());
        self
    }
}

/// Runs every check for `harnesses` (both scopes unless one is named);
/// `db` is the database the hooks write to.
pub fn examine(
    places: &Places,
    harnesses: &[Harness],
    scope: Option<Scope>,
    db: &Path,
) -> Result<Vec<Finding>> {
    let scratch = Scratch::new()?;
    let scopes = match scope {
        Some(s) => vec![s],
        None => vec![Scope::User, Scope::Project],
    };
    let mut out = Vec::new();
    let mut installed = 0;
    let mut named_dbs: Vec<Option<String>> = Vec::new();
    for &h in harnesses {
        out.extend(twice(places, h));
        for s in places.distinct(h, &scopes) {
            let base = || finding(Some(h), Some(s), Check::Settings);
            let (standing, doc) = match install::standing(places, h, s) {
                Ok(x) => x,
                Err(e) => {
                    out.push(base().fail(format!("{e:#}"), unreadable_fix(h)));
                    continue;
                }
            };
            if standing.iter().all(|x| x.state == Registration::Missing) {
                continue;
            }
            installed += 1;
            let file = &standing[0].file;
            for p in validate::check(&doc, h) {
                let what = if p.whole_file {
                    format!("{} ignores this whole file", install::client_name(h))
                } else {
                    format!("{} skips this entry", install::client_name(h))
                };
                out.push(base().fail(
                    format!("{file}: {} {}: {what}", p.at, p.what),
                    format!("fix or remove {} in {file}", p.at),
                ));
            }
            for x in &standing {
                out.extend(judge_standing(h, s, x, file));
                if let Some(cmd) = &x.command
                    && x.state != Registration::Extra
                {
                    if let Some(hook) = plan::sessionkit_hook(cmd) {
                        named_dbs.push(hook.db);
                    }
                    let ms = x.timeout_ms.unwrap_or_else(|| install::timeout_ms(h, None));
                    out.push(run_one(&scratch, h, s, (&x.event, cmd, ms)));
                }
            }
        }
    }
    if installed == 0 {
        let named: Vec<&str> = harnesses.iter().map(|h| h.as_str()).collect();
        out.push(finding(None, scope, Check::Settings).fail(
            format!("no sessionkit hooks are registered ({})", named.join(", ")),
            "sessionkit hooks install".into(),
        ));
    }
    out.extend(database_checks(named_dbs, db));
    Ok(out)
}

/// The fix for settings sessionkit cannot read.
fn unreadable_fix(h: Harness) -> String {
    if matches!(h.settings.form, crate::domain::harness::Form::Json) {
        "fix the file's JSON (the client cannot read it either)".into()
    } else {
        "fix the file or folder (or move it away)".into()
    }
}

/// The databases the registered commands write to (a `--db` they name,
/// else this command's, `db`), each checked: its file, the nudge, the
/// hooks' recorded failures.
fn database_checks(named_dbs: Vec<Option<String>>, db: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut dbs: Vec<PathBuf> = Vec::new();
    for db in named_dbs
        .into_iter()
        .map(|d| d.map_or_else(|| db.to_path_buf(), PathBuf::from))
    {
        if !dbs.contains(&db) {
            dbs.push(db);
        }
    }
    if dbs.is_empty() {
        dbs.push(db.to_path_buf());
    }
    for db in &dbs {
        out.push(database(db));
        out.push(nudge(db));
        out.extend(failures(db));
    }
    out
}

/// What a registration's state says is wrong, and the fix.
fn judge_standing(h: Harness, s: Scope, x: &install::Standing, file: &str) -> Option<Finding> {
    let reinstall = format!(
        "sessionkit hooks install --harness {} --scope {}",
        h.as_str(),
        s.as_str()
    );
    let f = || finding(Some(h), Some(s), Check::Settings).on(&x.event);
    Some(match x.state {
        Registration::Missing => f().fail(
            format!("{} has no sessionkit hook in {file}", x.event),
            reinstall,
        ),
        Registration::HandWritten => f().fail(
            format!("{}: a hand-written entry without --harness", x.event),
            format!("{reinstall} (adopts it)"),
        ),
        Registration::Untrusted | Registration::StaleTrust => {
            finding(Some(h), Some(s), Check::Trust).on(&x.event).fail(
                if h.settings.trust {
                    format!(
                        "{} has no matching trust for {}: it skips the hook unattended",
                        h.label, x.event
                    )
                } else {
                    format!(
                        "{} has no consent to {} on record: it skips the hook outside a terminal",
                        h.label, x.event
                    )
                },
                format!("{reinstall} (records the trust)"),
            )
        }
        Registration::Extra => f().fail(
            format!("{}: sessionkit no longer registers this event", x.event),
            reinstall,
        ),
        Registration::Registered | Registration::NotInstalled | Registration::Unreadable => {
            return None;
        }
    })
}

/// Events registered in more than one of `h`'s files (user and project
/// settings, Claude Code's `settings.local.json`, hooks Codex reads from
/// `config.toml`): the client runs each, so the briefing arrives twice.
/// Claude Code runs identical handlers once, so for it only differing
/// commands count.
pub fn twice(places: &Places, h: Harness) -> Vec<Finding> {
    let mut files: Vec<PathBuf> = places
        .distinct(h, &[Scope::User, Scope::Project])
        .into_iter()
        .map(|s| places.settings(h, s))
        .collect();
    for also in h.settings.project_also {
        files.push(places.project.join(also));
    }
    let mut seen: Vec<(String, String, String)> = Vec::new();
    for f in &files {
        let Some(doc) = std::fs::read_to_string(f)
            .ok()
            .and_then(|t| install::json::Json::parse(&t).ok())
        else {
            continue;
        };
        for x in install::edit::registered(&doc, h) {
            seen.push((x.event, f.display().to_string(), x.command));
        }
    }
    if let Some(config) = places.trust_file(h)
        && let Ok(text) = std::fs::read_to_string(&config)
    {
        for (event, command) in config_toml_hooks(&text) {
            seen.push((event, config.display().to_string(), command));
        }
    }
    let mut out = Vec::new();
    let mut events: Vec<&str> = seen.iter().map(|s| s.0.as_str()).collect();
    events.sort_unstable();
    events.dedup();
    for event in events {
        let here: Vec<&(String, String, String)> = seen.iter().filter(|s| s.0 == event).collect();
        let mut where_: Vec<&str> = here.iter().map(|s| s.1.as_str()).collect();
        where_.dedup();
        let mut commands: Vec<&str> = here.iter().map(|s| s.2.as_str()).collect();
        commands.sort_unstable();
        commands.dedup();
        let runs_twice = here.len() > 1 && (!h.handlers.runs_identical_once || commands.len() > 1);
        if runs_twice {
            out.push(finding(Some(h), None, Check::Settings).on(event).fail(
                format!(
                    "{event} runs sessionkit {} times ({}): {} runs each",
                    here.len(),
                    where_.join(", "),
                    install::client_name(h)
                ),
                format!(
                    "keep one: `sessionkit hooks uninstall --harness {} --scope project` (or user), or remove the entry by hand",
                    h.as_str()
                ),
            ));
        }
    }
    out
}

/// `(event, command)` of each sessionkit hook defined in a Codex
/// `config.toml` (`[[hooks.<Event>]]` / `[[hooks.<Event>.hooks]]`).
fn config_toml_hooks(text: &str) -> Vec<(String, String)> {
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    let Some(hooks) = doc.get("hooks").and_then(toml_edit::Item::as_table_like) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (event, groups) in hooks.iter() {
        let Some(groups) = groups.as_array_of_tables() else {
            continue;
        };
        for group in groups {
            let Some(handlers) = group
                .get("hooks")
                .and_then(toml_edit::Item::as_array_of_tables)
            else {
                continue;
            };
            for handler in handlers {
                if let Some(cmd) = handler.get("command").and_then(toml_edit::Item::as_str)
                    && plan::sessionkit_hook(cmd).is_some()
                {
                    out.push((event.to_string(), cmd.to_string()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
