//! A hook's catch-up of its own conversation's transcript: found without
//! walking the corpus, read by tail resume within a byte budget, or noted
//! as a backlog for the next `ingest`.
use super::{Options, resolve_roots, run};
use crate::domain::clock;
use crate::store::Store;
use anyhow::Result;
use std::collections::BTreeSet;

/// What a hook's catch-up did with its conversation's transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatchUp {
    /// Read to its end (what was new, by tail resume).
    Read { bytes: u64 },
    /// More was new than the budget allows: left for the next `ingest`
    /// (noted in `ingest_backlog`, which `status` shows).
    Deferred { bytes: u64 },
    /// Not a transcript in a layout sessionkit reads.
    NotApplicable,
}

/// Where a transcript sits in its client's layout: the root to walk, the
/// folder (a project's slug, a Codex day) and the session it holds: the
/// place a client's layout gives it, else Claude Code's
/// (`<root>/<slug>/<session>.jsonl`). `None` for a file outside every
/// layout sessionkit reads.
fn placed(transcript: &std::path::Path) -> Option<(std::path::PathBuf, String, String)> {
    let sid = transcript
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".jsonl"))
        .filter(|_| transcript.is_file())?;
    if let Some(placed) = crate::domain::corpus::place(transcript) {
        return placed;
    }
    let dir = transcript.parent()?;
    let slug = dir.file_name().and_then(|s| s.to_str())?;
    Some((
        dir.parent()?.to_path_buf(),
        slug.to_string(),
        sid.to_string(),
    ))
}

/// Ingests one conversation from its transcript's path (Claude Code's
/// `<root>/<project>/<session>.jsonl`, a Codex rollout, a Gemini CLI chat)
/// by tail resume, when no more than `max_bytes` is new: what the hooks and
/// the status line do so reports include the session without a cron job.
/// Only that session's files are looked at. More than `max_bytes` is left
/// unread, and with `note` it is noted for `status`. Its root is
/// remembered as `ingest`'s are.
pub fn catch_up(
    store: &mut Store,
    transcript: &std::path::Path,
    max_bytes: u64,
    note: bool,
) -> Result<CatchUp> {
    let Some((root, slug, sid)) = placed(transcript) else {
        return Ok(CatchUp::NotApplicable);
    };
    let (slug, sid) = (slug.as_str(), sid.as_str());
    let roots = resolve_roots(&[root])?;
    let opts = Options {
        only: BTreeSet::from([sid.to_string()]),
        bulk_bytes: u64::MAX,
        max_bytes: Some(max_bytes),
        one: Some((slug.to_string(), sid.to_string())),
        ..Options::from_settings(store, None)?
    };
    let sum = run(store, &roots, &opts, None)?;
    let path = transcript.display().to_string();
    if sum.deferred_bytes > 0 && !note {
        return Ok(CatchUp::Deferred {
            bytes: sum.deferred_bytes,
        });
    }
    if sum.deferred_bytes > 0 {
        store.note_backlog(&crate::store::health::Backlog {
            path,
            session_id: Some(sid.to_string()),
            bytes_behind: i64::try_from(sum.deferred_bytes).unwrap_or(i64::MAX),
            at: clock::now(),
            reason: format!(
                "{} bytes to read, over the hook's {max_bytes}-byte budget (setting ingest.hook_max_bytes)",
                sum.deferred_bytes
            ),
        })?;
        return Ok(CatchUp::Deferred {
            bytes: sum.deferred_bytes,
        });
    }
    store.clear_backlog(&path)?;
    if let Some(p) = roots[0].path.to_str() {
        store.remember_roots(&[p], clock::now())?;
    }
    Ok(CatchUp::Read {
        bytes: sum.bytes_read,
    })
}
