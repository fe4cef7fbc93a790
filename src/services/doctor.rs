//! `sessionkit hooks doctor`: every registered hook run the way its client
//! runs it — the client's payload shape on stdin, its environment — against
//! a scratch database, and its answer judged by the client's own output
//! rules.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::{Value, json};

use crate::domain::harness::Harness;
use crate::services::install::{self, Places, Scope, plan, validate};

/// One check and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub harness: String,
    pub scope: Option<String>,
    pub check: String,
    pub event: Option<String>,
    pub ok: bool,
    pub detail: String,
    pub fix: Option<String>,
    pub ms: Option<u64>,
}

fn finding(h: Option<Harness>, scope: Option<Scope>, check: &str) -> Finding {
    Finding {
        harness: h.map_or("-", Harness::as_str).to_string(),
        scope: scope.map(|s| s.as_str().to_string()),
        check: check.to_string(),
        event: None,
        ok: true,
        detail: String::new(),
        fix: None,
        ms: None,
    }
}

impl Finding {
    fn fail(mut self, detail: String, fix: String) -> Finding {
        self.ok = false;
        self.detail = detail;
        self.fix = Some(fix);
        self
    }

    fn pass(mut self, detail: String) -> Finding {
        self.detail = detail;
        self
    }

    fn on(mut self, event: &str) -> Finding {
        self.event = Some(event.to_string());
        self
    }
}

/// Runs every check for `harnesses` (both scopes unless one is named);
/// `db` is the database the hooks write to.
pub fn examine(
    places: &Places,
    harnesses: &[Harness],
    scope: Option<Scope>,
    db: &Path,
) -> Result<Vec<Finding>> {
    let scratch = Scratch::new()?;
    let scopes = match scope {
        Some(s) => vec![s],
        None => vec![Scope::User, Scope::Project],
    };
    let mut out = Vec::new();
    let mut installed = 0;
    let mut named_dbs: Vec<Option<String>> = Vec::new();
    for &h in harnesses {
        out.extend(twice(places, h));
        for s in places.distinct(h, &scopes) {
            let base = || finding(Some(h), Some(s), "settings");
            let (standing, doc) = match install::standing(places, h, s) {
                Ok(x) => x,
                Err(e) => {
                    out.push(base().fail(
                        format!("{e:#}"),
                        "fix the file's JSON (the client cannot read it either)".into(),
                    ));
                    continue;
                }
            };
            if standing.iter().all(|x| x.state == "missing") {
                continue;
            }
            installed += 1;
            let file = &standing[0].file;
            let reinstall = format!(
                "sessionkit hooks install --harness {} --scope {}",
                h.as_str(),
                s.as_str()
            );
            for p in validate::check(&doc, h) {
                let what = if p.whole_file {
                    format!("{} ignores this whole file", install::client_name(h))
                } else {
                    format!("{} skips this entry", install::client_name(h))
                };
                out.push(base().fail(
                    format!("{file}: {} {}: {what}", p.at, p.what),
                    format!("fix or remove {} in {file}", p.at),
                ));
            }
            for x in &standing {
                let f = || base().on(&x.event);
                match x.state.as_str() {
                    "missing" => out.push(f().fail(
                        format!("{} has no sessionkit hook in {file}", x.event),
                        reinstall.clone(),
                    )),
                    "hand-written" => out.push(f().fail(
                        format!("{}: a hand-written entry without --harness", x.event),
                        format!("{reinstall} (adopts it)"),
                    )),
                    "untrusted" | "stale-trust" => {
                        out.push(finding(Some(h), Some(s), "trust").on(&x.event).fail(
                            format!(
                                "Codex has no matching trust for {}: `codex exec` skips it",
                                x.event
                            ),
                            format!("{reinstall} (writes the trust entry)"),
                        ));
                    }
                    "extra" => out.push(f().fail(
                        format!("{}: sessionkit no longer registers this event", x.event),
                        reinstall.clone(),
                    )),
                    _ => {}
                }
                if let Some(cmd) = &x.command
                    && x.state != "extra"
                {
                    if let Some(hook) = plan::sessionkit_hook(cmd) {
                        named_dbs.push(hook.db);
                    }
                    let ms = x.timeout_ms.unwrap_or_else(|| install::timeout_ms(h, None));
                    out.push(run_one(&scratch, h, s, (&x.event, cmd, ms)));
                }
            }
        }
    }
    if installed == 0 {
        let named: Vec<&str> = harnesses.iter().map(|h| h.as_str()).collect();
        out.push(finding(None, scope, "settings").fail(
            format!("no sessionkit hooks are registered ({})", named.join(", ")),
            "sessionkit hooks install".into(),
        ));
    }
    // The databases the registered commands write to: a `--db` they name,
    // else this command's.
    let mut dbs: Vec<PathBuf> = Vec::new();
    for db in named_dbs
        .into_iter()
        .map(|d| d.map_or_else(|| db.to_path_buf(), PathBuf::from))
    {
        if !dbs.contains(&db) {
            dbs.push(db);
        }
    }
    if dbs.is_empty() {
        dbs.push(db.to_path_buf());
    }
    for db in &dbs {
        out.push(database(db));
        out.push(nudge(db));
        out.extend(failures(db));
    }
    Ok(out)
}

