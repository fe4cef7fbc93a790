//! Instruction-count probe: `parse_probe MODE FILE` with MODE `ignored` (the
//! serde floor) or `parse` (sessionkit's parser). Run under callgrind.
use sessionkit::transcript::*;
fn main() {
    let mode = std::env::args().nth(1).unwrap();
    let path = std::env::args().nth(2).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    if mode == "ignored" {
        let mut n = 0;
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', &bytes) {
            let l = &bytes[start..nl];
            start = nl + 1;
            if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() {
                n += 1;
            }
        }
        println!("{n}");
    } else {
        let mut p = SessionParser::new("x", false);
        p.main_file("a", &bytes).unwrap();
        println!("{}", p.finish().usage.len());
    }
}
