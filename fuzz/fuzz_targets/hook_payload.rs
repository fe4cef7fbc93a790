//! A hook's stdin, whatever it is (the body and what it checks:
//! `sessionkit::fuzz::hook_payload`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sessionkit::fuzz::hook_payload(data));