/// Events registered in more than one of `h`'s files (user and project
/// settings, Claude Code's `settings.local.json`, hooks Codex reads from
/// `config.toml`): the client runs each, so the briefing arrives twice.
/// Claude Code runs identical handlers once, so for it only differing
/// commands count.
pub fn twice(places: &Places, h: Harness) -> Vec<Finding> {
    let mut files: Vec<PathBuf> = places
        .distinct(h, &[Scope::User, Scope::Project])
        .into_iter()
        .map(|s| places.settings(h, s))
        .collect();
    if h == Harness::ClaudeCode {
        files.push(places.project.join(".claude/settings.local.json"));
    }
    let mut seen: Vec<(String, String, String)> = Vec::new();
    for f in &files {
        let Some(doc) = std::fs::read_to_string(f)
            .ok()
            .and_then(|t| install::json::Json::parse(&t).ok())
        else {
            continue;
        };
        for x in install::edit::registered(&doc, h) {
            seen.push((x.event, f.display().to_string(), x.command));
        }
    }
    if h == Harness::Codex {
        let config = places.codex_config();
        if let Ok(text) = std::fs::read_to_string(&config) {
            for (event, command) in codex_toml_hooks(&text) {
                seen.push((event, config.display().to_string(), command));
            }
        }
    }
    let mut out = Vec::new();
    let mut events: Vec<&str> = seen.iter().map(|s| s.0.as_str()).collect();
    events.sort_unstable();
    events.dedup();
    for event in events {
        let here: Vec<&(String, String, String)> = seen.iter().filter(|s| s.0 == event).collect();
        let mut where_: Vec<&str> = here.iter().map(|s| s.1.as_str()).collect();
        where_.dedup();
        let mut commands: Vec<&str> = here.iter().map(|s| s.2.as_str()).collect();
        commands.sort_unstable();
        commands.dedup();
        let runs_twice = here.len() > 1 && (h != Harness::ClaudeCode || commands.len() > 1);
        if runs_twice {
            out.push(finding(Some(h), None, "settings").on(event).fail(
                format!(
                    "{event} runs sessionkit {} times ({}): {} runs each",
                    here.len(),
                    where_.join(", "),
                    install::client_name(h)
                ),
                format!(
                    "keep one: `sessionkit hooks uninstall --harness {} --scope project` (or user), or remove the entry by hand",
                    h.as_str()
                ),
            ));
        }
    }
    out
}

