//! How a harness's hooks are spoken to, declared by its client in the
//! client's own folder: what it is called, how its payloads are told apart,
//! where its settings are and what sessionkit registers in them, the
//! shape of a handler, what it takes back from a hook, and what `hooks
//! doctor` feeds a registered command. Everything that installs, answers
//! or checks hooks reads these declarations; nothing else compares a
//! harness's name.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Kind;

/// A look-up of the environment.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// One harness's hooks.
#[derive(Debug)]
pub struct Hooks {
    /// Its name (`--harness`, stored events and runs): its client's.
    pub name: &'static str,
    /// Other names `--harness` takes for it.
    pub aliases: &'static [&'static str],
    /// The client's own name, for people.
    pub label: &'static str,
    /// The prefix of its runs' display handles (`cc/…`).
    pub handle: &'static str,
    /// How a payload is known to be its when no `--harness` names it.
    pub detect: Detect,
    /// Whether its payloads name their event; else `hooks install` writes
    /// each registration's event into its command (`--event`).
    pub names_events: bool,
    /// What its payload means beyond the common fields (a subagent's own
    /// hook naming its parent's session), applied to the event after it
    /// is read.
    pub normalize: fn(&mut super::HookEvent),
    /// Where its settings are, and what it is on this machine.
    pub settings: Settings,
    /// What each of its events means (its own names; an event it sends
    /// that is not here is recorded and means nothing more).
    pub kinds: &'static [(&'static str, Kind)],
    /// What `hooks install` registers, in the order it is written.
    pub registrations: &'static [Registration],
    /// How its settings hold a handler, and its rules for one.
    pub handlers: Handlers,
    /// What it takes back from a hook.
    pub answers: Answers,
    /// The payload it sends for an event, in the shape its real payloads
    /// have: what `hooks doctor` feeds a registered command.
    pub sample: fn(event: &str, cwd: &str) -> Value,
    /// What its checks of a hook's output are (`hooks doctor`).
    pub output: Output,
}

impl Hooks {
    /// Whether it takes context at session start at all (a briefing is
    /// stamped as delivered only where it does).
    pub fn takes_start_context(&self) -> bool {
        (self.answers.start)("-").is_some()
    }

    /// Whether a hook's answer can continue a finished turn at all (the
    /// nudge is armed only where it can).
    pub fn takes_stop(&self) -> bool {
        !(self.answers.stop)("-").is_empty()
    }
}

