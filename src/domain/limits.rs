//! An account's usage limits as a client states them: Claude Code hands its
//! status line command the five-hour and seven-day windows (`rate_limits`:
//! each window's used percentage and its reset time in Unix seconds), the
//! context window used, the model and the session's cost. This module
//! reads that JSON into a snapshot and works out the pace: how fast the
//! window fills, and where it ends up at its reset.

use serde_json::Value;

use crate::domain::clock::Millis;

const HOUR: i64 = 3_600_000;
/// The five-hour window's length.
pub const FIVE_HOURS: i64 = 5 * HOUR;

/// One window's state: the share used (0 to 100, more past the limit) and
/// when it resets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub used_pct: f64,
    pub resets_at: Millis,
}

/// What one status line call said.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    pub session_id: Option<String>,
    pub transcript_path: Option<String>,
    /// The model's id (`claude-opus-4-…`).
    pub model: Option<String>,
    /// The model as the client names it to people (`Opus 4.6`).
    pub model_name: Option<String>,
    pub five_hour: Option<Window>,
    pub seven_day: Option<Window>,
    /// The context window's used share (0 to 100).
    pub context_pct: Option<f64>,
    /// The session's cost as the client states it, in billionths of a dollar.
    pub stated_cost_nanousd: Option<i64>,
}

impl Snapshot {
    /// The fields a stored snapshot changes on: a call that repeats them
    /// is not stored again.
    pub fn same_state(&self, other: &Snapshot) -> bool {
        self.model == other.model
            && self.five_hour == other.five_hour
            && self.seven_day == other.seven_day
            && self.context_pct == other.context_pct
            && self.stated_cost_nanousd == other.stated_cost_nanousd
            && self.session_id == other.session_id
    }
}

/// A window's reset time as a payload states it: seconds since the epoch
/// (Claude Code's form), milliseconds when the number is too large to be
/// seconds (past the year 5000), or an RFC 3339 time.
fn reset_time(v: &Value) -> Option<Millis> {
    const MILLIS_FROM: f64 = 1e11;
    match v {
        Value::Number(n) => {
            let t = n.as_f64().filter(|t| t.is_finite() && *t > 0.0)?;
            Some(if t >= MILLIS_FROM {
                t.round()
            } else {
                (t * 1000.0).round()
            } as Millis)
        }
        Value::String(s) => crate::domain::clock::parse_instant(s.trim()),
        _ => None,
    }
}

/// Reads a status line payload. Fields the client left out (rate limits
/// come only on a subscription, and only after the session's first
/// response) are `None`; a field of the wrong type is left out, not an
/// error.
pub fn from_statusline(v: &Value) -> Snapshot {
    let text = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
    let window = |name: &str| -> Option<Window> {
        let w = v.get("rate_limits")?.get(name)?;
        let used_pct = w.get("used_percentage")?.as_f64()?;
        let resets_at = reset_time(w.get("resets_at")?)?;
        (used_pct.is_finite() && used_pct >= 0.0).then_some(Window {
            used_pct,
            resets_at,
        })
    };
    Snapshot {
        session_id: text("/session_id"),
        transcript_path: text("/transcript_path"),
        model: text("/model/id"),
        model_name: text("/model/display_name"),
        five_hour: window("five_hour"),
        seven_day: window("seven_day"),
        context_pct: v
            .pointer("/context_window/used_percentage")
            .and_then(Value::as_f64)
            .filter(|p| p.is_finite()),
        stated_cost_nanousd: v
            .pointer("/cost/total_cost_usd")
            .and_then(Value::as_f64)
            .filter(|c| c.is_finite() && *c >= 0.0)
            .map(|usd| (usd * 1e9).round() as i64),
    }
}

/// How fast a window fills, and where it ends up at its reset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// Percentage points per hour.
    pub per_hour: f64,
    /// The used share at the reset, at this pace.
    pub at_reset_pct: f64,
}

/// The pace of the five-hour window `now`: from the earliest snapshot of
/// the same window (`since`, its used share and time) to now when one is at
/// least a minute old, else from the window's start (its reset less five
/// hours, at 0 %). `None` before the window has run a minute.
pub fn pace(now_w: Window, since: Option<(f64, Millis)>, now: Millis) -> Option<Pace> {
    let start = now_w.resets_at - FIVE_HOURS;
    let (from_pct, from_at) = since
        .filter(|(_, at)| now - at >= 60_000 && *at >= start)
        .unwrap_or((0.0, start));
    let hours = (now - from_at) as f64 / HOUR as f64;
    if hours < 1.0 / 60.0 {
        return None;
    }
    let per_hour = ((now_w.used_pct - from_pct) / hours).max(0.0);
    let left = (now_w.resets_at - now).max(0) as f64 / HOUR as f64;
    Some(Pace {
        per_hour,
        at_reset_pct: now_w.used_pct + per_hour * left,
    })
}

/// A span as people read it at a glance: `4h12m`, `12m`, `3d4h`; `0m` for
/// none or a time past.
pub fn span(ms: i64) -> String {
    let m = ms.max(0) / 60_000;
    let (d, h, m) = (m / 1440, (m / 60) % 24, m % 60);
    match (d, h) {
        (0, 0) => format!("{m}m"),
        (0, _) => format!("{h}h{m:02}m"),
        _ => format!("{d}d{h}h"),
    }
}

/// The five-hour block a message at `at` opens, when it falls in no
/// earlier block: its hour, floored (the rule ccusage's `blocks` uses).
pub fn block_start(at: Millis) -> Millis {
    at - at.rem_euclid(HOUR)
}

