//! Old-layout flat agent files (`<slug>/agent-<id>.jsonl`): the session that
//! owns one is the `sessionId` its records carry. It is read once, on first
//! sight, and remembered, so later fingerprints stay `lstat`-only.

use std::collections::HashMap;

use anyhow::Result;
use serde::Deserialize;

use super::Root;
use crate::domain::corpus::{self, Discovery, Skip, SkipReason};
use crate::store::Store;

/// How much of a flat file is read to find its owner (its first records name it).
const HEAD_BYTES: u64 = 64 << 10;

#[derive(Deserialize)]
struct OwnerProbe {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

/// The `sessionId` of the first complete line that has one.
fn owner_in(head: &[u8]) -> Option<String> {
    let end = memchr::memrchr(b'\n', head)?;
    head[..end]
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice::<OwnerProbe>(l).ok())
        .find_map(|p| p.session_id.filter(|s| !s.is_empty()))
}

/// Moves each flat file into its owner's `agents`; returns bytes read.
pub(super) fn assign(store: &mut Store, roots: &[Root], d: &mut Discovery) -> Result<u64> {
    let mut bytes = 0;
    let flat = std::mem::take(&mut d.flat);
    let mut learned: HashMap<usize, Vec<(String, Option<String>)>> = HashMap::new();
    let mut known: HashMap<usize, HashMap<String, Option<String>>> = HashMap::new();
    for f in flat {
        let memo = match known.entry(f.root) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(store.flat_owners(&roots[f.root].scope)?)
            }
        };
        let owner = match memo.get(&f.file.rel) {
            Some(o) => o.clone(),
            None => match corpus::read_head(&f.file.abs, HEAD_BYTES) {
                Ok(head) => {
                    bytes += head.len() as u64;
                    let o = owner_in(&head);
                    learned
                        .entry(f.root)
                        .or_default()
                        .push((f.file.rel.clone(), o.clone()));
                    o
                }
                Err(e) => {
                    d.skips.push(Skip {
                        root: f.root,
                        reason: e.reason,
                        path: f.file.rel,
                    });
                    continue;
                }
            },
        };
        match owner
            .and_then(|o| d.sessions.get_mut(&o))
            .filter(|s| s.root == f.root)
        {
            Some(s) => s.agents.push(f.file),
            None => d.skips.push(Skip {
                root: f.root,
                reason: SkipReason::OrphanAgent,
                path: f.file.rel,
            }),
        }
    }
    for (root, owners) in learned {
        store.remember_flat_owners(&roots[root].scope, &owners)?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_is_first_complete_line_naming_a_session() {
        assert_eq!(
            owner_in(b"{\"type\":\"x\"}\n{\"sessionId\":\"S\"}\n"),
            Some("S".into())
        );
        assert_eq!(owner_in(b"{\"sessionId\":\"S\"}"), None);
        assert_eq!(
            owner_in(b"garbage\n{\"sessionId\":\"T\"}\n"),
            Some("T".into())
        );
    }
}
