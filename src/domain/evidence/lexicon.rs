//! The closer's word lists: what finished work, looking, a veto, a reversal
//! and a contrast sound like, and the headings that file a line under done
//! or open. Each list is matched against stemmed words (`matching`).

/// Words that state a thing done, as written (not stemmed: *fix* is a
/// plan, *fixed* a fact).
pub(super) const DONE: &[&str] = &[
    "added",
    "addressed",
    "built",
    "bumped",
    "cleaned",
    "closed",
    "complete",
    "completed",
    "configured",
    "converted",
    "created",
    "delivered",
    "deleted",
    "deployed",
    "disabled",
    "documented",
    "done",
    "enabled",
    "extracted",
    "finished",
    "fixed",
    "green",
    "handled",
    "implemented",
    "introduced",
    "landed",
    "live",
    "merged",
    "migrated",
    "moved",
    "passes",
    "passing",
    "published",
    "refactored",
    "released",
    "removed",
    "renamed",
    "replaced",
    "resolved",
    "restored",
    "rewritten",
    "rewrote",
    "reworked",
    "shipped",
    "solved",
    "switched",
    "updated",
    "upgraded",
    "wired",
    "works",
    "wrote",
    "written",
];

/// Pairs that state it too: `<first> <second>` in a row.
pub(super) const DONE_PAIRS: &[(&str, &str)] = &[
    ("is", "in"),
    ("are", "in"),
    ("went", "in"),
    ("in", "place"),
    ("now", "works"),
    ("now", "passes"),
    ("checked", "off"),
];

/// Past-tense verbs that say something was looked at, wanted, talked
/// about or only begun (sketched, stubbed), not done.
pub(super) const LOOKED: &[&str] = &[
    "agreed",
    "analysed",
    "analyzed",
    "answered",
    "asked",
    "assumed",
    "attempted",
    "based",
    "called",
    "checked",
    "considered",
    "debugged",
    "decided",
    "described",
    "discussed",
    "drafted",
    "estimated",
    "examined",
    "expected",
    "explained",
    "explored",
    "found",
    "grepped",
    "hoped",
    "inspected",
    "intended",
    "investigated",
    "listed",
    "logged",
    "looked",
    "mentioned",
    "mocked",
    "named",
    "needed",
    "noted",
    "noticed",
    "opened",
    "outlined",
    "paused",
    "planned",
    "printed",
    "profiled",
    "proposed",
    "prototyped",
    "queued",
    "read",
    "related",
    "reported",
    "required",
    "reviewed",
    "scaffolded",
    "scheduled",
    "scoped",
    "searched",
    "seemed",
    "sketched",
    "started",
    "stubbed",
    "studied",
    "suggested",
    "summarized",
    "supposed",
    "touched",
    "traced",
    "tried",
    "used",
    "viewed",
    "wanted",
    "wondered",
];

/// Why a clause takes a statement back: the function its words serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Veto {
    /// A question (`fixed?`).
    Question,
    /// `not`, `never`, `didn't`, `can't`.
    Negation,
    /// `probably`, `should be`, `I think`: a guess, not a fact.
    Hedge,
    /// `will`, `next`, `TODO`, `going to`, `not yet`: work ahead.
    Plan,
    /// `partly`, `started`, `only for`, `for now`: some of it, or a
    /// stopgap.
    Scope,
    /// `failed`, `broken`, `skipped`, `untested`: it did not work, or no
    /// one knows.
    Failure,
    /// `reverted`, `rolled back`: done, then undone.
    Reversal,
    /// `if`, `unless`, `whether`: only on a condition.
    Condition,
    /// `ignore`, `pretend`, `mark … resolved`: an instruction or a claim,
    /// not a report.
    Instruction,
    /// `looking into`, `investigating`: work going on.
    Looking,
    /// A line under a heading of work to come (`## Next steps`), an
    /// unchecked box (`- [ ]`), or a failure mark (`❌`, `⚠`).
    Open,
}

