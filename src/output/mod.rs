//! Rendering results: table, JSON, JSON Lines, CSV; stderr notes; progress.
//!
//! stdout carries data only. Default format: a table when stdout is a
//! terminal, JSON Lines when it is piped.

pub use crate::domain::text::sanitize;

pub mod conversation;
pub mod hits;
pub mod html;
pub mod json;
pub mod memory;
pub mod records;
mod render;
pub mod runs;
pub mod schema;
pub mod tree;

use std::io::{IsTerminal, Write};

use anyhow::Result;
use serde_json::Value;

pub use render::{Column, col, money};

/// Writes `v` as JSON (pretty or compact) with DEL, the C1 controls,
/// the line and paragraph separators and the bidirectional controls
/// escaped as `\uXXXX`: still the same JSON (such a character only occurs
/// inside a string), and a terminal showing it cannot be made to run a
/// control sequence or reorder the line. serde_json escapes the C0
/// controls itself.
pub fn write_json<W: Write + ?Sized, T: serde::Serialize + ?Sized>(
    out: &mut W,
    v: &T,
    pretty: bool,
) -> Result<()> {
    let bytes = if pretty {
        serde_json::to_vec_pretty(v)?
    } else {
        serde_json::to_vec(v)?
    };
    out.write_all(&escape_unsafe(&bytes))?;
    Ok(())
}

/// Whether a byte can begin a character `escape_unsafe` escapes.
pub fn may_be_unsafe(b: u8) -> bool {
    matches!(b, 0x7F | 0xC2 | 0xD8 | 0xE2)
}

