//! sessionkit's MCP server in a YAML settings file (Hermes Agent's
//! `config.yaml`: a top-level `mcp_servers:` block mapping), edited by
//! lines, as `hermes mcp add` writes it. The entry's first line carries a
//! marker comment, and so does a `mcp_servers:` line sessionkit added:
//! uninstall takes out exactly those lines, so a file nothing else changed
//! gets its bytes back. A `mcp_servers` that is not a block mapping (`{}`
//! on its line) is refused, nothing written.

use anyhow::{Result, bail};

use super::mcp::{LABEL, NAME, args};
use super::{Target, edit};
use crate::domain::harness::McpServers;

/// The comment on the lines sessionkit writes.
const MARK: &str = "# written by sessionkit hooks install";

/// The line's indentation, in spaces; `None` for a blank or comment line.
fn indent(line: &str) -> Option<usize> {
    let t = line.trim_start_matches(' ');
    (!t.is_empty() && !t.starts_with('#')).then_some(line.len() - t.len())
}

/// Where the servers' block and sessionkit's entry stand in the lines.
struct Place {
    /// The `mcp_servers:` line.
    top: Option<usize>,
    /// The first entry of the block and its indentation.
    child: Option<(usize, usize)>,
    /// sessionkit's entry, and whether it is the one sessionkit wrote.
    own: Option<(usize, bool)>,
}

/// Finds the block `head` opens; an error when it is not a block mapping.
fn locate(lines: &[String], head: &str) -> Result<Place> {
    let top = lines.iter().position(|l| l.starts_with(head));
    if let Some(i) = top {
        let rest = lines[i][head.len()..].trim();
        if !rest.is_empty() && !rest.starts_with('#') {
            bail!(
                "{} is not a block mapping ({rest}); nothing was written: add sessionkit's server under it by hand, or install without --with-mcp",
                head.trim_end_matches(':')
            );
        }
    }
    let body = top.map_or(0..0, |i| {
        let end = (i + 1..lines.len())
            .find(|&j| indent(&lines[j]) == Some(0))
            .unwrap_or(lines.len());
        i + 1..end
    });
    let child = body.clone().find_map(|j| indent(&lines[j]).map(|n| (j, n)));
    let own = body
        .into_iter()
        .find(|&j| {
            lines[j].trim_start().starts_with(&format!("{NAME}:"))
                && indent(&lines[j]) == child.map(|c| c.1)
        })
        .map(|j| (j, lines[j].contains(MARK)));
    Ok(Place { top, child, own })
}

/// An entry's lines: its first and the deeper ones after it (blank lines
/// that follow belong to what comes next).
fn span(at: usize, lines: &[String]) -> std::ops::Range<usize> {
    let n = indent(&lines[at]).unwrap_or(0);
    let mut to = at + 1;
    while to < lines.len() && indent(&lines[to]).is_none_or(|k| k > n) {
        if lines[to].trim_start().starts_with('#') {
            break;
        }
        to += 1;
    }
    while to > at + 1 && lines[to - 1].trim().is_empty() {
        to -= 1;
    }
    at..to
}

/// sessionkit's entry, `step` spaces a level, as `hermes mcp add` lays
/// one out (strings JSON-quoted: YAML's double-quoted scalars).
fn entry(t: &Target, step: usize) -> Vec<String> {
    let pad = " ".repeat(step);
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let words: Vec<String> = args(t.db.as_deref()).iter().map(|w| quote(w)).collect();
    vec![
        format!("{pad}{NAME}:  {MARK}"),
        format!("{pad}{pad}command: {}", quote(&t.program)),
        format!("{pad}{pad}args: [{}]", words.join(", ")),
    ]
}

