//! `sessionkit config get|set|unset|list`: runtime settings in the database,
//! each overridable by the environment variable `config list` names.

use anyhow::Result;
use serde_json::Value;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock;
use crate::output::records::{CONFIG_SCHEMA, SettingRecord};
use crate::output::{Column, col};
use crate::services::settings::{self, Source};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("config"))]
pub struct Args {
    /// [default: list]
    #[command(subcommand)]
    pub action: Option<Action>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Print the value in force (environment, else database, else default)
    Get { key: String },
    /// Store a value in the database
    Set { key: String, value: String },
    /// Remove a stored value (the default applies again)
    Unset { key: String },
    /// Every setting: value in force, where it comes from, its variable and default
    List,
}

const COLUMNS: &[Column] = &[
    col("key", "key"),
    col("value", "value"),
    col("source", "source").optional(2),
    col("env", "environment variable").optional(3),
    col("default", "default").optional(2),
    col("description", "description").optional(1),
];

fn row(s: &settings::Setting, value: &str, source: Source) -> Value {
    serde_json::to_value(SettingRecord {
        default: s.default.to_string(),
        description: s.about.to_string(),
        env: s.env.to_string(),
        key: s.key.to_string(),
        schema: CONFIG_SCHEMA.to_string(),
        source: source.as_str().to_string(),
        value: value.to_string(),
    })
    .expect("a record is JSON")
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    match args.action.as_ref().unwrap_or(&Action::List) {
        Action::List => {
            let store = ctx.open_creating()?;
            let mut rows = Vec::new();
            for s in settings::all() {
                let (v, src) = settings::effective(&store, s)?;
                rows.push(row(s, &v, src));
            }
            ctx.out.records(COLUMNS, &rows)?;
        }
        Action::Get { key } => {
            let s = settings::lookup(key)?;
            let store = ctx.open_creating()?;
            let (v, src) = settings::effective(&store, s)?;
            if ctx.out.explicit {
                ctx.out.record(COLUMNS, &row(s, &v, src))?;
            } else {
                use std::io::Write;
                writeln!(std::io::stdout().lock(), "{v}")?;
            }
        }
        Action::Set { key, value } => {
            let s = settings::lookup(key)?;
            let v = settings::validate(s, value)?;
            let store = ctx.open_creating()?;
            store.set_setting(s.key, &v, clock::now())?;
            if std::env::var(s.env).is_ok_and(|e| !e.trim().is_empty()) {
                ctx.out.note(&format!(
                    "{} is set in the environment and overrides this value",
                    s.env
                ));
            }
            if ctx.out.explicit {
                ctx.out.record(COLUMNS, &row(s, &v, Source::Database))?;
            }
        }
        Action::Unset { key } => {
            let s = settings::lookup(key)?;
            let store = ctx.open_creating()?;
            if !store.unset_setting(s.key)? {
                ctx.out.note(&format!(
                    "{} was not set; the default {} applies",
                    s.key, s.default
                ));
            }
        }
    }
    Ok(Exit::Success)
}
