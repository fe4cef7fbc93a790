//! The last things an agent said and did: the text of the assistant
//! records at the end of a transcript (Claude Code's, Codex's, pi's, Qwen
//! Code's, Copilot CLI's), and Claude Code's test runs that passed and
//! files written, for the closer's judge. Pure: bytes in (the file's
//! last part), texts out, oldest first.

use serde_json::Value;

/// The text blocks of the assistant records in `bytes` (a transcript's
/// last part: its first line may be cut and is skipped unless `whole`),
/// at most `keep`, the newest, oldest first.
pub fn assistant_tail(bytes: &[u8], whole: bool, keep: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if n == 0 && !whole {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        // Claude Code: an assistant record (Qwen Code's has `parts`);
        // Codex: a response item that is an assistant message; pi: a
        // message entry whose role is assistant; Copilot CLI: an
        // `assistant.message` event.
        let content = if v["type"] == "assistant" && v["isSidechain"] != true {
            match &v["message"]["parts"] {
                Value::Array(_) => &v["message"]["parts"],
                _ => &v["message"]["content"],
            }
        } else if v["type"] == "response_item"
            && v["payload"]["type"] == "message"
            && v["payload"]["role"] == "assistant"
        {
            &v["payload"]["content"]
        } else if v["type"] == "message" && v["message"]["role"] == "assistant" {
            &v["message"]["content"]
        } else if v["type"] == "assistant.message" {
            &v["data"]["content"]
        } else {
            continue;
        };
        let texts: Vec<&str> = match content {
            Value::String(s) => vec![s.as_str()],
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| {
                    b["type"] == "text" || b["type"] == "output_text" || b["type"].is_null()
                })
                .filter_map(|b| b["text"].as_str())
                .collect(),
            _ => Vec::new(),
        };
        out.extend(
            texts
                .into_iter()
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string),
        );
    }
    let over = out.len().saturating_sub(keep);
    out.drain(..over);
    out
}

/// Words in a command that run a test suite.
const TEST_RUNNERS: &[&str] = &[
    "test", "tests", "pytest", "jest", "vitest", "mocha", "rspec", "phpunit", "nextest", "ctest",
];

/// Words in a test run's output that say it passed, and that it did not.
const PASSED: &[&str] = &["passed", "passing", "ok", "pass", "success", "succeeded"];
const NOT_PASSED: &[&str] = &[
    "fail", "failed", "failing", "failure", "failures", "error", "errors", "panicked", "broken",
];

/// One shell command the run ran: the command, its output, and whether
/// its result was an error (a non-zero exit).
pub type ShellRun = (String, String, bool);

/// The shell commands the run's main agent ran in `bytes` (a
/// transcript's last part, its first line skipped unless `whole`) with
/// their output, oldest first.
pub fn bash_runs(bytes: &[u8], whole: bool) -> Vec<ShellRun> {
    let mut commands: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if (n == 0 && !whole) || line.is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if v["isSidechain"] == true {
            continue;
        }
        let Some(blocks) = v["message"]["content"].as_array() else {
            continue;
        };
        for b in blocks {
            match b["type"].as_str() {
                Some("tool_use") if b["name"] == "Bash" => {
                    if let (Some(id), Some(cmd)) =
                        (b["id"].as_str(), b["input"]["command"].as_str())
                    {
                        commands.push((id.to_string(), cmd.to_string()));
                    }
                }
                Some("tool_result") => {
                    let Some(id) = b["tool_use_id"].as_str() else {
                        continue;
                    };
                    let Some((_, cmd)) = commands.iter().find(|(i, _)| i == id) else {
                        continue;
                    };
                    let output = match &b["content"] {
                        Value::String(s) => s.clone(),
                        Value::Array(parts) => parts
                            .iter()
                            .filter_map(|p| p["text"].as_str())
                            .collect::<Vec<_>>()
                            .join("\n"),
                        _ => continue,
                    };
                    out.push((cmd.clone(), output, b["is_error"] == true));
                }
                _ => {}
            }
        }
    }
    out
}

