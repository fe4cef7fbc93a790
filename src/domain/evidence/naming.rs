//! How a clause names a commitment: the commitment's terms as units
//! (an identifier or compound with its words), the share of a field's
//! weight a clause names, its own id, and what makes a clause speak of
//! another thing (a contrast, a sibling name).

use std::collections::HashMap;

use super::lexicon::{CONTRASTS, PREPOSITIONS};
use crate::domain::closer::Commitment;
use crate::domain::matching::{self, Aliases, Strength};

/// Share of a field's term weight a clause must name.
const COVERAGE: f32 = 0.5;

/// Whether `keys` name another of a contrast group the commitment's units
/// name, and not the commitment's own.
pub(super) fn contrasted(units: &[&Unit], keys: &[String]) -> bool {
    CONTRASTS.iter().any(|group| {
        let mine: Vec<&str> = group
            .iter()
            .copied()
            .filter(|g| units.iter().any(|u| u.key == *g))
            .collect();
        !mine.is_empty()
            && !mine.iter().any(|m| keys.iter().any(|k| k == m))
            && group
                .iter()
                .any(|g| !mine.contains(g) && keys.iter().any(|k| k == g))
    })
}

/// Whether the clause names a sibling of a hyphenated name of the
/// commitment's (`billing-service` for `invoicing-service`: the same kind
/// of thing, another one) and not the commitment's own.
pub(super) fn sibling(c: &Commitment<'_>, clause: &str) -> bool {
    pub(super) fn names(text: &str) -> Vec<(String, String)> {
        text.to_lowercase()
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-'))
            .filter_map(|w| {
                let (head, tail) = w.trim_matches('-').rsplit_once('-')?;
                (head.len() >= 2 && tail.len() >= 2 && !head.contains('-'))
                    .then(|| (head.to_string(), tail.to_string()))
            })
            .collect()
    }
    let mine = names(&format!("{} {}", c.topic, c.content));
    let said = names(clause);
    mine.iter().any(|(head, tail)| {
        !said.iter().any(|(h, t)| h == head && t == tail)
            && said.iter().any(|(h, t)| t == tail && h != head)
    })
}

/// One commitment's terms: units of the topic and of the content, each a
/// key (and, for an identifier or compound, its words) with a weight.
pub(super) struct Profile<'a> {
    pub(super) c: &'a Commitment<'a>,
    pub(super) topic: Vec<Unit>,
    pub(super) content: Vec<Unit>,
    /// The keys of the topic's head: its words before its first
    /// preposition (`page numbers` of `page numbers on statement PDFs`).
    pub(super) head: Vec<String>,
}

/// The keys of a topic's head: the words before its first preposition,
/// when it has one and words before it (else none: the whole topic is its
/// head).
pub(super) fn head_keys(topic: &str, aliases: &Aliases) -> Vec<String> {
    let words: Vec<&str> = topic.split_whitespace().collect();
    let Some(at) = words
        .iter()
        .position(|w| PREPOSITIONS.contains(&w.to_lowercase().as_str()))
        .filter(|&at| at > 0)
    else {
        return Vec::new();
    };
    matching::terms(&words[..at].join(" "), aliases)
        .into_iter()
        .map(|t| t.key)
        .collect()
}

#[derive(Debug, Clone)]
pub(super) struct Unit {
    pub(super) key: String,
    pub(super) parts: Vec<String>,
    pub(super) strength: Strength,
}

/// The units of a text: each term, with the words of an identifier or a
/// compound folded into it; a key counted once.
pub(super) fn units(text: &str, aliases: &Aliases) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    for t in matching::terms(text, aliases) {
        let whole_before = out
            .last()
            .is_some_and(|u| u.strength >= Strength::Compound && t.strength == Strength::Part);
        if whole_before {
            let last = out.last_mut().expect("checked");
            if !last.parts.contains(&t.key) {
                last.parts.push(t.key);
            }
            continue;
        }
        if let Some(u) = out.iter_mut().find(|u| u.key == t.key) {
            u.strength = u.strength.max(t.strength);
            continue;
        }
        out.push(Unit {
            key: t.key,
            parts: Vec::new(),
            strength: t.strength,
        });
    }
    out
}

impl Unit {
    /// How much of the unit `keys` name (0 to 1): all of it when its key is
    /// there, else the share of its words that are.
    pub(super) fn matched(&self, keys: &[String]) -> f32 {
        if keys.contains(&self.key) {
            return 1.0;
        }
        if self.parts.is_empty() {
            return 0.0;
        }
        let n = self.parts.iter().filter(|p| keys.contains(p)).count();
        n as f32 / self.parts.len() as f32
    }

    pub(super) fn all_keys(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.key).chain(&self.parts)
    }
}

/// How well `keys` name a profile's field: the share of its weight named,
/// the number of its non-generic units named, and whether one of those is
/// the commitment's alone.
pub(super) fn field_score(
    units: &[Unit],
    keys: &[String],
    shared: &HashMap<String, usize>,
) -> (f32, usize, bool) {
    let total: f32 = units.iter().map(|u| u.strength.weight()).sum();
    if total == 0.0 {
        return (0.0, 0, false);
    }
    let (mut got, mut named, mut own) = (0.0, 0, false);
    for u in units {
        let m = u.matched(keys);
        if m == 0.0 {
            continue;
        }
        got += m * u.strength.weight();
        if u.strength > Strength::Part {
            named += 1;
            if shared.get(&u.key).copied().unwrap_or(0) <= 1 {
                own = true;
            }
        }
    }
    (got / total, named, own)
}

impl Profile<'_> {
    /// Whether the clause with term keys `keys` names this commitment.
    pub(super) fn named_by(&self, keys: &[String], shared: &HashMap<String, usize>) -> bool {
        self.named_how(keys, shared).is_some()
    }

    /// How the clause with term keys `keys` names this commitment, if it
    /// does: by an `identifier` of its own, or by its `topic`'s or
    /// `content`'s words.
    pub(super) fn named_how(
        &self,
        keys: &[String],
        shared: &HashMap<String, usize>,
    ) -> Option<&'static str> {
        // An identifier, file name or number of its own.
        let ident = self
            .topic
            .iter()
            .chain(&self.content)
            .filter(|u| u.strength == Strength::Identifier && keys.contains(&u.key))
            .any(|u| shared.get(&u.key).copied().unwrap_or(0) <= 1);
        if ident {
            return Some("identifier");
        }
        // A topic named only by its setting (`statement PDFs` of `page
        // numbers on statement PDFs`) is another thing in the same place.
        let head = self.head.is_empty() || self.head.iter().any(|k| keys.contains(k));
        [(&self.topic, "topic"), (&self.content, "content")]
            .iter()
            .enumerate()
            .find(|(i, (field, _))| {
                if *i == 0 && !head {
                    return false;
                }
                let (cover, named, own) = field_score(field, keys, shared);
                let needed = field
                    .iter()
                    .filter(|u| u.strength > Strength::Part)
                    .count()
                    .min(2);
                own && named >= needed.max(1) && cover >= COVERAGE && named >= 2.min(field.len())
            })
            .map(|(_, (_, how))| *how)
    }
}

/// Whether a word of the clause (8 characters or more) begins this
/// commitment's id and no other's: a briefing's short id.
pub(super) fn names_id(words: &[String], id: &str, ids: &[String]) -> bool {
    let id = id.to_lowercase();
    words.iter().any(|w| {
        w.len() >= 8
            && id.starts_with(w.as_str())
            && ids.iter().filter(|i| i.starts_with(w.as_str())).count() == 1
    })
}
