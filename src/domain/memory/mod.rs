//! Memories: the kinds, the limits, the commitment state machine and the
//! demand score. Pure: the
//! store applies what this decides.

use std::collections::BTreeSet;

use anyhow::{Result, bail};
use sha2::{Digest, Sha256};

use crate::domain::clock::Millis;

pub mod duplicate;
pub mod export;
mod model;

pub use model::*;

vocabulary!(
    /// The one vocabulary of memory kinds.
    Kind, "kind", "kinds" {
        Constraint = "constraint",
        Convention = "convention",
        Decision = "decision",
        Commitment = "commitment",
        Blocker = "blocker",
        Preference = "preference",
        Fact = "fact",
        Pattern = "pattern",
        Finding = "finding",
        Note = "note",
        Stage = "stage",
    }
);

vocabulary!(
    /// Whether a memory is in force (a superseded one is told by its
    /// `valid_to`, not its status).
    MemoryStatus, "memory status", "memory statuses" {
        Active = "active",
        Archived = "archived",
    }
);

vocabulary!(
    /// Commitment statuses.
    CommitmentStatus, "commitment status", "commitment statuses" {
        Open = "open",
        Waiting = "waiting",
        Resolved = "resolved",
        Expired = "expired",
    }
);

vocabulary!(
    /// What an audit event records: the verb that wrote it.
    EventKind, "event kind", "event kinds" {
        Create = "create",
        Supersede = "supersede",
        Revise = "revise",
        Resolve = "resolve",
        Unresolve = "unresolve",
        Archive = "archive",
        Redact = "redact",
    }
);

vocabulary!(
    /// What a demand record counts.
    Demand, "demand", "demands" {
        Show = "show",
        Recall = "recall",
        Prompt = "prompt",
        Briefing = "briefing",
    }
);

/// Input limits.
pub const MAX_TOPIC: usize = 256;
pub const MAX_DESCRIPTION: usize = 160;
pub const MAX_CONTENT: usize = 2000;
pub const MAX_TAGS: usize = 32;
pub const MAX_TAG: usize = 64;
pub const MAX_PROJECT: usize = 256;
pub const MAX_SCOPE: usize = 64;

/// The scope a memory gets when none is named.
pub const DEFAULT_SCOPE: &str = "project";

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

/// The verbs that settle a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    Resolve,
    Unresolve,
    Archive,
}

/// What settling a memory does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettlePlan {
    /// A commitment moves to this status (`commitment_transition` decides
    /// whether that is legal, a no-op, or which event it writes).
    Commitment(CommitmentStatus),
    /// The memory is archived (a no-op when it already is).
    Archive,
}

/// Which verb applies to which memory: every verb moves a commitment
/// (resolve → resolved, unresolve → open, archive → expired); otherwise
/// archive applies to any kind, resolve only to a blocker (which it
/// archives), and unresolve to none.
pub fn settle_plan(verb: Settle, kind: Kind) -> Result<SettlePlan> {
    use CommitmentStatus as C;
    match (verb, kind) {
        (Settle::Resolve, Kind::Commitment) => Ok(SettlePlan::Commitment(C::Resolved)),
        (Settle::Unresolve, Kind::Commitment) => Ok(SettlePlan::Commitment(C::Open)),
        (Settle::Archive, Kind::Commitment) => Ok(SettlePlan::Commitment(C::Expired)),
        (Settle::Resolve, Kind::Blocker) | (Settle::Archive, _) => Ok(SettlePlan::Archive),
        (Settle::Resolve, kind) => {
            bail!("resolve applies to commitments and blockers, not a {kind}: use archive")
        }
        (Settle::Unresolve, kind) => bail!("unresolve applies to commitments, not a {kind}"),
    }
}

/// What a commitment transition does: the audit event it writes, or nothing
/// (already there), or an error (illegal), per the commitment state machine. The event kind is
/// decided by the target: open → unresolve, waiting → revise, resolved →
/// resolve, expired → archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    NoOp,
    Event(EventKind),
}

pub fn commitment_transition(from: CommitmentStatus, to: CommitmentStatus) -> Result<Transition> {
    use CommitmentStatus::*;
    if from == to {
        return Ok(Transition::NoOp);
    }
    let legal = matches!(
        (from, to),
        (Open, Waiting | Resolved | Expired)
            | (Waiting, Open | Resolved | Expired)
            | (Resolved | Expired, Open)
    );
    if !legal {
        bail!(
            "a commitment cannot go from {from} to {to} (legal: open -> waiting|resolved|expired, waiting -> open|resolved|expired, resolved|expired -> open)"
        );
    }
    Ok(Transition::Event(match to {
        Open => EventKind::Unresolve,
        Waiting => EventKind::Revise,
        Resolved => EventKind::Resolve,
        Expired => EventKind::Archive,
    }))
}

/// The status `revise --status` may move a commitment to: open or waiting
/// (resolving, reopening and expiring are verbs of their own).
pub fn revise_status(to: CommitmentStatus) -> Result<CommitmentStatus> {
    match to {
        CommitmentStatus::Open | CommitmentStatus::Waiting => Ok(to),
        _ => bail!(
            "revise --status moves a commitment between open and waiting; use resolve, unresolve or archive for {to}"
        ),
    }
}

