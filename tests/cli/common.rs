//! Shared helpers: a sandboxed environment and an independent token reader.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

pub const NOW: &str = "2026-02-01T00:00:00Z";

/// The fixture corpus with every layout (fixtures/claude/projects).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude/projects")
}

pub const A: &str = "11111111-1111-4111-8111-111111111111";
pub const B: &str = "22222222-2222-4222-8222-222222222222";
pub const C: &str = "33333333-3333-4333-8333-333333333333";
pub const D: &str = "44444444-4444-4444-8444-444444444444";

/// A temp dir holding the database and HOME.
pub struct Env {
    pub dir: tempfile::TempDir,
}

impl Env {
    pub fn new() -> Env {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("sk.db")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `sessionkit` with a clean, fixed environment.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// The same, as a `std::process::Command` (for spawning).
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionkit"));
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.path("home"))
            .env("SESSIONKIT_DB", self.db())
            .env("SESSIONKIT_NOW", NOW)
            .current_dir(self.dir.path());
        c
    }

    /// Runs and returns (exit code, stdout, stderr).
    pub fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// `run` with more environment variables.
    pub fn run_with_env(&self, args: &[&str], vars: &[(&str, &str)]) -> (i32, String, String) {
        let mut c = self.cmd();
        for (k, v) in vars {
            c.env(k, v);
        }
        let out = c.args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `run` with the clock at `now`.
    pub fn run_at(&self, now: &str, args: &[&str]) -> (i32, String, String) {
        let out = self
            .cmd()
            .env("SESSIONKIT_NOW", now)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// Runs expecting exit 0 and returns stdout parsed as one JSON document.
    pub fn json(&self, args: &[&str]) -> Value {
        let (code, out, err) = self.run(&[args, &["--format", "json"]].concat());
        assert_eq!(code, 0, "{args:?} failed: {err}");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    /// `cost` as JSON: its rows, checked to sum to its `totals`.
    pub fn cost_rows(&self, args: &[&str]) -> Vec<Value> {
        let doc = self.json(&[&["cost"], args].concat());
        let rows = doc["rows"].as_array().expect("cost JSON has rows").clone();
        let totals = &doc["totals"];
        for f in [
            "messages",
            "input_tokens",
            "output_tokens",
            "cache_write_5m_tokens",
            "cache_write_1h_tokens",
            "cache_read_tokens",
            "total_tokens",
            "unpriced_tokens",
        ] {
            let sum: u64 = rows.iter().map(|r| r[f].as_u64().unwrap()).sum();
            assert_eq!(Some(sum), totals[f].as_u64(), "{f} of {args:?}");
        }
        rows
    }

    pub fn ingest(&self, root: &Path) -> Value {
        self.json(&["ingest", "--root", root.to_str().unwrap()])
    }

    /// Ingests `root`, which holds one session, `sid`: new and whole (no
    /// degraded line); returns what `show` says of it.
    pub fn ingest_one(&self, root: &Path, sid: &str) -> Value {
        let s = self.ingest(root);
        assert_eq!(
            (s["sessions_new"].as_u64(), s["sessions_degraded"].as_u64()),
            (Some(1), Some(0)),
            "{s}"
        );
        self.json(&["show", sid])
    }

    /// `ingest` with no `--root` (the default roots), with `vars` set:
    /// its summary.
    pub fn ingest_defaults(&self, vars: &[(&str, PathBuf)]) -> Value {
        let out = self
            .cmd()
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .args(["ingest", "--format", "json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// A harness's transcripts in `home/<at_home>` are a default root:
    /// `ingest` with no `--root` finds its one session there.
    pub fn assert_home_root(fixture: &Path, at_home: &str) {
        let env = Env::new();
        copy_tree(fixture, &env.path(&format!("home/{at_home}")));
        let s = env.ingest_defaults(&[]);
        assert_eq!(
            (s["roots"].as_u64(), s["sessions_new"].as_u64()),
            (Some(1), Some(1)),
            "{s}"
        );
    }

    /// A harness's transcripts are a default root: `fixture` copied to
    /// `home/<at_home>` is found by `ingest` with no `--root`, and so is
    /// a copy under `<dir>/<below>` once `var` names `<dir>`; each run
    /// reads one root and finds one session.
    pub fn assert_default_root(
        fixture: &Path,
        at_home: &str,
        (var, dir, below): (&str, &str, &str),
    ) {
        let env = Env::new();
        copy_tree(fixture, &env.path(&format!("home/{at_home}")));
        let other = Env::new();
        copy_tree(fixture, &other.path(&format!("{dir}/{below}")));
        for s in [
            env.ingest_defaults(&[]),
            other.ingest_defaults(&[(var, other.path(dir))]),
        ] {
            assert_eq!(
                (s["roots"].as_u64(), s["sessions_new"].as_u64()),
                (Some(1), Some(1)),
                "{s}"
            );
        }
    }

    /// The numbers `show` gives for session `sid` under `keys`.
    pub fn show_counts<const N: usize>(&self, sid: &str, keys: [&str; N]) -> [u64; N] {
        let s = self.json(&["show", sid]);
        keys.map(|k| s[k].as_u64().unwrap_or_else(|| panic!("{k}: {s}")))
    }

    /// Every place the search index holds, in order, each as
    /// `session|record|piece|agent|at|role|tool|text` (texts read out of
    /// their compressed blocks).
    pub fn said_rows(&self) -> Vec<String> {
        let texts = self.said_texts();
        let c = rusqlite::Connection::open(self.db()).unwrap();
        let mut stmt = c
            .prepare(
                "SELECT sn.name, s.record, s.piece, an.name, s.at, s.role, s.text_id
                 FROM said s JOIN said_names sn ON sn.n = s.session
                 LEFT JOIN said_names an ON an.n = s.agent ORDER BY 1, 2, 3",
            )
            .unwrap();
        stmt.query_map([], |r| {
            let v: Vec<String> = (0..6)
                .map(|i| {
                    r.get::<_, rusqlite::types::Value>(i)
                        .map(|v| format!("{v:?}"))
                })
                .collect::<Result<_, _>>()?;
            let (tool, text) = &texts[&r.get::<_, i64>(6)?];
            Ok(format!("{}|{tool:?}|{text:?}", v.join("|")))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// The search index's texts by id: each one's tool and text, read out
    /// of the LZ4 blocks that hold them.
    pub fn said_texts(&self) -> std::collections::BTreeMap<i64, (Option<String>, String)> {
        let c = rusqlite::Connection::open(self.db()).unwrap();
        let mut blocks = std::collections::HashMap::new();
        let mut stmt = c.prepare("SELECT block_id, data FROM said_blocks").unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))
            .unwrap();
        for row in rows {
            let (id, data) = row.unwrap();
            blocks.insert(
                id,
                lz4_flex::block::decompress_size_prepended(&data).unwrap(),
            );
        }
        let mut stmt = c
            .prepare("SELECT text_id, tool, block, start, len FROM said_texts")
            .unwrap();
        stmt.query_map([], |r| {
            let (block, start, len): (i64, i64, i64) = (r.get(2)?, r.get(3)?, r.get(4)?);
            let (start, end) = (start as usize, (start + len) as usize);
            let text = String::from_utf8(blocks[&block][start..end].to_vec()).unwrap();
            Ok((r.get(0)?, (r.get(1)?, text)))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// The one integer `sql` selects from the database.
    pub fn scalar(&self, sql: &str) -> i64 {
        rusqlite::Connection::open(self.db())
            .unwrap()
            .query_row(sql, [], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// The one text `sql` selects, with `param` as `?1`.
    pub fn text(&self, sql: &str, param: &str) -> String {
        rusqlite::Connection::open(self.db())
            .unwrap()
            .query_row(sql, [param], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// Runs with stdout already closed by its reader; returns (exit code,
    /// stderr).
    pub fn run_into_closed_pipe(&self, args: &[&str]) -> (Option<i32>, String) {
        let mut child = self
            .std_cmd()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// The rows `sql` selects, each as its values' debug forms joined by `|`.
    pub fn rows(&self, sql: &str) -> Vec<String> {
        let c = rusqlite::Connection::open(self.db()).unwrap();
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
    }

    /// Every table's rows, through the library's own ordered dump.
    /// Every table's rows in the order SQLite stores them (what `sqlite3
    /// .dump` prints): rowid order, or key order for a WITHOUT ROWID table.
    pub fn storage_dump(&self) -> String {
        let c = rusqlite::Connection::open(self.db()).unwrap();
        let tables: Vec<String> = c
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut out = String::new();
        for t in tables {
            out.push_str(&format!("## {t}\n"));
            let mut stmt = c.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
            let n = stmt.column_count();
            let mut rows = stmt.query([]).unwrap();
            while let Some(r) = rows.next().unwrap() {
                let cells: Vec<String> = (0..n)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect();
                out.push_str(&cells.join("|"));
                out.push('\n');
            }
        }
        out
    }

    /// A fresh environment with each of `dirs` (under `fixtures/`) ingested.
    pub fn with_fixtures(dirs: &[&str]) -> Env {
        let env = Env::new();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        for dir in dirs {
            env.ingest(&root.join(dir));
        }
        env
    }

    pub fn dump(&self) -> String {
        sessionkit::dump_database(&self.db()).unwrap()
    }
}

/// Token buckets in the order input, output, cache write 5m, cache write 1h, cache read.
pub type Tok = [u64; 5];

/// Adds `t` into `acc`, bucket by bucket.
pub fn add(acc: &mut Tok, t: &Tok) {
    for (a, x) in acc.iter_mut().zip(t) {
        *a += x;
    }
}

pub fn tok(v: &Value) -> Tok {
    let g = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("no {k} in {v}"));
    [
        g("input_tokens"),
        g("output_tokens"),
        g("cache_write_5m_tokens"),
        g("cache_write_1h_tokens"),
        g("cache_read_tokens"),
    ]
}

/// An independent minimal reader: every `.jsonl` line under `root` with a
/// `message.id` and `message.usage`, merged per id by per-bucket maximum; the
/// model of the largest output (ties to the smallest name); each message
/// counted for the session its own `sessionId` names. Written against
/// serde_json::Value, sharing no code with the crate.
pub struct Reader {
    /// message id → (session, model, output-of-model, buckets)
    pub messages: BTreeMap<String, (String, String, u64, Tok)>,
}

impl Reader {
    pub fn read(root: &Path) -> Reader {
        let mut r = Reader {
            messages: BTreeMap::new(),
        };
        r.walk(root);
        r
    }

    fn walk(&mut self, dir: &Path) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                self.walk(&p);
            } else if p.extension().is_some_and(|e| e == "jsonl") && !p.ends_with("journal.jsonl") {
                let text = std::fs::read_to_string(&p).unwrap();
                for line in text.lines() {
                    let Ok(v) = serde_json::from_str::<Value>(line) else {
                        continue;
                    };
                    self.line(&v);
                }
            }
        }
    }

    fn line(&mut self, v: &Value) {
        let m = &v["message"];
        let (Some(id), Some(u)) = (m["id"].as_str(), m.get("usage")) else {
            return;
        };
        if !u.is_object() {
            return;
        }
        let n = |x: &Value| x.as_u64().unwrap_or(0);
        let (c5, c1) = match u.get("cache_creation") {
            Some(cc) if cc.is_object() => (
                n(&cc["ephemeral_5m_input_tokens"]),
                n(&cc["ephemeral_1h_input_tokens"]),
            ),
            _ => (n(&u["cache_creation_input_tokens"]), 0),
        };
        let t = [
            n(&u["input_tokens"]),
            n(&u["output_tokens"]),
            c5,
            c1,
            n(&u["cache_read_input_tokens"]),
        ];
        let model = m["model"].as_str().unwrap_or("").to_string();
        let session = v["sessionId"].as_str().unwrap_or("").to_string();
        let e = self
            .messages
            .entry(id.to_string())
            .or_insert_with(|| (session.clone(), model.clone(), t[1], t));
        if t[1] > e.2 || (t[1] == e.2 && model < e.1) {
            e.1 = model;
            e.2 = t[1];
        }
        for (a, x) in e.3.iter_mut().zip(t) {
            *a = (*a).max(x);
        }
    }

    pub fn by_session(&self) -> BTreeMap<String, Tok> {
        let mut out: BTreeMap<String, Tok> = BTreeMap::new();
        for (s, _, _, t) in self.messages.values() {
            add(out.entry(s.clone()).or_default(), t);
        }
        out
    }

    pub fn by_model(&self) -> BTreeMap<String, Tok> {
        let mut out: BTreeMap<String, Tok> = BTreeMap::new();
        for (_, m, _, t) in self.messages.values() {
            add(out.entry(m.clone()).or_default(), t);
        }
        out
    }
}

/// Session totals as the database reports them (`sessions --format json`).
pub fn db_by_session(env: &Env) -> BTreeMap<String, Tok> {
    env.json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["session_id"].as_str().unwrap().to_string(), tok(s)))
        .collect()
}

/// Model totals over every session (`show` per session, summed).
pub fn db_by_model(env: &Env) -> BTreeMap<String, Tok> {
    let mut out: BTreeMap<String, Tok> = BTreeMap::new();
    for sid in db_by_session(env).keys() {
        for m in env.json(&["show", sid])["by_model"].as_array().unwrap() {
            let e = out
                .entry(m["model"].as_str().unwrap().to_string())
                .or_default();
            let t = tok(m);
            for i in 0..5 {
                e[i] += t[i];
            }
        }
    }
    out
}

/// Copies a directory tree (fixtures into a scratch corpus).
/// Input, cache reads, output and reasoning, as `show` names them.
pub const TOKENS: [&str; 4] = [
    "input_tokens",
    "cache_read_tokens",
    "output_tokens",
    "reasoning_tokens",
];

/// `TOKENS` and the count of messages.
pub const TOKENS_AND_MESSAGES: [&str; 5] = [
    "input_tokens",
    "cache_read_tokens",
    "output_tokens",
    "reasoning_tokens",
    "messages",
];

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        // A fixture folder may link into its golden directory: followed.
        if e.path().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

pub use crate::support::skip;

/// Bytes waiting in the hook spool beside the environment's database.
pub fn spool_waiting(env: &Env) -> u64 {
    let mut p = env.db().into_os_string();
    p.push(".spool");
    std::fs::metadata(p).map_or(0, |m| m.len())
}

/// A client's real run from the captured corpus beside the repository, at
/// `<rel>` in it (skipped with a reason when absent), ingested: one session, its tokens exactly the
/// usage the rig's fake server served (prompt 3,014 with 300 cached,
/// completion 36: input 2,714, output 36, cache read 300).
pub fn assert_captured_run_equals_served(rel: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured")
        .join(rel);
    if !root.is_dir() {
        crate::support::skip(&format!("the captured corpus {rel} is absent"));
        return;
    }
    let env = Env::new();
    env.ingest(&root);
    let all = db_by_session(&env);
    assert_eq!(all.len(), 1);
    assert_eq!(all.values().next().unwrap(), &[2714, 36, 0, 0, 300]);
}
