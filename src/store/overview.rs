//! What `report` draws, as `services::overview` reads it: plain rows for
//! `output::html` to lay out.

use std::collections::BTreeMap;

use crate::domain::clock::Millis;
use crate::store::health_memory::MemoryHealth;
use crate::store::limits::Seen;
use crate::store::reports::{CompactionRow, SessionRow, Totals};
use crate::store::tree::{AgentNode, Reported};

/// Periods a chart's bars are: days, or weeks when the period is long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    Day,
    Week,
}

/// One session drawn in full.
#[derive(Debug)]
pub struct SessionPart {
    pub row: SessionRow,
    /// Its cost within the period.
    pub in_period: Totals,
    pub nodes: Vec<AgentNode>,
    pub reported: Vec<Reported>,
    pub compactions: Vec<CompactionRow>,
    /// Its cost by the agent type that spent it (`main` for the main agent).
    pub by_agent_type: Vec<(String, Totals)>,
    /// What its client itself said the whole session cost, when it says.
    pub client_cost_nanousd: Option<i64>,
}

/// Everything the report shows.
#[derive(Debug)]
pub struct Overview {
    pub since: Option<Millis>,
    pub until: Option<Millis>,
    pub project: Option<String>,
    /// Only this client's sessions (its name), when asked.
    pub harness: Option<String>,
    pub generated_at: Millis,
    pub bucket: Bucket,
    /// Every period from the first message's to the last's (empty ones
    /// too: a chart's time runs evenly).
    pub periods: Vec<String>,
    pub total: Totals,
    /// (period, model) and (period, harness) sums.
    pub by_model: BTreeMap<(String, String), Totals>,
    pub by_harness: BTreeMap<(String, String), Totals>,
    /// Sessions and projects by cost in the period, highest first.
    pub top_sessions: Vec<(String, Totals)>,
    pub top_projects: Vec<(String, Totals)>,
    pub sessions: Vec<SessionPart>,
    pub limits: Vec<Seen>,
    pub memory: MemoryHealth,
}
