//! Typed JSON contracts: `sessionkit schema COMMAND` prints a
//! JSON Schema derived from the record types; each typed command's output
//! on the fixture databases is valid against it, and every field the schema
//! names is printed somewhere (the help's field list comes from the same
//! schema, so neither can promise what the output does not have).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{Env, fixtures};

/// Checks `v` against `schema` (the subset schemars writes: `$ref` into
/// `$defs`, `type`, `properties`, `required`, `additionalProperties`,
/// `items`, `enum`, `const`, `oneOf`, `anyOf`, `minimum`). Returns the
/// first problem, with its JSON path.
fn validate(v: &Value, schema: &Value, root: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").ok_or(format!("{at}: ref {r}"))?;
        validate(v, &root["$defs"][name], root, at)?;
        // Beside a reference, a schema may hold keywords of its own (a tag).
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = names.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            _ => false,
        });
        if !ok {
            return Err(format!("{at}: {v} is not {names:?}"));
        }
    }
    if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
        && v.as_f64().is_some_and(|x| x < min)
    {
        return Err(format!("{at}: {v} < {min}"));
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        return Err(format!("{at}: {v} not in {e:?}"));
    }
    if let Some(c) = schema.get("const")
        && c != v
    {
        return Err(format!("{at}: {v} is not {c}"));
    }
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        let n = branches
            .iter()
            .filter(|b| validate(v, b, root, at).is_ok())
            .count();
        if n != 1 {
            return Err(format!("{at}: {v} matches {n} oneOf branches"));
        }
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array)
        && !branches.iter().any(|b| validate(v, b, root, at).is_ok())
    {
        return Err(format!("{at}: {v} matches no anyOf branch"));
    }
    if let (Some(obj), Some(props)) = (
        v.as_object(),
        schema.get("properties").and_then(Value::as_object),
    ) {
        for req in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !obj.contains_key(req) {
                return Err(format!("{at}: missing {req}"));
            }
        }
        for (k, x) in obj {
            match props.get(k) {
                Some(p) => validate(x, p, root, &format!("{at}.{k}"))?,
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("{at}: {k} is not in the schema"));
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(schema_items)) = (v.as_array(), schema.get("items")) {
        for (i, x) in items.iter().enumerate() {
            validate(x, schema_items, root, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// Every (definition, property) the schema names.
fn promised(schema: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut add = |def: &str, s: &Value| {
        for k in s["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            out.insert((def.to_string(), k.clone()));
        }
    };
    add("", schema);
    for (i, b) in schema["oneOf"].as_array().into_iter().flatten().enumerate() {
        add(&format!("oneOf[{i}]"), b);
    }
    for (name, def) in schema["$defs"].as_object().into_iter().flatten() {
        add(name, def);
    }
    out
}

/// The (definition, property) pairs `v` prints, following the schema.
fn printed(
    v: &Value,
    schema: &Value,
    root: &Value,
    def: &str,
    out: &mut BTreeSet<(String, String)>,
) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        printed(v, &root["$defs"][name], root, name, out);
        // A branch may name a reference and properties of its own (a tag).
        if schema.get("properties").is_none() {
            return;
        }
    }
    for b in schema
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if validate(v, b, root, "").is_ok() {
            printed(v, b, root, def, out);
        }
    }
    // A record of several shapes (top-level oneOf): its fields count for the
    // branch it matches.
    if def.is_empty() && schema.get("properties").is_none() {
        let branches = schema.get("oneOf").and_then(Value::as_array);
        for (i, b) in branches.into_iter().flatten().enumerate() {
            if b.get("properties").is_some() && validate(v, b, root, "").is_ok() {
                printed(v, b, root, &format!("oneOf[{i}]"), out);
            }
        }
    }
    if let (Some(obj), Some(props)) = (
        v.as_object(),
        schema.get("properties").and_then(Value::as_object),
    ) {
        for (k, x) in obj {
            out.insert((def.to_string(), k.clone()));
            if let Some(p) = props.get(k) {
                printed(x, p, root, def, out);
            }
        }
    }
    if let (Some(items), Some(s)) = (v.as_array(), schema.get("items")) {
        for x in items {
            printed(x, s, root, def, out);
        }
    }
}

