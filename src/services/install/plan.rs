//! What `hooks install` registers in each harness: one handler per event,
//! in the client's own shape and timeout unit.

use crate::domain::harness::Harness;

use super::json::Json;

/// One event sessionkit registers a handler for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registration {
    /// The event's key in the client's settings (`SessionStart`, `agentStop`).
    pub event: &'static str,
    /// The `sessionkit hook` verb that handles it.
    pub verb: &'static str,
    pub matcher: Option<&'static str>,
    /// In the client's unit: seconds, except Gemini (milliseconds).
    pub timeout: Option<u64>,
    /// Codex's per-handler `additionalContextLimit`, in tokens.
    pub context_limit: Option<u64>,
}

const fn reg(event: &'static str, verb: &'static str, timeout: u64) -> Registration {
    Registration {
        event,
        verb,
        matcher: None,
        timeout: Some(timeout),
        context_limit: None,
    }
}

const fn matching(mut r: Registration, matcher: &'static str) -> Registration {
    r.matcher = Some(matcher);
    r
}

const fn no_timeout(mut r: Registration) -> Registration {
    r.timeout = None;
    r
}

/// Codex truncates a hook's additionalContext past about 2,500 tokens unless
/// the handler lifts it. 10,000 tokens holds the
/// 9,600-byte Codex briefing even at one token per byte (CJK text).
const CODEX_CONTEXT_TOKENS: u64 = 10_000;

const fn lifted(mut r: Registration) -> Registration {
    r.context_limit = Some(CODEX_CONTEXT_TOKENS);
    r
}

/// Claude Code (seconds). SessionStart's matcher lists every source
/// (`fork` since 2.1.214); SessionEnd gets 5 s so its catch-up ingest fits
/// (Claude's own budget is 1.5 s unless a hook asks for more).
const CLAUDE: &[Registration] = &[
    matching(
        reg("SessionStart", "session-start", 10),
        "startup|resume|clear|compact|fork",
    ),
    reg("UserPromptSubmit", "user-prompt-submit", 5),
    reg("Stop", "stop", 10),
    reg("StopFailure", "stop", 5),
    reg("SubagentStart", "event", 5),
    reg("SubagentStop", "event", 5),
    matching(reg("PreCompact", "pre-compact", 5), "manual|auto"),
    reg("PostCompact", "event", 5),
    reg("SessionEnd", "session-end", 5),
];

/// Codex (seconds; it clamps SessionEnd and Interrupt to 3 s). No
/// matchers: trust hashes then depend on the command alone. Codex has no
/// StopFailure.
const CODEX: &[Registration] = &[
    lifted(reg("SessionStart", "session-start", 10)),
    lifted(reg("UserPromptSubmit", "user-prompt-submit", 5)),
    reg("Stop", "stop", 10),
    reg("SubagentStart", "event", 5),
    reg("SubagentStop", "event", 5),
    reg("PreCompact", "pre-compact", 5),
    reg("PostCompact", "event", 5),
    reg("Interrupt", "event", 3),
    reg("SessionEnd", "session-end", 3),
];

/// Gemini CLI (milliseconds). PreCompress is not registered: Gemini fires
/// it before every turn, so it is no evidence of compaction
///.
const GEMINI: &[Registration] = &[
    matching(reg("SessionStart", "session-start", 10_000), "*"),
    matching(reg("BeforeAgent", "user-prompt-submit", 5_000), "*"),
    matching(reg("AfterAgent", "stop", 10_000), "*"),
    matching(reg("SessionEnd", "session-end", 5_000), "*"),
];

/// Cursor: flat handlers, no timeout (its unit is unverified).
const CURSOR: &[Registration] = &[
    no_timeout(reg("sessionStart", "session-start", 0)),
    no_timeout(reg("beforeSubmitPrompt", "user-prompt-submit", 0)),
    no_timeout(reg("stop", "stop", 0)),
    no_timeout(reg("sessionEnd", "session-end", 0)),
];

