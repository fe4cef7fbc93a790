//! The migrations: landed ones never edited, each applied once, the
//! data they move kept.

use super::*;

/// A migration's statements: its text without `--` comments (outside
/// quotes) and blank lines. Comments may be reworded; statements not.
fn statements(sql: &str) -> String {
    let mut out = Vec::new();
    for line in sql.lines() {
        let mut quoted = false;
        let mut end = line.len();
        for (i, c) in line.char_indices() {
            if c == '\'' {
                quoted = !quoted;
            } else if !quoted && line[i..].starts_with("--") {
                end = i;
                break;
            }
        }
        let kept = line[..end].trim_end();
        if !kept.is_empty() {
            out.push(kept);
        }
    }
    out.join("\n")
}

/// Landed migrations are immutable: a database migrated by
/// an earlier build never runs an edited file again, so an edit would
/// give two databases of one version different schemas. A new change
/// is a new file; the checksum of its statements is added here when it
/// lands.
#[test]
fn landed_migrations_are_never_edited() {
    use sha2::{Digest, Sha256};
    const LANDED: &[(&str, &str)] = &[
        (
            "0001_init",
            "359ebe554632349b22ea2fcc707c60f84580bb3fc1b7511067eb5089d71e7225",
        ),
        (
            "0002_edges",
            "a50c7441bf4b2c7bc29719d2485b37076abb7d9531599f0da147f99cc0f77ec8",
        ),
        (
            "0003_costs",
            "a23618bbe5e7f8787ba74aa466cf3b7fddc912bd5f0c111e6ffbc84652d640fd",
        ),
        (
            "0004_pricing",
            "9737a6c1a978dd8cd98f2e12eda0711d04e1dfb9a61427158aae146b623c90b2",
        ),
        (
            "0005_events",
            "75882ac48e9ee477f3bd1c304f11f4e03aa06449b74c87a5d0a1222382d1d2eb",
        ),
        (
            "0006_memory",
            "d556c7368def738406b5af19207f279ee8476345e23dd6aec52b8b39d196a952",
        ),
        (
            "0007_runs",
            "57c50d70139cc2642b2829da1adcb190e2bd7cd6aeb1186ed331b4d0058f1c5b",
        ),
        (
            "0008_bounded_reads",
            "9b2664ffc9cc01ce8344b6162e071b61fe2e80ff1f04324636dfa4fbe574f31c",
        ),
        (
            "0009_memory_listing",
            "c934d40897d2681b6d81dcb7335b82b93e134aae927b0777c8406a77fe5e5718",
        ),
        (
            "0010_memory_rank",
            "567e5a5a574d54645d2ab37737e125af7f0b9ac549d90d456de16e0ff288d215",
        ),
        (
            "0011_demand_check",
            "e09127c79d8edaa860a72e241d93a55248943faa339523e19a44f72faaad2cf7",
        ),
        (
            "0012_resume",
            "1d1891979bb2990470802b0c1c49bec925de1c6cd82cd66949ecc1fc0570c7ef",
        ),
        (
            "0013_triage",
            "15c60b4e7c8d29099db3cf2ae911f15d94c02c5ba547444297b06da59f51a63e",
        ),
        (
            "0014_closer_actor",
            "0a4224e4a01feb5cc666c134633a433e5f7edfc3b4dedda6418aa81bd47872e4",
        ),
        (
            "0015_closer_spend",
            "93cb1594abad8a9bac257d608a54d399c56d08f0fec780ff4c235647009eebe9",
        ),
        (
            "0016_hook_health",
            "71aff255da47dceafdd277e7dfcb11510d643cd813f2257a4d5792d4faf2b79f",
        ),
        (
            "0017_fts_project",
            "dd89dc59f1be3e517f1bd433a1a7c6f4723958aa397773e566b94c991259242e",
        ),
        (
            "0018_observation_bands",
            "a78405305e17ddc53d82c84448d3e17adcd30fd8bf46cd0df7dbaed6eb03ad94",
        ),
        (
            "0019_resume_by_key",
            "d37ca6c86f3574b2cf90c5df12413dd18d0f71679863af9093c5f13cedfe174a",
        ),
        (
            "0020_fts_stems",
            "30c8725b3cc02a4b7762927b058932d0f8258f0fa948b5ea786ec4a9871d1b66",
        ),
        (
            "0021_reasoning",
            "871f63b8292635b5ab7fc24f248cdd1dc85615a9b4f9b6ed899d805a9397f814",
        ),
        (
            "0022_push",
            "bbe103a88b6949b3fff8c05a29de064c657f8a8f090e9a0dbd8490aea9ae899c",
        ),
        (
            "0023_rate_limits",
            "6c534eda08d63a9a1b0113610e5cb5dc300d18b89f65bce1442262f418cb0630",
        ),
        (
            "0024_search",
            "75d824b209f659d122f0be66d7e630867730d0a91645459e900fe635651d338f",
        ),
        (
            "0025_otlp",
            "cfca2323c6a25e17c2da022a0176b32009bbdcb8f594ed3690feea4b4e24c08a",
        ),
        (
            "0026_otlp_endpoint_keys",
            "7c6dfbcf4398a1f6d64518f67086ca9f3fca3bae808b879574762f3a72b0ba15",
        ),
        (
            "0027_hook_senders",
            "3f0510c3db790652cb56b2a49473170c1ba1795a2e8a171a0bd20c7a35b451ea",
        ),
        (
            "0028_search_sessions",
            "858f16fdefe121372e33929f6e26cb77c062e94cf78a9d998b0aa06b27f197fd",
        ),
        (
            "0029_search_hash",
            "c9d21a0ce573f2ef7ed67011843e0b898f4f634f7463b4b68d13faa7fc60ff3e",
        ),
        (
            "0030_session_titles",
            "fc925d5d3f0ec562cd125b542ea8f54086ca31256ff5726a51f8740009a6708b",
        ),
        (
            "0031_harness_message_costs",
            "829d5b7094d2d6904433478d1d35c24b4f136b783ce9295c3fee95a017d16bf8",
        ),
        (
            "0032_search_compact",
            "5cb626a517b0a6d10d42c1f884ea48931223b27f5e314d58c229e95c966d0657",
        ),
    ];
    assert!(MIGRATIONS.len() >= LANDED.len());
    for ((name, sql), (landed, sum)) in MIGRATIONS.iter().zip(LANDED) {
        assert_eq!(
            name, landed,
            "migrations are appended, never renamed or reordered"
        );
        let got: String = Sha256::digest(statements(sql).as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            &got, sum,
            "{name} was edited after it landed: add a new migration instead"
        );
    }
}

