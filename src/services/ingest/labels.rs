//! Hierarchy accuracy: stored parents against hand-written labels
//! (`fixtures/labels/<session>.json`: `{"session_id", "parents": {agent: parent|null}}`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use super::Finding;
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

/// Compares every `*.json` label file in `dir` with the database.
pub fn compare(store: &Store, dir: &Path) -> Result<LabelReport> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading labels in {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut report = LabelReport::default();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {name}"))?;
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
