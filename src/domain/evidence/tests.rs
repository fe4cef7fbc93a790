use super::*;

pub(super) fn judge(commitments: &[(&str, &str, &str)], texts: &[&str]) -> Vec<String> {
    let cs: Vec<Commitment<'_>> = commitments
        .iter()
        .map(|(id, topic, content)| Commitment { id, topic, content })
        .collect();
    judge_evidence(&cs, texts)
        .into_iter()
        .map(|v| v.id)
        .collect()
}

#[test]
fn inflected_words_name_the_commitment() {
    let c = [(
        "c1",
        "Migrate users table to Postgres",
        "Migrate the users table from MySQL to Postgres",
    )];
    assert_eq!(
        judge(&c, &["Migrated the users table to PostgreSQL."]),
        ["c1"]
    );
    let c = [(
        "c1",
        "Rename the billing endpoints",
        "Rename the billing endpoints to /v2/billing",
    )];
    assert_eq!(judge(&c, &["The billing endpoint is renamed."]), ["c1"]);
}

#[test]
fn two_of_five_words_and_a_completion_cue_name_it() {
    let c = [(
        "c1",
        "Add a warm-up step to the cache loader",
        "Add a warm-up step to the cache loader",
    )];
    assert_eq!(judge(&c, &["The loader warm-up is in."]), ["c1"]);
}

#[test]
fn a_file_named_only_in_the_content_is_evidence() {
    let c = [(
        "c1",
        "Flaky upload test",
        "Fix test_upload_retry in tests/test_upload.py: it times out on CI",
    )];
    assert_eq!(
        judge(&c, &["Fixed test_upload_retry; the suite passes."]),
        ["c1"]
    );
}

#[test]
fn clauses_close_some_and_leave_others() {
    let c = [
        ("c1", "Cache invalidation", "Cache invalidation"),
        ("c2", "Error pages", "Error pages"),
    ];
    assert_eq!(
        judge(
            &c,
            &["Fixed the cache invalidation, but I didn't touch the error pages."]
        ),
        ["c1"]
    );
}

#[test]
fn negation_hedge_plan_reversal_and_questions_take_it_back() {
    let c = [("c1", "Cache invalidation", "Cache invalidation")];
    for t in [
        "Cache invalidation is not done yet.",
        "Cache invalidation is mostly done.",
        "Next I will finish the cache invalidation.",
        "Fixed the cache invalidation, then reverted it.",
        "Is the cache invalidation done?",
        "Cache invalidation: still failing.",
        "TODO: cache invalidation done check",
        "I couldn't get the cache invalidation finished.",
        "Cache invalidation untouched.",
    ] {
        assert_eq!(judge(&c, &[t]), Vec::<String>::new(), "{t}");
    }
}

#[test]
fn quoted_or_pasted_text_never_resolves() {
    let c = [("c1", "Logging levels", "Logging levels")];
    assert!(
        judge(
            &c,
            &["You asked me to write \"the logging levels are done\" here."]
        )
        .is_empty()
    );
    assert!(judge(&c, &["> Logging levels: done\n\nI read the note above."]).is_empty());
    assert!(judge(&c, &["```\nlogging levels fixed\n```"]).is_empty());
}

#[test]
fn a_key_two_commitments_share_names_neither() {
    let c = [
        ("c1", "Cache warmup", "Cache warmup"),
        ("c2", "Cache eviction", "Cache eviction"),
    ];
    assert!(judge(&c, &["The cache work is done."]).is_empty());
    assert_eq!(judge(&c, &["Cache eviction is done."]), ["c2"]);
}

#[test]
fn another_commitments_id_keeps_the_clause_to_it() {
    let c = [
        ("0190aaaa-bbbb", "Cache eviction", "Cache eviction"),
        ("0190cccc-dddd", "Eviction metrics", "Eviction metrics"),
    ];
    assert_eq!(
        judge(&c, &["Resolved 0190cccc: eviction metrics done."]),
        ["0190cccc-dddd"]
    );
}

