//! `sessionkit hooks install|uninstall|status|doctor`: sessionkit's hook
//! registrations in each harness's own settings, in one command.

use anyhow::{Context, Result, bail};

mod report;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::harness::Harness;
use crate::output::records::{
    HOOKS_DOCTOR_SCHEMA, HOOKS_STATUS_SCHEMA, HookCheckRecord, HookStandingRecord,
    HooksChangeRecord,
};
use crate::output::{Column, col};
use crate::services::install::{self, Places, Registration, Scope, Target};
use report::{print_changes, record};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("hooks"))]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Register sessionkit's hooks in each harness's settings (merged, atomic, backed up)
    ///
    /// Merges one handler per event sessionkit handles into the harness's
    /// own settings: Claude Code ~/.claude/settings.json (or
    /// $CLAUDE_CONFIG_DIR), Codex $CODEX_HOME/hooks.json plus the trust
    /// entries `codex exec` needs in config.toml, Gemini CLI
    /// ~/.gemini/settings.json, Qwen Code ~/.qwen/settings.json, Droid
    /// ~/.factory/settings.json, Cursor ~/.cursor/hooks.json, Copilot CLI
    /// ~/.copilot/hooks/sessionkit.json (with --scope project, the same
    /// files under the project root: .claude/, .codex/, .gemini/, .qwen/,
    /// .factory/, .cursor/, .github/hooks/). Kimi CLI gets a marked block
    /// of [[hooks]] at the end of ~/.kimi/config.toml, Hermes Agent a
    /// marked hooks: block at the end of ~/.hermes/config.yaml (and its
    /// consent to each command in shell-hooks-allowlist.json); both read
    /// user settings only. Cline gets a program per event in
    /// ~/.cline/hooks/ (.clinerules/hooks/), OpenCode and Kilo a plugin,
    /// plugin/sessionkit.js in ~/.config/opencode or ~/.config/kilo
    /// (.opencode/plugin/, .kilo/plugin/), pi an extension,
    /// ~/.pi/agent/extensions/sessionkit.ts (.pi/extensions/): files
    /// sessionkit owns whole, never one of the same name it did not write.
    /// Other entries are never changed; a hand-written `sessionkit hook`
    /// entry for the same event is adopted. A file that does not parse, or
    /// that the client already rejects, is refused. The old file is kept as
    /// <file>.sessionkit-<time>-<pid>-<n>.bak, and the file as it was before
    /// sessionkit first changed it as <file>.sessionkit-orig (never
    /// overwritten; uninstall gives its bytes back when nothing else
    /// changed). A read-only file is refused unless --force. Each command
    /// passes --harness, and --db when given. Without --harness: every
    /// harness found on this machine (its settings folder or program
    /// exists).
    Install(InstallArgs),
    /// Remove exactly the registrations install added (hand-written ones stay)
    Uninstall(ChangeArgs),
    /// What is registered where, event by event (with a client's trust in its hooks, and sessionkit's MCP server)
    Status(StatusArgs),
    /// Run each registered hook with its client's payload, check its output, latency and the database
    ///
    /// For each harness with registrations: runs every registered command
    /// with the client's real payload shape against a scratch database,
    /// checks its stdout against what that client accepts (no
    /// hookSpecificOutput for Claude Code's PreCompact and SessionEnd, no
    /// extra keys for Codex, no angle brackets for Gemini, nothing on
    /// stderr under Gemini), measures its latency against the
    /// registration's timeout, checks Codex's trust, that the database is
    /// writable, and reports recent hook failures. Exit 1 on any problem,
    /// each printed with its fix.
    Doctor(StatusArgs),
}

