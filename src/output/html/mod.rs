//! `report`'s one self-contained HTML file: inline CSS (light and dark by
//! `prefers-color-scheme`), hand-written SVG charts (`svg`), agent trees
//! as `<details>` (no script), and the figures it draws as a JSON block
//! (`<script type="application/json">`, never run) for tools and tests.

mod page;
mod parts;
mod svg;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde_json::json;

use crate::domain::clock::format_instant;
use crate::domain::pricing::usd;

use crate::store::overview::{Bucket, Overview};
use crate::store::reports::Totals;
use svg::Series;

/// Series a chart keeps by name; the rest are summed as "other".
pub const MAX_SERIES: usize = 8;

/// Text made safe for HTML (element content and quoted attributes):
/// markup as entities, and control, C1 and bidi characters escaped as the
/// tables escape them (a name cannot reorder what is drawn around it).
pub fn esc(s: &str) -> String {
    let s = crate::domain::text::block(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Dollars as every table prints them (`render::money`).
pub fn dollars(v: f64) -> String {
    super::render::money(v)
}

/// What a row cost, in dollars; `-` when none of its messages has a price
/// (as the tables print an unpriced cost).
pub fn money_of(t: &Totals) -> String {
    if t.priced_messages == 0 && t.messages > 0 {
        "-".to_string()
    } else {
        dollars(cost(t))
    }
}

/// A token count as people read it: `987`, `12.3k`, `4.56M`, `1.2B`.
pub fn tokens(n: f64) -> String {
    let a = n.abs();
    if a >= 1e9 {
        format!("{:.2}B", n / 1e9)
    } else if a >= 1e6 {
        format!("{:.2}M", n / 1e6)
    } else if a >= 1e3 {
        format!("{:.1}k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

pub(super) fn cost(t: &Totals) -> f64 {
    usd(t.cost_nanousd)
}

/// A chart's series from (period, name) sums: the `MAX_SERIES` names that
/// cost most by name, the rest as "other"; periods in order.
fn series_of(
    periods: &[String],
    groups: &BTreeMap<(String, String), Totals>,
    value: &dyn Fn(&Totals) -> f64,
) -> Vec<Series> {
    let mut by_name: BTreeMap<&str, f64> = BTreeMap::new();
    for ((_, name), t) in groups {
        *by_name.entry(name).or_default() += value(t);
    }
    let mut names: Vec<(&str, f64)> = by_name.into_iter().collect();
    names.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let kept: Vec<&str> = names.iter().take(MAX_SERIES).map(|(n, _)| *n).collect();
    let mut series: Vec<Series> = kept
        .iter()
        .map(|n| Series {
            name: (*n).to_string(),
            values: vec![0.0; periods.len()],
        })
        .collect();
    let other = names.len() > MAX_SERIES;
    if other {
        series.push(Series {
            name: "other".into(),
            values: vec![0.0; periods.len()],
        });
    }
    for ((p, name), t) in groups {
        let Some(i) = periods.iter().position(|x| x == p) else {
            continue;
        };
        let s = kept.iter().position(|k| k == name).unwrap_or(MAX_SERIES);
        series[s].values[i] += value(t);
    }
    series
}

/// An axis's dollars: to the tenth of a cent where its steps are that fine.
fn axis_dollars(v: f64) -> String {
    if ((v * 100.0).round() - v * 100.0).abs() > 1e-9 {
        format!("${v:.3}")
    } else {
        dollars(v)
    }
}

/// A legend for `series`, in their colours.
pub(super) fn legend(out: &mut String, series: &[Series]) {
    out.push_str("<ul class=\"legend\">");
    for (i, s) in series.iter().enumerate() {
        let _ = write!(
            out,
            "<li><span class=\"swatch s{}\"></span>{}</li>",
            i % 10,
            esc(&s.name)
        );
    }
    out.push_str("</ul>");
}

/// The whole document.
pub fn render(o: &Overview) -> String {
    let mut body = String::new();
    summary(&mut body, o);
    charts(&mut body, o);
    top(&mut body, o);
    parts::sessions(&mut body, o);
    parts::limits(&mut body, o);
    parts::memory(&mut body, o);
    page::document(o, &body, &data(o))
}

/// The figures drawn, as JSON.
fn data(o: &Overview) -> String {
    let totals = |t: &Totals| {
        json!({
            "messages": t.messages,
            "input_tokens": t.tokens.input,
            "output_tokens": t.tokens.output,
            "cache_write_5m_tokens": t.tokens.cache_write_5m,
            "cache_write_1h_tokens": t.tokens.cache_write_1h,
            "cache_read_tokens": t.tokens.cache_read,
            "total_tokens": t.tokens.total(),
            "cost_nanousd": t.cost_nanousd,
            "cost_usd": cost(t),
        })
    };
    let by = |g: &BTreeMap<(String, String), Totals>| {
        let mut m: BTreeMap<&str, Totals> = BTreeMap::new();
        for ((_, k), t) in g {
            *m.entry(k).or_default() += t;
        }
        m.into_iter()
            .map(|(k, t)| (k.to_string(), totals(&t)))
            .collect::<serde_json::Map<_, _>>()
    };
    let doc = json!({
        "schema": "sessionkit.report/1",
        "generated_at": format_instant(o.generated_at),
        "since": o.since.map(format_instant),
        "until": o.until.map(format_instant),
        "project": o.project,
        "harness": o.harness,
        "bucket": match o.bucket { Bucket::Day => "day", Bucket::Week => "week" },
        "total": totals(&o.total),
        "by_model": by(&o.by_model),
        "by_harness": by(&o.by_harness),
        "sessions": o.top_sessions.len(),
        "sessions_drawn": o.sessions.iter().map(|s| s.row.session_id.clone()).collect::<Vec<_>>(),
        "limit_snapshots": o.limits.len(),
    });
    // No `<`, `>` or `&` inside the block (a name like `<!--<script>` could
    // end the element or open a comment): they are written as JSON escapes,
    // which is the same JSON. They only occur inside strings.
    doc.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn summary(out: &mut String, o: &Overview) {
    let t = &o.total;
    let input_side =
        t.tokens.input + t.tokens.cache_read + t.tokens.cache_write_5m + t.tokens.cache_write_1h;
    let cache_share = if input_side == 0 {
        0.0
    } else {
        t.tokens.cache_read as f64 * 100.0 / input_side as f64
    };
    let _ = write!(
        out,
        "<section id=\"summary\"><h2>Summary</h2><dl class=\"figures\">\
         <div><dt>cost</dt><dd>{}</dd></div>\
         <div><dt>tokens</dt><dd>{}</dd></div>\
         <div><dt>messages</dt><dd>{}</dd></div>\
         <div><dt>sessions</dt><dd>{}</dd></div>\
         <div><dt>cache reads of input</dt><dd>{cache_share:.1}%</dd></div></dl>",
        money_of(t),
        tokens(t.tokens.total() as f64),
        t.messages,
        o.top_sessions.len(),
    );
    if t.unpriced_tokens > 0 {
        let _ = write!(
            out,
            "<p class=\"note\">{} tokens have no price and are not in the cost (see <code>sessionkit pricing</code>).</p>",
            tokens(t.unpriced_tokens as f64)
        );
    }
    out.push_str("</section>");
}

fn charts(out: &mut String, o: &Overview) {
    let per = match o.bucket {
        Bucket::Day => "day",
        Bucket::Week => "week",
    };
    let usd_label = |v: f64| axis_dollars(v);
    let tok_label = |v: f64| tokens(v);
    for (id, title, groups) in [
        ("cost-by-model", "Cost by model", &o.by_model),
        ("cost-by-harness", "Cost by agent", &o.by_harness),
    ] {
        let series = series_of(&o.periods, groups, &cost);
        let periods = &o.periods;
        let _ = write!(out, "<section id=\"{id}\"><h2>{title}, per {per}</h2>");
        if periods.is_empty() {
            out.push_str("<p class=\"empty\">No messages in this period.</p></section>");
            continue;
        }
        out.push_str(&svg::stacked_bars(title, periods, &series, &usd_label));
        legend(out, &series);
        out.push_str("</section>");
    }
    // Tokens by kind: the cache's share at a glance.
    let mut kinds: BTreeMap<&str, Totals> = BTreeMap::new();
    for ((p, _), t) in &o.by_model {
        *kinds.entry(p.as_str()).or_default() += t;
    }
    let periods = &o.periods;
    let kind = |f: fn(&Totals) -> u64, name: &str| Series {
        name: name.to_string(),
        values: periods
            .iter()
            .map(|p| kinds.get(p.as_str()).map_or(0.0, |t| f(t) as f64))
            .collect(),
    };
    let series = vec![
        kind(|t| t.tokens.cache_read, "cache read"),
        kind(
            |t| t.tokens.cache_write_5m + t.tokens.cache_write_1h,
            "cache write",
        ),
        kind(|t| t.tokens.input, "input"),
        kind(|t| t.tokens.output, "output"),
    ];
    let _ = write!(
        out,
        "<section id=\"tokens\"><h2>Tokens by kind, per {per}</h2>"
    );
    if periods.is_empty() {
        out.push_str("<p class=\"empty\">No messages in this period.</p>");
    } else {
        out.push_str(&svg::stacked_bars(
            "Tokens by kind",
            periods,
            &series,
            &tok_label,
        ));
        legend(out, &series);
    }
    out.push_str("</section>");
}

/// A table's rows in a scrolling box (a phone's width never clips it).
pub(super) fn table(out: &mut String, head: &[&str], rows: &[Vec<String>]) {
    out.push_str("<div class=\"scroll\"><table><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            // Cells are built escaped by their callers (some hold links).
            let _ = write!(out, "<td>{c}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// The most expensive sessions and projects.
fn top(out: &mut String, o: &Overview) {
    let drawn: BTreeSet<&str> = o
        .sessions
        .iter()
        .map(|s| s.row.session_id.as_str())
        .collect();
    out.push_str("<section id=\"top\"><h2>Top sessions</h2>");
    let rows: Vec<Vec<String>> = o
        .sessions
        .iter()
        .take(10)
        .map(|s| {
            let id = &s.row.session_id;
            let link = if drawn.contains(id.as_str()) {
                format!("<a href=\"#session-{0}\">{0}</a>", esc(id))
            } else {
                esc(id)
            };
            vec![
                link,
                esc(s.row.project.as_deref().unwrap_or(&s.row.project_slug)),
                esc(&s.row.harness),
                tokens(s.in_period.tokens.total() as f64),
                money_of(&s.in_period),
            ]
        })
        .collect();
    table(
        out,
        &["session", "project", "agent", "tokens", "cost"],
        &rows,
    );
    out.push_str("<h2>Top projects</h2>");
    let rows: Vec<Vec<String>> = o
        .top_projects
        .iter()
        .take(10)
        .map(|(p, t)| {
            vec![
                esc(if p.is_empty() { "-" } else { p }),
                t.messages.to_string(),
                tokens(t.tokens.total() as f64),
                money_of(t),
            ]
        })
        .collect();
    table(out, &["project", "messages", "tokens", "cost"], &rows);
    out.push_str("</section>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_people_read_them() {
        assert_eq!(dollars(1234.567), "$1,234.57");
        // As the tables print them: two significant digits below a cent.
        assert_eq!(dollars(0.004), "$0.0040");
        assert_eq!(dollars(0.00031), "$0.00031");
        assert_eq!(dollars(0.0), "$0.00");
        let unpriced = Totals {
            messages: 2,
            ..Totals::default()
        };
        assert_eq!(money_of(&unpriced), "-");
        assert_eq!(money_of(&Totals::default()), "$0.00");
        assert_eq!(tokens(12_345.0), "12.3k");
        assert_eq!(tokens(4_560_000.0), "4.56M");
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(parts::duration(3_723_000), "1h02m");
    }
}
