//! `sessionkit replay`: re-project every session whose files still exist,
//! ignoring checkpoints and quarantine (the result equals a fresh ingest);
//! sessions whose files are gone are kept and reported as retained.

use anyhow::Result;

use super::Ctx;
use super::ingest::{Args, run_corpus};
use crate::Exit;

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    run_corpus(ctx, args, true)
}