/// What shell runs show of the work, for the closer's judge, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolEvidence {
    /// Test runs that passed: each shell command that runs a test suite
    /// whose output says it passed and nothing failed, as `command` and its
    /// output on the lines after.
    pub tests: Vec<String>,
    /// Test runs that failed, and were not run again to a pass: the same
    /// command's last run said something failed.
    pub failed: Vec<String>,
    /// The commits made, `<hash> <message>`.
    pub commits: Vec<String>,
}

pub fn tool_evidence(runs: &[ShellRun]) -> ToolEvidence {
    let ok = || runs.iter().filter(|r| !r.2);
    let tests = ok().filter_map(|(c, o, _)| test_run(c, o)).collect();
    let commits = ok().filter_map(|(c, o, _)| commit_of(c, o)).collect();
    let failed = runs
        .iter()
        .enumerate()
        .filter(|(i, (c, o, error))| {
            runs_tests(c)
                && (*error || failed(o))
                && !runs[i + 1..].iter().any(|(later, _, _)| later == c)
        })
        .map(|(_, (c, o, _))| format!("{c}\n{o}"))
        .collect();
    ToolEvidence {
        tests,
        failed,
        commits,
    }
}

/// The commits made in `bytes` (`tool_evidence`'s second half).
#[cfg(test)]
fn commits(bytes: &[u8], whole: bool) -> Vec<String> {
    tool_evidence(&bash_runs(bytes, whole)).commits
}

/// The test runs in `bytes` that passed (`tool_evidence`'s first half).
#[cfg(test)]
fn passing_tests(bytes: &[u8], whole: bool) -> Vec<String> {
    tool_evidence(&bash_runs(bytes, whole)).tests
}

