//! The import reader on arbitrary text: every line is a record or a
//! rejection with its line number, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sessionkit::continuity::memory::export::read_export;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = read_export(text);
    let lines = text.lines().count();
    for r in &file.rejected {
        let line = r.line;
        assert!(line >= 1 && line <= lines.max(1));
    }
    let records = file.memories.iter().map(|(l, _)| *l);
    for line in records.chain(file.events.iter().map(|(l, _)| *l)) {
        assert!(line >= 1 && line <= lines);
    }
});
