//! sessionkit: observability and continuity for AI coding agents, in one
//! local SQLite file. `run` executes one parsed command line.
//!
//! The library is the binary's body, not an API: its modules are private
//! (ARCHITECTURE.md says how they layer). What is public is the command
//! line (`cli`, `run`, `Exit`) and the few functions the integration tests
//! and benchmarks call, each documented.

#[macro_use]
mod domain;

pub mod cli;
mod commands;
/// The fuzz targets' bodies, for the `fuzz/` crate (`cargo fuzz` builds
/// with `--cfg fuzzing`) and for the unit tests that run their seeds.
#[cfg(any(fuzzing, test))]
pub mod fuzz;
mod output;
mod services;
mod store;

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::output::Output;

pub use commands::Exit;

/// An error as the binary prints it: its chain on one line (`{:#}`), its
/// control and bidi characters escaped (it can carry a server's answer or
/// a file's name).
pub fn error_text(err: &anyhow::Error) -> String {
    domain::text::sanitize_keeping(&format!("{err:#}"), &['\n'])
}

/// Every table's rows of the database at `path`, in a fixed order, as text:
/// what byte-identical replay is checked against.
pub fn dump_database(path: &std::path::Path) -> Result<String> {
    store::Store::open(path)?.dump()
}

/// The man pages, as (file name, bytes), from the command-line grammar.
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    commands::man::pages()
}

/// The shell completion scripts checked in under `completions/`, as (file
/// name, bytes).
pub fn completion_scripts() -> Vec<(String, Vec<u8>)> {
    commands::completions::CHECKED_IN
        .iter()
        .map(|(shell, name)| (name.to_string(), commands::completions::render(*shell)))
        .collect()
}

/// An instant in milliseconds since the epoch as RFC 3339 UTC with
/// milliseconds (`2026-01-02T03:04:05.678Z`), as every command prints it.
pub fn format_instant(ms: i64) -> String {
    domain::clock::format_instant(ms)
}

/// Parses `bytes` as one main Claude Code transcript and returns how many
/// usage observations it holds: the parser alone, for the parse benchmark.
pub fn parse_probe(bytes: &[u8]) -> Result<usize> {
    let mut p = domain::transcript::SessionParser::new("x", false);
    let f = p.begin_main("a");
    p.block(f, bytes)
        .map_err(|b| anyhow::anyhow!("{}:{}: {}", b.file, b.line, b.reason))?;
    Ok(p.finish().usage.len())
}

/// Runs one command line.
pub fn run(cli: Cli) -> Result<Exit> {
    // A hook answers its harness whatever happens: it handles its own errors.
    if let Command::Hook(a) = &cli.command {
        let db = cli.db.clone().map_or_else(store::default_path, Ok);
        return Ok(commands::hook::run(db, a));
    }
    // Nor does a status line fail: it prints what it can.
    if let Command::Statusline(a) = &cli.command {
        let db = cli.db.clone().map_or_else(store::default_path, Ok);
        let color = cli.color == output::ColorChoice::Always;
        return Ok(commands::statusline::run(db, color, a));
    }
    domain::clock::init_from_env()?;
    let mut out = Output::new(cli.format()?, cli.color, cli.quiet, cli.no_progress);
    out.wide = cli.wide;
    // Commands that need no database run before it is opened.
    match &cli.command {
        Command::Completions(a) => return commands::completions::run(a),
        Command::Man(a) => return commands::man::run(a),
        Command::Schema(a) => return commands::schema::run(a),
        _ => {}
    }
    let (db_given, db) = (cli.db.is_some(), cli.db.clone());
    let db = db.map_or_else(store::default_path, Ok)?;
    out.ids_of = Some(db.clone());
    let ctx = commands::Ctx {
        db,
        db_given,
        out,
        read_only: false,
    };
    if let Command::Mcp(a) = &cli.command {
        return commands::mcp::run(&ctx, a);
    }
    commands::dispatch(&ctx, cli.command)
}
