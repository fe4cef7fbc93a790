//! Records of `brief` (the briefing's sections and items) and `eval`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The name and version of `brief --json`'s contract.
pub const BRIEF_SCHEMA: &str = "sessionkit.brief/1";

/// `brief --format json`: the briefing as injected, with every candidate
/// by section (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BriefRecord<'a> {
    /// The token budget of the competing sections.
    pub budget_tokens: usize,
    /// The text's size in bytes.
    pub bytes: usize,
    /// The hard ceiling in bytes.
    pub max_bytes: usize,
    pub project: &'a str,
    /// The memories that rendered (in full or by name), in text order.
    pub rendered_ids: Vec<&'a str>,
    /// The contract and its version: `sessionkit.brief/1`.
    pub schema: &'static str,
    /// Every candidate, by section; a section without one is left out.
    pub sections: BriefSections<'a>,
    /// The briefing exactly as a hook injects it.
    pub text: &'a str,
    /// The text's size in tokens (estimated as the packer counts them).
    pub tokens: usize,
    /// Whether demand ranked the index (setting briefing.utility).
    pub utility_ranking: bool,
}

/// A briefing's candidates by section (names as `continuity::briefing::Section` has them).
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct BriefSections<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commitments: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overdue: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferences: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<BriefItem<'a>>,
}

impl<'a> BriefSections<'a> {
    /// The list a section's items go to.
    pub fn of(&mut self, s: crate::domain::briefing::Section) -> &mut Vec<BriefItem<'a>> {
        use crate::domain::briefing::Section as S;
        match s {
            S::Blockers => &mut self.blockers,
            S::Commitments => &mut self.commitments,
            S::Constraints => &mut self.constraints,
            S::Decisions => &mut self.decisions,
            S::Findings => &mut self.findings,
            S::Index => &mut self.index,
            S::Overdue => &mut self.overdue,
            S::Preferences => &mut self.preferences,
            S::Stages => &mut self.stages,
            S::Stale => &mut self.stale,
        }
    }
}

/// One candidate of a briefing and what became of it (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BriefItem<'a> {
    /// Its line's size in bytes.
    pub bytes: usize,
    /// Its full line, without the leading "- ".
    pub line: &'a str,
    pub memory_id: &'a str,
    /// full, named (on a names-only line), or "dropped: <why>".
    pub outcome: &'static str,
    pub rendered: bool,
    /// Its ranking score (higher first).
    pub score: f64,
    pub topic: &'a str,
}

/// The record of a built briefing.
pub fn brief_record<'a>(
    project: &'a str,
    b: &'a crate::domain::briefing::Briefing,
    candidates: &'a [crate::domain::briefing::Candidate],
    limits: &crate::domain::briefing::Limits,
    utility_ranking: bool,
) -> BriefRecord<'a> {
    let mut sections = BriefSections::default();
    for p in &b.placements {
        let c = &candidates[p.candidate];
        sections.of(p.section).push(BriefItem {
            bytes: p.bytes,
            line: &c.line,
            memory_id: &c.memory_id,
            outcome: p.outcome,
            rendered: p.rendered(),
            score: p.score,
            topic: &c.topic,
        });
    }
    BriefRecord {
        budget_tokens: limits.budget_tokens,
        bytes: b.bytes,
        max_bytes: limits.max_bytes,
        project,
        rendered_ids: b.rendered_ids(candidates),
        schema: BRIEF_SCHEMA,
        sections,
        text: &b.text,
        tokens: b.tokens,
        utility_ranking,
    }
}

/// The name and version of `eval closer`'s contract.
pub const EVAL_SCHEMA: &str = "sessionkit.eval/1";

/// One labeled case replayed through the closer, or (`case` `(total)`) all
/// of them summed.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalRecord {
    /// The case's name, or `(total)`.
    pub case: String,
    /// The case's kind of phrasing (`inflection`, `negation`, ...), or the
    /// category a total row sums; `-` for none.
    pub category: String,
    /// The part of the set the case is in: the folder below the cases
    /// folder (`dev`: rules tuned on it; `test`: never), `-` at its top.
    pub split: String,
    /// The judge failed on it (for the total: on any case).
    pub failed: bool,
    /// Commitments the run completed and left to the closer.
    pub expected: usize,
    /// The judge that ran: `evidence`.
    pub judge: String,
    /// Milliseconds the replay took.
    pub ms: u64,
    /// Resolves the labels call right, over all resolves; null when none.
    pub precision: Option<f64>,
    /// Right resolves over `expected`; null when nothing was expected.
    pub recall: Option<f64>,
    /// Commitments the closer resolved.
    pub resolved: usize,
    /// Right resolves.
    pub right: usize,
    /// The contract and its version: `sessionkit.eval/1`.
    pub schema: String,
    /// Resolves of commitments the run did not complete.
    pub spurious: usize,
    /// Model tokens spent (0 for the evidence judge).
    pub tokens: u64,
}
