//! The briefing packer. Pure: it takes candidate lines by section and returns the text,
//! what rendered, and why everything else did not.
//!
//! Order and budget are the same: the pinned part (constraints, live stages,
//! overdue commitments) is placed first and never dropped; then open
//! commitments and blockers (at most 10 each, with tails); then recent
//! findings, decisions, preferences, the index and stale candidates, each line
//! placed while the token estimate (bytes / 4, rounded up) stays within the
//! budget and the text within the byte ceiling. A section cut short ends with
//! a tail counting exactly what it left out. The header is composed last, from
//! what rendered.

pub mod rank;
mod render;
mod text;

use serde::Serialize;

use render::{
    CLOSE_TAG, blocks_size, frame_size, line_bytes, pinned_blocks, render, section_heading,
    tail_line,
};
pub use text::{angle_free, clip_bytes, flatten, flatten_owned, tokens};

/// How many constraints render in full; the rest are named on one line.
pub const CONSTRAINTS_FULL: usize = 4;
/// Reserved sections show at most this many lines before their tail.
pub const RESERVED_MAX: usize = 10;
/// Overdue commitments beyond this many collapse to a count when the pinned
/// part must shrink.
pub const OVERDUE_KEEP: usize = 10;
/// Recent findings get this many lines ahead of the rest of the library.
pub const FINDINGS_MAX: usize = 3;

/// The sections, in packing (and render) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Constraints,
    Stages,
    Overdue,
    Commitments,
    Blockers,
    Findings,
    Decisions,
    Preferences,
    Index,
    Stale,
}

impl Section {
    pub const ALL: [Section; 10] = [
        Section::Constraints,
        Section::Stages,
        Section::Overdue,
        Section::Commitments,
        Section::Blockers,
        Section::Findings,
        Section::Decisions,
        Section::Preferences,
        Section::Index,
        Section::Stale,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Section::Constraints => "Recorded constraints",
            Section::Stages => "Stages",
            Section::Overdue => "Overdue commitments",
            Section::Commitments => "Open commitments",
            Section::Blockers => "Blockers",
            Section::Findings => "Recent findings",
            Section::Decisions => "Recent decisions",
            Section::Preferences => "Preferences",
            Section::Index => "Index",
            Section::Stale => "Stale (not updated in 30 days)",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Section::Constraints => "constraints",
            Section::Stages => "stages",
            Section::Overdue => "overdue",
            Section::Commitments => "commitments",
            Section::Blockers => "blockers",
            Section::Findings => "findings",
            Section::Decisions => "decisions",
            Section::Preferences => "preferences",
            Section::Index => "index",
            Section::Stale => "stale",
        }
    }

    /// Constraints, live stages and overdue commitments: never dropped
    /// without a tail.
    pub fn pinned(self) -> bool {
        matches!(
            self,
            Section::Constraints | Section::Stages | Section::Overdue
        )
    }

    /// The most lines a section shows before its tail, when budget allows.
    pub fn cap(self) -> usize {
        match self {
            Section::Commitments | Section::Blockers => RESERVED_MAX,
            Section::Findings => FINDINGS_MAX,
            _ => usize::MAX,
        }
    }

    /// Where the tail sends the reader for the rest.
    fn tail_hint(self) -> &'static str {
        match self {
            Section::Commitments => "sessionkit memories --kind commitment",
            Section::Blockers => "sessionkit memories --kind blocker",
            Section::Findings => "sessionkit memories --kind finding",
            Section::Decisions => "sessionkit memories --kind decision",
            Section::Preferences => "sessionkit memories --kind preference",
            Section::Stale => "sessionkit memories --all",
            _ => "sessionkit recall WORDS",
        }
    }
}

/// One memory offered to the briefing, already ranked within its section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub section: Section,
    pub memory_id: String,
    /// The memory's name as shown (whitespace flattened).
    pub topic: String,
    /// The full line, without the leading "- ".
    pub line: String,
    /// Its ranking score (higher first), for `--explain`.
    pub score: f64,
}

/// What became of a candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placement {
    /// The candidate's index in the slice `pack` was given.
    pub candidate: usize,
    pub section: Section,
    pub score: f64,
    pub bytes: usize,
    /// "full", "named" (on a names-only line), or "dropped: <why>".
    pub outcome: &'static str,
}

