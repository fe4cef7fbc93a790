//! Shared by the test crates (`tests/cli`, `tests/e2e`): skipping with a
//! reason `.ci/run` counts, and finding the real harness clients.

use std::path::{Path, PathBuf};

/// Says why a test (or part of one) did not run: on stderr, and appended to
/// the file `SESSIONKIT_TEST_SKIPS` names, so `.ci/run` can count them.
pub fn skip(reason: &str) {
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("SESSIONKIT_TEST_SKIPS") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let test = std::thread::current().name().unwrap_or("?").to_string();
            let _ = f.write_all(format!("{test}: {reason}\n").as_bytes());
        }
    }
}

/// The rig folder and the clients' prefix, or why the test cannot run.
pub fn rig() -> Result<(PathBuf, PathBuf), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/harness-rig");
    if !dir.join("run.sh").exists() {
        return Err(format!("no harness rig at {}", dir.display()));
    }
    // RIG_PREFIX, else the README's example location.
    let prefix = std::env::var_os("RIG_PREFIX")
        .map(PathBuf::from)
        .or_else(|| {
            let p = PathBuf::from(std::env::var_os("HOME")?).join(".cache/harness-rig");
            p.join("bin").exists().then_some(p)
        })
        .ok_or(
            "the harness clients are not installed (run ../shared/harness-rig/install.sh PREFIX, then set RIG_PREFIX=PREFIX)",
        )?;
    for tool in ["node", "python3"] {
        let found = std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Err(format!("{tool} is not available"));
        }
    }
    Ok((dir, prefix))
}
