//! `search`: what agents and users said, found by words. The query is read
//! by the one text-matching layer (`domain::matching::search_expression`);
//! texts a run wrote but did not index yet (a hook's catch-up, a killed
//! run) are indexed first, so a search never misses what is stored.

use anyhow::{Result, bail};

use crate::domain::matching::{Aliases, Highlighter, search_expression};
use crate::store::Store;
use crate::store::said::{Hit, SearchQuery};

/// Relevance ranks the newest this many matching texts (a word in every
/// text costs a bounded time; a rarer word's matches are all ranked).
pub const RANK_WINDOW: usize = 2000;

/// What a search asks for, besides its words.
#[derive(Debug, Clone, Default)]
pub struct Filters<'a> {
    pub project: Option<&'a str>,
    pub harness: Option<&'a str>,
    pub session: Option<&'a str>,
    pub role: Option<crate::domain::transcript::said::Role>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    pub newest: bool,
    pub limit: usize,
}

/// Words a snippet holds.
pub const SNIPPET_WORDS: usize = 24;

/// One hit: where its text was said last, and the part of the text around
/// the matched words (marked with `**`).
#[derive(Debug)]
pub struct SearchHit {
    pub place: Hit,
    pub snippet: String,
}

/// What a search found, and what the caller should say about it.
#[derive(Debug, Default)]
pub struct Found {
    pub hits: Vec<SearchHit>,
    /// Texts indexed before searching (a hook's catch-up wrote them).
    pub indexed_now: u64,
    /// Texts still not indexed (the database could not be written).
    pub unindexed: u64,
    /// Relevance ranked only the newest `RANK_WINDOW` matches: more match.
    pub window_full: bool,
    /// The index holds nothing at all.
    pub empty: bool,
}

/// Runs `query` with `f`.
pub fn search(store: &mut Store, query: &str, f: &Filters<'_>) -> Result<Found> {
    if let Some(why) = crate::domain::matching::too_large(query) {
        bail!("{why}");
    }
    let aliases = Aliases::with(&crate::services::settings::choice(store, "match.aliases")?)?;
    let Some(expression) = search_expression(query, &aliases) else {
        bail!("the query {query:?} has no words to search for");
    };
    let mut found = Found::default();
    let pending = store.unindexed()?;
    if pending > 0 {
        match store.index_pending(crate::services::ingest::INDEX_BATCH_BYTES, u64::MAX) {
            Ok(n) => found.indexed_now = n,
            Err(e) if crate::store::is_read_only(&e) || crate::store::is_busy(&e) => {
                found.unindexed = pending;
            }
            Err(e) => return Err(e),
        }
    }
    let q = SearchQuery {
        expression: &expression,
        project: f.project,
        harness: f.harness,
        session: f.session,
        role: f.role,
        since: f.since,
        until: f.until,
        newest: f.newest,
        limit: f.limit,
        window: RANK_WINDOW,
    };
    let (hits, matched) = store.search(&q)?;
    found.window_full = !f.newest && matched >= RANK_WINDOW;
    found.empty = hits.is_empty() && !store.index_holds_anything()?;
    let marks = Highlighter::new(query, &aliases);
    found.hits = hits
        .into_iter()
        .map(|place| SearchHit {
            snippet: marks.snippet(&place.text, SNIPPET_WORDS),
            place,
        })
        .collect();
    Ok(found)
}

/// A session's conversation as the index holds it: the session in detail
/// and its places in order; with `at`, only the `context` pieces before
/// and after that record in its agent's conversation (the record's own
/// pieces all kept).
pub struct Said {
    pub detail: crate::services::report::Detail,
    pub places: Vec<crate::store::said::Place>,
}

/// The conversation of session `id` (already resolved).
pub fn conversation(store: &Store, id: &str, at: Option<&str>, context: usize) -> Result<Said> {
    let detail = crate::services::report::session_detail(store, id)?;
    let mut places = store.said_in(id)?;
    if places.is_empty() {
        bail!(
            "the search index holds nothing said in session {id}: with the setting search.index on, `sessionkit replay` reads it again"
        );
    }
    if let Some(record) = at {
        let Some(i) = places.iter().position(|p| p.record == record) else {
            bail!(
                "session {id} has no record {record:?} in the search index (the record ids `search` prints are what --at takes)"
            );
        };
        let agent = places[i].agent_id.clone();
        let own: Vec<_> = places.into_iter().filter(|p| p.agent_id == agent).collect();
        let first = own.iter().position(|p| p.record == record).unwrap_or(0);
        let last = own
            .iter()
            .rposition(|p| p.record == record)
            .unwrap_or(first);
        let from = first.saturating_sub(context);
        let to = (last + context + 1).min(own.len());
        places = own[from..to].to_vec();
    }
    Ok(Said { detail, places })
}
