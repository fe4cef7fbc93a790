//! One closer batch: for each finished run the closer may look at
//! (`closer::eligible`), the `evidence` judge
//! reads the run's own last words against the commitments its briefing
//! showed; the run is claimed, each verdict resolved (fenced, re-read),
//! and the run finished. A run that fails is backed off, not retried at
//! once. A service: the rules are `continuity::closer`'s, the rows
//! `store::closer`'s.

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::domain::closer::{self, Commitment};
use crate::store::Store;
use crate::store::closer::{Candidate, Resolve};

/// A commitment the batch resolved (or, dry, would resolve).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub memory_id: String,
    pub evidence: String,
    /// The judge's rule (see `closer::Verdict`).
    pub rule: String,
}

/// What the batch did besides the resolves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    pub closed: Vec<Closed>,
    /// Runs claimed and finished.
    pub finished: usize,
    /// Runs another writer claimed first, or that came back to life.
    pub fenced: usize,
    /// Runs whose pass failed (backed off).
    pub failed: usize,
    /// The daily spend cap stopped the batch.
    pub capped: bool,
    /// Ids a model judge named that its runs were not briefed (dropped).
    pub rejected: usize,
}

/// The briefed memories of a run as the judge sees them.
fn briefed(c: &Candidate) -> Vec<(String, String)> {
    let items: Vec<serde_json::Value> = serde_json::from_str(&c.briefed).unwrap_or_default();
    items
        .iter()
        .filter_map(|it| {
            Some((
                it["id"].as_str()?.to_string(),
                it["topic"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// Who decides what a finished run completed (setting `closer.judge`).
#[derive(Debug, Clone)]
pub enum Judge {
    /// Offline: a quoted clause of the run's own words, or nothing; with
    /// the alias table in force.
    Evidence(crate::domain::matching::Aliases),
    /// A model over HTTP, within a daily spend cap (nano-dollars).
    Endpoint {
        endpoint: super::endpoint::Endpoint,
        cap_nanousd: i64,
        prices: crate::domain::pricing::PriceTable,
    },
}

impl Judge {
    /// The judge the settings name. The endpoint judge needs
    /// `closer.endpoint` and `closer.model`; its key comes from
    /// `SESSIONKIT_CLOSER_API_KEY`.
    pub fn from_settings(store: &Store) -> Result<Judge> {
        use crate::services::settings;
        if settings::choice(store, "closer.judge")? != "endpoint" {
            return Judge::evidence(store);
        }
        Judge::endpoint(store)
    }

    /// The evidence judge, with the built-in aliases and those of the
    /// setting `match.aliases`.
    pub fn evidence(store: &Store) -> Result<Judge> {
        let spec = crate::services::settings::choice(store, "match.aliases")?;
        Ok(Judge::Evidence(crate::domain::matching::Aliases::with(
            &spec,
        )?))
    }

    /// The endpoint judge as the settings (or their environment
    /// variables) configure it.
    pub fn endpoint(store: &Store) -> Result<Judge> {
        use crate::services::settings;
        let text = |k: &str| -> Result<String> {
            let v = settings::choice(store, k)?;
            if v.trim().is_empty() {
                anyhow::bail!(
                    "closer.judge is endpoint but {k} is not set (`sessionkit config set {k} ...`)"
                );
            }
            Ok(v)
        };
        Ok(Judge::Endpoint {
            endpoint: super::endpoint::Endpoint {
                url: text("closer.endpoint")?,
                api: settings::choice(store, "closer.api")?,
                model: text("closer.model")?,
                key: std::env::var("SESSIONKIT_CLOSER_API_KEY")
                    .ok()
                    .filter(|k| !k.trim().is_empty()),
                timeout: std::time::Duration::from_secs(settings::count(
                    store,
                    "closer.timeout_seconds",
                )?),
            },
            cap_nanousd: i64::try_from(settings::count(store, "closer.max_daily_usd")?)?
                .saturating_mul(1_000_000_000),
            prices: store.prices()?.clone(),
        })
    }
}

/// A briefed commitment as the judges get it: id, topic, content.
type Item = (String, String, String);

/// The commitments (with their memories' content, where the memory is
/// still there) and words one run gives its judge.
fn inputs(store: &Store, c: &Candidate, tail: &[String]) -> (Vec<Item>, Vec<String>) {
    let texts = c
        .excerpt
        .iter()
        .cloned()
        .chain(tail.iter().cloned())
        .collect();
    let items = briefed(c)
        .into_iter()
        .map(|(id, topic)| {
            let content = store.memory(&id).map(|m| m.content).unwrap_or_default();
            (id, topic, content)
        })
        .collect();
    (items, texts)
}

fn commitments(items: &[Item]) -> Vec<Commitment<'_>> {
    items
        .iter()
        .map(|(id, topic, content)| Commitment { id, topic, content })
        .collect()
}

/// What a run's transcript adds for its judge: its last assistant texts,
/// the test runs that passed and the files its edit tools wrote (redacted).
#[derive(Debug, Clone, Default)]
pub struct Tail {
    pub texts: Vec<String>,
    pub tests: Vec<String>,
    pub files: Vec<String>,
    /// The commits the run made, each `<hash> <message>`.
    pub commits: Vec<String>,
    /// The test runs that failed and were not run again to a pass.
    pub failed: Vec<String>,
}

impl Tail {
    /// What the run's tools did, as the judges take it.
    fn tools(&self) -> crate::domain::evidence::Tools<'_> {
        crate::domain::evidence::Tools {
            tests: &self.tests,
            files: &self.files,
            commits: &self.commits,
            failed: &self.failed,
        }
    }
}

/// The evidence judge's verdicts for one run.
fn evidence(
    items: &[Item],
    texts: &[String],
    tail: &Tail,
    aliases: &crate::domain::matching::Aliases,
) -> Vec<closer::Verdict> {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    crate::domain::evidence::judge_with(&commitments(items), &texts, &tail.tools(), aliases)
}

/// The UTC day of `now`, as the spend table keys it.
fn day_of(now: Millis) -> String {
    crate::domain::clock::format_instant(now)[..10].to_string()
}

/// The daily spend cap stopped the batch (not a failure of the run).
#[derive(Debug, thiserror::Error)]
#[error("the closer's daily spend cap (closer.max_daily_usd) is reached")]
pub struct CapReached;

/// One run's verdicts. The endpoint judge checks the cap first and records
/// the call's tokens and cost whatever the reply says.
fn ask(
    store: &mut Store,
    judge: &Judge,
    (run_id, items, texts, tail): (&str, &[Item], &[String], &Tail),
    now: Millis,
    rejected: &std::cell::Cell<usize>,
) -> Result<Vec<closer::Verdict>> {
    let (endpoint, cap_nanousd, prices) = match judge {
        Judge::Evidence(aliases) => return Ok(evidence(items, texts, tail, aliases)),
        Judge::Endpoint {
            endpoint,
            cap_nanousd,
            prices,
        } => (endpoint, cap_nanousd, prices),
    };
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let day = day_of(now);
    if store.closer_spent(&day)? >= *cap_nanousd {
        return Err(CapReached.into());
    }
    let words: Vec<&str> = texts.iter().map(String::as_str).collect();
    let kinds = store.run_event_kinds(run_id)?;
    let answer = endpoint.ask(&closer::closer_prompt(
        &commitments(items),
        &words,
        &tail.tools(),
        &kinds,
    ))?;
    let tokens = crate::domain::transcript::Buckets {
        input: answer.input_tokens,
        output: answer.output_tokens,
        ..Default::default()
    };
    let cost = prices
        .message_cost(
            &endpoint.model,
            &tokens,
            crate::domain::transcript::Billing::default(),
        )
        .unwrap_or(0);
    store.closer_record_spend(&day, answer.input_tokens, answer.output_tokens, cost)?;
    let ids: Vec<&str> = items.iter().map(|(id, _, _)| id.as_str()).collect();
    let reply = closer::parse_reply(&answer.text, &ids)?;
    rejected.set(rejected.get() + reply.rejected);
    // The model's quote is text from outside: secrets out before it is
    // stored in the audit event or printed.
    Ok(reply
        .completed
        .into_iter()
        .map(|v| closer::Verdict {
            evidence: crate::domain::redact::redact_text(&v.evidence).into_owned(),
            ..v
        })
        .collect())
}

/// Runs one batch at `now`. With `dry_run`, judges and reports, writes
/// nothing.
pub fn batch(store: &mut Store, now: Millis, dry_run: bool) -> Result<Batch> {
    let candidates = store.closer_candidates(now, closer::BATCH)?;
    let mut tails: std::collections::HashMap<String, Tail> = Default::default();
    // Only a run with something to judge has its transcript read.
    for c in candidates.iter().filter(|c| !briefed(c).is_empty()) {
        if let Some(path) = store.main_transcript(&c.session_id)? {
            tails.insert(c.run_id.clone(), transcript_tail(&path));
        }
    }
    let judge = Judge::from_settings(store)?;
    run_batch(store, candidates, now, dry_run, &judge, |c| {
        tails.get(&c.run_id).cloned().unwrap_or_default()
    })
}

/// Bytes of a transcript's end the judge reads, and the assistant texts it
/// keeps from them.
const TAIL_BYTES: u64 = 64 * 1024;
const TAIL_TEXTS: usize = 8;

/// The last assistant texts and passing test runs of the transcript at
/// `path` (redacted); none when it cannot be read.
fn transcript_tail(path: &std::path::Path) -> Tail {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return Tail::default();
    };
    let len = f.metadata().map_or(0, |m| m.len());
    let start = len.saturating_sub(TAIL_BYTES);
    let mut buf = Vec::new();
    if f.seek(SeekFrom::Start(start)).is_err() || f.take(TAIL_BYTES).read_to_end(&mut buf).is_err()
    {
        return Tail::default();
    }
    let redacted = |texts: Vec<String>| -> Vec<String> {
        texts
            .into_iter()
            .map(|t| crate::domain::redact::redact_text(&t).into_owned())
            .collect()
    };
    // The shell runs read once: the passing test runs and the commits.
    let ran = crate::domain::transcript::tool_evidence(&crate::domain::transcript::bash_runs(
        &buf,
        start == 0,
    ));
    Tail {
        texts: redacted(crate::domain::transcript::assistant_tail(
            &buf,
            start == 0,
            TAIL_TEXTS,
        )),
        tests: redacted(ran.tests),
        files: redacted(crate::domain::transcript::written_files(&buf, start == 0)),
        commits: redacted(ran.commits),
        failed: redacted(ran.failed),
    }
}

/// One batch over `candidates` with `judge`; `tail` gives each run's last
/// assistant texts (the sweep's from the run's ingested transcript, `eval
/// closer`'s from a case).
fn run_batch(
    store: &mut Store,
    candidates: Vec<Candidate>,
    now: Millis,
    dry_run: bool,
    judge: &Judge,
    tail: impl Fn(&Candidate) -> Tail,
) -> Result<Batch> {
    let mut out = Batch::default();
    for c in candidates {
        let tools = tail(&c);
        let (items, texts) = inputs(store, &c, &tools.texts);
        if dry_run {
            // A dry run spends nothing: only the offline judge speaks.
            if let Judge::Evidence(aliases) = judge {
                out.closed.extend(
                    evidence(&items, &texts, &tools, aliases)
                        .iter()
                        .map(|v| closed(&c, v)),
                );
            }
            continue;
        }
        let rejected = std::cell::Cell::new(0);
        let done = one(store, &c, now, |store| {
            ask(
                store,
                judge,
                (&c.run_id, &items, &texts, &tools),
                now,
                &rejected,
            )
        });
        out.rejected += rejected.get();
        match done {
            Ok((resolved, finished)) => {
                if finished {
                    out.finished += 1;
                } else {
                    out.fenced += 1;
                }
                out.closed.extend(resolved.iter().map(|v| closed(&c, v)));
            }
            Err(e) if e.is::<CapReached>() => {
                out.capped = true;
                break;
            }
            Err(_) => {
                store.closer_failed(&c.run_id, now)?;
                out.failed += 1;
            }
        }
    }
    Ok(out)
}

fn closed(c: &Candidate, v: &closer::Verdict) -> Closed {
    Closed {
        run_id: c.run_id.clone(),
        agent: c.agent.clone(),
        session_id: c.session_id.clone(),
        memory_id: v.id.clone(),
        evidence: v.evidence.clone(),
        rule: v.rule.clone(),
    }
}

/// Claims one run, then judges it (a model call happens only on a run this
/// pass holds), resolves each verdict (fenced, re-read) and finishes it:
/// the verdicts resolved, and whether the run was finished (false: fenced,
/// by a lost claim or a run that came back to life; what landed stands).
fn one(
    store: &mut Store,
    c: &Candidate,
    now: Millis,
    judge: impl FnOnce(&mut Store) -> Result<Vec<closer::Verdict>>,
) -> Result<(Vec<closer::Verdict>, bool)> {
    let Some(token) = store.closer_claim(c, now)? else {
        return Ok((Vec::new(), false));
    };
    let found = judge(store)?;
    let mut resolved = Vec::new();
    for v in found {
        match store.closer_resolve(c, &token, &v, now)? {
            Resolve::Resolved => resolved.push(v),
            Resolve::Skipped => {}
            Resolve::Fenced => return Ok((resolved, false)),
        }
    }
    let finished = store.closer_finish(c, &token)?;
    Ok((resolved, finished))
}

mod replay;

pub use replay::{Case, Replayed, replay};
