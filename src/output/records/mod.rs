//! The JSON shapes commands print, field by field: the documented
//! contracts. Commands build their records here (or from these pieces);
//! the renderers in this module's siblings only lay them out. One module
//! per family of commands: `usage` (sessions, show, cost and its
//! segments), `status` (status, check), `continuity` (brief, eval),
//! `hooks` (hooks install/status/doctor), `search` (search, show --at), `admin` (sweep, prune, config,
//! pricing, sources, push).

mod admin;
mod continuity;
mod hooks;
mod search;
mod status;
mod usage;

pub use admin::*;
pub use continuity::*;
pub use hooks::*;
pub use search::*;
pub use status::*;
pub use usage::*;
