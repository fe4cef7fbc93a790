//! A session's conversation as Markdown (`show --format markdown`): the
//! prompts and answers as paragraphs, each tool call folded to one line,
//! each subagent a section nested under the agent that spawned it; and
//! on a terminal (`show --at` with no format asked) as indented text with
//! its own line breaks. What it shows is what the search index holds:
//! redacted text.

use std::fmt::Write;

use crate::domain::clock::format_instant;
use crate::domain::text;
use crate::store::reports::{AgentRow, SessionRow};
use crate::store::said::Place;

/// A folded line is cut after this many characters.
pub const FOLD_CHARS: usize = 160;

/// What a conversation is drawn from.
pub struct Conversation<'a> {
    pub session: &'a SessionRow,
    pub agents: &'a [AgentRow],
    pub places: &'a [Place],
    /// The record `--at` named: marked with an anchor and an arrow.
    pub focus: Option<&'a str>,
}

/// Untrusted text for one line of the document: one line (see
/// `text::one_line`) with HTML's `<`, `>` and `&` as entities, so no field
/// opens a tag, ends a heading or moves a terminal's cursor.
fn md(s: &str) -> String {
    entities(&text::one_line(s))
}

fn entities(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `s` as a code span whose fence no backtick in it can close (one more
/// backtick than its longest run), controls escaped.
fn code(s: &str) -> String {
    let s = text::one_line(s);
    let (mut run, mut longest) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// One line of `text`: its lines joined by ` ⏎ `, cut at `FOLD_CHARS`.
pub fn fold(text: &str) -> String {
    let one = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ⏎ ");
    if one.chars().count() <= FOLD_CHARS {
        return one;
    }
    let cut: String = one.chars().take(FOLD_CHARS).collect();
    format!("{cut}…")
}

/// The agents in the order they are drawn (each after the agent that
/// spawned it, siblings by first activity), with their depth: the main
/// agent 0.
fn tree_order<'a>(session_id: &str, agents: &'a [AgentRow]) -> Vec<(&'a AgentRow, usize)> {
    let mut out = Vec::new();
    let is_root = |a: &AgentRow| {
        a.agent_id == session_id
            || a.parent_agent_id
                .as_deref()
                .is_none_or(|p| !agents.iter().any(|b| b.agent_id == p))
    };
    let mut roots: Vec<&AgentRow> = agents.iter().filter(|a| is_root(a)).collect();
    roots.sort_by_key(|a| {
        (
            a.agent_id != session_id,
            a.first_seen_at,
            a.agent_id.clone(),
        )
    });
    fn visit<'a>(
        a: &'a AgentRow,
        depth: usize,
        all: &'a [AgentRow],
        out: &mut Vec<(&'a AgentRow, usize)>,
    ) {
        if out.iter().any(|(b, _)| b.agent_id == a.agent_id) {
            return;
        }
        out.push((a, depth));
        let mut kids: Vec<&AgentRow> = all
            .iter()
            .filter(|b| b.parent_agent_id.as_deref() == Some(a.agent_id.as_str()))
            .collect();
        kids.sort_by_key(|b| (b.first_seen_at, b.agent_id.clone()));
        for k in kids {
            visit(k, depth + 1, all, out);
        }
    }
    for r in roots {
        visit(r, 0, agents, &mut out);
    }
    out
}

/// The conversation as Markdown.
pub fn markdown(c: &Conversation<'_>) -> String {
    let s = c.session;
    let mut out = String::new();
    let name = s.project.as_deref().unwrap_or(&s.project_slug);
    let _ = writeln!(out, "# {}: session {}\n", md(name), md(&s.session_id));
    let span = match (s.started_at, s.last_activity_at) {
        (Some(a), Some(b)) => format!("{} to {}", format_instant(a), format_instant(b)),
        _ => "no times recorded".to_string(),
    };
    let _ = writeln!(
        out,
        "{} · {} · {} agent{} · {}\n",
        md(&s.harness),
        span,
        s.agents,
        if s.agents == 1 { "" } else { "s" },
        if s.models.is_empty() {
            "no model recorded".to_string()
        } else {
            md(&s.models.join(", "))
        }
    );
    for (agent, depth) in tree_order(&s.session_id, c.agents) {
        let main = agent.agent_id == s.session_id;
        let places: Vec<&Place> = c
            .places
            .iter()
            .filter(|p| p.agent_id.as_deref().unwrap_or(&s.session_id) == agent.agent_id)
            .collect();
        if places.is_empty() && !main {
            continue;
        }
        let level = "#".repeat((2 + depth).min(6));
        if main {
            let _ = writeln!(out, "{level} Main agent\n");
        } else {
            let kind = md(agent.agent_type.as_deref().unwrap_or("subagent"));
            let about = agent
                .description
                .as_deref()
                .map(|d| format!(": {}", md(&fold(d))))
                .unwrap_or_default();
            let _ = writeln!(out, "{level} {kind}{about} ({})\n", md(&agent.agent_id));
        }
        for p in places {
            piece(
                &mut out,
                p,
                c.focus == Some(p.record.as_str()) && p.piece == 0,
            );
        }
    }
    out
}

/// The pieces for a terminal, in order: a heading line for each (who,
/// which tool, when; bold when `color`), the record `--at` named marked
/// with an arrow, then its text indented, with its own line breaks and
/// every control escaped.
pub fn terminal(c: &Conversation<'_>, color: bool) -> String {
    let mut out = String::new();
    let (bold, plain) = if color {
        ("\x1b[1m", "\x1b[0m")
    } else {
        ("", "")
    };
    for p in c.places {
        let focus = c.focus == Some(p.record.as_str()) && p.piece == 0;
        let mark = if focus { "→ " } else { "  " };
        let who = match (p.role.as_str(), p.tool.as_deref()) {
            ("tool", tool) => format!(
                "{} {}",
                text::one_line(tool.unwrap_or("tool")),
                if p.output { "output" } else { "call" }
            ),
            ("user", _) => "User".to_string(),
            _ => "Assistant".to_string(),
        };
        let at = p.at.map(format_instant).unwrap_or_default();
        let agent = p
            .agent_id
            .as_deref()
            .map(|a| format!(" · {}", text::one_line(a)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{mark}{bold}{who}{plain} · {at}{agent} · {}",
            text::one_line(&p.record)
        );
        for line in text::block(&p.text).lines() {
            let _ = writeln!(out, "    {line}");
        }
        out.push('\n');
    }
    out
}

/// One piece: a paragraph for a prompt or an answer, a folded line for a
/// tool call or output.
fn piece(out: &mut String, p: &Place, focus: bool) {
    let at = p.at.map(format_instant).unwrap_or_default();
    if focus {
        let id: String = p
            .record
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
            .collect();
        let _ = writeln!(out, "<a id=\"{id}\"></a>\n");
    }
    let mark = if focus { "→ " } else { "" };
    match (p.role.as_str(), p.tool.as_deref()) {
        ("tool", tool) => {
            let tool = tool.unwrap_or("tool");
            let what = if p.output { "output" } else { "call" };
            let _ = writeln!(
                out,
                "- {mark}{} {what}: {}\n",
                code(tool),
                md(&fold(&p.text))
            );
        }
        (role, _) => {
            let who = if role == "user" { "User" } else { "Assistant" };
            let _ = writeln!(out, "{mark}**{who}** · {at}\n");
            for line in text::block(&p.text).lines() {
                let _ = writeln!(out, "> {}", entities(line));
            }
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_to_one_line_and_cuts() {
        assert_eq!(fold("cargo test\n\n  -p api "), "cargo test ⏎ -p api");
        let long = "x".repeat(FOLD_CHARS + 5);
        assert_eq!(fold(&long).chars().count(), FOLD_CHARS + 1);
        assert!(fold(&long).ends_with('…'));
    }

    #[test]
    fn no_field_opens_a_tag_ends_a_line_or_closes_its_code_span() {
        assert_eq!(md("a\n# b <script>&"), "a # b &lt;script&gt;&amp;");
        assert_eq!(md("\x1b]52;c;eA==\x07"), "\\u{1b}]52;c;eA==\\u{7}");
        assert_eq!(code("Bash"), "`Bash`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
    }
}
