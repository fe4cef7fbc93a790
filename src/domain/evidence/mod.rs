//! The closer's offline `evidence` judge: which briefed commitments a
//! finished run's own words show done. Pure.
//!
//! It reads the final message and the last assistant turns a clause at a
//! time (sentences, lines, and their parts joined by *but*, *however*,
//! *although*), with quoted and pasted text taken out. A clause resolves a
//! commitment when it
//! - names it: the commitment's id; or one of its identifiers, file names or
//!   numbers that no other briefed commitment has; or half the weight of
//!   its topic's (or content's) terms, two of them at least, one that no
//!   other commitment shares (`matching` folds case, stems and aliases);
//! - says it is done: a completion word (*fixed*, *merged*, *landed*,
//!   *passes*, ✓, `[x]`, *is in*), the commitment's own verb in the past
//!   (*migrated*), a past-tense verb opening the clause, or a line under a
//!   heading such as *Done*;
//! - and takes none of it back: no negation, hedge, plan, failure or
//!   reversal in the clause (*not yet*, *couldn't*, *still failing*,
//!   *untouched*, *reverted*, *next I will*, *TODO*), no question, no
//!   other commitment's id.
//!
//! It stays conservative: a resolve it should not make is worse than one
//! it misses (the agent can always resolve its own work).

mod clauses;

use clauses::{Clause, clauses, unquoted};

mod lexicon;

mod naming;

use naming::{Profile, Unit, contrasted, head_keys, names_id, sibling, units};

use lexicon::Veto;
use lexicon::{
    DONE, DONE_PAIRS, LOOKED, LOOKING, NOT_DONE, VETO_ENDINGS, VETO_MARKS, VETO_PHRASES, VETO_WORDS,
};

use std::collections::HashMap;

use super::closer::{Commitment, Verdict};
use crate::domain::matching::{self, Aliases, Strength};

/// The longest clause the judge reads as one statement (bytes).
const MAX_CLAUSE: usize = 400;

impl Clause<'_> {
    /// Whether anything in the clause takes a statement back.
    fn vetoed(&self) -> bool {
        self.veto().is_some()
    }

    /// What in the clause takes a statement back, if anything: the
    /// first function that does, in the order the section, the sentence
    /// and the words say it.
    fn veto(&self) -> Option<Veto> {
        let t = self.text.trim_start_matches(['-', '*', ' ']);
        if self.heading == Some(false)
            || t.starts_with("[ ]")
            || VETO_MARKS.iter().any(|m| t.contains(m))
        {
            return Some(Veto::Open);
        }
        if self.question {
            return Some(Veto::Question);
        }
        if self.reversed {
            return Some(Veto::Reversal);
        }
        let w = &self.words;
        for word in w {
            if let Some((v, _)) = VETO_WORDS.iter().find(|(_, l)| l.contains(&word.as_str())) {
                return Some(*v);
            }
            if let Some((v, _)) = VETO_ENDINGS.iter().find(|(_, e)| word.ends_with(e)) {
                return Some(*v);
            }
            if LOOKING.contains(&word.as_str()) {
                return Some(Veto::Looking);
            }
            if NOT_DONE.contains(&word.as_str()) {
                return Some(Veto::Negation);
            }
        }
        VETO_PHRASES.iter().find_map(|(v, phrases)| {
            phrases
                .iter()
                .any(|p| {
                    let p: Vec<&str> = p.split(' ').collect();
                    w.windows(p.len())
                        .any(|x| x.iter().zip(&p).all(|(a, b)| a == b))
                })
                .then_some(*v)
        })
    }

    /// How the clause says something is done, if it does, for
    /// commitments whose unit keys are `own` (their own verbs count in the
    /// past): the rule's name.
    fn done(&self, own: &[&Unit]) -> Option<&'static str> {
        let t = self.text.trim_start_matches(['-', '*', ' ']);
        if self.heading == Some(true) {
            return Some("done-section");
        }
        if t.starts_with('✓')
            || t.starts_with('✅')
            || t.starts_with("[x]")
            || t.starts_with("[X]")
            || t.contains(" ✓")
            || t.contains(" ✅")
        {
            return Some("check-mark");
        }
        let w = &self.words;
        if w.iter().any(|x| DONE.contains(&x.as_str()))
            || w.windows(2)
                .any(|p| DONE_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
        {
            return Some("done-word");
        }
        // `now` after the thing it speaks of (`the endpoint now
        // paginates`, `tests pass now`): a state that came about.
        if w.iter().skip(1).any(|x| x == "now") {
            return Some("now");
        }
        // A state reached: `is restricted`, `are pinned`, `was migrated`.
        let past = |x: &String| x.ends_with("ed") && !LOOKED.contains(&x.as_str());
        if w.windows(2)
            .any(|p| matches!(p[0].as_str(), "is" | "are" | "was" | "were" | "been") && past(&p[1]))
        {
            return Some("state-reached");
        }
        // A past tense opening the clause (`Added retries`, `We renamed`),
        // or the commitment's own verb in the past.
        let opening = w
            .iter()
            .find(|x| {
                !matches!(
                    x.as_str(),
                    "i" | "we" | "i've" | "we've" | "have" | "also" | "then" | "and"
                )
            })
            .is_some_and(past);
        if opening {
            return Some("past-tense");
        }
        w.iter()
            .filter(|x| past(x))
            .any(|x| {
                let k = matching::stem(x);
                own.iter().any(|u| u.all_keys().any(|key| *key == k))
            })
            .then_some("own-verb")
    }
}