#[test]
fn migrations_apply_in_memory_and_twice() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let v: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}

#[test]
fn demand_recorded_before_0008_learns_its_project() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 7).unwrap();
    c.execute_batch(
        "INSERT INTO memories(memory_id, kind, topic, content, project, scope, tags, status, valid_from,
                              created_at, updated_at)
         VALUES ('m1', 'note', 't', 'c', 'shop', 'project', '[]', 'active', 1, 1, 1);
         INSERT INTO memory_demand(kind, run_key, memory_id, weight, created_at)
         VALUES ('show', 'day:2026-01-01', 'm1', 3, 5), ('briefing', 'r1', 'm1', 0, 6);",
    )
    .unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let rows: Vec<(String, String)> = c
        .prepare("SELECT kind, project FROM memory_demand ORDER BY kind")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            ("briefing".into(), "shop".into()),
            ("show".into(), "shop".into())
        ]
    );
}

#[test]
fn demand_survives_its_rebuild_in_0011() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 10).unwrap();
    c.execute_batch(
        "INSERT INTO memory_demand(kind, run_key, memory_id, weight, created_at, project)
         VALUES ('show', 'day:2026-01-01', 'm1', 3, 5, 'shop'), ('briefing', 'r1', 'm1', 0, 6, 'shop'),
                ('recall', 'r2', 'm2', 1.5, 7, NULL);",
    )
    .unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let rows: Vec<(String, String, String, f64, i64, Option<String>)> = c
        .prepare("SELECT * FROM memory_demand ORDER BY created_at")
        .unwrap()
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            (
                "show".into(),
                "day:2026-01-01".into(),
                "m1".into(),
                3.0,
                5,
                Some("shop".into())
            ),
            (
                "briefing".into(),
                "r1".into(),
                "m1".into(),
                0.0,
                6,
                Some("shop".into())
            ),
            ("recall".into(), "r2".into(), "m2".into(), 1.5, 7, None),
        ]
    );
    // The CHECK still refuses another kind; the key still refuses a repeat.
    for bad in [
        "INSERT INTO memory_demand VALUES ('audit', 'r', 'm', 0, 1, NULL)",
        "INSERT INTO memory_demand VALUES ('show', 'day:2026-01-01', 'm1', 3, 9, 'shop')",
    ] {
        assert!(c.execute(bad, []).is_err(), "{bad}");
    }
    let index: String = c
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE name = 'memory_demand_project'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(index.ends_with("WHERE weight > 0"), "{index}");
}

