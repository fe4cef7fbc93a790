//! `sessionkit cost`: what the agents cost, grouped by period or key.

use std::io::Write;

use anyhow::Result;
use serde_json::{Map, Value, json};

use super::{Ctx, put_totals};
use crate::commands::Exit;
use crate::domain::clock::{format_instant, format_instant_in, parse_instant};
use crate::domain::limits::FIVE_HOURS;
use crate::domain::pricing::cents;
use crate::output::records::{
    COST_SCHEMA, CostRecord, SEGMENT_SCHEMA, SegmentRecord, totals_fields,
};
use crate::output::{Column, Format, col};
use crate::services::push;
use crate::services::report::{self, Key};
use crate::store::Store;
use crate::store::costs::CostFilter;
use crate::store::reports::Totals;

/// The amount columns of every cost row, after its keys.
const AMOUNTS: [Column; 10] = [
    col("messages", "messages").optional(3),
    col("input_tokens", "input").optional(2),
    col("output_tokens", "output").optional(2),
    col("cache_write_5m_tokens", "cache w 5m").optional(4),
    col("cache_write_1h_tokens", "cache w 1h").optional(4),
    col("cache_read_tokens", "cache read").optional(2),
    col("reasoning_tokens", "reasoning").optional(5),
    col("total_tokens", "total").optional(1),
    col("cost_usd", "cost"),
    col("unpriced_tokens", "unpriced").optional(5),
];

/// A CSV's amounts: every field of the JSON rows.
const CSV_AMOUNTS: [Column; 11] = [
    col("messages", "messages"),
    col("input_tokens", "input_tokens"),
    col("output_tokens", "output_tokens"),
    col("cache_write_5m_tokens", "cache_write_5m_tokens"),
    col("cache_write_1h_tokens", "cache_write_1h_tokens"),
    col("cache_read_tokens", "cache_read_tokens"),
    col("reasoning_tokens", "reasoning_tokens"),
    col("total_tokens", "total_tokens"),
    col("cost_usd", "cost_usd"),
    col("cost_nanousd", "cost_nanousd"),
    col("unpriced_tokens", "unpriced_tokens"),
];

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "{}. cost_usd is null only when nothing in the group is priced.\n\nWith --segments (a table adds a \"total\" row): {}",
    super::help_fields("cost"),
    super::help_fields("cost-segments")
))]
pub struct Args {
    /// Group by one or more keys, comma-separated (e.g. day,model)
    #[arg(long, value_enum, value_delimiter = ',', default_value = "day")]
    pub by: Vec<Key>,

    #[command(flatten)]
    pub period: super::PeriodArgs,

    /// Only this project (name or folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Only this session (id or unique prefix)
    #[arg(long, value_name = "S")]
    pub session: Option<String>,

    /// Only this agent's sessions (its name or an alias: claude, codex, gemini, ...)
    #[arg(long, value_name = "H", value_parser = crate::domain::clients::harness_arg())]
    pub harness: Option<String>,

    /// Draw a bar chart of cost per row after the table (table format only)
    #[arg(long)]
    pub chart: bool,

    /// CSV and JSON Lines: end with a totals row (CSV: its first key says
    /// `total`; JSON Lines: `"total": true`). A table always has one; JSON
    /// is `{"rows": [...], "totals": {...}}`
    #[arg(long)]
    pub totals: bool,

    /// With --session: cost per compaction segment (the segments sum to the session)
    #[arg(long, requires = "session")]
    pub segments: bool,

    /// Report from a team database `sessionkit push` writes (postgres://…;
    /// the password from PGPASSWORD), every machine's messages
    #[arg(long, value_name = "URL", conflicts_with = "segments")]
    pub from: Option<String>,
}

/// Cost per compaction segment of one session: segment i holds the messages
/// from the i-th boundary (the session's start for i = 0) to the next one.
fn segments(ctx: &Ctx, store: &Store, session: &str) -> Result<Exit> {
    let (segments, total) = report::segments(store, session)?;
    let mut rows: Vec<Value> = segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let opened = s.opened_by.as_ref();
            serde_json::to_value(SegmentRecord {
                pre_tokens: opened.and_then(|b| b.2),
                schema: SEGMENT_SCHEMA,
                segment: i,
                starts_at: opened.map(|b| format_instant(b.0)),
                trigger: opened.and_then(|b| b.1.clone()),
                totals: totals_fields(&s.totals),
            })
        })
        .collect::<serde_json::Result<_>>()?;
    if matches!(ctx.out.format, Format::Table | Format::Csv) {
        // A table's last row sums them (never in JSON: the rows are the data).
        let mut o = Map::new();
        o.insert("segment".into(), json!("total"));
        put_totals(&mut o, &total);
        rows.push(Value::Object(o));
    }
    let mut cols = vec![
        col("segment", "segment"),
        col("starts_at", "starts"),
        col("trigger", "trigger"),
        col("pre_tokens", "pre tokens"),
    ];
    cols.extend(AMOUNTS);
    ctx.out.records(&cols, &rows)?;
    Ok(Exit::Success)
}

