//! One module per verb: arguments → a domain call → rendered result.

pub mod brief;
pub mod check;
pub mod completions;
pub mod config;
mod contracts;
pub mod cost;
pub mod eval;
pub mod hook;
pub mod hooks;
pub mod ingest;
pub mod limits;
pub mod man;
pub mod mcp;
pub mod memory;
pub mod pricing;
pub mod prompt;
pub mod prune;
pub mod push;
pub mod report;
pub mod schema;
pub mod search;
pub mod session;
pub mod sessions;
pub mod show;
pub mod sources;
pub mod status;
pub mod statusline;
pub mod sweep;
pub mod tree;
pub mod triage;

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::output::Output;
pub(crate) use crate::output::records::put_totals;
use crate::store::Store;
pub(crate) use contracts::{TYPED, contract};

/// How a command that did not fail ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Exit status 0.
    Success,
    /// Exit status 1: a check found something.
    Found,
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> std::process::ExitCode {
        match self {
            Exit::Success => std::process::ExitCode::SUCCESS,
            Exit::Found => std::process::ExitCode::from(1),
        }
    }
}

/// A run's natural key: the harness and its session id (`session`,
/// `triage`, `prompt debrief`).
#[derive(Debug, clap::Args)]
pub struct Key {
    /// The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name
    #[arg(long, value_name = "A")]
    pub agent: String,
    /// The harness's session id
    #[arg(long, value_name = "S")]
    pub session_id: String,
}

/// What every command that uses the database gets.
pub struct Ctx {
    pub db: PathBuf,
    /// The database was named by `--db` (not by `SESSIONKIT_DB` or the
    /// default place).
    pub db_given: bool,
    pub out: Output,
    /// Never write: every open is read-only, a command that would write
    /// (a search's index, a recall's demand) leaves it (`sessionkit mcp`).
    pub read_only: bool,
}

impl Ctx {
    /// The database for a command that reads: when it cannot be opened for
    /// writing (a read-only file or folder), it is opened to read only.
    /// A file `--db` names that is not there is an error that names it: a
    /// read command does not create it (a mistyped `--db` would read as an
    /// empty database). The default place, or `SESSIONKIT_DB`, is created
    /// as a writer would (a new machine's first `sessions` says "none").
    pub fn open(&self) -> Result<Store> {
        if (self.db_given || self.read_only) && std::fs::symlink_metadata(&self.db).is_err() {
            anyhow::bail!(
                "there is no database at {} (--db): a command that reads does not create one; check the path, or run `sessionkit --db {} ingest` to make it",
                self.db.display(),
                self.db.display()
            );
        }
        self.open_creating()
    }

    /// `open`, creating the database when it is not there (a command that
    /// sets something up: `config`, `prompt`).
    pub fn open_creating(&self) -> Result<Store> {
        if self.read_only {
            return Store::open_read_only(&self.db);
        }
        match Store::open(&self.db) {
            Ok(s) => Ok(s),
            Err(e) if crate::store::is_read_only(&e) && self.db.is_file() => {
                Store::open_read_only(&self.db).map_err(|ro| {
                    ro.context(format!("{e:#}; reading it without writing failed too"))
                })
            }
            Err(e) => Err(e),
        }
    }

    /// `open` for a command that writes: it drains the hook spool first,
    /// being the next writer (`store::spool`). A drain that fails leaves the
    /// spool as it is, says so, and the command goes on.
    pub fn open_writer(&self) -> Result<Store> {
        if self.read_only {
            return self.open();
        }
        let mut store = Store::open(&self.db)?;
        if let Err(e) = store.drain_spool() {
            self.out.note(&format!(
                "the hook spool was not drained ({e:#}); it is kept for the next writer"
            ));
        }
        Ok(store)
    }
}

/// Where transcripts are and how to read them (shared by ingest, replay, check).
#[derive(Debug, Clone, clap::Args)]
pub struct CorpusArgs {
    /// Corpus root, repeatable [default: each agent's own folders where they exist, each moved by its agent's variable, as `sessionkit sources` lists them]
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,

    /// Per-line size cap in bytes; a longer line is a degraded line (files have no cap) [default: setting ingest.max_line_size, 64 MiB]
    #[arg(long, value_name = "BYTES", alias = "max-file-size")]
    pub max_line_size: Option<u64>,
}

