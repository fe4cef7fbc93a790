//! Hook trust, for a client whose declaration says its hooks need it
//! (`Settings::trust`); the format is Codex's. `codex exec` silently skips a hook that is not
//! trusted; trust is a `[hooks.state."<file>:<event>:<group>:<handler>"]`
//! table in `$CODEX_HOME/config.toml` whose `trusted_hash` is a SHA-256 of
//! the handler's normalized identity.
//! The identity: `{event_name, matcher (only for events that use one),
//! hooks: [{type, command, timeout (default 600, at least 1), async,
//! statusMessage?, additionalContextLimit?}]}` as JSON with sorted keys and
//! no spaces — checked against the `currentHash` Codex 0.171's app-server
//! reports through `hooks/list` (the tests below hold two of its values).

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use super::json::Json;
use super::plan;

/// `SessionStart` -> `session_start`.
pub fn event_snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A handler's trust key: `<file>:<event_snake>:<group>:<handler>`.
pub fn key(file: &str, event: &str, group: usize, handler: usize) -> String {
    format!("{file}:{}:{group}:{handler}", event_snake(event))
}

/// Codex 0.171 keeps a group's matcher in the identity only for these.
fn uses_matcher(snake: &str) -> bool {
    matches!(
        snake,
        "permission_request"
            | "post_compact"
            | "post_tool_use"
            | "pre_compact"
            | "pre_tool_use"
            | "session_start"
    )
}

/// The `trusted_hash` Codex computes for a command handler.
pub fn trust_hash(event: &str, matcher: Option<&str>, handler: &Json) -> String {
    let snake = event_snake(event);
    let num = |k: &str| match handler.get(k) {
        Some(Json::Number(n)) => n.as_u64(),
        _ => None,
    };
    let mut h = serde_json::Map::new();
    h.insert("type".into(), "command".into());
    h.insert(
        "command".into(),
        handler
            .get("command")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .into(),
    );
    h.insert(
        "timeout".into(),
        num("timeout").unwrap_or(600).max(1).into(),
    );
    h.insert(
        "async".into(),
        matches!(handler.get("async"), Some(Json::Bool(true))).into(),
    );
    if let Some(s) = handler.get("statusMessage").and_then(Json::as_str) {
        h.insert("statusMessage".into(), s.into());
    }
    if let Some(n) = num("additionalContextLimit") {
        h.insert("additionalContextLimit".into(), n.into());
    }
    let mut identity = serde_json::Map::new();
    identity.insert("event_name".into(), snake.clone().into());
    if let Some(m) = matcher.filter(|_| uses_matcher(&snake)) {
        identity.insert("matcher".into(), m.into());
    }
    identity.insert("hooks".into(), vec![serde_json::Value::Object(h)].into());
    // serde_json's map is sorted by key: the canonical form Codex hashes.
    let bytes = serde_json::to_vec(&serde_json::Value::Object(identity)).expect("plain JSON");
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// One command handler of a hooks file, as trust sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub key: String,
    pub hash: String,
    /// It runs `sessionkit hook`.
    pub sessionkit: bool,
}

/// Every command handler of `doc` (a Codex hooks.json at `file`).
pub fn identities(doc: &Json, file: &str) -> Vec<Identity> {
    let mut out = Vec::new();
    let Some(events) = doc.get("hooks").and_then(Json::members) else {
        return out;
    };
    for (event, groups) in events {
        let Some(groups) = groups.as_array() else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let matcher = group.get("matcher").and_then(Json::as_str);
            let Some(handlers) = group.get("hooks").and_then(Json::as_array) else {
                continue;
            };
            for (i, handler) in handlers.iter().enumerate() {
                if handler.get("type").and_then(Json::as_str) != Some("command") {
                    continue;
                }
                let cmd = handler
                    .get("command")
                    .and_then(Json::as_str)
                    .unwrap_or_default();
                out.push(Identity {
                    key: key(file, event, g, i),
                    hash: trust_hash(event, matcher, handler),
                    sessionkit: plan::sessionkit_hook(cmd).is_some(),
                });
            }
        }
    }
    out
}

/// `config` (the text of `$CODEX_HOME/config.toml`) with trust moved from
/// the hooks file's `before` handlers to its `after` ones: sessionkit's
/// handlers trusted at their new places, its old entries gone, and any
/// other trusted handler that moved keeping its trust under its new key.
pub fn retrust(config: &str, before: &[Identity], after: &[Identity]) -> Result<String> {
    let mut doc: toml_edit::DocumentMut =
        config.parse().context("config.toml is not valid TOML")?;
    let state = state_table(&mut doc)?;
    let trusted = |state: &toml_edit::Table, key: &str| {
        state
            .get(key)
            .and_then(|t| t.get("trusted_hash"))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    let mut claimed = vec![false; after.len()];
    for old in before {
        if trusted(state, &old.key).as_deref() != Some(old.hash.as_str()) {
            continue;
        }
        if old.sessionkit {
            drop_trust(state, &old.key);
            continue;
        }
        let moved = after
            .iter()
            .enumerate()
            .find(|(i, new)| !claimed[*i] && !new.sessionkit && new.hash == old.hash);
        if let Some((i, new)) = moved {
            claimed[i] = true;
            if new.key != old.key {
                drop_trust(state, &old.key);
                set_trust(state, &new.key, &new.hash);
            }
        }
    }
    for new in after.iter().filter(|n| n.sessionkit) {
        set_trust(state, &new.key, &new.hash);
    }
    if state.is_empty()
        && let Some(hooks) = doc.get_mut("hooks").and_then(|h| h.as_table_mut())
    {
        hooks.remove("state");
        if hooks.is_empty() {
            doc.remove("hooks");
        }
    }
    Ok(doc.to_string())
}

vocabulary! {
    /// Whether Codex trusts a handler: its config holds the handler's hash
    /// (trusted), another hash (stale), or none (missing).
    Trust, "trust state", "trust states" {
        Trusted = "trusted",
        Stale = "stale",
        Missing = "missing",
    }
}

/// The trust Codex's config (`config`) gives the handler `key` of `hash`.
pub fn trust_of(config: &str, key: &str, hash: &str) -> Trust {
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
        return Trust::Missing;
    };
    let found = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(key))
        .and_then(|t| t.get("trusted_hash"))
        .and_then(|v| v.as_str());
    match found {
        Some(h) if h == hash => Trust::Trusted,
        Some(_) => Trust::Stale,
        None => Trust::Missing,
    }
}

