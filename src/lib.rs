//! sessionkit: observability and continuity for AI coding agents, in one
//! local SQLite file. `run` executes one parsed command line.

#[macro_use]
mod vocabulary;

pub mod cli;
pub mod clock;
pub mod commands;
pub mod continuity;
pub mod corpus;
pub mod hooks;
pub mod ingest;
pub mod integrity;
pub mod output;
pub mod pricing;
pub mod project;
pub mod redact;
pub mod rollup;
pub mod settings;
pub mod status;
pub mod store;
pub mod text;
pub mod transcript;

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::continuity::memory::Settle;
use crate::output::Output;

/// How a command that did not fail ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Exit status 0.
    Success,
    /// Exit status 1: a check found something.
    Found,
}

impl Exit {
    pub fn code(self) -> std::process::ExitCode {
        match self {
            Exit::Success => std::process::ExitCode::SUCCESS,
            Exit::Found => std::process::ExitCode::from(1),
        }
    }
}

/// Runs one command line.
pub fn run(cli: Cli) -> Result<Exit> {
    // A hook answers its harness whatever happens: it handles its own errors.
    if let Command::Hook(a) = &cli.command {
        let db = cli.db.clone().map_or_else(store::default_path, Ok);
        return Ok(commands::hook::run(db, a));
    }
    clock::init_from_env()?;
    let out = Output::new(cli.format(), cli.color, cli.quiet, cli.no_progress);
    // Commands that need no database run before it is opened.
    match &cli.command {
        Command::Completions(a) => return commands::completions::run(a),
        Command::Man(a) => return commands::man::run(a),
        Command::Schema(a) => return commands::schema::run(a),
        _ => {}
    }
    let db = match &cli.db {
        Some(p) => p.clone(),
        None => store::default_path()?,
    };
    let ctx = commands::Ctx { db, out };
    match cli.command {
        Command::Ingest(a) => commands::ingest::run(&ctx, &a),
        Command::Replay(a) => commands::ingest::replay(&ctx, &a),
        Command::Sessions(a) => commands::sessions::run(&ctx, &a),
        Command::Show(a) => commands::show::run(&ctx, &a),
        Command::Tree(a) => commands::tree::run(&ctx, &a),
        Command::Cost(a) => commands::cost::run(&ctx, &a),
        Command::Pricing(a) => commands::pricing::run(&ctx, &a),
        Command::Prune(a) => commands::prune::run(&ctx, &a),
        Command::Check(a) => commands::check::run(&ctx, &a),
        Command::Config(a) => commands::config::run(&ctx, &a),
        Command::Status(a) => commands::status::run(&ctx, &a),
        Command::Session(a) => commands::session::run(&ctx, &a),
        Command::Brief(a) => commands::brief::run(&ctx, &a),
        Command::Remember(a) => commands::memory::remember(&ctx, &a),
        Command::Revise(a) => commands::memory::revise(&ctx, &a),
        Command::Resolve(a) => commands::memory::settle(&ctx, &a, Settle::Resolve),
        Command::Unresolve(a) => commands::memory::settle(&ctx, &a, Settle::Unresolve),
        Command::Archive(a) => commands::memory::settle(&ctx, &a, Settle::Archive),
        Command::Recall(a) => commands::memory::recall(&ctx, &a),
        Command::Memories(a) => commands::memory::memories(&ctx, &a),
        Command::Memory(a) => commands::memory::memory(&ctx, &a),
        Command::Export(a) => commands::memory::export(&ctx, &a),
        Command::Import(a) => commands::memory::import(&ctx, &a),
        Command::Sweep(a) => commands::sweep::run(&ctx, &a),
        Command::Completions(_) | Command::Man(_) | Command::Schema(_) | Command::Hook(_) => {
            unreachable!("handled above")
        }
    }
}
