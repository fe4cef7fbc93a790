//! Services: work that combines the domain's rules with the store, and
//! nothing that prints or parses arguments.
//!
//! `ingest` (an ingest run, streaming each session in parts), `hook` (a
//! hook's lifecycle: receiving it, the session start, the turn-end nudge,
//! the prompt recall), `brief` (a briefing), `check` (the integrity check), `close` (the closer's batch),
//! `endpoint` (the closer's model endpoint), `install` and `doctor` (a
//! harness's settings, and checking them), `push` (a team's PostgreSQL
//! database), `report` (cost reports), `search` (finding what was said), `limits` (the history of usage limits), `statusline` (a status line call), `sweep` (the periodic upkeep), `settings`, `project` (naming a
//! project).

pub mod brief;
pub mod check;
pub mod close;
pub mod doctor;
pub mod endpoint;
pub mod golden;
pub mod hook;
pub mod ingest;
pub mod install;
pub mod limits;
pub mod otlp;
pub mod overview;
pub mod project;
pub mod push;
pub mod report;
pub mod search;
pub mod settings;
pub mod statusline;
pub mod sweep;
