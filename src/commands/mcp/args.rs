//! Each tool's input (checked against its declared shape: no unknown
//! field, every value of its type) and the CLI command lines a call stands
//! for.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::tools::{Call, Failure, Lines};

/// `args` as `T`, or why not.
fn parse<T: DeserializeOwned>(args: Value) -> Result<T, Failure> {
    serde_json::from_value(args).map_err(|e| Failure::Arguments(e.to_string()))
}

/// A limit between 1 and `max`, `default` when not given.
fn limit(given: Option<u32>, default: u32, max: u32) -> Result<String, Failure> {
    match given.unwrap_or(default) {
        n @ 1.. if n <= max => Ok(n.to_string()),
        n => Err(Failure::Arguments(format!(
            "limit must be between 1 and {max}, not {n}"
        ))),
    }
}

/// `--flag value` when there is a value.
fn opt(flag: &str, value: Option<&String>) -> Vec<String> {
    value
        .map(|v| vec![flag.to_string(), v.clone()])
        .unwrap_or_default()
}

/// A period's bounds, each checked as the CLI reads them.
fn period(since: Option<&String>, until: Option<&String>) -> Result<Vec<String>, Failure> {
    let tz = jiff::tz::TimeZone::system();
    for (bound, end) in [(since, false), (until, true)] {
        if let Some(b) = bound {
            crate::domain::clock::parse_bound_in(b, &tz, end)
                .map_err(|e| Failure::Arguments(format!("{e:#}")))?;
        }
    }
    Ok([opt("--since", since), opt("--until", until)].concat())
}

/// A number given as a number or as its digits (some clients send every
/// argument as a string).
fn lenient_u32<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    use serde::de::Error;
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("{n} is not a whole number from 0"))),
        Some(Value::String(t)) => t
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| D::Error::custom(format!("{t:?} is not a whole number from 0"))),
        Some(v) => Err(D::Error::custom(format!("{v} is not a number"))),
    }
}

/// A yes or no given as a boolean or as `"true"`/`"false"`.
fn lenient_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    use serde::de::Error;
    match Value::deserialize(d)? {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(b),
        Value::String(t) if t == "true" || t == "false" => Ok(t == "true"),
        v => Err(D::Error::custom(format!("{v} is not true or false"))),
    }
}

/// A tool's input: the fields a project-scoped call takes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SearchArgs {
    /// Words to look for
    query: String,
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project, not only the server's
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions (claude-code, codex, gemini, ...)
    harness: Option<String>,
    /// Only what this role said: user, assistant or tool
    role: Option<String>,
    /// Only what was said since (a date, 7d, today, this-week, ...)
    since: Option<String>,
    /// Only what was said until (same forms; a date includes its day)
    until: Option<String>,
    /// Newest first instead of best first
    #[serde(default, deserialize_with = "lenient_bool")]
    newest: bool,
    /// At most this many hits (1 to 100; default 10)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

pub(super) fn search_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: SearchArgs = parse(args)?;
    if a.query.trim().is_empty() {
        return Err(Failure::Arguments("query has no words".into()));
    }
    let mut argv = vec!["search".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(opt("--role", a.role.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    if a.newest {
        argv.push("--newest".into());
    }
    argv.extend(["--limit".into(), limit(a.limit, 10, 100)?]);
    argv.extend(["--".into(), a.query]);
    Ok(vec![argv])
}

/// The `recall` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RecallArgs {
    /// Words to look for (any of them)
    query: String,
    /// Only this project's memories (default: the server's project)
    project: Option<String>,
    /// Every project's memories
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this kind: decision, commitment, constraint, fact, preference, blocker, ...
    kind: Option<String>,
    /// Superseded and archived memories too
    #[serde(default, deserialize_with = "lenient_bool")]
    all: bool,
    /// At most this many (1 to 100; default 10)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

pub(super) fn recall_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: RecallArgs = parse(args)?;
    if a.query.trim().is_empty() {
        return Err(Failure::Arguments("query has no words".into()));
    }
    let mut argv = vec!["recall".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--kind", a.kind.as_ref()));
    if a.all {
        argv.push("--all".into());
    }
    argv.extend(["--limit".into(), limit(a.limit, 10, 100)?]);
    argv.extend(["--".into(), a.query]);
    Ok(vec![argv])
}

/// The `memories` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct MemoriesArgs {
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project's
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this kind (default: open commitments, then constraints)
    kind: Option<String>,
    /// With kind: only this status (open, waiting, resolved, expired, active, archived)
    status: Option<String>,
}

pub(super) fn memories_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: MemoriesArgs = parse(args)?;
    let line = |kind: &str, status: Option<&str>| {
        let mut argv: Vec<String> = vec!["memories".into(), "--format".into(), "json".into()];
        argv.push("--full".into());
        argv.extend(c.project(a.project.as_ref(), a.all_projects));
        argv.extend(["--kind".into(), kind.into()]);
        if let Some(s) = status {
            argv.extend(["--status".into(), s.into()]);
        }
        argv
    };
    Ok(match (&a.kind, &a.status) {
        (None, None) => vec![line("commitment", Some("open")), line("constraint", None)],
        (None, Some(_)) => {
            return Err(Failure::Arguments("status needs a kind".into()));
        }
        (Some(k), s) => vec![line(k, s.as_deref())],
    })
}

