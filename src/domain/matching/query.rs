//! A typed search query as an FTS5 expression, read as `recall` reads
//! words (case folded, stemmed by the index, alias groups, the last word
//! also as a prefix) but every word required: a transcript search narrows
//! as words are added, as a search box does.

use super::terms::{fold, term};
use super::{Aliases, is_stop};

/// One required part of a query: a word (with its alias group and, for
/// the last, its prefix) or a phrase (a quoted run, or an identifier or
/// path whose words must stand together).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Word(String),
    Phrase(Vec<String>),
}

/// The words of a chunk, folded: runs of letters and digits.
fn words(s: &str) -> Vec<String> {
    super::terms::words(s)
        .map(|w| fold(w).into_owned())
        .collect()
}

/// The query's parts, in order: `"quoted words"` are one phrase; any other
/// chunk of several words (`parse_config`, `src/api/routes.ts`) is a phrase
/// too; stop words are left out unless nothing else is asked.
fn parts(query: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut stops = Vec::new();
    for (i, piece) in query.split('"').enumerate() {
        if i % 2 == 1 {
            let w = words(piece);
            if !w.is_empty() {
                out.push(Part::Phrase(w));
            }
            continue;
        }
        for chunk in piece.split_whitespace() {
            let mut w = words(chunk);
            match w.len() {
                0 => {}
                1 => {
                    let word = w.remove(0);
                    if is_stop(&word) {
                        stops.push(Part::Word(word));
                    } else {
                        out.push(Part::Word(word));
                    }
                }
                _ => out.push(Part::Phrase(w)),
            }
        }
    }
    let mut parts = if out.is_empty() { stops } else { out };
    // A part said twice asks nothing more (every part is required): each
    // is kept once, at its last place (the last word stays the prefix).
    let mut seen: Vec<Part> = Vec::with_capacity(parts.len());
    for p in parts.drain(..).rev() {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen.reverse();
    seen
}

/// The most bytes a query may have, and the most distinct parts: a search
/// is a few words, and every part is a term of the index's expression
/// and a pass of the highlighter.
pub const MAX_QUERY_BYTES: usize = 1024;
pub const MAX_QUERY_PARTS: usize = 64;

/// Why `query` is too large to search, if it is.
pub fn too_large(query: &str) -> Option<String> {
    if query.len() > MAX_QUERY_BYTES {
        return Some(format!(
            "the query is {} bytes: a search takes at most {MAX_QUERY_BYTES} (a few words, not a document)",
            query.len()
        ));
    }
    let n = parts(query).len();
    (n > MAX_QUERY_PARTS).then(|| {
        format!(
            "the query has {n} different words or phrases: a search takes at most {MAX_QUERY_PARTS}"
        )
    })
}

fn quote(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

/// A query as the transcript index takes it: an FTS5 expression over the
/// index's terms (`index_terms`), and the phrases a text must also hold
/// (`holds_phrases`), since the index knows which texts hold a term but
/// not where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchExpression {
    pub fts: String,
    /// Each phrase's terms, in order (phrases of two terms or more).
    pub phrases: Vec<Vec<String>>,
}

/// `words`' terms, all required: one term alone, else a group.
fn all_of(terms: &[String]) -> String {
    let mut seen: Vec<&String> = Vec::new();
    for t in terms {
        if !seen.contains(&t) {
            seen.push(t);
        }
    }
    let quoted: Vec<String> = seen.iter().map(|t| quote(t)).collect();
    if quoted.len() == 1 {
        quoted[0].clone()
    } else {
        format!("({})", quoted.join(" AND "))
    }
}

/// The search expression for `query`: every part required (`AND`); a word
/// matches any word of its alias group (a group's word of several words
/// needs them all); the query's last part, when it is a word of three
/// letters or more, not quoted, and not a term the index holds (`indexed`:
/// a word still being typed), also matches as a prefix (`deplo` finds
/// "deployment"); a phrase needs its terms, and a text holding them one
/// after another. Every term is quoted, so no FTS5 syntax in the query is
/// read as syntax. `None` when the query has no words.
pub fn search_expression(
    query: &str,
    aliases: &Aliases,
    indexed: &dyn Fn(&str) -> bool,
) -> Option<SearchExpression> {
    let parts = parts(query);
    let open_end = !query.trim_end().ends_with('"');
    let n = parts.len();
    let mut phrases = Vec::new();
    let groups: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Part::Phrase(w) => {
                let terms: Vec<String> = w.iter().map(|w| term(w)).collect();
                if terms.len() > 1 && !phrases.contains(&terms) {
                    phrases.push(terms.clone());
                }
                all_of(&terms)
            }
            Part::Word(w) => {
                let mut any: Vec<String> = Vec::new();
                for v in aliases.variants(w) {
                    let terms: Vec<String> = words(&v).iter().map(|w| term(w)).collect();
                    let q = all_of(&terms);
                    if !terms.is_empty() && !any.contains(&q) {
                        any.push(q);
                    }
                }
                if i + 1 == n && open_end && w.chars().count() >= 3 && !indexed(&term(w)) {
                    any.push(format!("{}*", quote(&fold(w))));
                }
                if any.len() == 1 {
                    any.remove(0)
                } else {
                    format!("({})", any.join(" OR "))
                }
            }
        })
        .collect();
    (!groups.is_empty()).then(|| SearchExpression {
        fts: groups.join(" AND "),
        phrases,
    })
}

