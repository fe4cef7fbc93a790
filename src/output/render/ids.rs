//! Ids in a table that fits a width: each cut to the shortest prefix that
//! names it alone among every id of its kind in the database, so that
//! what is shown pastes back.

use serde_json::Value;

use super::Column;
use crate::output::Output;

/// Per column, the characters its ids are cut to: in a table that fits a
/// width, the shortest prefix that names each alone in the database.
pub(super) fn id_lengths(
    cols: &[Column],
    rows: &[Value],
    out: &Output,
    fitted: bool,
) -> Vec<Option<usize>> {
    cols.iter()
        .map(|c| {
            (ID_KEYS.contains(&c.key) && !c.name && fitted)
                .then(|| {
                    let known = out
                        .ids_of
                        .as_deref()
                        .map(|db| crate::store::known_ids(db, c.key))
                        .unwrap_or_default();
                    unique_prefix(rows.iter().filter_map(|r| r.get(c.key)?.as_str()), &known)
                })
                .flatten()
        })
        .collect()
}

/// Columns whose cells are ids a table may shorten.
const ID_KEYS: &[&str] = &["session_id", "memory_id", "run_id", "agent", "agent_id"];

/// The shortest prefix length (at least 8) that tells every id of `ids`
/// apart from each other and from every id of `known` (the database's, a
/// sorted list), when shorter than the longest id; `None` when nothing is
/// gained.
pub(super) fn unique_prefix<'a>(
    ids: impl Iterator<Item = &'a str>,
    known: &[String],
) -> Option<usize> {
    let mut ids: Vec<&str> = ids.collect();
    ids.sort_unstable();
    ids.dedup();
    let longest = ids.iter().map(|i| i.chars().count()).max()?;
    let common = |a: &str, b: &str| a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    // Neighbours in sorted order share the longest prefixes.
    let mut shared = ids
        .windows(2)
        .map(|w| common(w[0], w[1]))
        .max()
        .unwrap_or(0);
    for id in &ids {
        let at = known.partition_point(|k| k.as_str() < *id);
        for k in [at.checked_sub(1), Some(at), Some(at + 1)]
            .into_iter()
            .flatten()
        {
            if let Some(k) = known.get(k).filter(|k| k.as_str() != *id) {
                shared = shared.max(common(id, k));
            }
        }
    }
    let n = (shared + 1).max(8);
    (n + 1 < longest).then_some(n)
}
