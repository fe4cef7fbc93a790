//! One period rule for every command that takes one: a date (or
//! `YYYYMMDD`) is a day in `--tz` (default: the local zone), `--until`
//! includes its day. Checked in three zones against days computed by hand.

use crate::common::Env;

/// Four sessions, one prompt and one answer each, at instants that fall on
/// different days in different zones; each answer's output tokens name it
/// (1, 10, 100, 1000).
const MOMENTS: [(&str, u64); 4] = [
    // Tokyo: 19th 01:00; New York: 18th 12:00.
    ("2025-10-18T16:00:00.000Z", 1),
    // Tokyo: 19th 21:00; New York: 19th 08:00.
    ("2025-10-19T12:00:00.000Z", 10),
    // Tokyo: 20th 11:00; New York: 19th 22:00.
    ("2025-10-20T02:00:00.000Z", 100),
    // Tokyo: 22nd 05:00; New York: 21st 16:00.
    ("2025-10-21T20:00:00.000Z", 1000),
];

fn env() -> Env {
    let env = Env::new();
    let dir = env.path("corpus/-home-dev-clock");
    std::fs::create_dir_all(&dir).unwrap();
    for (n, (at, output)) in MOMENTS.iter().enumerate() {
        let sid = format!("0c000000-0000-4000-8000-00000000000{n}");
        let user = serde_json::json!({"type": "user", "sessionId": sid, "uuid": format!("u-{n}"),
            "timestamp": at, "cwd": "/home/dev/clock",
            "message": {"role": "user", "content": format!("period check {n}")}});
        let answer = serde_json::json!({"type": "assistant", "sessionId": sid, "uuid": format!("a-{n}"),
            "timestamp": at, "cwd": "/home/dev/clock",
            "message": {"model": "claude-sonnet-4-5-20250929", "id": format!("msg_{n}"), "type": "message",
                "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": format!("period answer {n}")}],
                "usage": {"input_tokens": 0, "output_tokens": output}}});
        std::fs::write(
            dir.join(format!("{sid}.jsonl")),
            format!("{user}\n{answer}\n"),
        )
        .unwrap();
    }
    env.ingest(&env.path("corpus"));
    env
}

/// The output tokens `cost` counts in the period.
fn cost(env: &Env, period: &[&str]) -> u64 {
    let v = env.json(&[&["cost"], period].concat());
    v["totals"]["output_tokens"].as_u64().unwrap()
}

/// The sessions listed in the period, as the sum of their tokens.
fn sessions(env: &Env, period: &[&str]) -> u64 {
    let v = env.json(&[&["sessions"], period].concat());
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s["output_tokens"].as_u64().unwrap())
        .sum()
}

/// The answers `search` finds in the period, as the sum of their tokens.
fn search(env: &Env, period: &[&str]) -> u64 {
    let v = env.json(&[&["search", "period", "answer"], period].concat());
    v.as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let n: usize = h["snippet"]
                .as_str()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            MOMENTS[n].1
        })
        .sum()
}

#[test]
fn a_date_is_a_day_in_the_zone_for_every_command() {
    let env = env();
    // The 19th to the 20th, each zone's days.
    let cases: [(&str, u64, u64); 3] = [
        // UTC: the 19th holds 10, the 20th 100.
        ("UTC", 10, 110),
        // Tokyo: the 19th holds 1 and 10, the 20th 100.
        ("Asia/Tokyo", 11, 111),
        // New York: the 19th holds 10 and 100, the 20th nothing.
        ("America/New_York", 110, 110),
    ];
    for (tz, one_day, two_days) in cases {
        for day in ["2025-10-19", "20251019"] {
            let p = ["--since", day, "--until", day, "--tz", tz];
            assert_eq!(cost(&env, &p), one_day, "cost {tz} {day}");
            assert_eq!(sessions(&env, &p), one_day, "sessions {tz} {day}");
            assert_eq!(search(&env, &p), one_day, "search {tz} {day}");
        }
        let p = ["--since", "2025-10-19", "--until", "20251020", "--tz", tz];
        assert_eq!(cost(&env, &p), two_days, "cost {tz} two days");
        assert_eq!(sessions(&env, &p), two_days, "sessions {tz} two days");
        assert_eq!(search(&env, &p), two_days, "search {tz} two days");
    }
    // With no --tz, the local zone (TZ) decides.
    let (_, out, _) = env.run_with_env(
        &[
            "cost",
            "--since",
            "2025-10-19",
            "--until",
            "2025-10-19",
            "--format",
            "json",
        ],
        &[("TZ", "Asia/Tokyo")],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["totals"]["output_tokens"], 11);
    // A date that is no date is refused.
    let (code, _, err) = env.run(&["cost", "--since", "20251032"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a time"), "{err}");
}
