//! The agent tree: nesting the stored agents, rolling subtree totals up, and
//! drawing it as text, JSON, Graphviz dot or Mermaid.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::sanitize;
use crate::domain::clock::format_instant;
use crate::domain::transcript::{Buckets, JoinPath};
use crate::store::reports::Totals;
use crate::store::tree::{AgentNode, Reported};

/// An agent with its children and the totals of its whole subtree.
#[derive(Debug, Clone)]
pub struct Tree {
    pub node: AgentNode,
    pub subtree: Totals,
    pub reported: Vec<Reported>,
    pub children: Vec<Tree>,
}

/// Nests a session's agents: the main agent first, then any agent whose
/// parent is unknown (orphans) as a root of its own.
pub fn build(nodes: Vec<AgentNode>, reported: Vec<Reported>) -> Vec<Tree> {
    let ids: HashSet<String> = nodes.iter().map(|n| n.agent_id.clone()).collect();
    let mut kids: BTreeMap<String, Vec<AgentNode>> = BTreeMap::new();
    let mut roots = Vec::new();
    for n in nodes {
        match n
            .parent_id
            .clone()
            .filter(|p| ids.contains(p) && *p != n.agent_id)
        {
            Some(p) => kids.entry(p).or_default().push(n),
            None => roots.push(n),
        }
    }
    roots.sort_by_key(|n| (n.layout != "main", n.first_seen, n.agent_id.clone()));
    let mut rep: BTreeMap<String, Vec<Reported>> = BTreeMap::new();
    for r in reported {
        rep.entry(r.owner.clone()).or_default().push(r);
    }
    let mut seen = HashSet::new();
    let mut trees: Vec<Tree> = roots
        .into_iter()
        .map(|n| grow(n, &mut kids, &mut rep, &mut seen))
        .collect();
    // Agents no root reaches (a cycle of parents) are drawn as roots too.
    while let Some((_, mut rest)) = kids.pop_first() {
        rest.retain(|n| !seen.contains(&n.agent_id));
        for n in rest {
            trees.push(grow(n, &mut kids, &mut rep, &mut seen));
        }
    }
    trees
}

fn grow(
    node: AgentNode,
    kids: &mut BTreeMap<String, Vec<AgentNode>>,
    rep: &mut BTreeMap<String, Vec<Reported>>,
    seen: &mut HashSet<String>,
) -> Tree {
    seen.insert(node.agent_id.clone());
    let mut children: Vec<Tree> = Vec::new();
    for c in kids.remove(&node.agent_id).unwrap_or_default() {
        // A cycle of parents cannot loop the drawing.
        if !seen.contains(&c.agent_id) {
            children.push(grow(c, kids, rep, seen));
        }
    }
    children.sort_by_key(|c| (c.node.first_seen, c.node.agent_id.clone()));
    let mut subtree = node.totals;
    for c in &children {
        subtree += &c.subtree;
    }
    Tree {
        reported: rep.remove(&node.agent_id).unwrap_or_default(),
        subtree,
        node,
        children,
    }
}

/// The name and version of `tree --json`'s contract (`sessionkit schema tree`).
pub const TREE_SCHEMA: &str = "sessionkit.tree/1";

/// `tree --json`: one document per session (`--all`: a list of them).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeDoc {
    /// The main agent first, then each agent whose parent is unknown (an orphan), each with its children.
    pub roots: Vec<TreeNode>,
    /// The contract and its version: `sessionkit.tree/1`.
    pub schema: String,
    /// The session.
    pub session_id: String,
}

/// One agent of the tree. Fields are in name order (the order `tree --json`
/// has always printed them in).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeNode {
    /// The agent's id (the main agent's is the session id).
    pub agent_id: String,
    /// The subagent type (`general-purpose`, `Explore`, ...); null for the main agent or when unknown.
    pub agent_type: Option<String>,
    pub cache_read_tokens: u64,
    pub cache_write_1h_tokens: u64,
    pub cache_write_5m_tokens: u64,
    /// The agents it spawned, in the same shape.
    pub children: Vec<TreeNode>,
    /// Its own cost in billionths of a dollar (exact); null when none of its messages is priced.
    pub cost_nanousd: Option<i64>,
    /// Its own cost in dollars, rounded to 6 decimals; null when none of its messages is priced.
    pub cost_usd: Option<f64>,
    /// The description its spawn call gave it.
    pub description: Option<String>,
    /// When it completed or failed; null while it runs.
    pub ended_at: Option<String>,
    pub input_tokens: u64,
    /// How its parent was found; null for the main agent.
    pub join_path: Option<JoinPath>,
    /// Where its records were: main, inline, flat, nested or workflow.
    pub layout: String,
    /// Messages it made (each API message counted once).
    pub messages: u64,
    pub output_tokens: u64,
    /// Its parent's agent id; null for a root.
    pub parent_id: Option<String>,
    /// Spawn calls whose child left no transcript, with what the parent was told.
    pub reported_by_parent: Vec<ReportedChild>,
    /// Its first record's time.
    pub started_at: Option<String>,
    /// working, waiting, completed, error or unknown.
    pub status: String,
    /// The totals of the agent and everything under it.
    pub subtree: SubtreeTotals,
    /// The spawn call that started it.
    pub tool_use_id: Option<String>,
    /// Tokens of its messages that have no price.
    pub unpriced_tokens: u64,
}