/// Five-hour blocks derived from message times (sorted): each starts at
/// the first message after the previous block ended, floored to the hour,
/// and lasts five hours. Returns each block's start.
pub fn blocks(times: &[Millis]) -> Vec<Millis> {
    let mut out: Vec<Millis> = Vec::new();
    for &t in times {
        if out.last().is_none_or(|s| t >= s + FIVE_HOURS) {
            out.push(block_start(t));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> Value {
        serde_json::json!({
            "session_id": "s1",
            "transcript_path": "/p/s1.jsonl",
            "model": {"id": "claude-opus-4-6", "display_name": "Opus 4.6"},
            "cost": {"total_cost_usd": 1.2345678, "total_duration_ms": 60000},
            "context_window": {"used_percentage": 41.5, "context_window_size": 200000},
            "rate_limits": {
                "five_hour": {"used_percentage": 23.5, "resets_at": 1738425600},
                "seven_day": {"used_percentage": 41.2, "resets_at": 1738857600}
            }
        })
    }

    #[test]
    fn a_payload_reads_into_a_snapshot() {
        let s = from_statusline(&payload());
        assert_eq!(s.session_id.as_deref(), Some("s1"));
        assert_eq!(s.model.as_deref(), Some("claude-opus-4-6"));
        assert_eq!(s.model_name.as_deref(), Some("Opus 4.6"));
        assert_eq!(
            s.five_hour,
            Some(Window {
                used_pct: 23.5,
                resets_at: 1_738_425_600_000
            })
        );
        assert_eq!(s.seven_day.unwrap().resets_at, 1_738_857_600_000);
        assert_eq!(s.context_pct, Some(41.5));
        assert_eq!(s.stated_cost_nanousd, Some(1_234_567_800));
    }

    /// A reset time in seconds, in milliseconds or as an RFC 3339 time is
    /// the same instant; one that is none of these leaves its window out.
    #[test]
    fn a_reset_time_is_read_in_any_of_its_forms() {
        let at = |r: Value| {
            from_statusline(&serde_json::json!({
                "rate_limits": {"five_hour": {"used_percentage": 23.5, "resets_at": r}}
            }))
            .five_hour
            .map(|w| w.resets_at)
        };
        let want = Some(1_738_425_600_000);
        assert_eq!(at(serde_json::json!(1_738_425_600)), want);
        assert_eq!(at(serde_json::json!(1_738_425_600_000_i64)), want);
        assert_eq!(at(serde_json::json!("2025-02-01T16:00:00Z")), want);
        assert_eq!(at(serde_json::json!("2025-02-01T17:00:00+01:00")), want);
        assert_eq!(at(serde_json::json!("soon")), None);
        assert_eq!(at(serde_json::json!(-5)), None);
    }

    /// Before the first response (or off a subscription) there are no rate
    /// limits; a field of the wrong type is left out.
    #[test]
    fn missing_or_odd_fields_are_none() {
        let s = from_statusline(&serde_json::json!({
            "model": {"display_name": "Opus"},
            "rate_limits": {"five_hour": {"used_percentage": "23", "resets_at": 1}},
            "cost": {"total_cost_usd": -1}
        }));
        assert_eq!(s.five_hour, None);
        assert_eq!(s.seven_day, None);
        assert_eq!(s.stated_cost_nanousd, None);
        assert_eq!(s.model_name.as_deref(), Some("Opus"));
    }

    /// 30 % used 2 h into the window: 15 points an hour, 75 % at the reset
    /// 3 h later. With a snapshot an hour ago at 20 %: 10 an hour, 60 %.
    #[test]
    fn pace_from_the_window_start_or_the_first_snapshot() {
        let resets_at = 10 * HOUR;
        let now = resets_at - 3 * HOUR;
        let w = Window {
            used_pct: 30.0,
            resets_at,
        };
        let p = pace(w, None, now).unwrap();
        assert!((p.per_hour - 15.0).abs() < 1e-9, "{p:?}");
        assert!((p.at_reset_pct - 75.0).abs() < 1e-9, "{p:?}");
        let p = pace(w, Some((20.0, now - HOUR)), now).unwrap();
        assert!((p.per_hour - 10.0).abs() < 1e-9, "{p:?}");
        assert!((p.at_reset_pct - 60.0).abs() < 1e-9, "{p:?}");
        // A snapshot of an earlier window does not count; nor one under a
        // minute old.
        let p = pace(w, Some((90.0, resets_at - 6 * HOUR)), now).unwrap();
        assert!((p.per_hour - 15.0).abs() < 1e-9, "{p:?}");
        let p = pace(w, Some((29.0, now - 30_000)), now).unwrap();
        assert!((p.per_hour - 15.0).abs() < 1e-9, "{p:?}");
        assert_eq!(pace(w, None, resets_at - FIVE_HOURS + 10_000), None);
    }

    #[test]
    fn spans_read_at_a_glance() {
        assert_eq!(span(0), "0m");
        assert_eq!(span(-5), "0m");
        assert_eq!(span(12 * 60_000 + 59_000), "12m");
        assert_eq!(span(4 * HOUR + 7 * 60_000), "4h07m");
        assert_eq!(span(3 * 24 * HOUR + 4 * HOUR + 59 * 60_000), "3d4h");
    }

    /// Hand-computed: 09:17 opens a block 09:00 to 14:00, which holds
    /// 10:05; 14:16 opens one at 14:00 (to 19:00), which holds 18:59; 19:30
    /// opens one at 19:00.
    #[test]
    fn blocks_start_at_the_first_message_floored_to_the_hour() {
        let at = |h: i64, m: i64| h * HOUR + m * 60_000;
        let starts = blocks(&[at(9, 17), at(10, 5), at(14, 16), at(18, 59), at(19, 30)]);
        assert_eq!(starts, vec![at(9, 0), at(14, 0), at(19, 0)]);
        assert!(blocks(&[]).is_empty());
    }
}
