//! Factory Droid: `~/.factory/sessions`: `<cwd slug>/<uuid>.jsonl` and the
//! `<uuid>.settings.json` holding its token totals.

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static DROID: Client = Client {
    name: "droid",
    aliases: &["factory-droid"],
    label: "Factory Droid",
    format: Format::Droid,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".factory",
        marker: None,
        sessions: &["sessions"],
    }),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".factory/sessions")])
        .unwrap_or_default()
}