/// The files the run's own edit tools wrote in `bytes` (Claude Code's
/// `Write`, `Edit`, `MultiEdit` and `NotebookEdit`), each once, oldest
/// first; a call the tool refused (an error result) is left out.
pub fn written_files(bytes: &[u8], whole: bool) -> Vec<String> {
    let mut calls: Vec<(String, String)> = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if (n == 0 && !whole) || line.is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if v["isSidechain"] == true {
            continue;
        }
        for b in v["message"]["content"].as_array().into_iter().flatten() {
            let edit = matches!(
                b["name"].as_str(),
                Some("Write" | "Edit" | "MultiEdit" | "NotebookEdit")
            );
            if b["type"] == "tool_use" && edit {
                let path = b["input"]["file_path"]
                    .as_str()
                    .or_else(|| b["input"]["notebook_path"].as_str());
                if let (Some(id), Some(path)) = (b["id"].as_str(), path) {
                    calls.push((id.to_string(), path.to_string()));
                }
            } else if b["type"] == "tool_result"
                && b["is_error"] == true
                && let Some(id) = b["tool_use_id"].as_str()
            {
                refused.push(id.to_string());
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (id, path) in calls {
        if !refused.contains(&id) && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

fn lower_words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// A shell command and its output as a passing test run (`command`, then
/// its output), when the command runs a test suite and the output says it
/// passed and nothing failed.
pub fn test_run(cmd: &str, output: &str) -> Option<String> {
    (runs_tests(cmd) && passed(output)).then(|| format!("{cmd}\n{output}"))
}

/// A shell command and its output as a commit the run made (`<hash>
/// <message>`), when the command commits with git and the output says
/// which commit (`[main 8c1e4b7] fix(auth): …`).
pub fn commit_of(cmd: &str, output: &str) -> Option<String> {
    if !cmd.contains("git commit") && !cmd.contains("git revert") {
        return None;
    }
    output.lines().find_map(|l| {
        let rest = l.trim().strip_prefix('[')?;
        let (head, message) = rest.split_once("] ")?;
        let hash = head.split_whitespace().last()?;
        (hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| format!("{} {}", hash.to_ascii_lowercase(), message.trim()))
    })
}

/// Shell runs written as `$ command` then its output (a case's tool
/// turns), as `bash_runs` gives a transcript's (the output says whether
/// it failed).
pub fn shell_runs(texts: &[String]) -> Vec<ShellRun> {
    texts
        .iter()
        .filter_map(|t| {
            let (cmd, output) = t.trim_start().strip_prefix("$ ")?.split_once('\n')?;
            Some((cmd.to_string(), output.to_string(), false))
        })
        .collect()
}

fn runs_tests(cmd: &str) -> bool {
    lower_words(cmd).any(|w| TEST_RUNNERS.contains(&w.as_str()))
}

/// Whether a test run's output says it passed: a pass word, and no word of
/// failure other than a count of none (`0 failed`).
fn passed(output: &str) -> bool {
    !failed(output) && lower_words(output).any(|w| PASSED.contains(&w.as_str()))
}

/// Whether a test run's output says something failed: a word of failure
/// other than a count of none (`0 failed`, `no errors`).
fn failed(output: &str) -> bool {
    let words: Vec<String> = lower_words(output).collect();
    words.iter().enumerate().any(|(i, w)| {
        NOT_PASSED.contains(&w.as_str())
            && !(i > 0 && (words[i - 1] == "0" || words[i - 1] == "no"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_assistant_texts_oldest_first() {
        let lines = [
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"cut"}]}}"#,
            r#"{"type":"user","message":{"content":"do it"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"},{"type":"text","text":"first"}]}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"text","text":"a subagent"}]}}"#,
            r#"{"type":"assistant","message":{"content":"second"}}"#,
            r#"not json"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"third"}]}}"#,
        ]
        .join("\n");
        assert_eq!(
            assistant_tail(lines.as_bytes(), false, 5),
            ["first", "second", "third"]
        );
        assert_eq!(
            assistant_tail(lines.as_bytes(), true, 2),
            ["second", "third"]
        );
    }

    /// pi's, Qwen Code's and Copilot CLI's assistant texts, each in its
    /// own shape.
    #[test]
    fn pi_qwen_and_copilot_assistant_texts_are_read_too() {
        let lines = [
            r#"{"type":"message","id":"a1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"pi: merged."}]}}"#,
            r#"{"type":"message","id":"u1","message":{"role":"user","content":[{"type":"text","text":"not me"}]}}"#,
            r#"{"uuid":"q1","type":"assistant","message":{"role":"model","parts":[{"text":"qwen: merged."},{"functionCall":{"name":"x"}}]}}"#,
            r#"{"type":"assistant.message","data":{"content":"copilot: merged.","messageId":"m1"}}"#,
            r#"{"type":"user.message","data":{"content":"not me either"}}"#,
        ]
        .join("\n");
        assert_eq!(
            assistant_tail(lines.as_bytes(), true, 5),
            ["pi: merged.", "qwen: merged.", "copilot: merged."]
        );
    }

    /// Codex's assistant messages are response items.
    #[test]
    fn codex_assistant_messages_are_read_too() {
        let lines = [
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The parser is merged."}]}}"#,
            r#"{"type":"event_msg","payload":{"type":"agent_message","message":"The parser is merged."}}"#,
        ]
        .join("\n");
        assert_eq!(
            assistant_tail(lines.as_bytes(), true, 5),
            ["The parser is merged."]
        );
    }

    #[test]
    fn files_the_edit_tools_wrote() {
        let lines = [
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e1","name":"Edit","input":{"file_path":"/w/src/config/loader.ts"}}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e2","name":"Write","input":{"file_path":"/w/README.md"}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"e2","is_error":true,"content":"denied"}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e3","name":"Read","input":{"file_path":"/w/src/main.ts"}}]}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","id":"e4","name":"Edit","input":{"file_path":"/w/src/other.ts"}}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e5","name":"MultiEdit","input":{"file_path":"/w/src/config/loader.ts"}}]}}"#,
        ]
        .join("\n");
        assert_eq!(
            written_files(lines.as_bytes(), true),
            ["/w/src/config/loader.ts"]
        );
    }

    #[test]
    fn only_test_runs_that_passed() {
        let run = |id: &str, cmd: &str| {
            format!(
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"{id}","name":"Bash","input":{{"command":"{cmd}"}}}}]}}}}"#
            )
        };
        let result = |id: &str, out: &str, error: bool| {
            format!(
                r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"{id}","is_error":{error},"content":"{out}"}}]}}}}"#
            )
        };
        let lines = [
            run("t1", "pytest tests/test_upload.py -k retry"),
            result("t1", "3 passed, 0 failed in 0.41s", false),
            run("t2", "cargo test parser"),
            result("t2", "test result: FAILED. 1 passed; 2 failed", false),
            run("t3", "ls -la"),
            result("t3", "ok", false),
            run("t4", "npm test"),
            result("t4", "Tests: 12 passed", true),
            run("t5", "go test ./..."),
            result("t5", "ok  example.com/pkg 0.2s", false),
        ]
        .join("\n");
        assert_eq!(
            passing_tests(lines.as_bytes(), true),
            [
                "pytest tests/test_upload.py -k retry\n3 passed, 0 failed in 0.41s",
                "go test ./...\nok  example.com/pkg 0.2s"
            ]
        );
    }
}

