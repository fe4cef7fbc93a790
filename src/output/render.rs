//! Table and CSV rendering of JSON records.

use std::io::Write;

use anyhow::Result;
use comfy_table::{CellAlignment, ColumnConstraint, ContentArrangement, Table, Width, presets};
use serde_json::Value;

use super::{Output, sanitize};
use crate::domain::text::group_digits;

mod column;
pub use column::{Column, col};

/// Dollars as a person reads them: cents from a cent up (`$12.35`), two
/// significant digits below (`$0.0014`, never `$0.00` for a cost that is
/// not zero), `<$0.000001` below a millionth.
pub fn money(usd: f64) -> String {
    let a = usd.abs();
    let sign = if usd < 0.0 { "-" } else { "" };
    if a == 0.0 || a >= 0.01 {
        let cents = (a * 100.0).round() as i128;
        return format!("{sign}${}.{:02}", group_digits(cents / 100), cents % 100);
    }
    if a < 0.000_001 {
        return format!("{sign}<$0.000001");
    }
    // Two significant digits: as many decimals as the first digit's place, plus one.
    let places = (-a.log10()).floor() as usize + 2;
    format!("{sign}${a:.places$}")
}

fn cell_text(v: Option<&Value>, key: &str) -> String {
    match v {
        None | Some(Value::Null) => "-".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        // Every dollar amount in one format, with its sign.
        Some(Value::Number(n)) if key.ends_with("_usd") => money(n.as_f64().unwrap_or(0.0)),
        Some(Value::Number(n)) => match n.as_i64() {
            // Ids and counts of things people read as amounts get separators.
            Some(i)
                if key.ends_with("tokens") || key.ends_with("bytes") || key.ends_with("_read") =>
            {
                group_digits(i128::from(i))
            }
            _ => n.to_string(),
        },
        Some(Value::Array(a)) if a.is_empty() => "-".to_string(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| cell_text(Some(x), key))
            .collect::<Vec<_>>()
            .join(", "),
        Some(Value::Object(o)) => o
            .iter()
            .map(|(k, x)| format!("{k}={}", cell_text(Some(x), k)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A table in the house style. Its columns wrap to fit `COLUMNS` when set,
/// else the terminal when stdout is one; a pipe without `COLUMNS` gets whole
/// lines.
/// Whether tables fit a width (`COLUMNS`, or a terminal's).
fn fits_width(out: &Output) -> bool {
    out.width.is_some() || out.tty
}

fn new_table(out: &Output) -> Table {
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    match out.width {
        // Every column whole: a line longer than the terminal is for a
        // pager that scrolls (`less -S`), never cells wrapped letter by
        // letter.
        _ if out.wide => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
        Some(w) => {
            t.set_content_arrangement(ContentArrangement::Dynamic);
            t.set_width(w);
        }
        None if out.tty => {
            t.set_content_arrangement(ContentArrangement::Dynamic);
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    if !out.color {
        t.force_no_tty();
    }
    t
}

/// A drawn table, and the headers of the columns left out to fit the width.
pub(super) struct Drawn {
    pub text: String,
    pub hidden: Vec<&'static str>,
}

pub(super) fn table(cols: &[Column], rows: &[Value], out: &Output) -> Drawn {
    let fitted = !out.wide && fits_width(out);
    let short = id_lengths(cols, rows, out, fitted);
    let day_only = fitted && spans_days(cols, rows);
    // Model names as short as they can be while no two of the column's
    // names become one.
    let models_short: Vec<Option<bool>> = cols
        .iter()
        .map(|c| {
            let values = || rows.iter().filter_map(|r| r.get(c.key));
            (fitted && matches!(c.key, "model" | "models"))
                .then(|| {
                    [true, false]
                        .into_iter()
                        .find(|&dated| short_names_stay_apart(values(), dated))
                })
                .flatten()
        })
        .collect();
    let shapes = Shapes {
        short: &short,
        models_short: &models_short,
        fitted,
        day_only,
        sanitize: out.sanitize,
    };
    let mut cells: Vec<Vec<String>> = rows.iter().map(|r| shapes.row(cols, r)).collect();
    let mut t = new_table(out);
    let widths = column_widths(cols, &cells);
    let keep = if fitted {
        kept_columns(cols, &widths, out.width.or_else(|| t.width()))
    } else {
        vec![true; cols.len()]
    };
    let allotted = fitted
        .then(|| out.width.or_else(|| t.width()))
        .flatten()
        .map(|width| allot_kept(cols, &widths, &keep, &mut cells, usize::from(width)));
    fill(&mut t, cols, rows, cells, &keep, out.color);
    for (i, w) in allotted.into_iter().flatten().enumerate() {
        if let Some(c) = t.column_mut(i) {
            let w = u16::try_from(w + 2).unwrap_or(u16::MAX);
            c.set_constraint(ColumnConstraint::Absolute(Width::Fixed(w)));
        }
    }
    Drawn {
        text: trim_lines(&t.to_string()),
        hidden: cols
            .iter()
            .zip(&keep)
            .filter(|(_, k)| !**k)
            .map(|(c, _)| c.header)
            .collect(),
    }
}

/// The kept columns' widths at `width` (`allot`), the cells of the
/// one-line columns cut to theirs.
fn allot_kept(
    cols: &[Column],
    widths: &[ColumnWidth],
    keep: &[bool],
    cells: &mut [Vec<String>],
    width: usize,
) -> Vec<usize> {
    let kept: Vec<usize> = (0..cols.len()).filter(|&i| keep[i]).collect();
    let w = allot(&kept.iter().map(|&i| &widths[i]).collect::<Vec<_>>(), width);
    for (&i, &w) in kept.iter().zip(&w) {
        if cols[i].cut {
            cells.iter_mut().for_each(|r| r[i] = cut_to(&r[i], w));
        }
    }
    w
}

/// `text` in at most `width` characters: cut with `…` when longer.
fn cut_to(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// The kept columns' header and rows into `t` (numbers right-aligned).
fn fill(
    t: &mut comfy_table::Table,
    cols: &[Column],
    rows: &[Value],
    cells: Vec<Vec<String>>,
    keep: &[bool],
    color: bool,
) {
    t.set_header(cols.iter().zip(keep).filter(|(_, k)| **k).map(|(c, _)| {
        let cell = comfy_table::Cell::new(c.header.to_uppercase());
        if color {
            cell.add_attribute(comfy_table::Attribute::Bold)
        } else {
            cell
        }
    }));
    for (r, texts) in rows.iter().zip(cells) {
        t.add_row(
            cols.iter()
                .zip(texts)
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|((c, text), _)| {
                    let cell = comfy_table::Cell::new(text);
                    if r.get(c.key).is_some_and(Value::is_number) {
                        cell.set_alignment(CellAlignment::Right)
                    } else {
                        cell
                    }
                }),
        );
    }
}

/// How a fitted table shortens each column's cells.
struct Shapes<'a> {
    /// Per column: ids cut to this many characters.
    short: &'a [Option<usize>],
    /// Per column: model names shortened (with their date, or without).
    models_short: &'a [Option<bool>],
    fitted: bool,
    /// Times shown without their date (every row on one day).
    day_only: bool,
    sanitize: bool,
}

impl Shapes<'_> {
    /// One row's cell texts.
    fn row(&self, cols: &[Column], r: &Value) -> Vec<String> {
        cols.iter()
            .zip(self.short)
            .zip(self.models_short)
            .map(|((c, short), models_short)| {
                let mut text = cell_text(r.get(c.key), c.key);
                if let Some(dated) = *models_short {
                    text = text
                        .split(", ")
                        .map(|m| short_model(m, dated))
                        .collect::<Vec<_>>()
                        .join(", ");
                } else if self.fitted {
                    text = fitted_time(c.key, text, self.day_only);
                }
                if let Some(n) = short
                    && text.chars().count() > *n
                {
                    // A prefix that names it alone: it pastes back as it is.
                    text = text.chars().take(*n).collect::<String>();
                }
                if self.sanitize { sanitize(&text) } else { text }
            })
            .collect()
    }
}

/// What a column needs in a fitted table: its width with padding (a text
/// column counted at up to 16 characters, since it may wrap), and for one
/// whose cells do not wrap, their width.
struct ColumnWidth {
    need: usize,
    /// The widest cell, and the header on one line.
    longest: usize,
    header: usize,
    /// The narrowest the column may be: its widest cell for one whose
    /// cells do not wrap, its longest header word.
    least: usize,
    wraps: bool,
    /// The header's longest word; whether every cell is a number.
    word: usize,
    numeric: bool,
}

/// The width of each column's text at `width`: a column whose cells do not
/// wrap gets its widest cell; the text columns share what is left, each at
/// most its widest cell (the narrow ones first, so a short column is never
/// wrapped to feed a long one); what is still left widens headers to one
/// line.
fn allot(cols: &[&ColumnWidth], width: usize) -> Vec<usize> {
    let mut w: Vec<usize> = cols.iter().map(|c| c.least).collect();
    // Kept whole they are still too wide: the widest names wrap too (down
    // to their header's longest word, and not below 8).
    let mut over = (cols.len() * 2 + w.iter().sum::<usize>()).saturating_sub(width);
    let mut names: Vec<usize> = (0..cols.len())
        .filter(|&i| !cols[i].wraps && !cols[i].numeric)
        .collect();
    names.sort_by_key(|&i| std::cmp::Reverse(w[i]));
    for i in names {
        let floor = cols[i].word.max(8);
        let cut = w[i].saturating_sub(floor).min(over);
        w[i] -= cut;
        over -= cut;
    }
    let mut left = width.saturating_sub(cols.len() * 2 + w.iter().sum::<usize>());
    let mut texts: Vec<usize> = (0..cols.len()).filter(|&i| cols[i].wraps).collect();
    texts.sort_by_key(|&i| cols[i].longest);
    let mut n = texts.len();
    for i in texts {
        let share = left / n.max(1);
        let grow = cols[i]
            .longest
            .max(cols[i].least)
            .saturating_sub(w[i])
            .min(share);
        w[i] += grow;
        left -= grow;
        n -= 1;
    }
    for (i, c) in cols.iter().enumerate() {
        let grow = c.header.saturating_sub(w[i]).min(left);
        w[i] += grow;
        left -= grow;
    }
    w
}

fn column_widths(cols: &[Column], cells: &[Vec<String>]) -> Vec<ColumnWidth> {
    cols.iter()
        .enumerate()
        .map(|(i, c)| {
            let longest = cells
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0);
            let header = c.header.split(' ').map(str::len).max().unwrap_or(0);
            // Prose wraps at its spaces, and so does a very long word (a
            // path); a name (a setting, a model, an id) is kept whole.
            let wraps = c.cut
                || (!is_time_key(c.key)
                    && cells
                        .iter()
                        .any(|r| r[i].contains(' ') || r[i].chars().count() > 40));
            let body = if wraps { longest.min(16) } else { longest };
            let word = c.header.split(' ').map(str::len).max().unwrap_or(0);
            ColumnWidth {
                need: body.max(header) + 2,
                longest,
                header: c.header.len(),
                least: if wraps {
                    word.max(4)
                } else {
                    longest.max(word)
                },
                wraps,
                word,
                numeric: !cells.is_empty()
                    && cells.iter().all(|r| {
                        r[i].starts_with(|c: char| {
                            c.is_ascii_digit() || matches!(c, '$' | '<' | '-')
                        })
                    }),
            }
        })
        .collect()
}

/// Whether the short names of a model column's values are as many as the
/// names (`claude-sonnet-4-5` and `claude-sonnet-4-5-20250929` both shorten
/// to `sonnet-4-5`: such a column keeps the names whole).
fn short_names_stay_apart<'a>(values: impl Iterator<Item = &'a Value>, dated: bool) -> bool {
    let mut names = std::collections::HashSet::new();
    let mut shorts = std::collections::HashSet::new();
    for v in values {
        let items: Vec<&str> = match v {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for m in items {
            if names.insert(m) {
                shorts.insert(short_model(m, dated));
            }
        }
    }
    names.len() == shorts.len()
}

/// A time as a table that fits a width shows it: to the minute, or the day
/// when the rows span days, but for a window's bounds (a five-hour window
/// is told by its hours).
fn fitted_time(key: &str, text: String, day_only: bool) -> String {
    if is_time_key(key) && text.len() >= 16 && text.as_bytes()[10] == b'T' {
        let bound = key.starts_with("starts") || key.contains("resets") || key.starts_with("ends");
        return if day_only && !bound {
            text[..10].to_string()
        } else {
            format!("{} {}", &text[..10], &text[11..16])
        };
    }
    text
}

fn is_time_key(key: &str) -> bool {
    key.ends_with("_at") || key == "last_modified" || key == "at"
}

/// Whether the times of a table's rows fall on more than one day.
fn spans_days(cols: &[Column], rows: &[Value]) -> bool {
    let mut days = rows.iter().flat_map(|r| {
        cols.iter()
            .filter(|c| is_time_key(c.key))
            .filter_map(|c| r.get(c.key)?.as_str()?.get(..10))
    });
    let Some(first) = days.next() else {
        return false;
    };
    days.any(|d| d != first)
}

/// The columns a table keeps at `width`: every one when they fit, else
/// the optional ones left out, highest rank first, until the rest fit.
fn kept_columns(cols: &[Column], widths: &[ColumnWidth], width: Option<u16>) -> Vec<bool> {
    let mut keep = vec![true; cols.len()];
    let Some(width) = width else {
        return keep;
    };
    let need: Vec<usize> = widths.iter().map(|w| w.need).collect();
    let total = |keep: &[bool]| -> usize {
        need.iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(n, _)| n)
            .sum()
    };
    let mut order: Vec<usize> = (0..cols.len()).filter(|&i| cols[i].drop > 0).collect();
    // The highest rank first; among equals, the rightmost.
    order.sort_by_key(|&i| (std::cmp::Reverse(cols[i].drop), std::cmp::Reverse(i)));
    for i in order {
        if total(&keep) <= usize::from(width) {
            break;
        }
        keep[i] = false;
    }
    keep
}

/// A model's name as a table that fits a width shows it: without the
/// `claude-` family prefix and (with `dated`) a `-YYYYMMDD` release date
/// (`claude-sonnet-4-5-20250929` is `sonnet-4-5`).
fn short_model(m: &str, dated: bool) -> String {
    let m = m.strip_prefix("claude-").unwrap_or(m);
    match m.rsplit_once('-') {
        Some((head, date))
            if dated && date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head.to_string()
        }
        _ => m.to_string(),
    }
}

pub(super) fn vertical(cols: &[Column], row: &Value, out: &Output) -> String {
    let mut t = new_table(out);
    for c in cols {
        let text = cell_text(row.get(c.key), c.key);
        let text = if out.sanitize { sanitize(&text) } else { text };
        t.add_row(vec![format!("{}:", c.header), text]);
    }
    trim_lines(&t.to_string())
}

/// A table's lines without trailing blanks and without the one column of
/// padding every line starts with (more would shift a wrapped cell's
/// continuation, or a row whose first cell is empty, under the wrong column).
/// The padding is found past the colour codes a styled line starts with
/// (a bold header's), so that a header stays over its column.
fn trim_lines(s: &str) -> String {
    s.lines()
        .map(|l| {
            let l = l.trim_end();
            let mut at = 0;
            while l[at..].starts_with("\x1b[") {
                match l[at..].find('m') {
                    Some(m) => at += m + 1,
                    None => break,
                }
            }
            if l[at..].starts_with(' ') {
                format!("{}{}", &l[..at], &l[at + 1..])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A CSV field: quoted when it must be; control characters (other than the
/// tab and line feed CSV carries; a carriage return rewrites a terminal
/// line) and bidi overrides escaped, since a CSV is as often `cat` to a
/// terminal as opened in a spreadsheet.
fn csv_field(s: &str) -> String {
    let s = &crate::domain::text::block(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.clone()
    }
}

fn csv_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| csv_text(Some(x)))
            .collect::<Vec<_>>()
            .join(";"),
        Some(Value::Object(o)) => o
            .iter()
            .map(|(k, x)| format!("{k}={}", csv_text(Some(x))))
            .collect::<Vec<_>>()
            .join(";"),
        Some(other) => other.to_string(),
    }
}

pub(super) fn csv(w: &mut dyn Write, cols: &[Column], rows: &[Value]) -> Result<()> {
    let header: Vec<&str> = cols.iter().map(|c| c.key).collect();
    writeln!(w, "{}", header.join(","))?;
    for r in rows {
        let line: Vec<String> = cols
            .iter()
            .map(|c| csv_field(&csv_text(r.get(c.key))))
            .collect();
        writeln!(w, "{}", line.join(","))?;
    }
    Ok(())
}

mod ids;
use ids::id_lengths;
#[cfg(test)]
use ids::unique_prefix;

#[cfg(test)]
mod tests;
