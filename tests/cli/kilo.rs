//! Kilo, an OpenCode fork: its `kilo.db` is read as OpenCode's database,
//! its sessions stored as Kilo's; a real run (the captured corpus beside
//! the repository, when there) exactly as served; `--harness` tells the
//! two apart.

use std::path::Path;

use crate::common::*;

fn check(env: &Env) {
    let s = &env.json(&["sessions", "--harness", "kilo"])[0];
    // Served: prompt 3,014 with 300 cached, completion 36 with 3 reasoning.
    assert_eq!(
        (
            s["input_tokens"].as_u64(),
            s["cache_read_tokens"].as_u64(),
            s["output_tokens"].as_u64(),
            s["reasoning_tokens"].as_u64(),
            s["messages"].as_u64()
        ),
        (Some(2714), Some(300), Some(36), Some(3), Some(2))
    );
    assert_eq!(s["harness"], "kilo");
    assert_eq!(s["cwd"], "/home/dev/work/proj");
}

#[test]
fn kilo_s_database_is_read_as_opencode_s_under_its_own_name() {
    let env = Env::new();
    env.ingest(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/kilo/corpus/kilo"));
    env.ingest(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/opencode/corpus/opencode"),
    );
    check(&env);
    let opencode = env.json(&["sessions", "--harness", "opencode"]);
    assert_eq!(opencode.as_array().unwrap().len(), 1);
    assert_eq!(opencode[0]["harness"], "opencode");
    let (code, out, _) = env.run(&[
        "sources",
        "--root",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/golden/kilo/corpus/kilo")
            .to_str()
            .unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\"harness\": \"kilo\""), "{out}");
}

#[test]
fn a_real_kilo_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/kilo-7.7.9/home/.local/share/kilo");
    if !root.is_dir() {
        return skip("the captured Kilo run beside the repository is absent");
    }
    let env = Env::new();
    env.ingest(&root);
    check(&env);
}
