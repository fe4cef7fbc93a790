//! Continuity across sessions: curated memories with their audit log and
//! demand (issue 6); runs, triage, briefing and the closer come next.

pub mod memory;
pub mod runs;
