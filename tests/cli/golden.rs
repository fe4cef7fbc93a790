//! `sessionkit check --golden DIR`: every client's golden directory under
//! `fixtures/golden/` passes; a new corpus blesses on its first run; a
//! changed token, a changed price and a changed parent each fail with the
//! diff that shows it; `--bless` then passes; the user's own database is
//! never opened.

use std::path::{Path, PathBuf};

use crate::common::*;

fn goldens() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
    v.sort();
    v
}

#[test]
fn every_client_s_golden_directory_passes() {
    let env = Env::new();
    let all = goldens();
    assert!(all.len() >= 8, "{all:?}");
    for dir in all {
        let (code, out, err) = env.run(&[
            "check",
            "--golden",
            dir.to_str().unwrap(),
            "--format",
            "table",
        ]);
        assert_eq!(code, 0, "{}: {out}{err}", dir.display());
        assert!(out.lines().all(|l| l.starts_with("pass ")), "{out}");
        assert!(out.contains("records        0 of "), "{out}");
        assert!(!err.contains("blessed"), "{err}");
    }
    assert!(!env.db().exists(), "the user's database was never created");
}

/// A golden directory of its own: a copy of the Claude Code fixture, its
/// labels beside it.
fn own(env: &Env) -> PathBuf {
    let dir = env.path("golden");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    copy_dir(
        &fixtures.join("claude/projects"),
        &dir.join("corpus/projects"),
    );
    std::fs::create_dir_all(dir.join("labels")).unwrap();
    for id in [A, B] {
        std::fs::copy(
            fixtures.join(format!("golden/claude/labels/{id}.json")),
            dir.join(format!("labels/{id}.json")),
        )
        .unwrap();
    }
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let t = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

fn check(env: &Env, dir: &Path, more: &[&str]) -> (i32, String, String) {
    env.run(
        &[
            &[
                "check",
                "--golden",
                dir.to_str().unwrap(),
                "--format",
                "table",
            ],
            more,
        ]
        .concat(),
    )
}

#[test]
fn a_new_corpus_blesses_then_passes_and_the_user_s_database_is_untouched() {
    let env = Env::new();
    env.ingest(&fixtures());
    let before = std::fs::read(env.db()).unwrap();
    let dir = own(&env);
    let (code, out, err) = check(&env, &dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("records        blessed: 5 files, 5 changed"),
        "{out}"
    );
    assert!(err.contains("blessed expected/cost.json"), "{err}");
    assert!(err.contains("pinned the prices of 4 models"), "{err}");
    assert!(dir.join("prices.json").is_file());
    let (code, out, _) = check(&env, &dir, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "pass  deterministic  two ingests, 98 rows equal\n\
         pass  recount        4 sessions read again, every token as stored\n\
         pass  records        0 of 5 files differ\n\
         pass  labels         4/4 parents as labelled\n"
    );
    assert_eq!(std::fs::read(env.db()).unwrap(), before);
}

#[test]
fn a_changed_token_fails_with_its_diff_and_bless_takes_it() {
    let env = Env::new();
    let dir = own(&env);
    assert_eq!(check(&env, &dir, &[]).0, 0);
    // Session B's main agent's message: 70 output tokens become 90.
    let path = dir.join(format!("corpus/projects/-home-dev-alpha/{B}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("\"output_tokens\":70").count(), 1);
    std::fs::write(
        &path,
        text.replace("\"output_tokens\":70", "\"output_tokens\":90"),
    )
    .unwrap();
    let (code, out, _) = check(&env, &dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL  records        2 of 5 files differ"),
        "{out}"
    );
    assert!(out.contains(&format!("--- expected/{B}.json")), "{out}");
    assert!(out.contains("--- expected/cost.json"), "{out}");
    let changed = |sign: char, n: u32| {
        out.lines().any(|l| {
            l.starts_with(sign)
                && l.trim_start_matches(sign).trim() == format!("\"output_tokens\": {n},")
        })
    };
    // The session's own 81 (70 + its subagent's 11) is 101 now.
    assert!(changed('-', 81) && changed('+', 101), "{out}");
    let (code, out, _) = env.run(&[
        "check",
        "--golden",
        dir.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 1);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[2]["diffs"].as_array().unwrap().len(), 2);
    crate::schema::holds_contract(
        &env,
        "check-golden",
        "GoldenCheckRecord",
        "sessionkit.golden-check/1",
        &rows,
    );
    let (code, _, err) = check(&env, &dir, &["--bless"]);
    assert_eq!(code, 0);
    assert!(err.contains(&format!("blessed expected/{B}.json")), "{err}");
    assert_eq!(check(&env, &dir, &[]).0, 0);
}

#[test]
fn a_changed_price_fails_unless_repriced() {
    let env = Env::new();
    let dir = own(&env);
    assert_eq!(check(&env, &dir, &[]).0, 0);
    let prices = dir.join("prices.json");
    let mut p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&prices).unwrap()).unwrap();
    let m = p
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|x| x["model"] == "claude-sonnet-4-5-20250929")
        .unwrap();
    m["base"]["output"] = serde_json::json!(30_000_000);
    std::fs::write(&prices, serde_json::to_string_pretty(&p).unwrap()).unwrap();
    let (code, out, _) = check(&env, &dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("--- expected/cost.json"), "{out}");
    assert!(out.contains("cost_usd"), "{out}");
    // Today's table is the one the records were blessed with.
    let (code, out, _) = check(&env, &dir, &["--reprice"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_changed_parent_fails_the_labels() {
    let env = Env::new();
    let dir = own(&env);
    let label = dir.join(format!("labels/{A}.json"));
    let text = std::fs::read_to_string(&label).unwrap();
    std::fs::write(
        &label,
        text.replace(
            &format!("\"side-root-1\": \"{A}\""),
            "\"side-root-1\": \"someone-else\"",
        ),
    )
    .unwrap();
    let (code, out, _) = check(&env, &dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL  labels         3/4 parents as labelled"),
        "{out}"
    );
    assert!(out.contains("someone-else"), "{out}");
}

#[test]
fn a_reordered_file_fails_with_its_diff() {
    // Tokens do not depend on the order of a file's lines, but how an
    // agent ended does (its last record says): reversed, session B's
    // subagent no longer reads as finished.
    let env = Env::new();
    let dir = own(&env);
    assert_eq!(check(&env, &dir, &[]).0, 0);
    let path = dir.join(format!("corpus/projects/-home-dev-alpha/{B}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (code, out, _) = check(&env, &dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("pass  recount"), "{out}");
    assert!(
        out.contains("FAIL  records        1 of 5 files differ"),
        "{out}"
    );
    assert!(out.contains("-        \"status\": \"completed\","), "{out}");
    assert!(out.contains("+        \"status\": \"unknown\","), "{out}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let env = Env::new();
    let (code, _, err) = env.run(&["check", "--golden", env.path("nope").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("nope does not exist"), "{err}");
    std::fs::create_dir(env.path("empty")).unwrap();
    let (code, _, err) = env.run(&["check", "--golden", env.path("empty").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("has no corpus/ folder"), "{err}");
    let dir = own(&env);
    std::fs::write(dir.join("prices.json"), "not json").unwrap();
    let (code, _, err) = check(&env, &dir, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a price list"), "{err}");
    assert!(!dir.join("expected").exists(), "nothing was blessed");
}

/// A hostile golden directory (a pull request's) never reaches outside
/// itself: a link to another file is never read into the diff nor written
/// through, an `expected/` that links elsewhere is refused before anything
/// is deleted there, a `prices.json` that is `/dev/zero`, a FIFO or huge is
/// refused at once, a linked corpus folder is not read; nothing outside
/// changes and no scratch folder stays behind.
#[test]
fn a_hostile_golden_directory_never_reaches_outside_itself() {
    let env = Env::new();
    let dir = own(&env);
    let tmp = env.path("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let tmp_s = tmp.to_str().unwrap().to_string();
    let run = |more: &[&str]| {
        env.run_with_env(
            &[&["check", "--golden", dir.to_str().unwrap()], more].concat(),
            &[("TMPDIR", &tmp_s)],
        )
    };
    let (code, _, err) = run(&[]);
    assert_eq!(code, 0, "{err}");
    let outside = env.path("outside");
    std::fs::create_dir(&outside).unwrap();
    let secret = outside.join("secret.json");
    std::fs::write(&secret, "OUTSIDE-SECRET\n").unwrap();
    std::fs::write(outside.join("unrelated.json"), "keep me\n").unwrap();
    let snapshot = |d: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot(&outside);
    let cost = dir.join("expected/cost.json");

    // A record linked to another file: neither shown nor written through.
    std::fs::remove_file(&cost).unwrap();
    std::os::unix::fs::symlink(&secret, &cost).unwrap();
    for more in [&[][..], &["--bless"][..]] {
        let (code, out, err) = run(more);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("cost.json is a symbolic link"), "{err}");
        assert!(
            !out.contains("OUTSIDE") && !err.contains("OUTSIDE"),
            "{out}{err}"
        );
    }
    std::fs::remove_file(&cost).unwrap();

    // `expected/` itself a link: refused before a file there is touched.
    let expected = dir.join("expected");
    std::fs::rename(&expected, env.path("expected-kept")).unwrap();
    std::os::unix::fs::symlink(&outside, &expected).unwrap();
    for more in [&[][..], &["--bless"][..]] {
        let (code, _, err) = run(more);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("expected is a symbolic link"), "{err}");
    }
    std::fs::remove_file(&expected).unwrap();
    std::fs::rename(env.path("expected-kept"), &expected).unwrap();

    // prices.json as /dev/zero, a FIFO, a file past the bound.
    let prices = dir.join("prices.json");
    let pinned = std::fs::read(&prices).unwrap();
    std::fs::remove_file(&prices).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &prices).unwrap();
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("prices.json is a symbolic link"), "{err}");
    std::fs::remove_file(&prices).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&prices)
            .status()
            .unwrap()
            .success()
    );
    let started = std::time::Instant::now();
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("prices.json is not a regular file"), "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "it did not wait on the FIFO"
    );
    std::fs::remove_file(&prices).unwrap();
    std::fs::File::create(&prices)
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("more than the 16777216 this file may hold"),
        "{err}"
    );
    std::fs::write(&prices, &pinned).unwrap();

    // A corpus folder that links elsewhere is not read.
    let projects = dir.join("corpus/projects");
    std::fs::rename(&projects, env.path("projects-kept")).unwrap();
    std::os::unix::fs::symlink(env.path("projects-kept"), &projects).unwrap();
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("projects is a symbolic link"), "{err}");

    assert_eq!(snapshot(&outside), before, "nothing outside changed");
    assert_eq!(
        snapshot(&tmp),
        Vec::new(),
        "no scratch folder stayed behind"
    );
}
