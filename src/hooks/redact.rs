//! Hook payloads are redacted by the crate's one rule set (`crate::redact`).

pub use crate::redact::redact;