impl Placement {
    pub fn rendered(&self) -> bool {
        !self.outcome.starts_with("dropped")
    }
}

/// The limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub budget_tokens: usize,
    pub max_bytes: usize,
}

/// The result.
#[derive(Debug, Clone, Serialize)]
pub struct Briefing {
    pub text: String,
    pub bytes: usize,
    pub tokens: usize,
    pub placements: Vec<Placement>,
}

impl Briefing {
    /// Every candidate that rendered (in full or by name), with its placement.
    pub fn rendered<'a>(
        &'a self,
        candidates: &'a [Candidate],
    ) -> impl Iterator<Item = (&'a Placement, &'a Candidate)> {
        self.placements
            .iter()
            .filter(|p| p.rendered())
            .map(|p| (p, &candidates[p.candidate]))
    }

    /// The ids of every memory that rendered (in full or by name).
    pub fn rendered_ids<'a>(&'a self, candidates: &'a [Candidate]) -> Vec<&'a str> {
        self.rendered(candidates)
            .map(|(_, c)| c.memory_id.as_str())
            .collect()
    }
}

/// What goes around the sections.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    pub project: String,
    /// Lines after the header (the last session, since-last-session notes).
    pub preamble: Vec<String>,
    /// Lines before the closing tag.
    pub footer: Vec<String>,
}

struct Block {
    section: Section,
    lines: Vec<String>,
}

/// The candidates of `(index, candidate)` pairs.
fn refs<'a>(v: &[(usize, &'a Candidate)]) -> Vec<&'a Candidate> {
    v.iter().map(|(_, c)| *c).collect()
}

/// One section's candidates, in order, as (index, candidate).
fn section_of(candidates: &[Candidate], s: Section) -> Vec<(usize, &Candidate)> {
    candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.section == s)
        .collect()
}

/// Where a candidate went.
fn placed((i, c): (usize, &Candidate), bytes: usize, outcome: &'static str) -> Placement {
    Placement {
        candidate: i,
        section: c.section,
        score: c.score,
        bytes,
        outcome,
    }
}

/// Packs `candidates` (ranked within each section) into a briefing: the
/// pinned part first, then the competing sections, then the text.
pub fn pack(frame: &Frame, candidates: &[Candidate], limits: Limits) -> Briefing {
    let mut placements: Vec<Placement> = Vec::with_capacity(candidates.len());
    let frame_bytes = frame_size(frame);
    let mut blocks = pin(candidates, frame_bytes, limits, &mut placements);
    let used = frame_bytes + blocks_size(&blocks);
    compete(candidates, used, limits, &mut blocks, &mut placements);
    let mut text = render(frame, &blocks, &placements);
    if text.len() > limits.max_bytes {
        // Only a frame larger than the ceiling gets here: cut, but close.
        let keep = limits.max_bytes.saturating_sub(CLOSE_TAG.len() + 4);
        text = format!("{}\n...\n{CLOSE_TAG}", clip_bytes(&text, keep));
        text = clip_bytes(&text, limits.max_bytes).to_string();
    }
    Briefing {
        bytes: text.len(),
        tokens: tokens(text.len()),
        text,
        placements,
    }
}