/// `text` with sessionkit's server set (`target` asking for it) or taken
/// out (`None`); `None` when nothing changes.
pub fn text(
    text: &str,
    m: &McpServers,
    target: Option<&Target>,
    change: &mut edit::Change,
) -> Result<Option<String>> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let head = format!("{}:", m.key);
    let p = locate(&lines, &head)?;
    match (target, p.top, p.own) {
        (Some(t), _, own) if t.mcp => {
            let wanted = entry(t, p.child.map_or(2, |c| c.1).max(1));
            match (p.top, own) {
                (_, Some((_, false))) => return Ok(None),
                (_, Some((j, true))) => {
                    let at = span(j, &lines);
                    if lines[at.clone()] == wanted[..] {
                        return Ok(None);
                    }
                    lines.splice(at, wanted);
                    change.updated.push(LABEL.to_string());
                }
                (Some(i), None) => {
                    lines.splice(i + 1..i + 1, wanted);
                    change.added.push(LABEL.to_string());
                }
                (None, None) => {
                    lines.splice(
                        0..0,
                        std::iter::once(format!("{head}  {MARK}")).chain(wanted),
                    );
                    change.added.push(LABEL.to_string());
                }
            }
        }
        (None, Some(i), Some((j, true))) => {
            lines.drain(span(j, &lines));
            let empty = (i + 1..lines.len())
                .find_map(|k| indent(&lines[k]))
                .is_none_or(|n| n == 0);
            if empty && lines[i].contains(MARK) {
                lines.remove(i);
            }
            change.removed.push(LABEL.to_string());
        }
        _ => return Ok(None),
    }
    let mut out = lines.join("\n");
    if !lines.is_empty() && (text.ends_with('\n') || text.is_empty()) {
        out.push('\n');
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SERVERS: McpServers = McpServers {
        file: |home, _| home.join("config.yaml"),
        key: "mcp_servers",
        entry: |_, _| serde_json::Value::Null,
        form: crate::domain::harness::McpForm::Yaml,
    };

    fn target() -> Target {
        Target {
            program: "/bin/sessionkit".into(),
            db: Some("/d b/sk.db".into()),
            statusline: false,
            mcp: true,
        }
    }

    fn round(before: &str) -> String {
        let mut c = edit::Change::default();
        let after = text(before, &SERVERS, Some(&target()), &mut c)
            .unwrap()
            .unwrap();
        assert_eq!(c.added, [LABEL]);
        let mut c = edit::Change::default();
        assert_eq!(
            text(&after, &SERVERS, Some(&target()), &mut c).unwrap(),
            None
        );
        let mut c = edit::Change::default();
        let back = text(&after, &SERVERS, None, &mut c).unwrap().unwrap();
        assert_eq!(c.removed, [LABEL]);
        assert_eq!(back, before);
        after
    }

    #[test]
    fn a_file_without_servers_gets_the_block_on_top_and_gives_it_back() {
        let before = "# Hermes\nmodel: x\nhooks:\n  a: 1\n";
        assert_eq!(
            round(before),
            format!(
                "mcp_servers:  {MARK}\n  sessionkit:  {MARK}\n    command: \"/bin/sessionkit\"\n    args: [\"--db\", \"/d b/sk.db\", \"mcp\"]\n# Hermes\nmodel: x\nhooks:\n  a: 1\n"
            )
        );
        round("");
    }

    #[test]
    fn an_entry_goes_under_servers_of_the_users_own_in_their_indentation() {
        let before = "model: x\nmcp_servers:\n    mine:\n        command: a\n\nother: 1\n";
        let after = round(before);
        assert!(
            after.starts_with(&format!(
                "model: x\nmcp_servers:\n    sessionkit:  {MARK}\n        command: \"/bin/sessionkit\"\n"
            )),
            "{after}"
        );
        assert!(
            after.ends_with("    mine:\n        command: a\n\nother: 1\n"),
            "{after}"
        );
    }

    #[test]
    fn a_users_own_entry_stays_and_a_flow_mapping_is_refused() {
        let own = "mcp_servers:\n  sessionkit:\n    command: mine\n";
        let mut c = edit::Change::default();
        assert_eq!(text(own, &SERVERS, Some(&target()), &mut c).unwrap(), None);
        assert_eq!(text(own, &SERVERS, None, &mut c).unwrap(), None);
        let flow = "mcp_servers: {}\n";
        assert!(text(flow, &SERVERS, Some(&target()), &mut c).is_err());
    }
}