/// `(event, command)` of each sessionkit hook defined in a Codex
/// `config.toml` (`[[hooks.<Event>]]` / `[[hooks.<Event>.hooks]]`).
fn codex_toml_hooks(text: &str) -> Vec<(String, String)> {
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    let Some(hooks) = doc.get("hooks").and_then(toml_edit::Item::as_table_like) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (event, groups) in hooks.iter() {
        let Some(groups) = groups.as_array_of_tables() else {
            continue;
        };
        for group in groups {
            let Some(handlers) = group
                .get("hooks")
                .and_then(toml_edit::Item::as_array_of_tables)
            else {
                continue;
            };
            for handler in handlers {
                if let Some(cmd) = handler.get("command").and_then(toml_edit::Item::as_str)
                    && plan::sessionkit_hook(cmd).is_some()
                {
                    out.push((event.to_string(), cmd.to_string()));
                }
            }
        }
    }
    out
}

/// A scratch database and project for the hook runs, seeded with one
/// memory that has angle brackets in it (the Gemini check needs text to
/// escape).
struct Scratch {
    dir: PathBuf,
    seeded: std::cell::RefCell<Option<String>>,
}

impl Scratch {
    fn new() -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!(
            "sessionkit-doctor-{}-{}",
            std::process::id(),
            crate::domain::clock::now()
        ));
        std::fs::create_dir_all(dir.join("project"))?;
        Ok(Scratch {
            dir,
            seeded: std::cell::RefCell::new(None),
        })
    }

    fn db(&self) -> PathBuf {
        self.dir.join("doctor.db")
    }

    fn project(&self) -> PathBuf {
        self.dir.join("project")
    }

    /// Seeds the scratch database with `program` once.
    fn seed(&self, program: &str) {
        if self.seeded.borrow().as_deref() == Some(program) {
            return;
        }
        let _ = Command::new(program)
            .arg("--db")
            .arg(self.db())
            .args([
                "remember",
                "--kind",
                "decision",
                "--topic",
                "hooks doctor",
                "--content",
                "hooks doctor checks that <angle> brackets reach each client safely",
            ])
            .current_dir(self.project())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        *self.seeded.borrow_mut() = Some(program.to_string());
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs one registered command with its client's payload and judges it.
fn run_one(
    scratch: &Scratch,
    h: Harness,
    s: Scope,
    (event, cmd, timeout_ms): (&str, &str, u64),
) -> Finding {
    let f = finding(Some(h), Some(s), "output").on(event);
    let reinstall = format!(
        "sessionkit hooks install --harness {} --scope {}",
        h.as_str(),
        s.as_str()
    );
    let Some(hook) = plan::sessionkit_hook(cmd) else {
        return f.fail(format!("cannot read the command {cmd:?}"), reinstall);
    };
    let program = resolve(&hook.program);
    let Some(program) = program else {
        return f.fail(
            format!("{} is not an executable file", hook.program),
            format!("{reinstall} (registers this sessionkit)"),
        );
    };
    scratch.seed(&program);
    let timeout = Duration::from_millis(timeout_ms);
    let payload = payload(h, event, &scratch.project());
    let mut c = Command::new(&program);
    c.arg("--db")
        .arg(scratch.db())
        .args(["hook", &hook.verb])
        .args(hook.harness.iter().flat_map(|n| ["--harness", n.as_str()]))
        .current_dir(scratch.project())
        .env_remove("CLAUDECODE")
        .env_remove("GEMINI_SESSION_ID")
        .env_remove("GEMINI_PROJECT_DIR")
        .env_remove("SESSIONKIT_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in client_env(h, &scratch.project()) {
        c.env(k, v);
    }
    let t0 = Instant::now();
    let ran = (|| -> std::io::Result<(std::process::ExitStatus, String, String)> {
        let mut child = c.spawn()?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(payload.to_string().as_bytes())?;
        let mut out = String::new();
        let mut err = String::new();
        child
            .stdout
            .take()
            .expect("piped")
            .read_to_string(&mut out)?;
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut err)?;
        Ok((child.wait()?, out, err))
    })();
    let ms = u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut f = f;
    f.ms = Some(ms);
    let (status, out, err) = match ran {
        Ok(x) => x,
        Err(e) => return f.fail(format!("could not run {program}: {e}"), reinstall),
    };
    if !status.success() {
        return f.fail(
            format!("exited with {status}: {}", err.trim()),
            "run the command by hand with this payload to see why; then report it".into(),
        );
    }
    if let Err(why) = accepts(h, event, &out, &err) {
        return f.fail(
            why,
            "update sessionkit, then run hooks install again".into(),
        );
    }
    let budget = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
    if ms * 2 > budget {
        return f.fail(
            format!("took {ms} ms of its {budget} ms timeout"),
            "check the database's disk and size (sessionkit check), or raise the timeout".into(),
        );
    }
    let said = if out.trim().is_empty() {
        "no output".to_string()
    } else {
        format!("{} bytes accepted", out.trim().len())
    };
    f.pass(format!("{said}, {ms} ms of {budget} ms"))
}

