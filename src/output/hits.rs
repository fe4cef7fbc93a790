//! Search hits on a terminal (`search` with no format asked): each hit in
//! at most three lines: a heading (when, project, who said it, how to open
//! it) and its snippet in one or two lines cut at word boundaries, the
//! matched words highlighted (bold and colour; plain without colour),
//! never the `**` marks the records carry.

use crate::domain::text;
use crate::output::records::SearchHitRecord;
use crate::output::tree::clip;

/// Columns a snippet line is indented by.
const INDENT: usize = 2;
/// Lines a snippet takes at most.
const SNIPPET_LINES: usize = 2;

/// A word of a snippet: its parts, each marked (matched) or not.
type Word = Vec<(String, bool)>;

/// The words of a snippet whose matches sit between `**`, controls and
/// line breaks made visible.
fn words(snippet: &str) -> Vec<Word> {
    let mut out = Vec::new();
    for raw in snippet.split_whitespace() {
        let mut word: Word = Vec::new();
        for (i, part) in raw.split("**").enumerate() {
            if !part.is_empty() {
                word.push((text::one_line(part), i % 2 == 1));
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

fn width_of(w: &Word) -> usize {
    w.iter().map(|(s, _)| s.chars().count()).sum()
}

/// `words` laid in lines of at most `width` columns, at most `lines` of
/// them; the last ends with `…` when words were left over (a word longer
/// than a line is cut).
fn wrap(words: &[Word], width: usize, lines: usize) -> Vec<Vec<Word>> {
    let width = width.max(8);
    let mut out: Vec<Vec<Word>> = Vec::new();
    let mut line: Vec<Word> = Vec::new();
    let mut used = 0;
    let mut rest = words.iter();
    for w in rest.by_ref() {
        let need = width_of(w) + usize::from(!line.is_empty());
        if used + need > width && !line.is_empty() {
            out.push(std::mem::take(&mut line));
            used = 0;
            if out.len() == lines {
                break;
            }
        }
        let mut w = w.clone();
        if width_of(&w) > width {
            w = cut(&w, width - 1);
            w.push(("…".into(), false));
        }
        used += width_of(&w) + usize::from(!line.is_empty());
        line.push(w);
    }
    let left_over = out.len() == lines;
    if !line.is_empty() && out.len() < lines {
        out.push(line);
    }
    if left_over && let Some(last) = out.last_mut() {
        // Room for the ellipsis: drop words until it fits.
        let mut used: usize =
            last.iter().map(width_of).sum::<usize>() + last.len().saturating_sub(1);
        while used + 1 > width && last.len() > 1 {
            let w = last.pop().expect("more than one word");
            used -= width_of(&w) + 1;
        }
        if let Some(w) = last.last_mut()
            && !w.last().is_some_and(|(s, _)| s.ends_with('…'))
        {
            w.push(("…".into(), false));
        }
    }
    out
}

/// The first `n` columns of a word.
fn cut(w: &Word, mut n: usize) -> Word {
    let mut out = Word::new();
    for (s, m) in w {
        if n == 0 {
            break;
        }
        let part: String = s.chars().take(n).collect();
        n -= part.chars().count();
        out.push((part, *m));
    }
    out
}

/// A hit's heading: `at  project · harness who`, and the command that
/// opens it at the right; the project gives way first, then the command.
fn heading(h: &SearchHitRecord, open: &str, width: usize, (dim, undim): (&str, &str)) -> String {
    let at =
        h.at.as_deref()
            .map(|a| a.get(..16).unwrap_or(a).replace('T', " "))
            .unwrap_or_else(|| "-".into());
    let who = match (h.role.as_str(), h.tool.as_deref()) {
        ("tool", Some(t)) if h.output => format!("{} output", text::one_line(t)),
        ("tool", Some(t)) => text::one_line(t),
        (role, _) => role.to_string(),
    };
    let who = if h.similar > 0 {
        format!("{who} (+{} like it)", h.similar)
    } else {
        who
    };
    let project = text::one_line(h.project.as_deref().unwrap_or("-"));
    // The session's title after its project: both give way together.
    let project = match h.title.as_deref() {
        Some(t) => format!("{project}: {}", text::one_line(t)),
        None => project,
    };
    let harness = text::one_line(&h.harness);
    // The heading: `at  project · harness who` then the opener at the
    // right; the project gives way first, then the opener goes.
    let fixed = at.chars().count() + 2 + 3 + harness.chars().count() + 1 + who.chars().count();
    let (project, open) = if fixed + project.chars().count() + 2 + open.chars().count() <= width {
        (project, open)
    } else if fixed + 8 + 2 + open.chars().count() <= width {
        let room = width - fixed - 2 - open.chars().count();
        (clip(&project, room), open)
    } else {
        (clip(&project, width.saturating_sub(fixed).max(4)), "")
    };
    let heading = format!("{at}  {project} · {harness} {who}");
    let heading = clip(&heading, width);
    let pad = width.saturating_sub(heading.chars().count() + open.chars().count());
    if open.is_empty() {
        format!("{heading}\n")
    } else {
        format!("{heading}{}{dim}{open}{undim}\n", " ".repeat(pad.max(2)))
    }
}

/// The hits, for a terminal `width` columns wide. `opens` gives each hit's
/// shortest command to open it (`show S --at R`, each id a prefix that
/// still names it alone; the records' `open` is the full command).
pub fn terminal(hits: &[SearchHitRecord], opens: &[String], width: usize, color: bool) -> String {
    let (on, off) = if color {
        ("\x1b[1;33m", "\x1b[0m")
    } else {
        ("", "")
    };
    let (dim, undim) = if color {
        ("\x1b[2m", "\x1b[0m")
    } else {
        ("", "")
    };
    let width = width.max(40);
    let mut out = String::new();
    for (h, open) in hits.iter().zip(opens) {
        out.push_str(&heading(h, &text::one_line(open), width, (dim, undim)));
        for line in wrap(&words(&h.snippet), width - INDENT, SNIPPET_LINES) {
            out.push_str(&" ".repeat(INDENT));
            let mut first = true;
            for w in line {
                if !first {
                    out.push(' ');
                }
                first = false;
                for (s, marked) in w {
                    if marked {
                        out.push_str(&format!("{on}{s}{off}"));
                    } else {
                        out.push_str(&s);
                    }
                }
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snippet_wraps_at_words_in_two_lines_with_its_matches_unmarked() {
        let ws = words("the **deploy** of the billing service went out at noon today");
        let lines = wrap(&ws, 20, 2);
        let plain: Vec<String> = lines
            .iter()
            .map(|l| {
                l.iter()
                    .map(|w| w.iter().map(|(s, _)| s.as_str()).collect::<String>())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(plain, ["the deploy of the", "billing service…"]);
        assert!(lines[0][1][0].1, "deploy is marked");
        assert!(!lines[0][0][0].1);
        // Short enough: one line, no ellipsis.
        assert_eq!(wrap(&words("a **b** c"), 20, 2).len(), 1);
    }
}
