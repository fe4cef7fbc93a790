//! `sessionkit statusline`: Claude Code's `statusLine` command. Reads the
//! JSON Claude Code hands it on stdin after every message, records the
//! account's limits when they changed, catches the session's transcript up
//! and prints one line. It never fails the status line: on any error it
//! prints a minimal line, says why on stderr, and exits 0.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Result, bail};

use crate::commands::Exit;
use crate::domain::clock::Millis;
use crate::domain::limits::span;
use crate::domain::pricing::cents;
use crate::services::statusline::{self, Status};

/// The most stdin a status line reads (Claude Code's payload is a few KiB).
const MAX_INPUT: u64 = 1 << 20;

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "Register it with `sessionkit hooks install --harness claude-code
--statusline`, or in ~/.claude/settings.json:
  \"statusLine\": {\"type\": \"command\", \"command\": \"sessionkit statusline\"}

Fields for --template: {model}, {session_cost} (exact, from the session's
transcript; Claude Code's own figure until the transcript is read),
{today_cost} (every session since local midnight), {five_hour} and
{seven_day} (the windows' used share), {five_hour_reset} and
{seven_day_reset} (time to the reset), {burn} (the five-hour window's pace,
points per hour), {projected} (its share at the reset at that pace),
{context} (the context window used). A field Claude Code did not state
(rate limits come on a subscription, after the first response) shows `-`.

Colour only with --color always. Each change of the limits is kept
(`sessionkit limits` shows the history)."
)]
pub struct Args {
    /// The line's layout: text with fields in braces [default: the model,
    /// the costs, then the limits when Claude Code states them]
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
}

/// Runs the status line; whatever happens, one line on stdout and exit 0.
pub fn run(db: Result<PathBuf>, color: bool, a: &Args) -> Exit {
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_INPUT)
        .read_to_end(&mut input);
    let line = read
        .map_err(anyhow::Error::from)
        .and_then(|_| line(db, &input, color, a));
    let text = match line {
        Ok(l) => l,
        Err(e) => {
            let clean = crate::domain::text::sanitize_reason(&crate::domain::text::sanitize(
                &format!("{e:#}"),
            ));
            eprintln!("sessionkit statusline: {clean}");
            minimal(&input)
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    Exit::Success
}

/// The line when nothing else can be said: the model, if the input names it.
fn minimal(input: &[u8]) -> String {
    let model = serde_json::from_slice::<serde_json::Value>(input)
        .ok()
        .and_then(|v| {
            v.pointer("/model/display_name")
                .and_then(serde_json::Value::as_str)
                .map(crate::domain::text::sanitize)
        });
    model.unwrap_or_else(|| "sessionkit".to_string())
}

fn line(db: Result<PathBuf>, input: &[u8], color: bool, a: &Args) -> Result<String> {
    crate::domain::clock::init_from_env()?;
    let now = crate::domain::clock::now();
    let tz = jiff::tz::TimeZone::system();
    let status = statusline::status(&db?, input, now, &tz)?;
    let fields = fields(&status, now, color);
    let template = match &a.template {
        Some(t) => t.clone(),
        None => default_template(&status),
    };
    render(&template, &fields)
}

/// The default layout: what is known, and nothing that is not.
fn default_template(s: &Status) -> String {
    let mut parts = vec!["{model}", "{session_cost} session", "{today_cost} today"];
    if s.snapshot.five_hour.is_some() {
        parts.push("5h {five_hour} ({five_hour_reset})");
    }
    if s.snapshot.seven_day.is_some() {
        parts.push("7d {seven_day} ({seven_day_reset})");
    }
    if s.five_hour_pace.is_some() {
        parts.push("{burn} → {projected} at reset");
    }
    parts.join(" | ")
}

/// Each field's text.
fn fields(s: &Status, now: Millis, color: bool) -> BTreeMap<&'static str, String> {
    let snap = &s.snapshot;
    let pct = |p: f64| format!("{p:.0}%");
    // Green with room, yellow past half, red from 80 %.
    let paint = |p: f64, text: String| {
        if !color {
            return text;
        }
        let code = if p >= 80.0 {
            31
        } else if p >= 50.0 {
            33
        } else {
            32
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    };
    let dash = || "-".to_string();
    let mut f = BTreeMap::new();
    let model = snap.model_name.as_deref().or(snap.model.as_deref());
    f.insert(
        "model",
        model.map_or_else(dash, crate::domain::text::sanitize),
    );
    let session = s.session_cost_nanousd.or(snap.stated_cost_nanousd);
    f.insert("session_cost", session.map_or_else(dash, cents));
    f.insert("today_cost", cents(s.today_cost_nanousd));
    let judged = s.five_hour_pace.map(|p| p.at_reset_pct);
    for (name, reset, w, judge) in [
        ("five_hour", "five_hour_reset", snap.five_hour, judged),
        ("seven_day", "seven_day_reset", snap.seven_day, None),
    ] {
        f.insert(
            name,
            w.map_or_else(dash, |w| {
                paint(judge.unwrap_or(w.used_pct), pct(w.used_pct))
            }),
        );
        f.insert(reset, w.map_or_else(dash, |w| span(w.resets_at - now)));
    }
    let pace = s.five_hour_pace;
    f.insert(
        "burn",
        pace.map_or_else(dash, |p| format!("{:.1}%/h", p.per_hour)),
    );
    f.insert(
        "projected",
        pace.map_or_else(dash, |p| paint(p.at_reset_pct, pct(p.at_reset_pct))),
    );
    f.insert("context", snap.context_pct.map_or_else(dash, pct));
    f
}

/// `template` with each `{field}` replaced; `{{` and `}}` are braces. An
/// unknown field is an error that names the known ones.
fn render(template: &str, fields: &BTreeMap<&'static str, String>) -> Result<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) else {
            bail!("--template: an unmatched brace (write {{{{ or }}}} for one)");
        };
        let name = &tail[1..end];
        let Some(v) = fields.get(name) else {
            let known: Vec<&str> = fields.keys().copied().collect();
            bail!(
                "--template: no field {{{name}}}; the fields: {}",
                known.join(", ")
            );
        };
        out.push_str(v);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_takes_fields_and_escaped_braces() {
        let mut f = BTreeMap::new();
        f.insert("model", "Opus 4.6".to_string());
        f.insert("burn", "3.0%/h".to_string());
        assert_eq!(
            render("[{model}] {{x}} {burn}", &f).unwrap(),
            "[Opus 4.6] {x} 3.0%/h"
        );
        let e = render("{nope}", &f).unwrap_err().to_string();
        assert_eq!(e, "--template: no field {nope}; the fields: burn, model");
        assert!(render("{model", &f).is_err());
        assert!(render("model}", &f).is_err());
    }
}
