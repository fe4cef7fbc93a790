//! The command-line grammar (clap derive): the single source for `--help`,
//! the man pages and the shell completions.

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};

use crate::commands;
use crate::output::{ColorChoice, Format};

/// Whether the command tree carries each typed command's field list in its
/// long help: set when help can be shown (`--help`, `-h`, `help`, man
/// pages), so other runs do not pay for rendering it.
pub static FULL_HELP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Parses this process's command line (what the binary does).
///
/// # Errors
/// clap's, for a command line it does not accept (or help and version).
pub fn parse() -> Result<Cli, clap::Error> {
    let help = std::env::args_os()
        .skip(1)
        .any(|a| a == "--help" || a == "-h" || a == "help");
    FULL_HELP.store(help, std::sync::atomic::Ordering::Relaxed);
    let matches = command().try_get_matches()?;
    <Cli as clap::FromArgMatches>::from_arg_matches(&matches)
}

/// The formats a command prints (its `--format` takes only these, and its
/// help lists only these); `None` for a command whose output is not
/// records (a hook's answer, a shell script, a page), whose help leaves
/// `--format` out.
pub fn formats_of(command: &str) -> Option<&'static [Format]> {
    use Format::{Csv, Dot, Json, Jsonl, Markdown, Mermaid, OtlpJson, Table, Text};
    Some(match command {
        "hook" | "statusline" | "completions" | "man" | "report" | "mcp" | "help" => return None,
        "tree" => &[Table, Json, Jsonl, Text, Dot, Mermaid],
        "show" => &[Table, Json, Jsonl, Text, Markdown],
        "cost" | "search" => &[Table, Json, Jsonl, Csv],
        "export" => &[Jsonl, OtlpJson],
        _ => &[Table, Json, Jsonl, Csv, Text],
    })
}

/// The command line's definition, each command's `--format` narrowed to
/// the formats it prints (`formats_of`): each command declares its own
/// copy of the global option, which the global one then does not replace.
pub fn command() -> clap::Command {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let format = cmd
        .get_arguments()
        .find(|a| a.get_id() == "format")
        .expect("--format is declared")
        .clone();
    let json = cmd
        .get_arguments()
        .find(|a| a.get_id() == "json")
        .expect("--json is declared")
        .clone();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        if formats_of(&name).is_none_or(|f| !f.contains(&Format::Json)) {
            let hidden = json.clone().hide(true);
            cmd = cmd.mut_subcommand(&name, |sc| sc.arg(hidden));
        }
        let narrowed = match formats_of(&name) {
            None => format.clone().hide(true),
            Some(f) => format.clone().value_parser(
                clap::builder::PossibleValuesParser::new(
                    f.iter().map(|f| crate::output::format_name(*f)),
                )
                .map(|s: String| {
                    <Format as clap::ValueEnum>::from_str(&s, true).expect("a format's own name")
                }),
            ),
        };
        cmd = cmd.mut_subcommand(&name, |sc| sc.arg(narrowed));
    }
    cmd
}

/// Observability and continuity for AI coding agents, from their own
/// transcripts, in one local SQLite file.
#[derive(Debug, Parser)]
#[command(
    name = "sessionkit",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 success; 1 a check found something (check, --strict, --dry-run that would change things, import rejections); 2 an error. hook commands always exit 0.\nOutput: a table on a terminal, JSON Lines when piped; --json prints one JSON document."
)]
pub struct Cli {
    /// Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// Output format [default: SESSIONKIT_FORMAT, else table on a terminal
    /// and jsonl when piped: `cost | less` gets JSON Lines]
    #[arg(long, global = true, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Short for --format json
    #[arg(long, global = true, conflicts_with = "format")]
    pub json: bool,

    /// Print no notes or progress on stderr (errors still print)
    #[arg(long, short, global = true)]
    pub quiet: bool,

    /// Never draw a progress bar
    #[arg(long, global = true)]
    pub no_progress: bool,

    /// Tables show ids and model names whole (else a table fitting a width
    /// shortens ids to their shortest unique prefix, which `show`, `tree`
    /// and the memory commands take, and model names to `sonnet-4-5`)
    #[arg(long, global = true)]
    pub wide: bool,

