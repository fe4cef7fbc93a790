//! The lifecycle hooks: `session-start` briefs and opens the run,
//! `session-end` closes it, `pre-compact` heartbeats it. Each also records
//! its event and liveness exactly as `hook event` does. What to print is
//! returned; the command prints it.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::domain::briefing::Limits;
use crate::domain::clock::Millis;
use crate::domain::harness::{Harness, HookEvent};
use crate::domain::runs::Source;
use crate::services::brief::{Request, build};
use crate::store::Store;
use crate::store::runs::OpenRequest;

/// Room kept under the byte ceiling for the run line after the briefing.
const RUN_LINE_ROOM: usize = 400;

/// `cc/<first 8 chars of the session id>-<first 16 hex of its SHA-256>`
///: a label only; the run id is what writes carry.
pub fn display_handle(h: Harness, session_id: &str) -> String {
    let prefix = h.handle;
    let digest: String = Sha256::digest(session_id.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let short: String = session_id.chars().take(8).collect();
    format!("{prefix}/{short}-{digest}")
}

/// A secondary git worktree: its `.git` is a file naming `.../worktrees/...`.
pub fn in_secondary_worktree(cwd: &Path) -> bool {
    let mut dir = Some(cwd);
    while let Some(d) = dir {
        let git = d.join(".git");
        if git.is_dir() {
            return false;
        }
        if git.is_file() {
            return crate::services::project::read_small(&git).is_some_and(|s| {
                s.trim()
                    .strip_prefix("gitdir:")
                    .is_some_and(|g| g.contains("/worktrees/"))
            });
        }
        dir = d.parent();
    }
    false
}

/// Hooks print nothing for subagents and in secondary worktrees (the event
/// is still recorded).
pub fn suppressed(ev: Option<&HookEvent>, cwd: &Path, role: Option<&str>) -> bool {
    role == Some("subagent")
        || ev.is_some_and(|e| e.agent_id.is_some())
        || in_secondary_worktree(cwd)
}

/// The directory a hook works for: the payload's cwd, else the project
/// root a client names in its hooks' environment, else the process's.
pub fn cwd_of(ev: Option<&HookEvent>, env: impl Fn(&str) -> Option<String>) -> PathBuf {
    ev.and_then(|e| e.cwd.clone())
        .or_else(|| {
            crate::domain::harness::project_dir_vars()
                .into_iter()
                .find_map(&env)
        })
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}

/// What `session-start` decided.
#[derive(Debug, Clone)]
pub struct Started {
    /// The text to inject (briefing and run line), empty when there is nothing.
    pub context: String,
}

/// Builds the briefing for the event's project, runs the lifecycle by
/// `source`, records the injection; returns the context to inject. A
/// briefing that fails is handed to `warn` and the run opens without it.
pub fn session_start(
    store: &mut Store,
    ev: Option<&HookEvent>,
    harness: Harness,
    cwd: &Path,
    limits: Limits,
    (lease_ms, now): (i64, Millis),
    warn: &dyn Fn(&str),
) -> Result<Started> {
    let project = crate::services::project::project_of(store, &cwd.to_string_lossy())?;
    let source = ev
        .and_then(|e| e.source.clone())
        .unwrap_or_else(|| "startup".into());
    let session_id = ev.and_then(|e| e.session_id.clone());
    let existing = match &session_id {
        Some(sid) => store.run_by_key(harness.as_str(), sid)?,
        None => None,
    };
    let req = Request {
        project: project.clone(),
        limits: Limits {
            budget_tokens: limits.budget_tokens,
            max_bytes: limits.max_bytes.saturating_sub(RUN_LINE_ROOM),
        },
        source: Some(source.clone()),
        run_id: existing.as_ref().map(|r| r.run_id.clone()),
        session_id: session_id.clone(),
        utility_mode: crate::services::settings::choice(store, "briefing.utility")?,
        watchdog_ms: crate::services::settings::minutes_ms(store, "watchdog.minutes")?,
        every_line: false,
    };
    // A briefing that fails still opens the run (without a stamp).
    let built = build_for(store, req, harness, now)
        .map_err(|e| warn(&format!("briefing failed: {e:#}")))
        .ok();
    let briefed = built.as_ref().and_then(|b| stamp_for(harness, b));
    let run_id = match &session_id {
        None => None,
        Some(sid) => {
            let who = RunFor {
                harness,
                session_id: sid,
                project: &project,
                now,
                lease_ms,
            };
            who.keep(store, &source, briefed.clone())?
        }
    };
    if source == "resume" && replayed(harness, existing.as_ref(), briefed.as_deref()) {
        return Ok(Started {
            context: String::new(),
        });
    }
    let context = match &built {
        Some(b) => briefing_context(store, b, run_id.as_deref(), &project, now)?,
        None => String::new(),
    };
    let run_line = match (&run_id, &session_id) {
        (Some(id), Some(sid)) => format!(
            "sessionkit run: `{id}` ({}). Pass `--session-run-id {id}` to sessionkit remember, revise, resolve, unresolve and archive in this session so the writes are attributed to this run.\n",
            display_handle(harness, sid)
        ),
        _ => String::new(),
    };
    Ok(Started {
        context: context + &run_line,
    })
}

/// The briefed-memory stamp a run gets: only for a harness the briefing's
/// envelope reaches.
fn stamp_for(harness: Harness, built: &crate::services::brief::Built) -> Option<String> {
    harness.takes_start_context().then(|| briefed_stamp(built))
}

/// Whether a resumed conversation already holds this briefing: a resumed
/// Claude Code or Codex conversation replays the context its earlier
/// SessionStart injected, so the same briefing again is only a second copy
/// (and Claude Code 2.1.197 places a resume's context after `/compact`'s
/// summary instruction when the resumed turn is a compaction). Sent again
/// only when it would show other memories.
fn replayed(
    harness: Harness,
    run: Option<&crate::store::runs::Run>,
    briefed: Option<&str>,
) -> bool {
    replays_start_context(harness)
        && run.is_some_and(|r| {
            r.briefing_delivered_at.is_some() && same_memories(&r.briefed_memories, briefed)
        })
}

/// The briefing's text to inject (empty when it placed nothing), its
/// memories recorded as demand of the run.
fn briefing_context(
    store: &mut Store,
    b: &crate::services::brief::Built,
    run_id: Option<&str>,
    project: &str,
    now: Millis,
) -> Result<String> {
    let ids = b.briefing.rendered_ids(&b.candidates);
    store.record_demand(
        crate::domain::memory::Demand::Briefing,
        run_id,
        &ids,
        Some(project),
        now,
    )?;
    Ok(if b.briefing.placements.is_empty() {
        String::new()
    } else {
        b.briefing.text.clone()
    })
}

/// The run a SessionStart keeps: whose it is, and when.
struct RunFor<'a> {
    harness: Harness,
    session_id: &'a str,
    project: &'a str,
    now: Millis,
    lease_ms: i64,
}

