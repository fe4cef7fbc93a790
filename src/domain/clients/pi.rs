//! pi: `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions` (as
//! pi reads its own variable).

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static PI: Client = Client {
    name: "pi",
    aliases: &[],
    label: "pi",
    format: Format::Pi,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".pi",
        marker: None,
        sessions: &["agent/sessions"],
    }),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("PI_CODING_AGENT_DIR")
        .map(|d| PathBuf::from(d).join("sessions"))
        .or_else(|| home.map(|h| h.join(".pi/agent/sessions")))
        .into_iter()
        .collect()
}