/// `bytes` (UTF-8 JSON) with U+007F, U+0080-U+009F, U+061C, U+200E,
/// U+200F, U+2028, U+2029, U+202A-U+202E and U+2066-U+2069 written as
/// JSON escapes.
pub fn escape_unsafe(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let unsafe_at = |b: &[u8], i: usize| -> Option<(usize, u32)> {
        match (b[i], b.get(i + 1), b.get(i + 2)) {
            (0x7F, _, _) => Some((1, 0x7F)),
            (0xC2, Some(&c), _) if (0x80..=0x9F).contains(&c) => Some((2, u32::from(c))),
            (0xD8, Some(0x9C), _) => Some((2, 0x061C)),
            (0xE2, Some(0x80), Some(&c)) if matches!(c, 0x8E | 0x8F | 0xA8..=0xAE) => {
                Some((3, 0x2000 + u32::from(c - 0x80)))
            }
            (0xE2, Some(0x81), Some(&c)) if (0xA6..=0xA9).contains(&c) => {
                Some((3, 0x2040 + u32::from(c - 0x80)))
            }
            _ => None,
        }
    };
    if !bytes.iter().any(|&b| may_be_unsafe(b)) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut i = 0;
    while i < bytes.len() {
        if let Some((len, cp)) = unsafe_at(bytes, i) {
            out.extend_from_slice(format!("\\u{cp:04x}").as_bytes());
            i += len;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Rows on their way out (`Output::sink`).
pub enum Sink {
    Lines(std::io::BufWriter<Box<dyn Write>>),
    Rows(Vec<Value>),
}

impl Sink {
    /// Adds a row.
    pub fn push<T: serde::Serialize>(&mut self, row: &T) -> Result<()> {
        match self {
            Sink::Lines(out) => {
                write_json(&mut *out, row, false)?;
                out.write_all(b"\n")?;
            }
            Sink::Rows(rows) => rows.push(serde_json::to_value(row)?),
        }
        Ok(())
    }

    /// The JSON Lines writer, when rows go straight out as lines (a caller
    /// that writes its JSON itself writes one line per row).
    pub fn lines(&mut self) -> Option<&mut impl Write> {
        match self {
            Sink::Lines(out) => Some(out),
            Sink::Rows(_) => None,
        }
    }
}

/// Output formats every record-printing command accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Json,
    Jsonl,
    Csv,
    /// The tree's indented drawing (`tree` only; other commands print a table).
    Text,
    /// Graphviz (`tree` only).
    Dot,
    /// Mermaid flowchart (`tree` only).
    Mermaid,
    /// A conversation as readable Markdown (`show` only).
    Markdown,
    /// OpenTelemetry's OTLP/JSON, one request a line (`export` only).
    OtlpJson,
}

/// When to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// How this process prints: resolved once from the global flags.
#[derive(Debug, Clone)]
pub struct Output {
    pub format: Format,
    /// Whether `format` was asked for (a bare-id command prints the id otherwise).
    pub explicit: bool,
    pub color: bool,
    /// Escape control and bidi characters in tables' text: always, since a
    /// table piped to a file is read on a terminal later.
    pub sanitize: bool,
    pub quiet: bool,
    pub progress: bool,
    /// The width tables fit: `COLUMNS` when set, else the terminal's when
    /// stdout is one, else none (a pipe gets whole lines).
    pub width: Option<u16>,
    pub tty: bool,
    /// `--wide`: ids whole in tables.
    pub wide: bool,
    /// The database whose ids a table's shortened ids must stay apart
    /// from (every session, memory, run and agent, not only the rows
    /// shown), so that a shown prefix pastes back.
    pub ids_of: Option<std::path::PathBuf>,
    /// Where data and notes go instead of stdout and stderr (a command run
    /// for `sessionkit mcp`).
    pub capture: Option<Capture>,
}

/// What a captured command printed (`Output::capture`).
#[derive(Debug, Default)]
pub struct Captured {
    /// What it printed on stdout.
    pub data: Vec<u8>,
    /// Its notes, each without the `sessionkit:` prefix.
    pub notes: Vec<String>,
}

/// A shared `Captured`.
pub type Capture = std::sync::Arc<std::sync::Mutex<Captured>>;

/// Writes into a `Capture`'s data.
struct CaptureWriter(Capture);

impl Write for CaptureWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut c = self
            .0
            .lock()
            .map_err(|_| std::io::Error::other("the capture was poisoned"))?;
        c.data.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Output {
    pub fn new(
        format: Option<Format>,
        color: ColorChoice,
        quiet: bool,
        no_progress: bool,
    ) -> Output {
        let tty = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && !no_color,
        };
        Output {
            format: format.unwrap_or(if tty { Format::Table } else { Format::Jsonl }),
            explicit: format.is_some(),
            color,
            sanitize: true,
            quiet,
            progress: !quiet && !no_progress && std::io::stderr().is_terminal(),
            // The terminal's width whatever the colour setting (a table
            // that is not coloured must fit as well).
            width: std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse::<u16>().ok())
                .filter(|w| *w >= 20)
                .or_else(|| {
                    tty.then(|| comfy_table::Table::new().width())
                        .flatten()
                        .filter(|w| *w >= 20)
                }),
            tty,
            wide: false,
            ids_of: None,
            capture: None,
        }
    }

    /// Where data goes: stdout, or the capture.
    pub fn data(&self) -> Box<dyn Write> {
        match &self.capture {
            Some(c) => Box::new(CaptureWriter(c.clone())),
            None => Box::new(std::io::stdout().lock()),
        }
    }

    /// A note for people, on stderr with the `sessionkit:` prefix; `--quiet` silences it.
    /// Whether the user asked for JSON (`--json`, `--format json|jsonl`):
    /// what a command whose default is text (`brief`, `prompt`) asks.
    pub fn wants_json(&self) -> bool {
        self.explicit && matches!(self.format, Format::Json | Format::Jsonl)
    }

    /// One JSON document on stdout: pretty under `json`, one line under
    /// `jsonl`.
    pub fn document<T: serde::Serialize>(&self, doc: &T) -> anyhow::Result<()> {
        use std::io::Write;
        let mut out = self.data();
        if self.format == Format::Json {
            write_json(&mut out, doc, true)?;
        } else {
            write_json(&mut out, doc, false)?;
        }
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(())
    }

    /// A note on stderr; control characters in it (transcript text can
    /// reach a note) are escaped.
    pub fn note(&self, msg: &str) {
        if let Some(c) = &self.capture {
            if let Ok(mut c) = c.lock() {
                c.notes.push(sanitize(msg));
            }
        } else if !self.quiet {
            eprintln!("sessionkit: {}", sanitize(msg));
        }
    }

    /// Prints a list of records.
    pub fn records(&self, cols: &[Column], rows: &[Value]) -> Result<()> {
        self.refuse("these records", &TREE_ONLY)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, self.data());
        match self.format {
            Format::Json => {
                write_json(&mut out, rows, true)?;
                out.write_all(b"\n")?;
            }
            Format::Jsonl => {
                for r in rows {
                    write_json(&mut out, r, false)?;
                    out.write_all(b"\n")?;
                }
            }
            Format::Csv => render::csv(&mut out, cols, rows)?,
            Format::Table
            | Format::Text
            | Format::Dot
            | Format::Mermaid
            | Format::Markdown
            | Format::OtlpJson => {
                if !rows.is_empty() {
                    let drawn = render::table(cols, rows, self);
                    writeln!(out, "{}", drawn.text)?;
                    if !drawn.hidden.is_empty() {
                        out.flush()?;
                        self.note(&format!(
                            "{} column(s) left out to fit the width: {}; --wide or a wider COLUMNS shows them, --format csv or json has every field",
                            drawn.hidden.len(),
                            drawn.hidden.join(", ")
                        ));
                    }
                }
            }
        }
        out.flush()?;
        Ok(())
    }

    /// `records` from an iterator: JSON Lines are written as the rows come,
    /// so a long listing is never held in memory as values.
    pub fn records_iter<T: serde::Serialize>(
        &self,
        cols: &[Column],
        rows: impl IntoIterator<Item = T>,
    ) -> Result<()> {
        let mut sink = self.sink();
        for r in rows {
            sink.push(&r)?;
        }
        self.finish(cols, sink)
    }

    /// Where rows go one at a time: straight to stdout as JSON Lines, else
    /// gathered for the format that needs them all (`finish` prints them).
    pub fn sink(&self) -> Sink {
        if self.format == Format::Jsonl {
            Sink::Lines(std::io::BufWriter::with_capacity(1 << 16, self.data()))
        } else {
            Sink::Rows(Vec::new())
        }
    }

    /// Ends a `sink`: flushes the lines, or prints the gathered rows.
    pub fn finish(&self, cols: &[Column], sink: Sink) -> Result<()> {
        match sink {
            Sink::Lines(mut out) => Ok(out.flush()?),
            Sink::Rows(rows) => self.records(cols, &rows),
        }
    }

    /// Prints typed records, each through a JSON value (keys in name
    /// order, as every format lays them out).
    pub fn records_of<T: serde::Serialize>(
        &self,
        cols: &[Column],
        rows: impl IntoIterator<Item = T>,
    ) -> Result<()> {
        let rows = rows
            .into_iter()
            .map(|r| serde_json::to_value(r))
            .collect::<serde_json::Result<Vec<Value>>>()?;
        self.records(cols, &rows)
    }

    /// Prints one typed record, through a JSON value.
    pub fn record_of<T: serde::Serialize>(&self, cols: &[Column], row: &T) -> Result<()> {
        self.record(cols, &serde_json::to_value(row)?)
    }

    /// Prints one record (a summary, a document). A table shows it as
    /// key/value rows; nested lists are for JSON.
    pub fn record(&self, cols: &[Column], row: &Value) -> Result<()> {
        self.refuse("this record", &TREE_ONLY)?;
        let mut out = self.data();
        match self.format {
            Format::Json => {
                write_json(&mut out, row, true)?;
                out.write_all(b"\n")?;
            }
            Format::Jsonl => {
                write_json(&mut out, row, false)?;
                out.write_all(b"\n")?;
            }
            Format::Csv => render::csv(&mut out, cols, std::slice::from_ref(row))?,
            Format::Table
            | Format::Text
            | Format::Dot
            | Format::Mermaid
            | Format::Markdown
            | Format::OtlpJson => {
                writeln!(out, "{}", render::vertical(cols, row, self))?;
            }
        }
        out.flush()?;
        Ok(())
    }

    /// A section heading between tables (table format only).
    pub fn section(&self, title: &str) -> Result<()> {
        if matches!(self.format, Format::Table | Format::Text) {
            let mut out = self.data();
            writeln!(out, "\n{title}")?;
        }
        Ok(())
    }

    /// Refuses a format this command cannot render.
    pub fn refuse(&self, what: &str, formats: &[Format]) -> Result<()> {
        if formats.contains(&self.format) {
            anyhow::bail!(
                "{what} cannot be printed as {}: use --format {}",
                format_name(self.format),
                [
                    Format::Table,
                    Format::Json,
                    Format::Jsonl,
                    Format::Csv,
                    Format::Text,
                    Format::Dot,
                    Format::Mermaid
                ]
                .iter()
                .filter(|f| !formats.contains(f))
                .map(|f| format_name(*f))
                .collect::<Vec<_>>()
                .join(" or ")
            );
        }
        Ok(())
    }

    /// A progress bar on stderr when it is a terminal (never under --quiet).
    pub fn progress_bar(&self, total: u64, what: &str) -> Option<indicatif::ProgressBar> {
        if !self.progress {
            return None;
        }
        let pb = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "sessionkit: {msg} [{bar:30}] {bytes}/{total_bytes} ({eta})",
        ) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.set_message(what.to_string());
        Some(pb)
    }
}

pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Table => "table",
        Format::Json => "json",
        Format::Jsonl => "jsonl",
        Format::Csv => "csv",
        Format::Text => "text",
        Format::Dot => "dot",
        Format::Mermaid => "mermaid",
        Format::Markdown => "markdown",
        Format::OtlpJson => "otlp-json",
    }
}

/// The drawings only the tree can make, and the conversation only `show`
/// writes.
const TREE_ONLY: [Format; 4] = [
    Format::Dot,
    Format::Mermaid,
    Format::Markdown,
    Format::OtlpJson,
];

#[cfg(test)]
mod bidi_tests {
    use super::*;

    /// Bidi controls leave JSON as escapes; the JSON reads back the same.
    #[test]
    fn bidi_controls_are_escaped_in_json() {
        let text = "a\u{202E}b\u{2066}c\u{200F}d\u{061C}e é ✓\u{7f}\u{9b}\u{85}\u{2028}¢";
        let mut out = Vec::new();
        write_json(&mut out, &serde_json::json!({ "t": text }), false).unwrap();
        let written = String::from_utf8(out).unwrap();
        assert_eq!(
            written,
            r#"{"t":"a\u202eb\u2066c\u200fd\u061ce é ✓\u007f\u009b\u0085\u2028¢"}"#
        );
        let back: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back["t"], text);
        assert!(matches!(
            escape_unsafe(b"plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
