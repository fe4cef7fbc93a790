//! The report's sections about sessions, limits and memory: each
//! expensive session's agent tree as nested `<details>`, the stated limits
//! over time, the memory loop.

use std::fmt::Write;

use super::svg::{self, Series};
use super::{esc, legend, money_of, table, tokens};
use crate::domain::clock::format_instant;
use crate::output::money;
use crate::output::tree::{self, Tree};
use crate::store::overview::{Overview, SessionPart};

/// How long an agent ran, as people read it.
pub(super) fn duration(ms: i64) -> String {
    let s = ms / 1000;
    match s {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m{:02}s", s / 60, s % 60),
        s => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// One agent and what it spawned, as nested `<details>`.
fn agent(out: &mut String, t: &Tree, main_id: &str) {
    let n = &t.node;
    let name = if n.agent_id == main_id {
        "main".to_string()
    } else {
        n.agent_type.clone().unwrap_or_else(|| "subagent".into())
    };
    let ran = match (n.first_seen, n.last_seen) {
        (Some(a), Some(b)) => duration(b - a),
        _ => "-".into(),
    };
    let mut line = format!(
        "<span class=\"who\">{}</span>{} <span class=\"status st-{}\">{}</span> · {} · {} tokens · {}",
        esc(&name),
        n.description
            .as_deref()
            .map(|d| format!(" <span class=\"what\">{}</span>", esc(d)))
            .unwrap_or_default(),
        esc(&n.status),
        esc(&n.status),
        ran,
        tokens(n.totals.tokens.total() as f64),
        money_of(&n.totals),
    );
    if !t.children.is_empty() {
        let _ = write!(
            line,
            " <span class=\"subtree\">(with its {} subagent{}: {})</span>",
            t.children.len(),
            if t.children.len() == 1 { "" } else { "s" },
            money_of(&t.subtree)
        );
    }
    if t.children.is_empty() {
        let _ = write!(
            out,
            "<div class=\"agent leaf\" data-agent=\"{}\">{line}</div>",
            esc(&n.agent_id)
        );
        return;
    }
    let _ = write!(
        out,
        "<details class=\"agent\" data-agent=\"{}\"><summary>{line}</summary><div class=\"children\">",
        esc(&n.agent_id)
    );
    for c in &t.children {
        agent(out, c, main_id);
    }
    out.push_str("</div></details>");
}

pub(super) fn sessions(out: &mut String, o: &Overview) {
    out.push_str("<section id=\"sessions\"><h2>Sessions</h2>");
    if o.sessions.is_empty() {
        out.push_str("<p class=\"empty\">No sessions in this period.</p>");
    }
    if o.top_sessions.len() > o.sessions.len() {
        let _ = write!(
            out,
            "<p class=\"note\">The {} most expensive of {} sessions.</p>",
            o.sessions.len(),
            o.top_sessions.len()
        );
    }
    for s in &o.sessions {
        session(out, s);
    }
    out.push_str("</section>");
}

/// A session's heading (its title, else its project, and its id) and the
/// line under it.
fn heading(out: &mut String, s: &SessionPart) {
    let r = &s.row;
    let _ = write!(
        out,
        "<article class=\"session\" id=\"session-{0}\"><h3>{1} <small>{0}</small></h3><p class=\"meta\">{6}{2} · {3} · {4} agents · {5} in the period{7}</p>",
        esc(&r.session_id),
        esc(r
            .title
            .as_deref()
            .or(r.project.as_deref())
            .unwrap_or(&r.project_slug)),
        esc(&r.harness),
        r.started_at
            .map(format_instant)
            .unwrap_or_else(|| "-".into()),
        r.agents,
        money_of(&s.in_period),
        // Titled, the project moves from the heading to the line under it.
        match r.title {
            Some(_) => format!(
                "{} · ",
                esc(r.project.as_deref().unwrap_or(&r.project_slug))
            ),
            None => String::new(),
        },
        // The client's own figure for the whole session, marked as its.
        s.client_cost_nanousd
            .map(|n| format!(
                " · {} by {}'s own prices",
                money(crate::domain::pricing::usd(n)),
                esc(&r.harness)
            ))
            .unwrap_or_default(),
    );
}

fn session(out: &mut String, s: &SessionPart) {
    let r = &s.row;
    heading(out, s);
    let trees = tree::build(s.nodes.clone(), s.reported.clone());
    out.push_str("<div class=\"tree\">");
    for t in &trees {
        agent(out, t, &r.session_id);
    }
    out.push_str("</div>");
    if s.by_agent_type.len() > 1 {
        let rows: Vec<Vec<String>> = s
            .by_agent_type
            .iter()
            .map(|(k, t)| {
                vec![
                    esc(if k.is_empty() { "main" } else { k }),
                    tokens(t.tokens.total() as f64),
                    money_of(t),
                ]
            })
            .collect();
        out.push_str("<h4>Cost by subagent type</h4>");
        table(out, &["agent type", "tokens", "cost"], &rows);
    }
    if !s.compactions.is_empty() {
        out.push_str("<h4>Compactions</h4><ul class=\"compactions\">");
        for c in &s.compactions {
            let _ = write!(
                out,
                "<li>{} · {} · {}</li>",
                c.at.map(format_instant).unwrap_or_else(|| "-".into()),
                esc(c.trigger.as_deref().unwrap_or("-")),
                c.pre_tokens
                    .map(|n| format!("{} tokens before", tokens(n as f64)))
                    .unwrap_or_default()
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</article>");
}

pub(super) fn limits(out: &mut String, o: &Overview) {
    out.push_str("<section id=\"limits\"><h2>Usage limits</h2>");
    if o.limits.is_empty() {
        out.push_str("<p class=\"empty\">No limits recorded: <code>sessionkit statusline</code> records what Claude Code states.</p></section>");
        return;
    }
    let xs: Vec<i64> = o.limits.iter().map(|s| s.at).collect();
    let series = vec![
        (
            "five-hour".to_string(),
            o.limits
                .iter()
                .map(|s| s.snapshot.five_hour.as_ref().map(|w| w.used_pct))
                .collect(),
        ),
        (
            "weekly".to_string(),
            o.limits
                .iter()
                .map(|s| s.snapshot.seven_day.as_ref().map(|w| w.used_pct))
                .collect(),
        ),
    ];
    out.push_str(&svg::lines(
        "Used share of the limits",
        &xs,
        &|ms| format_instant(ms)[..16].replace('T', " "),
        &series,
        100.0,
        &|v| {
            if v.fract() == 0.0 {
                format!("{v:.0}%")
            } else {
                format!("{v:.1}%")
            }
        },
    ));
    legend(
        out,
        &series
            .iter()
            .map(|(n, _)| Series {
                name: n.clone(),
                values: Vec::new(),
            })
            .collect::<Vec<_>>(),
    );
    out.push_str("</section>");
}

pub(super) fn memory(out: &mut String, o: &Overview) {
    let m = &o.memory;
    out.push_str("<section id=\"memory\"><h2>Memory</h2>");
    let day = 86_400_000;
    let ages = [
        ("under a day", 0, day),
        ("1 to 7 days", day, 7 * day),
        ("7 to 30 days", 7 * day, 30 * day),
        ("over 30 days", 30 * day, i64::MAX),
    ];
    let rows: Vec<Vec<String>> = ages
        .iter()
        .map(|(label, lo, hi)| {
            let n = m
                .open_created
                .iter()
                .filter(|c| {
                    let age = o.generated_at - **c;
                    age >= *lo && age < *hi
                })
                .count();
            vec![esc(label), n.to_string()]
        })
        .collect();
    out.push_str("<h3>Open commitments by age</h3>");
    table(out, &["age", "open"], &rows);
    out.push_str("<h3>Resolves by who made them</h3>");
    let rows: Vec<Vec<String>> = m
        .resolves
        .iter()
        .map(|(who, n)| vec![esc(who), n.to_string()])
        .collect();
    if rows.is_empty() {
        out.push_str("<p class=\"empty\">No commitment resolved in this period.</p>");
    } else {
        table(out, &["by", "resolves"], &rows);
    }
    out.push_str("<h3>Briefing sizes</h3>");
    if m.briefing_sizes.is_empty() {
        out.push_str("<p class=\"empty\">No briefing delivered in this period.</p>");
    } else {
        let bins = [
            ("none", 0, 0),
            ("1-5", 1, 5),
            ("6-10", 6, 10),
            ("11-20", 11, 20),
            ("21+", 21, u64::MAX),
        ];
        let periods: Vec<String> = bins.iter().map(|(l, _, _)| (*l).to_string()).collect();
        let values: Vec<f64> = bins
            .iter()
            .map(|(_, lo, hi)| {
                m.briefing_sizes
                    .iter()
                    .filter(|n| *n >= lo && *n <= hi)
                    .count() as f64
            })
            .collect();
        out.push_str(&svg::stacked_bars(
            "Briefings by the memories they held",
            &periods,
            &[Series {
                name: "briefings".into(),
                values,
            }],
            &|v| format!("{v:.0}"),
        ));
    }
    out.push_str("</section>");
}