/// An absolute program path as is, else the first match on PATH.
fn resolve(program: &str) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let exec = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return exec(Path::new(program)).then(|| program.to_string());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| exec(p))
        .map(|p| p.display().to_string())
}

/// The variables each client sets for its hooks.
fn client_env(h: Harness, project: &Path) -> Vec<(&'static str, String)> {
    let p = project.display().to_string();
    match h {
        Harness::ClaudeCode => vec![
            ("CLAUDECODE", "1".into()),
            ("CLAUDE_CODE_CHILD_SESSION", "1".into()),
            ("CLAUDE_PROJECT_DIR", p),
        ],
        Harness::Gemini => vec![
            ("GEMINI_PROJECT_DIR", p.clone()),
            ("GEMINI_CWD", p),
            ("GEMINI_SESSION_ID", DOCTOR_SESSION.into()),
        ],
        _ => Vec::new(),
    }
}

const DOCTOR_SESSION: &str = "00000000-d0c7-4000-8000-000000000001";

/// The payload `h` sends for `event`, in the shape the captured payloads
/// have.
pub fn payload(h: Harness, event: &str, cwd: &Path) -> Value {
    let cwd = cwd.display().to_string();
    let sid = DOCTOR_SESSION;
    match h {
        Harness::Cursor => {
            let mut p = json!({"hook_event_name": event, "conversation_id": sid,
                "generation_id": "doctor-gen-1", "workspace_roots": [cwd]});
            match event {
                "stop" => {
                    p["status"] = "completed".into();
                    p["loop_count"] = 0.into();
                }
                "beforeSubmitPrompt" => p["prompt"] = "doctor check".into(),
                "sessionEnd" => p["reason"] = "completed".into(),
                _ => {}
            }
            p
        }
        Harness::Copilot => {
            let mut p = json!({"hookEventName": event, "sessionId": sid, "cwd": cwd,
                "timestamp": 1_796_300_000_000_i64, "transcriptPath": Value::Null});
            match event {
                "sessionStart" => p["source"] = "new".into(),
                "userPromptSubmitted" => p["prompt"] = "doctor check".into(),
                _ => {}
            }
            p
        }
        Harness::ClaudeCode | Harness::Codex | Harness::Gemini => {
            let transcript = format!("{cwd}/doctor-transcript.jsonl");
            let mut p = json!({"session_id": sid, "transcript_path": transcript,
                "cwd": cwd, "hook_event_name": event});
            let extra = match (h, event) {
                (Harness::Gemini, _) => {
                    p["timestamp"] = "2026-12-03T00:00:00.000Z".into();
                    match event {
                        "SessionStart" => json!({"source": "startup"}),
                        "BeforeAgent" => json!({"prompt": "doctor check"}),
                        "AfterAgent" => json!({"prompt": "doctor check",
                            "prompt_response": "done", "stop_hook_active": false}),
                        "SessionEnd" => json!({"reason": "exit"}),
                        _ => json!({}),
                    }
                }
                (Harness::Codex, "SessionStart") => json!({"model": "gpt-5",
                    "permission_mode": "default", "source": "startup"}),
                (Harness::Codex, "SessionEnd") => json!({"reason": "other"}),
                (_, "SessionStart") => json!({"source": "startup"}),
                (_, "SessionEnd") => json!({"reason": "other"}),
                (_, "UserPromptSubmit") => {
                    json!({"permission_mode": "default", "prompt": "doctor check"})
                }
                (_, "Stop") => json!({"permission_mode": "default", "stop_hook_active": false,
                    "last_assistant_message": "done"}),
                (_, "StopFailure") => json!({"error": "unknown",
                    "last_assistant_message": "API Error: doctor"}),
                (_, "SubagentStart") => {
                    json!({"agent_id": "a0d0c70000000001", "agent_type": "general-purpose"})
                }
                (_, "SubagentStop") => json!({"agent_id": "a0d0c70000000001",
                    "agent_type": "general-purpose", "stop_hook_active": false,
                    "agent_transcript_path": Value::Null, "last_assistant_message": "sub done"}),
                (_, "PreCompact") => {
                    json!({"trigger": "manual", "custom_instructions": Value::Null})
                }
                (_, "PostCompact") => json!({"trigger": "manual", "compact_summary": "summary"}),
                _ => json!({}),
            };
            if let (Some(p), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
                p.extend(extra.clone());
            }
            if h == Harness::Codex && event != "SessionStart" && event != "SessionEnd" {
                p["turn_id"] = "00000000-d0c7-4000-8000-0000000000aa".into();
                p["model"] = "gpt-5".into();
            }
            if h == Harness::ClaudeCode && event == "SessionStart" {
                // Claude Code never sends permission_mode there.
                if let Some(o) = p.as_object_mut() {
                    o.remove("permission_mode");
                }
            }
            p
        }
    }
}

