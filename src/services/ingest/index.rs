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