#[derive(Debug, clap::Args)]
pub struct ChangeArgs {
    /// Only this harness [default: every harness found]
    #[arg(long, value_name = "NAME", value_parser = crate::domain::harness::harness_arg())]
    pub harness: Vec<Harness>,
    /// Whose settings: the user's, or the project's (the enclosing git work tree)
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Print the change as a diff and write nothing (exit 1 when there is one)
    #[arg(long)]
    pub dry_run: bool,
    /// Change a settings file even when it is read-only (its mode has no write bit)
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    #[command(flatten)]
    pub change: ChangeArgs,
    /// Also turn the turn-end debrief nudge on (setting nudge.enabled) in the database the hooks use
    #[arg(long)]
    pub with_nudge: bool,
    /// The program the registrations run: a path (made absolute) or a name looked up on the client's PATH [default: this sessionkit's absolute path]
    #[arg(long, value_name = "PATH")]
    pub program: Option<String>,
    /// Also register `sessionkit statusline` as Claude Code's status line
    /// (a status line of your own is left as it is; uninstall takes out
    /// only sessionkit's)
    #[arg(long)]
    pub statusline: bool,
    /// Also register `sessionkit mcp` (a read-only MCP server over the
    /// database) where the client takes MCP servers, at user scope: Claude
    /// Code ~/.claude.json, Codex config.toml, Gemini CLI and Qwen Code
    /// their settings.json, Copilot CLI ~/.copilot/mcp-config.json, Droid
    /// ~/.factory/mcp.json, Kimi CLI ~/.kimi/mcp.json, OpenCode
    /// opencode.json and Kilo kilo.json in their config folders, Cline
    /// ~/.cline/data/settings/cline_mcp_settings.json, Hermes Agent its
    /// config.yaml's mcp_servers; an entry
    /// named sessionkit of your own is left as it is, and uninstall takes
    /// out only sessionkit's. The search index is built now, since the
    /// server only reads
    #[arg(long)]
    pub with_mcp: bool,
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Only this harness [default: every one]
    #[arg(long, value_name = "NAME", value_parser = crate::domain::harness::harness_arg())]
    pub harness: Vec<Harness>,
    /// Only this scope [default: both]
    #[arg(long, value_enum)]
    pub scope: Option<Scope>,
}

const CHANGE_COLUMNS: &[Column] = &[
    col("harness", "harness"),
    col("scope", "scope"),
    col("file", "file"),
    col("summary", "change"),
    col("backups", "backup"),
];

const STATUS_COLUMNS: &[Column] = &[
    col("harness", "harness"),
    col("scope", "scope"),
    col("event", "event"),
    col("state", "state"),
    col("command", "command"),
];

const CHECK_COLUMNS: &[Column] = &[
    col("harness", "harness"),
    col("scope", "scope"),
    col("check", "check"),
    col("event", "event"),
    col("ok", "ok"),
    col("detail", "detail"),
    col("fix", "fix"),
];

pub fn run(ctx: &Ctx, args: &Args, db_given: bool) -> Result<Exit> {
    let places = Places::from_env()?;
    match &args.action {
        Action::Install(a) => change(ctx, &places, &a.change, Some(a), db_given),
        Action::Uninstall(a) => change(ctx, &places, a, None, db_given),
        Action::Status(a) => status(ctx, &places, a),
        Action::Doctor(a) => doctor(ctx, &places, a),
    }
}

/// The harnesses a change applies to: those named, else those found.
fn chosen(places: &Places, named: &[Harness]) -> Result<Vec<Harness>> {
    if !named.is_empty() {
        let mut v = named.to_vec();
        v.dedup();
        return Ok(v);
    }
    let found: Vec<Harness> = crate::domain::harness::all()
        .filter(|h| places.found(*h))
        .collect();
    if found.is_empty() {
        let programs: Vec<&str> = crate::domain::harness::all()
            .flat_map(|h| h.settings.programs.iter().copied())
            .collect();
        bail!(
            "no harness found on this machine (none of their settings folders, and none of their programs on PATH: {}); name one with --harness",
            programs.join(", ")
        );
    }
    Ok(found)
}