impl RunFor<'_> {
    /// By `source`: resume reopens the run; compact heartbeats it; clear
    /// reuses a live run or opens one; startup opens it, stamped with what
    /// the briefing showed (`briefed`). The run's id (none when compact
    /// found no run).
    fn keep(
        &self,
        store: &mut Store,
        source: &str,
        briefed: Option<String>,
    ) -> Result<Option<String>> {
        Ok(match source {
            "resume" => Some(self.open(store, Source::Resume, None)?),
            "compact" => self.heartbeat(store)?,
            "clear" => match self.heartbeat(store)? {
                Some(id) => Some(id),
                None => Some(self.open(store, Source::Startup, briefed)?),
            },
            _ => Some(self.open(store, Source::Startup, briefed)?),
        })
    }

    fn open(&self, store: &mut Store, source: Source, briefed: Option<String>) -> Result<String> {
        let req = OpenRequest {
            agent: self.harness.as_str().to_string(),
            session_id: self.session_id.to_string(),
            source,
            project: Some(self.project.to_string()),
            scope: None,
            selector: crate::domain::runs::selector(None)?,
            briefed,
        };
        Ok(store.open_run(&req, self.now, self.lease_ms)?.0.run_id)
    }

    fn heartbeat(&self, store: &mut Store) -> Result<Option<String>> {
        let agent = self.harness.as_str();
        let beat =
            store.heartbeat_run(agent, self.session_id, None, false, self.now, self.lease_ms)?;
        Ok(beat.map(|(r, _)| r.run_id))
    }
}

/// What a briefing showed, as a run stamps it: each rendered memory's id
/// and topic (at most `MAX_BRIEFED`).
fn briefed_stamp(b: &crate::services::brief::Built) -> String {
    let items: Vec<serde_json::Value> = b
        .briefing
        .rendered(&b.candidates)
        .take(crate::domain::runs::MAX_BRIEFED)
        .map(|(_, c)| {
            let topic: String = c.topic.chars().take(256).collect();
            json!({"id": c.memory_id, "topic": topic, "status": "active"})
        })
        .collect();
    serde_json::to_string(&items).expect("JSON")
}

