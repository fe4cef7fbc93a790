//! Composing a briefing from the store: sections, ranking (recency blended
//! with demand utility once a project has the history), since-last-session
//! marks and the last transcript session, then `briefing::pack`.

use anyhow::Result;

use crate::domain::briefing::rank::{UTILITY_WEIGHT, blended, latched, stage_is_done};
use crate::domain::briefing::{
    Briefing, Candidate, Frame, Limits, Section, flatten, flatten_owned, pack,
};
use crate::domain::clock::{Millis, format_instant};
use crate::domain::harness::Harness;
use crate::domain::memory::{CommitmentStatus, Kind};
use crate::store::Store;
use crate::store::briefing::{BriefRow, BriefText};

/// Decisions, preferences and facts not updated for this long are stale candidates.
const STALE_DAYS: i64 = 30;
const DAY: i64 = 86_400_000;
/// The shortest id a briefing line shows (a UUIDv7's first 8 characters
/// are its time, so more are added until no other memory shares them).
const SHORT_ID_MIN: usize = 8;
/// Past this many bytes of budget and ceiling, a briefing reads every
/// memory's text in its one scan.
const WIDE_REACH: usize = 64 * 1024;

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
    /// `watchdog.minutes` in milliseconds: the last session is not shown
    /// as working past it.
    pub watchdog_ms: i64,
    /// Compose every candidate's topic and line (`--explain`, JSON), not
    /// only those that could render.
    pub every_line: bool,
}

/// A composed briefing.
#[derive(Debug, Clone)]
pub struct Built {
    pub briefing: Briefing,
    pub candidates: Vec<Candidate>,
    pub utility_active: bool,
}