fn change(
    ctx: &Ctx,
    places: &Places,
    a: &ChangeArgs,
    install: Option<&InstallArgs>,
    db_given: bool,
) -> Result<Exit> {
    let target = install.map(|i| target_of(ctx, i, db_given)).transpose()?;
    let harnesses = in_scope(places, a, target.as_ref())?;
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let applied = install::apply(
        places,
        &harnesses,
        a.scope,
        target.as_ref(),
        &stamp,
        (a.dry_run, a.force),
    )?;
    let any = applied
        .iter()
        .any(|(p, _)| p.files.iter().any(install::FileChange::changes));
    let rows: Vec<HooksChangeRecord> = applied
        .iter()
        .map(|(p, backups)| {
            let diff: String = p.files.iter().map(install::FileChange::diff).collect();
            record(p, target.is_some(), a.dry_run, backups, diff)
        })
        .collect();
    if let Some(i) = install
        && i.with_nudge
        && !a.dry_run
    {
        turn_nudge_on(ctx)?;
    }
    print_changes(ctx, &rows, a.dry_run)?;
    if let Some(i) = install
        && i.with_mcp
        && !a.dry_run
    {
        index_for_agents(ctx)?;
    }
    if target.is_some() && a.harness.is_empty() {
        let bare: Vec<&str> = crate::domain::clients::found_without_hooks()
            .iter()
            .map(|c| c.label)
            .collect();
        if !bare.is_empty() {
            ctx.out.note(&format!(
                "also found {}, with no hooks to register: `sessionkit ingest` reads their sessions",
                bare.join(", ")
            ));
        }
    }
    if let Some(t) = target.as_ref().filter(|_| !a.dry_run) {
        after_install(ctx, places, &harnesses, a.scope, t, any);
    }
    Ok(if a.dry_run && any {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// The harnesses a change at `a.scope` applies to; a named one that has
/// no such scope, or `--with-mcp` at project scope, is an error.
fn in_scope(places: &Places, a: &ChangeArgs, target: Option<&Target>) -> Result<Vec<Harness>> {
    if target.is_some_and(|t| t.mcp) && a.scope == install::Scope::Project {
        bail!("--with-mcp registers the MCP server in the user's settings only: use --scope user");
    }
    let mut harnesses = chosen(places, &a.harness)?;
    if let Some(h) = a.harness.iter().find(|h| !install::has_scope(**h, a.scope)) {
        bail!(
            "{} reads hooks from its user settings only ({}): use --scope user",
            h.label,
            places.settings(*h, install::Scope::User).display()
        );
    }
    harnesses.retain(|h| install::has_scope(*h, a.scope));
    Ok(harnesses)
}

/// What the registered command runs: `--program` (a relative path made
/// absolute, since the client runs it from elsewhere; a bare name looked
/// up on the client's PATH), else this program; and `--db` when given.
fn target_of(ctx: &Ctx, i: &InstallArgs, db_given: bool) -> Result<Target> {
    let program = match &i.program {
        Some(p) if p.contains('/') && !p.starts_with('/') => std::env::current_dir()
            .context("reading the working directory")?
            .join(p)
            .display()
            .to_string(),
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .context("finding this program's path (pass --program)")?
            .display()
            .to_string(),
    };
    Ok(Target {
        program,
        db: db_given.then(|| absolute_db(&ctx.db)).transpose()?,
        statusline: i.statusline,
        mcp: i.with_mcp,
    })
}

/// `--with-mcp`: the search index built now (the server only reads, so
/// it cannot build it at an agent's first search); ingest keeps it
/// current after.
fn index_for_agents(ctx: &Ctx) -> Result<()> {
    let mut store = ctx.open_writer()?;
    let pb = ctx
        .out
        .progress_bar(0, "indexing what was said, for the agents' searches");
    let built = crate::services::search::build_index(&mut store, pb.as_ref());
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    super::note_built(ctx, &built?, crate::services::ingest::index_mode(&store)?);
    Ok(())
}

/// `--with-nudge`: the setting `nudge.enabled` on.
fn turn_nudge_on(ctx: &Ctx) -> Result<()> {
    let store = ctx.open_writer()?;
    let nudge = crate::services::settings::lookup("nudge.enabled")?;
    let on = crate::services::settings::validate(nudge, "on")?;
    store.set_setting(nudge.key, &on, crate::domain::clock::now())?;
    if std::env::var("SESSIONKIT_STOP_NUDGE").is_ok_and(|v| !v.trim().is_empty()) {
        ctx.out
            .note("SESSIONKIT_STOP_NUDGE is set in the environment and overrides nudge.enabled");
    }
    Ok(())
}

/// What an install says after its records: the clients' own gates on
/// project hooks, hooks registered twice, and the one cron line still
/// useful.
fn after_install(
    ctx: &Ctx,
    places: &Places,
    harnesses: &[Harness],
    scope: Scope,
    t: &Target,
    any: bool,
) {
    for h in harnesses
        .iter()
        .filter(|h| t.statusline && h.settings.status_line)
    {
        let theirs = install::status_line_of(places, *h, scope)
            .ok()
            .flatten()
            .filter(|c| !install::plan::is_sessionkit_statusline(c));
        if let Some(c) = theirs {
            ctx.out.note(&format!(
                "{}: a status line of your own is set ({c}): left as it is; replace it with `sessionkit statusline` by hand to use sessionkit's",
                h.as_str()
            ));
        }
    }
    let no_mcp: Vec<&str> = harnesses
        .iter()
        .filter(|h| t.mcp && h.settings.mcp.is_none())
        .map(|h| h.label)
        .collect();
    if !no_mcp.is_empty() {
        ctx.out.note(&format!(
            "{}: sessionkit does not register its MCP server there; add `{} mcp` to the client's MCP servers by hand",
            no_mcp.join(", "),
            t.program
        ));
    }
    // Project hooks have a second gate, the client's own (and so do all
    // of a client that reads no project hooks).
    for h in harnesses {
        if let Some(note) = h
            .settings
            .project_note
            .filter(|_| scope == Scope::Project || !install::has_scope(*h, Scope::Project))
        {
            ctx.out.note(&format!("{}: {note}", h.as_str()));
        }
    }
    for h in harnesses {
        for f in crate::services::doctor::twice(places, *h) {
            ctx.out.note(&format!(
                "{}: {} (fix: {})",
                h.as_str(),
                f.detail,
                f.fix.unwrap_or_default()
            ));
        }
    }
    if any {
        let db =
            t.db.as_deref()
                .map(|d| format!(" --db {}", install::plan::quote(d)))
                .unwrap_or_default();
        ctx.out.note(
            "the hooks keep the database current; the one cron line still useful closes what no hook will:",
        );
        ctx.out.note(&format!(
            "*/15 * * * * {}{db} sweep --quiet",
            install::plan::quote(&t.program)
        ));
    }
}

/// The database path as the registered command names it: absolute.
fn absolute_db(db: &std::path::Path) -> Result<String> {
    let p = if db.is_absolute() {
        db.to_path_buf()
    } else {
        std::env::current_dir()?.join(db)
    };
    Ok(p.display().to_string())
}

/// The harnesses named, else every one.
fn named_or_all(named: &[Harness]) -> Vec<Harness> {
    if named.is_empty() {
        crate::domain::harness::all().collect()
    } else {
        named.to_vec()
    }
}

fn status(ctx: &Ctx, places: &Places, a: &StatusArgs) -> Result<Exit> {
    let harnesses = named_or_all(&a.harness);
    let scopes = match a.scope {
        Some(s) => vec![s],
        None => vec![Scope::User, Scope::Project],
    };
    let mut rows = Vec::new();
    for h in harnesses {
        for scope in &places.distinct(h, &scopes) {
            let standing = match install::standing(places, h, *scope) {
                Ok((s, _)) => s,
                Err(e) => {
                    // One unreadable file does not hide the others.
                    ctx.out.note(&format!("{e:#}"));
                    rows.push(standing_row(&install::Standing {
                        harness: h.as_str().into(),
                        scope: scope.as_str().into(),
                        event: "*".into(),
                        state: Registration::Unreadable,
                        command: None,
                        file: places.settings(h, *scope).display().to_string(),
                        timeout_ms: None,
                    }));
                    continue;
                }
            };
            // A file with nothing of sessionkit's is one line, not a list
            // of every missing event.
            if standing.iter().all(|s| s.state == Registration::Missing) {
                rows.push(standing_row(&install::Standing {
                    event: "*".into(),
                    state: Registration::NotInstalled,
                    command: None,
                    ..standing[0].clone()
                }));
                continue;
            }
            rows.extend(standing.iter().map(standing_row));
        }
        // sessionkit's MCP server, where it is registered (user scope).
        if scopes.contains(&Scope::User) {
            match install::mcp::registered(places, h) {
                Ok(Some(file)) => rows.push(standing_row(&install::Standing {
                    harness: h.as_str().into(),
                    scope: Scope::User.as_str().into(),
                    event: "mcp".into(),
                    state: Registration::Registered,
                    command: None,
                    file: file.display().to_string(),
                    timeout_ms: None,
                })),
                Ok(None) => {}
                Err(e) => ctx.out.note(&format!("{e:#}")),
            }
        }
    }
    ctx.out.records(STATUS_COLUMNS, &rows)?;
    Ok(Exit::Success)
}

fn standing_row(s: &install::Standing) -> serde_json::Value {
    serde_json::to_value(HookStandingRecord {
        command: s.command.clone(),
        event: s.event.clone(),
        file: s.file.clone(),
        harness: s.harness.clone(),
        schema: HOOKS_STATUS_SCHEMA.into(),
        scope: s.scope.clone(),
        state: s.state.as_str().into(),
    })
    .expect("a record is JSON")
}

fn doctor(ctx: &Ctx, places: &Places, a: &StatusArgs) -> Result<Exit> {
    let harnesses = named_or_all(&a.harness);
    let findings = crate::services::doctor::examine(places, &harnesses, a.scope, &ctx.db)?;
    let rows: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            serde_json::to_value(HookCheckRecord {
                check: f.check.as_str().into(),
                detail: f.detail.clone(),
                event: f.event.clone(),
                fix: f.fix.clone(),
                harness: f.harness.clone(),
                ms: f.ms,
                ok: f.ok,
                schema: HOOKS_DOCTOR_SCHEMA.into(),
                scope: f.scope.clone(),
            })
            .expect("a record is JSON")
        })
        .collect();
    ctx.out.records(CHECK_COLUMNS, &rows)?;
    Ok(if findings.iter().all(|f| f.ok) {
        Exit::Success
    } else {
        Exit::Found
    })
}