    /// When to use colour (NO_COLOR is honoured under auto)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Every command; each variant's doc line is its one-line help.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read every agent's transcripts on this machine into the database (incremental)
    Ingest(commands::ingest::Args),
    /// Re-project every session whose files still exist, ignoring checkpoints
    Replay(commands::ingest::Args),
    /// Which agents' transcripts are on this machine: roots, sessions, what is skipped and why
    Sources(commands::sources::Args),
    /// List sessions with their token totals
    Sessions(commands::sessions::Args),
    /// One session: agents, tokens per agent and model, degraded lines; its conversation as Markdown
    Show(commands::show::Args),
    /// Find what agents and users said: prompts, answers, tool calls, across every agent's sessions
    Search(commands::search::Args),
    /// The agent tree of a session: who spawned whom, status, duration, tokens
    Tree(commands::tree::Args),
    /// What the agents cost: tokens and exact dollars by day, week, month, session, model, ...
    Cost(commands::cost::Args),
    /// Usage-limit history: each five-hour and weekly window, its stated share, spend and pace
    Limits(commands::limits::Args),
    /// One self-contained HTML file: cost over time, top sessions, agent trees, limits, memory
    Report(commands::report::Args),
    /// The price table: list, set a model's price, import LiteLLM's price map
    Pricing(commands::pricing::Args),
    /// Remove projected transcript data older than a date (never memories or runs)
    Prune(commands::prune::Args),
    /// Write sessions, agents and messages into a team's PostgreSQL database, exactly once
    Push(commands::push::Args),
    /// Integrity report for CI: degraded lines, failures, a recount against the files; --golden DIR checks a golden corpus
    Check(commands::check::Args),
    /// The briefing a session starts with (what a hook injects); --explain says why
    Brief(commands::brief::Args),
    /// A read-only Model Context Protocol server on stdio: agents search their history, memories, sessions and costs mid-session
    Mcp(commands::mcp::Args),
    /// Record a harness's lifecycle event from stdin (register in the harness's hook settings)
    Hook(commands::hook::Args),
    /// Claude Code's status line: model, exact costs, the five-hour and weekly limits and their pace
    Statusline(commands::statusline::Args),
    /// Register sessionkit's hooks in each harness's settings; status; doctor
    Hooks(commands::hooks::Args),
    /// Which sessions and agents are working, waiting, finished or silent
    Status(commands::status::Args),
    /// Periodic upkeep for cron: open sessions' transcripts caught up; the watchdog marks silent agents unknown; runs past their lease close
    Sweep(commands::sweep::Args),
    /// Record a memory (decision, commitment, constraint, ...); prints its id
    Remember(commands::memory::RememberArgs),
    /// Supersede a memory with a changed version (history kept), or move a commitment between open and waiting
    Revise(commands::memory::ReviseArgs),
    /// Resolve a commitment (a blocker is archived)
    Resolve(commands::memory::SettleArgs),
    /// Reopen a resolved or expired commitment
    Unresolve(commands::memory::SettleArgs),
    /// Archive a memory (a commitment expires)
    Archive(commands::memory::SettleArgs),
    /// Search memories by words, best first, with a highlighted snippet
    Recall(commands::memory::RecallArgs),
    /// List memories (live ones unless --all)
    Memories(commands::memory::MemoriesArgs),
    /// One memory in full, or redact one
    Memory(commands::memory::MemoryArgs),
    /// Write every memory, commitment and audit event as deterministic JSON Lines; or the transcripts as OpenTelemetry (--format otlp-json, --otlp-endpoint)
    Export(commands::memory::ExportArgs),
    /// Replay an export file (same ids and times; idempotent)
    Import(commands::memory::ImportArgs),
    /// Agent runs: open, heartbeat, close, show, list, and the memory events a run wrote
    Session(commands::session::Args),
    /// The turn-end handshake: begin arms one debrief attempt, complete finalizes it
    Triage(commands::triage::Args),
    /// Prompts sessionkit gives agents: debrief (what the Stop nudge injects)
    Prompt(commands::prompt::Args),
    /// Measure the closer on labeled cases (recall, precision, spurious resolves)
    Eval(commands::eval::Args),
    /// Read and write runtime settings
    Config(commands::config::Args),
    /// Print shell completions (or write them all into a directory)
    Completions(commands::completions::Args),
    /// Print the man page (or write every page into a directory)
    Man(commands::man::Args),
    /// Print the JSON Schema of a command's JSON output
    Schema(commands::schema::Args),
}

impl Cli {
    /// The format asked for, if any (`--json` is `--format json`), else
    /// the one `SESSIONKIT_FORMAT` names.
    pub fn format(&self) -> anyhow::Result<Option<Format>> {
        if self.json {
            return Ok(Some(Format::Json));
        }
        if self.format.is_some() {
            return Ok(self.format);
        }
        match std::env::var("SESSIONKIT_FORMAT") {
            Ok(v) if !v.trim().is_empty() => {
                use clap::ValueEnum;
                Format::from_str(v.trim(), true).map(Some).map_err(|_| {
                    anyhow::anyhow!(
                        "SESSIONKIT_FORMAT={v:?} is not a format: table, json, jsonl, csv, text, dot, mermaid, markdown or otlp-json"
                    )
                })
            }
            _ => Ok(None),
        }
    }
}
