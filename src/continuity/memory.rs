//! Memories: the kinds, the limits, the commitment state machine and the
//! demand score (DESIGN.md Decision 12; reference/study-3ngram-continuity.md
//! A2-A4, B3, B4; reference/study-memory-briefing-peers.md 2.6). Pure: the
//! store applies what this decides.

use std::collections::BTreeSet;

use anyhow::{Result, bail};
use sha2::{Digest, Sha256};

use crate::clock::Millis;

/// The one vocabulary of memory kinds (Decision 12).
pub const KINDS: [&str; 11] = [
    "constraint",
    "convention",
    "decision",
    "commitment",
    "blocker",
    "preference",
    "fact",
    "pattern",
    "finding",
    "note",
    "stage",
];

/// Input limits (study C: MAX_TOPIC_LENGTH, MAX_CONTENT_LENGTH, MAX_TAGS,
/// MAX_TAG_LENGTH; the description is the one line a briefing index shows).
pub const MAX_TOPIC: usize = 256;
pub const MAX_DESCRIPTION: usize = 160;
pub const MAX_CONTENT: usize = 2000;
pub const MAX_TAGS: usize = 32;
pub const MAX_TAG: usize = 64;
pub const MAX_PROJECT: usize = 256;
pub const MAX_SCOPE: usize = 64;

/// The scope a memory gets when none is named.
pub const DEFAULT_SCOPE: &str = "project";

pub fn check_kind(kind: &str) -> Result<&'static str> {
    match KINDS.iter().find(|k| **k == kind) {
        Some(k) => Ok(k),
        None => bail!("unknown kind {kind:?}; kinds: {}", KINDS.join(", ")),
    }
}

/// A trimmed, non-empty text of at most `max` characters (never truncated).
pub fn check_text(what: &str, value: &str, max: usize) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        bail!("{what} is empty");
    }
    let n = v.chars().count();
    if n > max {
        bail!(
            "{what} is {n} characters; the limit is {max} (nothing was written: shorten it, or split it into memories yourself)"
        );
    }
    Ok(v.to_string())
}

/// Tags: each trimmed and non-empty, at most `MAX_TAG` characters, at most
/// `MAX_TAGS` of them; duplicates collapse; sorted, so equal sets compare equal.
pub fn check_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut out = BTreeSet::new();
    for t in tags {
        out.insert(check_text("a tag", t, MAX_TAG)?);
    }
    if out.len() > MAX_TAGS {
        bail!("{} tags; the limit is {MAX_TAGS}", out.len());
    }
    Ok(out.into_iter().collect())
}

