//! Sessions kept in another program's database rather than in files
//! (OpenCode's `opencode.db`): each session tree whose rows changed since
//! its checkpoint is read whole and written as one part, into the same
//! tables as a transcript's.

use std::collections::{BTreeSet, HashMap};

use anyhow::Result;

use super::stream::ResumeState;
use super::{Options, Root, Summary, unpriced_model};
use crate::domain::corpus::Database;
use crate::domain::corpus::{Skip, SkipReason};
use crate::store::Store;
use crate::store::projection::{Projection, SessionMeta};

/// Where the run stands: what it may skip and what it has seen.
pub(super) struct Seen<'a> {
    pub checkpoints: &'a HashMap<String, String>,
    /// Building the index: the sessions it holds whole.
    pub whole: &'a BTreeSet<String>,
    pub known: &'a BTreeSet<String>,
    pub present: &'a mut BTreeSet<String>,
}

/// Reads one store of sessions into `store`. A database that cannot be
/// opened or read is a skip of its root (`unreadable`), never an error of
/// the run: OpenCode may be mid-upgrade, or hold it locked.
pub(super) fn read_store(
    store: &mut Store,
    roots: &[Root],
    opts: &Options,
    db: &Database,
    seen: &mut Seen<'_>,
    sum: &mut Summary,
) -> Result<()> {
    let unreadable = |sum: &mut Summary| {
        sum.skip(
            &Skip {
                root: db.root,
                reason: SkipReason::Unreadable,
                path: db.label().to_string(),
            },
            roots,
        );
    };
    let Ok(reader) = db.open() else {
        unreadable(sum);
        return Ok(());
    };
    let Ok(trees) = reader.trees() else {
        unreadable(sum);
        return Ok(());
    };
    let label = db.label();
    // The client whose database it is.
    let client = crate::domain::clients::of_format(db.format);
    for tree in trees {
        let sid = tree.id().to_string();
        if db.yields() && seen.present.contains(&sid) {
            // Also in an earlier store of the root, and read from there.
            sum.skip(
                &Skip {
                    root: db.root,
                    reason: SkipReason::DuplicateSession,
                    path: crate::domain::transcript::session_path(label, &sid),
                },
                roots,
            );
            continue;
        }
        seen.present.insert(sid.clone());
        if (!opts.only.is_empty() && !opts.only.contains(&sid))
            || opts.harness.as_deref().is_some_and(|h| h != client.name)
        {
            continue;
        }
        if opts.said_only {
            if seen.known.contains(&sid) && !seen.whole.contains(&sid) {
                let stamp = store.said_stamp(&sid)?;
                match reader.parse(label, &tree, opts.said) {
                    Ok(parsed) => {
                        sum.bytes_read += parsed.bytes;
                        store.write_said_only(&parsed, None, true, Some(stamp), true)?;
                        sum.updated += 1;
                    }
                    Err(_) => sum.failed += 1,
                }
            }
            continue;
        }
        if !opts.replay && seen.checkpoints.get(&sid) == Some(&tree.fingerprint) {
            sum.unchanged += 1;
            continue;
        }
        let Ok(parsed) = reader.parse(label, &tree, opts.said) else {
            unreadable(sum);
            continue;
        };
        sum.bytes_read += parsed.bytes;
        let project = match parsed.cwd.as_deref() {
            Some(cwd) => Some(crate::services::project::project_of(store, cwd)?),
            None => None,
        };
        let meta = SessionMeta {
            harness: client.name,
            slug: label,
            project: project.as_deref(),
            scope: &roots[db.root].scope,
            fingerprint: &tree.fingerprint,
        };
        if opts.strict_pricing
            && let Some(model) = unpriced_model(store, &parsed)?
        {
            let reason =
                format!("--strict-pricing: model {model:?} has no price (sessionkit pricing set)");
            let state = store.record_failure(&sid, &meta, &reason, crate::domain::clock::now())?;
            sum.failed_session(&sid, reason, &state, true);
            continue;
        }
        // Read whole each time: the state is the session's facts, with no
        // file marks to read on from.
        let state = serde_json::to_string(&ResumeState {
            session: parsed.clone(),
            marks: Vec::new(),
        })?;
        let write = Projection {
            meta: &meta,
            now: crate::domain::clock::now(),
            state: &state,
            last: true,
            said: opts.said.is_some(),
        };
        store.project_part(&parsed, &write, None)?;
        sum.messages_read += parsed.usage.len() as u64;
        sum.written(seen.known.contains(&sid), &parsed);
    }
    Ok(())
}