/// A subtree's totals.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubtreeTotals {
    pub cache_read_tokens: u64,
    pub cache_write_1h_tokens: u64,
    pub cache_write_5m_tokens: u64,
    pub cost_nanousd: Option<i64>,
    pub cost_usd: Option<f64>,
    pub input_tokens: u64,
    pub messages: u64,
    pub output_tokens: u64,
    pub unpriced_tokens: u64,
}

/// A spawn call whose child left no transcript: what the parent was told.
/// The token fields are there when the tool result gave them.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportedChild {
    pub agent_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_1h_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_5m_tokens: Option<u64>,
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    pub tool_use_id: String,
    /// The total the tool result reported.
    pub total_tokens: Option<u64>,
}

fn subtree(t: &Totals) -> SubtreeTotals {
    let b = &t.tokens;
    let (cost_nanousd, cost_usd) = super::records::cost_fields(t);
    SubtreeTotals {
        cache_read_tokens: b.cache_read,
        cache_write_1h_tokens: b.cache_write_1h,
        cache_write_5m_tokens: b.cache_write_5m,
        cost_nanousd,
        cost_usd,
        input_tokens: b.input,
        messages: t.messages,
        output_tokens: b.output,
        unpriced_tokens: t.unpriced_tokens,
    }
}

fn time(t: Option<i64>) -> Option<String> {
    t.map(format_instant)
}

/// A session's trees as `tree --json` prints them.
pub fn doc(session_id: &str, trees: &[Tree]) -> TreeDoc {
    TreeDoc {
        roots: trees.iter().map(node).collect(),
        schema: TREE_SCHEMA.to_string(),
        session_id: session_id.to_string(),
    }
}

fn node(t: &Tree) -> TreeNode {
    let n = &t.node;
    let b = &n.totals.tokens;
    let (cost_nanousd, cost_usd) = super::records::cost_fields(&n.totals);
    let ended = matches!(n.status.as_str(), "completed" | "error")
        .then_some(n.status_at)
        .flatten();
    TreeNode {
        agent_id: n.agent_id.clone(),
        agent_type: n.agent_type.clone(),
        cache_read_tokens: b.cache_read,
        cache_write_1h_tokens: b.cache_write_1h,
        cache_write_5m_tokens: b.cache_write_5m,
        children: t.children.iter().map(node).collect(),
        cost_nanousd,
        cost_usd,
        description: n.description.clone(),
        ended_at: time(ended),
        input_tokens: b.input,
        // A stored name this build does not know reads as an orphan.
        join_path: match n.join_path.as_deref() {
            Some(j) => Some(JoinPath::parse(j).unwrap_or(JoinPath::Orphan)),
            None => (n.layout != "main").then_some(JoinPath::Orphan),
        },
        layout: n.layout.clone(),
        messages: n.totals.messages,
        output_tokens: b.output,
        parent_id: n.parent_id.clone(),
        reported_by_parent: t
            .reported
            .iter()
            .map(|r| {
                let tok = |f: fn(&Buckets) -> u64| r.tokens.as_ref().map(f);
                ReportedChild {
                    agent_type: r.subagent_type.clone(),
                    cache_read_tokens: tok(|b| b.cache_read),
                    cache_write_1h_tokens: tok(|b| b.cache_write_1h),
                    cache_write_5m_tokens: tok(|b| b.cache_write_5m),
                    description: r.description.clone(),
                    input_tokens: tok(|b| b.input),
                    output_tokens: tok(|b| b.output),
                    tool_use_id: r.tool_use_id.clone(),
                    total_tokens: r.total_tokens,
                }
            })
            .collect(),
        started_at: time(n.first_seen),
        status: n.status.clone(),
        subtree: subtree(&t.subtree),
        tool_use_id: n.tool_use_id.clone(),
        unpriced_tokens: n.totals.unpriced_tokens,
    }
}