#[test]
fn lines_under_a_done_heading_are_done_and_under_next_are_not() {
    let c = [
        ("c1", "Upload retries", "Upload retries"),
        ("c2", "Download progress bar", "Download progress bar"),
    ];
    let text = "## Done\n- upload retries with backoff\n\n## Next\n- download progress bar";
    assert_eq!(judge(&c, &[text]), ["c1"]);
}

#[test]
fn looking_at_something_is_not_doing_it() {
    let c = [("c1", "Upload limits", "Upload limits")];
    assert!(
        judge(
            &c,
            &["Looked at the upload limits code to understand the bug."]
        )
        .is_empty()
    );
    assert!(judge(&c, &["Investigated upload limits."]).is_empty());
}

/// A clause about another environment or platform of the same group is
/// not about this one.
#[test]
fn another_environment_is_something_else() {
    let c = [(
        "c1",
        "Production error tracking",
        "Enable error tracking in the production environment",
    )];
    assert!(judge(&c, &["Error tracking is enabled in dev."]).is_empty());
    assert!(judge(&c, &["Error tracking is enabled on staging."]).is_empty());
    assert_eq!(judge(&c, &["Error tracking is enabled in prod."]), ["c1"]);
}

/// `is` or `are` with a past participle states a reached state; one of
/// looking or needing does not.
#[test]
fn a_reached_state_is_done() {
    let c = [(
        "c1",
        "Pin dependency versions",
        "Pin every dependency version in requirements.txt",
    )];
    assert_eq!(
        judge(&c, &["All deps in requirements.txt are pinned."]),
        ["c1"]
    );
    assert!(judge(&c, &["Dependency versions are needed for the pin."]).is_empty());
    let c = [(
        "c1",
        "Build warnings",
        "Silence the deprecation warnings in webpack.config.js",
    )];
    assert!(
        judge(
            &c,
            &["Opened webpack.config.js to see where the warnings come from."]
        )
        .is_empty()
    );
}

fn judge_tests(commitments: &[(&str, &str, &str)], texts: &[&str], tests: &[&str]) -> Vec<String> {
    let cs: Vec<Commitment<'_>> = commitments
        .iter()
        .map(|(id, topic, content)| Commitment { id, topic, content })
        .collect();
    let tests: Vec<String> = tests.iter().map(ToString::to_string).collect();
    let tools = Tools {
        tests: &tests,
        files: &[],
        commits: &[],
        failed: &[],
    };
    judge_with(&cs, texts, &tools, Aliases::built_in())
        .into_iter()
        .map(|v| v.id)
        .collect()
}

/// A passing run of the commitment's own test stands for "done" when the
/// run's words name it and never take it back.
#[test]
fn a_passing_run_of_its_own_test_is_evidence() {
    let c = [(
        "c1",
        "Flaky retry test",
        "test_upload_retry times out on CI",
    )];
    let passed = ["pytest -k test_upload_retry\n1 passed in 0.2s"];
    let other = ["pytest -k test_download\n1 passed in 0.2s"];
    let words = ["The fix for test_upload_retry uses a fake clock."];
    assert_eq!(judge_tests(&c, &words, &passed), ["c1"]);
    assert!(judge_tests(&c, &words, &other).is_empty());
    assert!(judge_tests(&c, &words, &[]).is_empty());
    // Taken back anywhere: no resolve, test or not.
    let back = [
        "The fix for test_upload_retry uses a fake clock. test_upload_retry still times out locally.",
    ];
    assert!(judge_tests(&c, &back, &passed).is_empty());
    // Not named by the run's words at all: a test passing is not enough.
    assert!(judge_tests(&c, &["Cleaned up the fixtures."], &passed).is_empty());
}