/// The commitments a text takes back without naming them where it does:
/// a clause that takes something back and names nothing (`…, but it
/// fails`) speaks of what its sentence names; a reversal that names an
/// identifier (a commit, a file) speaks of what any clause naming that
/// identifier names (`committed as a7c90e2` … `git revert a7c90e2`).
fn referred_back<'p>(
    (all, vetoes): (&[Clause<'_>], &[bool]),
    profiles: &'p [Profile<'p>],
    ids: &[String],
    shared: &HashMap<String, usize>,
    aliases: &Aliases,
) -> Vec<&'p str> {
    let keyed: Vec<(Vec<matching::Term>, Vec<&'p str>)> = all
        .iter()
        .map(|c| {
            let terms = matching::terms(c.text, aliases);
            let keys: Vec<String> = terms.iter().map(|t| t.key.clone()).collect();
            let named = profiles
                .iter()
                .filter(|p| names_id(&c.words, p.c.id, ids) || p.named_by(&keys, shared))
                .map(|p| p.c.id)
                .collect();
            (terms, named)
        })
        .collect();
    let mut out = Vec::new();
    for ((c, (terms, named)), vetoed) in all.iter().zip(&keyed).zip(vetoes) {
        if !vetoed {
            continue;
        }
        if named.is_empty() {
            for (d, (_, theirs)) in all.iter().zip(&keyed) {
                if d.sentence == c.sentence {
                    out.extend(theirs.iter().copied());
                }
            }
        }
        if c.reversed {
            let marks: Vec<&String> = terms
                .iter()
                .filter(|t| t.strength >= Strength::Identifier || hash_like(&t.key))
                .map(|t| &t.key)
                .collect();
            for (other, theirs) in &keyed {
                if other.iter().any(|t| marks.contains(&&t.key)) {
                    out.extend(theirs.iter().copied());
                }
            }
        }
    }
    out
}

/// The messages of the run's commits that `words` name by their hash (a
/// prefix of seven characters or more).
fn committed<'c>(words: &[String], commits: &'c [String]) -> impl Iterator<Item = String> + 'c {
    let named: Vec<String> = words
        .iter()
        .filter(|w| w.len() >= 7 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .cloned()
        .collect();
    commits.iter().filter_map(move |c| {
        let (hash, message) = c.split_once(' ')?;
        named
            .iter()
            .any(|w| hash.starts_with(w.as_str()))
            .then(|| message.to_string())
    })
}

