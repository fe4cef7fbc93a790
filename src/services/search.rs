//! `search`: what agents and users said, found by words. The query is read
//! by the one text-matching layer (`domain::matching::search_expression`);
//! sessions the index does not hold whole yet are read first
//! (`build_index`), so a search never misses what is stored.

use anyhow::{Result, bail};

use crate::domain::matching::{Aliases, Highlighter, search_expression};
use crate::store::Store;
use crate::store::said::{Hit, Matches, SearchQuery};

/// Relevance ranks the newest this many matching texts (a word in every
/// text costs a bounded time; a rarer word's matches are all ranked).
pub const RANK_WINDOW: usize = 2000;

/// A phrase is looked for in the newest this many texts holding its words:
/// each is read from its block and checked, which costs far more than a
/// score.
pub const PHRASE_WINDOW: usize = 1000;

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

/// What building the index (`build_index`) did, and what it left.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Built {
    /// Sessions read and indexed now.
    pub sessions: u64,
    /// Bytes of transcripts read.
    pub bytes: u64,
    pub elapsed_ms: u64,
    /// Sessions whose transcripts could not be read (they are retried by
    /// the next search).
    pub failed: u64,
    /// Sessions whose transcripts are gone: held as saying nothing.
    pub gone: u64,
    /// Stored sessions the index still does not hold whole.
    pub left: u64,
    /// Another process is building the index, since then: nothing was
    /// read here.
    pub busy_since: Option<crate::domain::clock::Millis>,
    /// The database could not be written: nothing was indexed.
    pub unwritable: bool,
}

/// Indexes what the stored sessions said that the index does not hold
/// whole yet (all of them on a first search): each read again from its
/// start, from the folders ingest read and the clients' own, by the
/// ingest pipeline writing only their words; the full-text index takes
/// them at the end. One process builds at a time; a session is marked
/// whole in the transaction of its last part, so a killed build goes on
/// where it stopped. With `search.index off`, nothing is read.
pub fn build_index(store: &mut Store, progress: Option<&indicatif::ProgressBar>) -> Result<Built> {
    use crate::services::ingest::{self, IndexMode};
    let mut built = Built {
        left: store.sessions_not_indexed()?,
        ..Built::default()
    };
    if built.left == 0 || ingest::index_mode(store)? == IndexMode::Off {
        return Ok(built);
    }
    let holder = crate::domain::harness::sender::this_process()
        .unwrap_or_else(|| format!("pid {}", std::process::id()));
    match store.take_build(&holder, crate::domain::clock::now()) {
        Ok(Some(other)) => {
            built.busy_since = Some(other.started_at);
            return Ok(built);
        }
        Ok(None) => {}
        Err(e) if crate::store::is_read_only(&e) || crate::store::is_busy(&e) => {
            built.unwritable = true;
            return Ok(built);
        }
        Err(e) => return Err(e),
    }
    let run = (|| -> Result<ingest::Summary> {
        let opts = ingest::Options {
            said: Some(ingest::index_options(store)?),
            said_only: true,
            ..ingest::Options::from_settings(store, None)?
        };
        let roots = ingest::resolve_roots(&index_roots(store)?)?;
        ingest::run(store, &roots, &opts, progress)
    })();
    let released = store.release_build(&holder);
    let sum = run?;
    released?;
    built.sessions = sum.updated;
    built.failed = sum.failed;
    built.bytes = sum.bytes_read;
    built.elapsed_ms = sum.elapsed_ms;
    built.left = store.sessions_not_indexed()?;
    built.gone = sum.retained;
    Ok(built)
}

/// Where a build looks for the stored sessions: the folders ingest read
/// (most recent first) and every client's own, those that are there.
fn index_roots(store: &Store) -> Result<Vec<std::path::PathBuf>> {
    let mut roots: Vec<std::path::PathBuf> = store
        .ingested_roots()?
        .into_iter()
        .map(std::path::PathBuf::from)
        .collect();
    roots.extend(crate::domain::clients::default_roots());
    roots.retain(|p| p.is_dir());
    Ok(roots)
}

/// What a search found, and what the caller should say about it.
#[derive(Debug, Default)]
pub struct Found {
    /// What indexing the sessions not yet indexed did first.
    pub built: Built,
    pub hits: Vec<SearchHit>,
    /// Relevance ranked only the newest `RANK_WINDOW` matches: more match.
    pub window_full: bool,
    /// The query has a phrase: the window counted texts holding its words.
    pub phrase: bool,
    /// The index holds nothing at all.
    pub empty: bool,
}

/// Runs `query` with `f`, indexing first what is not indexed yet
/// (`build_index`, its progress on `progress`).
pub fn search(
    store: &mut Store,
    query: &str,
    f: &Filters<'_>,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<Found> {
    if let Some(why) = crate::domain::matching::too_large(query) {
        bail!("{why}");
    }
    let aliases = Aliases::with(&crate::services::settings::choice(store, "match.aliases")?)?;
    if search_expression(query, &aliases, &|_| false).is_none() {
        bail!("the query {query:?} has no words to search for");
    }
    let mut found = Found {
        built: build_index(store, progress)?,
        ..Found::default()
    };
    let indexed = |t: &str| store.holds_term(t).unwrap_or(false);
    let expression =
        search_expression(query, &aliases, &indexed).expect("a query with words has an expression");
    let q = SearchQuery {
        expression: &expression.fts,
        phrases: &expression.phrases,
        project: f.project,
        harness: f.harness,
        session: f.session,
        role: f.role,
        since: f.since,
        until: f.until,
        newest: f.newest,
        limit: f.limit,
        window: RANK_WINDOW,
        phrase_window: PHRASE_WINDOW,
    };
    let Matches { hits, more, .. } = store.search(&q)?;
    found.window_full = !f.newest && more;
    found.phrase = !expression.phrases.is_empty();
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
    /// The record `at` named (a prefix resolved to the whole id).
    pub focus: Option<String>,
    /// What indexing before reading did.
    pub built: Built,
}

/// The conversation of session `id` (already resolved), indexing first
/// what is not indexed yet (`build_index`).
pub fn conversation(
    store: &mut Store,
    id: &str,
    at: Option<&str>,
    context: usize,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<Said> {
    let built = build_index(store, progress)?;
    let detail = crate::services::report::session_detail(store, id)?;
    let mut places = store.said_in(id)?;
    if places.is_empty() {
        bail!(
            "the search index holds nothing said in session {id}: its transcript says nothing to index, or could not be read (the setting search.index off keeps the index from being built)"
        );
    }
    let mut focus = None;
    if let Some(asked) = at {
        // A record's id, or a prefix of it that names one record alone.
        let record = if places.iter().any(|p| p.record == asked) {
            asked.to_string()
        } else {
            match store.records_starting(id, asked)?.as_slice() {
                [one] => one.clone(),
                [] => bail!(
                    "session {id} has no record {asked:?} in the search index (the record ids `search` prints are what --at takes)"
                ),
                many => bail!(
                    "{asked:?} starts more than one record of session {id} ({}, ...): give more characters",
                    many.join(", ")
                ),
            }
        };
        focus = Some(record.clone());
        let record = record.as_str();
        let Some(i) = places.iter().position(|p| p.record == record) else {
            bail!("session {id} has no record {record:?} in the search index");
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
    Ok(Said {
        detail,
        places,
        focus,
        built,
    })
}
