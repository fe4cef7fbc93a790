//! How a briefing ranks what competes for its room: recency blended with
//! demand utility once a project has the history (the auto latch), and
//! which stages are done.

use crate::domain::clock::Millis;
use crate::domain::memory::{decay, utility};

/// The weight of utility in the blended key.
pub const UTILITY_WEIGHT: f64 = 0.4;
/// Recency halves every 14 days.
const RECENCY_HALF_LIFE_DAYS: f64 = 14.0;
const DAY: i64 = 86_400_000;

/// The auto latch: the first demand (`first_at`) is at least 14 days old,
/// and the last 30 days hold at least 20 demand events over at least 10
/// memories (`last_30d`).
pub fn latched(first_at: Option<Millis>, (events, memories): (u64, u64), now: Millis) -> bool {
    first_at.is_some_and(|t| now - t >= 14 * DAY) && events >= 20 && memories >= 10
}

/// The blended key of a memory updated at `updated_at` with demand `raw`
/// (last moved at `raw_at`): (1 − w)·recency + w·utility.
pub fn blended(
    updated_at: Millis,
    (raw, raw_at): (f64, Option<Millis>),
    now: Millis,
    w: f64,
) -> f64 {
    let days = (now - updated_at).max(0) as f64 / DAY as f64;
    let r = (-days / RECENCY_HALF_LIFE_DAYS).exp2();
    let u = utility(raw_at.map_or(0.0, |at| decay(raw, at, now)));
    (1.0 - w) * r + w * u
}

/// Whether a stage's content says it is done (`status: done` in its first
/// lines).
pub fn stage_is_done(content: &str) -> bool {
    content.lines().take(5).any(|l| {
        let l = l.trim_start_matches(['-', '*', ' ']).to_lowercase();
        l.strip_prefix("status:")
            .is_some_and(|v| v.trim() == "done")
    })
}