/// A scope: lowercase letters, digits and single hyphens (kebab-case).
pub fn check_scope(scope: &str) -> Result<String> {
    let s = check_text("the scope", scope, MAX_SCOPE)?;
    let kebab = s.split('-').all(|part| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    if !kebab {
        bail!("scope {s:?} is not kebab-case (lowercase letters, digits, single hyphens)");
    }
    Ok(s)
}

/// The content hash: sha256 of the trimmed content, hex.
pub fn content_hash(content: &str) -> String {
    Sha256::digest(content.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Words for the near-duplicate rule: runs of letters and digits, lowercased
/// (numbers count: "PostgreSQL 16" is not "PostgreSQL 17").
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A likely duplicate shares this share of words (Jaccard similarity of the
/// word sets of topic and content) with a live memory of the same kind and
/// project, or has the same topic (case-insensitive).
pub const NEAR_DUPLICATE: f64 = 0.8;

/// Jaccard similarity of two word sets.
pub fn similarity(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// The verbs that settle a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    Resolve,
    Unresolve,
    Archive,
}

/// What settling a memory does (study B3, B4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettlePlan {
    /// A commitment moves to this status (`commitment_transition` decides
    /// whether that is legal, a no-op, or which event it writes).
    Commitment(&'static str),
    /// The memory is archived (a no-op when it already is).
    Archive,
}

/// Which verb applies to which memory: every verb moves a commitment
/// (resolve → resolved, unresolve → open, archive → expired); otherwise
/// archive applies to any kind, resolve only to a blocker (which it
/// archives), and unresolve to none.
pub fn settle_plan(verb: Settle, kind: &str, is_commitment: bool) -> Result<SettlePlan> {
    if is_commitment {
        return Ok(SettlePlan::Commitment(match verb {
            Settle::Resolve => "resolved",
            Settle::Unresolve => "open",
            Settle::Archive => "expired",
        }));
    }
    match (verb, kind) {
        (Settle::Resolve, "blocker") | (Settle::Archive, _) => Ok(SettlePlan::Archive),
        (Settle::Resolve, kind) => {
            bail!("resolve applies to commitments and blockers, not a {kind}: use archive")
        }
        (Settle::Unresolve, kind) => bail!("unresolve applies to commitments, not a {kind}"),
    }
}

/// Commitment statuses (study B3).
pub const COMMITMENT_STATUSES: [&str; 4] = ["open", "waiting", "resolved", "expired"];

/// What a commitment transition does: the audit event it writes, or nothing
/// (already there), or an error (illegal), per study B3. The event kind is
/// decided by the target: open → unresolve, waiting → revise, resolved →
/// resolve, expired → archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    NoOp,
    Event(&'static str),
}

pub fn commitment_transition(from: &str, to: &str) -> Result<Transition> {
    if !COMMITMENT_STATUSES.contains(&to) {
        bail!(
            "unknown commitment status {to:?}; statuses: {}",
            COMMITMENT_STATUSES.join(", ")
        );
    }
    if from == to {
        return Ok(Transition::NoOp);
    }
    let legal = matches!(
        (from, to),
        ("open", "waiting" | "resolved" | "expired")
            | ("waiting", "open" | "resolved" | "expired")
            | ("resolved" | "expired", "open")
    );
    if !legal {
        bail!(
            "a commitment cannot go from {from} to {to} (legal: open -> waiting|resolved|expired, waiting -> open|resolved|expired, resolved|expired -> open)"
        );
    }
    Ok(Transition::Event(match to {
        "open" => "unresolve",
        "waiting" => "revise",
        "resolved" => "resolve",
        _ => "archive",
    }))
}

/// Demand weights (reference/study-memory-briefing-peers.md 2.6): an explicit
/// read 3, a recall hit 1.5, a prompt match 1, a briefing injection 0 (exposure
/// is not demand).
pub fn demand_weight(kind: &str) -> f64 {
    match kind {
        "show" => 3.0,
        "recall" => 1.5,
        "prompt" => 1.0,
        _ => 0.0,
    }
}

/// The half-life of demand.
pub const HALF_LIFE_MS: f64 = 14.0 * 86_400_000.0;

/// `raw` as of `at`, decayed to `now`.
pub fn decay(raw: f64, at: Millis, now: Millis) -> f64 {
    let age = (now - at).max(0) as f64;
    raw * (-age / HALF_LIFE_MS).exp2()
}

/// The utility of a decayed raw demand: raw / (raw + 4), 0.5 at raw = 4.
pub fn utility(raw: f64) -> f64 {
    raw / (raw + 4.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every verb on every kind: the plan, or why not (study B3, B4).
    #[test]
    fn which_verb_applies_to_which_memory() {
        use Settle::*;
        for (verb, to) in [
            (Resolve, "resolved"),
            (Unresolve, "open"),
            (Archive, "expired"),
        ] {
            assert_eq!(
                settle_plan(verb, "commitment", true).unwrap(),
                SettlePlan::Commitment(to)
            );
        }
        for kind in [
            "note",
            "decision",
            "constraint",
            "blocker",
            "finding",
            "stage",
        ] {
            assert_eq!(
                settle_plan(Archive, kind, false).unwrap(),
                SettlePlan::Archive
            );
            assert_eq!(
                settle_plan(Unresolve, kind, false).unwrap_err().to_string(),
                format!("unresolve applies to commitments, not a {kind}")
            );
        }
        assert_eq!(
            settle_plan(Resolve, "blocker", false).unwrap(),
            SettlePlan::Archive
        );
        assert_eq!(
            settle_plan(Resolve, "note", false).unwrap_err().to_string(),
            "resolve applies to commitments and blockers, not a note: use archive"
        );
    }

    /// Issue 15: `remember --due 3é` panicked (a byte slice inside a
    /// character); a span past the end of time panicked on overflow.
    #[test]
    fn due_dates_refuse_what_they_cannot_read() {
        assert_eq!(parse_due("3d", 0).unwrap(), 3 * 86_400_000);
        assert_eq!(parse_due("2w", 5).unwrap(), 5 + 14 * 86_400_000);
        for bad in [
            "3é",
            "é",
            "",
            "d",
            "-3d",
            "3x",
            "99999999999999999w",
            "1.5h",
        ] {
            let e = parse_due(bad, 0).unwrap_err().to_string();
            assert!(e.contains("is not a due date"), "{bad}: {e}");
        }
    }

    #[test]
    fn every_cell_of_the_commitment_table() {
        use Transition::*;
        // Study B3, row by row: (from, to, result).
        let table: [(&str, &str, Option<Transition>); 16] = [
            ("open", "open", Some(NoOp)),
            ("open", "waiting", Some(Event("revise"))),
            ("open", "resolved", Some(Event("resolve"))),
            ("open", "expired", Some(Event("archive"))),
            ("waiting", "open", Some(Event("unresolve"))),
            ("waiting", "waiting", Some(NoOp)),
            ("waiting", "resolved", Some(Event("resolve"))),
            ("waiting", "expired", Some(Event("archive"))),
            ("resolved", "open", Some(Event("unresolve"))),
            ("resolved", "waiting", None),
            ("resolved", "resolved", Some(NoOp)),
            ("resolved", "expired", None),
            ("expired", "open", Some(Event("unresolve"))),
            ("expired", "waiting", None),
            ("expired", "resolved", None),
            ("expired", "expired", Some(NoOp)),
        ];
        for (from, to, want) in table {
            assert_eq!(commitment_transition(from, to).ok(), want, "{from} -> {to}");
        }
        assert!(commitment_transition("open", "done").is_err());
    }

    #[test]
    fn limits_at_the_boundary_and_one_past() {
        assert!(check_text("the topic", &"t".repeat(MAX_TOPIC), MAX_TOPIC).is_ok());
        let e = check_text("the topic", &"t".repeat(MAX_TOPIC + 1), MAX_TOPIC).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the topic is 257 characters; the limit is 256"),
            "{e}"
        );
        // Characters, not bytes.
        assert!(check_text("the content", &"é".repeat(MAX_CONTENT), MAX_CONTENT).is_ok());
        assert!(check_text("the content", &"é".repeat(MAX_CONTENT + 1), MAX_CONTENT).is_err());
        assert!(check_text("the topic", "   ", MAX_TOPIC).is_err());
        let tags: Vec<String> = (0..MAX_TAGS).map(|i| format!("t{i}")).collect();
        assert_eq!(check_tags(&tags).unwrap().len(), 32);
        let more: Vec<String> = (0..=MAX_TAGS).map(|i| format!("t{i}")).collect();
        assert!(
            check_tags(&more)
                .unwrap_err()
                .to_string()
                .contains("33 tags; the limit is 32")
        );
        assert!(check_tags(&["x".repeat(MAX_TAG)]).is_ok());
        assert!(check_tags(&["x".repeat(MAX_TAG + 1)]).is_err());
        assert_eq!(
            check_tags(&[" b ".into(), "a".into(), "b".into()]).unwrap(),
            ["a", "b"]
        );
        assert_eq!(check_scope("team-auth").unwrap(), "team-auth");
        assert!(
            check_scope("Team").is_err()
                && check_scope("a--b").is_err()
                && check_scope("-a").is_err()
        );
    }

    #[test]
    fn near_duplicates_by_shared_words() {
        let a = words("Use PostgreSQL 16 for the orders service database");
        let b = words("use postgresql 16 for the orders service database!");
        assert!((similarity(&a, &b) - 1.0).abs() < 1e-9);
        let c = words("Use SQLite for the local cache of the CLI");
        assert!(similarity(&a, &c) < NEAR_DUPLICATE);
    }

    #[test]
    fn demand_decays_with_a_fourteen_day_half_life() {
        let day = 86_400_000;
        assert!((decay(8.0, 0, 14 * day) - 4.0).abs() < 1e-9);
        assert!((utility(4.0) - 0.5).abs() < 1e-12);
        assert_eq!(decay(3.0, 10, 5), 3.0, "no growth from a clock behind");
    }
}

/// A memory as a person or an agent gives it, before checking.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    pub kind: String,
    pub topic: String,
    pub description: Option<String>,
    pub content: String,
    pub project: String,
    pub scope: Option<String>,
    pub tags: Vec<String>,
    pub pinned: bool,
    pub due_at: Option<Millis>,
    pub owner: Option<String>,
}

impl Draft {
    /// The draft with secrets taken out of its topic, description, content,
    /// tags and owner (`crate::redact`; the setting `memory.redaction` turns
    /// this off).
    pub fn redacted(mut self) -> Draft {
        let r = |s: &mut String| {
            if let std::borrow::Cow::Owned(v) = crate::redact::redact_text(s) {
                *s = v;
            }
        };
        r(&mut self.topic);
        r(&mut self.content);
        if let Some(d) = self.description.as_mut() {
            r(d);
        }
        if let Some(o) = self.owner.as_mut() {
            r(o);
        }
        self.tags.iter_mut().for_each(r);
        self
    }
}

/// A memory to write, validated by `check` (the store writes it as is).
#[derive(Debug, Clone, Default)]
pub struct NewMemory {
    pub kind: String,
    pub topic: String,
    pub description: Option<String>,
    pub content: String,
    pub project: String,
    pub scope: String,
    pub tags: Vec<String>,
    pub pinned: bool,
    pub due_at: Option<Millis>,
    pub owner: Option<String>,
}

/// Checks every field against the kinds and limits; errors name the limit.
pub fn check(d: &Draft) -> Result<NewMemory> {
    let kind = check_kind(d.kind.trim())?;
    if kind != "commitment" && (d.due_at.is_some() || d.owner.is_some()) {
        bail!("--due and --owner apply to commitments only, not a {kind}");
    }
    let project = check_text("the project", &d.project, MAX_PROJECT)?;
    if project == "unknown" {
        bail!("\"unknown\" is not a project name: pass --project");
    }
    Ok(NewMemory {
        kind: kind.to_string(),
        topic: check_text("the topic", &d.topic, MAX_TOPIC)?,
        description: d
            .description
            .as_deref()
            .map(|v| check_text("the description", v, MAX_DESCRIPTION))
            .transpose()?,
        content: check_text("the content", &d.content, MAX_CONTENT)?,
        project,
        scope: check_scope(d.scope.as_deref().unwrap_or(DEFAULT_SCOPE))?,
        tags: check_tags(&d.tags)?,
        pinned: d.pinned,
        due_at: d.due_at,
        owner: d
            .owner
            .as_deref()
            .map(|o| check_text("the owner", o, MAX_TOPIC))
            .transpose()?,
    })
}

/// A due date: RFC 3339, a date (UTC midnight), or a span ahead (3d, 12h, 2w).
pub fn parse_due(s: &str, now: Millis) -> Result<Millis> {
    let s = s.trim();
    if let Some(v) = crate::clock::parse_instant(s) {
        return Ok(v);
    }
    if s.len() == 10
        && let Some(v) = crate::clock::parse_instant(&format!("{s}T00:00:00Z"))
    {
        return Ok(v);
    }
    let (num, per) = match s.char_indices().last() {
        Some((i, 'm')) => (&s[..i], 60_000),
        Some((i, 'h')) => (&s[..i], 3_600_000),
        Some((i, 'd')) => (&s[..i], 86_400_000),
        Some((i, 'w')) => (&s[..i], 7 * 86_400_000),
        _ => ("", 0),
    };
    let ahead = num
        .parse::<i64>()
        .ok()
        .filter(|n| per > 0 && *n >= 0)
        .and_then(|n| n.checked_mul(per))
        .and_then(|ms| now.checked_add(ms));
    match ahead {
        Some(v) => Ok(v),
        None => bail!(
            "{s:?} is not a due date: use RFC 3339 (2026-01-31T12:00:00Z), a date (2026-01-31) or a span ahead (3d, 12h, 2w)"
        ),
    }
}
