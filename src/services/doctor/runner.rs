//! A scratch directory and database, and one registered command run the
//! way its client runs it (its environment, its payload, a time limit).

use super::payloads::payload;
use super::rules::accepts;
use super::{Check, Finding, finding};
use crate::domain::harness::Harness;
use crate::services::install::{Scope, plan};
use anyhow::Result;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A scratch database and project for the hook runs, seeded with one
/// memory that has angle brackets in it (the Gemini check needs text to
/// escape).
pub(super) struct Scratch {
    dir: PathBuf,
    seeded: std::cell::RefCell<Option<String>>,
}

impl Scratch {
    pub(super) fn new() -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!(
            "sessionkit-doctor-{}-{}",
            std::process::id(),
            crate::domain::clock::now()
        ));
        std::fs::create_dir_all(dir.join("project"))?;
        Ok(Scratch {
            dir,
            seeded: std::cell::RefCell::new(None),
        })
    }

    pub(super) fn db(&self) -> PathBuf {
        self.dir.join("doctor.db")
    }

    pub(super) fn project(&self) -> PathBuf {
        self.dir.join("project")
    }

    /// Seeds the scratch database with `program` once.
    pub(super) fn seed(&self, program: &str) {
        if self.seeded.borrow().as_deref() == Some(program) {
            return;
        }
        let _ = Command::new(program)
            .arg("--db")
            .arg(self.db())
            .args([
                "remember",
                "--kind",
                "decision",
                "--topic",
                "hooks doctor",
                "--content",
                "hooks doctor checks that <angle> brackets reach each client safely",
            ])
            .current_dir(self.project())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        *self.seeded.borrow_mut() = Some(program.to_string());
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs one registered command with its client's payload and judges it.
pub(super) fn run_one(
    scratch: &Scratch,
    h: Harness,
    s: Scope,
    (event, cmd, timeout_ms): (&str, &str, u64),
) -> Finding {
    let f = finding(Some(h), Some(s), Check::Output).on(event);
    let reinstall = format!(
        "sessionkit hooks install --harness {} --scope {}",
        h.as_str(),
        s.as_str()
    );
    let Some(hook) = plan::sessionkit_hook(cmd) else {
        return f.fail(format!("cannot read the command {cmd:?}"), reinstall);
    };
    let program = resolve(&hook.program);
    let Some(program) = program else {
        return f.fail(
            format!("{} is not an executable file", hook.program),
            format!("{reinstall} (registers this sessionkit)"),
        );
    };
    scratch.seed(&program);
    let timeout = Duration::from_millis(timeout_ms);
    let payload = payload(h, event, &scratch.project());
    let mut c = Command::new(&program);
    c.arg("--db")
        .arg(scratch.db())
        .args(["hook", &hook.verb])
        .args(hook.harness.iter().flat_map(|n| ["--harness", n.as_str()]))
        .current_dir(scratch.project())
        .env_remove("SESSIONKIT_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Run as the client runs it: none of what any client sets for its
    // hooks (as when doctor runs inside another client's session), then
    // this client's.
    for other in crate::domain::harness::all() {
        for (k, _) in client_env(other, Path::new("")) {
            c.env_remove(k);
        }
    }
    for (k, v) in client_env(h, &scratch.project()) {
        c.env(k, v);
    }
    let t0 = Instant::now();
    let ran = (|| -> std::io::Result<(std::process::ExitStatus, String, String)> {
        let mut child = c.spawn()?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(payload.to_string().as_bytes())?;
        let mut out = String::new();
        let mut err = String::new();
        child
            .stdout
            .take()
            .expect("piped")
            .read_to_string(&mut out)?;
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut err)?;
        Ok((child.wait()?, out, err))
    })();
    let ms = u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut f = f;
    f.ms = Some(ms);
    let (status, out, err) = match ran {
        Ok(x) => x,
        Err(e) => return f.fail(format!("could not run {program}: {e}"), reinstall),
    };
    if !status.success() {
        return f.fail(
            format!("exited with {status}: {}", err.trim()),
            "run the command by hand with this payload to see why; then report it".into(),
        );
    }
    if let Err(why) = accepts(h, event, &out, &err) {
        return f.fail(
            why,
            "update sessionkit, then run hooks install again".into(),
        );
    }
    let budget = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
    if ms * 2 > budget {
        return f.fail(
            format!("took {ms} ms of its {budget} ms timeout"),
            "check the database's disk and size (sessionkit check), or raise the timeout".into(),
        );
    }
    let said = if out.trim().is_empty() {
        "no output".to_string()
    } else {
        format!("{} bytes accepted", out.trim().len())
    };
    f.pass(format!("{said}, {ms} ms of {budget} ms"))
}

/// An absolute program path as is, else the first match on PATH.
pub(super) fn resolve(program: &str) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let exec = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return exec(Path::new(program)).then(|| program.to_string());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| exec(p))
        .map(|p| p.display().to_string())
}

/// The variables each client sets for its hooks.
pub(super) fn client_env(h: Harness, project: &Path) -> Vec<(&'static str, String)> {
    (h.settings.hook_env)(&project.display().to_string())
}
