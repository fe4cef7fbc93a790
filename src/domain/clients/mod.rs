//! The clients sessionkit reads, each declared once in a file of its own:
//! its harness name and aliases, the format its transcripts are in, where
//! it keeps its sessions (its home, the variable that moves it, the folders
//! in it), and so where `ingest` looks without `--root`. Everything that
//! lists clients, takes a `--harness`, or names a session's client reads
//! these declarations; nothing else compares a client's name.
//!
//! A new client: a file here with its `Client`, one line in `ALL`, its
//! format in `transcript::Format` (the compiler then asks for its reader),
//! its fixtures and golden directory (a test fails while any is missing).

mod claude_code;
mod cline;
mod codex;
mod copilot;
mod droid;
mod gemini;
mod hermes;
mod kilo;
mod kimi;
mod openclaw;
mod opencode;
mod pi;
mod qwen_code;
mod vibe;

use std::path::{Path, PathBuf};

use crate::domain::transcript::Format;

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
    /// Whether one of those folders holds its sessions (by default: it is
    /// a folder).
    pub present: fn(&Path) -> bool,
    /// Its home folder's name (`.codex`) and the folders in it that hold
    /// its sessions: a home given as a root is read there. `None` for a
    /// client whose folder is its root (OpenCode's data folder).
    pub home: Option<Home>,
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

/// The folders read when no root is given: each client's, in `ALL`'s
/// order, those that exist.
pub fn default_roots() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    ALL.iter()
        .flat_map(|c| {
            (c.roots)(home.as_deref(), &env)
                .into_iter()
                .filter(|p| (c.present)(p))
        })
        .collect()
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
        }
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
