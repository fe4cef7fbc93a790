//! `sessionkit hooks install|uninstall|status`: sessionkit's registrations
//! in each harness's own settings file — merged, never clobbered; checked
//! against the client's rules before the file is replaced; written
//! atomically with the old file kept as a backup.

pub mod edit;
mod files;
pub mod json;
mod keep;
pub mod mcp;
mod mcp_yaml;
pub mod own;
pub mod plan;
mod status_line;
pub mod trust;
pub mod validate;

pub use files::{commit, refuse_read_only};
use files::{is_bare_text, read_original};
use status_line::status_line;
pub use status_line::status_line_of;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::domain::harness::Harness;

use json::Json;

/// Whose settings: the user's (every project) or this project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    User,
    Project,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
        }
    }
}

/// Where the clients keep their settings: the home directory, the project
/// root and the environment variables that move them.
#[derive(Debug, Clone)]
pub struct Places {
    pub home: PathBuf,
    pub project: PathBuf,
    /// The environment's non-empty variables.
    pub vars: std::collections::BTreeMap<String, String>,
    pub path: Option<std::ffi::OsString>,
}

impl Places {
    /// From this process's environment and working directory.
    pub fn from_env() -> Result<Places> {
        let home = std::env::var_os("HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .context("HOME is not set: cannot find the harnesses' settings")?;
        let cwd = std::env::current_dir().context("reading the working directory")?;
        Ok(Places {
            home,
            project: project_root(&cwd),
            vars: std::env::vars().filter(|(_, v)| !v.is_empty()).collect(),
            path: std::env::var_os("PATH"),
        })
    }

    /// The directory `h` keeps its user settings in.
    fn user_dir(&self, h: Harness) -> PathBuf {
        (h.settings.user_dir)(&self.home, &|k: &str| self.vars.get(k).cloned())
    }

    /// The file sessionkit's registrations for `h` go in at `scope`.
    pub fn settings(&self, h: Harness, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.user_dir(h).join(h.settings.user_file),
            Scope::Project => self.project.join(h.settings.project_file),
        }
    }

    /// `scopes` less any whose file for `h` is another's (a project at the
    /// home directory has the user's files), and less a project's for a
    /// client that reads hooks from the user's settings only.
    pub fn distinct(&self, h: Harness, scopes: &[Scope]) -> Vec<Scope> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for &s in scopes.iter().filter(|s| has_scope(h, **s)) {
            let path = self.settings(h, s);
            if !seen.contains(&path) {
                seen.push(path);
                out.push(s);
            }
        }
        out
    }

    /// Where `h` keeps the trust of its hooks (for both scopes), when it
    /// needs one: its `config.toml`.
    pub fn trust_file(&self, h: Harness) -> Option<PathBuf> {
        h.settings
            .trust
            .then(|| self.user_dir(h).join("config.toml"))
    }

    /// Whether `h` is on this machine: its settings folder exists or its
    /// program is on PATH.
    pub fn found(&self, h: Harness) -> bool {
        self.user_dir(h).is_dir()
            || self.path.as_ref().is_some_and(|p| {
                std::env::split_paths(p).any(|d| {
                    h.settings
                        .programs
                        .iter()
                        .any(|name| d.join(name).is_file())
                })
            })
    }
}

/// Whether `h` reads hooks at `scope` (some read the user's settings
/// only).
pub fn has_scope(h: Harness, scope: Scope) -> bool {
    scope == Scope::User || !h.settings.project_file.is_empty()
}

/// The enclosing git work tree's top (a `.git` entry), else `dir` itself.
fn project_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(dir)
        .to_path_buf()
}

/// One file's text before and after (`None`: absent / to delete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: Option<String>,
    /// Written as a program (mode 0755).
    pub executable: bool,
    /// Wholly sessionkit's (written again from nothing on each install):
    /// no backup is kept of it.
    pub owned: bool,
    /// Its old bytes are the user's own, before any of sessionkit's
    /// handlers: kept forever beside it on the first change.
    pub keep_original: bool,
}

impl FileChange {
    pub fn changes(&self) -> bool {
        self.before != self.after
    }

