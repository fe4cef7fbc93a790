//! Sessions the hooks have heard of and ingest has not read yet (a client
//! killed mid-turn, an API error that fired no end event): what their
//! stored events say, so `sessions` and `status` list them at once, and the
//! transcripts `sweep` catches up.

use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::domain::clock::Millis;
use crate::domain::harness::{Kind, Target, target_of};
use crate::domain::status::{Cause, Evidence, Status, replaces};

/// How many of the latest hook deliveries are looked through for sessions
/// ingest has not read: bounds the cost of a report on a database of
/// millions of events (older ones are read by `ingest` or `sweep`).
pub const RECENT_EVENTS: i64 = 10_000;

/// A session known only from its hook events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heard {
    pub session_id: String,
    pub harness: String,
    pub cwd: Option<String>,
    /// The project remembered for `cwd`, when one was.
    pub project: Option<String>,
    /// The main transcript the latest event named.
    pub transcript_path: Option<String>,
    pub first_at: Millis,
    pub last_at: Millis,
    /// The main agent's status by the events' evidence, in arrival order
    /// (`unknown` at the last event when none carries a status).
    pub evidence: Evidence,
    /// The first prompt its events carried, as a title (one line, cut).
    pub title: Option<String>,
}

/// A session with a transcript to catch up: its harness and the path its
/// latest main-agent event named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTranscript {
    pub session_id: String,
    pub harness: String,
    pub transcript_path: String,
}