/// How a harness's payload is told apart from the others'.
#[derive(Debug)]
pub struct Detect {
    /// By the variables it sets for its hooks (tried first, for every
    /// harness, in the order of `rank`).
    pub env: fn(Env<'_>) -> bool,
    /// By the payload's shape (and what the environment adds), tried in
    /// the order of `rank`, lowest first; the one that takes any payload
    /// ranks last.
    pub payload: fn(Env<'_>, &Map<String, Value>) -> bool,
    pub rank: u8,
}

/// Where a harness keeps its settings.
#[derive(Debug)]
pub struct Settings {
    /// Its user settings folder, given the home folder and the environment.
    pub user_dir: fn(&Path, Env<'_>) -> PathBuf,
    /// The file, in that folder, sessionkit's registrations go in.
    pub user_file: &'static str,
    /// The file, relative to a project's root, for a project's.
    pub project_file: &'static str,
    /// Other files of a project it also reads hooks from (each a place a
    /// handler may run twice).
    pub project_also: &'static [&'static str],
    /// Its programs: it is on this machine when one is on `PATH` (or its
    /// settings folder exists).
    pub programs: &'static [&'static str],
    /// The variables it sets for its hooks, given the project's root.
    pub hook_env: fn(&str) -> Vec<(&'static str, String)>,
    /// What an install at project scope should know of the client's own
    /// gate on a project's hooks (for a client that reads no project
    /// hooks: any install, of its gate on all of them).
    pub project_note: Option<&'static str>,
    /// Whether a handler needs its trust recorded in the client's
    /// `config.toml` to run (Codex's), kept by install and uninstall.
    pub trust: bool,
    /// Whether install also offers sessionkit's status line (Claude
    /// Code's `statusLine`).
    pub status_line: bool,
    /// Where it takes MCP servers (`hooks install --with-mcp`), if
    /// sessionkit registers its server there.
    pub mcp: Option<McpServers>,
    /// What holds its handlers on disk.
    pub form: Form,
}

/// Where a client takes the MCP servers it starts (stdio): an object of
/// a JSON file, keyed by each server's name.
#[derive(Debug)]
pub struct McpServers {
    /// The user's file, given the home folder and the environment.
    pub file: fn(&Path, Env<'_>) -> PathBuf,
    /// The key of the servers' object in it.
    pub key: &'static str,
    /// A server's entry, given its program and arguments, in the shape
    /// the client's own `mcp add` writes.
    pub entry: fn(&str, &[String]) -> Value,
    /// The file's language.
    pub form: McpForm,
}

/// The language of a client's file of MCP servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpForm {
    /// An object of a JSON document.
    Json,
    /// A table of a TOML document.
    Toml,
    /// A top-level block mapping of a YAML document.
    Yaml,
}

/// What holds a harness's handlers on disk.
#[derive(Debug)]
pub enum Form {
    /// Its JSON settings file, which sessionkit merges its handlers into
    /// and cuts them out of.
    Json,
    /// A settings file of another language (TOML, YAML): sessionkit's
    /// handlers are one block of it, between two marker lines at its end.
    Block(Block),
    /// Files sessionkit writes and owns whole in a folder (the settings'
    /// `user_file` and `project_file` name the folder): a plugin, an
    /// extension, a program per event.
    Files(Owned),
}

/// One of sessionkit's own files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedFile {
    /// Its name in the folder.
    pub name: String,
    pub text: String,
    /// Whether it is a program (mode 0755).
    pub program: bool,
}

/// A registration with the command line it runs.
pub type Handler<'a> = (&'a Registration, String);

/// Handlers as one block of a settings file.
#[derive(Debug)]
pub struct Block {
    /// What starts a comment line in the file's language.
    pub comment: &'static str,
    /// The handlers in the client's syntax, each line ending in a newline.
    pub render: fn(&[Handler<'_>]) -> String,
    /// Whether the client can read a whole file's text (why not, if not).
    pub parses: fn(&str) -> Result<(), String>,
    /// Where the client records the user's consent to each handler, when
    /// it asks for one before running it: that file's name beside the
    /// settings, and its text with the consent to `drop`'s handlers taken
    /// back and to `add`'s given (installing is the user's consent).
    pub consent: Option<Consent>,
}

/// `(the consent file's text, drop, add, now)` → its new text.
pub type ConsentUpdate = fn(Option<&str>, &[Listed], &[Listed], &str) -> Result<String, String>;

/// A client's record of the handlers its user consented to.
#[derive(Debug)]
pub struct Consent {
    pub file: &'static str,
    pub update: ConsentUpdate,
}

/// Handlers as files of their own.
#[derive(Debug)]
pub struct Owned {
    /// What starts a comment line in the files' language.
    pub comment: &'static str,
    /// Every file for the handlers.
    pub render: fn(&[Handler<'_>]) -> Vec<OwnedFile>,
    /// The names it may write (what uninstall looks for).
    pub names: fn() -> Vec<String>,
}

/// One event sessionkit registers a handler for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registration {
    /// The event's key in the client's settings (`SessionStart`, `agentStop`).
    pub event: &'static str,
    /// The `sessionkit hook` verb that handles it.
    pub verb: &'static str,
    pub matcher: Option<&'static str>,
    /// In the client's unit (`Handlers::timeout_unit_ms`).
    pub timeout: Option<u64>,
    /// A per-handler limit on the context it may add, in tokens, where the
    /// client truncates it otherwise (Codex's `additionalContextLimit`).
    pub context_limit: Option<u64>,
}

impl Registration {
    /// `event`'s handler, running `verb`, with `timeout` in the client's
    /// unit.
    pub const fn new(event: &'static str, verb: &'static str, timeout: u64) -> Registration {
        Registration {
            event,
            verb,
            matcher: None,
            timeout: Some(timeout),
            context_limit: None,
        }
    }

    /// The same, matching `matcher`.
    pub const fn matching(mut self, matcher: &'static str) -> Registration {
        self.matcher = Some(matcher);
        self
    }

    /// The same, with no timeout written.
    pub const fn no_timeout(mut self) -> Registration {
        self.timeout = None;
        self
    }

    /// The same, allowed `tokens` of added context.
    pub const fn context_limit(mut self, tokens: u64) -> Registration {
        self.context_limit = Some(tokens);
        self
    }
}

/// How a client nests handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `hooks.<Event>[] -> {matcher?, hooks: [handler]}`.
    Grouped,
    /// `{version: 1, hooks: {<event>: [handler]}}`.
    Flat,
}

/// A handler's shape in a client's settings, and the client's rules for it.
#[derive(Debug)]
pub struct Handlers {
    pub layout: Layout,
    /// Whether a handler carries `"name": "sessionkit-<event>"`.
    pub named: bool,
    /// The handler types it knows (`type`); none: it has no `type`, every
    /// handler is a command.
    pub types: &'static [&'static str],
    /// The keys that hold the command (the first is the one read back).
    pub command_keys: &'static [&'static str],
    /// The key of a handler's timeout.
    pub timeout_key: &'static str,
    /// Milliseconds in a unit of its timeouts.
    pub timeout_unit_ms: u64,
    /// The time it gives a handler that names none, in milliseconds.
    pub default_timeout_ms: u64,
    /// Whether the nudge's handler is told to continue a turn at most once
    /// (`"loop_limit": 1`).
    pub loop_limit: bool,
    /// The events it knows, when it skips a key that is not one.
    pub events: Option<&'static [&'static str]>,
    /// Whether one malformed handler makes it ignore the whole file.
    pub whole_file: bool,
    /// Whether it runs identical handlers of two files once (else each).
    pub runs_identical_once: bool,
}

