//! The continuity loop as the real clients run it, beyond the rig's four
//! scripted runs: a session resumed twice within seconds, two `codex exec
//! resume` runs, a client killed mid-turn, an API error per client, and
//! the nudge that `hooks install --with-nudge` turns on. Each test drives
//! the client binary itself (the same environment `run.sh` gives it)
//! against the rig's fake model server, with the hooks `sessionkit hooks
//! install` wrote into the client's home.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{rig, skip};

/// Codex switches that stop its own outbound traffic (plugin and app sync).
pub const CODEX_OFFLINE: [&str; 6] = [
    "--disable",
    "plugins",
    "--disable",
    "apps",
    "--disable",
    "remote_plugin",
];

/// One client's home with sessionkit's hooks installed, and its fake
/// model server.
pub struct Live {
    pub home: PathBuf,
    pub db: PathBuf,
    bin: PathBuf,
    kind: &'static str,
    harness: &'static str,
    port: u16,
    server: Child,
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// What each client needs: its rig binary name, sessionkit's harness name,
/// the fake server's API.
fn kind_of(client: &str) -> (&'static str, &'static str, &'static str) {
    match client {
        c if c.starts_with("claude") => ("claude", "claude-code", "anthropic"),
        "codex" => ("codex", "codex", "openai"),
        _ => ("gemini", "gemini", "gemini"),
    }
}

/// The fake server, with `patch` (Python run after the server module is
/// imported as `fake`, before it serves) when given. The caller's `Live`
/// kills and waits for it when dropped.
#[allow(clippy::zombie_processes)]
pub fn start_server(dir: &Path, api: &str, home: &Path, patch: Option<&str>) -> (Child, u16) {
    let rigd = home.join("rig");
    std::fs::create_dir_all(&rigd).unwrap();
    let port_file = rigd.join("port");
    let _ = std::fs::remove_file(&port_file);
    let servers = dir.join("servers");
    let script = rigd.join("server.py");
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.path.insert(0, {servers:?})\nimport rigserver\nimport fake_{api} as fake\n{}\nrigserver.serve(fake.H, rigserver.parse_args('fake'))\n",
            patch.unwrap_or(""),
            servers = servers.display().to_string(),
        ),
    )
    .unwrap();
    let mut server = Command::new("python3")
        .arg(&script)
        .args(["0", "--port-file"])
        .arg(&port_file)
        .args(["--max-seconds", "600", "--log"])
        .arg(rigd.join("requests.jsonl"))
        .arg("--dump-dir")
        .arg(rigd.join("bodies"))
        .arg("--parent-pid")
        .arg(std::process::id().to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(t) = std::fs::read_to_string(&port_file)
            && let Ok(p) = t.trim().parse::<u16>()
        {
            return (server, p);
        }
        if Instant::now() > deadline {
            let _ = server.kill();
            let _ = server.wait();
            panic!("the fake server reported no port");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Live {
    /// `client`'s home under `work/name`, hooks installed with `install`'s
    /// extra arguments, its server patched by `patch`. `None` (and a skip
    /// said) when the rig or the client is absent.
    pub fn new(
        work: &Path,
        name: &str,
        client: &str,
        install: &[&str],
        patch: Option<&str>,
    ) -> Option<Live> {
        let (dir, prefix) = match rig() {
            Ok(r) => r,
            Err(why) => {
                skip(&why);
                return None;
            }
        };
        let bin = prefix.join("bin").join(client);
        if !bin.exists() {
            skip(&format!(
                "{client} is not installed under {}",
                prefix.display()
            ));
            return None;
        }
        let (kind, harness, api) = kind_of(client);
        let base = work.join(name);
        let home = base.join("home");
        let db = base.join("sk.db");
        std::fs::create_dir_all(home.join("project")).unwrap();
        std::fs::create_dir_all(home.join("tmp")).unwrap();
        let (server, port) = start_server(&dir, api, &home, patch);
        let live = Live {
            home,
            db,
            bin,
            kind,
            harness,
            port,
            server,
        };
        let (code, out, err) = live.sk(
            &[&["hooks", "install", "--harness", harness], install].concat(),
            &[],
        );
        assert_eq!(code, 0, "{client} hooks install: {out}{err}");
        live.configure();
        Some(live)
    }

    /// The client's own settings around the hooks: Codex's provider (the
    /// trust tables install wrote are kept), Gemini's auth and no telemetry.
    fn configure(&self) {
        let base = format!("http://127.0.0.1:{}", self.port);
        match self.kind {
            "codex" => {
                let path = self.home.join(".codex/config.toml");
                let written = std::fs::read_to_string(&path).unwrap_or_default();
                let text = format!(
                    "model = \"gpt-fake\"\nmodel_provider = \"rigfake\"\napproval_policy = \"never\"\nsandbox_mode = \"danger-full-access\"\ncheck_for_update_on_startup = false\n\n{written}\n[model_providers.rigfake]\nname = \"rig fake\"\nbase_url = \"{base}/v1\"\nenv_key = \"RIG_FAKE_OPENAI_KEY\"\nwire_api = \"responses\"\nrequest_max_retries = 0\nstream_max_retries = 0\n"
                );
                std::fs::write(path, text).unwrap();
            }
            "gemini" => {
                let gm = self.home.join(".gemini");
                std::fs::write(gm.join("rig-system-settings.json"), "{}").unwrap();
                std::fs::write(gm.join("rig-system-defaults.json"), "{}").unwrap();
                let path = gm.join("settings.json");
                let mut v: Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                v["security"] = serde_json::json!({"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}});
                v["general"] = serde_json::json!({"enableAutoUpdate": false, "enableAutoUpdateNotification": false});
                v["privacy"] = serde_json::json!({"usageStatisticsEnabled": false});
                v["telemetry"] = serde_json::json!({"enabled": false});
                std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
            }
            _ => {}
        }
    }

    /// `sessionkit` on this home's database, with `vars`.
    pub fn sk(&self, args: &[&str], vars: &[(&str, &str)]) -> (i32, String, String) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sessionkit"));
        c.arg("--db")
            .arg(&self.db)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("CODEX_HOME", self.home.join(".codex"))
            .env("GEMINI_CLI_HOME", &self.home)
            .current_dir(&self.home);
        for (k, v) in vars {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `sessionkit ... --format json`, parsed.
    pub fn json(&self, args: &[&str], vars: &[(&str, &str)]) -> Value {
        let (code, out, err) = self.sk(&[args, &["--format", "json"]].concat(), vars);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    /// The client started with `args` (after its usual flags), as `run.sh`
    /// runs it: in the project folder, with nothing but its own variables.
    pub fn spawn(&self, args: &[&str]) -> Child {
        let mut c = self.command(true);
        c.args(args).spawn().unwrap()
    }

    /// The client's command as `run.sh` runs it, with its usual flags when
    /// `flags` (else only its environment).
    pub fn command(&self, flags: bool) -> Command {
        let base = format!("http://127.0.0.1:{}", self.port);
        let mut c = Command::new(&self.bin);
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("USER", "rig")
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .env("SHELL", "/bin/bash")
            .env("TMPDIR", self.home.join("tmp"))
            .current_dir(self.home.join("project"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match self.kind {
            "claude" => {
                c.env("CLAUDE_CONFIG_DIR", self.home.join(".claude"))
                    .env("ANTHROPIC_BASE_URL", &base)
                    .env("ANTHROPIC_API_KEY", "sk-ant-rig-fake-key")
                    .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .env("DISABLE_TELEMETRY", "1")
                    .env("DISABLE_AUTOUPDATER", "1")
                    .env("DISABLE_ERROR_REPORTING", "1");
                if flags {
                    c.args(["--output-format", "json", "--max-turns", "8"]);
                }
            }
            "codex" => {
                c.env("CODEX_HOME", self.home.join(".codex"))
                    .env("RIG_FAKE_OPENAI_KEY", "sk-rig-fake-key");
                if flags {
                    c.args([
                        "exec",
                        "--json",
                        "--skip-git-repo-check",
                        "--dangerously-bypass-hook-trust",
                        "-c",
                        "analytics.enabled=false",
                        "-c",
                        "otel.metrics_exporter=\"none\"",
                    ])
                    .args(CODEX_OFFLINE);
                }
            }
            _ => {
                let gm = self.home.join(".gemini");
                c.env("GEMINI_API_KEY", "rig-fake-key")
                    .env("GOOGLE_GEMINI_BASE_URL", &base)
                    .env("GEMINI_CLI_NO_RELAUNCH", "true")
                    .env(
                        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                        gm.join("rig-system-settings.json"),
                    )
                    .env(
                        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
                        gm.join("rig-system-defaults.json"),
                    );
                if flags {
                    c.args(["--model", "gemini-2.5-flash", "--output-format", "json"]);
                }
            }
        }
        c
    }

    /// Runs the client to its end (at most 120 s); its exit code and stdout.
    pub fn step(&self, args: &[&str]) -> (i32, String) {
        let mut child = self.spawn(args);
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{} {args:?} did not end in 120 s", self.bin.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// The model requests the fake server answered, by kind.
    pub fn requests(&self) -> Vec<String> {
        std::fs::read_to_string(self.home.join("rig/requests.jsonl"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| v["kind"].as_str().map(str::to_string))
            .filter(|k| k != "count-tokens" && k != "not-found")
            .collect()
    }

    /// One SQL answer as text rows (`|`-joined columns).
    pub fn rows(&self, sql: &str) -> Vec<String> {
        let c = rusqlite::Connection::open(&self.db).unwrap();
        let mut stmt = c.prepare(sql).unwrap();
        let n = stmt.column_count();
        stmt.query_map([], |r| {
            Ok((0..n)
                .map(|i| match r.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Null => "NULL".to_string(),
                    rusqlite::types::ValueRef::Integer(x) => x.to_string(),
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    v => format!("{v:?}"),
                })
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    pub fn harness(&self) -> &'static str {
        self.harness
    }
}

/// An RFC 3339 instant `mins` minutes from now (for the watchdog).
pub fn minutes_from_now(mins: i64) -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + mins * 60;
    let out = Command::new("date")
        .args(["-u", "-d", &format!("@{t}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A new session id.
pub fn uuid() -> String {
    let out = Command::new("python3")
        .args(["-c", "import uuid; print(uuid.uuid4())"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}
