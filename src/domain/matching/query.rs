//! A typed search query as an FTS5 expression, read as `recall` reads
//! words (case folded, stemmed by the index, alias groups, the last word
//! also as a prefix) but every word required: a transcript search narrows
//! as words are added, as a search box does.

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
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
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
    if out.is_empty() { stops } else { out }
}

fn quote(words: &[String]) -> String {
    format!("\"{}\"", words.join(" ").replace('"', "\"\""))
}

/// The FTS5 expression for `query`: every part required (`AND`); a word
/// matches any word of its alias group; the query's last part, when it
/// is a word of three letters or more and not quoted, also matches as a
/// prefix (`deplo` finds "deployment"). Every word is quoted, so no FTS5
/// syntax in the query is read as syntax. `None` when the query has no
/// words.
pub fn search_expression(query: &str, aliases: &Aliases) -> Option<String> {
    let parts = parts(query);
    let open_end = !query.trim_end().ends_with('"');
    let n = parts.len();
    let groups: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Part::Phrase(w) => quote(w),
            Part::Word(w) => {
                let mut any: Vec<String> = Vec::new();
                for v in aliases.variants(w) {
                    let q = quote(&words(&v));
                    if !any.contains(&q) {
                        any.push(q);
                    }
                }
                if i + 1 == n && open_end && w.chars().count() >= 3 {
                    any.push(format!("{}*", quote(std::slice::from_ref(w))));
                }
                if any.len() == 1 {
                    any.remove(0)
                } else {
                    format!("({})", any.join(" OR "))
                }
            }
        })
        .collect();
    (!groups.is_empty()).then(|| groups.join(" AND "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(q: &str) -> Option<String> {
        search_expression(q, &Aliases::default())
    }

    #[test]
    fn every_word_is_required_and_the_last_is_a_prefix_too() {
        assert_eq!(
            expr("migrate deplo").as_deref(),
            Some(r#""migrate" AND ("deplo" OR "deplo"*)"#)
        );
        // Stop words say nothing unless they are all there is.
        assert_eq!(
            expr("the cache").as_deref(),
            Some(r#"("cache" OR "cache"*)"#)
        );
        assert_eq!(expr("the").as_deref(), Some(r#"("the" OR "the"*)"#));
        assert_eq!(expr("  ,; ").as_deref(), None);
    }

    #[test]
    fn identifiers_paths_and_quotes_are_phrases() {
        assert_eq!(
            expr("src/api/routes.ts parse_config").as_deref(),
            Some(r#""src api routes ts" AND "parse config""#)
        );
        assert_eq!(
            expr(r#""cargo test" ok"#).as_deref(),
            Some(r#""cargo test" AND "ok""#)
        );
        // A quoted last part is not a prefix.
        assert_eq!(
            expr(r#"run "deploy""#).as_deref(),
            Some(r#""run" AND "deploy""#)
        );
    }

    #[test]
    fn query_syntax_is_never_read_as_syntax() {
        assert_eq!(
            expr("NEAR(a b) OR col:x*").as_deref(),
            Some(r#""near a" AND "b" AND "col x""#)
        );
    }

    #[test]
    fn a_word_finds_its_alias_group() {
        let a = Aliases::default();
        let e = search_expression("postgres", &a).unwrap();
        for v in a.variants("postgres") {
            assert!(e.contains(&format!("\"{v}\"")), "{e} lacks {v}");
        }
    }
}
