use crate::spec::GameSpec;
use crate::styles::FaceRng;
use rand_core::SeedableRng;
use std::path::PathBuf;

/// A game of two hands of poker and one reveal box; `weights` is the card_hands
/// surface's combination weights, as TOML text.
/// `areas` is the way 10+2's `areas` line (or nothing: free wins).
fn mixed_at(weights: &str, areas: &str) -> Result<GameSpec, crate::spec::SpecError> {
    GameSpec::parse(&PathBuf::from("mixte.toml"), mixed_text(weights, areas))
}

/// The text of [`mixed_at`]'s spec.
fn mixed_text(weights: &str, areas: &str) -> String {
    format!(
        r#"
[game]
id = "mixte"
name = "MIXTE"
legal_reference = "Test game"
currency = "EUR"
price = 1
block_size = 1_000
pack_size = 50
game_code = 9999

[published]
lots = 300
payout = 1_950

[captions]
"0" = "ZERO EURO"
"2" = "DEUX EUROS"
"5" = "CINQ EUROS"
"10" = "DIX EUROS"

[[surfaces]]
style = "card_hands"
id = "mains"
zone_ids = ["m1", "m2"]
rank_names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A"]
suit_names = ["TREFLE", "CARREAU", "COEUR", "PIQUE"]
combinations = [
  {{ id = "paire", kind = "pair" }},
  {{ id = "brelan", kind = "three_of_a_kind" }},
]
zone_amounts = [5, 10]
decoy_weights = {{ "5" = 1, "10" = 1 }}
{weights}

[[surfaces]]
style = "reveal"
id = "cash"
boxes = 1
amounts = [2]

[[tiers]]
amount = 12
count = 50
total = 600
[[tiers.ways]]
id = "10+2"
count = 50
wins = [10, 2]
{areas}

[[tiers]]
amount = 7
count = 50
total = 350
[[tiers.ways]]
id = "5+2"
count = 50
wins = [5, 2]

[[tiers]]
amount = 5
count = 200
total = 1_000
[[tiers.ways]]
id = "5"
count = 200
wins = [5]
"#
    )
}

fn mixed(weights: &str) -> Result<GameSpec, crate::spec::SpecError> {
    mixed_at(weights, "")
}

const ALL_TIERS: &str = r#"
[surfaces.combination_weights."12"]
paire = 1
[surfaces.combination_weights."7"]
brelan = 1
[surfaces.combination_weights."5"]
paire = 1
"#;

/// Way 5+2 of tier 7 shows tier 7's combination (brelan), not that of the amount 5 the
/// zone wins; tier 12 (10+2) shows a paire.
#[test]
fn tier_weights_apply_to_the_tier_not_the_zone_amount() {
    let s = mixed(ALL_TIERS).unwrap_or_else(|e| panic!("{e}"));
    for (id, want) in [("5+2", "brelan"), ("10+2", "paire"), ("5", "paire")] {
        let way = s.ways.iter().find(|w| w.id == id).unwrap();
        for seed in 0..200u64 {
            let f = s.game.synthesize(way, &mut FaceRng::seed_from_u64(seed));
            let ev = s.game.evaluate(&f);
            assert!(ev.ambiguities.is_empty(), "{id} seed {seed}");
            assert_eq!(ev.prize(), way.amount, "{id} seed {seed}");
            let names: Vec<&str> = ev
                .features
                .iter()
                .map(|f| s.game.feature_name(f.id))
                .filter(|&n| n == "paire" || n == "brelan")
                .collect();
            assert_eq!(names, [want], "{id} seed {seed}");
        }
    }
    let lines = &s.game.layout().description;
    assert!(
        lines
            .iter()
            .any(|l| l.contains("tier 7") && l.contains("brelan×1")),
        "{lines:?}"
    );
}

/// Errors inside a weight sub-table point at its own line, not the `[[surfaces]]` one.
#[test]
fn weight_errors_point_at_their_own_line() {
    let line_of = |text: &str, l: &str| text.lines().position(|x| x == l).unwrap() + 1;
    let w = ALL_TIERS.replace("brelan = 1", "carre = 1");
    let text = mixed_text(&w, "");
    let e = mixed(&w).unwrap_err();
    assert_eq!(e.field, "surfaces[0].combination_weights.\"7\".carre");
    assert_eq!(e.line, Some(line_of(&text, "carre = 1")));
    let w = ALL_TIERS.replace("\"7\"", "\"9\"");
    let text = mixed_text(&w, "");
    let e = mixed(&w).unwrap_err();
    assert_eq!(e.field, "surfaces[0].combination_weights.\"9\"");
    assert_eq!(
        e.line,
        Some(line_of(&text, "[surfaces.combination_weights.\"9\"]"))
    );
    assert_eq!(e.message, "\"9\" is not the amount of a tier");
}

/// A tier table that no way uses is an error naming it.
#[test]
fn a_tier_table_no_way_uses_is_an_error() {
    let e = mixed(&format!(
        "{ALL_TIERS}[surfaces.way_combination_weights.\"5\"]\nbrelan = 1\n"
    ))
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "mixte.toml:22: surfaces[0]: surface \"mains\": combination_weights.\"5\" never applies: no way of tier 5 wins on a zone of this surface without way_combination_weights of its own"
    );
}

/// A tier whose ways win on the poker zones but has no weights is an error naming it.
#[test]
fn a_tier_without_weights_is_an_error() {
    let only_5 = r#"
[surfaces.combination_weights."5"]
paire = 1
[surfaces.combination_weights."7"]
brelan = 1
"#;
    let why = "surface \"mains\": no combination weights: add combination_weights.\"12\" (its tier's amount) or way_combination_weights.\"10+2\"";
    for areas in ["", r#"areas = ["m1", "cash"]"#] {
        let e = mixed_at(only_5, areas).unwrap_err().to_string();
        assert!(e.starts_with("mixte.toml:51: way \"10+2\": "), "{e}");
        assert!(e.contains(why), "{e}");
    }
}