/// A group's record: its values of the `--by` keys, and its totals.
fn cost_record(by: &[Key], key: &[String], t: &Totals) -> CostRecord {
    let mut r = CostRecord {
        agent_id: None,
        agent_type: None,
        block: None,
        block_ends_at: None,
        day: None,
        harness: None,
        harness_reported_usd: (t.harness_nanousd != 0)
            .then(|| crate::domain::pricing::usd(t.harness_nanousd)),
        last_activity_at: None,
        title: None,
        machine: None,
        model: None,
        month: None,
        project: None,
        schema: COST_SCHEMA.to_string(),
        session_id: None,
        user: None,
        week: None,
        total: None,
        totals: totals_fields(t),
    };
    for (k, v) in by.iter().zip(key) {
        let slot = match k {
            Key::Day => &mut r.day,
            Key::Week => &mut r.week,
            Key::Month => &mut r.month,
            Key::Session => &mut r.session_id,
            Key::Project => &mut r.project,
            Key::Harness => &mut r.harness,
            Key::Model => &mut r.model,
            Key::AgentType => &mut r.agent_type,
            Key::Agent => &mut r.agent_id,
            Key::Machine => &mut r.machine,
            Key::User => &mut r.user,
            Key::Block => &mut r.block,
        };
        *slot = Some(v.clone());
    }
    r.block_ends_at = r
        .block
        .as_deref()
        .and_then(parse_instant)
        .map(|ms| format_instant(ms + FIVE_HOURS));
    r
}

/// A table's block times in the zone the person reads them in, short
/// enough for both to fit a terminal: the start's day and time
/// (`2026-01-10 19:00`), the end's time (`00:00`, five hours on). The
/// records keep UTC.
fn block_times_in(r: &mut CostRecord, tz: &jiff::tz::TimeZone) {
    for (t, keep) in [(&mut r.block, 0..16), (&mut r.block_ends_at, 11..16)] {
        if let Some(t) = t
            && let Some(ms) = parse_instant(t)
        {
            let local = format_instant_in(ms, tz).replacen('T', " ", 1);
            *t = local.get(keep).unwrap_or(&local).to_string();
        }
    }
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    ctx.out
        .refuse("cost", &[Format::Dot, Format::Mermaid, Format::Text])?;
    let (tz, since, until) = args.period.resolve()?;
    let store = ctx.open()?;
    let filter = CostFilter {
        since,
        until,
        project: args.project.clone(),
        harness: args.harness.clone(),
        session: match (&args.from, args.session.as_deref()) {
            // A team database's sessions are not in this store: the id as given.
            (Some(_), s) => s.map(str::to_string),
            (None, s) => s.map(|s| store.resolve_session(s)).transpose()?,
        },
    };
    if args.segments {
        let sid = filter.session.clone().unwrap_or_default();
        return segments(ctx, &store, &sid);
    }
    let from = args.from.as_deref().map(push::Target::parse).transpose()?;
    let costs = report::costs(
        &store,
        &report::Query {
            by: &args.by,
            filter,
            tz: tz.clone(),
            from: from.as_ref(),
        },
    )?;
    print_rows(ctx, args, &costs, &tz)?;
    finish(ctx, args, &costs)
}

/// The groups' rows: JSON one document with the totals; a table with a
/// totals row; CSV and JSON Lines with one when asked for (a spreadsheet
/// summing the column would count it twice).
fn print_rows(
    ctx: &Ctx,
    args: &Args,
    costs: &report::Costs,
    tz: &jiff::tz::TimeZone,
) -> Result<()> {
    let total = &costs.total;
    let row = |key: &[String], t: &Totals| -> Value {
        serde_json::to_value(cost_record(&args.by, key, t)).expect("a record is JSON")
    };
    let session = args.by.iter().position(|k| *k == Key::Session);
    let mut rows: Vec<Value> = ordered(costs, session)
        .iter()
        .map(|(k, t)| {
            let mut r = cost_record(&args.by, k, t);
            if let Some(b) = session.and_then(|i| costs.sessions.get(&k[i])) {
                r.title.clone_from(&b.title);
                r.last_activity_at = b.last_activity_at.map(format_instant);
                if r.project.is_none() {
                    r.project.clone_from(&b.project);
                }
            }
            if ctx.out.format == Format::Table {
                block_times_in(&mut r, tz);
            }
            serde_json::to_value(r).expect("a record is JSON")
        })
        .collect();
    if ctx.out.format == Format::Json {
        let doc = serde_json::json!({
            "rows": rows,
            "totals": row(&[], total),
        });
        let mut out = ctx.out.data();
        crate::output::write_json(&mut out, &doc, true)?;
        writeln!(out)?;
        return Ok(());
    }
    let with_totals = match ctx.out.format {
        Format::Table => true,
        Format::Csv | Format::Jsonl => args.totals,
        _ => false,
    };
    if with_totals && !rows.is_empty() {
        rows.push(if ctx.out.format == Format::Jsonl {
            let mut r = cost_record(&[], &[], total);
            r.total = Some(true);
            serde_json::to_value(r).expect("a record is JSON")
        } else {
            // The first key's column says `total`.
            let mut label = vec![String::new(); args.by.len()];
            if let Some(first) = label.first_mut() {
                *first = "total".into();
            }
            row(&label, total)
        });
    }
    let cols = columns(ctx.out.format, &args.by, costs.total.harness_nanousd != 0);
    ctx.out.records(&cols, &rows)
}

