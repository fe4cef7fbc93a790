//! The process clock (fixable with `SESSIONKIT_NOW`) and instant parsing/printing.
//!
//! Every instant sessionkit stores is an `i64` of milliseconds since the Unix
//! epoch, UTC. Transcript timestamps are parsed from any
//! RFC 3339 precision or offset; the common Claude Code shape
//! `YYYY-MM-DDTHH:MM:SS.mmmZ` takes a fast path that allocates nothing.

use std::sync::OnceLock;

use anyhow::{Context, Result, bail};

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

static NOW: OnceLock<Option<Millis>> = OnceLock::new();

/// The environment variable that fixes the clock (tests, reproducible replays).
pub const NOW_ENV: &str = "SESSIONKIT_NOW";

/// Reads `SESSIONKIT_NOW` once; an unparsable value is an error the caller reports.
pub fn init_from_env() -> Result<()> {
    let fixed = match std::env::var(NOW_ENV) {
        Ok(v) if !v.trim().is_empty() => Some(
            parse_instant(v.trim())
                .with_context(|| format!("{NOW_ENV}={v:?} is not an RFC 3339 instant"))?,
        ),
        _ => None,
    };
    let _ = NOW.set(fixed);
    Ok(())
}

/// The current instant: `SESSIONKIT_NOW` when set, else the system clock.
pub fn now() -> Millis {
    if let Some(Some(fixed)) = NOW.get() {
        return *fixed;
    }
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(b: &[u8]) -> Option<i64> {
    let mut v: i64 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(v)
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` without allocating.
fn parse_fast(s: &[u8]) -> Option<Millis> {
    if s.len() < 20 || s[4] != b'-' || s[7] != b'-' || !matches!(s[10], b'T' | b't' | b' ') {
        return None;
    }
    if s[13] != b':' || s[16] != b':' {
        return None;
    }
    let (y, mo, d) = (digits(&s[0..4])?, digits(&s[5..7])?, digits(&s[8..10])?);
    let (h, mi, se) = (
        digits(&s[11..13])?,
        digits(&s[14..16])?,
        digits(&s[17..19])?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut ms = 0i64;
    if s.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        let frac = &s[start..i];
        if frac.is_empty() {
            return None;
        }
        for (k, c) in frac.iter().take(3).enumerate() {
            ms += i64::from(c - b'0') * [100, 10, 1][k];
        }
    }
    let offset_min = match &s[i..] {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), rest @ ..] if rest.len() == 5 && rest[2] == b':' => {
            let v = digits(&rest[0..2])? * 60 + digits(&rest[3..5])?;
            if *sign == b'-' { -v } else { v }
        }
        _ => return None,
    };
    if d > days_in_month(y, mo) {
        return None;
    }
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + se.min(59) - offset_min * 60;
    Some(secs * 1000 + ms)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Parses an RFC 3339 instant to milliseconds (sub-millisecond digits truncate).
pub fn parse_instant(s: &str) -> Option<Millis> {
    if let Some(v) = parse_fast(s.as_bytes()) {
        return Some(v);
    }
    let ts: jiff::Timestamp = s.parse().ok()?;
    Some(ts.as_millisecond())
}

/// Formats an instant as RFC 3339 in `tz`, to the second, with the zone's
/// offset: `2025-09-03T09:47:19+09:00`.
pub fn format_instant_in(ms: Millis, tz: &jiff::tz::TimeZone) -> String {
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(ts) => {
            let d = tz.to_datetime(ts);
            let secs = tz.to_offset(ts).seconds();
            let sign = if secs < 0 { '-' } else { '+' };
            let secs = secs.unsigned_abs();
            format!(
                "{}{sign}{:02}:{:02}",
                d.strftime("%Y-%m-%dT%H:%M:%S"),
                secs / 3600,
                (secs / 60) % 60
            )
        }
        Err(_) => format_instant(ms),
    }
}

/// Formats an instant as RFC 3339 UTC with milliseconds: `2025-09-03T00:47:19.293Z`.
pub fn format_instant(ms: Millis) -> String {
    if let Some(b) = instant_ascii(ms) {
        String::from_utf8(b.to_vec()).expect("ASCII digits")
    } else {
        let (y, m, d, sod, milli) = civil(ms);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
            sod / 3600,
            (sod / 60) % 60,
            sod % 60
        )
    }
}

/// `f` of the instant as `format_instant` writes it, allocating only for a
/// year outside 0 to 9999.
pub fn with_instant<R>(ms: Millis, f: impl FnOnce(&str) -> R) -> R {
    match instant_ascii(ms) {
        Some(b) => f(std::str::from_utf8(&b).expect("ASCII digits")),
        None => f(&format_instant(ms)),
    }
}

/// An instant that serializes as `format_instant` writes it (RFC 3339 UTC,
/// milliseconds), without allocating; its JSON Schema is a date-time string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rfc3339(pub Millis);

impl serde::Serialize for Rfc3339 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        with_instant(self.0, |t| s.serialize_str(t))
    }
}

impl schemars::JsonSchema for Rfc3339 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rfc3339".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "format": "date-time"})
    }
}

/// `format_instant` without allocating, for years 0 to 9999 (None outside).
/// Listings format several instants a row, and the formatting machinery
/// cost more than the rest of a row: this goes digit by digit.
pub fn instant_ascii(ms: Millis) -> Option<[u8; 24]> {
    thread_local! {
        // The last day formatted: a listing's instants mostly share days.
        static DAY: std::cell::Cell<(i64, Option<[u8; 10]>)> = const { std::cell::Cell::new((0, None)) };
    }
    let secs = ms.div_euclid(1000);
    let day = secs.div_euclid(86_400);
    let date = match DAY.get() {
        (d, Some(date)) if d == day => date,
        _ => {
            let (y, m, d) = civil_from_days(day);
            if !(0..=9999).contains(&y) {
                return None;
            }
            let mut b = *b"0000-00-00";
            put_digits(&mut b, 0, 4, y);
            put_digits(&mut b, 5, 2, m);
            put_digits(&mut b, 8, 2, d);
            DAY.set((day, Some(b)));
            b
        }
    };
    let sod = secs.rem_euclid(86_400);
    let mut b = *b"0000-00-00T00:00:00.000Z";
    b[..10].copy_from_slice(&date);
    put_digits(&mut b, 11, 2, sod / 3600);
    put_digits(&mut b, 14, 2, (sod / 60) % 60);
    put_digits(&mut b, 17, 2, sod % 60);
    put_digits(&mut b, 20, 3, ms.rem_euclid(1000));
    Some(b)
}

/// Writes `v` as `width` decimal digits at `at`.
fn put_digits(b: &mut [u8], at: usize, width: usize, mut v: i64) {
    for i in (at..at + width).rev() {
        b[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
}

/// (year, month, day, second of the day, millisecond) of an instant.
fn civil(ms: Millis) -> (i64, i64, i64, i64, i64) {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    (y, m, d, secs.rem_euclid(86_400), ms.rem_euclid(1000))
}

/// A lower bound, days in the local zone (`parse_bound_in`).
pub fn parse_bound(s: &str) -> Result<Millis> {
    parse_bound_in(s, &jiff::tz::TimeZone::system(), false)
}

/// A calendar date as given: `YYYY-MM-DD` or ccusage's `YYYYMMDD`.
fn calendar_date(s: &str) -> Option<jiff::civil::Date> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let (y, m, d) = match b.len() {
        10 if digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10) => {
            (&s[0..4], &s[5..7], &s[8..10])
        }
        8 if digits(0..8) => (&s[0..4], &s[4..6], &s[6..8]),
        _ => return None,
    };
    jiff::civil::Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?).ok()
}

/// An instant, or a span back from now (`30d`); a date is read by
/// `parse_bound_in`, in a zone.
fn parse_moment(s: &str) -> Result<Millis> {
    let s = s.trim();
    if let Some(v) = parse_instant(s) {
        return Ok(v);
    }
    if let Some(unit) = s.chars().last() {
        let num = &s[..s.len() - unit.len_utf8()];
        if let Ok(n) = num.parse::<i64>() {
            let per = match unit {
                's' => 1_000,
                'm' => 60_000,
                'h' => 3_600_000,
                'd' => 86_400_000,
                'w' => 7 * 86_400_000,
                _ => 0,
            };
            if let Some(ms) = (per > 0 && n >= 0).then(|| n.checked_mul(per)).flatten() {
                return Ok(now().saturating_sub(ms));
            }
        }
    }
    bail!(
        "{s:?} is not a time: use RFC 3339 (2026-01-31T12:00:00Z), a date (2026-01-31 or 20260131, a day in the local zone or --tz), a span back from now (30d, 12h, 90m, 2w) or, where the command says so, today, yesterday, this-week, last-week, this-month, last-month"
    )
}

/// The span a calendar word names in `tz` at `now`: `today`, `yesterday`,
/// `this-week` and `last-week` (ISO weeks, from Monday), `this-month` and
/// `last-month`; `None` for any other text.
pub fn named_span(word: &str, now: Millis, tz: &jiff::tz::TimeZone) -> Option<(Millis, Millis)> {
    use jiff::ToSpan;
    let today = tz
        .to_datetime(jiff::Timestamp::from_millisecond(now).ok()?)
        .date();
    let monday = today
        .checked_sub((i64::from(today.weekday().to_monday_zero_offset())).days())
        .ok()?;
    let first = today.first_of_month();
    let (from, to) = match word.trim() {
        "today" => (today, today.tomorrow().ok()?),
        "yesterday" => (today.yesterday().ok()?, today),
        "this-week" => (monday, monday.checked_add(7.days()).ok()?),
        "last-week" => (monday.checked_sub(7.days()).ok()?, monday),
        "this-month" => (first, first.checked_add(1.month()).ok()?),
        "last-month" => (first.checked_sub(1.month()).ok()?, first),
        _ => return None,
    };
    let at = |d: jiff::civil::Date| {
        tz.to_timestamp(d.to_datetime(jiff::civil::Time::midnight()))
            .ok()
            .map(jiff::Timestamp::as_millisecond)
    };
    Some((at(from)?, at(to)?))
}

/// A `--since` (`end` false) or `--until` (`end` true) bound, one rule
/// for every command: a calendar word (`named_span`) or a date
/// (`YYYY-MM-DD`, `YYYYMMDD`) is a day or span in `tz`, its start, or for
/// `--until` its end (the day is included); an RFC 3339 instant or a span
/// back from now (`30d`) is that moment.
pub fn parse_bound_in(s: &str, tz: &jiff::tz::TimeZone, end: bool) -> Result<Millis> {
    if let Some((from, to)) = named_span(s, now(), tz) {
        return Ok(if end { to } else { from });
    }
    if let Some(day) = calendar_date(s.trim()) {
        let day = if end {
            day.tomorrow().map_err(|e| anyhow::anyhow!("{s:?}: {e}"))?
        } else {
            day
        };
        let at = tz
            .to_timestamp(day.to_datetime(jiff::civil::Time::midnight()))
            .map_err(|e| anyhow::anyhow!("{s:?} in that time zone: {e}"))?;
        return Ok(at.as_millisecond());
    }
    parse_moment(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Calendar words in a zone: Sunday 2026-02-01 10:00 UTC is 11:00 in
    /// Paris; its week began Monday 26 January.
    #[test]
    fn calendar_words_name_spans_in_the_zone() {
        let now = parse_instant("2026-02-01T10:00:00Z").unwrap();
        let paris = jiff::tz::TimeZone::get("Europe/Paris").unwrap();
        let at = |s: &str| parse_instant(s).unwrap();
        let span = |w: &str| named_span(w, now, &paris).unwrap();
        assert_eq!(
            span("today"),
            (at("2026-01-31T23:00:00Z"), at("2026-02-01T23:00:00Z"))
        );
        assert_eq!(
            span("yesterday"),
            (at("2026-01-30T23:00:00Z"), at("2026-01-31T23:00:00Z"))
        );
        assert_eq!(
            span("this-week"),
            (at("2026-01-25T23:00:00Z"), at("2026-02-01T23:00:00Z"))
        );
        assert_eq!(
            span("last-week"),
            (at("2026-01-18T23:00:00Z"), at("2026-01-25T23:00:00Z"))
        );
        assert_eq!(
            span("this-month"),
            (at("2026-01-31T23:00:00Z"), at("2026-02-28T23:00:00Z"))
        );
        assert_eq!(
            span("last-month"),
            (at("2025-12-31T23:00:00Z"), at("2026-01-31T23:00:00Z"))
        );
        assert_eq!(named_span("someday", now, &paris), None);
    }

    #[test]
    fn parses_claude_code_shape() {
        assert_eq!(parse_instant("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(
            parse_instant("2025-09-03T00:47:19.293Z"),
            Some(1_756_860_439_293)
        );
    }

    #[test]
    fn precision_and_offsets_are_instants() {
        // `…00Z` and `…00.000Z` are the same instant; offsets shift.
        let a = parse_instant("2026-01-15T10:00:00Z").unwrap();
        assert_eq!(parse_instant("2026-01-15T10:00:00.000Z"), Some(a));
        assert_eq!(parse_instant("2026-01-15T10:00:00.000999Z"), Some(a));
        assert_eq!(parse_instant("2026-01-15T12:00:00+02:00"), Some(a));
        assert_eq!(parse_instant("2026-01-15T05:30:00-04:30"), Some(a));
        assert_eq!(parse_instant("2026-02-30T00:00:00Z"), None);
        assert_eq!(parse_instant("not a time"), None);
    }

    /// A date is a day in the zone, whichever form it takes; `--until`
    /// includes it; an instant is an instant wherever.
    #[test]
    fn bounds_are_days_in_the_zone() {
        let utc = jiff::tz::TimeZone::UTC;
        let tokyo = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap();
        let new_york = jiff::tz::TimeZone::get("America/New_York").unwrap();
        let at = |s: &str| parse_instant(s).unwrap();
        for date in ["2025-10-19", "20251019"] {
            assert_eq!(
                parse_bound_in(date, &utc, false).unwrap(),
                at("2025-10-19T00:00:00Z")
            );
            assert_eq!(
                parse_bound_in(date, &utc, true).unwrap(),
                at("2025-10-20T00:00:00Z")
            );
            assert_eq!(
                parse_bound_in(date, &tokyo, false).unwrap(),
                at("2025-10-18T15:00:00Z")
            );
            assert_eq!(
                parse_bound_in(date, &tokyo, true).unwrap(),
                at("2025-10-19T15:00:00Z")
            );
            assert_eq!(
                parse_bound_in(date, &new_york, false).unwrap(),
                at("2025-10-19T04:00:00Z")
            );
            assert_eq!(
                parse_bound_in(date, &new_york, true).unwrap(),
                at("2025-10-20T04:00:00Z")
            );
        }
        // A day that loses an hour is 23 hours long.
        assert_eq!(
            parse_bound_in("20250309", &new_york, true).unwrap()
                - parse_bound_in("20250309", &new_york, false).unwrap(),
            23 * 3_600_000
        );
        let instant = "2025-10-19T12:00:00Z";
        assert_eq!(parse_bound_in(instant, &tokyo, true).unwrap(), at(instant));
        assert!(parse_bound_in("2025-13-01", &utc, false).is_err());
        assert!(parse_bound_in("20251032", &utc, false).is_err());
        assert!(parse_bound_in("2025101", &utc, false).is_err());
    }

    /// The formatter as first written (format! over the civil date).
    fn reference(ms: Millis) -> String {
        let secs = ms.div_euclid(1000);
        let sod = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
            sod / 3600,
            (sod / 60) % 60,
            sod % 60,
            ms.rem_euclid(1000)
        )
    }

    proptest! {
        #[test]
        fn format_parse_roundtrip(ms in -62_135_596_800_000i64..253_402_300_799_999i64) {
            prop_assert_eq!(parse_instant(&format_instant(ms)), Some(ms));
        }

        #[test]
        fn digits_agree_with_the_formatter(ms in -80_000_000_000_000i64..300_000_000_000_000i64) {
            prop_assert_eq!(format_instant(ms), reference(ms));
        }

        /// Runs of nearby instants (the remembered day is reused, then
        /// replaced) format as each would alone.
        #[test]
        fn the_remembered_day_never_leaks(
            base in -1_000_000_000_000i64..300_000_000_000_000i64,
            steps in proptest::collection::vec(-2 * 86_400_000i64..2 * 86_400_000, 1..40),
        ) {
            let mut ms = base;
            for step in steps {
                ms += step;
                prop_assert_eq!(format_instant(ms), reference(ms));
            }
        }

        #[test]
        fn fast_path_agrees_with_jiff(ms in 0i64..4_102_444_800_000i64) {
            let s = format_instant(ms);
            let j: jiff::Timestamp = s.parse().unwrap();
            prop_assert_eq!(j.as_millisecond(), ms);
        }
    }
}
