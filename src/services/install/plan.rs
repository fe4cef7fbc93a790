//! What `hooks install` registers in each harness: one handler per event,
//! in the client's own shape and timeout unit.

use crate::domain::harness::Harness;

use super::json::Json;

pub use crate::domain::harness::{Layout, Registration};

/// Every registration for `h`, in the order they are written.
pub fn registrations(h: Harness) -> &'static [Registration] {
    h.registrations
}

/// How `h` nests handlers.
pub fn layout(h: Harness) -> Layout {
    h.handlers.layout
}

/// The key of a handler that holds its shell command.
pub fn command_key(h: Harness) -> &'static str {
    h.handlers.command_keys[0]
}

/// The command line a registration runs: `PROGRAM [--db DB] hook VERB
/// --harness NAME [--event EVENT]` (the event for a harness whose payloads
/// do not name it), each word shell-quoted when it needs it. It is the
/// same on every install with the same program and database, so Codex's
/// trust (a hash of it) survives a reinstall.
pub fn command(program: &str, db: Option<&str>, r: &Registration, h: Harness) -> String {
    let mut words = vec![quote(program)];
    if let Some(db) = db {
        words.push("--db".to_string());
        words.push(quote(db));
    }
    words.extend(["hook", r.verb, "--harness", h.as_str()].map(String::from));
    if !h.names_events {
        words.extend(["--event".to_string(), quote(r.event)]);
    }
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
    let shape = &h.handlers;
    let mut o = Json::object();
    if shape.named {
        o.set("name", Json::String(format!("sessionkit-{}", r.event)));
    }
    if !shape.types.is_empty() {
        o.set("type", Json::str("command"));
    }
    for key in shape.command_keys {
        o.set(key, Json::str(command));
    }
    if let Some(t) = r.timeout {
        o.set(shape.timeout_key, Json::num(t));
    }
    if let Some(n) = r.context_limit {
        o.set("additionalContextLimit", Json::num(n));
    }
    if shape.loop_limit && r.verb == "stop" {
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
            &Registration::new("Stop", "stop", 10),
            Harness::named("codex").unwrap(),
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
            Harness::named("claude-code").unwrap(),
            Harness::named("codex").unwrap(),
            Harness::named("gemini").unwrap(),
            Harness::named("cursor").unwrap(),
            Harness::named("copilot").unwrap(),
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
        let regs = |n: &str| registrations(Harness::named(n).unwrap());
        assert!(regs("gemini").iter().all(|r| r.timeout.unwrap() >= 1000));
        assert!(
            regs("codex")
                .iter()
                .filter(|r| r.event == "SessionEnd")
                .all(|r| r.timeout == Some(3))
        );
    }

    /// A harness whose payloads name no event gets the event on the
    /// command line; the others do not.
    #[test]
    fn the_event_is_written_where_the_payload_does_not_name_it() {
        let copilot = Harness::named("copilot").unwrap();
        let stop = registrations(copilot)
            .iter()
            .find(|r| r.event == "agentStop")
            .unwrap();
        assert_eq!(
            command("/bin/sessionkit", None, stop, copilot),
            "/bin/sessionkit hook stop --harness copilot --event agentStop"
        );
        let claude = Harness::named("claude").unwrap();
        assert_eq!(
            command("/bin/sessionkit", None, &registrations(claude)[2], claude),
            "/bin/sessionkit hook stop --harness claude-code"
        );
        let back = sessionkit_hook("/bin/sessionkit hook stop --harness copilot --event agentStop")
            .unwrap();
        assert_eq!(
            (back.verb.as_str(), back.harness.as_deref()),
            ("stop", Some("copilot"))
        );
    }
}