/// Copilot CLI (`timeoutSec`).
const COPILOT: &[Registration] = &[
    reg("sessionStart", "session-start", 10),
    reg("userPromptSubmitted", "user-prompt-submit", 5),
    reg("agentStop", "stop", 10),
    reg("subagentStop", "event", 5),
    reg("preCompact", "pre-compact", 5),
    reg("errorOccurred", "event", 5),
    reg("sessionEnd", "session-end", 5),
];

/// Every registration for `h`, in the order they are written.
pub fn registrations(h: Harness) -> &'static [Registration] {
    match h {
        Harness::ClaudeCode => CLAUDE,
        Harness::Codex => CODEX,
        Harness::Gemini => GEMINI,
        Harness::Cursor => CURSOR,
        Harness::Copilot => COPILOT,
    }
}

/// How a client nests handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `hooks.<Event>[] -> {matcher?, hooks: [handler]}` (Claude Code, Codex, Gemini).
    Grouped,
    /// `{version: 1, hooks: {<event>: [handler]}}` (Cursor, Copilot).
    Flat,
}

pub fn layout(h: Harness) -> Layout {
    match h {
        Harness::ClaudeCode | Harness::Codex | Harness::Gemini => Layout::Grouped,
        Harness::Cursor | Harness::Copilot => Layout::Flat,
    }
}

/// The key of a handler that holds its shell command.
pub fn command_key(h: Harness) -> &'static str {
    match h {
        Harness::Copilot => "bash",
        _ => "command",
    }
}

/// The command line a registration runs: `PROGRAM [--db DB] hook VERB
/// --harness NAME`, each word shell-quoted when it needs it. It is the
/// same on every install with the same program and database, so Codex's
/// trust (a hash of it) survives a reinstall.
pub fn command(program: &str, db: Option<&str>, verb: &str, h: Harness) -> String {
    let mut words = vec![quote(program)];
    if let Some(db) = db {
        words.push("--db".to_string());
        words.push(quote(db));
    }
    words.extend(["hook", verb, "--harness", h.as_str()].map(String::from));
    words.join(" ")
}

/// The status line command: `PROGRAM [--db DB] statusline`.
pub fn statusline_command(program: &str, db: Option<&str>) -> String {
    let mut words = vec![quote(program)];
    if let Some(db) = db {
        words.push("--db".to_string());
        words.push(quote(db));
    }
    words.push("statusline".to_string());
    words.join(" ")
}

/// Whether a status line command runs sessionkit's `statusline`.
pub fn is_sessionkit_statusline(command: &str) -> bool {
    words(command).is_some_and(|w| {
        w.first()
            .is_some_and(|p| p.rsplit('/').next() == Some("sessionkit"))
            && w.iter().any(|x| x == "statusline")
    })
}

/// `s` as one POSIX shell word.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The words of a shell command as `quote` writes them (plain words and
/// single-quoted parts); `None` for anything fancier (double quotes,
/// variables, operators), which is then not a command sessionkit wrote.
pub fn words(command: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.push(chars.next()?);
            }
            '"' | '$' | '`' | ';' | '&' | '|' | '<' | '>' | '(' | ')' | '\n' => return None,
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Some(out)
}

/// A command that runs `sessionkit hook …`: its verb, and the harness it
/// names with `--harness` (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionkitHook {
    pub verb: String,
    pub harness: Option<String>,
    pub db: Option<String>,
    pub program: String,
}

/// Whether `command` runs a sessionkit hook, and which.
pub fn sessionkit_hook(command: &str) -> Option<SessionkitHook> {
    let w = words(command)?;
    let program = w.first()?;
    let base = program.rsplit('/').next().unwrap_or(program);
    if base != "sessionkit" {
        return None;
    }
    let mut db = None;
    let mut i = 1;
    while i < w.len() && w[i] != "hook" {
        if w[i] == "--db" {
            db = w.get(i + 1).cloned();
            i += 1;
        } else if let Some(v) = w[i].strip_prefix("--db=") {
            db = Some(v.to_string());
        }
        i += 1;
    }
    let verb = w.get(i + 1)?.clone();
    let harness = w[i + 1..]
        .iter()
        .position(|x| x == "--harness")
        .and_then(|p| w.get(i + 2 + p).cloned())
        .or_else(|| {
            w[i + 1..]
                .iter()
                .find_map(|x| x.strip_prefix("--harness=").map(str::to_string))
        });
    Some(SessionkitHook {
        verb,
        harness,
        db,
        program: program.clone(),
    })
}