/// Whether `h` takes a hook's stdout (and stderr) for `event`; why not.
pub fn accepts(h: Harness, event: &str, out: &str, err: &str) -> Result<(), String> {
    let text = out.trim();
    if h == Harness::Gemini && !err.trim().is_empty() {
        return Err(format!(
            "printed on stderr, which Gemini CLI shows the user: {}",
            err.trim()
        ));
    }
    if !err.trim().is_empty() {
        return Err(format!("reported a failure: {}", err.trim()));
    }
    if text.is_empty() {
        return Ok(());
    }
    let plain_ok = matches!(
        (h, event),
        (
            Harness::ClaudeCode,
            "SessionStart" | "UserPromptSubmit" | "SubagentStart"
        ) | (Harness::Codex, "SessionStart" | "UserPromptSubmit")
    );
    if !text.starts_with('{') {
        return if plain_ok {
            Ok(())
        } else {
            Err(format!(
                "plain text on stdout, which {} does not take for {event}",
                install::client_name(h)
            ))
        };
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("stdout is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("stdout is JSON but not an object")?;
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    let allowed: &[&str] = allowed_keys(h, event);
    if allowed.is_empty() {
        return Err(format!(
            "printed output, which {} does not take for {event}",
            install::client_name(h)
        ));
    }
    if let Some(k) = keys.iter().find(|k| !allowed.contains(k)) {
        return Err(format!(
            "key {k:?} is not in what {} accepts for {event}",
            install::client_name(h)
        ));
    }
    if let Some(d) = obj.get("decision").and_then(Value::as_str) {
        let ok = match h {
            Harness::Gemini => ["allow", "deny", "block"].contains(&d),
            _ => ["approve", "block"].contains(&d),
        };
        if !ok {
            return Err(format!(
                "decision {d:?} is not one {} knows",
                install::client_name(h)
            ));
        }
    }
    if let Some(hso) = obj.get("hookSpecificOutput") {
        let name = hso.get("hookEventName").and_then(Value::as_str);
        if name != Some(event) {
            return Err(format!(
                "hookSpecificOutput.hookEventName is {name:?}, not {event:?}"
            ));
        }
        if h == Harness::Codex
            && let Some(k) = hso.as_object().and_then(|o| {
                o.keys()
                    .find(|k| *k != "hookEventName" && *k != "additionalContext")
            })
        {
            return Err(format!(
                "hookSpecificOutput.{k} is an extra key Codex rejects"
            ));
        }
        if let Some(c) = hso.get("additionalContext").and_then(Value::as_str) {
            if h == Harness::Gemini && (c.contains('<') || c.contains('>')) {
                return Err(
                    "additionalContext has angle brackets, which Gemini CLI escapes".into(),
                );
            }
            let units = c.encode_utf16().count();
            if h == Harness::ClaudeCode && units > 10_000 {
                return Err(format!(
                    "additionalContext is {units} characters: Claude Code saves it to a file and shows a 2,000-character preview"
                ));
            }
        }
    }
    Ok(())
}

/// The top-level keys each client's output schema has for `event`.
fn allowed_keys(h: Harness, event: &str) -> &'static [&'static str] {
    const CLAUDE: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "reason",
        "systemMessage",
        "terminalSequence",
        "hookSpecificOutput",
    ];
    const CLAUDE_BARE: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "reason",
        "systemMessage",
        "terminalSequence",
    ];
    match (h, event) {
        // Claude Code fails these on hookSpecificOutput; PreCompact's
        // stdout becomes compaction instructions.
        (Harness::ClaudeCode, "PreCompact") => &[],
        (Harness::ClaudeCode, "SessionEnd" | "PostCompact" | "StopFailure") => CLAUDE_BARE,
        (Harness::ClaudeCode, _) => CLAUDE,
        (Harness::Codex, "SessionStart" | "SubagentStart") => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        (Harness::Codex, "UserPromptSubmit") => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        (Harness::Codex, "Stop" | "SubagentStop") => &[
            "continue",
            "decision",
            "reason",
            "stopReason",
            "suppressOutput",
            "systemMessage",
        ],
        (Harness::Codex, "PreCompact" | "PostCompact") => {
            &["continue", "stopReason", "suppressOutput", "systemMessage"]
        }
        (Harness::Codex, "Interrupt") => &["systemMessage"],
        (Harness::Codex, _) => &[],
        (Harness::Gemini, _) => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        (Harness::Cursor, "stop") => &["followup_message"],
        (Harness::Cursor, _) => &[],
        (Harness::Copilot, "agentStop" | "subagentStop") => &["decision", "reason"],
        (Harness::Copilot, _) => &[],
    }
}