#[cfg(test)]
mod commit_tests {
    use super::*;

    /// A `git commit` the run made, by its hash and message; another
    /// command's output that looks like one, or a refused commit, is none.
    #[test]
    fn the_run_s_commits_are_read_from_its_git_commands() {
        let call = |id: &str, cmd: &str| {
            serde_json::json!({"type": "assistant", "message": {"content": [
                {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": cmd}}]}})
            .to_string()
        };
        let result = |id: &str, text: &str, error: bool| {
            serde_json::json!({"type": "user", "message": {"content": [
                {"type": "tool_result", "tool_use_id": id, "is_error": error, "content": text}]}})
            .to_string()
        };
        let lines = [
            call("t1", "git commit -am 'fix(auth): reject expired keys'"),
            result(
                "t1",
                "[main 8C1E4B7] fix(auth): reject expired keys\n 2 files changed",
                false,
            ),
            call("t2", "cat notes.txt"),
            result("t2", "[main abcdef1] not a commit of this run", false),
            call("t3", "git commit -m wip"),
            result("t3", "[main 1234567] wip", true),
        ]
        .join("\n");
        assert_eq!(
            commits(lines.as_bytes(), true),
            ["8c1e4b7 fix(auth): reject expired keys"]
        );
        assert_eq!(
            commit_of(
                "git revert --no-edit a7c90e2",
                "[main 5d1e3f8] Revert \"x\""
            ),
            Some("5d1e3f8 Revert \"x\"".into())
        );
        assert_eq!(commit_of("git commit -m x", "nothing to commit"), None);
    }

    /// A test run whose result is an error or whose output says something
    /// failed is a failure, unless the same command ran again later; an
    /// errored run is never a pass nor a commit.
    #[test]
    fn a_failing_test_run_counts_until_it_is_run_again() {
        let run = |c: &str, o: &str, e: bool| (c.to_string(), o.to_string(), e);
        let got = tool_evidence(&[
            run(
                "cargo test",
                "test result: FAILED. 3 passed; 1 failed",
                true,
            ),
            run("npm test", "Tests: 1 failed, 4 passed", false),
            run("cargo test", "test result: ok. 4 passed; 0 failed", false),
            run("pytest -q", "2 passed", true),
        ]);
        assert_eq!(
            got.failed,
            ["npm test\nTests: 1 failed, 4 passed", "pytest -q\n2 passed"]
        );
        assert_eq!(
            got.tests,
            ["cargo test\ntest result: ok. 4 passed; 0 failed"]
        );
    }
}