/// Checks records against `command`'s schema: each names `contract`, each
/// is valid, and every field the schema names is printed by one of them.
pub(crate) fn holds_contract(
    env: &Env,
    command: &str,
    title: &str,
    contract: &str,
    records: &[Value],
) {
    let schema = env.json(&["schema", command]);
    assert_eq!(schema["title"], title);
    let mut seen = BTreeSet::new();
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["schema"], contract);
        validate(r, &schema, &schema, &format!("[{i}]")).unwrap();
        printed(r, &schema, &schema, "", &mut seen);
    }
    let missing: Vec<_> = promised(&schema).difference(&seen).cloned().collect();
    assert!(
        missing.is_empty(),
        "{command}: named by the schema, never printed: {missing:?}"
    );
}

#[test]
fn status_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    env.ingest(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-tree/projects"),
    );
    let rows = env.json(&["status", "--all"]);
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 10, "{}", rows.len());
    holds_contract(
        &env,
        "status",
        "AgentStatusRecord",
        "sessionkit.status/1",
        rows,
    );
}

#[test]
fn check_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    let root = env.path("projects");
    crate::common::copy_tree(&fixtures(), &root);
    // Damage: a broken line in one session, and a file never ingested.
    let file = std::fs::read_dir(root.join("-home-dev-alpha"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("{\"type\":\"assistant\",broken\n");
    std::fs::write(&file, text).unwrap();
    env.ingest(&root);
    std::fs::write(
        root.join("-home-dev-alpha/99999999-9999-4999-8999-999999999999.jsonl"),
        "{\"type\":\"user\",\"sessionId\":\"99999999-9999-4999-8999-999999999999\",\"uuid\":\"u\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n",
    )
    .unwrap();
    let (code, out, _) = env.run(&["check", "--json", "--root", root.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    let kinds: BTreeSet<&str> = rows.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        BTreeSet::from(["degraded-line", "not-ingested"]),
        "{out}"
    );
    holds_contract(&env, "check", "FindingRecord", "sessionkit.check/1", rows);
}

#[test]
fn cost_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    // Kilo writes its own cost for a model with no price here.
    let kilo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/kilo/corpus");
    for root in std::fs::read_dir(&kilo).unwrap() {
        env.ingest(&root.unwrap().path());
    }
    // Every key, across two groupings (each row carries only its own keys).
    let mut rows = Vec::new();
    for by in [
        "day,week,month,session,block",
        "project,harness,model,agent-type,agent,machine,user",
    ] {
        let got = env.cost_rows(&["--by", by, "--tz", "UTC"]);
        assert!(!got.is_empty(), "{by}");
        for r in &got {
            // A block key carries its end.
            let keys = by.split(',').count() + usize::from(by.contains("block"));
            // A session is named by its title, project and last activity.
            let named = if by.contains("session") {
                assert!(
                    r.get("last_activity_at").is_some() && r.get("project").is_some(),
                    "{r}"
                );
                2 + usize::from(r.get("title").is_some())
            } else {
                0
            };
            // The totals' 11 fields, the schema, exactly the keys asked for
            // (a block's end with it), what names a session and the
            // client's own figure where there is one.
            let client = usize::from(r.get("harness_reported_usd").is_some());
            assert_eq!(
                r.as_object().unwrap().len(),
                11 + 1 + keys + named + client,
                "{r}"
            );
        }
        rows.extend(got);
    }
    // JSON Lines with --totals ends with the keyless total.
    let (_, out, _) = env.run(&["cost", "--tz", "UTC", "--format", "jsonl", "--totals"]);
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["total"], true, "{out}");
    assert!(last.get("day").is_none(), "{last}");
    rows.push(last);
    holds_contract(&env, "cost", "CostRecord", "sessionkit.cost/1", &rows);
}

#[test]
fn ingest_summary_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    let a = env.path("a");
    crate::common::copy_tree(&fixtures(), &a);
    // A second root with an empty transcript (skipped, named with its root)
    // and one with a malformed line (a failure under --strict).
    let b = env.path("b/-w-p");
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("aaaaaaaa-0000-4000-8000-00000000000e.jsonl"), "").unwrap();
    std::fs::write(
        b.join("aaaaaaaa-0000-4000-8000-00000000000f.jsonl"),
        "{\"type\":\"assistant\",broken\n",
    )
    .unwrap();
    let (code, out, _) = env.run(&[
        "ingest",
        "--json",
        "--strict",
        "--root",
        a.to_str().unwrap(),
        "--root",
        env.path("b").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["skipped_paths"][0]["root"], 1, "{out}");
    assert_eq!(summary["failures"].as_array().unwrap().len(), 1, "{out}");
    holds_contract(&env, "ingest", "Summary", "sessionkit.ingest/1", &[summary]);
}