/// Whether the database the hooks use takes a write.
fn database(db: &Path) -> Finding {
    let f = finding(None, None, "database");
    let tried = (|| -> Result<()> {
        let store = crate::store::Store::open(db)?;
        store.probe_write()
    })();
    match tried {
        Ok(()) => f.pass(format!("{} takes writes", db.display())),
        Err(e) => f.fail(
            format!("{}: {e:#}", db.display()),
            format!(
                "make {} and its folder writable by this user (hooks spool their events meanwhile)",
                db.display()
            ),
        ),
    }
}

/// The debrief nudge as the Stop hook will see it: the value in force
/// (environment, database, default) read by the on/off rule.
fn nudge(db: &Path) -> Finding {
    let f = finding(None, None, "nudge");
    let read = (|| -> Result<(bool, crate::services::settings::Source)> {
        let store = crate::store::Store::open(db)?;
        let s = crate::services::settings::lookup("nudge.enabled")?;
        let (v, source) = crate::services::settings::effective(&store, s)?;
        Ok((
            crate::services::settings::parse_switch(&v) == Some(true),
            source,
        ))
    })();
    match read {
        Ok((on, source)) => f.pass(format!(
            "the debrief nudge is {} ({} of {}, from the {})",
            if on { "on" } else { "off" },
            "nudge.enabled",
            db.display(),
            source.as_str()
        )),
        Err(e) => f.fail(
            format!("nudge.enabled of {}: {e:#}", db.display()),
            "sessionkit config set nudge.enabled on (or off)".into(),
        ),
    }
}