fn state_table(doc: &mut toml_edit::DocumentMut) -> Result<&mut toml_edit::Table> {
    let hooks = doc
        .entry("hooks")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_mut()
        .context("config.toml's `hooks` is not a table")?;
    let state = hooks
        .entry("state")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_mut()
        .context("config.toml's `hooks.state` is not a table")?;
    Ok(state)
}

fn set_trust(state: &mut toml_edit::Table, key: &str, hash: &str) {
    let entry = state
        .entry(key)
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    if let Some(t) = entry.as_table_mut() {
        t.insert("trusted_hash", toml_edit::value(hash));
    }
}

fn drop_trust(state: &mut toml_edit::Table, key: &str) {
    let empty = match state.get_mut(key).and_then(|t| t.as_table_mut()) {
        Some(t) => {
            t.remove("trusted_hash");
            t.is_empty()
        }
        None => false,
    };
    if empty {
        state.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handler(cmd: &str, timeout: u64, limit: Option<u64>) -> Json {
        let mut h = Json::object();
        h.set("type", Json::str("command"));
        h.set("command", Json::str(cmd));
        h.set("timeout", Json::num(timeout));
        if let Some(n) = limit {
            h.set("additionalContextLimit", Json::num(n));
        }
        h
    }

    #[test]
    fn hashes_equal_what_codex_0_171_reports() {
        // `codex app-server` -> `hooks/list` `currentHash`, Codex 0.171.0,
        // 2026-12-03, for these exact handlers in a user hooks.json.
        assert_eq!(
            trust_hash(
                "SessionStart",
                None,
                &handler("sessionkit hook session-start --harness codex", 10, None)
            ),
            "sha256:f2af530e2f91419988370e7db7eb47881e3b3db65a6b0f134a6aba0c67741ed2"
        );
        assert_eq!(
            trust_hash(
                "Stop",
                None,
                &handler("sessionkit hook stop --harness codex", 10, None)
            ),
            "sha256:18f15c8535582f682b2f669e2f2e15b8d29258efd73587095b5fdf9320e56a7b"
        );
        assert_eq!(
            trust_hash(
                "SessionStart",
                None,
                &handler(
                    "sessionkit hook session-start --harness codex",
                    10,
                    Some(10_000)
                )
            ),
            "sha256:daecec0cf031a461ce0513e924a99551eb7f5ee2796489e7c6ec183d82c41be6"
        );
        assert_eq!(
            trust_hash("PreCompact", None, &handler("x", 5, None)),
            "sha256:b3f2c16d7cf018f5a72c763654712652d16070014fc0efb366f5478a2af0b48f"
        );
        assert_eq!(event_snake("UserPromptSubmit"), "user_prompt_submit");
    }

    #[test]
    fn retrust_moves_foreign_trust_and_replaces_sessionkit_s_own() {
        let config = "model = \"o3\"\n\n[hooks.state.\"/h.json:stop:1:0\"]\ntrusted_hash = \"sha256:user\"\n\n[hooks.state.\"/h.json:stop:0:0\"]\ntrusted_hash = \"sha256:old\"\n";
        let id = |key: &str, hash: &str, sk: bool| Identity {
            key: key.into(),
            hash: hash.into(),
            sessionkit: sk,
        };
        let before = [
            id("/h.json:stop:0:0", "sha256:old", true),
            id("/h.json:stop:1:0", "sha256:user", false),
        ];
        // sessionkit's group went away; the user's moved up.
        let after = [id("/h.json:stop:0:0", "sha256:user", false)];
        let out = retrust(config, &before, &after).unwrap();
        assert_eq!(
            out,
            "model = \"o3\"\n\n[hooks.state.\"/h.json:stop:0:0\"]\ntrusted_hash = \"sha256:user\"\n"
        );
        assert_eq!(
            trust_of(&out, "/h.json:stop:0:0", "sha256:user"),
            Trust::Trusted
        );
        assert_eq!(trust_of(&out, "/h.json:stop:0:0", "sha256:x"), Trust::Stale);
        assert_eq!(
            trust_of(&out, "/h.json:stop:9:0", "sha256:x"),
            Trust::Missing
        );
        // And back: sessionkit's handler trusted, nothing else disturbed.
        let back = retrust(
            &out,
            &after,
            &[after[0].clone(), id("/h.json:stop:1:0", "sha256:new", true)],
        )
        .unwrap();
        assert!(back.contains("[hooks.state.\"/h.json:stop:1:0\"]\ntrusted_hash = \"sha256:new\""));
        assert!(retrust("not = [toml", &[], &[]).is_err());
        assert_eq!(retrust("a = 1\n", &[], &[]).unwrap(), "a = 1\n");
    }
}
