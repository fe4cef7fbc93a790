//! The redactor on arbitrary text and JSON: no panic, and redacting what is
//! already redacted changes nothing more.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sessionkit::redact::{redact, redact_text};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let once = redact_text(&text).into_owned();
    let twice = redact_text(&once).into_owned();
    assert_eq!(once, twice, "redaction is idempotent");
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let once = redact(&v);
        assert_eq!(redact(&once), once, "redaction is idempotent");
    }
});