/// The `sessions` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SessionsArgs {
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project's sessions
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions
    harness: Option<String>,
    /// Only sessions active since (a date, 7d, today, ...)
    since: Option<String>,
    /// Only sessions started until (same forms)
    until: Option<String>,
    /// At most this many, most recent first (1 to 200; default 20)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

pub(super) fn sessions_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: SessionsArgs = parse(args)?;
    let mut argv = vec!["sessions".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    argv.extend(["--limit".into(), limit(a.limit, 20, 200)?]);
    Ok(vec![argv])
}

/// The `show` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ShowArgs {
    /// The session's id, or a unique prefix of one
    session: String,
    /// A record id (as a search hit names it): the conversation around it
    at: Option<String>,
    /// With at: how many pieces before and after it (0 to 20; default 5)
    #[serde(default, deserialize_with = "lenient_u32")]
    context: Option<u32>,
}

pub(super) fn show_argv(_: &Call<'_>, args: Value) -> Lines {
    let a: ShowArgs = parse(args)?;
    let mut argv = vec!["show".into(), "--format".into(), "json".into()];
    match (&a.at, a.context) {
        (Some(at), n) => {
            let n = n.unwrap_or(5);
            if n > 20 {
                return Err(Failure::Arguments(format!(
                    "context must be at most 20, not {n}"
                )));
            }
            argv.extend(["--at".into(), at.clone(), "--context".into(), n.to_string()]);
        }
        (None, Some(_)) => return Err(Failure::Arguments("context needs at".into())),
        (None, None) => {}
    }
    argv.extend(["--".into(), a.session]);
    Ok(vec![argv])
}

/// The `cost` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct CostArgs {
    /// Group by these keys, comma-separated: day, week, month, session, model, project, harness, block (default day)
    by: Option<String>,
    /// From (a date, 7d, today, this-month, ...)
    since: Option<String>,
    /// Until (same forms; a date includes its day)
    until: Option<String>,
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions
    harness: Option<String>,
    /// Only this session (its id or a unique prefix)
    session: Option<String>,
}

pub(super) fn cost_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: CostArgs = parse(args)?;
    let mut argv = vec!["cost".into(), "--format".into(), "json".into()];
    argv.extend(opt("--by", a.by.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    // A session is its own scope: the server's project does not narrow it.
    let all = a.all_projects || (a.session.is_some() && a.project.is_none());
    argv.extend(c.project(a.project.as_ref(), all));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(opt("--session", a.session.as_ref()));
    Ok(vec![argv])
}

/// The `brief` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct BriefArgs {
    /// The project (default: the server's project)
    project: Option<String>,
}

pub(super) fn brief_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: BriefArgs = parse(args)?;
    let project = c.project(a.project.as_ref(), false);
    if project.is_empty() {
        return Err(Failure::Arguments(
            "the server's directory names no project: pass project".into(),
        ));
    }
    Ok(vec![
        [
            vec!["brief".into(), "--format".into(), "json".into()],
            project,
        ]
        .concat(),
    ])
}