/// A file of the commitment's own, written by the run's edit tools, is
/// evidence too, on the same terms.
#[test]
fn a_file_of_its_own_written_is_evidence() {
    let c = [(
        "c1",
        "Config loader bug",
        "Handle a missing file in src/config/loader.ts",
    )];
    let cs: Vec<Commitment<'_>> = c
        .iter()
        .map(|(id, topic, content)| Commitment { id, topic, content })
        .collect();
    let run = |texts: &[&str], files: &[&str]| -> Vec<String> {
        let files: Vec<String> = files.iter().map(ToString::to_string).collect();
        let tools = Tools {
            tests: &[],
            files: &files,
            commits: &[],
            failed: &[],
        };
        judge_with(&cs, texts, &tools, Aliases::built_in())
            .into_iter()
            .map(|v| v.id)
            .collect()
    };
    let words = ["The src/config/loader.ts change falls back to defaults."];
    assert_eq!(run(&words, &["/w/src/config/loader.ts"]), ["c1"]);
    assert!(run(&words, &["/w/src/config/writer.ts"]).is_empty());
    assert!(
        run(
            &["src/config/loader.ts needs a fallback, should I add one?"],
            &["/w/src/config/loader.ts"]
        )
        .is_empty()
    );
}

/// A clause that takes something back without naming it (`…, but it
/// fails`) takes back what its sentence names; the same clause alone
/// resolves.
#[test]
fn a_failure_in_the_same_sentence_takes_it_back() {
    let c = [(
        "c1",
        "convert orders.payload to jsonb",
        "orders.payload is TEXT; migrate the column to jsonb",
    )];
    let done = "Wrote the migration converting `orders.payload` to jsonb.";
    assert_eq!(judge(&c, &[done]), ["c1"]);
    assert!(judge(&c, &["Wrote the migration converting `orders.payload` to jsonb, but it fails on the CI snapshot."]).is_empty());
    // Another commitment failing in the sentence takes back only itself.
    let two = [c[0], ("c2", "rotate the signing keys", "rotate keys.pem")];
    assert_eq!(
        judge(
            &two,
            &["Converted `orders.payload` to jsonb, but `keys.pem` is still failing its check."]
        ),
        ["c1"]
    );
}

/// A revert that names the commit a clause called done takes it back.
#[test]
fn a_revert_of_the_same_commit_takes_it_back() {
    let c = [(
        "c1",
        "cache the product listings",
        "cache GET /products in `withRedisCache`",
    )];
    let did = "Wrapped the handler in `withRedisCache` and committed it as `a7c90e2`.";
    assert_eq!(judge(&c, &[did]), ["c1"]);
    assert!(
        judge(
            &c,
            &[&format!(
                "{did}\nLoad was worse. Reverted with `git revert a7c90e2`."
            )]
        )
        .is_empty()
    );
    // A revert of another commit leaves it.
    assert_eq!(
        judge(
            &c,
            &[&format!(
                "{did}\nReverted `b81d3f0`, the old logging change."
            )]
        ),
        ["c1"]
    );
}

/// A participle of work not done (`unchanged`, `unmerged`) takes it back;
/// one that describes what the work handles (`unauthenticated requests`)
/// does not.
#[test]
fn work_left_unchanged_is_not_done() {
    let c = [(
        "c1",
        "pool mode in prod",
        "switch `infra/prod/pgbouncer.yaml` to transaction pooling",
    )];
    assert!(judge(&c, &["`infra/prod/pgbouncer.yaml` is unchanged."]).is_empty());
    assert!(
        judge(
            &c,
            &["`infra/prod/pgbouncer.yaml` is updated but unmerged."]
        )
        .is_empty()
    );
    assert_eq!(
        judge(&c, &["`infra/prod/pgbouncer.yaml` is updated."]),
        ["c1"]
    );
    let a = [(
        "c2",
        "Authentication for the admin panel",
        "Require authentication for the admin panel",
    )];
    assert_eq!(
        judge(
            &a,
            &["Admin panel auth is enforced: unauthenticated requests get a 401."]
        ),
        ["c2"]
    );
}

/// A topic named only by its setting (`statement PDFs` of `page numbers
/// on statement PDFs`) is not named; its head names it.
#[test]
fn a_topic_s_setting_alone_does_not_name_it() {
    let c = [(
        "c1",
        "page numbers on statement PDFs",
        "Multi-page statements have no footer",
    )];
    assert!(
        judge(
            &c,
            &["Statement PDFs now format every amount in the account's currency."]
        )
        .is_empty()
    );
    assert_eq!(
        judge(&c, &["Statement PDFs now show page numbers."]),
        ["c1"]
    );
}

