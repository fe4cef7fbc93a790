//! Runtime settings: the keys `sessionkit config` knows, their defaults, the
//! environment variable that overrides each, and how a value is checked.
//! Values live in the `settings` table; later features add their keys here.

use anyhow::{Result, bail};

use crate::store::Store;

/// The type a setting's value must parse as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A positive integer.
    Count,
    /// One of a fixed set of words.
    Choice(&'static [&'static str]),
    /// On or off: any word `parse_switch` reads, stored as `on` or `off`.
    Switch,
    /// Free text (a URL, a model name); empty means not set.
    Text,
}

/// One known setting.
#[derive(Debug, Clone)]
pub struct Setting {
    pub key: &'static str,
    pub env: &'static str,
    pub default: &'static str,
    pub kind: Kind,
    pub about: &'static str,
}

/// Every known key, sorted: these, and a briefing ceiling of its own for
/// each harness that declares one (`ceiling_of`).
pub fn all() -> &'static [Setting] {
    static ALL: std::sync::LazyLock<Vec<Setting>> = std::sync::LazyLock::new(|| {
        let mut all = FIXED.to_vec();
        all.extend(
            crate::domain::harness::all()
                .filter(|h| h.answers.own_ceiling)
                .map(ceiling_of),
        );
        all.sort_by_key(|s| s.key);
        all
    });
    &ALL
}

/// The shared briefing ceiling's default, which a harness's own starts at.
const MAX_BYTES: &str = "9000";

/// `briefing.max_bytes.<name>`: harness `h`'s briefing ceiling, never
/// above the most it takes whole (its declaration's `max_bytes`).
fn ceiling_of(h: crate::domain::harness::Harness) -> Setting {
    let grouped = |n: usize| crate::domain::text::group_digits(n as i128);
    let name = h.as_str();
    let most = match (h.answers.max_bytes, h.answers.max_bytes_why) {
        (Some(n), "") => format!(" (never above {})", grouped(n)),
        (Some(n), why) => format!(" (never above {}: {why})", grouped(n)),
        (None, _) => String::new(),
    };
    let upper = name.to_ascii_uppercase().replace('-', "_");
    Setting {
        key: ceiling_key(name).leak(),
        env: format!("SESSIONKIT_BRIEFING_MAX_BYTES_{upper}").leak(),
        default: MAX_BYTES,
        kind: Kind::Count,
        about: format!("byte ceiling of a briefing injected into {}{most}", h.label).leak(),
    }
}

/// The key of harness `name`'s own briefing ceiling.
pub fn ceiling_key(name: &str) -> String {
    format!("briefing.max_bytes.{name}")
}

