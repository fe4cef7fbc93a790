//! `eval closer`'s cases: one labelled case replayed through the closer's
//! own batch on a scratch database.

use anyhow::Result;

use super::*;

/// One labeled case of `eval closer`: the commitments a run was
/// briefed, what it said, what its agent resolved itself, and which the
/// run truly completed. Ids are the case's own labels.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    /// The kind of phrasing the case tests (`inflection`, `negation`, ...).
    #[serde(default)]
    pub category: Option<String>,
    pub commitments: Vec<CaseCommitment>,
    #[serde(default)]
    pub transcript_tail: Vec<Turn>,
    /// Test runs that passed in the run (`command`, then its output).
    #[serde(default)]
    pub passing_tests: Vec<String>,
    /// Files the run's edit tools wrote.
    #[serde(default)]
    pub written_files: Vec<String>,
    pub final_message: String,
    #[serde(default)]
    pub resolved_by_agent: Vec<String>,
    pub expected_completed: Vec<String>,
}

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseCommitment {
    pub id: String,
    pub topic: String,
    pub content: String,
}

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub role: String,
    pub text: String,
}

/// What the closer did on one case, by the case's ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// The commitments the closer resolved.
    pub resolved: Vec<String>,
    /// Each resolve's commitment and the evidence the judge gave.
    pub evidence: Vec<(String, String, String)>,
    /// Completed and left to the closer (not resolved by the agent).
    pub expected: Vec<String>,
    /// Model tokens the judge spent (input and output).
    pub tokens: u64,
    /// The judge failed on the case (its run backed off).
    pub failed: bool,
}

/// Replays `case` through the closer's own path on `store` (a scratch
/// database): the commitments remembered, a run opened with them briefed,
/// the agent's own resolves attributed to it, its final message as the
/// heartbeat excerpt, the run closed, then one batch with the case's
/// assistant turns as the transcript tail.
pub fn replay(store: &mut Store, case: &Case, judge: &Judge, now: Millis) -> Result<Replayed> {
    use crate::domain::memory::{Actor, Kind, NewMemory, Remembered, Settle};
    use crate::domain::runs::Source;
    use crate::store::runs::OpenRequest;
    let lease = 24 * 3_600_000;
    fn who(run: Option<&str>, now: Millis, lease_ms: i64) -> Actor<'_> {
        Actor {
            actor: "cli",
            run,
            now,
            lease_ms,
        }
    }
    let mut ids: Vec<(String, String)> = Vec::new();
    for c in &case.commitments {
        // A case file is outside text: redacted as `remember` redacts.
        let m = NewMemory {
            kind: Kind::Commitment,
            topic: crate::domain::redact::redact_text(&c.topic).into_owned(),
            description: None,
            content: crate::domain::redact::redact_text(&c.content).into_owned(),
            project: "eval".into(),
            scope: "personal".into(),
            tags: Vec::new(),
            pinned: false,
            due_at: None,
            owner: None,
        };
        let id = match store.remember(&m, true, &who(None, now, lease))? {
            Remembered::Created(id) | Remembered::Existing(id) => id,
        };
        ids.push((c.id.clone(), id));
    }
    let real = |label: &str| ids.iter().find(|(l, _)| l == label).map(|(_, r)| r.clone());
    let briefed: Vec<serde_json::Value> = case
        .commitments
        .iter()
        .filter_map(|c| {
            let topic = crate::domain::redact::redact_text(&c.topic);
            Some(serde_json::json!({"id": real(&c.id)?, "topic": topic, "status": "open"}))
        })
        .collect();
    let (run, _) = store.open_run(
        &OpenRequest {
            agent: "eval".into(),
            session_id: case.name.clone(),
            source: Source::Startup,
            project: Some("eval".into()),
            scope: None,
            selector: "{\"kind\":\"all\"}".into(),
            briefed: Some(serde_json::to_string(&briefed)?),
        },
        now,
        lease,
    )?;
    for label in &case.resolved_by_agent {
        if let Some(id) = real(label) {
            store.settle_memory(&id, Settle::Resolve, &who(Some(&run.run_id), now, lease))?;
        }
    }
    // `{label}` in a text stands for that commitment's id (as a briefing
    // showed it to the agent).
    let with_ids = |text: &str| {
        ids.iter().fold(text.to_string(), |t, (l, r)| {
            t.replace(&format!("{{{l}}}"), r)
        })
    };
    let excerpt = crate::domain::runs::excerpt(&with_ids(&case.final_message));
    store.heartbeat_run("eval", &case.name, Some(&excerpt), true, now, lease)?;
    store.close_run("eval", &case.name, now)?;
    let tail: Vec<String> = case
        .transcript_tail
        .iter()
        .filter(|t| t.role == "assistant")
        .map(|t| crate::domain::redact::redact_text(&with_ids(&t.text)).into_owned())
        .collect();
    let candidates = store.closer_candidates(now + 1, closer::BATCH)?;
    // Outside text, as a transcript's would be: redacted before it can
    // become a resolve's stored evidence.
    let redacted = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|t| crate::domain::redact::redact_text(t).into_owned())
            .collect()
    };
    // A tool turn is a shell command (`$ cmd`) and its output.
    let shell: Vec<String> = case
        .transcript_tail
        .iter()
        .filter(|t| t.role == "tool")
        .map(|t| with_ids(&t.text))
        .collect();
    let mut ran =
        crate::domain::transcript::tool_evidence(&crate::domain::transcript::shell_runs(&shell));
    ran.tests.extend(case.passing_tests.iter().cloned());
    let (tests, files) = (redacted(&ran.tests), redacted(&case.written_files));
    let (commits, failed) = (redacted(&ran.commits), redacted(&ran.failed));
    let done = run_batch(store, candidates, now + 1, false, judge, |c| {
        if c.run_id == run.run_id {
            Tail {
                texts: tail.clone(),
                tests: tests.clone(),
                files: files.clone(),
                commits: commits.clone(),
                failed: failed.clone(),
            }
        } else {
            Tail::default()
        }
    })?;
    let label = |id: &str| ids.iter().find(|(_, r)| r == id).map(|(l, _)| l.clone());
    Ok(Replayed {
        resolved: done
            .closed
            .iter()
            .filter(|c| c.run_id == run.run_id)
            .filter_map(|c| label(&c.memory_id))
            .collect(),
        evidence: done
            .closed
            .iter()
            .filter(|c| c.run_id == run.run_id)
            .filter_map(|c| Some((label(&c.memory_id)?, c.evidence.clone(), c.rule.clone())))
            .collect(),
        expected: case
            .expected_completed
            .iter()
            .filter(|e| !case.resolved_by_agent.contains(e))
            .cloned()
            .collect(),
        tokens: store.closer_tokens()?,
        failed: done.failed > 0,
    })
}
