//! The ingest floor: read every `.jsonl` file under a root and parse each
//! complete line with serde_json into `IgnoredAny`, one thread per core.
//! `tests/bench/ingest.sh` compares `sessionkit ingest` with this.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl") {
            out.push(p);
        }
    }
}

fn main() {
    let root = std::env::args().nth(1).expect("usage: floor ROOT");
    let mut files = Vec::new();
    walk(Path::new(&root), &mut files);
    let queue = Mutex::new(files);
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let (lines, bytes) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let (mut lines, mut bytes) = (0u64, 0u64);
                    loop {
                        let Some(p) = queue.lock().unwrap().pop() else {
                            break;
                        };
                        let data = std::fs::read(&p).unwrap();
                        bytes += data.len() as u64;
                        let mut start = 0;
                        for nl in memchr::memchr_iter(b'\n', &data) {
                            let l = &data[start..nl];
                            start = nl + 1;
                            if l.is_empty() {
                                continue;
                            }
                            if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() {
                                lines += 1;
                            }
                        }
                    }
                    (lines, bytes)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    println!("{{\"lines\":{lines},\"bytes\":{bytes},\"threads\":{threads}}}");
}