fn duration(n: &AgentNode) -> String {
    let end = if matches!(n.status.as_str(), "completed" | "error") {
        n.status_at
    } else {
        n.last_seen
    };
    let (Some(a), Some(b)) = (n.first_seen, end) else {
        return "-".into();
    };
    let s = (b - a).max(0) / 1000;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s / 60) % 60),
    }
}

/// `s` cut to `n` characters, `…` where it was cut.
pub(super) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n.saturating_sub(1)).collect::<String>() + "…"
    }
}

fn cost_text(t: &Totals) -> String {
    if t.priced_messages == 0 && t.messages > 0 {
        "cost unpriced".into()
    } else {
        super::render::money(t.cost_nanousd as f64 / 1e9)
    }
}

fn tokens_text(b: &Buckets) -> String {
    format!(
        "in {} out {} cache w {}/{} r {}",
        b.input, b.output, b.cache_write_5m, b.cache_write_1h, b.cache_read
    )
}

/// Options of the text drawing.
#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub ascii: bool,
    pub why: bool,
    /// The terminal's width (or `COLUMNS`): a line longer than it goes on
    /// under itself, at its fields' gaps. `None`: whole lines.
    pub width: Option<usize>,
    /// Characters of the main agent's id shown: the shortest prefix that
    /// names its session alone, so that it pastes back.
    pub main_chars: usize,
}

/// `text`'s fields (separated by two spaces) after `first`, as many per
/// line as fit `width`; the lines after the first begin with `cont`. A
/// field longer than a line stays whole.
fn fit(first: &str, cont: &str, text: &str, width: Option<usize>, out: &mut String) {
    let Some(width) = width else {
        let _ = writeln!(out, "{first}{text}");
        return;
    };
    let mut line = first.to_string();
    let mut used = first.chars().count();
    let mut empty = true;
    for field in text.split("  ").filter(|f| !f.is_empty()) {
        let n = field.chars().count();
        let gap = if empty { 0 } else { 2 };
        if !empty && used + gap + n > width {
            let _ = writeln!(out, "{line}");
            line = cont.to_string();
            used = cont.chars().count();
            line.push_str(field);
            used += n;
            continue;
        }
        if !empty {
            line.push_str("  ");
        }
        line.push_str(field);
        used += gap + n;
        empty = false;
    }
    let _ = writeln!(out, "{line}");
}

fn label(t: &Tree, style: TextStyle) -> String {
    let n = &t.node;
    let id = if n.layout == "main" {
        format!(
            "{} (main)",
            n.agent_id
                .chars()
                .take(style.main_chars)
                .collect::<String>()
        )
    } else {
        n.agent_id.clone()
    };
    let mut s = id;
    if let Some(ty) = &n.agent_type {
        let _ = write!(s, "  {ty}");
    }
    if let Some(d) = &n.description {
        let _ = write!(s, "  \"{}\"", clip(d, 40));
    }
    let _ = write!(
        s,
        "  {}  {}  {}  {}  {}",
        n.status,
        n.first_seen.map_or("-".into(), format_instant),
        duration(n),
        tokens_text(&n.totals.tokens),
        cost_text(&n.totals)
    );
    if !t.children.is_empty() {
        let _ = write!(
            s,
            "  (subtree {} {})",
            tokens_text(&t.subtree.tokens),
            cost_text(&t.subtree)
        );
    }
    if style.why {
        let path =
            n.join_path
                .as_deref()
                .unwrap_or(if n.layout == "main" { "root" } else { "orphan" });
        let _ = write!(
            s,
            "  [{path}{}]",
            n.tool_use_id
                .as_deref()
                .map(|u| format!(" {u}"))
                .unwrap_or_default()
        );
    }
    // Text trees are read by people: controls are escaped wherever they go.
    sanitize(&s)
}

/// The indented drawing, one line per agent.
pub fn to_text(trees: &[Tree], style: TextStyle) -> String {
    let (tee, last, bar, gap) = if style.ascii {
        ("|-- ", "`-- ", "|   ", "    ")
    } else {
        ("├── ", "└── ", "│   ", "    ")
    };
    let mut out = String::new();
    for t in trees {
        let cont = if t.children.is_empty() && t.reported.is_empty() {
            "    ".to_string()
        } else {
            format!("{}   ", bar.trim_end())
        };
        fit("", &cont, &label(t, style), style.width, &mut out);
        walk(t, "", (tee, last, bar, gap), style, &mut out);
    }
    out
}

