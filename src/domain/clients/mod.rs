//! The clients sessionkit reads, each in a folder of its own: its
//! declaration (`mod.rs`: its harness name and aliases, the format its
//! transcripts are in, where it keeps its sessions and the variable that
//! moves them, how they are found and how its files are read), its walk
//! (`find.rs`) and its reader (`read.rs`). Everything that finds, reads,
//! lists clients, takes a `--harness`, or names a session's client reads
//! these declarations; nothing else compares a client's name.
//!
//! A new client: its folder here, its `mod` and one line in `ALL`, its
//! variant in `transcript::Format`, its fixtures and golden directory (a
//! test fails while any is missing, or while a declaration does not hold
//! together).

mod claude_code;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod droid;
mod gemini;
mod hermes;
mod kilo;
mod kimi;
mod openclaw;
mod opencode;
mod pi;
mod qwen_code;
mod script;
mod vibe;

use std::path::{Path, PathBuf};

use crate::domain::corpus::{Layout, SessionStore};
use crate::domain::harness::Hooks;
use crate::domain::transcript::said::LineSaid;
use crate::domain::transcript::{BadLine, Format, SessionParser};

pub use claude_code::CLAUDE_CODE;
pub use codex::CODEX;
pub use gemini::GEMINI;

/// A client's default folders, given the home folder (`$HOME`, when set)
/// and a look-up of the environment.
pub type Roots = fn(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf>;

/// One client sessionkit reads.
#[derive(Debug)]
pub struct Client {
    /// The harness name sessions are stored and shown under.
    pub name: &'static str,
    /// Other names `--harness` takes for it.
    pub aliases: &'static [&'static str],
    /// The client's own name, for people.
    pub label: &'static str,
    /// The format of its transcripts.
    pub format: Format,
    /// Where it keeps its sessions, given the home folder (`$HOME`, when
    /// set) and the environment: each a folder `ingest` reads when it
    /// exists.
    pub roots: Roots,
    /// Its home folder's name (`.codex`) and the folders in it that hold
    /// its sessions: a home given as a root is read there. `None` for a
    /// client whose folder is its root (OpenCode's data folder).
    pub home: Option<Home>,
    /// How its sessions lie under a root.
    pub finds: Finds,
    /// How its files are read.
    pub reads: Reads,
    /// Its hooks, when sessionkit speaks to them.
    pub hooks: Option<&'static Hooks>,
}