#[test]
fn sweep_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    // A commitment the run was briefed and its last words say it finished:
    // the closer's row.
    let c = env.json(&[
        "remember",
        "--kind",
        "commitment",
        "--topic",
        "Release notes",
        "--content",
        "Write them",
        "--project",
        "shop",
    ]);
    let id = c["memory_id"].as_str().unwrap();
    let briefed = format!(r#"[{{"id":"{id}","topic":"Release notes","status":"open"}}]"#);
    let opened = env.json(&[
        "session",
        "open",
        "--agent",
        "claude-code",
        "--session-id",
        "s-1",
        "--source",
        "startup",
        "--project",
        "shop",
        "--briefed",
        &briefed,
    ]);
    assert!(opened["run_id"].is_string());
    env.json(&[
        "session",
        "heartbeat",
        "--agent",
        "claude-code",
        "--session-id",
        "s-1",
        "--excerpt",
        "The release notes are done.",
    ]);
    env.json(&["config", "set", "closer.enabled", "on"]);
    env.json(&["config", "set", "sweep.history_hours", "100000"]);
    // A month later: the fixtures' live agents are silent past the watchdog
    // window (listed: history is set long), and the run past its lease.
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", "2026-03-01T00:00:00Z")
        .args(["sweep", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    let actions: BTreeSet<&str> = rows.iter().map(|r| r["action"].as_str().unwrap()).collect();
    assert_eq!(actions, BTreeSet::from(["lease", "resolve", "watchdog"]));
    holds_contract(&env, "sweep", "SweepChange", "sessionkit.sweep/1", rows);
}

#[test]
fn config_and_prune_output_are_valid_against_their_schemas() {
    let env = Env::new();
    env.ingest(&fixtures());
    let settings = env.json(&["config", "list"]);
    let settings = settings.as_array().unwrap();
    assert!(settings.len() >= 10, "{}", settings.len());
    let mut all = settings.clone();
    all.push(env.json(&["config", "get", "watchdog.minutes"]));
    holds_contract(&env, "config", "SettingRecord", "sessionkit.config/1", &all);
    let (code, out, _) = env.run(&["prune", "--before", "2027-01-01", "--dry-run", "--json"]);
    assert_eq!(code, 1, "{out}");
    let pruned: Value = serde_json::from_str(&out).unwrap();
    assert!(pruned["sessions"].as_u64().unwrap() >= 4, "{pruned}");
    holds_contract(
        &env,
        "prune",
        "PruneRecord",
        "sessionkit.prune/1",
        &[pruned],
    );
}

#[test]
fn show_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    env.ingest(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-2.1.332/projects"),
    );
    let mut docs = Vec::new();
    for s in env.json(&["sessions"]).as_array().unwrap() {
        docs.push(env.json(&["show", s["session_id"].as_str().unwrap()]));
    }
    // Among them: degraded lines, a compaction, the harness's own figures.
    assert!(
        docs.iter()
            .any(|d| !d["degraded"].as_array().unwrap().is_empty())
    );
    assert!(
        docs.iter()
            .any(|d| !d["compactions"].as_array().unwrap().is_empty())
    );
    assert!(docs.iter().any(|d| d.get("harness_reported").is_some()));
    holds_contract(&env, "show", "ShowRecord", "sessionkit.show/1", &docs);
}

#[test]
fn tree_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    env.ingest(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-tree/projects"),
    );
    let docs = env.json(&["tree", "--all"]);
    let docs = docs.as_array().unwrap();
    assert!(docs.len() >= 4, "{}", docs.len());
    holds_contract(&env, "tree", "TreeDoc", "sessionkit.tree/1", docs);
    let schema = env.json(&["schema", "tree"]);
    // The validator refuses what the contract does not allow.
    let mut bad = docs[0].clone();
    bad["roots"][0]["total_tokens"] = 5.into();
    assert!(validate(&bad, &schema, &schema, "").is_err());
    let mut bad = docs[0].clone();
    bad["roots"][0]["join_path"] = "sidecar".into();
    assert!(validate(&bad, &schema, &schema, "").is_err());
}

#[test]
fn sessions_output_is_valid_against_its_schema_and_prints_every_field_it_names() {
    let env = Env::new();
    env.ingest(&fixtures());
    let rows = env.json(&["sessions"]);
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 4, "{}", rows.len());
    holds_contract(
        &env,
        "sessions",
        "SessionRecord",
        "sessionkit.session/1",
        rows,
    );
    // show prints the same session fields (and its parts), under its own contract.
    let show = env.json(&["show", rows[0]["session_id"].as_str().unwrap()]);
    for (k, v) in rows[0].as_object().unwrap() {
        if k != "schema" {
            assert_eq!(&show[k], v, "{k}");
        }
    }
    assert_eq!(show["schema"], "sessionkit.show/1");
}