/// Resolves the roots to read; `None` when none was given and none exists.
/// Without `--root`, `check` and `replay` (`stored`) read the roots ingest
/// last read from that still exist; otherwise, and for `ingest`, Claude
/// Code's default folders.
pub(crate) fn roots(
    ctx: &Ctx,
    args: &CorpusArgs,
    stored: Option<&Store>,
) -> Result<Option<Vec<crate::services::ingest::Root>>> {
    let remembered: Vec<PathBuf> = match stored {
        Some(store) if args.roots.is_empty() => store
            .ingested_roots()?
            .into_iter()
            .map(PathBuf::from)
            .filter(|p| {
                let there = p.is_dir();
                if !there {
                    ctx.out.note(&format!(
                        "a root ingest read from is gone, skipped: {}",
                        p.display()
                    ));
                }
                there
            })
            .collect(),
        _ => Vec::new(),
    };
    let given = if !args.roots.is_empty() {
        let mut out = Vec::new();
        for r in &args.roots {
            match crate::domain::clients::home_roots(r) {
                Some(inner) => {
                    let names: Vec<String> =
                        inner.iter().map(|p| p.display().to_string()).collect();
                    ctx.out.note(&format!(
                        "{} is a client's home: reading {}",
                        r.display(),
                        names.join(" and ")
                    ));
                    out.extend(inner);
                }
                None => out.push(r.clone()),
            }
        }
        out
    } else if !remembered.is_empty() {
        remembered
    } else {
        crate::domain::clients::default_roots()
    };
    if given.is_empty() {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from);
        let looked: Vec<String> = crate::domain::clients::looked_in()
            .iter()
            .map(
                |p| match home.as_deref().and_then(|h| p.strip_prefix(h).ok()) {
                    Some(rest) => format!("~/{}", rest.display()),
                    None => p.display().to_string(),
                },
            )
            .collect();
        ctx.out.note(&format!(
            "no transcripts found (looked in {}); pass --root DIR",
            looked.join(", ")
        ));
        return Ok(None);
    }
    Ok(Some(crate::services::ingest::resolve_roots(&given)?))
}

/// `--tz ZONE`, else the system's zone.
pub(crate) fn time_zone(name: Option<&str>) -> Result<jiff::tz::TimeZone> {
    match name {
        Some(name) => jiff::tz::TimeZone::get(name)
            .with_context(|| format!("--tz {name:?} is not a known time zone")),
        None => Ok(jiff::tz::TimeZone::system()),
    }
}

/// A period in a time zone: `--since`, `--until`, `--tz` (`cost`, `search`,
/// `report`).
#[derive(Debug, Clone, clap::Args)]
pub struct PeriodArgs {
    /// Messages since T (RFC 3339, a date YYYY-MM-DD or YYYYMMDD, a span such
    /// as 30d, or today, yesterday, this-week, last-week, this-month,
    /// last-month; dates and words are days in --tz)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Messages before T (same forms as --since; a date or a calendar word
    /// includes its whole span)
    #[arg(long, value_name = "T")]
    pub until: Option<String>,

    /// Time zone of days, weeks and months (IANA name) [default: the local zone]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
}

impl PeriodArgs {
    /// The zone (`--tz`, else the system's) and the period's bounds in it.
    pub fn resolve(
        &self,
    ) -> Result<(
        jiff::tz::TimeZone,
        Option<crate::domain::clock::Millis>,
        Option<crate::domain::clock::Millis>,
    )> {
        let tz = time_zone(self.tz.as_deref())?;
        let bound = |s: &Option<String>, end: bool| {
            s.as_deref()
                .map(|s| crate::domain::clock::parse_bound_in(s, &tz, end))
                .transpose()
        };
        let (since, until) = (bound(&self.since, false)?, bound(&self.until, true)?);
        Ok((tz, since, until))
    }
}

/// A typed command's `--help` field list, from its schema.
pub(crate) fn help_fields(command: &str) -> String {
    // Rendering every typed command's schema costs ~4 ms of CPU, paid by
    // every process (clap builds the whole tree): only when help is shown.
    if !crate::cli::FULL_HELP.load(std::sync::atomic::Ordering::Relaxed) {
        return String::new();
    }
    contract(command)
        .map(|(schema, unit)| crate::output::schema::help_text(command, unit, &schema))
        .unwrap_or_default()
}

/// Bytes as text, or an error naming where they came from and what was not
/// done (`{name} is not UTF-8 (invalid byte at offset N): {consequence}`).
pub(crate) fn utf8(bytes: Vec<u8>, name: &str, consequence: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name} is not UTF-8 (invalid byte at offset {}): {consequence}",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Says on stderr which models have no price, each with the command that
/// gives it one: their cost shows as `-`, never as 0.
pub(crate) fn name_unpriced<'a>(ctx: &Ctx, models: impl IntoIterator<Item = &'a str>) {
    for m in models {
        ctx.out.note(&format!(
            "no price for model {m:?}: its cost is left out (-); set one with `sessionkit pricing set {m} --input USD --output USD` (per million tokens)"
        ));
    }
}

/// All of stdin.
pub(crate) fn stdin_bytes() -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("reading stdin: {e}"))?;
    Ok(bytes)
}

/// A flag's value, or all of stdin (as UTF-8) when the value is `-`.
pub(crate) fn value_or_stdin(v: &str, name: &str) -> Result<String> {
    if v != "-" {
        return Ok(v.to_string());
    }
    utf8(stdin_bytes()?, name, "nothing was written")
}

