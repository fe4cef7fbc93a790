//! The import reader on arbitrary text (the body and what it checks:
//! `sessionkit::fuzz::import`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sessionkit::fuzz::import(data));