/// Single words that take a statement back, by function. Matched as
/// written (lowercased); contractions are words (`won't`, `we'll`).
pub(super) const VETO_WORDS: &[(Veto, &[&str])] = &[
    (
        Veto::Negation,
        &[
            "ain't", "can't", "cannot", "never", "no", "nor", "not", "unable", "won't",
        ],
    ),
    (
        Veto::Hedge,
        &[
            "almost",
            "apparently",
            "appears",
            "could",
            "guess",
            "hopefully",
            "likely",
            "may",
            "maybe",
            "might",
            "mostly",
            "nearly",
            "perhaps",
            "presumably",
            "probably",
            "seems",
            "should",
            "supposedly",
            "would",
        ],
    ),
    (
        Veto::Plan,
        &[
            "deferred",
            "going",
            "gonna",
            "later",
            "next",
            "parked",
            "pending",
            "plan",
            "planned",
            "planning",
            "postponed",
            "punted",
            "remain",
            "remaining",
            "remains",
            "still",
            "todo",
            "tomorrow",
            "will",
            "once",
            "until",
        ],
    ),
    (
        Veto::Scope,
        &[
            "attempted",
            "began",
            "begin",
            "beginning",
            "begun",
            "except",
            "half",
            "halfway",
            "incomplete",
            "partial",
            "partially",
            "partly",
            "started",
            "starting",
            "stopgap",
            "tried",
            "trying",
            "unfinished",
            "wip",
        ],
    ),
    (
        Veto::Failure,
        &[
            "abandoned",
            "blocked",
            "blocker",
            "broke",
            "broken",
            "dropped",
            "failed",
            "failing",
            "fails",
            "skip",
            "skipped",
            "untested",
            "untouched",
        ],
    ),
    (
        Veto::Reversal,
        &[
            "backed",
            "revert",
            "reverted",
            "reverting",
            "rolled",
            "undid",
            "undo",
            "undone",
        ],
    ),
    (Veto::Condition, &["if", "unless", "whether"]),
    (
        Veto::Instruction,
        &[
            "claim",
            "everything",
            "ignore",
            "mark",
            "pretend",
            "resolve",
        ],
    ),
];

/// Forms of more than one word that take a statement back, by function:
/// each is a run of words in the clause.
pub(super) const VETO_PHRASES: &[(Veto, &[&str])] = &[
    (
        Veto::Hedge,
        &[
            "as far as i can tell",
            "as far as i know",
            "i believe",
            "i think",
            "in theory",
            "not sure",
            "ought to",
        ],
    ),
    (
        Veto::Plan,
        &[
            "about to",
            "follow up",
            "has to",
            "have to",
            "in progress",
            "left to",
            "need to",
            "needs to",
            "still to",
            "to be done",
            "yet to",
        ],
    ),
    (
        Veto::Scope,
        &[
            "another project",
            "another repo",
            "another repository",
            "different repo",
            "different repository",
            "first pass",
            "for now",
            "for the time being",
            "only for",
            "only in",
            "on my machine",
            "only locally",
            "only on",
            "other repo",
            "other repository",
            "separate repo",
            "separate repository",
            "some of",
        ],
    ),
];

/// A contraction's tail that takes a statement back: `didn't`, `we'll`.
pub(super) const VETO_ENDINGS: &[(Veto, &str)] = &[(Veto::Negation, "n't"), (Veto::Plan, "'ll")];

/// Words of looking and talking, as they go on: not doing.
pub(super) const LOOKING: &[&str] = &[
    "analysing",
    "analyzing",
    "checking",
    "considering",
    "debugging",
    "discussing",
    "examining",
    "exploring",
    "investigating",
    "let",
    "let's",
    "looking",
    "profiling",
    "reading",
    "reviewing",
    "studying",
    "tracing",
];

/// Words that undo what a sentence says was done: they take back the
/// whole sentence (`X was enabled, but we rolled it back`).
pub(super) fn reversal(word: &str) -> bool {
    VETO_WORDS
        .iter()
        .any(|(v, words)| *v == Veto::Reversal && words.contains(&word))
}

/// Words that name one of several exclusive things (an environment, a
/// platform, a side): a clause that names another of the group, and not
/// the commitment's, speaks of something else (`enabled in dev` is not
/// `enable in production`). Keys, as `matching` makes them.
pub(super) const CONTRASTS: &[&[&str]] = &[
    &["product", "develop", "stage", "staging"],
    &["io", "ios", "android"],
    &["frontend", "backend"],
    &["client", "server"],
    &["window", "linux", "maco", "macos"],
    &["mobil", "desktop"],
];

/// Headings whose lines are done, and whose lines are not.
pub(super) const DONE_HEADINGS: &[&str] = &[
    "done",
    "completed",
    "finished",
    "shipped",
    "changes",
    "fixed",
];
pub(super) const OPEN_HEADINGS: &[&str] = &[
    "todo",
    "problem",
    "problems",
    "next",
    "remaining",
    "open",
    "pending",
    "blocked",
    "later",
    "not",
    "follow-up",
    "follow-ups",
    "left",
];

/// Marks that put a line among the failures or warnings (`❌ build
/// broken`, `⚠️ untested on Windows`).
pub(super) const VETO_MARKS: &[&str] = &["❌", "⚠", "✗", "✘", "🚫"];

/// Participles that say the work itself was not done (negation) (a state of the
/// work, not of what it handles: `unauthenticated requests` is neither).
pub(super) const NOT_DONE: &[&str] = &[
    "unaddressed",
    "unapplied",
    "unchanged",
    "uncommitted",
    "undeployed",
    "unfixed",
    "unimplemented",
    "unmerged",
    "unpushed",
    "unreleased",
    "unresolved",
    "unreviewed",
    "unshipped",
    "unsolved",
    "unstarted",
    "unverified",
];

/// Words that end a topic's head and begin its setting (`cache product
/// listings in the BFF`).
pub(super) const PREPOSITIONS: &[&str] = &[
    "on", "in", "for", "of", "at", "from", "into", "within", "across", "under", "via", "inside",
];
