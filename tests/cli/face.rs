//! What a person sees when there is nothing to show, and the commands that
//! work alone: each empty result says so on stderr with the next step,
//! prints nothing on stdout (a table) and exits 0; `schema` alone lists the
//! schemas, `config` alone the settings.

use serde_json::Value;

use crate::common::*;

#[test]
fn empty_results_say_so_on_stderr() {
    let env = Env::new();
    let cases: [(&[&str], &str); 6] = [
        (
            &["sessions"],
            "no sessions: the database holds none yet; `sessionkit ingest` reads your agents' transcripts",
        ),
        (
            &["cost"],
            "no usage: the database holds no session yet; `sessionkit ingest` reads your agents' transcripts",
        ),
        (
            &["memories"],
            "no memories yet: `sessionkit remember` stores one",
        ),
        (&["memories", "--kind", "decision"], "no memories match"),
        (
            &["status"],
            "no agent is working (`sessionkit status --all` lists the finished ones too)",
        ),
        (&["recall", "anything"], "no memories match"),
    ];
    for (args, said) in cases {
        let (code, out, err) = env.run(&[args, &["--format", "table"]].concat());
        assert_eq!((code, out.as_str()), (0, ""), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // With sessions stored, a filter that matches none says that instead.
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let (code, out, err) = env.run(&["sessions", "--project", "nope", "--format", "table"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no sessions match"), "{err}");
    let (code, out, err) = env.run(&["cost", "--since", "2030-01-01", "--format", "table"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("no messages in this period or selection"),
        "{err}"
    );
}

#[test]
fn schema_and_config_alone_list() {
    let env = Env::new();
    let (code, out, err) = env.run(&["schema"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    let names: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for c in ["sessions", "cost", "tree", "config", "sources"] {
        assert!(names.contains(&c), "{c}: {out}");
    }
    let (code, out, err) = env.run(&["config", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r["key"] == "watchdog.minutes"),
        "{out}"
    );
}

/// `--until` a date includes that day (as `--since` a date starts it):
/// the pi fixture's responses fall on 2026-12-04 and 2026-12-05.
#[test]
fn until_a_date_includes_that_day() {
    let env = Env::new();
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let days = |args: &[&str]| -> Vec<String> {
        env.cost_rows(&[&["--by", "day", "--tz", "UTC"], args].concat())
            .iter()
            .map(|r| r["day"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(days(&[]), ["2026-12-04", "2026-12-05"]);
    assert_eq!(days(&["--until", "2026-12-04"]), ["2026-12-04"]);
    assert_eq!(days(&["--since", "2026-12-05"]), ["2026-12-05"]);
    assert_eq!(
        days(&["--since", "2026-12-04", "--until", "2026-12-05"]),
        ["2026-12-04", "2026-12-05"]
    );
    let (_, out, _) = env.run(&["sessions", "--until", "2026-12-04", "--format", "json"]);
    assert_eq!(
        serde_json::from_str::<Value>(&out)
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// `sessions` shows each session's harness and status, and `--harness`
/// keeps one agent's sessions.
#[test]
fn sessions_show_harness_and_status_and_filter_by_harness() {
    let env = Env::new();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    env.ingest(&fixtures.join("pi-0.73/sessions"));
    env.ingest(&fixtures.join("qwen-0.24/projects"));
    let (code, out, err) = env.run(&["sessions", "--format", "table"]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    assert!(
        head.starts_with("SESSION") && head.contains("HARNESS") && head.contains("STATUS"),
        "{head}"
    );
    assert!(out.contains("qwen-code") && out.contains(" pi "), "{out}");
    let only = env.json(&["sessions", "--harness", "pi"]);
    let harnesses: Vec<&str> = only
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["harness"].as_str().unwrap())
        .collect();
    assert_eq!(harnesses, ["pi"]);
    let (code, _, err) = env.run(&["sessions", "--harness", "nope"]);
    assert_eq!(code, 2, "{err}");
}

/// README's quick start for the user's own data runs as written on a fresh
/// home whose agents' folders hold the fixtures: the dry run writes
/// nothing (exit 1: it has changes to show), the ingest finds the sessions
/// where README says the database is, the cost has rows.
#[test]
fn the_readme_quick_start_runs_as_written() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let block = readme
        .split("## Quick start")
        .nth(1)
        .and_then(|r| r.split("```sh\n").nth(1))
        .and_then(|r| r.split("```").next())
        .expect("the quick start's commands");
    let commands: Vec<Vec<&str>> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| l.starts_with("sessionkit "))
        .map(|l| l.split_whitespace().skip(1).collect())
        .collect();
    assert_eq!(commands.len(), 3, "{block}");
    let env = Env::new();
    let home = env.path("home");
    copy_tree(
        &repo.join("fixtures/claude/projects"),
        &home.join(".claude/projects"),
    );
    copy_tree(
        &repo.join("fixtures/pi-0.73/sessions"),
        &home.join(".pi/agent/sessions"),
    );
    let db = home.join(".local/share/sessionkit/sessionkit.db");
    for args in &commands {
        let out = env
            .std_cmd()
            .env_remove("SESSIONKIT_DB")
            .env("HOME", &home)
            .env_remove("XDG_DATA_HOME")
            .args(args)
            .output()
            .unwrap();
        let dry = args.contains(&"--dry-run");
        assert!(
            out.status.success() || (dry && out.status.code() == Some(1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if dry {
            assert!(
                !home.join(".claude/settings.json").exists(),
                "a dry run writes nothing"
            );
        }
    }
    assert!(db.exists(), "the database is where README says");
    let c = rusqlite::Connection::open(&db).unwrap();
    let sessions: i64 = c
        .query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert!(sessions >= 2, "{sessions}");
}

/// A first sweep over sessions silent for months settles them without
/// listing each as a change: history, not news (one line says how many);
/// a session silent for less than `sweep.history_hours` is still listed.
#[test]
fn a_sweep_settles_history_without_listing_it() {
    let env = Env::new();
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let sweep = |now: &str| {
        let out = env
            .cmd()
            .env("SESSIONKIT_NOW", now)
            .args(["sweep", "--dry-run", "--format", "json"])
            .output()
            .unwrap();
        let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
        let watchdog = rows
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["action"] == "watchdog")
            .count();
        (watchdog, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // The fixture's last activity is 2026-12-05T09:00:05Z.
    let (listed, err) = sweep("2027-03-01T00:00:00Z");
    assert_eq!(listed, 0, "{err}");
    assert!(err.contains("1 agent(s) silent for more than sweep.history_hours would be settled (completed where the last turn ended, else unknown) without a listing"), "{err}");
    let (listed, err) = sweep("2026-12-05T10:00:00Z");
    assert_eq!(listed, 1, "{err}");
}

/// A table that fits a width shows ids as their shortest unique prefix
/// (which `show` takes); `--wide` shows them whole; a pipe without
/// `COLUMNS` gets whole ids too.
#[test]
fn tables_shorten_ids_to_unique_prefixes() {
    let env = Env::new();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    env.ingest(&fixtures.join("pi-0.73/sessions"));
    env.ingest(&fixtures.join("qwen-0.24/projects"));
    let table = |extra: &[&str]| -> String {
        let o = env
            .cmd()
            .env("COLUMNS", "250")
            .args([&["sessions", "--format", "table"], extra].concat())
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let short = table(&[]);
    let first: Vec<&str> = short
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first.len(), 2, "{short}");
    // A prefix as it is, no ellipsis: it pastes back into `show`.
    for id in &first {
        assert_eq!(id.chars().count(), 8, "{id}");
        let show = env.json(&["show", id]);
        assert!(show["session_id"].as_str().unwrap().starts_with(id));
    }
    // An id whose first characters another session shares (in the
    // database, not among the rows shown) is shown long enough to tell
    // them apart.
    let dir = env.path("twins/-home-dev-twins");
    std::fs::create_dir_all(&dir).unwrap();
    for sid in [
        "7e110000-aaaa-4000-8000-000000000001",
        "7e110000-aaab-4000-8000-000000000002",
    ] {
        let line = serde_json::json!({"type": "user", "sessionId": sid, "uuid": format!("u-{sid}"),
            "timestamp": "2026-01-05T10:00:00.000Z", "cwd": "/home/dev/twins",
            "message": {"role": "user", "content": "hello"}});
        std::fs::write(dir.join(format!("{sid}.jsonl")), format!("{line}\n")).unwrap();
    }
    env.ingest(&env.path("twins"));
    let o = env
        .cmd()
        .env("COLUMNS", "250")
        .args([
            "sessions",
            "--format",
            "table",
            "--project",
            "twins",
            "--limit",
            "1",
        ])
        .output()
        .unwrap();
    let one = String::from_utf8(o.stdout).unwrap();
    let shown = one
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(shown.chars().count(), 13, "{one}");
    assert_eq!(
        env.json(&["show", shown])["session_id"]
            .as_str()
            .unwrap()
            .get(..13),
        Some(shown)
    );
    // A prefix pasted with an ellipsis still names its session.
    let pasted = format!("{}…", &first[0]);
    assert_eq!(env.run(&["show", &pasted, "--format", "json"]).0, 0);
    let wide = table(&["--wide"]);
    assert!(
        wide.contains("01a24232-e13b-774b-bf98-007af842d15e"),
        "{wide}"
    );
    let (_, piped, _) = env.run(&["sessions", "--format", "table"]);
    assert!(
        piped.contains("01a24232-e13b-774b-bf98-007af842d15e"),
        "{piped}"
    );
}

/// The fixture database a newcomer's home would give: sessions of six
/// agents and two memories, at a fixed clock.
fn fixture_home() -> Env {
    let env = Env::new();
    let fx = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for root in [
        "claude/projects",
        "claude-2.1.332/projects",
        "codex-0.171/sessions",
        "gemini-0.61/tmp",
        "pi-0.73/sessions",
        "qwen-0.24/projects",
        "copilot-1.0/session-state",
    ] {
        env.ingest(&fx.join(root));
    }
    // Memories with fixed ids (an export of two `remember`s), so the
    // tables' shortened ids are the same on every run.
    let memories =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/memories.jsonl");
    let (code, _, err) = env.run(&["import", memories.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    env
}

const GOLDEN_NOW: &str = "2026-12-06T12:00:00Z";

/// Golden tables at 80 and 200 columns (`tests/golden/`; rewrite them with
/// `SESSIONKIT_BLESS=1`): at 80 no line is longer than 80, and every
/// figure shown at 80 (a token containing a digit) is shown at 200 too.
#[test]
fn tables_fit_80_and_200_columns() {
    let env = fixture_home();
    let sid = "01a23d7f-1853-7c10-87f6-12c6d9670f77";
    let commands: [(&str, &[&str]); 10] = [
        ("sessions", &["sessions"]),
        ("show", &["show", sid]),
        ("tree", &["tree", "33333333-3333-4333-8333-333333333333"]),
        ("cost", &["cost"]),
        ("cost-by-model", &["cost", "--by", "model"]),
        ("config-list", &["config", "list"]),
        ("memories", &["memories"]),
        ("status-all", &["status", "--all"]),
        ("search", &["search", "spawn", "helper"]),
        (
            "show-at",
            &[
                "show",
                sid,
                "--at",
                "msg_01a23d7f-1920-7a61-b8dc-6990489364f8",
            ],
        ),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("SESSIONKIT_BLESS").is_some();
    for (name, args) in commands {
        let mut at_width = Vec::new();
        for width in [80usize, 200] {
            let out = env
                .cmd()
                .env("SESSIONKIT_NOW", GOLDEN_NOW)
                .env("COLUMNS", width.to_string())
                .args(args)
                .args(["--format", "table"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // The database's path varies from run to run.
            let text = String::from_utf8(out.stdout)
                .unwrap()
                .replace(env.db().to_str().unwrap(), "<db>");
            assert!(!text.trim().is_empty(), "{name} at {width} printed nothing");
            if width == 80 {
                for line in text.lines() {
                    assert!(
                        line.chars().count() <= 80,
                        "{name} at 80 columns: a line of {}:\n{text}",
                        line.chars().count()
                    );
                }
            }
            let path = dir.join(format!("{name}.{width}.txt"));
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &text).unwrap();
            } else {
                let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                    panic!("{}: {e} (SESSIONKIT_BLESS=1 writes it)", path.display())
                });
                assert_eq!(
                    text,
                    want,
                    "{name} at {width} columns differs from {}",
                    path.display()
                );
            }
            at_width.push(text);
        }
        let wide: std::collections::BTreeSet<&str> = at_width[1].split_whitespace().collect();
        for fact in at_width[0]
            .split_whitespace()
            .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        {
            // A wrapped cell's piece is part of one at 200.
            assert!(
                wide.contains(fact) || at_width[1].contains(fact),
                "{name}: {fact:?} is shown at 80 columns but not at 200"
            );
        }
    }
}

/// Every period and grouping gives the same sums in JSON (its `totals`),
/// JSON Lines (its rows, and the `--totals` line), CSV (its rows, and the
/// marked `--totals` row) and the table's total row.
#[test]
fn cost_formats_agree_on_every_grouping() {
    let env = fixture_home();
    let fields = [
        "messages",
        "input_tokens",
        "output_tokens",
        "cache_write_5m_tokens",
        "cache_write_1h_tokens",
        "cache_read_tokens",
        "total_tokens",
        "cost_nanousd",
    ];
    for by in [
        "day",
        "week",
        "month",
        "session",
        "project",
        "harness",
        "model",
        "agent-type",
        "agent",
        "day,model",
        "month,project",
        "week,harness,model",
    ] {
        let args = ["--by", by, "--tz", "UTC"];
        let doc = env.json(&[&["cost"][..], &args].concat());
        let totals = &doc["totals"];
        let want: Vec<i64> = fields
            .iter()
            .map(|f| totals[*f].as_i64().unwrap())
            .collect();
        // JSON: the rows (checked to sum to totals by cost_rows).
        let rows = env.cost_rows(&args);
        assert!(!rows.is_empty(), "{by}");
        // JSON Lines: the rows sum, and the --totals line is the totals.
        let (_, jl, _) =
            env.run(&[&["cost"][..], &args, &["--format", "jsonl", "--totals"]].concat());
        let lines: Vec<Value> = jl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let (last, body) = lines.split_last().unwrap();
        assert_eq!(last["total"], true);
        for (f, w) in fields.iter().zip(&want) {
            let sum: i64 = body.iter().map(|r| r[*f].as_i64().unwrap()).sum();
            assert_eq!(
                (sum, last[*f].as_i64().unwrap()),
                (*w, *w),
                "{by} jsonl {f}"
            );
        }
        // CSV: no totals row unless asked; then one, marked `total`.
        let (_, csv, _) = env.run(&[&["cost"][..], &args, &["--format", "csv"]].concat());
        let mut csv_lines = csv.lines();
        let header: Vec<&str> = csv_lines.next().unwrap().split(',').collect();
        let data: Vec<Vec<String>> = csv_lines.map(split_csv).collect();
        assert_eq!(data.len(), body.len(), "{by}: one CSV row per group");
        for (f, w) in fields.iter().zip(&want) {
            let i = header
                .iter()
                .position(|h| h == f)
                .unwrap_or_else(|| panic!("{by}: CSV lacks {f}"));
            let sum: i64 = data.iter().map(|r| r[i].parse::<i64>().unwrap_or(0)).sum();
            assert_eq!(sum, *w, "{by} csv {f}");
        }
        let (_, csv_t, _) =
            env.run(&[&["cost"][..], &args, &["--format", "csv", "--totals"]].concat());
        let total_row = split_csv(csv_t.lines().last().unwrap());
        assert_eq!(total_row[0], "total", "{by}");
        let i = header.iter().position(|h| *h == "total_tokens").unwrap();
        assert_eq!(total_row[i], want[6].to_string(), "{by}");
        // The table's total row shows the same total tokens, grouped.
        let (_, table, _) =
            env.run(&[&["cost"][..], &args, &["--format", "table", "--wide"]].concat());
        let grouped = group(want[6]);
        let last_line = table.lines().last().unwrap();
        assert!(
            last_line.starts_with("total") && last_line.contains(&grouped),
            "{by}:\n{table}"
        );
    }
}

fn split_csv(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

fn group(n: i64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The sources, README and ARCHITECTURE explain themselves: no work-item
/// numbers, no decision numbers of a document the repository does not
/// hold, no notes that belong elsewhere.
#[test]
fn the_text_names_no_work_items() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let banned =
        regex_automata::meta::Regex::new(r"(?i:issue) [0-9]|Decision [0-9]|\bstudy\b|\.\./shared")
            .unwrap();
    let mut files = vec![
        root.join("README.md"),
        root.join("ARCHITECTURE.md"),
        root.join("CONTRIBUTING.md"),
    ];
    let mut dirs = vec![root.join("src"), root.join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    let mut found = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            // A test may read the corpus beside the repository by path;
            // prose (a comment, a document) may not send the reader there.
            let prose =
                f.extension().is_some_and(|e| e == "md") || line.trim_start().starts_with("//");
            if banned.is_match(line) && (prose || !line.contains("../shared")) {
                found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A table that leaves columns out to fit says which, on stderr; `--wide`
/// at a narrow width keeps every row on one line (a pager scrolls it);
/// a bold header sits over its column as the plain one does.
#[test]
fn tables_say_what_they_hide_and_wide_never_wraps() {
    let env = fixture_home();
    let run = |args: &[&str], columns: &str| -> (String, String) {
        let (code, out, err) = env.run_with_env(
            args,
            &[("SESSIONKIT_NOW", GOLDEN_NOW), ("COLUMNS", columns)],
        );
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (narrow, err) = run(&["sessions", "--format", "table"], "80");
    let said = err
        .lines()
        .find_map(|l| l.strip_prefix("sessionkit: "))
        .and_then(|l| l.split_once(" column(s) left out to fit the width: "))
        .unwrap_or_else(|| panic!("{err}"));
    let names: Vec<&str> = said.1.split("; ").next().unwrap().split(", ").collect();
    assert_eq!(said.0.parse::<usize>().unwrap(), names.len());
    let header = narrow.lines().next().unwrap();
    for name in &names {
        assert!(!header.contains(&name.to_uppercase()), "{name} in {header}");
    }
    let (wide, err) = run(&["sessions", "--format", "table"], "300");
    assert!(!err.contains("left out"), "{err}");
    for name in &names {
        assert!(wide.contains(&name.to_uppercase()), "{name} not in {wide}");
    }
    // --wide at 80 columns: every session on one line of its own.
    let n = env.json(&["sessions"]).as_array().unwrap().len();
    let (whole, _) = run(&["sessions", "--format", "table", "--wide"], "80");
    assert_eq!(whole.lines().count(), n + 1, "{whole}");
    assert!(
        whole.contains("01a24232-e13b-774b-bf98-007af842d15e"),
        "{whole}"
    );
    // With colour, the header's words start where the plain header's do.
    let (colored, _) = run(
        &["sessions", "--format", "table", "--color", "always"],
        "200",
    );
    let plain: String = {
        let mut out = String::new();
        let mut chars = colored.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    let (bare, _) = run(&["sessions", "--format", "table"], "200");
    assert_eq!(
        plain.lines().next().unwrap().trim_end(),
        bare.lines().next().unwrap().trim_end()
    );
}

/// README's first screen (up to the reference) fits 50 lines: what it is,
/// the two commands, a quick start and a sample of the output.
#[test]
fn readme_s_first_screen_fits_fifty_lines() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let first = readme.split("\n### The agents it reads").next().unwrap();
    assert!(
        first.lines().count() <= 50,
        "{} lines",
        first.lines().count()
    );
    assert!(first.contains("sessionkit hooks install --dry-run"));
    assert!(first.contains("HARNESS      MESSAGES"), "a sample table");
}

/// README stays short and sends the reader to the pages under `docs/`;
/// every link between them lands on a file that exists, and every page is
/// linked from README.
#[test]
fn readme_s_links_land_and_every_page_is_linked() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    assert!(
        readme.split_whitespace().count() <= 1500,
        "{} words",
        readme.split_whitespace().count()
    );
    let link = regex_automata::meta::Regex::new(r"\]\(([^)#:]+)\)").unwrap();
    let mut pages = vec![(repo.to_path_buf(), readme.clone())];
    for e in std::fs::read_dir(repo.join("docs")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            readme.contains(&format!("(docs/{name})")),
            "README links no docs/{name}"
        );
        pages.push((repo.join("docs"), std::fs::read_to_string(&p).unwrap()));
    }
    for (dir, text) in &pages {
        for caps in link.captures_iter(text) {
            let target = &text[caps.get_group(1).unwrap().range()];
            assert!(
                dir.join(target).exists(),
                "a link to {target} from {}",
                dir.display()
            );
        }
    }
}

/// `SESSIONKIT_FORMAT` is the format when none is asked: a table stays a
/// table in a pipe; a bad value is refused, naming the variable.
#[test]
fn the_format_can_come_from_the_environment() {
    let env = fixture_home();
    let table = [("SESSIONKIT_FORMAT", "table")];
    let (_, out, _) = env.run_with_env(&["sessions", "--limit", "1"], &table);
    assert!(out.starts_with("SESSION"));
    let (_, out, _) = env.run_with_env(&["sessions", "--limit", "1", "--json"], &table);
    assert!(out.starts_with('['));
    let (code, _, err) = env.run_with_env(&["sessions"], &[("SESSIONKIT_FORMAT", "xml")]);
    assert_eq!(code, 2);
    assert!(err.contains("SESSIONKIT_FORMAT=\"xml\" is not a format"));
}

/// On an 80-column terminal with colour off (`NO_COLOR`, `--color never`)
/// and no `COLUMNS`, a table still fits the terminal.
#[test]
fn an_uncoloured_table_fits_the_terminal() {
    let env = fixture_home();
    let sk = assert_cmd::cargo::cargo_bin("sessionkit");
    for colour in ["NO_COLOR=1", "SESSIONKIT_UNUSED=1"] {
        let line = format!(
            "stty cols 80 rows 50; env -i HOME='{}' SESSIONKIT_DB='{}' {colour} '{}' sessions --color {}",
            env.path("home").display(),
            env.db().display(),
            sk.display(),
            if colour.starts_with("NO_COLOR") {
                "auto"
            } else {
                "never"
            }
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .output();
        let Ok(out) = out else {
            crate::support::skip("util-linux `script` is not installed: no terminal to test on");
            return;
        };
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("SESSION"), "{text}");
        // The table's lines (the note under it is stderr's, wrapped by
        // the terminal).
        for l in text.lines().filter(|l| !l.starts_with("sessionkit: ")) {
            let l = l.trim_end_matches('\r');
            assert!(
                l.chars().count() <= 80,
                "{colour}: a line of {}: {l}",
                l.chars().count()
            );
        }
        assert!(text.contains("left out to fit the width"), "{text}");
    }
}

/// Each command's help lists only the formats it prints, and a format it
/// does not print is refused before anything is read (exit 2, the formats
/// it takes named); a command whose output is not records leaves
/// `--format` out of its help.
#[test]
fn help_lists_only_the_formats_a_command_takes() {
    let env = Env::new();
    let cases: &[(&str, &[&str])] = &[
        ("cost", &["table", "json", "jsonl", "csv"]),
        ("search", &["table", "json", "jsonl", "csv"]),
        (
            "tree",
            &["table", "json", "jsonl", "text", "dot", "mermaid"],
        ),
        ("show", &["table", "json", "jsonl", "text", "markdown"]),
        ("export", &["jsonl", "otlp-json"]),
        ("sessions", &["table", "json", "jsonl", "csv", "text"]),
        ("memories", &["table", "json", "jsonl", "csv", "text"]),
    ];
    let all = [
        "table",
        "json",
        "jsonl",
        "csv",
        "text",
        "dot",
        "mermaid",
        "markdown",
        "otlp-json",
    ];
    for (command, takes) in cases {
        let (code, help, _) = env.run(&[command, "--help"]);
        assert_eq!(code, 0);
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let option = &flat[flat
            .find("--format <FORMAT>")
            .unwrap_or_else(|| panic!("{command}: {flat}"))..];
        let values = &option[option.find("[possible values: ").expect("its formats") + 18..];
        let listed: Vec<&str> = values[..values.find(']').unwrap()].split(", ").collect();
        assert_eq!(&listed, takes, "{command}");
        for f in all.iter().filter(|f| !takes.contains(f)) {
            let (code, _, err) = env.run(&[command, "--format", f]);
            assert_eq!(code, 2, "{command} --format {f}");
            assert!(err.contains(&format!("invalid value '{f}'")), "{err}");
            assert!(err.contains(&takes.join(", ")), "{err}");
        }
    }
    let (_, help, _) = env.run(&["hook", "--help"]);
    assert!(!help.contains("--format"), "{help}");
    assert!(!env.db().exists(), "nothing was read or created");
}
