//! Continuity across sessions: curated memories with their audit log and
//! demand, runs (leases and epochs), the turn-end triage and its debrief
//! prompt, and the briefing.

pub mod brief;
pub mod briefing;
pub mod close;
pub mod closer;
pub mod debrief;
pub mod endpoint;
pub mod evidence;
pub mod memory;
pub mod runs;
pub mod triage;
