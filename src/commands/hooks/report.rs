//! What `hooks install` and `uninstall` say: a record per harness (its
//! summary in a table), a dry run's diffs.

use std::io::Write;

use anyhow::Result;

use super::CHANGE_COLUMNS;
use crate::commands::Ctx;
use crate::output::records::{HOOKS_SCHEMA, HooksChangeRecord};
use crate::services::install;

/// A dry run's diffs on stdout and a line per file on stderr (in JSON, the
/// records); otherwise the records, a table's with a summary.
pub(super) fn print_changes(ctx: &Ctx, rows: &[HooksChangeRecord], dry_run: bool) -> Result<()> {
    if dry_run && !ctx.out.wants_json() {
        let mut out = std::io::stdout().lock();
        for r in rows {
            out.write_all(r.diff.as_deref().unwrap_or("").as_bytes())?;
        }
        // After the diffs, one line per file saying what would change.
        for r in rows {
            ctx.out
                .note(&format!("{}: {} ({})", r.file, summary(r), r.harness));
        }
        return Ok(());
    }
    let values: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).expect("a record is JSON");
            // A table shows a summary; JSON and CSV keep the record's shape.
            if ctx.out.format == crate::output::Format::Table {
                v["summary"] = summary(r).into();
                v["backups"] = r.backups.join(", ").into();
            }
            v
        })
        .collect();
    ctx.out.records(CHANGE_COLUMNS, &values)
}

pub(super) fn record(
    p: &install::Pending,
    installing: bool,
    dry_run: bool,
    backups: &[std::path::PathBuf],
    diff: String,
) -> HooksChangeRecord {
    let c = &p.change;
    HooksChangeRecord {
        action: if installing { "install" } else { "uninstall" }.into(),
        added: c.added.clone(),
        adopted: c.adopted.clone(),
        backups: backups.iter().map(|b| b.display().to_string()).collect(),
        changed: p.files.iter().any(install::FileChange::changes),
        diff: (dry_run && !diff.is_empty()).then_some(diff),
        dry_run,
        file: p.place.display().to_string(),
        harness: p.harness.as_str().into(),
        removed: c.removed.clone(),
        schema: HOOKS_SCHEMA.into(),
        scope: p.scope.as_str().into(),
        trust_file: p
            .files
            .get(1)
            .filter(|f| {
                // The second file is the client's trust or consent (each
                // of a folder's files is sessionkit's own), unless it is
                // its file of MCP servers.
                !matches!(
                    p.harness.settings.form,
                    crate::domain::harness::Form::Files(_)
                ) && f.changes()
                    && p.mcp_file.as_ref() != Some(&f.path)
            })
            .map(|f| f.path.display().to_string()),
        mcp_file: p
            .files
            .iter()
            .find(|f| p.mcp_file.as_ref() == Some(&f.path) && f.changes())
            .map(|f| f.path.display().to_string()),
        updated: c.updated.clone(),
    }
}

fn summary(r: &HooksChangeRecord) -> String {
    if !r.changed {
        return "unchanged".into();
    }
    let mut parts = Vec::new();
    // A dry run says what it would do: nothing was written.
    let verbs = if r.dry_run {
        ["would add", "would update", "would adopt", "would remove"]
    } else {
        ["added", "updated", "adopted", "removed"]
    };
    for (n, what) in [&r.added, &r.updated, &r.adopted, &r.removed]
        .into_iter()
        .zip(verbs)
    {
        if !n.is_empty() {
            parts.push(format!("{what} {}", n.join(" ")));
        }
    }
    if let Some(t) = &r.trust_file {
        let trust = if r.dry_run {
            "would trust in"
        } else {
            "trust in"
        };
        parts.push(format!("{trust} {t}"));
    }
    if let Some(m) = &r.mcp_file {
        parts.push(format!("mcp server in {m}"));
    }
    parts.join("; ")
}