/// The settings that name no harness, sorted.
const FIXED: &[Setting] = &[
    Setting {
        key: "briefing.budget_tokens",
        env: "SESSIONKIT_BRIEFING_BUDGET_TOKENS",
        default: "1500",
        kind: Kind::Count,
        about: "token budget of a session-start briefing",
    },
    Setting {
        key: "briefing.max_bytes",
        env: "SESSIONKIT_BRIEFING_MAX_BYTES",
        default: MAX_BYTES,
        kind: Kind::Count,
        about: "hard byte ceiling of a briefing (a harness with a setting of its own reads that instead)",
    },
    Setting {
        key: "briefing.utility",
        env: "SESSIONKIT_BRIEFING_UTILITY",
        default: "auto",
        kind: Kind::Choice(&["auto", "on", "off"]),
        about: "rank the briefing index by demand as well as recency: auto (once a project has the history), on, off",
    },
    Setting {
        key: "closer.api",
        env: "SESSIONKIT_CLOSER_API",
        default: "openai",
        kind: Kind::Choice(&["openai", "anthropic"]),
        about: "the endpoint judge's wire format: openai (POST /v1/chat/completions) or anthropic (POST /v1/messages)",
    },
    Setting {
        key: "closer.enabled",
        env: "SESSIONKIT_CLOSER",
        default: "off",
        kind: Kind::Switch,
        about: "let `sweep` resolve the commitments a finished run completed (the evidence judge: only on a quoted sentence of the run's own words), reversibly with `unresolve`: on or off",
    },
    Setting {
        key: "closer.endpoint",
        env: "SESSIONKIT_CLOSER_ENDPOINT",
        default: "",
        kind: Kind::Text,
        about: "the endpoint judge's base URL (e.g. https://api.openai.com); the key comes from SESSIONKIT_CLOSER_API_KEY, never the database",
    },
    Setting {
        key: "closer.judge",
        env: "SESSIONKIT_CLOSER_JUDGE",
        default: "evidence",
        kind: Kind::Choice(&["evidence", "endpoint"]),
        about: "who decides what a finished run completed: evidence (offline: only a quoted sentence of the run's own words) or endpoint (a model over HTTP)",
    },
    Setting {
        key: "closer.max_daily_usd",
        env: "SESSIONKIT_CLOSER_MAX_DAILY_USD",
        default: "1",
        kind: Kind::Count,
        about: "dollars the endpoint judge may spend per UTC day; checked before every call",
    },
    Setting {
        key: "closer.model",
        env: "SESSIONKIT_CLOSER_MODEL",
        default: "",
        kind: Kind::Text,
        about: "the endpoint judge's model (priced from the price table)",
    },
    Setting {
        key: "closer.timeout_seconds",
        env: "SESSIONKIT_CLOSER_TIMEOUT_SECONDS",
        default: "30",
        kind: Kind::Count,
        about: "seconds one endpoint call may take (two retries after a timeout or a 5xx)",
    },
    Setting {
        key: "ingest.bulk_bytes",
        env: "SESSIONKIT_BULK_BYTES",
        default: "67108864",
        kind: Kind::Count,
        about: "bytes to read above which ingest runs in bulk mode (message index rebuilt once at the end)",
    },
    Setting {
        key: "ingest.hook_max_bytes",
        env: "SESSIONKIT_INGEST_HOOK_MAX_BYTES",
        default: "67108864",
        kind: Kind::Count,
        about: "most new transcript bytes a SessionEnd hook reads to keep reports current; more is left for the next `ingest` (status says so)",
    },
    Setting {
        key: "ingest.max_file_size",
        env: "SESSIONKIT_MAX_FILE_SIZE",
        default: "67108864",
        kind: Kind::Count,
        about: "older name of ingest.max_line_size, honoured when that is not set (files themselves have no cap)",
    },
    // 64 MiB: peers cap a file there; real
    // sessions pass it, so the cap moved to the line.
    Setting {
        key: "ingest.max_line_size",
        env: "SESSIONKIT_MAX_LINE_SIZE",
        default: "67108864",
        kind: Kind::Count,
        about: "bytes above which a transcript line is a degraded line, not read (ingest --max-line-size)",
    },
    Setting {
        key: "ingest.part_bytes",
        env: "SESSIONKIT_PART_BYTES",
        default: "268435456",
        kind: Kind::Count,
        about: "bytes of one session read before they are written as one part (a transaction); bounds ingest's memory on a session of any size",
    },
    Setting {
        key: "ingest.stop_max_bytes",
        env: "SESSIONKIT_INGEST_STOP_MAX_BYTES",
        default: "262144",
        kind: Kind::Count,
        about: "most new transcript bytes a Stop hook reads to keep reports current within a conversation (more waits for SessionEnd or `ingest`)",
    },
    Setting {
        key: "lease.hours",
        env: "SESSIONKIT_LEASE_HOURS",
        default: "24",
        kind: Kind::Count,
        about: "hours an agent run stays live without a heartbeat",
    },
    Setting {
        key: "match.aliases",
        env: "SESSIONKIT_MATCH_ALIASES",
        default: "",
        kind: Kind::Text,
        about: "more words that mean one another, for recall and the closer's evidence judge (built in: docs/documentation, db/database, config/settings, ...): groups separated by ;, words by = or , (k8s=kubernetes; flaky,intermittent)",
    },
    Setting {
        key: "memory.redaction",
        env: "SESSIONKIT_MEMORY_REDACTION",
        default: "on",
        kind: Kind::Switch,
        about: "take secrets out of a memory's topic, description, content and tags before it is written",
    },
    Setting {
        key: "nudge.enabled",
        env: "SESSIONKIT_STOP_NUDGE",
        default: "off",
        kind: Kind::Switch,
        about: "at the end of a substantial turn, ask the agent once to debrief (record decisions and commitments, resolve what it finished): on or off",
    },
    Setting {
        key: "push.machine",
        env: "SESSIONKIT_PUSH_MACHINE",
        default: "",
        kind: Kind::Text,
        about: "the label `push` gives this machine in the team database (default: its host name)",
    },
    Setting {
        key: "push.url",
        env: "SESSIONKIT_PG_URL",
        default: "",
        kind: Kind::Text,
        about: "the PostgreSQL database `push` writes into (postgres://user@host:port/db); the password comes from PGPASSWORD or the URL given on the command line, never the database",
    },
    Setting {
        key: "push.user",
        env: "SESSIONKIT_PUSH_USER",
        default: "",
        kind: Kind::Text,
        about: "a person's label `push` gives this store's messages in the team database, for `cost --by user` (default: none)",
    },
    Setting {
        key: "push.wait_seconds",
        env: "SESSIONKIT_PUSH_WAIT_SECONDS",
        default: "30",
        kind: Kind::Count,
        about: "seconds the team database may take to answer one step of a push (logging in, preparing its tables, writing one session); a server that answers nothing for that long fails the push, whose sent sessions stay sent",
    },
    Setting {
        key: "search.index",
        env: "SESSIONKIT_SEARCH_INDEX",
        default: "lazy",
        kind: Kind::Choice(&["lazy", "on", "off"]),
        about: "when what agents and users said is indexed for `sessionkit search` (prompts, answers, tool calls): lazy (the first search indexes every session, ingest keeps it current after), on (ingest indexes as it reads), off (never)",
    },
    Setting {
        key: "search.tool_outputs",
        env: "SESSIONKIT_SEARCH_TOOL_OUTPUTS",
        default: "off",
        kind: Kind::Switch,
        about: "the search index also holds tools' outputs (most of a transcript's bytes; a repeated output is kept once); takes effect for what is ingested next, `replay` for the rest",
    },
    Setting {
        key: "spool.max_bytes",
        env: "SESSIONKIT_SPOOL_MAX_BYTES",
        default: "67108864",
        kind: Kind::Count,
        about: "most bytes the hook spool beside the database may hold (events wait there while the database is busy); an event past it is dropped and counted, and status and check say so",
    },
    Setting {
        key: "sweep.catch_up_bytes",
        env: "SESSIONKIT_SWEEP_CATCH_UP_BYTES",
        default: "67108864",
        kind: Kind::Count,
        about: "most new transcript bytes one `sweep` reads to catch up sessions still open (their run is, or only hooks have seen them: a client that died without an end event); more waits for the next pass or `ingest`",
    },
    Setting {
        key: "sweep.grace_minutes",
        env: "SESSIONKIT_SWEEP_GRACE_MINUTES",
        default: "60",
        kind: Kind::Count,
        about: "minutes past the lease before sweep closes a silent run (an implicit close)",
    },
    Setting {
        key: "sweep.history_hours",
        env: "SESSIONKIT_SWEEP_HISTORY_HOURS",
        default: "24",
        kind: Kind::Count,
        about: "hours of silence after which sweep settles an agent without listing it (history, not news)",
    },
    Setting {
        key: "sweep.push_seconds",
        env: "SESSIONKIT_SWEEP_PUSH_SECONDS",
        default: "30",
        kind: Kind::Count,
        about: "seconds one `sweep` may spend pushing to the team database (push.url); the sessions left wait for the next sweep",
    },
    Setting {
        key: "watchdog.minutes",
        env: "SESSIONKIT_WATCHDOG_MINUTES",
        default: "10",
        kind: Kind::Count,
        about: "minutes of silence after which a working agent becomes unknown (one whose last turn ended, completed)",
    },
];

