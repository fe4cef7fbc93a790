//! When ingest writes what was said into the search index: the settings
//! `search.index` and `search.tool_outputs`.

use anyhow::Result;

use crate::domain::transcript::said::SaidOptions;
use crate::store::Store;

/// When the search index is written, by the setting `search.index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexMode {
    /// By the first search (or `show` of what was said), then kept
    /// current by ingest.
    Lazy,
    /// By ingest, always.
    On,
    /// Never.
    Off,
}

/// The setting `search.index`.
pub fn index_mode(store: &Store) -> Result<IndexMode> {
    Ok(
        match crate::services::settings::choice(store, "search.index")?.as_str() {
            "lazy" => IndexMode::Lazy,
            "off" => IndexMode::Off,
            _ => IndexMode::On,
        },
    )
}

/// What an ingest's search index keeps, by the settings `search.index`
/// and `search.tool_outputs`: nothing while the index is lazy and no
/// search has built it yet.
pub fn said_options(store: &Store) -> Result<Option<SaidOptions>> {
    let read = match index_mode(store)? {
        IndexMode::Off => false,
        IndexMode::On => true,
        IndexMode::Lazy => store.index_in_use()?,
    };
    Ok(read.then_some(index_options(store)?))
}

/// What the index keeps of what is read (`search.tool_outputs`).
pub fn index_options(store: &Store) -> Result<SaidOptions> {
    Ok(SaidOptions {
        outputs: crate::services::settings::enabled(store, "search.tool_outputs")?,
    })
}

/// Whether a build's readers can yield their cores to the writer
/// (`yield_to_writer`): then they run one per core beside it.
pub(super) const READERS_YIELD: bool = cfg!(target_os = "linux");

/// Lowers the calling thread's scheduling priority (its nice value, by 10)
/// on Linux, where a thread has a priority of its own: a build's readers
/// run one per core beside the writer, which then never waits for a core
/// (with the writer waiting, a second reader made the build no faster).
/// Elsewhere, nothing.
pub(super) fn yield_to_writer() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take and return plain integers;
        // the id is this thread's own, so only its own nice value changes.
        #[allow(unsafe_code)]
        unsafe {
            let tid = libc::gettid();
            let now = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, (now + 10).min(19));
        }
    }
}