/// Migration 0026 moves what was recorded sent to an OTLP endpoint
/// under a URL with a password to the URL without user information
/// (and without a trailing slash); where both were recorded, one row
/// stays; no password is left.
#[test]
fn otlp_endpoint_keys_lose_their_user_information_in_0026() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 25).unwrap();
    c.execute_batch(
        "INSERT INTO otlp_sent_messages(endpoint, session_id, message_id) VALUES
            ('http://u:p@ss@h:4318/', 's', 'm1'), ('http://h:4318', 's', 'm1'),
            ('https://:tok@c.example/otlp?x=a@b', 's', 'm2'), ('http://h2/', 's', 'm3'),
            ('http://plain:1', 's', 'm4');
         INSERT INTO otlp_sent_sessions(endpoint, session_id, last_activity_at) VALUES
            ('http://u:pw@h:4318', 's', 5);",
    )
    .unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let rows: Vec<(String, String)> = c
        .prepare(
            "SELECT endpoint, message_id FROM otlp_sent_messages ORDER BY message_id, endpoint",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let want = [
        ("http://h:4318", "m1"),
        ("https://c.example/otlp?x=a@b", "m2"),
        ("http://h2", "m3"),
        ("http://plain:1", "m4"),
    ];
    assert_eq!(rows, want.map(|(a, b)| (a.to_string(), b.to_string())));
    let s: String = c
        .query_row("SELECT endpoint FROM otlp_sent_sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(s, "http://h:4318");
}

/// Migration 0019 keys `ingest_resume` by its session (WITHOUT ROWID):
/// every row comes through, stored in key order whatever order it was
/// written in, and still goes with its session.
#[test]
fn resume_rows_survive_their_rebuild_in_0019() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 18).unwrap();
    c.execute_batch(
        "PRAGMA foreign_keys = ON;
         INSERT INTO sessions(session_id, harness, project_slug, status, records, unknown_records,
                              synthetic_messages, bytes, degraded_lines)
         VALUES ('s1', 'claude-code', 'p', 'done', 3, 0, 0, 10, 0),
                ('s2', 'claude-code', 'p', 'done', 1, 0, 0, 10, 0);
         INSERT INTO ingest_resume(session_id, revision, state)
         VALUES ('s2', 6, '{\"b\":2}'), ('s1', 7, '{\"a\":1}');",
    )
    .unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let rows: Vec<(String, i64, String)> = c
        .prepare("SELECT session_id, revision, state FROM ingest_resume")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            ("s1".to_string(), 7, r#"{"a":1}"#.to_string()),
            ("s2".to_string(), 6, r#"{"b":2}"#.to_string())
        ]
    );
    let sql: String = c
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE name = 'ingest_resume'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(sql.ends_with("WITHOUT ROWID"), "{sql}");
    c.execute("DELETE FROM sessions WHERE session_id = 's1'", [])
        .unwrap();
    let left: i64 = c
        .query_row("SELECT COUNT(*) FROM ingest_resume", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 1, "a session's resume row goes with it");
}

