//! The report rollup's rows (`crate::domain::rollup` is the rule; this writes it).

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, params};

use crate::domain::rollup::{self, Counted, Key, Rollup, Sums};

/// Replaces a session's rollup with rows summed in memory.
pub(crate) fn write_rollup(tx: &Transaction<'_>, sid: &str, own: &Rollup) -> Result<()> {
    tx.execute("DELETE FROM usage_rollup WHERE session_id = ?1", [sid])?;
    for (key, sums) in own {
        put_rollup_row(tx, sid, key, sums)?;
    }
    Ok(())
}

/// Writes one rollup row as it now stands (none when it holds no message).
pub(crate) fn put_rollup_row(
    tx: &Transaction<'_>,
    sid: &str,
    (agent, model, hour): &Key,
    e: &Sums,
) -> Result<()> {
    if e.messages == 0 {
        tx.prepare_cached(
            "DELETE FROM usage_rollup WHERE session_id = ?1 AND agent_id = ?2 AND model = ?3 AND hour = ?4",
        )?
        .execute(params![sid, agent, model, hour])?;
        return Ok(());
    }
    let t = &e.tokens;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO usage_rollup(session_id, agent_id, model, hour, messages, input_tokens,
           output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, first_at,
           last_at, priced_messages, cost_nanousd, unpriced_tokens, reasoning_tokens)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
    )?
    .execute(params![
        sid, agent, model, hour, e.messages, t[0], t[1], t[2], t[3], t[4], e.first, e.last,
        e.priced, e.cost, e.unpriced, t[5]
    ])?;
    Ok(())
}

/// One stored rollup row.
pub(crate) fn rollup_row(
    tx: &Transaction<'_>,
    sid: &str,
    (agent, model, hour): &Key,
) -> Result<Option<Sums>> {
    Ok(tx
        .prepare_cached(
            "SELECT messages, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
               cache_read_tokens, first_at, last_at, priced_messages, cost_nanousd, unpriced_tokens,
               reasoning_tokens
             FROM usage_rollup WHERE session_id = ?1 AND agent_id = ?2 AND model = ?3 AND hour = ?4",
        )?
        .query_row(params![sid, agent, model, hour], |r| {
            Ok(Sums {
                messages: r.get(0)?,
                tokens: [r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(11)?],
                first: r.get(6)?,
                last: r.get(7)?,
                priced: r.get(8)?,
                cost: r.get(9)?,
                unpriced: r.get(10)?,
            })
        })
        .optional()?)
}

/// Recomputes the rollup rows of these sessions from their counted rows,
/// summed by the one rule (`rollup::sum`).
pub(crate) fn refresh_rollup(tx: &Transaction<'_>, sessions: &BTreeSet<String>) -> Result<()> {
    let mut rows = tx.prepare_cached(
        "SELECT agent_id, model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens,
           cache_write_1h_tokens, cache_read_tokens, cost_nanousd, reasoning_tokens
         FROM token_usage WHERE session_id = ?1",
    )?;
    for s in sessions {
        let mut sums = Rollup::new();
        let mut q = rows.query([s])?;
        while let Some(r) = q.next()? {
            let (agent, model): (String, String) = (r.get(0)?, r.get(1)?);
            rollup::add(
                &mut sums,
                Counted {
                    agent: &agent,
                    model: &model,
                    at: r.get(2)?,
                    tokens: [
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        r.get(9)?,
                    ],
                    cost: r.get(8)?,
                },
            );
        }
        write_rollup(tx, s, &sums)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::{FileRole, SessionFile, SessionInput, parse_session};
    use crate::store::Store;
    use crate::store::projection::{Projection, SessionMeta};

    fn line(id: &str, at: &str, model: &str, input: u64) -> String {
        format!(
            r#"{{"type":"assistant","sessionId":"S","timestamp":"{at}","message":{{"id":"{id}","model":"{model}","usage":{{"input_tokens":{input},"output_tokens":10}}}}}}"#
        )
    }

    /// Model, hour, messages, input tokens, cost, unpriced tokens, first and last times.
    type Row = (String, i64, i64, i64, i64, i64, Option<i64>, Option<i64>);

    fn rows(store: &mut Store) -> Vec<Row> {
        let tx = store.conn.transaction().unwrap();
        let out = tx
            .prepare(
                "SELECT model, hour, messages, input_tokens, cost_nanousd, unpriced_tokens, first_at, last_at
                 FROM usage_rollup ORDER BY model, hour",
            )
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
            })
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        tx.commit().unwrap();
        out
    }

    /// The rollup written with a projection (summed in memory) equals the
    /// one recounted from the stored rows: one rule on both paths.
    #[test]
    fn a_projected_rollup_equals_its_recount() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let text = [
            line(
                "m1",
                "2026-01-15T10:00:00.000Z",
                "claude-sonnet-4-5",
                1_000_000,
            ),
            line(
                "m2",
                "2026-01-15T10:30:00.000Z",
                "claude-sonnet-4-5",
                1_000_000,
            ),
            line("m3", "2026-01-15T11:00:00.000Z", "no-such-model", 5),
        ]
        .join("\n")
            + "\n";
        let parsed = parse_session(
            &SessionInput {
                session_id: "S".into(),
                files: vec![SessionFile {
                    rel_path: "p/S.jsonl".into(),
                    role: FileRole::Main,
                    bytes: text.into_bytes(),
                    sidecar: None,
                }],
            },
            false,
        )
        .unwrap();
        let meta = SessionMeta {
            harness: "claude-code",
            slug: "p",
            project: None,
            scope: "/r",
            fingerprint: "f",
        };
        let w = Projection {
            meta: &meta,
            now: 0,
            state: "{}",
            last: true,
            said: false,
        };
        store.project_part(&parsed, &w, None).unwrap();
        let projected = rows(&mut store);
        let hour = 1_768_471_200_000 / 3_600_000; // 2026-01-15T10:00Z
        // A million-token prompt is over Sonnet 4.5's 200k tier: the whole
        // request at $6 per million input, $22.50 per million output, in
        // nano-dollars.
        let cost = 6_000_000_000 + 225_000;
        assert_eq!(
            projected,
            [
                (
                    "claude-sonnet-4-5".to_string(),
                    hour,
                    2,
                    2_000_000,
                    2 * cost,
                    0,
                    Some(1_768_471_200_000),
                    Some(1_768_473_000_000)
                ),
                (
                    "no-such-model".to_string(),
                    hour + 1,
                    1,
                    5,
                    0,
                    15,
                    Some(1_768_474_800_000),
                    Some(1_768_474_800_000)
                ),
            ]
        );
        let tx = store.conn.transaction().unwrap();
        refresh_rollup(&tx, &BTreeSet::from(["S".to_string()])).unwrap();
        tx.commit().unwrap();
        assert_eq!(rows(&mut store), projected);
    }
}
