//! `sessionkit check`: the integrity report CI runs on a golden corpus.
//! Exit 1 when it finds anything.

use anyhow::Result;

use super::Ctx;
use super::{CorpusArgs, roots};
use crate::commands::Exit;
use crate::output::records::finding_record;
use crate::output::{Column, col};
use crate::services::ingest::{self, Finding, Options};
use crate::services::settings;

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("check"))]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,

    /// Skip the recount (no transcript is read; only the database is checked)
    #[arg(long)]
    pub no_recount: bool,

    /// Compare stored parents with hand-written labels (`<session>.json` files in DIR)
    #[arg(long, value_name = "DIR")]
    pub labels: Option<std::path::PathBuf>,

    /// With --labels: exit 1 when the share of correct parents is below this
    #[arg(
        long,
        value_name = "RATIO",
        default_value_t = 0.95,
        requires = "labels"
    )]
    pub min_accuracy: f64,
}

const COLUMNS: &[Column] = &[
    col("kind", "kind"),
    col("session_id", "session"),
    col("file", "file"),
    col("line", "line"),
    col("detail", "detail"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open()?;
    let roots = if args.no_recount {
        None
    } else {
        roots(ctx, &args.corpus, Some(&store))?
    };
    let mut findings: Vec<Finding> = Vec::new();
    let mut labelled: Vec<Finding> = Vec::new();
    for l in store.degraded_lines(None)? {
        findings.push(Finding {
            kind: crate::domain::integrity::FindingKind::DegradedLine,
            session_id: l.session_id,
            file: Some(l.file),
            line: Some(l.line),
            detail: l.reason,
        });
    }
    for (sid, f) in store.failures()? {
        findings.push(Finding {
            kind: if f.quarantined {
                crate::domain::integrity::FindingKind::Quarantined
            } else {
                crate::domain::integrity::FindingKind::Failed
            },
            session_id: sid,
            file: None,
            line: None,
            detail: format!("attempt {}: {}", f.attempts, f.reason),
        });
    }
    for (model, messages, tokens) in store.unpriced_models()? {
        findings.push(Finding {
            kind: crate::domain::integrity::FindingKind::UnpricedModel,
            session_id: String::new(),
            file: None,
            line: None,
            detail: format!(
                "{model}: {tokens} tokens in {messages} messages have no price (sessionkit pricing set {model} --input USD --output USD)"
            ),
        });
    }
    for r in store.reported_costs(None)? {
        if let Some(detail) = cost_difference(&store, &r)? {
            findings.push(Finding {
                kind: crate::domain::integrity::FindingKind::HarnessCostMismatch,
                session_id: r.session_id.clone(),
                file: None,
                line: None,
                detail,
            });
        }
    }
    findings.extend(spool_findings(&ctx.db)?);
    for sid in store.rollup_mismatches()? {
        findings.push(Finding {
            kind: crate::domain::integrity::FindingKind::RollupMismatch,
            session_id: sid,
            file: None,
            line: None,
            detail: "report totals disagree with the token rows: run `sessionkit replay`".into(),
        });
    }
    if let Some(roots) = roots {
        let opts = Options {
            strict: false,
            max_line_size: super::line_cap(&store, &args.corpus)?,
            replay: false,
            only: Default::default(),
            strict_pricing: false,
            bulk_bytes: settings::count(&store, "ingest.bulk_bytes")?,
            part_bytes: settings::count(&store, "ingest.part_bytes")?,
            max_bytes: None,
            one: None,
            harness: None,
        };
        findings.extend(ingest::recount(&mut store, &roots, &opts)?);
    }
    let mut below = false;
    if let Some(dir) = &args.labels {
        let r = ingest::labels::compare(&store, dir)?;
        let acc = r.accuracy();
        below = acc < args.min_accuracy;
        ctx.out.note(&format!(
            "hierarchy accuracy: {}/{} parents correct ({:.1}%, threshold {:.1}%)",
            r.correct,
            r.labelled,
            acc * 100.0,
            args.min_accuracy * 100.0
        ));
        labelled = r.findings;
    }
    findings.sort_by(|a, b| {
        (a.kind.as_str(), &a.session_id, &a.file, a.line).cmp(&(
            b.kind.as_str(),
            &b.session_id,
            &b.file,
            b.line,
        ))
    });
    // Label mismatches are listed; only the accuracy threshold decides the exit.
    let failing = !findings.is_empty() || below;
    findings.extend(labelled);
    ctx.out
        .records_of(COLUMNS, findings.iter().map(finding_record))?;
    if !failing {
        ctx.out.note("check: nothing found");
        Ok(Exit::Success)
    } else {
        ctx.out
            .note(&format!("check: {} finding(s)", findings.len()));
        Ok(Exit::Found)
    }
}

/// Hook events waiting in the spool, and lines set aside from it: both mean
/// the database is not the whole record yet (`store::spool`).
fn spool_findings(db: &std::path::Path) -> Result<Vec<Finding>> {
    let w = crate::store::spool::waiting(db);
    let mut out = Vec::new();
    for problem in &w.problems {
        out.push(Finding {
            kind: crate::domain::integrity::FindingKind::SpoolUnusable,
            session_id: String::new(),
            file: None,
            line: None,
            detail: problem.clone(),
        });
    }
    if w.dropped > 0 {
        out.push(Finding {
            kind: crate::domain::integrity::FindingKind::SpoolDropped,
            session_id: String::new(),
            file: Some(crate::store::spool::dropped_path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} hook event(s) were dropped because the spool was full (setting spool.max_bytes)",
                w.dropped
            ),
        });
    }
    if w.events > 0 {
        out.push(Finding {
            kind: crate::domain::integrity::FindingKind::SpooledEvents,
            session_id: String::new(),
            file: Some(crate::store::spool::path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} hook event(s) wait in the spool: the next writer (`sessionkit sweep`, `ingest`, a hook) moves them into the database",
                w.events
            ),
        });
    }
    if w.rejected > 0 {
        out.push(Finding {
            kind: crate::domain::integrity::FindingKind::SpoolRejected,
            session_id: String::new(),
            file: Some(crate::store::spool::rejected_path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} spooled line(s) could not be read back (cut by a crash?): they are kept in this file for inspection",
                w.rejected
            ),
        });
    }
    Ok(out)
}