/// How a client's sessions lie under a root.
#[derive(Debug, Clone, Copy)]
pub enum Finds {
    /// Claude Code's layout: every folder no other client's.
    Rest,
    /// Folders (or files) at the top of a root in a layout of its own.
    Layout(&'static dyn Layout),
    /// A store of sessions at the top of a root (a database, or a folder
    /// kept as one): the root is read through its stores alone.
    Store(&'static dyn SessionStore),
    /// A fork whose files lie in its parent's layout, found by the
    /// parent's walk (and known apart by their names).
    Parent(&'static Client),
}

/// How a client's files are read.
#[derive(Debug)]
pub struct Reads {
    /// Whether a session's file (its path relative to its root) is in
    /// this client's format by its name alone. A client whose files have
    /// another's shape says `false`: its walk knows them by their folder.
    pub names: fn(&str) -> bool,
    /// Reads a block of a file's complete lines, returning how many bytes
    /// it read; `None` for a client whose sessions are rows of a store,
    /// read whole from there.
    pub lines: Option<LinesReader>,
    /// Whether a file (by its path) is a document written whole at every
    /// change: read again from its start when it changed, never on from
    /// where a read stopped.
    pub rewritten_whole: fn(&str) -> bool,
    /// The reader of the document of running totals kept beside each
    /// transcript (read after it), when the client keeps one; a file's
    /// sidecar is otherwise a subagent's `.meta.json`, read before it.
    pub totals_beside: Option<TotalsReader>,
    /// Whether its lines may be scanned apart from reading them (the SSE2
    /// block scanner knows Claude Code's records only).
    pub scans_apart: bool,
    /// What a line of its says (prompts, answers, tool calls), for
    /// `search`; `None` when its lines are not read for it.
    pub said: Option<LineSaid>,
}

/// Reads the complete lines at the start of `bytes` of file `file`.
pub type LinesReader = fn(&mut SessionParser, usize, &[u8]) -> Result<u64, BadLine>;

/// Reads the document of running totals at `rel` kept beside file `file`.
pub type TotalsReader = fn(&mut SessionParser, usize, &str, &[u8]) -> Result<(), BadLine>;

impl Reads {
    /// A client whose sessions are a store's rows (named `<store>#<id>`),
    /// read whole from there.
    pub const fn rows(names: fn(&str) -> bool) -> Reads {
        Reads {
            names,
            lines: None,
            rewritten_whole: never,
            totals_beside: None,
            scans_apart: false,
            said: None,
        }
    }

    /// A client whose files are JSON Lines appended to, read by `lines`.
    pub const fn lines(names: fn(&str) -> bool, lines: LinesReader) -> Reads {
        Reads {
            names,
            lines: Some(lines),
            rewritten_whole: never,
            totals_beside: None,
            scans_apart: false,
            said: None,
        }
    }
}

/// No file of the client is rewritten whole.
fn never(_: &str) -> bool {
    false
}

/// A client's home folder, as a root may name it.
#[derive(Debug)]
pub struct Home {
    /// The folder's usual name (`.codex`).
    pub name: &'static str,
    /// A file that marks a folder of another name as this client's home
    /// (`config.toml` in a `CODEX_HOME`), when there is one.
    pub marker: Option<&'static str>,
    /// The folders in it that hold sessions.
    pub sessions: &'static [&'static str],
}

/// Every client, in the order `sources` lists them and `ingest` reads
/// their default folders.
pub static ALL: [&Client; 14] = [
    &claude_code::CLAUDE_CODE,
    &codex::CODEX,
    &gemini::GEMINI,
    &copilot::COPILOT,
    &qwen_code::QWEN_CODE,
    &pi::PI,
    &opencode::OPENCODE,
    &kilo::KILO,
    &kimi::KIMI,
    &cline::CLINE,
    &droid::DROID,
    &hermes::HERMES,
    &openclaw::OPENCLAW,
    &vibe::VIBE,
];

impl Client {
    /// Whether one of its default folders holds its sessions: a folder,
    /// or for a client that keeps a store, one with its store in it.
    pub fn keeps_sessions_in(&self, dir: &Path) -> bool {
        match self.finds {
            Finds::Store(store) => !store.stores_in(dir).is_empty(),
            Finds::Parent(parent) => parent.keeps_sessions_in(dir),
            Finds::Rest | Finds::Layout(_) => dir.is_dir(),
        }
    }
}

/// The harnesses with hooks only (their transcripts are not read).
static HOOKS_ONLY: [&Hooks; 1] = [&cursor::HOOKS];

/// Every harness's hooks, in the order commands list them: each client's
/// that has hooks, in `ALL`'s order, then those with hooks only.
pub fn harnesses() -> impl Iterator<Item = &'static Hooks> {
    ALL.iter()
        .filter_map(|c| c.hooks)
        .chain(HOOKS_ONLY.iter().copied())
}

/// The client named `name` (its harness name or an alias).
pub fn named(name: &str) -> Option<&'static Client> {
    ALL.iter()
        .copied()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// The client whose transcripts are in `format`.
pub fn of_format(format: Format) -> &'static Client {
    ALL.iter()
        .copied()
        .find(|c| c.format == format)
        .expect("every format is a declared client's (a test holds it)")
}

/// The harness names and aliases, as `--harness` takes them: an alias is
/// read as its client's name.
pub fn harness_arg() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(ALL.iter().map(|c| {
        clap::builder::PossibleValue::new(c.name)
            .aliases(c.aliases.iter().copied())
            .help(c.label)
    }))
    .map(|given| named(&given).map_or(given, |c| c.name.to_string()))
}

/// Each client's default folders on this machine (`$HOME` and the
/// environment), in `ALL`'s order, whether they exist or not.
fn every_default_root() -> Vec<(&'static Client, PathBuf)> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    ALL.iter()
        .flat_map(|&c| {
            (c.roots)(home.as_deref(), &env)
                .into_iter()
                .map(move |p| (c, p))
        })
        .collect()
}

/// The folders read when no root is given: each client's, in `ALL`'s
/// order, those that exist.
pub fn default_roots() -> Vec<PathBuf> {
    every_default_root()
        .into_iter()
        .filter(|(c, p)| c.keeps_sessions_in(p))
        .map(|(_, p)| p)
        .collect()
}

/// Where `default_roots` looks: every client's default folders, each once.
pub fn looked_in() -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    every_default_root()
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

/// The clients whose sessions are on this machine (in their default
/// folders) but which run no hooks sessionkit could register.
pub fn found_without_hooks() -> Vec<&'static Client> {
    let mut found: Vec<&'static Client> = every_default_root()
        .into_iter()
        .filter(|(c, p)| c.hooks.is_none() && c.keeps_sessions_in(p))
        .map(|(c, _)| c)
        .collect();
    found.dedup_by_key(|c| c.name);
    found
}

/// The folders of a client's own home given as a root (`~/.codex`, not
/// `~/.codex/sessions`): where that client keeps its sessions, those of
/// them that exist; `None` for any other folder, read as it is.
pub fn home_roots(root: &Path) -> Option<Vec<PathBuf>> {
    let name = root.file_name()?.to_str()?;
    let homes = || ALL.iter().filter_map(|c| c.home.as_ref());
    let home = homes().find(|h| h.name == name).or_else(|| {
        homes().find(|h| {
            h.marker.is_some_and(|m| root.join(m).is_file())
                && h.sessions.iter().any(|s| root.join(s).is_dir())
        })
    })?;
    let found: Vec<PathBuf> = home
        .sessions
        .iter()
        .map(|s| root.join(s))
        .filter(|p| p.is_dir())
        .collect();
    (!found.is_empty()).then_some(found)
}