/// A word that names one thing as a commit does (`a7c90e2`): letters and
/// digits mixed, six or more.
fn hash_like(k: &str) -> bool {
    k.len() >= 6
        && k.bytes().all(|b| b.is_ascii_alphanumeric())
        && k.bytes().any(|b| b.is_ascii_digit())
        && k.bytes().any(|b| b.is_ascii_alphabetic())
}

/// A clause that is only a completion word or two (`done`, `fixed, merged`).
fn bare_done(c: &Clause<'_>) -> bool {
    !c.words.is_empty() && c.words.len() <= 2 && c.words.iter().all(|w| DONE.contains(&w.as_str()))
}

/// What a run's tools did, from its transcript: the test runs that passed
/// (`command`, then its output) and the files its edit tools wrote.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tools<'a> {
    pub tests: &'a [String],
    pub files: &'a [String],
    /// The commits the run made, each `<hash> <message>`.
    pub commits: &'a [String],
    /// The test runs that failed and were not run again to a pass (the
    /// command, then its output): a commitment one of them names is not
    /// done, whatever the words say.
    pub failed: &'a [String],
}

/// The evidence judge with the built-in aliases.
#[cfg(test)]
pub fn judge_evidence(commitments: &[Commitment<'_>], texts: &[&str]) -> Vec<Verdict> {
    judge_with(commitments, texts, &Tools::default(), Aliases::built_in())
}

/// The evidence judge: for each commitment, the first clause of `texts`
/// (the final message, the transcript's tail) that names it, says it is
/// done, and takes nothing back. What the run's tools did stands for the
/// clause's "done" when the run's words name the commitment and never take
/// it back: a passing test run that names an identifier of the
/// commitment's own (its test, its file), or a file of its own written.
pub fn judge_with(
    commitments: &[Commitment<'_>],
    texts: &[&str],
    tools: &Tools<'_>,
    aliases: &Aliases,
) -> Vec<Verdict> {
    let profiles: Vec<Profile<'_>> = commitments
        .iter()
        .map(|c| Profile {
            c,
            topic: units(c.topic, aliases),
            content: units(c.content, aliases),
            head: head_keys(c.topic, aliases),
        })
        .collect();
    // How many commitments have each key: a key two of them share names
    // neither alone.
    let mut shared: HashMap<String, usize> = HashMap::new();
    for p in &profiles {
        let mut keys: Vec<&String> = p
            .topic
            .iter()
            .chain(&p.content)
            .flat_map(Unit::all_keys)
            .collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            *shared.entry(k.clone()).or_default() += 1;
        }
    }
    let ids: Vec<String> = commitments.iter().map(|c| c.id.to_lowercase()).collect();
    let mut out: Vec<Verdict> = Vec::new();
    // Clauses that name a commitment without saying it is done (in a text
    // that takes nothing back anywhere: only there may a tool's evidence
    // stand for "done"), and the commitments a clause took back.
    let mut named_only: HashMap<&str, String> = HashMap::new();
    let mut taken_back: Vec<&str> = Vec::new();
    for text in texts {
        let text = unquoted(text);
        let all = clauses(&text);
        // Each clause's veto, found once.
        let vetoes: Vec<bool> = all.iter().map(Clause::vetoed).collect();
        let clean = !vetoes.contains(&true);
        taken_back.extend(referred_back(
            (&all, &vetoes),
            &profiles,
            &ids,
            &shared,
            aliases,
        ));
        for (i, clause) in all.iter().enumerate() {
            // A bare `done` (`…; done.`) speaks of the clause before it.
            let (at, forced) = match i.checked_sub(1) {
                Some(p) if all[p].line == clause.line && bare_done(clause) => (p, true),
                _ => (i, false),
            };
            let (clause, vetoed) = (&all[at], vetoes[at]);
            // A commit of the run's that the clause names by its hash says
            // what the clause speaks of.
            let said = std::iter::once(clause.text.to_string())
                .chain(committed(&clause.words, tools.commits))
                .collect::<Vec<_>>()
                .join(" ");
            let keys: Vec<String> = matching::terms(&said, aliases)
                .into_iter()
                .map(|t| t.key)
                .collect();
            let by_id: Vec<&Profile<'_>> = profiles
                .iter()
                .filter(|p| names_id(&clause.words, p.c.id, &ids))
                .collect();
            let named: Vec<&Profile<'_>> = if by_id.is_empty() {
                profiles
                    .iter()
                    .filter(|p| p.named_by(&keys, &shared))
                    .filter(|p| {
                        let units: Vec<&Unit> = p.topic.iter().chain(&p.content).collect();
                        !contrasted(&units, &keys) && !sibling(p.c, clause.text)
                    })
                    .collect()
            } else {
                by_id
            };
            if vetoed {
                taken_back.extend(named.iter().map(|p| p.c.id));
                continue;
            }
            let own: Vec<&Unit> = named
                .iter()
                .flat_map(|p| p.topic.iter().chain(&p.content))
                .collect();
            let done = if forced {
                Some("bare-done")
            } else {
                clause.done(&own)
            };
            let Some(done) = done.filter(|_| !named.is_empty()) else {
                for p in named.iter().filter(|_| clean) {
                    named_only
                        .entry(p.c.id)
                        .or_insert_with(|| clause.text.to_string());
                }
                continue;
            };
            for p in named {
                if !out.iter().any(|v| v.id == p.c.id) {
                    let how = if names_id(&clause.words, p.c.id, &ids) {
                        "id"
                    } else {
                        p.named_how(&keys, &shared).unwrap_or("topic")
                    };
                    out.push(Verdict {
                        id: p.c.id.to_string(),
                        evidence: clause.text.to_string(),
                        rule: format!("{how}+{done}"),
                    });
                }
            }
        }
    }
    // A failing test run that names a commitment contradicts the words.
    for run in tools.failed {
        let keys: Vec<String> = matching::terms(run, aliases)
            .into_iter()
            .map(|t| t.key)
            .collect();
        taken_back.extend(
            profiles
                .iter()
                .filter(|p| p.named_by(&keys, &shared))
                .map(|p| p.c.id),
        );
    }
    out.retain(|v| !taken_back.contains(&v.id.as_str()));
    // Each passing test run's words, once.
    let test_keys: Vec<Vec<String>> = tools
        .tests
        .iter()
        .map(|t| {
            matching::terms(t, aliases)
                .into_iter()
                .map(|t| t.key)
                .collect()
        })
        .collect();
    for p in &profiles {
        let id = p.c.id;
        let Some(clause) = named_only.get(id) else {
            continue;
        };
        if out.iter().any(|v| v.id == id) || taken_back.contains(&id) {
            continue;
        }
        let idents: Vec<&String> = p
            .topic
            .iter()
            .chain(&p.content)
            .filter(|u| {
                u.strength == Strength::Identifier && shared.get(&u.key).copied() == Some(1)
            })
            .map(|u| &u.key)
            .collect();
        let ran = tools
            .tests
            .iter()
            .zip(&test_keys)
            .find(|(_, keys)| idents.iter().any(|i| keys.contains(i)))
            .map(|(t, _)| t);
        let wrote = tools.files.iter().find(|f| {
            matching::terms(f, aliases).first().is_some_and(|t| {
                idents
                    .iter()
                    .any(|i| t.key == **i || t.key.ends_with(&format!("-{i}")))
            })
        });
        let (why, rule) = match (ran, wrote) {
            (Some(run), _) => (
                format!("`{}` passed", run.lines().next().unwrap_or_default()),
                "identifier+test-run",
            ),
            (None, Some(file)) => (format!("{file} was written"), "identifier+file-written"),
            (None, None) => continue,
        };
        out.push(Verdict {
            id: id.to_string(),
            evidence: format!("{clause} (and {why} in this run)"),
            rule: rule.into(),
        });
    }
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod rule_tests;
