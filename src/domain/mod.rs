//! The domain: types and rules, with no database and no printing. Reading
//! a transcript or another program's files is as far as its I/O goes.
//!
//! Observability: `transcript` (parsing, the counting rule), `corpus` (where
//! each client keeps its sessions), `pricing`, `rollup`, `status`,
//! `integrity`, `limits` (an account's usage limits and their pace), `otlp` (OpenTelemetry's wire shapes). Continuity: `memory` (the memory model), `briefing` (the
//! packing), `runs`, `triage`, `debrief`, `closer` and `evidence` (the
//! closer's judge). Shared: `harness` (a hook payload's normal form),
//! `redact`, `matching` (how people's words are matched), `text`, `clock`,
//! `sqlite` (opening SQLite files read-only), `vocabulary` (closed sets as
//! enums).

#[macro_use]
pub mod vocabulary;

pub mod briefing;
pub mod clients;
pub mod clock;
pub mod closer;
pub mod confined;
pub mod corpus;
pub mod debrief;
pub mod diff;
pub mod evidence;
pub mod harness;
pub mod integrity;
pub mod limits;
pub mod matching;
pub mod memory;
pub mod otlp;
pub mod pricing;
pub mod redact;
pub mod rollup;
pub mod runs;
pub mod sqlite;
pub mod status;
pub mod text;
pub mod transcript;
pub mod triage;

/// Says why a unit test cannot run here (in whole or in part), and
/// records it where `.ci/run` counts skips.
#[cfg(test)]
pub(crate) fn test_skipped(reason: &str) {
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("SESSIONKIT_TEST_SKIPS") {
        use std::io::Write;
        let test = std::thread::current().name().unwrap_or("?").to_string();
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = f.write_all(format!("{test}: {reason}\n").as_bytes());
        }
    }
}

/// The `.jsonl` files under `dirs`, at any depth, in order (a missing
/// directory has none): the unit tests' transcript corpora.
#[cfg(test)]
pub(crate) fn test_jsonl_files(mut dirs: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A deterministic stream of draws for the unit tests' generated cases
/// (xorshift from `seed`): each call gives a number below `n`, so a
/// failure reproduces.
#[cfg(test)]
pub(crate) fn test_draws(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
