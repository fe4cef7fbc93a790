//! Composing a briefing from the store: sections, ranking (recency blended
//! with demand utility once a project has the history), since-last-session
//! marks and the last transcript session, then `briefing::pack`.

use anyhow::Result;

use super::briefing::{Briefing, Candidate, Frame, Limits, Section, flatten, pack};
use super::memory::{decay, utility};
use crate::clock::{Millis, format_instant};
use crate::store::Store;
use crate::store::briefing::{DemandHistory, Scored};

/// The weight of utility in the blended key (study 2.3, `utility_weight`).
pub const UTILITY_WEIGHT: f64 = 0.4;
/// Recency halves every 14 days.
const RECENCY_HALF_LIFE_DAYS: f64 = 14.0;
/// Decisions, preferences and facts not updated for this long are stale candidates.
const STALE_DAYS: i64 = 30;
const DAY: i64 = 86_400_000;

/// What to brief.
#[derive(Debug, Clone)]
pub struct Request {
    pub project: String,
    pub limits: Limits,
    /// The SessionStart source (`startup`, `resume`, `compact`, `clear`).
    pub source: Option<String>,
    /// The run being briefed (left out of "the previous briefing").
    pub run_id: Option<String>,
    /// The harness session being briefed (left out of "the last session").
    pub session_id: Option<String>,
    /// `briefing.utility`: auto, on or off.
    pub utility_mode: String,
}

/// A composed briefing.
#[derive(Debug, Clone)]
pub struct Built {
    pub briefing: Briefing,
    pub candidates: Vec<Candidate>,
    pub utility_active: bool,
}

/// The auto latch (study 2.6): the first demand is at least 14 days old, and
/// the last 30 days hold at least 20 demand events over at least 10 memories.
pub fn latched(h: &DemandHistory, now: Millis) -> bool {
    h.first_at.is_some_and(|t| now - t >= 14 * DAY) && h.events_30d >= 20 && h.memories_30d >= 10
}

/// The blended key: (1 − w)·recency + w·utility.
pub fn blended(s: &Scored, now: Millis, w: f64) -> f64 {
    let days = (now - s.memory.updated_at).max(0) as f64 / DAY as f64;
    let r = (-days / RECENCY_HALF_LIFE_DAYS).exp2();
    let u = utility(s.raw_at.map_or(0.0, |at| decay(s.raw, at, now)));
    (1.0 - w) * r + w * u
}

fn stage_is_done(content: &str) -> bool {
    content.lines().take(5).any(|l| {
        let l = l.trim_start_matches(['-', '*', ' ']).to_lowercase();
        l.strip_prefix("status:")
            .is_some_and(|v| v.trim() == "done")
    })
}

