//! `sessionkit import`: replay an export, all or nothing.

use anyhow::{Context, Result};

use crate::Exit;
use crate::commands::{Ctx, help_fields, stdin_bytes, utf8};
use crate::continuity::memory::export::{ExportFile, read_export, redact_imported};
use crate::continuity::memory::{Memory, MemoryEvent};
use crate::output::memory::{IMPORT_SCHEMA, ImportRecord, ImportResult};
use crate::output::{Column, col};

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "All or nothing: every record is checked first, and when one is rejected nothing is written. Exit status 1 when a record was rejected (nothing imported); 2 (nothing imported) when the input is not UTF-8. {}",
    help_fields("import")
))]
pub struct ImportArgs {
    /// An export file, or - for stdin
    pub file: String,
}

const IMPORT_COLUMNS: &[Column] = &[
    col("line", "line"),
    col("type", "type"),
    col("id", "id"),
    col("result", "result"),
    col("reason", "reason"),
];

/// An import creating at least this many memories compacts the search index.
const COMPACT_AFTER: usize = 1000;

/// Replays an export: same ids, kinds, actors and times; no events of its own.
pub fn import(ctx: &Ctx, a: &ImportArgs) -> Result<Exit> {
    let (bytes, name) = if a.file == "-" {
        (stdin_bytes()?, "stdin")
    } else {
        let b = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file))?;
        (b, a.file.as_str())
    };
    let text_in = utf8(bytes, name, "nothing was imported")?;
    let ExportFile {
        rejected,
        memories,
        events,
        commitments,
    } = read_export(&text_in);
    // Every record holds its own copy now: the file's text goes.
    drop(text_in);
    let record = |line, kind: &str, id: String, result, reason| ImportRecord {
        id,
        line,
        reason,
        result,
        schema: IMPORT_SCHEMA,
        record_type: kind.to_string(),
    };
    let mut rows: Vec<ImportRecord> = rejected
        .into_iter()
        .map(|r| {
            record(
                r.line,
                &r.kind,
                r.id,
                ImportResult::Rejected,
                Some(r.reason),
            )
        })
        .collect();
    let mut store = ctx.open_writer()?;
    let redact = crate::settings::enabled(&store, "memory.redaction")?;
    let (mlines, mut mlist): (Vec<usize>, Vec<Memory>) = memories.into_iter().unzip();
    if redact {
        mlist.iter_mut().for_each(redact_imported);
    }
    let (elines, elist): (Vec<usize>, Vec<MemoryEvent>) = events.into_iter().unzip();
    let checked = store.check_import(&mlist, &elist)?;
    // All or nothing: one rejected record and nothing is written.
    let refused = !rows.is_empty() || checked.records.iter().any(|r| r.outcome.is_err());
    let lines = mlines.iter().chain(&elines).copied();
    // A commitment line shares its memory's fate: reported on its own line.
    let mut of_memory: std::collections::HashMap<String, (ImportResult, Option<String>)> =
        std::collections::HashMap::new();
    for (r, line) in checked.records.iter().zip(lines) {
        let (result, reason) = match &r.outcome {
            Ok(_) if refused => (
                ImportResult::NotImported,
                Some("another record of the file was rejected: nothing was written".to_string()),
            ),
            Ok(true) => (ImportResult::Created, None),
            Ok(false) => (ImportResult::Present, None),
            Err(why) => (ImportResult::Rejected, Some(why.clone())),
        };
        if r.kind == "memory" {
            of_memory.insert(r.id.clone(), (result, reason.clone()));
        }
        rows.push(record(line, r.kind, r.id.clone(), result, reason));
    }
    for (line, id) in commitments {
        if let Some((result, reason)) = of_memory.get(&id) {
            rows.push(record(line, "commitment", id, *result, reason.clone()));
        }
    }
    if !refused {
        let created = store.write_import(&mlist, &elist, &checked)?;
        if created >= COMPACT_AFTER {
            // A bulk load leaves the search index in many segments, and every
            // word looked up seeks each one (remember's duplicate check looks
            // up a dozen): merge them into one.
            store.compact_search()?;
        }
        store.optimize()?;
    }
    rows.sort_by_key(|r| r.line);
    let count = |what| rows.iter().filter(|r| r.result == what).count();
    let (created, present, rejected) = (
        count(ImportResult::Created),
        count(ImportResult::Present),
        count(ImportResult::Rejected),
    );
    ctx.out.records_of(IMPORT_COLUMNS, &rows)?;
    if rejected > 0 {
        ctx.out.note(&format!(
            "nothing imported: {rejected} record(s) rejected; fix or remove them and import again"
        ));
        Ok(Exit::Found)
    } else {
        ctx.out.note(&format!(
            "imported: {created} created, {present} already present"
        ));
        Ok(Exit::Success)
    }
}
