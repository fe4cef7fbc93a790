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

/// `YYYY/MM/DD` of a Codex day folder.
pub(super) fn codex_day(dir: &std::path::Path) -> Option<String> {
    let parts: Vec<&str> = dir
        .iter()
        .rev()
        .take(3)
        .map(|p| p.to_str())
        .collect::<Option<_>>()?;
    let ok = parts.len() == 3
        && parts
            .iter()
            .zip([2, 2, 4])
            .all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| format!("{}/{}/{}", parts[2], parts[1], parts[0]))
}

/// Where a transcript sits in its client's layout: the root to walk, the
/// folder (a project's slug, a Codex day) and the session it holds.
/// `None` for a file outside every layout sessionkit reads.
fn placed(transcript: &std::path::Path) -> Option<(std::path::PathBuf, String, String)> {
    let sid = transcript
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".jsonl"))
        .filter(|_| transcript.is_file())?;
    let dir = transcript.parent()?;
    let gemini = dir.file_name().is_some_and(|d| d == "chats") && sid.starts_with("session-");
    Some(if gemini {
        // Gemini CLI: `<root>/<project>/chats/session-….jsonl`, the session
        // named in its header.
        let session = crate::domain::corpus::session_of(transcript)?;
        let project = dir.parent()?;
        let name = project.file_name().and_then(|s| s.to_str())?;
        (project.parent()?.to_path_buf(), name.to_string(), session)
    } else if sid.starts_with("rollout-") {
        // Codex: `<root>/YYYY/MM/DD/rollout-….jsonl`, the session named inside.
        let (_, session) = crate::domain::corpus::thread_of(transcript, sid)?;
        (
            dir.ancestors().nth(3)?.to_path_buf(),
            codex_day(dir)?,
            session,
        )
    } else {
        let slug = dir.file_name().and_then(|s| s.to_str())?;
        (
            dir.parent()?.to_path_buf(),
            slug.to_string(),
            sid.to_string(),
        )
    })
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
