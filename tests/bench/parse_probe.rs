//! Instruction-count and timing probe: `parse_probe MODE FILE [ROUNDS]` with
//! MODE `ignored` (the serde floor) or `parse` (sessionkit's parser). Run
//! under callgrind for instruction counts; with ROUNDS it prints the best
//! round's time, the file read once and kept in memory.
use std::time::Instant;

fn ignored(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        let l = &bytes[start..nl];
        start = nl + 1;
        if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() {
            n += 1;
        }
    }
    n
}

fn parse(bytes: &[u8]) -> usize {
    sessionkit::parse_probe(bytes).unwrap()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap();
    let path = std::env::args().nth(2).unwrap();
    let rounds: u32 = std::env::args().nth(3).map_or(1, |r| r.parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    let run = if mode == "ignored" { ignored } else { parse };
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        n = run(&bytes);
        best = best.min(t.elapsed().as_secs_f64());
    }
    if rounds > 1 {
        println!("{n} best {:.2} ms", best * 1e3);
    } else {
        println!("{n}");
    }
}
