use super::*;

#[test]
fn the_part_size_is_the_settings_default() {
    let s = crate::services::settings::all()
        .iter()
        .find(|s| s.key == "ingest.part_bytes")
        .unwrap();
    assert_eq!(s.default, PART_BYTES.to_string());
}

/// A file that vanishes (or turns unreadable) between the walk and the
/// read fails its session with a reason and counts a skip. (Permissions
/// cannot make a file unreadable for root, so this is the portable case.)
#[test]
fn main_transcript_unreadable_at_read_time_fails_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let sid = "aaaaaaaa-0000-4000-8000-000000000001";
    let main = dir.path().join(format!("p/{sid}.jsonl"));
    std::fs::create_dir_all(main.parent().unwrap()).unwrap();
    std::fs::write(&main, "{\"type\":\"user\"}\n").unwrap();
    let mut d = Discovery::default();
    corpus::discover(0, dir.path(), 1 << 20, &mut d);
    std::fs::remove_file(&main).unwrap();
    let opts = Options {
        strict: false,
        max_line_size: 1 << 20,
        replay: false,
        only: BTreeSet::new(),
        strict_pricing: false,
        bulk_bytes: u64::MAX,
        part_bytes: crate::services::ingest::PART_BYTES,
        max_bytes: None,
        one: None,
        harness: None,
        said: None,
        said_only: false,
    };
    let mut events = Vec::new();
    stream::read_session(
        &d.sessions[sid],
        &opts,
        None,
        &mut Buffers::default(),
        &mut |ev| {
            events.push(ev);
            true
        },
    );
    assert_eq!(events.len(), 1);
    let ev = events.pop().unwrap();
    let Err(f) = ev.result else {
        panic!("expected a failure")
    };
    assert_eq!(
        f.reason,
        "main transcript unreadable: no such file or directory"
    );
    assert!(!f.strict);
    assert_eq!(ev.skips.len(), 1);
    assert_eq!(ev.skips[0].reason, corpus::SkipReason::Unreadable);
    assert_eq!(ev.skips[0].path, format!("p/{sid}.jsonl"));
}