/// `$XDG_DATA_HOME`, else `~/.local/share`: where clients that follow the
/// XDG layout keep their data.
fn xdg_data(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    env("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".local/share")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each format belongs to one client; names and aliases are unique;
    /// every client's home has a folder of sessions.
    #[test]
    fn every_client_is_declared_whole_and_once() {
        for f in Format::ALL {
            assert_eq!(
                ALL.iter().filter(|c| c.format == f).count(),
                1,
                "{f:?} is no client's, or two clients'"
            );
        }
        let mut seen: Vec<&str> = Vec::new();
        for c in ALL {
            assert!(!c.label.is_empty(), "{}", c.name);
            assert!(
                c.home.as_ref().is_none_or(|h| !h.sessions.is_empty()),
                "{}",
                c.name
            );
            for n in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                assert!(!seen.contains(&n), "{n} names two clients");
                seen.push(n);
                assert_eq!(named(n).map(|c| c.name), Some(c.name));
            }
            let home = Path::new("/h");
            let roots = (c.roots)(Some(home), &|_| None);
            assert!(!roots.is_empty(), "{} has no default folder", c.name);
            // Rows come from a store: a client read only from rows keeps one.
            assert!(
                c.reads.lines.is_some() || matches!(c.finds, Finds::Store(_)),
                "{} has no reader of lines and no store",
                c.name
            );
            // A fork's files are found by its parent's walk.
            if let Finds::Parent(p) = c.finds {
                assert!(
                    matches!(p.finds, Finds::Layout(_)),
                    "{}'s parent walks nothing",
                    c.name
                );
            }
            // A file named for no client is Claude Code's: only it claims
            // every name.
            assert_eq!(
                (c.reads.names)("-home-dev-x/notes.jsonl"),
                matches!(c.finds, Finds::Rest),
                "{} claims a name that is not its own",
                c.name
            );
        }
        // A client's hooks go by its names; no two harnesses share one.
        for c in ALL {
            if let Some(h) = c.hooks {
                assert_eq!((h.name, h.aliases), (c.name, c.aliases), "{}", c.name);
            }
        }
        let mut names: Vec<&str> = harnesses()
            .flat_map(|h| std::iter::once(h.name).chain(h.aliases.iter().copied()))
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a harness name is two harnesses'");
        for h in harnesses() {
            assert!(
                !h.registrations.is_empty() && !h.kinds.is_empty(),
                "{}",
                h.name
            );
            assert!(
                h.registrations.iter().all(
                    |r| h.kinds.iter().any(|(e, _)| *e == r.event) || matches!(r.verb, "event")
                ),
                "{} registers an event it does not say the meaning of",
                h.name
            );
        }
        let rest: Vec<&str> = ALL
            .iter()
            .filter(|c| matches!(c.finds, Finds::Rest))
            .map(|c| c.name)
            .collect();
        assert_eq!(
            rest,
            ["claude-code"],
            "one client takes the folders no other walks"
        );
        assert_eq!(
            Format::ALL.last(),
            Some(&Format::ClaudeCode),
            "the client that claims every name is tested last"
        );
    }

    #[test]
    fn a_variable_moves_a_client_s_home() {
        let env = |k: &str| match k {
            "CODEX_HOME" => Some("/x/cx".to_string()),
            "CLAUDE_CONFIG_DIR" => Some("/a, /b".to_string()),
            "PI_CODING_AGENT_DIR" => Some("/p".to_string()),
            "KIMI_SHARE_DIR" => Some("/k".to_string()),
            "CLINE_DATA_DIR" => Some("/c".to_string()),
            "GEMINI_CLI_HOME" => Some("/g".to_string()),
            "XDG_DATA_HOME" => Some("/d".to_string()),
            "HERMES_HOME" => Some("/e/hermes".to_string()),
            "OPENCLAW_STATE_DIR" => Some("/o/claw".to_string()),
            "VIBE_HOME" => Some("/v".to_string()),
            _ => None,
        };
        let roots: Vec<String> = ALL
            .iter()
            .flat_map(|c| (c.roots)(Some(Path::new("/h")), &env))
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(
            roots,
            [
                "/a/projects",
                "/b/projects",
                "/x/cx/sessions",
                "/x/cx/archived_sessions",
                "/g/.gemini/tmp",
                "/h/.copilot/session-state",
                "/h/.qwen/projects",
                "/p/sessions",
                "/d/opencode",
                "/d/kilo",
                "/k/sessions",
                "/c/sessions",
                "/h/.factory/sessions",
                "/e/hermes",
                "/o/claw",
                "/v/logs/session/unified",
            ]
        );
    }
}
