//! Hook payloads are redacted by the crate's one rule set (`crate::domain::redact`).

pub use crate::domain::redact::redact;