/// Hook failures the hooks themselves recorded: the last week's, from the
/// database and (Gemini) `<db>.hook-errors.log`.
fn failures(db: &Path) -> Vec<Finding> {
    let f = || finding(None, None, "failures");
    let week = crate::domain::clock::now() - 7 * 24 * 3_600_000;
    let mut out = Vec::new();
    let recorded = crate::store::Store::open(db).and_then(|s| s.hook_failures_since(week));
    match recorded {
        Ok(rows) if rows.is_empty() => {
            out.push(f().pass("no hook failures recorded this week".into()));
        }
        Ok(rows) => {
            let last = &rows[rows.len() - 1];
            out.push(f().fail(
                format!(
                    "{} hook failures this week; the last, {} ({} {}): {}",
                    rows.len(),
                    crate::domain::clock::format_instant(last.at),
                    last.harness,
                    last.event,
                    last.message
                ),
                "fix what the message says; `sessionkit hooks doctor` again shows whether it recurs".into(),
            ));
        }
        Err(e) => out.push(f().fail(format!("{e:#}"), "see the database check".into())),
    }
    let mut log = db.as_os_str().to_owned();
    log.push(".hook-errors.log");
    let log = PathBuf::from(log);
    if let Ok(meta) = std::fs::metadata(&log)
        && meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age < Duration::from_secs(7 * 24 * 3600))
    {
        out.push(f().fail(
            format!(
                "{} has entries from the last week (Gemini CLI hook failures)",
                log.display()
            ),
            format!("read {} for what failed", log.display()),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_rules_per_client() {
        let ctx =
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}"#;
        assert_eq!(
            accepts(Harness::ClaudeCode, "SessionStart", ctx, ""),
            Ok(())
        );
        assert_eq!(accepts(Harness::Codex, "SessionStart", ctx, ""), Ok(()));
        assert!(accepts(Harness::ClaudeCode, "Stop", ctx, "").is_err());
        let pre =
            r#"{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}"#;
        assert!(accepts(Harness::ClaudeCode, "PreCompact", pre, "").is_err());
        assert!(accepts(Harness::ClaudeCode, "PreCompact", "compact nicely", "").is_err());
        let block = r#"{"decision":"block","reason":"r"}"#;
        assert_eq!(accepts(Harness::Codex, "Stop", block, ""), Ok(()));
        assert!(
            accepts(
                Harness::Codex,
                "Stop",
                r#"{"decision":"block","reason":"r","x":1}"#,
                ""
            )
            .is_err()
        );
        assert!(accepts(Harness::Codex, "SessionEnd", "{}", "").is_err());
        assert!(accepts(Harness::Codex, "Stop", "keep going", "").is_err());
        let angle =
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<b>"}}"#;
        assert!(accepts(Harness::Gemini, "SessionStart", angle, "").is_err());
        assert!(accepts(Harness::Gemini, "SessionEnd", "", "oops").is_err());
        assert_eq!(
            accepts(Harness::Cursor, "stop", r#"{"followup_message":"m"}"#, ""),
            Ok(())
        );
        assert!(accepts(Harness::Cursor, "sessionStart", "{}", "").is_err());
        let long = format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"SessionStart","additionalContext":"{}"}}}}"#,
            "é".repeat(10_001)
        );
        assert!(accepts(Harness::ClaudeCode, "SessionStart", &long, "").is_err());
    }

    #[test]
    fn payloads_have_each_client_s_shape() {
        let cwd = Path::new("/p");
        let cx = payload(Harness::Codex, "SessionStart", cwd);
        assert_eq!(cx["permission_mode"], "default");
        assert!(cx.get("turn_id").is_none());
        let cx = payload(Harness::Codex, "Stop", cwd);
        assert!(cx["turn_id"].is_string());
        let cc = payload(Harness::ClaudeCode, "SessionStart", cwd);
        assert!(cc.get("permission_mode").is_none());
        let gm = payload(Harness::Gemini, "AfterAgent", cwd);
        assert_eq!(gm["prompt_response"], "done");
        let cu = payload(Harness::Cursor, "stop", cwd);
        assert_eq!(cu["workspace_roots"][0], "/p");
        let co = payload(Harness::Copilot, "agentStop", cwd);
        assert_eq!(co["sessionId"], DOCTOR_SESSION);
    }
}