/// The handler object for `r` in `h`'s shape.
pub fn handler(h: Harness, r: &Registration, command: &str) -> Json {
    let mut o = Json::object();
    match h {
        Harness::Gemini => {
            o.set("name", Json::String(format!("sessionkit-{}", r.event)));
            o.set("type", Json::str("command"));
            o.set("command", Json::str(command));
        }
        Harness::Cursor => o.set("command", Json::str(command)),
        Harness::Copilot => {
            // The same words run under PowerShell: `quote` only writes
            // single quotes, which it reads the same way.
            o.set("type", Json::str("command"));
            o.set("bash", Json::str(command));
            o.set("powershell", Json::str(command));
        }
        Harness::ClaudeCode | Harness::Codex => {
            o.set("type", Json::str("command"));
            o.set("command", Json::str(command));
        }
    }
    if let Some(t) = r.timeout {
        let key = if h == Harness::Copilot {
            "timeoutSec"
        } else {
            "timeout"
        };
        o.set(key, Json::num(t));
    }
    if let Some(n) = r.context_limit {
        o.set("additionalContextLimit", Json::num(n));
    }
    if h == Harness::Cursor && r.verb == "stop" {
        // The nudge continues a turn at most once; Cursor enforces it too.
        o.set("loop_limit", Json::num(1));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_quote_what_needs_it_and_read_back() {
        let c = command(
            "/home/me/.cargo/bin/sessionkit",
            Some("/tmp/my db's.db"),
            "stop",
            Harness::Codex,
        );
        assert_eq!(
            c,
            "/home/me/.cargo/bin/sessionkit --db '/tmp/my db'\\''s.db' hook stop --harness codex"
        );
        assert_eq!(
            sessionkit_hook(&c),
            Some(SessionkitHook {
                verb: "stop".into(),
                harness: Some("codex".into()),
                db: Some("/tmp/my db's.db".into()),
                program: "/home/me/.cargo/bin/sessionkit".into(),
            })
        );
    }

    #[test]
    fn hand_written_registrations_are_recognised_and_others_are_not() {
        let h = sessionkit_hook("sessionkit hook event").unwrap();
        assert_eq!((h.verb.as_str(), h.harness), ("event", None));
        let h = sessionkit_hook("sessionkit --db=/x.db hook stop --harness=gemini").unwrap();
        assert_eq!(h.harness.as_deref(), Some("gemini"));
        assert_eq!(h.db.as_deref(), Some("/x.db"));
        assert_eq!(sessionkit_hook("\"$RIG_DIR/capture-hook.sh\""), None);
        assert_eq!(sessionkit_hook("my-sessionkit hook stop"), None);
        assert_eq!(sessionkit_hook("sessionkit ingest"), None);
        assert_eq!(sessionkit_hook("sessionkit hook stop; rm -rf /"), None);
    }

    #[test]
    fn every_harness_registers_each_event_once_with_a_verb_that_exists() {
        for h in [
            Harness::ClaudeCode,
            Harness::Codex,
            Harness::Gemini,
            Harness::Cursor,
            Harness::Copilot,
        ] {
            let regs = registrations(h);
            let mut events: Vec<_> = regs.iter().map(|r| r.event).collect();
            events.sort_unstable();
            events.dedup();
            assert_eq!(events.len(), regs.len(), "{h:?}");
            for r in regs {
                assert!(
                    [
                        "event",
                        "session-start",
                        "session-end",
                        "stop",
                        "user-prompt-submit",
                        "pre-compact"
                    ]
                    .contains(&r.verb)
                );
            }
        }
        // Gemini's timeouts are milliseconds, Codex clamps SessionEnd to 3 s.
        assert!(GEMINI.iter().all(|r| r.timeout.unwrap() >= 1000));
        assert!(
            CODEX
                .iter()
                .filter(|r| r.event == "SessionEnd")
                .all(|r| r.timeout == Some(3))
        );
    }
}
