//! The database's own checks: its file opens, the nudge's setting, the
//! failures hooks recorded.

use super::{Check, Finding, finding};
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whether the database the hooks use takes a write.
pub(super) fn database(db: &Path) -> Finding {
    let f = finding(None, None, Check::Database);
    let tried = (|| -> Result<()> {
        let store = crate::store::Store::open(db)?;
        store.probe_write()
    })();
    match tried {
        Ok(()) => f.pass(format!("{} takes writes", db.display())),
        Err(e) => f.fail(
            format!("{}: {e:#}", db.display()),
            format!(
                "make {} and its folder writable by this user (hooks spool their events meanwhile)",
                db.display()
            ),
        ),
    }
}

/// The debrief nudge as the Stop hook will see it: the value in force
/// (environment, database, default) read by the on/off rule.
pub(super) fn nudge(db: &Path) -> Finding {
    let f = finding(None, None, Check::Nudge);
    let read = (|| -> Result<(bool, crate::services::settings::Source)> {
        let store = crate::store::Store::open(db)?;
        let s = crate::services::settings::lookup("nudge.enabled")?;
        let (v, source) = crate::services::settings::effective(&store, s)?;
        Ok((
            crate::services::settings::parse_switch(&v) == Some(true),
            source,
        ))
    })();
    match read {
        Ok((on, source)) => f.pass(format!(
            "the debrief nudge is {} ({} of {}, from the {})",
            if on { "on" } else { "off" },
            "nudge.enabled",
            db.display(),
            source.as_str()
        )),
        Err(e) => f.fail(
            format!("nudge.enabled of {}: {e:#}", db.display()),
            "sessionkit config set nudge.enabled on (or off)".into(),
        ),
    }
}

/// Hook failures the hooks themselves recorded: the last week's, from the
/// database and (Gemini) `<db>.hook-errors.log`.
pub(super) fn failures(db: &Path) -> Vec<Finding> {
    let f = || finding(None, None, Check::Failures);
    let week = crate::domain::clock::now() - 7 * 24 * 3_600_000;
    let mut out = Vec::new();
    let recorded = crate::store::Store::open(db).and_then(|s| s.hook_failures_since(week));
    match recorded {
        Ok(rows) if rows.is_empty() => {
            out.push(f().pass("no hook failures recorded this week".into()));
        }
        Ok(rows) => {
            let last = &rows[rows.len() - 1];
            out.push(f().fail(
                format!(
                    "{} hook failures this week; the last, {} ({} {}): {}",
                    rows.len(),
                    crate::domain::clock::format_instant(last.at),
                    last.harness,
                    last.event,
                    last.message
                ),
                "fix what the message says; `sessionkit hooks doctor` again shows whether it recurs".into(),
            ));
        }
        Err(e) => out.push(f().fail(format!("{e:#}"), "see the database check".into())),
    }
    let mut log = db.as_os_str().to_owned();
    log.push(".hook-errors.log");
    let log = PathBuf::from(log);
    if let Ok(meta) = std::fs::metadata(&log)
        && meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age < Duration::from_secs(7 * 24 * 3600))
    {
        // Only the clients that show a hook's stderr have their failures
        // written there.
        let by: Vec<&str> = crate::domain::harness::all()
            .filter(|h| h.answers.shows_stderr)
            .map(|h| h.label)
            .collect();
        out.push(f().fail(
            format!(
                "{} has entries from the last week (hook failures under {})",
                log.display(),
                by.join(", ")
            ),
            format!("read {} for what failed", log.display()),
        ));
    }
    out
}
