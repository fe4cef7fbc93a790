//! The payload each client sends its hooks, per event: what `doctor`
//! feeds a registered command on stdin (each harness's declaration holds
//! its shape).

use crate::domain::harness::Harness;
use serde_json::Value;
use std::path::Path;

/// The payload `h` sends for `event`, in the shape the captured payloads
/// have.
pub fn payload(h: Harness, event: &str, cwd: &Path) -> Value {
    (h.sample)(event, &cwd.display().to_string())
}
