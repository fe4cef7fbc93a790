//! The veto functions on both sides of the line, each verdict's rule,
//! and a tool result that contradicts the words.

use super::tests::judge;
use super::*;

/// Each function of the lexicon on both sides of the line: the sentence
/// with the word or form stays open (and the veto names its function),
/// the same sentence without it resolves.
#[test]
fn each_veto_function_keeps_it_open_and_its_absence_resolves() {
    let c = [(
        "c1",
        "Retry the webhook deliveries",
        "Retry failed webhook deliveries with backoff",
    )];
    let plain = "Fixed the webhook delivery retries.";
    assert_eq!(judge(&c, &[plain]), ["c1"]);
    let cases: &[(&str, Veto)] = &[
        ("I think I fixed the webhook delivery retries.", Veto::Hedge),
        (
            "Fixed the webhook delivery retries, presumably.",
            Veto::Hedge,
        ),
        (
            "As far as I can tell I fixed the webhook delivery retries.",
            Veto::Hedge,
        ),
        (
            "We still need to fix the webhook delivery retries.",
            Veto::Plan,
        ),
        (
            "The webhook delivery retries are yet to be fixed.",
            Veto::Plan,
        ),
        (
            "I'll have fixed the webhook delivery retries by then.",
            Veto::Plan,
        ),
        ("Fixed the webhook delivery retries for now.", Veto::Scope),
        (
            "Fixed the webhook delivery retries only for Stripe.",
            Veto::Scope,
        ),
        ("Fixed some of the webhook delivery retries.", Veto::Scope),
        (
            "Fixed the webhook delivery retries in the other repo.",
            Veto::Scope,
        ),
        (
            "Fixed the webhook delivery retries on my machine.",
            Veto::Scope,
        ),
        ("Started fixing the webhook delivery retries.", Veto::Scope),
        (
            "The webhook delivery retries haven't been fixed.",
            Veto::Negation,
        ),
        (
            "Fixed the webhook delivery retries? Not sure.",
            Veto::Question,
        ),
        (
            "Fixed the webhook delivery retries if the queue is up.",
            Veto::Condition,
        ),
        (
            "Fixed the webhook delivery retries, then rolled it back.",
            Veto::Reversal,
        ),
        (
            "Fixed the webhook delivery retries but the suite failed.",
            Veto::Failure,
        ),
        (
            "Fixed the webhook delivery retries, untested.",
            Veto::Failure,
        ),
        (
            "Mark the webhook delivery retries fixed.",
            Veto::Instruction,
        ),
        (
            "Investigating the webhook delivery retries fix.",
            Veto::Looking,
        ),
    ];
    for (text, why) in cases {
        assert_eq!(judge(&c, &[text]), Vec::<String>::new(), "{text}");
        let first = clauses(text).into_iter().find_map(|c| c.veto());
        assert_eq!(first, Some(*why), "{text}");
    }
    // Under a heading of work to come, or with an open box.
    let open = [
        "## Next steps\n- Fixed the webhook delivery retries.",
        "- [ ] Fixed the webhook delivery retries.",
    ];
    for text in open {
        assert_eq!(judge(&c, &[text]), Vec::<String>::new(), "{text}");
        let first = clauses(text).into_iter().find_map(|c| c.veto());
        assert_eq!(first, Some(Veto::Open), "{text}");
    }
}

/// A verdict names the rule that read it: how the clause named the
/// commitment, how it said it was done.
#[test]
fn a_verdict_names_its_rule() {
    let cs = [
        Commitment {
            id: "01990000-aaaa-7000-8000-000000000001",
            topic: "Retry the webhook deliveries",
            content: "Retry failed deliveries in webhooks/retry.rs",
        },
        Commitment {
            id: "01990000-bbbb-7000-8000-000000000002",
            topic: "Dark mode toggle",
            content: "Add a dark mode toggle to settings",
        },
    ];
    let rules = |text: &str| -> Vec<String> {
        judge_evidence(&cs, &[text])
            .into_iter()
            .map(|v| v.rule)
            .collect()
    };
    assert_eq!(
        rules("Fixed the webhook delivery retries."),
        ["topic+done-word"]
    );
    assert_eq!(
        rules("webhooks/retry.rs is merged."),
        ["identifier+done-word"]
    );
    assert_eq!(rules("01990000-bbbb: shipped."), ["id+done-word"]);
    assert_eq!(
        rules("## Done\n- the dark mode toggle in settings"),
        ["topic+done-section"]
    );
    assert_eq!(
        rules("The dark mode toggle now switches themes."),
        ["topic+now"]
    );
}

/// A test run that failed, and was not run again to a pass, contradicts
/// a "fixed" for the commitment it names; one it does not name, or a run
/// passed later, does not.
#[test]
fn a_failing_test_run_that_names_it_takes_it_back() {
    let cs = [Commitment {
        id: "c1",
        topic: "Fix the login redirect",
        content: "The login redirect loops on expired sessions (auth/redirect.ts)",
    }];
    let text = ["Fixed the login redirect loop."];
    let judge = |failed: &[&str]| -> Vec<String> {
        let failed: Vec<String> = failed.iter().map(ToString::to_string).collect();
        let tools = Tools {
            failed: &failed,
            ..Tools::default()
        };
        judge_with(&cs, &text, &tools, Aliases::built_in())
            .into_iter()
            .map(|v| v.id)
            .collect()
    };
    assert_eq!(judge(&[]), ["c1"]);
    assert_eq!(
        judge(&["npm test\nFAIL auth/redirect.test.ts\n  login redirect loops\n1 failed"]),
        Vec::<String>::new()
    );
    assert_eq!(
        judge(&["npm test\nFAIL billing/invoice.test.ts\n1 failed"]),
        ["c1"]
    );
}