/// `x` as an integer ordered as `f64::total_cmp` orders floats.
fn total_order(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// A memory placed in its section.
struct Placed {
    section: Section,
    row: BriefRow,
    score: f64,
    /// What follows the topic on its line (a commitment's state).
    extra: String,
}

/// Where a memory sorts: by section, then ascending `k1`, `k2` (packed in
/// one integer), then its id.
#[derive(Clone, Copy)]
struct SortKey {
    section: Section,
    k: u128,
    at: u32,
}

/// (k1, k2) as one integer in the same order.
fn pack_keys(k1: i64, k2: i64) -> u128 {
    let biased = |k: i64| u128::from((k as u64) ^ (1 << 63));
    biased(k1) << 64 | biased(k2)
}

/// The limits in force: flags, else settings (the harness's own ceiling when
/// one is named, `briefing.max_bytes` otherwise); `--full` lifts both.
pub fn limits(
    store: &Store,
    harness: Option<Harness>,
    budget: Option<usize>,
    max_bytes: Option<usize>,
    full: bool,
) -> Result<Limits> {
    if full {
        return Ok(Limits {
            budget_tokens: usize::MAX / 8,
            max_bytes: usize::MAX / 2,
        });
    }
    let setting = |k: &str| -> Result<usize> {
        Ok(usize::try_from(crate::services::settings::count(
            store, k,
        )?)?)
    };
    let ceiling_key = match harness {
        Some(h) if h.answers.own_ceiling => crate::services::settings::ceiling_key(h.as_str()),
        _ => "briefing.max_bytes".to_string(),
    };
    let mut max = match max_bytes {
        Some(b) => b,
        None => setting(&ceiling_key)?,
    };
    if let Some(ceiling) = harness.and_then(|h| h.answers.max_bytes) {
        max = max.min(ceiling);
    }
    Ok(Limits {
        budget_tokens: match budget {
            Some(b) => b,
            None => setting("briefing.budget_tokens")?,
        },
        max_bytes: max,
    })
}

pub fn build(store: &Store, req: &Request, now: Millis) -> Result<Built> {
    // One snapshot: the text read per line must be the ranked memory's.
    let snapshot = store.read_snapshot()?;
    let built = build_in(store, req, now)?;
    snapshot.finish()?;
    Ok(built)
}

fn build_in(store: &Store, req: &Request, now: Millis) -> Result<Built> {
    let utility_active = match req.utility_mode.as_str() {
        "on" => true,
        "off" => false,
        _ => {
            let h = store.demand_history(&req.project, now)?;
            latched(h.first_at, (h.events_30d, h.memories_30d), now)
        }
    };
    let reach = req
        .limits
        .max_bytes
        .min(req.limits.budget_tokens.saturating_mul(4));
    // Limits this wide compose hundreds of lines: their text comes with the
    // scan rather than a seek each.
    let text_in_scan = req.every_line || reach >= WIDE_REACH;
    let memories = store.briefing_memories(&req.project, utility_active, text_in_scan)?;
    let w = if utility_active { UTILITY_WEIGHT } else { 0.0 };
    let previous = store.previous_briefing(&req.project, req.run_id.as_deref())?;
    let stage_contents = store.stage_contents(&req.project)?;
    let done_stage = |id: &str| stage_contents.get(id).is_some_and(|c| stage_is_done(c));
    let mut placed: Vec<Option<Placed>> = Vec::with_capacity(memories.len());
    let mut keys: Vec<SortKey> = Vec::with_capacity(memories.len());
    for row in memories {
        let score = blended(row.updated_at, (row.raw, row.raw_at), now, w);
        let Some((section, extra)) = section_of(&row, now, done_stage(&row.memory_id)) else {
            continue;
        };
        keys.push(SortKey {
            section,
            k: order_in_section(section, &row, score),
            at: u32::try_from(placed.len())?,
        });
        placed.push(Some(Placed {
            section,
            row,
            score,
            extra,
        }));
    }
    let id = |k: &SortKey| {
        placed[k.at as usize]
            .as_ref()
            .map_or("", |p| p.row.memory_id.as_str())
    };
    // Ids are unique, so the order is total and an unstable sort is exact.
    keys.sort_unstable_by(|a, b| {
        (a.section as u8, a.k)
            .cmp(&(b.section as u8, b.k))
            .then_with(|| id(a).cmp(id(b)))
    });
    let since = previous.as_ref().map(|p| p.delivered_at);
    let lines = compose(store, req, since, reach, &keys, placed)?;
    let frame = frame(store, req, since, &lines, now)?;
    let briefing = pack(&frame, &lines.candidates, req.limits);
    Ok(Built {
        briefing,
        candidates: lines.candidates,
        utility_active,
    })
}

/// A memory's section and what follows its topic (a commitment's state),
/// or `None` when it is not briefed (a done stage, a settled commitment).
fn section_of(row: &BriefRow, now: Millis, done_stage: bool) -> Option<(Section, String)> {
    let stale = now - row.updated_at > STALE_DAYS * DAY;
    Some(match row.kind {
        Kind::Constraint => (Section::Constraints, String::new()),
        // The gist may be the description: a stage's status is in its content.
        Kind::Stage if done_stage => return None,
        Kind::Stage => (Section::Stages, String::new()),
        Kind::Commitment => {
            let (status, due_at) = row.commitment.as_ref()?;
            if !matches!(status, CommitmentStatus::Open | CommitmentStatus::Waiting) {
                return None;
            }
            let due = due_at
                .map(|d| format!(", due {}", &format_instant(d)[..10]))
                .unwrap_or_default();
            let extra = format!(" ({status}{due})");
            if due_at.is_some_and(|d| d < now) {
                (Section::Overdue, extra)
            } else {
                (Section::Commitments, extra)
            }
        }
        Kind::Blocker => (Section::Blockers, String::new()),
        Kind::Finding => (Section::Findings, String::new()),
        Kind::Decision | Kind::Preference | Kind::Fact if stale => (Section::Stale, String::new()),
        Kind::Decision => (Section::Decisions, String::new()),
        Kind::Preference => (Section::Preferences, String::new()),
        Kind::Fact | Kind::Convention | Kind::Pattern | Kind::Note => {
            (Section::Index, String::new())
        }
    })
}

/// Order within each section, ascending:
/// commitments by due time then age, constraints and the index by score
/// then recency, stale memories oldest first, the rest newest first.
fn order_in_section(section: Section, row: &BriefRow, score: f64) -> u128 {
    let due = row
        .commitment
        .as_ref()
        .and_then(|c| c.1)
        .unwrap_or(i64::MAX);
    let (k1, k2) = match section {
        Section::Overdue | Section::Commitments => (due, row.created_at),
        Section::Constraints | Section::Index => (!total_order(score), -row.updated_at),
        Section::Stale => (row.updated_at, 0),
        _ => (-row.created_at, 0),
    };
    pack_keys(k1, k2)
}

/// The candidates in order, with their lines composed, and how many are
/// new or revised since the previous briefing.
struct Lines {
    candidates: Vec<Candidate>,
    news: usize,
    revised: usize,
}

/// Composes each candidate's line, in sorted order.
///
/// The competing sections render a prefix of their lines in order (each
/// section's first `cap()` lines; past those, none renders), within the
/// byte ceiling and the token budget. So once the lines composed so far
/// that could render exceed both, no later line can: later candidates are
/// listed (for --explain and the tails) without composing their text.
fn compose(
    store: &Store,
    req: &Request,
    since: Option<Millis>,
    reach: usize,
    keys: &[SortKey],
    mut slots: Vec<Option<Placed>>,
) -> Result<Lines> {
    let mut composed_bytes = 0usize;
    let mut in_section = (Section::Constraints, 0usize);
    let mut out = Lines {
        candidates: Vec::with_capacity(keys.len()),
        news: 0,
        revised: 0,
    };
    for k in keys {
        let p = slots[k.at as usize].take().expect("each memory sorts once");
        let m = p.row;
        if in_section.0 != p.section {
            in_section = (p.section, 0);
        }
        in_section.1 += 1;
        let pinned = p.section.pinned();
        // A line past its section's share never renders either (the
        // section's earlier lines all rendered, or one did not fit): it is
        // composed only when every line is shown.
        let within_share = in_section.1 <= p.section.cap();
        let compose = pinned || (composed_bytes <= reach && (within_share || req.every_line));
        let mark = since_mark(&m, since, &mut out);
        // Text read in the scan, else only for a line that can render.
        let text = match m.text {
            Some(t) => Some(t),
            None if compose => Some(store.brief_text(&req.project, &m.memory_id)?),
            None => None,
        };
        // Commitments and blockers show the id to resolve them by.
        let id = match p.section {
            Section::Commitments | Section::Overdue | Section::Blockers if compose => {
                format!("[{}] ", store.short_id(&m.memory_id, SHORT_ID_MIN)?)
            }
            _ => String::new(),
        };
        let (topic, line) = match text {
            Some(BriefText { topic, gist }) => {
                let topic = flatten_owned(topic, 80);
                let line = if compose {
                    format!("{mark}{id}{topic}{}: {}", p.extra, flatten(&gist, 160))
                } else {
                    String::new()
                };
                (topic, line)
            }
            None => (String::new(), String::new()),
        };
        if !pinned && compose && within_share {
            composed_bytes += line.len() + 3;
        }
        out.candidates.push(Candidate {
            section: p.section,
            memory_id: m.memory_id,
            line,
            topic,
            score: p.score,
        });
    }
    Ok(out)
}

/// A line's mark for what changed since the previous briefing (at
/// `since`): `~ ` revised, `+ ` new, counted in `out`.
fn since_mark(m: &BriefRow, since: Option<Millis>, out: &mut Lines) -> &'static str {
    match since {
        Some(at) if m.created_at > at && m.revised => {
            out.revised += 1;
            "~ "
        }
        Some(at) if m.created_at > at => {
            out.news += 1;
            "+ "
        }
        _ => "",
    }
}

