//! Hierarchy accuracy: stored parents against hand-written labels
//! (`fixtures/golden/claude/labels/<session>.json`: `{"session_id", "parents": {agent: parent|null}}`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use super::Finding;
use crate::domain::confined;
use crate::store::Store;

#[derive(Deserialize)]
struct LabelFile {
    session_id: String,
    parents: BTreeMap<String, Option<String>>,
}

/// How the labels compare: agents labelled, agents whose parent matches, and
/// a finding for each mismatch.
#[derive(Debug, Default)]
pub struct LabelReport {
    pub labelled: u64,
    pub correct: u64,
    pub findings: Vec<Finding>,
}

impl LabelReport {
    pub fn accuracy(&self) -> f64 {
        if self.labelled == 0 {
            1.0
        } else {
            self.correct as f64 / self.labelled as f64
        }
    }
}

/// The most a label file may hold.
const MAX_LABELS: u64 = 16 << 20;

/// Compares every `*.json` label file in `dir` with the database (each a
/// regular file, never followed through a link).
pub fn compare(store: &Store, dir: &Path) -> Result<LabelReport> {
    let mut report = LabelReport::default();
    for name in confined::files_with_ext(dir, "json")? {
        let text = confined::read_text(&dir.join(&name), MAX_LABELS)?.unwrap_or_default();
        let labels: LabelFile =
            serde_json::from_str(&text).with_context(|| format!("{name} is not a label file"))?;
        let stored = store.parents_of(&labels.session_id)?;
        for (agent, want) in &labels.parents {
            report.labelled += 1;
            let got = stored.get(agent);
            if got == Some(want) {
                report.correct += 1;
                continue;
            }
            let got_text = match got {
                None => "agent not in the database".to_string(),
                Some(None) => "no parent".to_string(),
                Some(Some(p)) => format!("parent {p}"),
            };
            let want_text = want
                .as_deref()
                .map_or("no parent".to_string(), |p| format!("parent {p}"));
            report.findings.push(Finding {
                kind: crate::domain::integrity::FindingKind::LabelMismatch,
                session_id: labels.session_id.clone(),
                file: Some(name.clone()),
                line: None,
                detail: format!("agent {agent}: labelled {want_text}, found {got_text}"),
            });
        }
        for agent in stored.keys().filter(|a| !labels.parents.contains_key(*a)) {
            report.findings.push(Finding {
                kind: crate::domain::integrity::FindingKind::LabelMissing,
                session_id: labels.session_id.clone(),
                file: Some(name.clone()),
                line: None,
                detail: format!("agent {agent} has no label"),
            });
        }
    }
    Ok(report)
}