/// The lines of `t`'s children and reported agents under `prefix`.
fn walk(
    t: &Tree,
    prefix: &str,
    glyphs: (&str, &str, &str, &str),
    style: TextStyle,
    out: &mut String,
) {
    let n = t.children.len() + t.reported.len();
    let mut i = 0;
    for c in &t.children {
        i += 1;
        let end = i == n;
        let next = format!("{prefix}{}", if end { glyphs.3 } else { glyphs.2 });
        let cont = if c.children.is_empty() && c.reported.is_empty() {
            format!("{next}    ")
        } else {
            format!("{next}{}   ", glyphs.2.trim_end())
        };
        fit(
            &format!("{prefix}{}", if end { glyphs.1 } else { glyphs.0 }),
            &cont,
            &label(c, style),
            style.width,
            out,
        );
        walk(c, &next, glyphs, style, out);
    }
    for r in &t.reported {
        i += 1;
        let end = i == n;
        let tokens = r
            .tokens
            .as_ref()
            .map(tokens_text)
            .or(r.total_tokens.map(|t| format!("{t} tokens")))
            .unwrap_or_default();
        let line = format!(
            "(no transcript) {}  \"{}\"  reported by parent: {tokens}  [{}]",
            r.subagent_type.as_deref().unwrap_or("-"),
            clip(r.description.as_deref().unwrap_or(""), 40),
            r.tool_use_id
        );
        let line = sanitize(&line);
        let next = format!("{prefix}{}    ", if end { glyphs.3 } else { glyphs.2 });
        fit(
            &format!("{prefix}{}", if end { glyphs.1 } else { glyphs.0 }),
            &next,
            &line,
            style.width,
            out,
        );
    }
}

fn all<'t>(t: &'t Tree, out: &mut Vec<&'t Tree>) {
    out.push(t);
    for c in &t.children {
        all(c, out);
    }
}

fn short_label(n: &AgentNode) -> String {
    let id = if n.layout == "main" {
        "main".to_string()
    } else {
        clip(&n.agent_id, 12)
    };
    let ty = n.agent_type.as_deref().unwrap_or("");
    // Transcript text: no control character, quote or backslash reaches
    // the drawing's syntax.
    sanitize(&format!("{id} {ty} ({})", n.status))
        .replace('\\', "/")
        .replace('"', "'")
}

/// An id as a quoted dot id: controls escaped, quotes and backslashes
/// escaped (an inline agent's id is a transcript's `uuid` field).
fn dot_id(s: &str) -> String {
    sanitize(s).replace('\\', "\\\\").replace('"', "\\\"")
}

/// Graphviz dot: one node per agent, edges labelled with their join path.
pub fn to_dot(session: &str, trees: &[Tree]) -> String {
    let mut out = format!(
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box];\n",
        dot_id(session)
    );
    let mut nodes = Vec::new();
    for t in trees {
        all(t, &mut nodes);
    }
    for t in &nodes {
        let _ = writeln!(
            out,
            "  \"{}\" [label=\"{}\"];",
            dot_id(&t.node.agent_id),
            short_label(&t.node)
        );
    }
    for t in &nodes {
        for c in &t.children {
            let _ = writeln!(
                out,
                "  \"{}\" -> \"{}\" [label=\"{}\"];",
                dot_id(&t.node.agent_id),
                dot_id(&c.node.agent_id),
                c.node.join_path.as_deref().unwrap_or("")
            );
        }
    }
    out.push_str("}\n");
    out
}

/// Mermaid flowchart of the same tree.
pub fn to_mermaid(trees: &[Tree]) -> String {
    let mut out = String::from("graph TD\n");
    let mut nodes = Vec::new();
    for t in trees {
        all(t, &mut nodes);
    }
    let index: BTreeMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, t)| (t.node.agent_id.as_str(), i))
        .collect();
    for (i, t) in nodes.iter().enumerate() {
        let _ = writeln!(out, "  n{i}[\"{}\"]", short_label(&t.node));
    }
    for t in &nodes {
        for c in &t.children {
            let _ = writeln!(
                out,
                "  n{} -->|{}| n{}",
                index[t.node.agent_id.as_str()],
                c.node.join_path.as_deref().unwrap_or(""),
                index[c.node.agent_id.as_str()]
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// an id from a transcript (an inline agent's `uuid`) cannot
    /// end a dot string or move a terminal's cursor.
    #[test]
    fn dot_ids_are_escaped() {
        assert_eq!(dot_id("abc-123"), "abc-123");
        assert_eq!(
            dot_id("x\"];evil[\\\x1b[2J"),
            "x\\\"];evil[\\\\\\\\u{1b}[2J"
        );
    }
}
