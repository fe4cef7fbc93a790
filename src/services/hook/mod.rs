//! A hook's lifecycle: storing what the harness sent (`receive`), the
//! session start's briefing and run (`session`), the turn-end nudge
//! (`stop`), the prompt recall (`prompt`).

pub mod prompt;
pub mod receive;
pub mod session;
pub mod stop;