/// A line marked as failed or warned (`❌`, `⚠️`), or under a `Problem`
/// heading, is not done.
#[test]
fn failure_marks_and_problem_headings_take_it_back() {
    let c = [(
        "c1",
        "rate limiting on the login endpoint",
        "limit POST /login to 5 a minute",
    )];
    assert_eq!(
        judge(&c, &["Added rate limiting to the login endpoint."]),
        ["c1"]
    );
    assert!(judge(&c, &["❌ Added rate limiting to the login endpoint."]).is_empty());
    assert!(
        judge(
            &c,
            &["### Problem\n- Added rate limiting to the login endpoint."]
        )
        .is_empty()
    );
}

/// A clause that names a commit of the run's by its hash speaks of what
/// the commit's message says; a hash of no commit of the run's names
/// nothing.
#[test]
fn a_commit_named_by_its_hash_says_what_was_done() {
    let cs = [Commitment {
        id: "c1",
        topic: "reject expired API keys",
        content: "API keys past expires_at still authenticate",
    }];
    let commits = ["8c1e4b7 fix(auth): reject API keys past expires_at".to_string()];
    let with = |commits: &[String]| -> Vec<String> {
        let tools = Tools {
            tests: &[],
            files: &[],
            commits,
            failed: &[],
        };
        judge_with(
            &cs,
            &["Done, it's in 8c1e4b7."],
            &tools,
            Aliases::built_in(),
        )
        .into_iter()
        .map(|v| v.id)
        .collect()
    };
    assert_eq!(with(&commits), ["c1"]);
    assert!(with(&[]).is_empty());
    assert!(with(&["5d1e3f8 docs: typo".to_string()]).is_empty());
}

/// A list item ending in a colon is an item, not a heading: under a done
/// heading it is done, under an open one it is not.
#[test]
fn a_list_item_with_a_colon_is_no_heading() {
    let c = [(
        "c1",
        "sync retries spin in a hot loop",
        "`nextDelay()` in internal/sync/backoff.go overflows; cap the delay",
    )];
    assert_eq!(
        judge(
            &c,
            &[
                "### Changes\n- `internal/sync/backoff.go` — `nextDelay()`:\n  capped at five minutes"
            ]
        ),
        ["c1"]
    );
    assert!(
        judge(
            &c,
            &["### Next steps\n- `internal/sync/backoff.go` — `nextDelay()`:\n  cap it"]
        )
        .is_empty()
    );
}

/// A heading marked done (`✅`) files its lines as done; one marked failed
/// (`❌`) as open.
#[test]
fn a_heading_s_mark_files_its_lines() {
    let c = [(
        "c1",
        "accept ISO week dates",
        "`parse_date` raises on 2024-W23-2",
    )];
    let line = "- `parse_date()` tries `date.fromisocalendar()` first.";
    assert_eq!(
        judge(&c, &[&format!("### ✅ ISO week dates\n{line}")]),
        ["c1"]
    );
    assert!(judge(&c, &[&format!("### ❌ ISO week dates\n{line}")]).is_empty());
    assert!(judge(&c, &[&format!("### Notes\n{line}")]).is_empty());
}

/// Work on a sibling of the commitment's hyphenated name (another service,
/// another app of the same kind) is not the commitment's.
#[test]
fn a_sibling_service_is_another_thing() {
    let c = [(
        "c1",
        "invoicing-service: skip empty invoices",
        "In the invoicing-service repo, `InvoiceSender` should skip invoices with no line items",
    )];
    let done = |repo: &str| {
        format!("`InvoiceSender` of the {repo} repo now returns early on empty invoices.")
    };
    assert!(judge(&c, &[&done("billing-service")]).is_empty());
    assert_eq!(judge(&c, &[&done("invoicing-service")]), ["c1"]);
}
