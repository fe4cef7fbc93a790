//! The transcript line scanner and session parser on arbitrary bytes: a
//! main transcript, a nested subagent's transcript and its sidecar, each
//! fed in two blocks cut at a point the input chooses, with a part taken in
//! between (what a streaming ingest of a large file does).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sessionkit::transcript::SessionParser;
use sessionkit::transcript::{AgentLayout, FileRole};

fuzz_target!(|data: &[u8]| {
    let (head, rest) = data.split_at(data.len().min(2));
    let cut_at = |bytes: &[u8], k: u8| bytes.len() * usize::from(k) / 255;
    let (main, agent) = rest.split_at(cut_at(rest, head.first().copied().unwrap_or(128)));
    let (agent, sidecar) = agent.split_at(cut_at(agent, head.get(1).copied().unwrap_or(200)));
    for strict in [false, true] {
        let mut p = SessionParser::new("fuzz-session", strict);
        let m = p.begin_main("p/fuzz-session.jsonl");
        let cut = main.len() / 2;
        let cut = main[..cut].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
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
        let _ = sessionkit::transcript::resolve(&parsed);
    }
});
