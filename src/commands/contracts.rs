//! The commands whose JSON output is typed: each one's record type (its
//! JSON Schema, `sessionkit schema COMMAND`) and what it prints.

use serde_json::Value;

/// The commands whose JSON output is typed, with a schema.
pub(crate) const TYPED: &[&str] = &[
    "archive",
    "brief",
    "check",
    "check-golden",
    "config",
    "cost",
    "cost-segments",
    "eval",
    "export",
    "hooks",
    "hooks-doctor",
    "hooks-status",
    "import",
    "ingest",
    "limits",
    "limits-snapshots",
    "memories",
    "memory",
    "pricing",
    "pricing-change",
    "prompt",
    "prune",
    "prune-index",
    "push",
    "recall",
    "remember",
    "resolve",
    "revise",
    "search",
    "session",
    "session-events",
    "sessions",
    "show",
    "show-at",
    "sources",
    "status",
    "sweep",
    "tree",
    "triage",
    "unresolve",
];

/// Each typed command's record type (its JSON Schema) and what it prints.
type Contract = (&'static [&'static str], fn() -> Value, &'static str);

const CONTRACTS: &[Contract] = {
    use crate::output::schema::json_schema;
    use crate::output::{memory, records, tree};
    &[
        (
            &["check"],
            json_schema::<records::FindingRecord>,
            "one object per finding",
        ),
        (
            &["check-golden"],
            json_schema::<records::GoldenCheckRecord>,
            "check --golden: one object per check",
        ),
        (
            &["config"],
            json_schema::<records::SettingRecord>,
            "config list: one object per setting; config get: one",
        ),
        (
            &["prune"],
            json_schema::<records::PruneRecord>,
            "one object",
        ),
        (&["push"], json_schema::<records::PushRecord>, "one object"),
        (
            &["hooks"],
            json_schema::<records::HooksChangeRecord>,
            "hooks install / uninstall: one object per harness settings file",
        ),
        (
            &["hooks-status"],
            json_schema::<records::HookStandingRecord>,
            "hooks status: one object per harness, scope and event",
        ),
        (
            &["hooks-doctor"],
            json_schema::<records::HookCheckRecord>,
            "hooks doctor: one object per check",
        ),
        (
            &["show"],
            json_schema::<records::ShowRecord>,
            "one object: the session's fields as `sessions` prints them, then its parts",
        ),
        (
            &["cost"],
            json_schema::<records::CostRecord>,
            "one object per group, the --by keys as grouped by; --format json: {\"rows\": [these], \"totals\": one without keys}",
        ),
        (
            &["ingest"],
            json_schema::<crate::services::ingest::Summary>,
            "one summary per run",
        ),
        (
            &["sessions"],
            json_schema::<records::SessionRecord>,
            "one object per session",
        ),
        (
            &["status"],
            json_schema::<records::AgentStatusRecord>,
            "one object per agent",
        ),
        (
            &["sweep"],
            json_schema::<records::SweepChange>,
            "one object per change; action watchdog or lease",
        ),
        (
            &["tree"],
            json_schema::<tree::TreeDoc>,
            "one document per session; --all: a list",
        ),
        (
            &["brief"],
            json_schema::<records::BriefRecord<'_>>,
            "with --format json: one document",
        ),
        (
            &["prune-index"],
            json_schema::<records::PruneIndexRecord>,
            "prune --index: one object",
        ),
        (
            &["search"],
            json_schema::<records::SearchHitRecord>,
            "one object per hit, best (or newest) first",
        ),
        (
            &["show-at"],
            json_schema::<records::SaidRecord>,
            "show --at: one object per piece of the conversation around the record",
        ),
        (
            &["limits"],
            json_schema::<records::LimitRecord>,
            "one object per window",
        ),
        (
            &["limits-snapshots"],
            json_schema::<records::LimitSnapshotRecord>,
            "limits --snapshots: one object per recorded change",
        ),
        (
            &["cost-segments"],
            json_schema::<records::SegmentRecord>,
            "cost --session S --segments: one object per segment",
        ),
        (
            &["pricing"],
            json_schema::<records::PriceRecord<'_>>,
            "one object per model",
        ),
        (
            &["pricing-change"],
            json_schema::<records::PriceChangeRecord>,
            "one object",
        ),
        (
            &["session"],
            json_schema::<crate::output::runs::RunRecord<'_>>,
            "one object per run",
        ),
        (
            &["session-events"],
            json_schema::<crate::output::runs::RunEventsRecord<'_>>,
            "one object per page",
        ),
        (
            &["memories"],
            json_schema::<memory::MemoryRecord<'_>>,
            "one object per memory; content only with --full",
        ),
        (
            &["remember", "revise", "resolve", "unresolve", "archive"],
            json_schema::<memory::MemoryRecord<'_>>,
            "one object, with --format",
        ),
        (
            &["memory"],
            json_schema::<memory::MemoryShowRecord<'_>>,
            "memory show: one object",
        ),
        (
            &["recall"],
            json_schema::<memory::RecallRecord<'_>>,
            "one object per hit, best first",
        ),
        (
            &["import"],
            json_schema::<memory::ImportRecord>,
            "one object per record of the file, in file order",
        ),
        (
            &["sources"],
            json_schema::<records::SourceRecord>,
            "one object per agent found under each root",
        ),
        (
            &["eval"],
            json_schema::<records::EvalRecord>,
            "eval closer: one object per case, then the total",
        ),
        (
            &["triage"],
            json_schema::<crate::output::runs::TriageRecord<'_>>,
            "one object; begin's fields or complete's",
        ),
        (
            &["prompt"],
            json_schema::<crate::output::runs::PromptRecord<'_>>,
            "with --format json: one object",
        ),
        (
            &["export"],
            json_schema::<crate::domain::memory::export::ExportLine<'_>>,
            "one line per memory, then commitment, then event",
        ),
    ]
};

/// The JSON Schema of `command`'s records and what it prints, when it is
/// typed.
pub(crate) fn contract(command: &str) -> Option<(Value, &'static str)> {
    CONTRACTS
        .iter()
        .find(|(names, _, _)| names.contains(&command))
        .map(|(_, schema, what)| (schema(), *what))
}

#[cfg(test)]
mod tests {
    /// Every command said to be typed has its contract, and its help
    /// names the schema.
    #[test]
    fn every_typed_command_has_a_contract() {
        crate::cli::FULL_HELP.store(true, std::sync::atomic::Ordering::Relaxed);
        for c in super::TYPED {
            assert!(super::contract(c).is_some(), "{c}");
            assert!(
                super::super::help_fields(c).contains(&format!("`sessionkit schema {c}`")),
                "{c}"
            );
        }
        let mut sorted = super::TYPED.to_vec();
        sorted.sort();
        assert_eq!(sorted, super::TYPED);
    }
}