/// Where a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Default,
    Database,
    Environment,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Default => "default",
            Source::Database => "database",
            Source::Environment => "environment",
        }
    }
}

pub fn lookup(key: &str) -> Result<&'static Setting> {
    if let Some(s) = all().iter().find(|s| s.key == key) {
        Ok(s)
    } else {
        let known: Vec<&str> = all().iter().map(|s| s.key).collect();
        bail!(
            "unknown setting {key:?}; known settings: {}",
            known.join(", ")
        )
    }
}

/// The one rule for on/off words, any case: true/false, on/off, yes/no,
/// 1/0. `None` for anything else.
pub fn parse_switch(value: &str) -> Option<bool> {
    let v = value.trim().to_ascii_lowercase();
    match v.as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn switch_word(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// Checks a value against the setting's kind; returns its normal form.
pub fn validate(s: &Setting, value: &str) -> Result<String> {
    match s.kind {
        Kind::Switch => match parse_switch(value) {
            Some(on) => Ok(switch_word(on).to_string()),
            None => bail!(
                "{} must be on or off (also true/false, yes/no, 1/0), not {value:?}",
                s.key
            ),
        },
        Kind::Count => match value.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n.to_string()),
            _ => bail!("{} must be a positive whole number, not {value:?}", s.key),
        },
        Kind::Text if value.trim().is_empty() => {
            bail!("{} must not be empty (`config unset` clears it)", s.key)
        }
        Kind::Text if s.key == "push.url" => {
            crate::services::push::Target::parse(value)?.refuse_password()?;
            Ok(value.trim().to_string())
        }
        Kind::Text if s.key == "closer.endpoint" => {
            let v = value.trim();
            if crate::domain::text::mask_url(v) != v {
                bail!(
                    "{} carries a password, which would be stored in the database: the key comes from SESSIONKIT_CLOSER_API_KEY",
                    crate::domain::text::mask_url(v)
                );
            }
            Ok(v.to_string())
        }
        Kind::Text if s.key == "match.aliases" => {
            crate::domain::matching::Aliases::with(value)?;
            Ok(value.trim().to_string())
        }
        Kind::Text => Ok(value.trim().to_string()),
        Kind::Choice(words) => match words.iter().find(|w| **w == value.trim()) {
            Some(w) => Ok(w.to_string()),
            // A choice that has on and off reads them by the on/off rule.
            None if words.contains(&"on")
                && words.contains(&"off")
                && parse_switch(value).is_some() =>
            {
                Ok(switch_word(parse_switch(value) == Some(true)).to_string())
            }
            None => bail!(
                "{} must be one of {}, not {value:?}",
                s.key,
                words.join(", ")
            ),
        },
    }
}