#[test]
fn schema_names_the_typed_commands_and_refuses_others() {
    let env = Env::new();
    let (code, _, err) = env.run(&["schema", "hook"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "sessionkit: \"hook\" has no JSON schema yet (typed so far: archive, brief, check, check-golden, config, cost, cost-segments, eval, export, hooks, hooks-doctor, hooks-status, import, ingest, limits, limits-snapshots, memories, memory, pricing, pricing-change, prompt, prune, prune-index, push, recall, remember, resolve, revise, search, session, session-events, sessions, show, show-at, sources, status, sweep, tree, triage, unresolve); its fields are listed in `sessionkit hook --help`"
    );
    // No database is touched.
    assert!(!env.db().exists());
    // The help's field list is the schema's.
    let (_, help, _) = env.run(&["tree", "--help"]);
    assert!(
        help.contains("`sessionkit schema tree` prints the JSON Schema"),
        "{help}"
    );
    assert!(!help.contains("sidecar"), "{help}");
}

fn ok(env: &Env, args: &[&str]) -> String {
    let (code, out, err) = env.run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out.trim().to_string()
}

/// Memories of every shape a record can take: a commitment with a due
/// date and owner, a resolved one, a pinned note with a description and
/// tags, a revised decision (its old version superseded), a redacted one.
fn memories(env: &Env) -> Vec<String> {
    let remember = |extra: &[&str]| {
        ok(
            env,
            &[&["remember", "--project", "shop"][..], extra].concat(),
        )
    };
    let due = remember(&[
        "--kind",
        "commitment",
        "--topic",
        "ship the cart",
        "--content",
        "ship the cart by friday",
        "--due",
        "2030-01-01",
        "--owner",
        "ana",
    ]);
    let done = remember(&[
        "--kind",
        "commitment",
        "--topic",
        "fix login",
        "--content",
        "fix the login redirect",
    ]);
    ok(env, &["resolve", &done]);
    let note = remember(&[
        "--kind",
        "note",
        "--topic",
        "cache sizes",
        "--content",
        "the cache holds 512 entries",
        "--description",
        "cache is 512",
        "--tag",
        "perf",
        "--tag",
        "cache",
        "--pin",
    ]);
    let old = remember(&[
        "--kind",
        "decision",
        "--topic",
        "database",
        "--content",
        "use postgres for orders",
    ]);
    let live = ok(
        env,
        &["revise", &old, "--content", "use postgres 16 for orders"],
    );
    let secret = remember(&[
        "--kind",
        "fact",
        "--topic",
        "staging",
        "--content",
        "staging lives on host seven",
    ]);
    ok(
        env,
        &["memory", "redact", &secret, "--reason", "pasted by mistake"],
    );
    vec![due, done, note, old, live, secret]
}

#[test]
fn memory_records_are_valid_against_their_schemas_and_print_every_field_they_name() {
    let env = Env::new();
    let ids = memories(&env);
    // A listing: every version, with content.
    let rows = env.json(&["memories", "--all", "--full"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    holds_contract(
        &env,
        "memories",
        "MemoryRecord",
        "sessionkit.memory/1",
        rows,
    );
    // JSON Lines take the fast path: the same records, byte for byte.
    let (_, lines, _) = env.run(&["memories", "--all", "--full", "--format", "jsonl"]);
    let from_lines: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&from_lines, rows);
    // What a writing verb prints with a format.
    let (code, out, err) = env.run(&[
        "remember",
        "--project",
        "shop",
        "--kind",
        "note",
        "--topic",
        "t",
        "--content",
        "c",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let record: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["content"], "c");
    for verb in ["remember", "revise", "resolve", "unresolve", "archive"] {
        let schema = env.json(&["schema", verb]);
        assert_eq!(schema["title"], "MemoryRecord", "{verb}");
        validate(&record, &schema, &schema, verb).unwrap();
    }
    // memory show: the commitment with its events, and the redacted one
    // (its reason).
    let shown: Vec<Value> = [&ids[0], &ids[5], &ids[4]]
        .iter()
        .map(|id| env.json(&["memory", "show", id]))
        .collect();
    holds_contract(
        &env,
        "memory",
        "MemoryShowRecord",
        "sessionkit.memory/1",
        &shown,
    );
    assert_eq!(shown[2]["chain"].as_array().unwrap().len(), 2);
    // recall
    let hits = env.json(&["recall", "postgres cache cart", "--all"]);
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 4, "{hits:?}");
    holds_contract(&env, "recall", "RecallRecord", "sessionkit.memory/1", hits);
}

#[test]
fn export_lines_and_import_rows_are_valid_against_their_schemas() {
    let env = Env::new();
    memories(&env);
    let (code, export, _) = env.run(&["export"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = export
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 6 memories, 2 commitments, and their events.
    assert_eq!(lines.iter().filter(|l| l["type"] == "memory").count(), 6);
    assert_eq!(
        lines.iter().filter(|l| l["type"] == "commitment").count(),
        2
    );
    holds_contract(&env, "export", "ExportLine", "sessionkit.export/1", &lines);
    // Import into a fresh database: created rows; again: present rows;
    // with a broken line: rejected and not-imported rows.
    let other = Env::new();
    let file = other.path("export.jsonl");
    std::fs::write(&file, &export).unwrap();
    let first = other.json(&["import", file.to_str().unwrap()]);
    let again = other.json(&["import", file.to_str().unwrap()]);
    std::fs::write(&file, format!("{export}{{\"type\":\"memory\"}}\n")).unwrap();
    let (code, out, _) = other.run(&["import", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let refused: Value = serde_json::from_str(&out).unwrap();
    let rows: Vec<Value> = [first, again, refused]
        .iter()
        .flat_map(|v| v.as_array().unwrap().clone())
        .collect();
    let results: BTreeSet<&str> = rows.iter().map(|r| r["result"].as_str().unwrap()).collect();
    assert_eq!(
        results,
        BTreeSet::from(["created", "not-imported", "present", "rejected"])
    );
    holds_contract(
        &other,
        "import",
        "ImportRecord",
        "sessionkit.import/1",
        &rows,
    );
}

#[test]
fn run_records_are_valid_against_their_schemas() {
    let env = Env::new();
    let key = ["--agent", "claude-code", "--session-id", "s-1"];
    let open = env.json(
        &[
            &[
                "session",
                "open",
                "--source",
                "startup",
                "--project",
                "shop",
                "--briefed",
                r#"[{"id":"m1","topic":"Database","status":"active"}]"#,
            ][..],
            &key,
        ]
        .concat(),
    );
    let run = open["run_id"].as_str().unwrap().to_string();
    let beat = env.json(
        &[
            &["session", "heartbeat", "--excerpt", "done for now"][..],
            &key,
        ]
        .concat(),
    );
    ok(
        &env,
        &[
            "remember",
            "--project",
            "shop",
            "--kind",
            "note",
            "--topic",
            "t",
            "--content",
            "c",
            "--session-run-id",
            &run,
        ],
    );
    let close = env.json(&[&["session", "close"][..], &key].concat());
    let show = env.json(&["session", "show", &run]);
    let list = env.json(&["session", "list"]);
    let mut records = vec![open, beat, close, show];
    records.extend(list.as_array().unwrap().iter().cloned());
    assert_eq!(records[3]["outcome"], Value::Null);
    holds_contract(&env, "session", "RunRecord", "sessionkit.run/1", &records);
    let events = env.json(&["session", "events", &run]);
    assert_eq!(events["events"].as_array().unwrap().len(), 1);
    holds_contract(
        &env,
        "session-events",
        "RunEventsRecord",
        "sessionkit.run-events/1",
        &[events],
    );
}

#[test]
fn pricing_and_segment_records_are_valid_against_their_schemas() {
    let env = Env::new();
    env.ingest(&fixtures());
    ok(
        &env,
        &[
            "pricing", "set", "model-x", "--input", "3", "--output", "15",
        ],
    );
    let changed = env.json(&[
        "pricing",
        "set",
        "claude-opus-4-5-20251101",
        "--input",
        "4",
        "--output",
        "20",
    ]);
    assert!(changed["rows_repriced"].as_u64().unwrap() > 0, "{changed}");
    holds_contract(
        &env,
        "pricing-change",
        "PriceChangeRecord",
        "sessionkit.price-change/1",
        &[changed],
    );
    let prices = env.json(&["pricing", "list"]);
    let prices = prices.as_array().unwrap();
    let sources: BTreeSet<&str> = prices
        .iter()
        .map(|p| p["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, BTreeSet::from(["custom", "embedded"]));
    holds_contract(&env, "pricing", "PriceRecord", "sessionkit.price/1", prices);
    let segs = env.json(&["cost", "--session", "1111", "--segments"]);
    let segs = segs.as_array().unwrap();
    assert_eq!(segs.len(), 2);
    holds_contract(
        &env,
        "cost-segments",
        "SegmentRecord",
        "sessionkit.cost-segment/1",
        segs,
    );
}
