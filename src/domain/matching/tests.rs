use super::*;

fn keys(text: &str) -> Vec<String> {
    terms(text, Aliases::built_in())
        .into_iter()
        .map(|t| t.key)
        .collect()
}

fn strengths(text: &str) -> Vec<(String, Strength)> {
    terms(text, Aliases::built_in())
        .into_iter()
        .map(|t| (t.key, t.strength))
        .collect()
}

#[test]
fn the_stop_list_is_sorted() {
    assert!(STOP.windows(2).all(|w| w[0] < w[1]));
}

/// Inflections are one term: what a commitment says and what an agent
/// reports meet.
#[test]
fn inflections_share_a_key() {
    assert_eq!(keys("migrate"), keys("Migrated"));
    assert_eq!(keys("rename"), keys("renamed"));
    assert_eq!(keys("endpoints"), keys("endpoint"));
    assert_eq!(keys("deployment"), keys("deploy"));
    assert_eq!(keys("deployed"), keys("deploying"));
}

/// Identifiers stay whole (strong) and give their words (weak).
#[test]
fn identifiers_are_kept_whole_and_split() {
    assert_eq!(
        strengths("src/api/routes.ts"),
        [
            ("src-api-rout-ts".to_string(), Strength::Identifier),
            ("src".to_string(), Strength::Part),
            ("api".to_string(), Strength::Part),
            ("rout".to_string(), Strength::Part),
            ("typescript".to_string(), Strength::Part),
        ]
    );
    assert_eq!(keys("parseConfig"), keys("parse_config"));
    assert_eq!(keys("parse_config")[1..], ["pars", "configur"]);
    assert_eq!(
        strengths("warm-up"),
        [
            ("warm-up".to_string(), Strength::Compound),
            ("warm".to_string(), Strength::Part)
        ]
    );
    // `up` is a stop word: the compound keeps it, alone it says nothing.
}

/// Numbers and versions are whole; sentence marks and quotes fall away.
#[test]
fn numbers_versions_and_edges() {
    assert_eq!(
        strengths("Bumped to v2.1.0 (see #42)."),
        [
            ("bump".to_string(), Strength::Word),
            ("v2.1.0".to_string(), Strength::Identifier),
            ("see".to_string(), Strength::Word),
            ("#42".to_string(), Strength::Word),
        ]
    );
    assert_eq!(keys("\"Caching\","), keys("cache"));
}

/// Aliases: abbreviations and synonyms are one term; a setting adds more.
#[test]
fn aliases_join_words_engineers_use_for_one_another() {
    assert_eq!(keys("PostgreSQL"), keys("postgres"));
    assert_eq!(keys("docs"), keys("documentation"));
    assert_eq!(keys("DB"), keys("databases"));
    assert_eq!(keys("config"), keys("settings"));
    assert_eq!(keys("sign-in")[0], keys("login")[0]);
    let more = Aliases::with("canary = staged-rollout; flaky,intermittent").unwrap();
    let k = |t: &str| {
        terms(t, &more)
            .into_iter()
            .map(|t| t.key)
            .collect::<Vec<_>>()
    };
    assert_eq!(k("intermittent"), k("flaky"));
    assert_eq!(k("staged-rollout")[0], k("canary")[0]);
    assert!(Aliases::with("lonely").is_err());
    assert!(Aliases::with("two words=one").is_err());
}

/// Generic verbs and stop words weigh little or nothing.
#[test]
fn generic_words_weigh_little() {
    assert_eq!(
        strengths("Add a warm-up step to the cache loader"),
        [
            ("add".to_string(), Strength::Generic),
            ("warm-up".to_string(), Strength::Compound),
            ("warm".to_string(), Strength::Part),
            ("step".to_string(), Strength::Word),
            ("cach".to_string(), Strength::Word),
            ("loader".to_string(), Strength::Word),
        ]
    );
}

/// A word in over a tenth of the documents (and in thousands) is left out
/// when the query has rarer ones; when every word is that common, all stay.
#[test]
fn common_words_give_way_to_rarer_ones() {
    let counted = [(5_000, "fix"), (12, "migration"), (3_000, "the")];
    assert_eq!(
        super::uncommon(&counted, 20_000),
        (vec!["migration"], false)
    );
    let all_common = [(5_000, "fix"), (3_000, "the")];
    assert_eq!(
        super::uncommon(&all_common, 20_000),
        (vec!["fix", "the"], true)
    );
    // A small store keeps every word, however often it appears.
    assert_eq!(
        super::uncommon(&[(1_900, "fix"), (1, "x")], 2_000),
        (vec!["fix", "x"], false)
    );
}