impl Store {
    /// Sessions named by the latest `recent` hook deliveries that have no
    /// transcript in the database, oldest first. Read in one pass over
    /// those deliveries (a session's status and paths from its events
    /// among them, where its latest evidence is), plus one indexed look-up
    /// of each session's first event.
    pub fn heard_only(&self, recent: i64) -> Result<Vec<Heard>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.session_id, e.harness, e.event, e.agent_id, e.received_at,
                    CASE WHEN e.event IN ('SessionStart', 'sessionStart') THEN json_extract(e.payload, '$.source') END,
                    CASE WHEN e.event = 'SubagentStop' THEN json_extract(e.payload, '$.agent_type') END,
                    CASE WHEN json_type(e.payload, '$.cwd') = 'text' THEN json_extract(e.payload, '$.cwd') END,
                    CASE WHEN e.agent_id IS NULL AND json_type(e.payload, '$.transcript_path') = 'text'
                         THEN json_extract(e.payload, '$.transcript_path') END,
                    CASE WHEN e.agent_id IS NULL AND json_type(e.payload, '$.prompt') = 'text'
                         THEN json_extract(e.payload, '$.prompt') END
             FROM events_raw e
             WHERE e.id > (SELECT COALESCE(MAX(id), 0) FROM events_raw) - ?1
               AND e.session_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = e.session_id)
             ORDER BY e.id",
        )?;
        let mut rows = stmt.query([recent])?;
        // Each session's facts, and its main agent's evidence so far.
        let mut order: Vec<String> = Vec::new();
        let mut seen: std::collections::HashMap<String, (Heard, Option<Evidence>)> =
            std::collections::HashMap::new();
        while let Some(r) = rows.next()? {
            let sid: String = r.get(0)?;
            let at: Millis = r.get(4)?;
            let (h, evidence) = match seen.entry(sid.clone()) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    order.push(sid.clone());
                    e.insert((
                        Heard {
                            session_id: sid.clone(),
                            harness: r.get(1)?,
                            cwd: None,
                            project: None,
                            transcript_path: None,
                            first_at: at,
                            last_at: at,
                            evidence: Evidence::new(Status::Unknown, None, Cause::Watchdog),
                            title: None,
                        },
                        None,
                    ))
                }
            };
            h.last_at = at;
            if let Some(cwd) = r.get::<_, Option<String>>(7)? {
                h.cwd = Some(cwd);
            }
            if let Some(path) = r.get::<_, Option<String>>(8)? {
                h.transcript_path = Some(path);
            }
            let event: String = r.get(2)?;
            // The person's first prompt names the session, as a transcript's
            // first typed prompt would.
            if h.title.is_none() && Kind::of(&event) == Kind::PromptSubmit {
                h.title = r
                    .get::<_, Option<String>>(9)?
                    .as_deref()
                    .and_then(crate::domain::transcript::title_of);
            }
            let agent: Option<String> = r.get(3)?;
            let source: Option<String> = r.get(5)?;
            let agent_type: Option<String> = r.get(6)?;
            if let Target::Agent {
                agent_id,
                evidence: new,
            } = target_of(
                Kind::of(&event),
                Some(&sid),
                agent.as_deref(),
                agent_type.as_deref(),
                source.as_deref(),
                at,
            ) && agent_id == sid
                && replaces(evidence.as_ref(), &new)
            {
                *evidence = Some(new);
            }
        }
        drop(rows);
        let mut first = self.conn.prepare_cached(
            "SELECT received_at FROM events_raw WHERE session_id = ?1 ORDER BY id LIMIT 1",
        )?;
        let mut project = self
            .conn
            .prepare_cached("SELECT project FROM projects WHERE cwd = ?1")?;
        let mut out = Vec::with_capacity(order.len());
        for sid in order {
            let (mut h, evidence) = seen.remove(&sid).expect("seen above");
            h.first_at = first.query_row([&sid], |r| r.get(0))?;
            // No event carried a status: unknown as of the last one.
            h.evidence = evidence.unwrap_or(Evidence::new(
                Status::Unknown,
                Some(h.last_at),
                Cause::Watchdog,
            ));
            if let Some(c) = &h.cwd {
                h.project = project.query_row([c], |r| r.get(0)).optional()?;
            }
            out.push(h);
        }
        Ok(out)
    }

    /// The main transcripts of sessions whose runs are open, and of
    /// sessions only the hooks have heard of, for `harnesses`: what `sweep`
    /// catches up. Most recently active first.
    pub fn open_transcripts(&self, harnesses: &[&str]) -> Result<Vec<OpenTranscript>> {
        let mut rows: Vec<(Millis, OpenTranscript)> = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.session_id, r.agent, r.last_seen_at,
                    (SELECT json_extract(e.payload, '$.transcript_path') FROM events_raw e
                      WHERE e.session_id = r.session_id AND e.harness = r.agent AND e.agent_id IS NULL
                        AND json_type(e.payload, '$.transcript_path') = 'text'
                      ORDER BY e.id DESC LIMIT 1)
             FROM agent_sessions r WHERE r.closed_at IS NULL",
        )?;
        let open = stmt.query_map(params![], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Millis>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?;
        for row in open {
            let (session_id, harness, at, path) = row?;
            if let Some(transcript_path) = path {
                rows.push((
                    at,
                    OpenTranscript {
                        session_id,
                        harness,
                        transcript_path,
                    },
                ));
            }
        }
        for h in self.heard_only(RECENT_EVENTS)? {
            if let Some(transcript_path) = h.transcript_path {
                rows.push((
                    h.last_at,
                    OpenTranscript {
                        session_id: h.session_id,
                        harness: h.harness,
                        transcript_path,
                    },
                ));
            }
        }
        rows.retain(|(_, t)| harnesses.contains(&t.harness.as_str()));
        rows.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.session_id.cmp(&b.1.session_id))
        });
        let mut out: Vec<OpenTranscript> = Vec::with_capacity(rows.len());
        for (_, t) in rows {
            if !out.iter().any(|o| o.transcript_path == t.transcript_path) {
                out.push(t);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::harness::{Harness, normalize, parse_input};
    use crate::store::events::NewEvent;

    fn deliver(store: &mut Store, at: Millis, json: &str) {
        let raw = parse_input(json.as_bytes()).unwrap().unwrap();
        let ev = normalize(Harness::named("claude-code").unwrap(), &raw, None);
        let payload = crate::domain::harness::canonical(&ev.payload);
        let row = NewEvent {
            key: crate::domain::harness::event_key(&ev, Some(&at.to_string()), None),
            has_delivery_id: true,
            harness: ev.harness.as_str(),
            event: &ev.event,
            session_id: ev.session_id.as_deref(),
            agent_id: ev.agent_id.as_deref(),
            received_at: at,
            payload: &payload,
            target: ev.target(at),
            sender: None,
        };
        store.record_event_then(&row, |_| Ok(())).unwrap();
    }

    /// A heard session's facts come from its events: first and last
    /// instant, latest cwd and main transcript (a subagent's path is not
    /// the session's), the main agent's status by the status rule (a
    /// failed turn outlasts the end; a subagent's stop is not the main's),
    /// and its first prompt as its title.
    #[test]
    fn a_heard_session_is_what_its_events_say() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        deliver(
            &mut store,
            100,
            r#"{"hook_event_name":"SessionStart","source":"startup","session_id":"s1","cwd":"/w/a","transcript_path":"/p/-w-a/s1.jsonl"}"#,
        );
        deliver(
            &mut store,
            200,
            r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/w/a","prompt":"Fix the\n  login   redirect"}"#,
        );
        deliver(
            &mut store,
            210,
            r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/w/a","prompt":"and then the rest"}"#,
        );
        deliver(
            &mut store,
            250,
            r#"{"hook_event_name":"SubagentStop","session_id":"s1","agent_id":"x1","agent_type":"general-purpose","transcript_path":"/p/-w-a/s1/subagents/agent-x1.jsonl"}"#,
        );
        deliver(
            &mut store,
            300,
            r#"{"hook_event_name":"StopFailure","session_id":"s1","error":"unknown"}"#,
        );
        deliver(
            &mut store,
            400,
            r#"{"hook_event_name":"SessionEnd","session_id":"s1","reason":"other"}"#,
        );
        deliver(
            &mut store,
            500,
            r#"{"hook_event_name":"Notification","session_id":"s2","cwd":"/w/b"}"#,
        );
        let heard = store.heard_only(RECENT_EVENTS).unwrap();
        assert_eq!(
            heard,
            [
                Heard {
                    session_id: "s1".into(),
                    harness: "claude-code".into(),
                    cwd: Some("/w/a".into()),
                    project: None,
                    transcript_path: Some("/p/-w-a/s1.jsonl".into()),
                    first_at: 100,
                    last_at: 400,
                    evidence: Evidence::new(Status::Error, Some(300), Cause::StopFailure),
                    title: Some("Fix the login redirect".into()),
                },
                Heard {
                    session_id: "s2".into(),
                    harness: "claude-code".into(),
                    cwd: Some("/w/b".into()),
                    project: None,
                    transcript_path: None,
                    first_at: 500,
                    last_at: 500,
                    evidence: Evidence::new(Status::Unknown, Some(500), Cause::Watchdog),
                    title: None,
                },
            ]
        );
        // Only the latest deliveries are looked through; their first event
        // is still the session's.
        let recent = store.heard_only(2).unwrap();
        assert_eq!(recent.len(), 2);
        assert_eq!(recent[0].first_at, 100);
        assert_eq!(
            store
                .open_transcripts(&["claude-code"])
                .unwrap()
                .iter()
                .map(|t| t.transcript_path.as_str())
                .collect::<Vec<_>>(),
            ["/p/-w-a/s1.jsonl"]
        );
        assert!(store.open_transcripts(&["codex"]).unwrap().is_empty());
    }
}