impl Handlers {
    /// Claude Code's shape, which its forks and peers keep:
    /// `hooks.<Event>[] -> {matcher?, hooks: [{type, command, timeout}]}`,
    /// timeouts in seconds, `types` the handler types it knows.
    pub const fn grouped(types: &'static [&'static str], default_timeout_ms: u64) -> Handlers {
        Handlers {
            layout: Layout::Grouped,
            named: false,
            types,
            command_keys: &["command"],
            timeout_key: "timeout",
            timeout_unit_ms: 1000,
            default_timeout_ms,
            loop_limit: false,
            events: None,
            whole_file: false,
            runs_identical_once: false,
        }
    }
}

/// The top-level keys of a hook's output that a client of Claude Code's
/// shape takes for `event` (none for PreCompact, whose stdout it reads as
/// compaction instructions).
pub fn decision_keys(event: &str) -> &'static [&'static str] {
    match event {
        "PreCompact" => &[],
        _ => &[
            "continue",
            "suppressOutput",
            "stopReason",
            "decision",
            "reason",
            "systemMessage",
            "hookSpecificOutput",
        ],
    }
}

/// What a harness takes back from a hook.
#[derive(Debug)]
pub struct Answers {
    /// The stdout that puts `context` in the model's context at session
    /// start; `None` when it takes none.
    pub start: fn(&str) -> Option<String>,
    /// The same at a prompt.
    pub prompt: fn(&str) -> Option<String>,
    /// The stdout that continues a finished turn with `prompt`; empty
    /// when nothing a hook prints can.
    pub stop: fn(&str) -> String,
    /// Whether it sends the SessionStart context again after a resume
    /// (a briefing already delivered is then not built again).
    pub replays_start_context: bool,
    /// Whether its transcript (the payload's `transcript_path`) is caught
    /// up at a turn's and a session's end.
    pub catch_up: bool,
    /// Whether it shows a hook's stderr to the user (failures are then
    /// written to a log beside the database instead).
    pub shows_stderr: bool,
    /// Whether it escapes angle brackets in added context (a briefing is
    /// then built without them).
    pub escapes_angles: bool,
    /// Whether the setting `briefing.max_bytes.<name>` is its ceiling.
    pub own_ceiling: bool,
    /// The most context it takes whole, in bytes.
    pub max_bytes: Option<usize>,
    /// Why it takes no more than `max_bytes`, for the setting's help.
    pub max_bytes_why: &'static str,
}

