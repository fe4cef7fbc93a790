//! The transcript line scanner and session parser on arbitrary bytes (the
//! body and what it checks: `sessionkit::fuzz::transcript`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sessionkit::fuzz::transcript(data));