/// The pinned part (constraints, live stages, overdue commitments),
/// degraded step by step only as far as the byte ceiling
/// needs; every pinned candidate's placement is recorded.
fn pin(
    candidates: &[Candidate],
    frame_bytes: usize,
    limits: Limits,
    placements: &mut Vec<Placement>,
) -> Vec<Block> {
    let (constraints_at, stages_at, overdue_at) = (
        section_of(candidates, Section::Constraints),
        section_of(candidates, Section::Stages),
        section_of(candidates, Section::Overdue),
    );
    let (constraints, stages, overdue) =
        (refs(&constraints_at), refs(&stages_at), refs(&overdue_at));
    let mut degrade: u8 = 0;
    let (pinned, shown_constraints, shown_stages) = loop {
        let (blocks, sc, ss) = pinned_blocks(&constraints, &stages, &overdue, degrade, usize::MAX);
        let size = frame_bytes + blocks_size(&blocks);
        if size <= limits.max_bytes {
            break (blocks, sc, ss);
        }
        if degrade == 3 {
            // Step 5: the names lines share what is left, each with a tail.
            let overdue_only = pinned_blocks(&[], &[], &overdue, 3, usize::MAX).0;
            let headings = [!constraints.is_empty(), !stages.is_empty()];
            let lines = headings.iter().filter(|h| **h).count().max(1);
            let fixed = frame_bytes
                + blocks_size(&overdue_only)
                + lines * section_heading(Section::Constraints).len();
            let cap = limits.max_bytes.saturating_sub(fixed) / lines;
            degrade = 4;
            break pinned_blocks(&constraints, &stages, &overdue, 4, cap);
        }
        degrade += 1;
    };
    let shown_or_dropped = |c, shown: bool, named: bool, tail: &'static str| {
        if shown {
            placed(
                c,
                line_bytes(c.1, named),
                if named { "named" } else { "full" },
            )
        } else {
            placed(c, 0, tail)
        }
    };
    for (i, &c) in constraints_at.iter().enumerate() {
        placements.push(shown_or_dropped(
            c,
            i < shown_constraints,
            i >= CONSTRAINTS_FULL || degrade >= 1,
            "dropped: counted in the constraints tail (pinned part over the byte ceiling)",
        ));
    }
    for (i, &c) in stages_at.iter().enumerate() {
        placements.push(shown_or_dropped(
            c,
            i < shown_stages,
            degrade >= 2,
            "dropped: counted in the stages tail (pinned part over the byte ceiling)",
        ));
    }
    for (i, &c) in overdue_at.iter().enumerate() {
        placements.push(shown_or_dropped(
            c,
            degrade < 3 || i < OVERDUE_KEEP,
            false,
            "dropped: counted in the overdue tail (pinned part over the byte ceiling)",
        ));
    }
    pinned
}

/// The competing sections, line by line, in order, after `used` bytes: a
/// line is placed while the text stays within the byte ceiling and the
/// token budget (with room for its section's tail); the first that does not
/// fit ends the packing.
fn compete(
    candidates: &[Candidate],
    mut used: usize,
    limits: Limits,
    blocks: &mut Vec<Block>,
    placements: &mut Vec<Placement>,
) {
    let budget_bytes = limits.budget_tokens.saturating_mul(4);
    let mut out_of_room = false;
    for section in Section::ALL.into_iter().filter(|s| !s.pinned()) {
        let items = section_of(candidates, section);
        if items.is_empty() {
            continue;
        }
        let heading = section_heading(section).len();
        let mut lines: Vec<String> = Vec::new();
        let mut section_used = heading;
        let mut shown = 0;
        for (i, &c) in items.iter().enumerate() {
            // "- " + line + "\n"; a line never composed (far past the
            // ceiling) has no size.
            let line_len = if c.1.line.is_empty() {
                0
            } else {
                c.1.line.len() + 3
            };
            let why = if out_of_room {
                Some("dropped: an earlier line did not fit")
            } else if shown >= section.cap() {
                Some("dropped: past the section's share")
            } else {
                // Room for this line, and for a tail if anything follows it.
                let rest = items.len() - i - 1;
                let tail = if rest > 0 {
                    tail_line(section, rest).len()
                } else {
                    0
                };
                let total = used + section_used + c.1.line.len() + 3 + tail;
                if total > limits.max_bytes {
                    out_of_room = true;
                    Some("dropped: byte ceiling")
                } else if total > budget_bytes {
                    out_of_room = true;
                    Some("dropped: token budget")
                } else {
                    None
                }
            };
            if let Some(w) = why {
                placements.push(placed(c, line_len, w));
            } else {
                section_used += line_len;
                placements.push(placed(c, line_len, "full"));
                lines.push(format!("- {}\n", c.1.line));
                shown += 1;
            }
        }
        let dropped = items.len() - shown;
        if shown == 0 {
            continue;
        }
        if dropped > 0 {
            lines.push(tail_line(section, dropped));
        }
        used += heading + lines.iter().map(String::len).sum::<usize>();
        blocks.push(Block { section, lines });
    }
}

#[cfg(test)]
mod tests;
