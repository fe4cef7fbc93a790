//! pi: `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions` (as
//! pi reads its own variable).

mod find;
pub mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

/// Reads a block of pi's entries (OpenClaw keeps the same, as rows).
pub(crate) use read::parse_block as read_entries;

pub static PI: Client = Client {
    name: "pi",
    aliases: &[],
    label: "pi",
    format: Format::Pi,
    roots,
    home: Some(Home {
        name: ".pi",
        marker: None,
        sessions: &["agent/sessions"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        said: Some(crate::domain::transcript::said::role_message_line),
        ..Reads::lines(read::is_session, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("PI_CODING_AGENT_DIR")
        .map(|d| PathBuf::from(d).join("sessions"))
        .or_else(|| home.map(|h| h.join(".pi/agent/sessions")))
        .into_iter()
        .collect()
}