/// Migration 0018 rebuilds the observation table keyed by band: every
/// row comes through as band 0 with all its columns, `token_usage`
/// reads the same rows, the message index is back, and the key still
/// refuses a repeat within a band while another band may hold the id.
#[test]
fn observations_survive_their_rebuild_in_0018() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 17).unwrap();
    c.execute_batch(
        "INSERT INTO sessions(session_id, harness, project_slug, status, records, unknown_records,
                              synthetic_messages, bytes, degraded_lines)
         VALUES ('s1', 'claude-code', 'p', 'done', 3, 0, 0, 10, 0),
                ('s2', 'claude-code', 'p', 'done', 1, 0, 0, 10, 0);
         INSERT INTO usage_observations(session_id, message_id, agent_id, record_session_id, model,
             occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
             cache_read_tokens, counted, t_model, t_occurred_at, t_input_tokens, t_output_tokens,
             t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens, cost_nanousd,
             billing, web_searches)
         VALUES ('s1', 'm1', NULL, NULL, 'claude-opus-4-5', 100, 1, 2, 3, 4, 5, 1,
                 NULL, NULL, NULL, NULL, NULL, NULL, NULL, 700, 1, 2),
                ('s1', 'm2', 'a1', 's0', 'claude-haiku-4-5', NULL, 6, 7, 8, 9, 10, 0,
                 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                ('s2', 'm2', NULL, NULL, 'claude-haiku-4-5', 50, 6, 9, 8, 9, 10, 1,
                 'claude-haiku-4-5', 50, 6, 9, 8, 9, 10, 900, NULL, NULL);",
    )
    .unwrap();
    let all = |c: &Connection, sql: &str| -> Vec<String> {
        let mut stmt = c.prepare(sql).unwrap();
        let n = stmt.column_count();
        stmt.query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    const COLUMNS: &str = "session_id, message_id, agent_id, record_session_id, model, occurred_at,
        input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
        counted, t_model, t_occurred_at, t_input_tokens, t_output_tokens, t_cache_write_5m_tokens,
        t_cache_write_1h_tokens, t_cache_read_tokens, cost_nanousd, billing, web_searches";
    let rows = format!("SELECT {COLUMNS} FROM usage_observations ORDER BY 1, 2");
    let before = all(&c, &rows);
    // The view's columns at 0017 (later migrations add to them).
    const USAGE: &str = "SELECT message_id, session_id, agent_id, model, occurred_at, input_tokens,
        output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
        cost_nanousd, billing, web_searches FROM token_usage ORDER BY message_id";
    let usage = all(&c, USAGE);
    assert_eq!(before.len(), 3);
    assert_eq!(usage.len(), 2);
    migrate(&mut c, Path::new(":memory:")).unwrap();
    assert_eq!(all(&c, &rows), before);
    assert_eq!(all(&c, USAGE), usage);
    assert_eq!(
        all(&c, "SELECT DISTINCT band FROM usage_observations"),
        ["Integer(0)"]
    );
    let index: String = c
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE name = 'usage_observations_message'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(index.ends_with("(message_id)"), "{index}");
    // The key's columns lead, in key order: SQLite before 3.41 (the
    // sqlite3 of Debian 12) misreads NOT NULL columns otherwise.
    let lead: Vec<String> = c
        .prepare("SELECT name FROM pragma_table_info('usage_observations') ORDER BY cid LIMIT 3")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(lead, ["session_id", "band", "message_id"]);
    let insert = |band: i64| {
        c.execute(
            "INSERT INTO usage_observations(session_id, band, message_id, model, input_tokens,
                 output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, counted)
             VALUES ('s1', ?1, 'm1', 'm', 0, 0, 0, 0, 0, 0)",
            [band],
        )
    };
    assert!(insert(0).is_err(), "a repeat within band 0");
    assert_eq!(insert(1).unwrap(), 1);
}

#[test]
fn newer_file_is_refused() {
    let mut c = Connection::open_in_memory().unwrap();
    c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    let e = migrate(&mut c, Path::new("x.db")).unwrap_err();
    assert!(e.to_string().contains("newer sessionkit"), "{e}");
}

/// 0032 drops the search index of the old shape (the next search builds
/// it again: no session is listed whole) and leaves one that takes a
/// text, finds it by a term and deletes it by id alone.
#[test]
fn the_search_index_of_the_old_shape_is_dropped_in_0032() {
    let mut c = Connection::open_in_memory().unwrap();
    migrate_to(&mut c, Path::new(":memory:"), 31).unwrap();
    c.execute_batch(
        "INSERT INTO said_texts(text_id, hash, tool, text) VALUES (5, 1, NULL, 'old words');
         INSERT INTO said(session_id, record, piece, agent_id, at, role, output, text_id)
           VALUES ('s1', 'r1', 0, NULL, 1000, 'user', 0, 5);
         INSERT INTO said_sessions(session_id) VALUES ('s1');",
    )
    .unwrap();
    migrate(&mut c, Path::new(":memory:")).unwrap();
    let count = |sql: &str| -> i64 { c.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT COUNT(*) FROM said_sessions"), 0);
    assert_eq!(count("SELECT COUNT(*) FROM said"), 0);
    c.execute(
        "INSERT INTO said_fts(rowid, terms) VALUES (9, 'deploy the cafe ')",
        [],
    )
    .unwrap();
    let found = "SELECT COUNT(*) FROM said_fts WHERE said_fts MATCH '\"cafe\"'";
    assert_eq!(count(found), 1);
    c.execute("DELETE FROM said_fts WHERE rowid = 9", [])
        .unwrap();
    assert_eq!(count(found), 0);
}
