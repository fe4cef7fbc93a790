use super::*;

#[test]
fn model_names_lose_their_family_and_date_in_a_fitted_table() {
    let short_model = |m| short_model_of(m, true);
    assert_eq!(short_model("claude-sonnet-4-5-20250929"), "sonnet-4-5");
    assert_eq!(short_model("claude-opus-4-8"), "opus-4-8");
    assert_eq!(short_model("gpt-5"), "gpt-5");
    assert_eq!(short_model("gemini-2.5-pro"), "gemini-2.5-pro");
    assert_eq!(short_model("<synthetic>"), "<synthetic>");
    assert_eq!(
        short_model_of("claude-sonnet-4-5-20250929", false),
        "sonnet-4-5-20250929"
    );
}

fn short_model_of(m: &str, dated: bool) -> String {
    super::short_model(m, dated)
}

/// Two names that would shorten to one keep their dates; names that
/// would still be one stay whole.
#[test]
fn short_model_names_never_merge_two_models() {
    let one = serde_json::json!("claude-sonnet-4-5");
    let dated = serde_json::json!("claude-sonnet-4-5-20250929");
    let opus = serde_json::json!(["claude-opus-4-5-20251101", "gpt-5"]);
    assert!(short_names_stay_apart([&dated, &opus].into_iter(), true));
    assert!(!short_names_stay_apart([&one, &dated].into_iter(), true));
    assert!(short_names_stay_apart([&one, &dated].into_iter(), false));
    let bare = serde_json::json!("sonnet-4-5");
    assert!(!short_names_stay_apart([&one, &bare].into_iter(), false));
}

#[test]
fn ids_shorten_to_their_shortest_unique_prefix() {
    let ids = [
        "01a24232-e13b-774b-bf98-007af842d15e",
        "01a24232-e13b-774b-bf98-007af842d15f",
    ];
    assert_eq!(
        unique_prefix(ids.iter().copied(), &[]),
        None,
        "nothing gained"
    );
    let ids = [
        "5a1f0c2e-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
        "5a1f0c2f-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
        "ad513e3b-613c-4417-968a-c6db9535f056",
    ];
    assert_eq!(unique_prefix(ids.iter().copied(), &[]), Some(8));
    let ids = [
        "5a1f0c2e-7b3d-4e8f-9a6b-2c4d6e8f0a1b",
        "5a1f0c2e-7b3d-4e9f-9a6b-2c4d6e8f0a1b",
    ];
    assert_eq!(unique_prefix(ids.iter().copied(), &[]), Some(17));
    assert_eq!(
        unique_prefix(["only-one-id-here-0000"].into_iter(), &[]),
        Some(8)
    );
    // Kept apart from the database's ids too, not only the rows shown.
    let known: Vec<String> = [
        "01a24789-0000-7000-8000-000000000001",
        "01a24789-1111-7000-8000-000000000002",
        "01a24789-1122-7000-8000-000000000003",
    ]
    .map(String::from)
    .to_vec();
    assert_eq!(
        unique_prefix([known[0].as_str()].into_iter(), &known),
        Some(10)
    );
    assert_eq!(
        unique_prefix([known[1].as_str()].into_iter(), &known),
        Some(12)
    );
}

#[test]
fn money_reads_as_people_read_it() {
    let cases = [
        (0.0, "$0.00"),
        (0.81, "$0.81"),
        (0.017493, "$0.02"),
        (1234.567, "$1,234.57"),
        (0.0014, "$0.0014"),
        (0.001_449, "$0.0014"),
        (0.000_052_1, "$0.000052"),
        (0.000_000_2, "<$0.000001"),
        (-0.5, "-$0.50"),
    ];
    for (usd, text) in cases {
        assert_eq!(money(usd), text, "{usd}");
    }
}
use serde_json::json;

#[test]
fn csv_quotes_and_flattens() {
    let mut buf = Vec::new();
    let cols = [col("a", "A"), col("b", "B"), col("c", "C")];
    csv(
        &mut buf,
        &cols,
        &[
            json!({"a": "x,\"y\"", "b": ["m1", "m2"], "c": null}),
            json!({"a": "red \u{1b}[31mtext\u{7}", "b": "two\nlines\ttab", "c": "\u{202e}rtl"}),
        ],
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(buf).unwrap(),
        "a,b,c\n\"x,\"\"y\"\"\",m1;m2,\nred \\u{1b}[31mtext\\u{7},\"two\nlines\ttab\",\\u{202e}rtl\n"
    );
}

#[test]
fn digits_are_grouped_for_token_columns() {
    assert_eq!(
        cell_text(Some(&json!(1234567)), "input_tokens"),
        "1,234,567"
    );
    assert_eq!(cell_text(Some(&json!(1234567)), "records"), "1234567");
}

#[test]
fn a_styled_header_loses_its_padding_as_the_rows_do() {
    let drawn = " \x1b[1mSESSION\x1b[0m  \x1b[1mCOST\x1b[0m\n 01a24232  $0.02\n";
    assert_eq!(
        trim_lines(drawn),
        "\x1b[1mSESSION\x1b[0m  \x1b[1mCOST\x1b[0m\n01a24232  $0.02"
    );
    let styled_padding = "\x1b[1m SESSION\x1b[0m\n 01a24232";
    assert_eq!(
        trim_lines(styled_padding),
        "\x1b[1mSESSION\x1b[0m\n01a24232"
    );
}

#[test]
fn every_dollar_amount_has_its_sign() {
    for key in [
        "cost_usd",
        "cost_delta_usd",
        "harness_cost_usd",
        "stated_cost_usd",
    ] {
        assert_eq!(cell_text(Some(&json!(0.084767)), key), "$0.08", "{key}");
        assert_eq!(cell_text(Some(&json!(-0.040674)), key), "-$0.04", "{key}");
    }
    // Nano-dollars are an exact count, not an amount to round.
    assert_eq!(
        cell_text(Some(&json!(84767000)), "cost_nanousd"),
        "84767000"
    );
}