/// What a search's words match in a text, to mark them in a snippet: the
/// query's words and their alias groups, by stem, the last also as a
/// prefix (as the index matched them).
pub struct Highlighter {
    /// Each word's stem, its folded form, and whether it is a prefix.
    words: Vec<(String, String, bool)>,
}

impl Highlighter {
    /// The highlighter of `query`.
    pub fn new(query: &str, aliases: &Aliases) -> Highlighter {
        let parts = parts(query);
        let open_end = !query.trim_end().ends_with('"');
        let n = parts.len();
        let mut words = Vec::new();
        let mut add = |w: &str, prefix: bool| {
            let entry = (term(w), w.to_string(), prefix);
            if !words.contains(&entry) {
                words.push(entry);
            }
        };
        for (i, p) in parts.iter().enumerate() {
            match p {
                Part::Phrase(ws) => ws.iter().for_each(|w| add(w, false)),
                Part::Word(w) => {
                    for v in aliases.variants(w) {
                        for vw in self::words(&v) {
                            add(&vw, false);
                        }
                    }
                    if i + 1 == n && open_end && w.chars().count() >= 3 {
                        add(w, true);
                    }
                }
            }
        }
        Highlighter { words }
    }

    fn matches(&self, token: &str) -> bool {
        let folded = fold(token);
        let stem = term(&folded);
        self.words.iter().any(|(s, w, prefix)| {
            *w == folded || *s == stem || (*prefix && folded.starts_with(w.as_str()))
        })
    }

    /// The part of `text` richest in matched words, at most `tokens` words
    /// long, each match between `**`; `…` where the text was cut. A text
    /// with no word matched (the match was its tool's name) gives its
    /// start.
    pub fn snippet(&self, text: &str, tokens: usize) -> String {
        let spans: Vec<(usize, usize)> = token_spans(text);
        if spans.is_empty() {
            return text.trim().to_string();
        }
        let hit: Vec<bool> = spans
            .iter()
            .map(|&(a, b)| self.matches(&text[a..b]))
            .collect();
        let tokens = tokens.max(1);
        // The window with the most matches (the earliest of equals).
        let mut best = (0usize, 0usize);
        let mut count = hit.iter().take(tokens).filter(|h| **h).count();
        best.1 = count;
        for start in 1..spans.len().saturating_sub(tokens - 1) {
            count -= usize::from(hit[start - 1]);
            count += usize::from(hit[start + tokens - 1]);
            if count > best.1 {
                best = (start, count);
            }
        }
        // Within it, the matches a third of the way in: words before them
        // say what they are about.
        let end = (best.0 + tokens).min(spans.len());
        let first = match (
            hit[best.0..end].iter().position(|h| *h),
            hit[best.0..end].iter().rposition(|h| *h),
        ) {
            (Some(f), Some(l)) => {
                let (f, l) = (best.0 + f, best.0 + l);
                let lowest = (l + 1).saturating_sub(tokens);
                f.saturating_sub(tokens / 3)
                    .max(lowest)
                    .min(spans.len().saturating_sub(tokens))
            }
            _ => best.0,
        };
        let last = (first + tokens).min(spans.len()) - 1;
        let mut out = String::new();
        if first > 0 {
            out.push('…');
        }
        // From the text's start (its leading `/` or `#` kept) when the
        // snippet starts with its first word.
        let mut at = if first == 0 {
            text.len() - text.trim_start().len()
        } else {
            spans[first].0
        };
        for i in first..=last {
            let (a, b) = spans[i];
            out.push_str(&text[at..a]);
            if hit[i] {
                out.push_str("**");
                out.push_str(&text[a..b]);
                out.push_str("**");
            } else {
                out.push_str(&text[a..b]);
            }
            at = b;
        }
        if last + 1 < spans.len() {
            out.push('…');
        } else {
            out.push_str(text[at..].trim_end());
        }
        out
    }
}

