//! An ingested session's agents, edges and spawn calls:
//! replaced by each projection, with the status the domain settles on.

use std::collections::{BTreeSet, HashMap};

use anyhow::Result;
use rusqlite::{Transaction, params};

use crate::domain::status::{self, Evidence};
use crate::domain::transcript::{Buckets, Edge, ParsedSession, place, resolve};
use crate::store::events::{evidence_of, mirror_main, pending_for};

/// Upserts the session's agents and, after its last part (`remove_absent`),
/// removes the ones its files no longer show. Each agent's status is the transcript's evidence unless what is
/// stored wins over it; an agent created now
/// also takes the hook events stored for it before it existed. The session's
/// status mirrors its main agent.
pub(super) fn replace_agents(
    tx: &Transaction<'_>,
    p: &ParsedSession,
    remove_absent: bool,
) -> Result<()> {
    let sid = p.session_id.as_str();
    let edges = resolve(p);
    let stored = stored_evidence(tx, sid)?;
    let created: Vec<&str> = p
        .agents
        .iter()
        .map(|a| a.agent_id.as_str())
        .filter(|id| !stored.contains_key(*id))
        .collect();
    let pending = pending_for(tx, sid, &created)?;
    let mut stmt = tx.prepare(
        "INSERT INTO agents(session_id, agent_id, parent_agent_id, layout, agent_type, description, spawn_depth,
           sidecar_tool_use_id, workflow_id, transcript_path, first_seen_at, last_seen_at, status, status_at,
           outcome_cause, records, join_path, spawn_tool_use_id)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)
         ON CONFLICT(session_id, agent_id) DO UPDATE SET parent_agent_id = excluded.parent_agent_id,
           layout = excluded.layout, agent_type = excluded.agent_type, description = excluded.description,
           spawn_depth = excluded.spawn_depth, sidecar_tool_use_id = excluded.sidecar_tool_use_id,
           workflow_id = excluded.workflow_id, transcript_path = excluded.transcript_path,
           first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at,
           status = excluded.status, status_at = excluded.status_at, outcome_cause = excluded.outcome_cause,
           records = excluded.records, join_path = excluded.join_path,
           spawn_tool_use_id = excluded.spawn_tool_use_id",
    )?;
    for placed in place(p, &edges) {
        let a = placed.agent;
        let edge = placed.edge;
        let later = pending.get(&a.agent_id).map_or(&[][..], Vec::as_slice);
        let status = status::settle(placed.evidence, stored.get(&a.agent_id), later);
        stmt.execute(params![
            sid,
            a.agent_id,
            edge.and_then(|e| e.parent.as_deref()),
            a.layout.as_str(),
            placed.agent_type,
            placed.description,
            a.spawn_depth,
            a.sidecar_tool_use_id,
            a.workflow_id,
            a.transcript_path,
            a.first_seen,
            a.last_seen,
            status.status.as_str(),
            status.at,
            status.cause.as_str(),
            a.records as i64,
            edge.map(|e| e.join_path.as_str()),
            edge.and_then(|e| e.tool_use_id.as_deref())
        ])?;
    }
    if remove_absent {
        let keep: BTreeSet<&str> = p.agents.iter().map(|a| a.agent_id.as_str()).collect();
        for id in stored.keys().filter(|id| !keep.contains(id.as_str())) {
            tx.execute(
                "DELETE FROM agents WHERE session_id = ?1 AND agent_id = ?2",
                params![sid, id],
            )?;
        }
    }
    mirror_main(tx, sid)?;
    replace_edges(tx, p, &edges)
}

/// Each stored agent's status evidence, by agent id.
fn stored_evidence(tx: &Transaction<'_>, sid: &str) -> Result<HashMap<String, Evidence>> {
    Ok(tx
        .prepare_cached(
            "SELECT agent_id, status, status_at, outcome_cause FROM agents WHERE session_id = ?1",
        )?
        .query_map([sid], |r| {
            Ok((
                r.get::<_, String>(0)?,
                evidence_of(
                    &r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get::<_, Option<String>>(3)?.as_deref(),
                ),
            ))
        })?
        .collect::<Result<_, _>>()?)
}

/// a session's edges and spawn calls are replaced, not accumulated.
pub(super) fn replace_edges(tx: &Transaction<'_>, p: &ParsedSession, edges: &[Edge]) -> Result<()> {
    let sid = p.session_id.as_str();
    tx.execute(
        "DELETE FROM orchestration_edges WHERE session_id = ?1",
        [sid],
    )?;
    tx.execute("DELETE FROM spawn_calls WHERE session_id = ?1", [sid])?;
    let mut edge = tx.prepare(
        "INSERT INTO orchestration_edges(session_id, child_agent_id, parent_agent_id, join_path, tool_use_id)
         VALUES (?1,?2,?3,?4,?5)",
    )?;
    let mut child_of_call: HashMap<&str, &str> = HashMap::new();
    for e in edges {
        if let Some(call) = e.tool_use_id.as_deref() {
            child_of_call.insert(call, e.child.as_str());
        }
        // An orphan has no parent and no edge.
        if let Some(parent) = e.parent.as_deref() {
            edge.execute(params![
                sid,
                e.child,
                parent,
                e.join_path.as_str(),
                e.tool_use_id
            ])?;
        }
    }
    let mut call = tx.prepare(
        "INSERT OR IGNORE INTO spawn_calls(session_id, tool_use_id, owner_agent_id, tool, subagent_type,
           description, called_at, result_at, is_error, child_agent_id, reported_total_tokens,
           reported_input_tokens, reported_output_tokens, reported_cache_write_5m_tokens,
           reported_cache_write_1h_tokens, reported_cache_read_tokens)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
    )?;
    for s in &p.spawns {
        let r = s.result.as_ref();
        let rep = r.and_then(|r| r.reported);
        let b = rep.and_then(|x| x.buckets);
        let n = |f: fn(&Buckets) -> u64| b.as_ref().map(|b| f(b) as i64);
        call.execute(params![
            sid,
            s.tool_use_id,
            s.owner,
            s.tool,
            s.subagent_type,
            s.description,
            s.at,
            r.and_then(|r| r.at),
            r.map(|r| r.is_error),
            child_of_call.get(s.tool_use_id.as_str()),
            rep.and_then(|x| x.total_tokens).map(|t| t as i64),
            n(|b| b.input),
            n(|b| b.output),
            n(|b| b.cache_write_5m),
            n(|b| b.cache_write_1h),
            n(|b| b.cache_read)
        ])?;
    }
    Ok(())
}