/// A cost table's columns: the keys (a block with its end, a session
/// with its title, project and last activity), the amounts, and the
/// clients' own figure beside our cost when any client gave one.
fn columns(format: Format, by: &[Key], client_figures: bool) -> Vec<Column> {
    let mut cols: Vec<Column> = Vec::new();
    for k in by {
        cols.push(col(k.field(), k.field()));
        if *k == Key::Block {
            cols.push(col("block_ends_at", "ends"));
        }
        if *k == Key::Session {
            // A session named so a person knows it.
            cols.push(col("title", "title").one_line());
            if !by.contains(&Key::Project) {
                cols.push(col("project", "project").optional(2));
            }
            cols.push(col("last_activity_at", "last activity").optional(3));
        }
    }
    // A spreadsheet gets the fields JSON has.
    if format == Format::Csv {
        cols.extend(CSV_AMOUNTS);
    } else {
        cols.extend(AMOUNTS);
    }
    if client_figures {
        let at = cols
            .iter()
            .position(|c| c.key == "cost_usd")
            .map_or(cols.len(), |i| i + 1);
        let header = if format == Format::Csv {
            "harness_reported_usd"
        } else {
            "client's cost"
        };
        cols.insert(at, col("harness_reported_usd", header));
    }
    cols
}

/// The groups in the order they are shown: by their keys, but sessions
/// (key `session`, when grouped by it) costliest first within the other
/// keys' groups.
fn ordered(costs: &report::Costs, session: Option<usize>) -> Vec<(&Vec<String>, &Totals)> {
    let mut groups: Vec<(&Vec<String>, &Totals)> = costs.groups.iter().collect();
    if let Some(i) = session {
        let others = |k: &[String]| -> Vec<String> {
            k.iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, v)| v.clone())
                .collect()
        };
        groups.sort_by(|a, b| {
            others(a.0)
                .cmp(&others(b.0))
                .then(b.1.cost_nanousd.cmp(&a.1.cost_nanousd))
                .then(a.0.cmp(b.0))
        });
    }
    groups
}

/// What a cost report says after its rows: an empty result, unpriced
/// models, the chart.
fn finish(ctx: &Ctx, args: &Args, costs: &report::Costs) -> Result<Exit> {
    let groups = &costs.groups;
    if groups.is_empty() {
        ctx.out.note(if costs.store_empty {
            "no usage: the database holds no session yet; `sessionkit ingest` reads your agents' transcripts"
        } else {
            "no messages in this period or selection"
        });
    }
    let uncounted = costs.uncounted_compactions;
    if uncounted > 0 {
        ctx.out.note(&format!(
            "{uncounted} compression(s) of a Gemini CLI chat in this selection: the model calls that wrote each summary are in no transcript and no hook, so their tokens are not in these totals"
        ));
    }
    if !costs.unpriced_models.is_empty() {
        super::name_unpriced(ctx, costs.unpriced_models.iter().map(String::as_str));
    }
    if args.chart && ctx.out.format == Format::Table {
        let max = groups
            .values()
            .map(|t| t.cost_nanousd)
            .max()
            .unwrap_or(0)
            .max(1);
        let mut out = String::new();
        for (k, t) in groups {
            let width = (i128::from(t.cost_nanousd.max(0)) * 40 / i128::from(max)) as usize;
            out.push_str(&format!(
                "{:<24} {:<40} {}\n",
                k.join(" "),
                "█".repeat(width),
                cents(t.cost_nanousd)
            ));
        }
        write!(ctx.out.data(), "\n{out}")?;
    }
    Ok(Exit::Success)
}
