//! Multiplied play areas and the multiplier box as a game designer writes them wrong: every
//! mistake is an exit 2 naming the file, the field (or the way) and what was expected.

mod common;

use common::{repo, tirage};

/// `tirage check` on example `name` with `edit` applied to its text: exit code and stderr.
fn check_edited(name: &str, edit: impl Fn(&str) -> String) -> (i32, String) {
    let text = std::fs::read_to_string(repo(&format!("game_specs/examples/{name}"))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join(name);
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&spec, edited).unwrap();
    let o = tirage().arg("check").arg(&spec).output().unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const AREAS: &str = "zones_multipliees.toml";
const BOX: &str = "numero_multiplicateur.toml";

#[test]
fn a_surface_factor_below_two_is_refused() {
    let (code, err) = check_edited(AREAS, |t| t.replace("multiply = 2 ", "multiply = 1 "));
    assert_eq!(code, 2);
    assert!(
        err.contains("surfaces[1].multiply: expected a whole factor from 2 to 1000"),
        "{err}"
    );
    let (code, err) = check_edited(AREAS, |t| t.replace("multiply = 2 ", "multiply = 2.5 "));
    assert_eq!(code, 2);
    assert!(err.contains("surfaces[1].multiply"), "{err}");
}

#[test]
fn a_win_no_printed_amount_times_the_factor_gives_is_refused_with_the_way() {
    let (code, err) = check_edited(AREAS, |t| {
        t.replace(
            "id = \"2\"\ncount = 400\nwins = [2]",
            "id = \"2\"\ncount = 400\nwins = [2]\nareas = [\"jeu3\"]",
        )
    });
    assert_eq!(code, 2);
    assert!(
        err.contains("way \"2\": no surface can carry it: surface \"jeu3\": « jeu3 » cannot win 0.4: a box shows 1, 4, 20, 100"),
        "{err}"
    );
}

#[test]
fn a_combined_only_tier_is_never_reached_by_one_plain_win() {
    // The 10 € win placed on the plain area: not a combination.
    let (code, err) = check_edited(AREAS, |t| {
        t.replace(
            "wins = [10]\nareas = [\"jeu2\"]",
            "wins = [10]\nareas = [\"jeu1\"]",
        )
    });
    assert_eq!(code, 2);
    assert!(
        err.contains("way \"5x2\": no surface can carry it: its tier is reached only by combining wins, and its one win is not multiplied"),
        "{err}"
    );
    // Under a 1X box, the 1 000 € lot would be one plain win.
    let (code, err) = check_edited(BOX, |t| t.replace("box = 10", "box = 1"));
    assert_eq!(code, 2);
    assert!(
        err.contains("way \"100x10\": no value of the multiplier box can carry it: 1X: no surface can carry it: its tier is reached only by combining wins"),
        "{err}"
    );
}

#[test]
fn a_way_box_value_must_be_one_of_the_box() {
    let (code, err) = check_edited(BOX, |t| t.replace("box = 10", "box = 3"));
    assert_eq!(code, 2);
    assert!(
        err.contains("tiers[0].ways[0].box (amount 1000, way \"100x10\"): 3 is not a value of the box; [box] multipliers = [1, 2, 5, 10]"),
        "{err}"
    );
    let (code, err) = check_edited(BOX, |t| t.replace("[box]\nmultipliers = [1, 2, 5, 10]", ""));
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "tiers[0].ways[0].box (amount 1000, way \"100x10\"): the spec has no multiplier box"
        ),
        "{err}"
    );
}

#[test]
fn box_values_are_checked() {
    for bad in [
        "[]",
        "[1, 1]",
        "[0, 2]",
        "[1, 2, 3, 4, 5, 6, 7, 8, 10]",
        "[2, 5000]",
    ] {
        let (code, err) = check_edited(BOX, |t| {
            t.replace(
                "multipliers = [1, 2, 5, 10]",
                &format!("multipliers = {bad}"),
            )
        });
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.contains("box.multipliers: expected 1 to 8 different values, each a whole factor from 1 to 1000"),
            "{bad}: {err}"
        );
    }
}

/// A value no winning ticket can show would show only on losing tickets: it would tell
/// them apart, so it is refused.
#[test]
fn a_box_value_only_a_losing_ticket_could_show_is_refused() {
    let (code, err) = check_edited(BOX, |t| {
        t.replace(
            "multipliers = [1, 2, 5, 10]",
            "multipliers = [1, 2, 3, 5, 10]",
        )
    });
    assert_eq!(code, 2);
    assert!(
        err.contains("[box] multipliers lists 3, but no winning way can show it"),
        "{err}"
    );
}

#[test]
fn check_says_what_the_factors_and_the_box_do() {
    for (name, says) in [
        (AREAS, "Printed 5X: every win on this surface pays 5 times the amount it shows"),
        (BOX, "shows one of 1X, 2X, 5X, 10X under the scratch layer; every win on the ticket is multiplied by it"),
    ] {
        let o = tirage()
            .arg("check")
            .arg(repo(&format!("game_specs/examples/{name}")))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{name}");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(says), "{name}: {out}");
    }
}

#[test]
fn a_win_the_factor_does_not_divide_is_refused_with_the_way() {
    let (code, err) = check_edited(AREAS, |t| t.replace("multiply = 5 ", "multiply = 3 "));
    assert_eq!(code, 2);
    assert!(
        err.contains("way \"100x5\": no surface can carry it: surface \"jeu3\" multiplies every win by 3, and 500 is not 3 times an amount"),
        "{err}"
    );
}