/// A `Count` setting in minutes, as milliseconds.
pub fn minutes_ms(store: &Store, key: &str) -> Result<i64> {
    Ok(i64::try_from(count(store, key)?)?.saturating_mul(60_000))
}

/// A `Count` setting in hours, as milliseconds.
pub fn hours_ms(store: &Store, key: &str) -> Result<i64> {
    Ok(i64::try_from(count(store, key)?)?.saturating_mul(3_600_000))
}

/// The value in force of a `Kind::Choice` or `Kind::Text` setting (a
/// text setting not set is empty).
pub fn choice(store: &Store, key: &str) -> Result<String> {
    let s = lookup(key)?;
    Ok(effective(store, s)?.0)
}

/// The value in force: environment, else database, else default.
pub fn effective(store: &Store, s: &Setting) -> Result<(String, Source)> {
    effective_by(s, || store.setting(s.key))
}

/// `effective`, the stored value read by `stored`.
fn effective_by(
    s: &Setting,
    stored: impl FnOnce() -> Result<Option<String>>,
) -> Result<(String, Source)> {
    if let Ok(v) = std::env::var(s.env)
        && !v.trim().is_empty()
    {
        let v = validate(s, &v).map_err(|e| anyhow::anyhow!("{}: {e:#}", s.env))?;
        return Ok((v, Source::Environment));
    }
    if let Some(v) = stored()? {
        // A value stored before its kind was checked as it is now (an
        // older build wrote `true` for a switch) reads by today's rule.
        let v = validate(s, &v).unwrap_or(v);
        return Ok((v, Source::Database));
    }
    Ok((s.default.to_string(), Source::Default))
}