pub fn build(store: &Store, req: &Request, now: Millis) -> Result<Built> {
    let memories = store.briefing_memories(&req.project)?;
    let utility_active = match req.utility_mode.as_str() {
        "on" => true,
        "off" => false,
        _ => latched(&store.demand_history(&req.project, now)?, now),
    };
    let w = if utility_active { UTILITY_WEIGHT } else { 0.0 };
    let previous = store.previous_briefing(&req.project, req.run_id.as_deref())?;
    let mark = |m: &crate::store::memories::Memory| -> &'static str {
        match &previous {
            Some(p) if m.created_at > p.delivered_at => {
                if m.supersedes.is_some() {
                    "~ "
                } else {
                    "+ "
                }
            }
            _ => "",
        }
    };
    let mut candidates: Vec<Candidate> = Vec::new();
    // A line is at least 7 bytes ("- a: b\n"), so past this many lines of
    // the competing sections the ceiling is surely reached: later candidates
    // are listed (for --explain and the tails) without composing their text.
    let reach = req.limits.max_bytes / 7 + 1;
    let mut composed = 0usize;
    let mut add = |section: Section, s: &Scored, score: f64, extra: String| {
        let m = &s.memory;
        let pinned = matches!(
            section,
            Section::Constraints | Section::Stages | Section::Overdue
        );
        let compose = pinned || composed < reach;
        composed += usize::from(!pinned);
        let topic = flatten(&m.topic, 80);
        let line = if compose {
            let about = m.description.as_deref().unwrap_or(&m.content);
            format!("{}{topic}{extra}: {}", mark(m), flatten(about, 160))
        } else {
            String::new()
        };
        candidates.push(Candidate {
            section,
            memory_id: m.memory_id.clone(),
            line,
            topic,
            score,
        });
    };
    let stage_contents = store.stage_contents(&req.project)?;
    let mut by_section: Vec<(Section, &Scored, f64, String)> = Vec::new();
    for s in &memories {
        let m = &s.memory;
        let key = blended(s, now, w);
        let stale = now - m.updated_at > STALE_DAYS * DAY;
        let (section, extra) = match m.kind.as_str() {
            "constraint" => (Section::Constraints, String::new()),
            // The gist may be the description: a stage's status is in its content.
            "stage"
                if stage_contents
                    .get(&m.memory_id)
                    .is_some_and(|c| stage_is_done(c)) =>
            {
                continue;
            }
            "stage" => (Section::Stages, String::new()),
            "commitment" => {
                let Some(c) = &m.commitment else { continue };
                if !matches!(c.status.as_str(), "open" | "waiting") {
                    continue;
                }
                let due = c
                    .due_at
                    .map(|d| format!(", due {}", &format_instant(d)[..10]))
                    .unwrap_or_default();
                let extra = format!(" ({}{due})", c.status);
                if c.due_at.is_some_and(|d| d < now) {
                    (Section::Overdue, extra)
                } else {
                    (Section::Commitments, extra)
                }
            }
            "blocker" => (Section::Blockers, String::new()),
            "finding" => (Section::Findings, String::new()),
            "decision" | "preference" | "fact" if stale => (Section::Stale, String::new()),
            "decision" => (Section::Decisions, String::new()),
            "preference" => (Section::Preferences, String::new()),
            _ => (Section::Index, String::new()),
        };
        by_section.push((section, s, key, extra));
    }
    // Order within each section (study 3ngram g, Seamless 2.3).
    by_section.sort_by(|a, b| {
        let (ma, mb) = (&a.1.memory, &b.1.memory);
        let due = |m: &crate::store::memories::Memory| {
            m.commitment
                .as_ref()
                .and_then(|c| c.due_at)
                .unwrap_or(i64::MAX)
        };
        a.0.cmp(&b.0)
            .then_with(|| match a.0 {
                Section::Overdue | Section::Commitments => due(ma)
                    .cmp(&due(mb))
                    .then(ma.created_at.cmp(&mb.created_at)),
                Section::Constraints | Section::Index => {
                    b.2.total_cmp(&a.2).then(mb.updated_at.cmp(&ma.updated_at))
                }
                Section::Stale => ma.updated_at.cmp(&mb.updated_at),
                _ => mb.created_at.cmp(&ma.created_at),
            })
            .then(ma.memory_id.cmp(&mb.memory_id))
    });
    for (section, s, key, extra) in by_section {
        add(section, s, key, extra);
    }

    let mut frame = Frame {
        project: req.project.clone(),
        ..Frame::default()
    };
    if let Some(last) = store.last_session(&req.project, req.session_id.as_deref())? {
        frame.preamble.push(format!(
            "Last session: {} ended {} ({}), {} tokens, ${:.2}.",
            &last.session_id[..last.session_id.len().min(8)],
            last.last_activity_at
                .map_or("at an unknown time".into(), format_instant),
            last.status,
            last.tokens,
            crate::pricing::usd(last.cost_nanousd)
        ));
    }
    if let Some(p) = &previous {
        let news = candidates
            .iter()
            .filter(|c| c.line.starts_with("+ "))
            .count();
        let revised = candidates
            .iter()
            .filter(|c| c.line.starts_with("~ "))
            .count();
        let resolved = store.resolved_since(&req.project, p.delivered_at)?;
        let mut note = format!(
            "Since the last briefing ({}): {news} new (+), {revised} revised (~)",
            format_instant(p.delivered_at)
        );
        if !resolved.is_empty() {
            let names: Vec<String> = resolved.iter().map(|t| flatten(t, 80)).collect();
            note.push_str(&format!(", resolved ✓ {}", names.join(", ")));
        }
        note.push('.');
        if news + revised + resolved.len() > 0 {
            frame.preamble.push(note);
        }
    }
    if matches!(req.source.as_deref(), Some("compact" | "resume")) {
        frame
            .footer
            .push("Earlier context may have been summarized: recall before relying on it.".into());
    }
    frame.footer.push(
        "Search with `sessionkit recall WORDS`; read one with `sessionkit memory show ID`.".into(),
    );
    let briefing = pack(&frame, &candidates, req.limits);
    Ok(Built {
        briefing,
        candidates,
        utility_active,
    })
}