/// Demand weights: an explicit
/// read 3, a recall hit 1.5, a prompt match 1, a briefing injection 0 (exposure
/// is not demand).
pub fn demand_weight(kind: Demand) -> f64 {
    match kind {
        Demand::Show => 3.0,
        Demand::Recall => 1.5,
        Demand::Prompt => 1.0,
        Demand::Briefing => 0.0,
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

    /// Every verb on every kind: the plan, or why not.
    #[test]
    fn which_verb_applies_to_which_memory() {
        use Settle::*;
        for (verb, to) in [
            (Resolve, CommitmentStatus::Resolved),
            (Unresolve, CommitmentStatus::Open),
            (Archive, CommitmentStatus::Expired),
        ] {
            assert_eq!(
                settle_plan(verb, Kind::Commitment).unwrap(),
                SettlePlan::Commitment(to)
            );
        }
        for &kind in Kind::ALL.iter().filter(|k| **k != Kind::Commitment) {
            assert_eq!(settle_plan(Archive, kind).unwrap(), SettlePlan::Archive);
            assert_eq!(
                settle_plan(Unresolve, kind).unwrap_err().to_string(),
                format!("unresolve applies to commitments, not a {kind}")
            );
            if kind == Kind::Blocker {
                assert_eq!(settle_plan(Resolve, kind).unwrap(), SettlePlan::Archive);
            } else {
                assert_eq!(
                    settle_plan(Resolve, kind).unwrap_err().to_string(),
                    format!(
                        "resolve applies to commitments and blockers, not a {kind}: use archive"
                    )
                );
            }
        }
    }

    /// Each vocabulary reads back what it writes, and refuses the rest
    /// naming every value.
    #[test]
    fn vocabularies_round_trip_and_name_their_values() {
        for &k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()).unwrap(), k);
        }
        assert_eq!(Kind::ALL.len(), 11);
        assert_eq!(
            Kind::parse("todo").unwrap_err().to_string(),
            "unknown kind \"todo\"; kinds: constraint, convention, decision, commitment, blocker, preference, fact, pattern, finding, note, stage"
        );
        assert_eq!(
            CommitmentStatus::parse("done").unwrap_err().to_string(),
            "unknown commitment status \"done\"; commitment statuses: open, waiting, resolved, expired"
        );
        for &e in EventKind::ALL {
            assert_eq!(EventKind::parse(e.as_str()).unwrap(), e);
        }
        assert_eq!(demand_weight(Demand::parse("briefing").unwrap()), 0.0);
    }

    /// `remember --due 3é` panicked (a byte slice inside a
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
        use CommitmentStatus::*;
        use EventKind as E;
        use Transition::*;
        // The commitment's transition table, row by row: (from, to, result).
        let table: [(CommitmentStatus, CommitmentStatus, Option<Transition>); 16] = [
            (Open, Open, Some(NoOp)),
            (Open, Waiting, Some(Event(E::Revise))),
            (Open, Resolved, Some(Event(E::Resolve))),
            (Open, Expired, Some(Event(E::Archive))),
            (Waiting, Open, Some(Event(E::Unresolve))),
            (Waiting, Waiting, Some(NoOp)),
            (Waiting, Resolved, Some(Event(E::Resolve))),
            (Waiting, Expired, Some(Event(E::Archive))),
            (Resolved, Open, Some(Event(E::Unresolve))),
            (Resolved, Waiting, None),
            (Resolved, Resolved, Some(NoOp)),
            (Resolved, Expired, None),
            (Expired, Open, Some(Event(E::Unresolve))),
            (Expired, Waiting, None),
            (Expired, Resolved, None),
            (Expired, Expired, Some(NoOp)),
        ];
        for (from, to, want) in table {
            assert_eq!(commitment_transition(from, to).ok(), want, "{from} -> {to}");
        }
        assert_eq!(
            commitment_transition(Resolved, Waiting)
                .unwrap_err()
                .to_string(),
            "a commitment cannot go from resolved to waiting (legal: open -> waiting|resolved|expired, waiting -> open|resolved|expired, resolved|expired -> open)"
        );
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
    /// tags and owner (`crate::domain::redact`; the setting `memory.redaction` turns
    /// this off).
    pub fn redacted(mut self) -> Draft {
        let r = |s: &mut String| {
            if let std::borrow::Cow::Owned(v) = crate::domain::redact::redact_text(s) {
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
#[derive(Debug, Clone)]
pub struct NewMemory {
    pub kind: Kind,
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
    let kind = Kind::parse(d.kind.trim())?;
    if kind != Kind::Commitment && (d.due_at.is_some() || d.owner.is_some()) {
        bail!("--due and --owner apply to commitments only, not a {kind}");
    }
    let project = check_text("the project", &d.project, MAX_PROJECT)?;
    if project == "unknown" {
        bail!("\"unknown\" is not a project name: pass --project");
    }
    Ok(NewMemory {
        kind,
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
    if let Some(v) = crate::domain::clock::parse_instant(s) {
        return Ok(v);
    }
    if s.len() == 10
        && let Some(v) = crate::domain::clock::parse_instant(&format!("{s}T00:00:00Z"))
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
