//! Continuity across sessions: curated memories with their audit log and
//! demand (issue 6); runs, triage, briefing and the closer come next.

pub mod brief;
pub mod briefing;
pub mod memory;
pub mod runs;