/// Says on stderr what indexing before the search did, and which sessions
/// the answer could not look at.
pub(crate) fn note_built(
    ctx: &Ctx,
    b: &crate::services::search::Built,
    mode: crate::services::ingest::IndexMode,
) {
    if b.sessions > 0 {
        ctx.out.note(&format!(
            "indexed what was said in {} session(s) ({:.1} MiB of transcripts, {:.1} s); ingest keeps the index current from now on",
            b.sessions,
            b.bytes as f64 / f64::from(1 << 20),
            b.elapsed_ms as f64 / 1000.0
        ));
    }
    if b.gone > 0 && b.sessions + b.failed > 0 {
        ctx.out.note(&format!(
            "{} stored session(s) have no transcript left in the folders ingest read: what they said is not searchable",
            b.gone
        ));
    }
    if b.left == 0 {
        return;
    }
    let why = if let Some(since) = b.busy_since {
        format!(
            "another sessionkit has been indexing them since {}; search again when it is done",
            crate::domain::clock::format_instant(since)
        )
    } else if b.unwritable && ctx.read_only {
        "this only reads; one `sessionkit search` on the command line indexes them".to_string()
    } else if b.unwritable {
        "the database cannot be written now".to_string()
    } else if mode == crate::services::ingest::IndexMode::Off {
        "the setting search.index is off".to_string()
    } else {
        "their transcripts could not be read; the next search tries again".to_string()
    };
    ctx.out.note(&format!(
        "{} session(s) are not in the search index, and were not searched: {why}",
        b.left
    ));
}

/// Runs a command line for `sessionkit mcp`: read-only on `db`, its JSON
/// and notes captured, never printed.
pub(crate) fn run_captured(
    db: &std::path::Path,
    argv: &[String],
) -> Result<crate::output::Captured> {
    let matches = crate::cli::command().try_get_matches_from(
        std::iter::once("sessionkit".to_string()).chain(argv.iter().cloned()),
    )?;
    let cli = <crate::cli::Cli as clap::FromArgMatches>::from_arg_matches(&matches)?;
    anyhow::ensure!(
        matches!(
            cli.command,
            crate::cli::Command::Search(_)
                | crate::cli::Command::Recall(_)
                | crate::cli::Command::Memories(_)
                | crate::cli::Command::Sessions(_)
                | crate::cli::Command::Show(_)
                | crate::cli::Command::Cost(_)
                | crate::cli::Command::Brief(_)
        ),
        "not a command that only reads"
    );
    let capture = crate::output::Capture::default();
    let mut out = Output::new(
        cli.format()?,
        crate::output::ColorChoice::Never,
        false,
        true,
    );
    out.width = None;
    out.capture = Some(capture.clone());
    let ctx = Ctx {
        db: db.to_path_buf(),
        db_given: true,
        out,
        read_only: true,
    };
    dispatch(&ctx, cli.command)?;
    drop(ctx);
    let captured = std::mem::take(&mut *capture.lock().map_err(|_| anyhow::anyhow!("poisoned"))?);
    Ok(captured)
}

/// Runs a command that reads or writes the database.
pub(crate) fn dispatch(ctx: &Ctx, command: crate::cli::Command) -> Result<Exit> {
    use crate::cli::Command;
    use crate::domain::memory::Settle;
    match command {
        Command::Ingest(a) => ingest::run(ctx, &a),
        Command::Replay(a) => ingest::replay(ctx, &a),
        Command::Sessions(a) => sessions::run(ctx, &a),
        Command::Show(a) => show::run(ctx, &a),
        Command::Search(a) => search::run(ctx, &a),
        Command::Report(a) => report::run(ctx, &a),
        Command::Tree(a) => tree::run(ctx, &a),
        Command::Sources(a) => sources::run(ctx, &a),
        Command::Cost(a) => cost::run(ctx, &a),
        Command::Limits(a) => limits::run(ctx, &a),
        Command::Pricing(a) => pricing::run(ctx, &a),
        Command::Prune(a) => prune::run(ctx, &a),
        Command::Push(a) => push::run(ctx, &a),
        Command::Check(a) => check::run(ctx, &a),
        Command::Config(a) => config::run(ctx, &a),
        Command::Status(a) => status::run(ctx, &a),
        Command::Session(a) => session::run(ctx, &a),
        Command::Triage(a) => triage::run(ctx, &a),
        Command::Prompt(a) => prompt::run(ctx, &a),
        Command::Eval(a) => eval::run(ctx, &a),
        Command::Brief(a) => brief::run(ctx, &a),
        Command::Remember(a) => memory::remember(ctx, &a),
        Command::Revise(a) => memory::revise(ctx, &a),
        Command::Resolve(a) => memory::settle(ctx, &a, Settle::Resolve),
        Command::Unresolve(a) => memory::settle(ctx, &a, Settle::Unresolve),
        Command::Archive(a) => memory::settle(ctx, &a, Settle::Archive),
        Command::Recall(a) => memory::recall(ctx, &a),
        Command::Memories(a) => memory::memories(ctx, &a),
        Command::Memory(a) => memory::memory(ctx, &a),
        Command::Export(a) => memory::export(ctx, &a),
        Command::Import(a) => memory::import(ctx, &a),
        Command::Sweep(a) => sweep::run(ctx, &a),
        Command::Hooks(a) => hooks::run(ctx, &a, ctx.db_given),
        Command::Completions(_)
        | Command::Mcp(_)
        | Command::Man(_)
        | Command::Schema(_)
        | Command::Hook(_)
        | Command::Statusline(_) => {
            unreachable!("handled above")
        }
    }
}
