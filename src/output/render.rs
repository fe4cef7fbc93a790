//! Table and CSV rendering of JSON records.

use std::io::Write;

use anyhow::Result;
use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use serde_json::Value;

use super::{Output, sanitize};

/// A column of a table or CSV: which key, under which header.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub key: &'static str,
    pub header: &'static str,
}

pub const fn col(key: &'static str, header: &'static str) -> Column {
    Column { key, header }
}

fn group_digits(n: i128) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

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
        Some(Value::Number(n)) if key == "cost_usd" => money(n.as_f64().unwrap_or(0.0)),
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

pub(super) fn table(cols: &[Column], rows: &[Value], out: &Output) -> String {
    let mut t = new_table(out);
    t.set_header(cols.iter().map(|c| {
        let cell = comfy_table::Cell::new(c.header.to_uppercase());
        if out.color {
            cell.add_attribute(comfy_table::Attribute::Bold)
        } else {
            cell
        }
    }));
    // Ids as their shortest unique prefix in a table that fits a width.
    let short: Vec<Option<usize>> = cols
        .iter()
        .map(|c| {
            (ID_KEYS.contains(&c.key) && !out.wide && fits_width(out))
                .then(|| unique_prefix(rows.iter().filter_map(|r| r.get(c.key)?.as_str())))
                .flatten()
        })
        .collect();
    let models_short = !out.wide && fits_width(out);
    for r in rows {
        t.add_row(cols.iter().zip(&short).map(|(c, short)| {
            let mut text = cell_text(r.get(c.key), c.key);
            if models_short && matches!(c.key, "model" | "models") {
                text = text
                    .split(", ")
                    .map(short_model)
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            if let Some(n) = short
                && text.chars().count() > *n
            {
                text = format!("{}…", text.chars().take(*n).collect::<String>());
            }
            let text = if out.sanitize { sanitize(&text) } else { text };
            let cell = comfy_table::Cell::new(text);
            if r.get(c.key).is_some_and(Value::is_number) {
                cell.set_alignment(CellAlignment::Right)
            } else {
                cell
            }
        }));
    }
    trim_lines(&t.to_string())
}

/// A model's name as a table that fits a width shows it: without the
/// `claude-` family prefix and a `-YYYYMMDD` release date
/// (`claude-sonnet-4-5-20250929` is `sonnet-4-5`).
fn short_model(m: &str) -> String {
    let m = m.strip_prefix("claude-").unwrap_or(m);
    match m.rsplit_once('-') {
        Some((head, date)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => {
            head.to_string()
        }
        _ => m.to_string(),
    }
}

/// Columns whose cells are ids a table may shorten.
const ID_KEYS: &[&str] = &["session_id", "memory_id", "run_id"];

/// The shortest prefix length (at least 8) that tells every id of `ids`
/// apart, when shorter than the longest id; `None` when nothing is gained.
fn unique_prefix<'a>(ids: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut ids: Vec<&str> = ids.collect();
    ids.sort_unstable();
    ids.dedup();
    let longest = ids.iter().map(|i| i.chars().count()).max()?;
    // Neighbours in sorted order share the longest prefixes.
    let shared = ids
        .windows(2)
        .map(|w| {
            w[0].chars()
                .zip(w[1].chars())
                .take_while(|(a, b)| a == b)
                .count()
        })
        .max()
        .unwrap_or(0);
    let n = (shared + 1).max(8);
    (n + 1 < longest).then_some(n)
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
fn trim_lines(s: &str) -> String {
    s.lines()
        .map(|l| l.trim_end().strip_prefix(' ').unwrap_or(l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A CSV field: quoted when it must be; control characters (other than the
/// tab and line breaks CSV carries) and bidi overrides escaped, since a CSV
/// is as often `cat` to a terminal as opened in a spreadsheet.
fn csv_field(s: &str) -> String {
    let s = &super::sanitize_keeping(s, &['\t', '\n', '\r']);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_lose_their_family_and_date_in_a_fitted_table() {
        assert_eq!(short_model("claude-sonnet-4-5-20250929"), "sonnet-4-5");
        assert_eq!(short_model("claude-opus-4-8"), "opus-4-8");
        assert_eq!(short_model("gpt-5"), "gpt-5");
        assert_eq!(short_model("gemini-2.5-pro"), "gemini-2.5-pro");
        assert_eq!(short_model("<synthetic>"), "<synthetic>");
    }

    #[test]
    fn ids_shorten_to_their_shortest_unique_prefix() {
        let ids = [
            "01a24232-e13b-774b-bf98-007af842d15e",
            "01a24232-e13b-774b-bf98-007af842d15f",
        ];
        assert_eq!(unique_prefix(ids.iter().copied()), None, "nothing gained");
        let ids = [
            "5a1f0c2e-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
            "5a1f0c2f-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
            "ad513e3b-613c-4417-968a-c6db9535f056",
        ];
        assert_eq!(unique_prefix(ids.iter().copied()), Some(8));
        let ids = [
            "5a1f0c2e-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
            "5a1f0c2e-7b3d-4e9f-9a6b-2c4d6e8f0a1b",
        ];
        assert_eq!(unique_prefix(ids.iter().copied()), Some(17));
        assert_eq!(
            unique_prefix(["only-one-id-here-0000"].into_iter()),
            Some(8)
        );
    }

    #[test]
    fn money_reads_as_people_read_it() {
        let cases = [
            (0.0, "$0.00"),
            (0.81, "$0.81"),
            (0.017493, "$0.02"),
            (1234.567, "$1,234.57"),
            (0.0014, "$0.0014"),
            (0.001_449, "$0.0014"),
            (0.000_052_1, "$0.000052"),
            (0.000_000_2, "<$0.000001"),
            (-0.5, "-$0.50"),
        ];
        for (usd, text) in cases {
            assert_eq!(money(usd), text, "{usd}");
        }
    }
    use serde_json::json;

    #[test]
    fn csv_quotes_and_flattens() {
        let mut buf = Vec::new();
        let cols = [col("a", "A"), col("b", "B"), col("c", "C")];
        csv(
            &mut buf,
            &cols,
            &[
                json!({"a": "x,\"y\"", "b": ["m1", "m2"], "c": null}),
                json!({"a": "red \u{1b}[31mtext\u{7}", "b": "two\nlines\ttab", "c": "\u{202e}rtl"}),
            ],
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "a,b,c\n\"x,\"\"y\"\"\",m1;m2,\nred \\u{1b}[31mtext\\u{7},\"two\nlines\ttab\",\\u{202e}rtl\n"
        );
    }

    #[test]
    fn digits_are_grouped_for_token_columns() {
        assert_eq!(
            cell_text(Some(&json!(1234567)), "input_tokens"),
            "1,234,567"
        );
        assert_eq!(cell_text(Some(&json!(1234567)), "records"), "1234567");
    }
}