/// The byte spans of a text's words (runs of letters and digits), as the
/// index's tokenizer cuts them.
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_word_is_asked_once_and_a_huge_query_is_refused() {
        let a = Aliases::with("").unwrap();
        let many = "deploy ".repeat(800);
        assert_eq!(
            search_expression(&many, &a, &|_| false),
            search_expression("deploy", &a, &|_| false)
        );
        assert_eq!(
            search_expression("deploy fix deploy", &a, &|_| false),
            search_expression("fix deploy", &a, &|_| false)
        );
        assert_eq!(too_large(&"deploy ".repeat(140)), None);
        assert!(too_large(&"x".repeat(1025)).unwrap().contains("1025 bytes"));
        let distinct: String = (0..70).map(|i| format!("w{i} ")).collect();
        assert!(too_large(&distinct).unwrap().contains("70 different words"));
    }

    fn expr(q: &str) -> Option<String> {
        search_expression(q, &Aliases::default(), &|_| false).map(|e| e.fts)
    }

    fn phrases(q: &str) -> Vec<Vec<String>> {
        search_expression(q, &Aliases::default(), &|_| false)
            .map(|e| e.phrases)
            .unwrap_or_default()
    }

    /// Words are asked as the index's terms (folded, stemmed); the last
    /// also as a prefix of its folded form.
    #[test]
    fn every_word_is_required_and_the_last_is_a_prefix_too() {
        assert_eq!(
            expr("Migrating deplo").as_deref(),
            Some(r#""migrat" AND ("deplo" OR "deplo"*)"#)
        );
        // Stop words say nothing unless they are all there is.
        assert_eq!(
            expr("the caches").as_deref(),
            Some(r#"("cach" OR "caches"*)"#)
        );
        assert_eq!(expr("the").as_deref(), Some(r#"("the" OR "the"*)"#));
        assert_eq!(expr("Café").as_deref(), Some(r#"("cafe" OR "cafe"*)"#));
        assert_eq!(expr("  ,; ").as_deref(), None);
        assert!(phrases("Migrating deplo").is_empty());
        // A whole word the index holds is not a prefix: it is not being
        // typed, and a prefix reads every term it starts.
        let held = search_expression("cache", &Aliases::default(), &|t| t == "cach");
        assert_eq!(held.unwrap().fts, r#""cach""#);
    }

    /// A phrase asks for its terms, and is checked in the text.
    #[test]
    fn identifiers_paths_and_quotes_are_phrases() {
        assert_eq!(
            expr("src/api/routes.ts parse_config").as_deref(),
            Some(r#"("src" AND "api" AND "rout" AND "ts") AND ("pars" AND "config")"#)
        );
        assert_eq!(
            phrases("src/api/routes.ts parse_config"),
            vec![vec!["src", "api", "rout", "ts"], vec!["pars", "config"]]
        );
        assert_eq!(
            expr(r#""cargo test" ok"#).as_deref(),
            Some(r#"("cargo" AND "test") AND "ok""#)
        );
        // A quoted last part is not a prefix; a quoted word is a word.
        assert_eq!(
            expr(r#"run "deploy""#).as_deref(),
            Some(r#""run" AND "deploy""#)
        );
        assert!(phrases(r#"run "deploy""#).is_empty());
        // A phrase's repeated word is asked once, and checked in place.
        assert_eq!(expr(r#""a b a""#).as_deref(), Some(r#"("a" AND "b")"#));
        assert_eq!(phrases(r#""a b a""#), vec![vec!["a", "b", "a"]]);
    }

    #[test]
    fn query_syntax_is_never_read_as_syntax() {
        assert_eq!(
            expr("NEAR(a b) OR col:x*").as_deref(),
            Some(r#"("near" AND "a") AND "b" AND ("col" AND "x")"#)
        );
    }

    #[test]
    fn a_snippet_marks_stems_prefixes_and_phrases_where_they_are_densest() {
        let a = Aliases::default();
        let h = Highlighter::new("deploy migra", &a);
        assert_eq!(
            h.snippet("We deployed it. Then the migration ran.", 24),
            "We **deployed** it. Then the **migration** ran."
        );
        let h = Highlighter::new("src/api/routes.ts", &a);
        assert_eq!(
            h.snippet("edit src/api/routes.ts now", 24),
            "edit **src**/**api**/**routes**.**ts** now"
        );
        let long = format!("{}needle {}", "word ".repeat(30), "tail ".repeat(30));
        let h = Highlighter::new("needle", &a);
        assert_eq!(h.snippet(&long, 5), "…word **needle** tail tail tail…");
        // Nothing matched in the text: its start.
        assert_eq!(Highlighter::new("Bash", &a).snippet("ls -la", 24), "ls -la");
    }

    #[test]
    fn a_word_finds_its_alias_group() {
        let a = Aliases::default();
        let e = search_expression("postgres", &a, &|_| false).unwrap().fts;
        for v in a.variants("postgres") {
            assert!(e.contains(&format!("\"{}\"", term(&v))), "{e} lacks {v}");
        }
    }
}