/// `hours_ms` inside a write transaction (a hook's own).
pub fn hours_ms_in(conn: &rusqlite::Connection, key: &str) -> Result<i64> {
    let s = lookup(key)?;
    let (v, _) = effective_by(s, || crate::store::settings::setting_in(conn, key))?;
    Ok(i64::try_from(v.parse::<u64>()?)?.saturating_mul(3_600_000))
}

/// Whether an on/off setting is on, by `parse_switch` (a value it cannot
/// read is off).
pub fn enabled(store: &Store, key: &str) -> Result<bool> {
    Ok(parse_switch(&choice(store, key)?) == Some(true))
}

/// The value in force as a number (for `Kind::Count` settings).
pub fn count(store: &Store, key: &str) -> Result<u64> {
    let s = lookup(key)?;
    let (v, _) = effective(store, s)?;
    Ok(v.parse()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sorted_and_choices_checked() {
        let keys: Vec<&str> = all().iter().map(|s| s.key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        let u = lookup("briefing.utility").unwrap();
        assert_eq!(validate(u, " on ").unwrap(), "on");
        assert!(
            validate(u, "maybe")
                .unwrap_err()
                .to_string()
                .contains("one of auto, on, off")
        );
    }

    #[test]
    fn switches_read_one_rule_and_store_one_word() {
        for (w, on) in [
            ("true", Some(true)),
            ("TRUE", Some(true)),
            (" On ", Some(true)),
            ("yes", Some(true)),
            ("1", Some(true)),
            ("false", Some(false)),
            ("oFF", Some(false)),
            ("No", Some(false)),
            ("0", Some(false)),
            ("", None),
            ("2", None),
            ("enabled", None),
        ] {
            assert_eq!(parse_switch(w), on, "{w:?}");
        }
        let n = lookup("nudge.enabled").unwrap();
        assert_eq!(validate(n, "True").unwrap(), "on");
        assert_eq!(validate(n, "no").unwrap(), "off");
        // A choice with on and off among its words reads the same rule.
        let u = lookup("briefing.utility").unwrap();
        assert_eq!(validate(u, "yes").unwrap(), "on");
        assert_eq!(validate(u, "auto").unwrap(), "auto");
        let stored = effective_by(n, || Ok(Some("YES".into()))).unwrap();
        assert_eq!(stored, ("on".to_string(), Source::Database));
    }

    /// A harness that declares a ceiling of its own has its setting, made
    /// from its declaration; no other harness has one.
    #[test]
    fn every_harness_ceiling_is_a_setting() {
        for h in crate::domain::harness::all() {
            let found = lookup(&ceiling_key(h.as_str()));
            assert_eq!(found.is_ok(), h.answers.own_ceiling, "{}", h.as_str());
        }
        let c = lookup("briefing.max_bytes.claude-code").unwrap();
        assert_eq!(c.env, "SESSIONKIT_BRIEFING_MAX_BYTES_CLAUDE_CODE");
        assert_eq!((c.default, c.kind), ("9000", Kind::Count));
        assert_eq!(
            c.about,
            "byte ceiling of a briefing injected into Claude Code (never above 9,800: it spills past 10,000 characters to a file)"
        );
        let g = lookup("briefing.max_bytes.gemini").unwrap();
        assert_eq!(g.env, "SESSIONKIT_BRIEFING_MAX_BYTES_GEMINI");
        assert_eq!(
            g.about,
            "byte ceiling of a briefing injected into Gemini CLI"
        );
        assert_eq!(
            [7, 9_600, 100_000, 1_234_567].map(crate::domain::text::group_digits),
            ["7", "9,600", "100,000", "1,234,567"]
        );
    }
}