impl Answers {
    /// A harness's answers that are only these: it sends no context again
    /// after a resume, its transcript is not caught up by the hooks (ingest
    /// reads it), it shows no stderr, escapes nothing, and takes context up
    /// to the shared ceiling.
    pub const fn plain(
        start: fn(&str) -> Option<String>,
        prompt: fn(&str) -> Option<String>,
        stop: fn(&str) -> String,
    ) -> Answers {
        Answers {
            start,
            prompt,
            stop,
            replays_start_context: false,
            catch_up: false,
            shows_stderr: false,
            escapes_angles: false,
            own_ceiling: false,
            max_bytes: None,
            max_bytes_why: "",
        }
    }
}

/// What `hooks doctor` checks of a hook's output for a harness.
#[derive(Debug)]
pub struct Output {
    /// The events whose plain-text stdout it takes as context.
    pub plain_text: &'static [&'static str],
    /// The top-level keys its output schema has for an event.
    pub keys: fn(&str) -> &'static [&'static str],
    /// The `decision` values it knows.
    pub decisions: &'static [&'static str],
    /// Whether it rejects a `hookSpecificOutput` key other than the event
    /// name and `additionalContext`.
    pub strict_specific: bool,
    /// The most UTF-16 units of `additionalContext` it shows whole.
    pub context_units: Option<usize>,
}

/// Every `sessionkit hook` verb's stdout for a harness that takes
/// `hookSpecificOutput`: `{"hookSpecificOutput": {"hookEventName": event,
/// "additionalContext": context}}`.
pub fn specific_output(event: &str, context: &str) -> String {
    serde_json::json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}})
        .to_string()
}

/// Nothing to add to a payload's reading.
pub fn as_read(_: &mut super::HookEvent) {}

/// No context taken.
pub fn takes_none(_: &str) -> Option<String> {
    None
}

/// No variables set.
pub fn no_env(_: &str) -> Vec<(&'static str, String)> {
    Vec::new()
}

/// Never known by its environment.
pub fn no_env_sign(_: Env<'_>) -> bool {
    false
}

/// Whether a variable is set, and not empty.
pub fn set(env: Env<'_>, key: &str) -> bool {
    env(key).is_some_and(|v| !v.is_empty())
}

/// The first non-empty string among `keys`.
pub fn str_of<'a>(p: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .filter_map(|k| p.get(*k).and_then(Value::as_str))
        .find(|s| !s.is_empty())
}

/// The word that marks the line listing sessionkit's handlers.
pub const MARK: &str = "sessionkit-hooks";

/// One handler as the marker line lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Listed {
    pub event: String,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

/// The marker line for `handlers`, without its newline.
pub fn marker(comment: &str, handlers: &[Handler<'_>]) -> String {
    let listed: Vec<Listed> = handlers
        .iter()
        .map(|(r, command)| Listed {
            event: r.event.to_string(),
            command: command.clone(),
            timeout: r.timeout,
        })
        .collect();
    format!(
        "{comment} {MARK} {}",
        serde_json::to_string(&listed).unwrap_or_default()
    )
}

/// The handlers a text's marker lines list (none without one).
pub fn listed(comment: &str, text: &str) -> Vec<Listed> {
    let head = format!("{comment} {MARK} ");
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix(&head))
        .filter_map(|json| serde_json::from_str::<Vec<Listed>>(json).ok())
        .flatten()
        .collect()
}

/// Adds `extra`'s fields to payload `p` (a doctor sample's own fields).
pub fn extend(p: &mut Value, extra: Value) {
    if let (Some(p), Value::Object(extra)) = (p.as_object_mut(), extra) {
        p.extend(extra);
    }
}