/// Whether `harness` keeps SessionStart's injected context in the
/// conversation it resumes (seen in the requests Claude Code 2.1.197 and
/// 2.1.332 and Codex 0.171 send after a resume; Gemini CLI 0.61 sends only
/// the latest SessionStart's).
fn replays_start_context(harness: Harness) -> bool {
    harness.answers.replays_start_context
}

/// Whether two briefed-memory lists (JSON `[{"id": …}, …]`) name the same
/// memories in the same order; `None` (no briefing built) is never the same.
fn same_memories(stored: &str, now: Option<&str>) -> bool {
    let ids = |text: &str| -> Option<Vec<String>> {
        let v: Vec<serde_json::Value> = serde_json::from_str(text).ok()?;
        v.iter()
            .map(|m| m["id"].as_str().map(str::to_string))
            .collect()
    };
    match (ids(stored), now.and_then(ids)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The briefing as `harness` takes it: for Gemini CLI without angle
/// brackets (`angle_free`), rebuilt smaller while the look-alikes' extra
/// bytes would take it past its ceiling.
fn build_for(
    store: &Store,
    mut req: Request,
    harness: Harness,
    now: Millis,
) -> Result<crate::services::brief::Built> {
    let mut built = build(store, &req, now)?;
    if !harness.answers.escapes_angles {
        return Ok(built);
    }
    for _ in 0..4 {
        let text = crate::domain::briefing::angle_free(&built.briefing.text);
        let over = text.len().saturating_sub(req.limits.max_bytes);
        if over == 0 || req.limits.max_bytes <= over {
            built.briefing.text = text;
            return Ok(built);
        }
        req.limits.max_bytes -= over;
        built = build(store, &req, now)?;
    }
    let text = crate::domain::briefing::angle_free(&built.briefing.text);
    built.briefing.text = text;
    Ok(built)
}

/// The stdout a harness accepts for injected context at session start, or
/// nothing for one that takes none.
pub fn start_envelope(harness: Harness, context: &str) -> Option<String> {
    if context.is_empty() {
        return None;
    }
    (harness.answers.start)(context)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a cwd in the payload, a hook works for the project root its
    /// client names in the environment (the first harness's, in order).
    #[test]
    fn the_project_root_comes_from_the_payload_else_the_clients_variables() {
        let vars = crate::domain::harness::project_dir_vars();
        assert_eq!(
            vars,
            [
                "CLAUDE_PROJECT_DIR",
                "GEMINI_PROJECT_DIR",
                "GEMINI_CWD",
                "QWEN_PROJECT_DIR"
            ]
        );
        let env = |set: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                set.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let gemini = env(&[("GEMINI_PROJECT_DIR", "/g")]);
        assert_eq!(cwd_of(None, gemini), PathBuf::from("/g"));
        let both = env(&[("GEMINI_PROJECT_DIR", "/g"), ("CLAUDE_PROJECT_DIR", "/c")]);
        assert_eq!(cwd_of(None, both), PathBuf::from("/c"));
        let none = env(&[]);
        assert_eq!(cwd_of(None, none), std::env::current_dir().unwrap());
    }

    #[test]
    fn handles_and_worktrees() {
        let h = display_handle(Harness::named("claude-code").unwrap(), "abc12345-ffff");
        assert!(
            h.starts_with("cc/abc12345-") && h.len() == "cc/abc12345-".len() + 16,
            "{h}"
        );
        assert!(display_handle(Harness::named("codex").unwrap(), "x").starts_with("cx/x-"));
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("repo");
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        let wt = dir.path().join("wt");
        std::fs::create_dir_all(wt.join("src")).unwrap();
        std::fs::write(
            wt.join(".git"),
            format!("gitdir: {}/.git/worktrees/wt\n", main.display()),
        )
        .unwrap();
        assert!(!in_secondary_worktree(&main));
        assert!(in_secondary_worktree(&wt.join("src")));
        assert!(suppressed(None, &main, Some("subagent")));
        assert!(!suppressed(None, &main, None));
    }

    #[test]
    fn briefed_lists_compare_by_their_ids() {
        let a = r#"[{"id":"m1","topic":"A","status":"active"},{"id":"m2","topic":"B","status":"active"}]"#;
        let renamed = r#"[{"id":"m1","topic":"A2","status":"active"},{"id":"m2","topic":"B","status":"active"}]"#;
        assert!(same_memories(a, Some(renamed)));
        assert!(!same_memories(a, Some(r#"[{"id":"m2"},{"id":"m1"}]"#)));
        assert!(!same_memories(a, Some(r#"[{"id":"m1"}]"#)));
        assert!(!same_memories(a, None));
        assert!(same_memories("[]", Some("[]")));
        assert!(!same_memories("not json", Some("[]")));
    }
}
