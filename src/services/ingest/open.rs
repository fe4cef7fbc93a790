//! `sweep`'s catch-up: the transcripts of sessions still open (their run
//! is, or only the hooks have heard of them) read by tail resume, within a
//! byte budget per pass, so a session whose client died without an end
//! event gets its tokens and its ending without anyone running `ingest`.

use anyhow::Result;

use super::{CatchUp, catch_up};
use crate::store::Store;

/// The clients whose hooks name a transcript a sweep can catch up.
const READ: [&str; 3] = [
    crate::domain::clients::CLAUDE_CODE.name,
    crate::domain::clients::CODEX.name,
    crate::domain::clients::GEMINI.name,
];

/// What one pass caught up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caught {
    /// Transcripts read to their end, and the new bytes they held.
    pub read: usize,
    pub bytes: u64,
    /// Sessions with more new bytes than the pass had left: (session, bytes).
    pub deferred: Vec<(String, u64)>,
}

/// Catches up every open session's main transcript, most recently active
/// first, reading at most `budget` new bytes in all.
pub fn catch_up_open(store: &mut Store, budget: u64) -> Result<Caught> {
    let mut out = Caught::default();
    for t in store.open_transcripts(&READ)? {
        let left = budget.saturating_sub(out.bytes);
        match catch_up(store, std::path::Path::new(&t.transcript_path), left, false)? {
            CatchUp::Read { bytes } => {
                out.read += usize::from(bytes > 0);
                out.bytes += bytes;
            }
            CatchUp::Deferred { bytes } => out.deferred.push((t.session_id, bytes)),
            CatchUp::NotApplicable => {}
        }
    }
    Ok(out)
}