    /// A unified diff of the change (empty when none).
    pub fn diff(&self) -> String {
        if !self.changes() {
            return String::new();
        }
        let name = self.path.display().to_string();
        let (old, new) = (
            self.before.as_deref().unwrap_or(""),
            self.after.as_deref().unwrap_or(""),
        );
        let old_name = if self.before.is_some() {
            name.clone()
        } else {
            "/dev/null".to_string()
        };
        let new_name = if self.after.is_some() {
            name
        } else {
            "/dev/null".to_string()
        };
        crate::domain::diff::unified(old, new, &old_name, &new_name, 3)
    }
}

/// What one harness's install or uninstall will do.
#[derive(Debug, Clone)]
pub struct Pending {
    pub harness: Harness,
    pub scope: Scope,
    pub change: edit::Change,
    /// The settings file, or the folder of sessionkit's own files.
    pub place: PathBuf,
    /// The settings file, then (Codex) its trust file; or each of
    /// sessionkit's own files; then the client's file of MCP servers when
    /// it is one of its own (`mcp_file`).
    pub files: Vec<FileChange>,
    /// The client's file of MCP servers, when sessionkit's server is in a
    /// file apart from the ones above.
    pub mcp_file: Option<PathBuf>,
}

/// What install writes into a command: the program and the database.
#[derive(Debug, Clone)]
pub struct Target {
    pub program: String,
    pub db: Option<String>,
    /// Also register `statusline` as Claude Code's status line.
    pub statusline: bool,
    /// Also register `mcp` where the client takes MCP servers.
    pub mcp: bool,
}

/// A settings file's text (through a link: dotfiles), a regular file of at
/// most 16 MiB, never a FIFO or device.
fn read(path: &Path) -> Result<Option<String>> {
    crate::domain::confined::read_linked_text(path, 16 << 20)
}

/// Parses a settings file strictly; an unreadable one is refused, never
/// rewritten.
fn parse(path: &Path, text: Option<&str>) -> Result<Json> {
    match text {
        None => Ok(Json::object()),
        Some(t) if t.trim().is_empty() => Ok(Json::object()),
        Some(t) => Json::parse(t).map_err(|e| {
            anyhow::anyhow!(
                "{} is not valid JSON ({e}); sessionkit changes nothing in a file it cannot read: fix it, then run this again",
                path.display()
            )
        }),
    }
}

/// Refuses a file the client already rejects as a whole, and a merge that
/// would add a problem the file did not have.
fn checked(path: &Path, h: Harness, before: &Json, after: &Json) -> Result<()> {
    let old = validate::check(before, h);
    if let Some(p) = old.iter().find(|p| p.whole_file) {
        bail!(
            "{}: {} {} ({}), so it ignores this whole file today; fix that entry, then run this again",
            path.display(),
            p.at,
            p.what,
            client_name(h)
        );
    }
    let new = validate::check(after, h);
    if let Some(p) = new.iter().find(|p| !old.contains(p)) {
        bail!(
            "internal error: the merged {} would have {} {}; nothing was written (please report it)",
            path.display(),
            p.at,
            p.what
        );
    }
    Ok(())
}

/// The client's own name, for people.
pub fn client_name(h: Harness) -> &'static str {
    h.label
}

/// An absolute path as the client names it (relative paths resolved
/// against the working directory; symlinks kept).
fn absolute(path: &Path) -> Result<PathBuf> {
    Ok(if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    })
}

/// Plans installing (`install = true`) or removing sessionkit's
/// registrations for `h` at `scope`. Nothing is written.
pub fn plan(places: &Places, h: Harness, scope: Scope, target: Option<&Target>) -> Result<Pending> {
    let mut p = if matches!(h.settings.form, crate::domain::harness::Form::Json) {
        plan_settings(places, h, scope, target)?
    } else {
        own::plan(places, h, scope, target)?
    };
    // The MCP server: in a file of its own, or in one planned already
    // (Codex's config.toml, which holds its trust too); a JSON settings
    // file `plan_settings` edited in place.
    if scope == Scope::User
        && let Some((f, m)) = mcp::file(places, h)
    {
        let f = absolute(&f)?;
        match p.files.iter_mut().find(|c| c.path == f) {
            Some(planned) if m.form != crate::domain::harness::McpForm::Json => {
                mcp::retext(planned, m, target, &mut p.change)?;
            }
            Some(_) => {}
            None => {
                if let Some(c) = mcp::change(places, h, target, &mut p.change)? {
                    p.mcp_file = Some(c.path.clone());
                    p.files.push(c);
                }
            }
        }
    }
    Ok(p)
}