/// What goes around the sections: the last session, what changed since
/// the previous briefing, and the footer's reminders.
fn frame(
    store: &Store,
    req: &Request,
    since: Option<Millis>,
    lines: &Lines,
    now: Millis,
) -> Result<Frame> {
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
            crate::domain::status::shown(
                &last.status,
                last.status_at,
                last.last_activity_at,
                now,
                req.watchdog_ms
            ),
            last.tokens,
            crate::domain::pricing::usd(last.cost_nanousd)
        ));
    }
    if let Some(at) = since {
        let resolved = store.resolved_since(&req.project, at)?;
        let (news, revised) = (lines.news, lines.revised);
        let mut note = format!(
            "Since the last briefing ({}): {news} new (+), {revised} revised (~)",
            format_instant(at)
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
        "Search with `sessionkit recall WORDS`; read one with `sessionkit memory show ID`; `sessionkit resolve ID` when a listed commitment is done.".into(),
    );
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use super::{pack_keys, total_order};

    #[test]
    fn packed_keys_sort_as_their_pairs() {
        let vals = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        for a in vals {
            for b in vals {
                for c in vals {
                    for d in vals {
                        assert_eq!(pack_keys(a, b).cmp(&pack_keys(c, d)), (a, b).cmp(&(c, d)));
                    }
                }
            }
        }
        let floats = [
            f64::NEG_INFINITY,
            -1.5,
            -0.0,
            0.0,
            1e-9,
            0.5,
            2.0,
            f64::INFINITY,
        ];
        for x in floats {
            for y in floats {
                assert_eq!(total_order(x).cmp(&total_order(y)), x.total_cmp(&y));
                assert_eq!((!total_order(x)).cmp(&!total_order(y)), y.total_cmp(&x));
            }
        }
    }
}
