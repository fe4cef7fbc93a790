//! The integrity check CI runs on a golden corpus: what the database says
//! is wrong with itself (degraded lines, failed sessions, unpriced models,
//! a harness's own cost disagreeing, the rollup disagreeing with the rows,
//! the spool), and with a recount, what reading the transcripts again finds.

use std::path::Path;

use anyhow::Result;

use crate::domain::integrity::FindingKind;
use crate::services::ingest::{self, Finding, Options, Root};
use crate::store::Store;

/// A finding with no file or line.
fn finding(kind: FindingKind, session_id: String, detail: String) -> Finding {
    Finding {
        kind,
        session_id,
        file: None,
        line: None,
        detail,
    }
}

/// Everything the check finds in the database at `db` (`store` open on
/// it), and with `recount` (the roots and the ingest's options) what a
/// recount of the transcripts finds; sorted by kind, session, file, line.
pub fn findings(
    store: &mut Store,
    db: &Path,
    recount: Option<(&[Root], &Options)>,
) -> Result<Vec<Finding>> {
    let mut out: Vec<Finding> = Vec::new();
    for l in store.degraded_lines(None)? {
        out.push(Finding {
            kind: FindingKind::DegradedLine,
            session_id: l.session_id,
            file: Some(l.file),
            line: Some(l.line),
            detail: l.reason,
        });
    }
    for (sid, f) in store.failures()? {
        let kind = if f.quarantined {
            FindingKind::Quarantined
        } else {
            FindingKind::Failed
        };
        let detail = format!("attempt {}: {}", f.attempts, f.reason);
        out.push(finding(kind, sid, detail));
    }
    for (model, messages, tokens) in store.unpriced_models()? {
        out.push(finding(
            FindingKind::UnpricedModel,
            String::new(),
            format!(
                "{model}: {tokens} tokens in {messages} messages have no price (sessionkit pricing set {model} --input USD --output USD)"
            ),
        ));
    }
    for r in store.reported_costs(None)? {
        if let Some(detail) = cost_difference(store, &r)? {
            out.push(finding(
                FindingKind::HarnessCostMismatch,
                r.session_id.clone(),
                detail,
            ));
        }
    }
    out.extend(spool_findings(db));
    for sid in store.rollup_mismatches()? {
        out.push(finding(
            FindingKind::RollupMismatch,
            sid,
            "report totals disagree with the token rows: run `sessionkit replay`".into(),
        ));
    }
    if let Some((roots, opts)) = recount {
        out.extend(ingest::recount(store, roots, opts)?);
    }
    out.sort_by(|a, b| {
        (a.kind.as_str(), &a.session_id, &a.file, a.line).cmp(&(
            b.kind.as_str(),
            &b.session_id,
            &b.file,
            b.line,
        ))
    });
    Ok(out)
}

/// Hook events waiting in the spool, and lines set aside from it: both mean
/// the database is not the whole record yet (`store::spool`).
fn spool_findings(db: &Path) -> Vec<Finding> {
    let w = crate::store::spool::waiting(db);
    let mut out = Vec::new();
    for problem in &w.problems {
        out.push(Finding {
            kind: FindingKind::SpoolUnusable,
            session_id: String::new(),
            file: None,
            line: None,
            detail: problem.clone(),
        });
    }
    if w.dropped > 0 {
        out.push(Finding {
            kind: FindingKind::SpoolDropped,
            session_id: String::new(),
            file: Some(crate::store::spool::dropped_path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} hook event(s) were dropped because the spool was full (setting spool.max_bytes)",
                w.dropped
            ),
        });
    }
    if w.lost > 0 {
        out.push(Finding {
            kind: FindingKind::EventsLost,
            session_id: String::new(),
            file: Some(crate::store::spool::lost_path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} hook event(s) were lost: neither the database nor the spool could be written (a full disk?)",
                w.lost
            ),
        });
    }
    if w.events > 0 {
        out.push(Finding {
            kind: FindingKind::SpooledEvents,
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
            kind: FindingKind::SpoolRejected,
            session_id: String::new(),
            file: Some(crate::store::spool::rejected_path_for(db).display().to_string()),
            line: None,
            detail: format!(
                "{} spooled line(s) could not be read back (cut by a crash?): they are kept in this file for inspection",
                w.rejected
            ),
        });
    }
    out
}

/// A difference between the harness's own figure for a session and
/// sessionkit's, beyond rounding (a micro-dollar), with its likely reason.
fn cost_difference(
    store: &Store,
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
        // The tokens we cannot price are the unpriced-model finding's.
        return Ok(None);
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
