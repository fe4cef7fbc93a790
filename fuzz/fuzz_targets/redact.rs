//! The redactor on arbitrary text and JSON (the body and what it checks:
//! `sessionkit::fuzz::redact_input`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sessionkit::fuzz::redact_input(data));
