//! `sessionkit replay`: re-project every session whose files still exist,
//! ignoring checkpoints; sessions whose files are gone are kept (retained).

use anyhow::Result;

use super::Ctx;
use super::ingest::{CorpusArgs, run_corpus};
use crate::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,

    /// Fail a session on its first malformed line instead of skipping the line (exit 1)
    #[arg(long)]
    pub strict: bool,
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    run_corpus(ctx, &args.corpus, args.strict, true)
}