/// `plan` for a client whose handlers are in its JSON settings file.
fn plan_settings(
    places: &Places,
    h: Harness,
    scope: Scope,
    target: Option<&Target>,
) -> Result<Pending> {
    let path = absolute(&places.settings(h, scope))?;
    let before_text = read(&path)?;
    let before = parse(&path, before_text.as_deref())?;
    let mut after = before.clone();
    let change = match target {
        Some(t) => {
            let regs = plan::registrations(h);
            let commands: Vec<String> = regs
                .iter()
                .map(|r| plan::command(&t.program, t.db.as_deref(), r, h))
                .collect();
            edit::install(&mut after, h, regs, &commands)
        }
        None => edit::uninstall(&mut after, h),
    }
    .with_context(|| {
        format!(
            "{}: not in {}'s settings shape",
            path.display(),
            client_name(h)
        )
    })?;
    let mut change = change;
    if h.settings.status_line {
        status_line(&mut after, target, &mut change);
    }
    // The MCP server, when the client keeps it in this same file.
    let mcp_here = mcp::file(places, h)
        .filter(|(p, _)| scope == Scope::User && absolute(p).is_ok_and(|p| p == path));
    if let Some((_, m)) = mcp_here {
        mcp::edit(&mut after, m, target, &mut change);
    }
    checked(&path, h, &before, &after)?;
    let after_text = if change.is_empty() {
        before_text.clone()
    } else {
        after_text(&path, h, before_text.as_deref(), &after, target.is_none())
    };
    let keep_original = before_text.is_some() && edit::registered(&before, h).is_empty();
    let mut files = vec![FileChange {
        path: path.clone(),
        before: before_text,
        after: after_text,
        executable: false,
        owned: false,
        keep_original,
    }];
    if let Some(config) = places.trust_file(h).filter(|_| !change.is_empty()) {
        files.push(trust_change(&config, &path, &before, &after)?);
    }
    Ok(Pending {
        harness: h,
        scope,
        change,
        place: path,
        files,
        mcp_file: None,
    })
}

/// Codex's `config.toml` with the trust of `before`'s handlers in
/// `settings` taken back and `after`'s recorded.
fn trust_change(config: &Path, settings: &Path, before: &Json, after: &Json) -> Result<FileChange> {
    let config = absolute(config)?;
    let config_before = read(&config)?;
    let name = settings.display().to_string();
    let config_after = trust::retrust(
        config_before.as_deref().unwrap_or(""),
        &trust::identities(before, &name),
        &trust::identities(after, &name),
    )
    .with_context(|| format!("{}: cannot record hook trust", config.display()))?;
    let config_after = match (&config_before, config_after.trim().is_empty()) {
        (None, true) => None,
        _ => Some(config_after),
    };
    Ok(FileChange {
        path: config,
        before: config_before,
        after: config_after,
        executable: false,
        owned: false,
        keep_original: false,
    })
}

/// The text a changed settings file gets. An uninstall (`removing`) leaves
/// what the user had before sessionkit's first install when that is the
/// result (their file, byte for byte: spacing, escapes, order); removes a
/// file install created and left bare; else cuts only sessionkit's entries
/// out of a file that changed since. Otherwise the document rendered with
/// the file's indentation.
fn after_text(
    path: &Path,
    h: Harness,
    before: Option<&str>,
    after: &Json,
    removing: bool,
) -> Option<String> {
    if removing {
        let original = read_original(path);
        if let Some(orig) = original
            .as_deref()
            .filter(|o| parse(path, Some(o)).is_ok_and(|d| d == *after))
        {
            return Some(orig.to_string());
        }
        if edit::is_bare(after, h) && !is_bare_text(before, h) {
            return None;
        }
        if let Some(cut) = before.and_then(|t| keep::uninstall_text(t, h, after)) {
            return Some(cut);
        }
    }
    Some(after.render(&json::indent_of(before.unwrap_or(""))))
}

/// One registration as it stands in a settings file.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct Standing {
    pub harness: String,
    pub scope: String,
    pub event: String,
    pub state: Registration,
    pub command: Option<String>,
    pub file: String,
    /// The handler's timeout in milliseconds: its own, else the client's
    /// default.
    #[serde(skip)]
    pub timeout_ms: Option<u64>,
}

