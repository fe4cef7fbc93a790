//! The fuzz targets' bodies (the `fuzz/` crate calls each from its
//! `fuzz_target!`): arbitrary bytes in, a panic only where a property
//! breaks. Built under `cargo fuzz` (`--cfg fuzzing`) and in the unit
//! tests, which run every checked-in seed (`fuzz/seeds/<target>/`) through
//! its target on stable Rust.

use crate::domain::harness::{canonical, event_key};
use crate::domain::memory::export::{Record, may_be_commitment, read_line};
use crate::domain::redact::{redact, redact_text};
use crate::domain::transcript::{AgentLayout, FileRole, SessionParser, resolve};
use crate::services::hook::receive::{Delivery, event_of};

/// A main transcript, a nested subagent's transcript and its sidecar, cut
/// where the first two bytes say; the main one fed in two blocks with a
/// part taken in between (what a streaming ingest does), strict and not.
/// Checks: no panic, and the agent tree's edges resolve.
pub fn transcript(data: &[u8]) {
    let (head, rest) = data.split_at(data.len().min(2));
    let cut_at = |bytes: &[u8], k: u8| bytes.len() * usize::from(k) / 255;
    let (main, agent) = rest.split_at(cut_at(rest, head.first().copied().unwrap_or(128)));
    let (agent, sidecar) = agent.split_at(cut_at(agent, head.get(1).copied().unwrap_or(200)));
    for strict in [false, true] {
        let mut p = SessionParser::new("fuzz-session", strict);
        let m = p.begin_main("p/fuzz-session.jsonl");
        let cut = main.len() / 2;
        let cut = main[..cut]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        if p.block(m, &main[..cut]).is_err() {
            continue;
        }
        let _ = p.take_part();
        if p.block(m, &main[cut..]).is_err() {
            continue;
        }
        let role = FileRole::Agent {
            agent_id: "a1".into(),
            layout: AgentLayout::Nested,
            workflow_id: None,
        };
        let Ok(a) = p.begin_agent(
            "p/fuzz-session/subagents/agent-a1.jsonl",
            &role,
            Some(("p/fuzz-session/subagents/agent-a1.meta.json", sidecar)),
        ) else {
            continue;
        };
        if p.block(a, agent).is_err() {
            continue;
        }
        let parsed = p.finish();
        let _ = resolve(&parsed);
    }
}

/// A hook's stdin, whatever it is: parsed, its harness detected,
/// normalised and redacted; when it is an event, its stored form is JSON
/// again and its key and status target are computed.
pub fn hook_payload(data: &[u8]) {
    let delivery = Delivery::default();
    if let Ok(Some(ev)) = event_of(data, &delivery, |_| None) {
        let stored = canonical(&ev.payload);
        serde_json::from_str::<serde_json::Value>(&stored).expect("the stored payload is JSON");
        let _ = event_key(&ev, None, None);
        let _ = event_key(&ev, None, Some("1@2"));
        let _ = event_key(&ev, Some("d"), None);
        let _ = ev.target(1_700_000_000_000);
    }
}

/// Text, and JSON when the input is JSON: redacting what is already
/// redacted changes nothing more.
pub fn redact_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let once = redact_text(&text).into_owned();
    let twice = redact_text(&once).into_owned();
    assert_eq!(once, twice, "redaction is idempotent");
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let once = redact(&v);
        assert_eq!(redact(&once), once, "redaction is idempotent");
    }
}

/// An export file's text, line by line: a rejection carries its own line
/// number, and the quick commitment filter never misses a commitment.
pub fn import(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (i, l) in text.lines().enumerate() {
        match read_line(i + 1, l) {
            Err(r) => assert_eq!(r.line, i + 1, "a rejection names its line"),
            Ok(Some(Record::Commitment(..))) => {
                assert!(may_be_commitment(l), "the filter missed a commitment: {l}");
            }
            Ok(_) => {}
        }
    }
}

/// A target's body.
pub type Target = fn(&[u8]);

/// Each target by its name in `fuzz/`.
pub const TARGETS: [(&str, Target); 4] = [
    ("transcript", transcript),
    ("hook_payload", hook_payload),
    ("redact", redact_input),
    ("import", import),
];

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::TARGETS;

    /// Every checked-in seed runs through its target: the fuzz corpus's
    /// starting points (and any crash once found) stay regression tests on
    /// stable Rust.
    #[test]
    fn every_seed_runs_through_its_target() {
        let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
        for (name, body) in TARGETS {
            let dir = seeds.join(name);
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            assert!(files.len() >= 3, "{name}: {} seeds", files.len());
            for f in files {
                let bytes = std::fs::read(&f).unwrap();
                let run = std::panic::catch_unwind(|| body(&bytes));
                assert!(run.is_ok(), "{name}: {} fails its target", f.display());
            }
        }
    }
}