/// A difference between the harness's own figure for a session and
/// sessionkit's, beyond rounding (a micro-dollar), with its likely reason.
fn cost_difference(
    store: &crate::store::Store,
    r: &crate::store::reports::ReportedCost,
) -> Result<Option<String>> {
    let filter = crate::store::reports::SessionFilter {
        session_id: Some(r.session_id.clone()),
        ..Default::default()
    };
    let Some(ours) = store.sessions(&filter)?.into_iter().next() else {
        return Ok(None);
    };
    let t = &ours.totals;
    if (t.cost_nanousd - r.cost_nanousd).abs() <= 1_000 && t.unpriced_tokens == 0 {
        return Ok(None);
    }
    let (theirs, mine) = (r.tokens.total(), t.tokens.total());
    let why = if theirs > mine {
        format!(
            "the harness counted {} tokens the transcript never recorded (requests it makes itself, such as compaction)",
            theirs - mine
        )
    } else if t.unpriced_tokens > 0 {
        format!(
            "{} tokens have no price here (sessionkit pricing set)",
            t.unpriced_tokens
        )
    } else if theirs < mine {
        format!(
            "the transcript holds {} tokens the harness's totals do not (a resumed or forked session's history?)",
            mine - theirs
        )
    } else {
        "the same tokens at different prices (compare `sessionkit pricing list`)".to_string()
    };
    Ok(Some(format!(
        "harness reported {}, sessionkit {}: {why}",
        crate::domain::pricing::cents_exact(r.cost_nanousd),
        crate::domain::pricing::cents_exact(t.cost_nanousd)
    )))
}