vocabulary! {
    /// Where one event's registration stands in a client's settings file.
    Registration, "registration state", "registration states" {
        Registered = "registered",
        /// No sessionkit handler for the event.
        Missing = "missing",
        /// A handler that runs sessionkit without `--harness`: not one
        /// `hooks install` wrote.
        HandWritten = "hand-written",
        /// A handler for an event sessionkit does not register.
        Extra = "extra",
        /// No trust or consent on record for the handler (Codex's `codex
        /// exec`, and Hermes Agent outside a terminal, skip it).
        Untrusted = "untrusted",
        /// Codex: a trust entry for another version of the handler.
        StaleTrust = "stale-trust",
        /// A file with no sessionkit handler at all.
        NotInstalled = "not installed",
        /// A file that cannot be read or parsed.
        Unreadable = "unreadable",
    }
}

/// Plans every harness's change first (a file that cannot be read or
/// merged stops the run before anything is written), refuses read-only
/// files unless `force`, then writes each change that changes something,
/// backing its file up with `stamp`: each plan and its backups. A dry run
/// plans only.
pub fn apply(
    places: &Places,
    harnesses: &[Harness],
    scope: Scope,
    target: Option<&Target>,
    stamp: &str,
    (dry_run, force): (bool, bool),
) -> Result<Vec<(Pending, Vec<PathBuf>)>> {
    let pending = harnesses
        .iter()
        .map(|h| plan(places, *h, scope, target))
        .collect::<Result<Vec<_>>>()?;
    if dry_run {
        return Ok(pending.into_iter().map(|p| (p, Vec::new())).collect());
    }
    for p in &pending {
        refuse_read_only(p, force)?;
    }
    pending
        .into_iter()
        .map(|p| {
            let backups = if p.files.iter().any(FileChange::changes) {
                commit(&p, stamp)?
            } else {
                Vec::new()
            };
            Ok((p, backups))
        })
        .collect()
}

/// The time `h` gives a handler that names `timeout` (in its unit), or
/// its default.
pub fn timeout_ms(h: Harness, timeout: Option<u64>) -> u64 {
    match timeout {
        Some(t) => t.saturating_mul(h.handlers.timeout_unit_ms),
        None => h.handlers.default_timeout_ms,
    }
}

/// What `h`'s settings at `scope` register, event by event. A file that
/// does not exist has every event `missing`; one that does not parse is an
/// error.
pub fn standing(places: &Places, h: Harness, scope: Scope) -> Result<(Vec<Standing>, Json)> {
    let (path, doc) = match h.settings.form {
        crate::domain::harness::Form::Json => {
            let path = absolute(&places.settings(h, scope))?;
            let text = read(&path)?;
            let doc = parse(&path, text.as_deref())?;
            (path, doc)
        }
        _ => own::view(places, h, scope)?,
    };
    let trust = places.trust_file(h);
    let config = match &trust {
        Some(f) => read(f)?.unwrap_or_default(),
        None => String::new(),
    };
    let ids = trust::identities(&doc, &path.display().to_string());
    let found = edit::registered(&doc, h);
    let row = |event: &str, state: Registration, command: Option<String>| Standing {
        harness: h.as_str().to_string(),
        scope: scope.as_str().to_string(),
        event: event.to_string(),
        state,
        command,
        file: path.display().to_string(),
        timeout_ms: None,
    };
    let mut out = Vec::new();
    for r in plan::registrations(h) {
        let Some(f) = found.iter().find(|f| f.event == r.event) else {
            out.push(row(r.event, Registration::Missing, None));
            continue;
        };
        let state = if !f.installed {
            Registration::HandWritten
        } else if trust.is_some() {
            let key = trust::key(&path.display().to_string(), r.event, f.group, f.handler);
            match ids.iter().find(|id| id.key == key) {
                Some(id) => match trust::trust_of(&config, &id.key, &id.hash) {
                    trust::Trust::Trusted => Registration::Registered,
                    trust::Trust::Stale => Registration::StaleTrust,
                    trust::Trust::Missing => Registration::Untrusted,
                },
                None => Registration::Untrusted,
            }
        } else {
            Registration::Registered
        };
        out.push(Standing {
            timeout_ms: Some(timeout_ms(h, f.timeout)),
            ..row(r.event, state, Some(f.command.clone()))
        });
    }
    for f in &found {
        if !plan::registrations(h).iter().any(|r| r.event == f.event) {
            out.push(row(&f.event, Registration::Extra, Some(f.command.clone())));
        }
    }
    own::consented(places, h, &mut out)?;
    Ok((out, doc))
}
