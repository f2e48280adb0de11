//! Specs made of surfaces, as a game designer writes them wrong: every mistake is an exit 2
//! naming the file, the line, the field (`surfaces[i].…`, or the way) and what was expected.

mod common;

use common::{repo, tirage};

/// `tirage check` on the cash example with `edit` applied to its text: exit code and
/// stderr.
fn check_edited(edit: impl Fn(&str) -> String) -> (i32, String) {
    let text = std::fs::read_to_string(repo("game_specs/examples/cash.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("cash.toml");
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&spec, edited).unwrap();
    let o = tirage().arg("check").arg(&spec).output().unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The line (1-based) of the first line of the cash example containing `needle`.
fn line_of(needle: &str) -> usize {
    let text = std::fs::read_to_string(repo("game_specs/examples/cash.toml")).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn an_unknown_style_lists_the_library() {
    let (code, err) = check_edited(|t| t.replace("style = \"reveal\"", "style = \"revael\""));
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "cash.toml:{}: surfaces[0].style: unknown play style \"revael\"; expected one of:",
            line_of("style = \"reveal\"")
        )),
        "{err}"
    );
    assert!(err.contains("reveal"), "{err}");
}

#[test]
fn a_surface_without_an_id_or_with_a_bad_one_is_refused() {
    let (code, err) = check_edited(|t| t.replace("id = \"cash\"\nboxes", "boxes"));
    assert_eq!(code, 2);
    assert!(
        err.contains("surfaces[0].id: every surface needs `id`"),
        "{err}"
    );
    let (code, err) = check_edited(|t| t.replace("id = \"cash\"\nboxes", "id = \"ca sh\"\nboxes"));
    assert_eq!(code, 2);
    assert!(
        err.contains("surfaces[0].id: \"ca sh\" is not an id"),
        "{err}"
    );
}

#[test]
fn a_style_parameter_error_names_the_field() {
    let (code, err) = check_edited(|t| t.replace("boxes = 2", "boxez = 2"));
    assert_eq!(code, 2);
    assert!(
        err.contains("surfaces[0].boxez: unknown field `boxez`"),
        "{err}"
    );
    let (code, err) = check_edited(|t| {
        t.replace(
            "amounts = [1, 2, 5, 50, 100]",
            "amounts = [1, 2, 5, 50, 100, 7]",
        )
    });
    assert_eq!(code, 2);
    assert!(err.contains("surfaces[0].amounts:"), "{err}");
    assert!(err.contains("caption"), "{err}");
}

#[test]
fn a_way_no_surface_can_carry_is_named() {
    // Three wins on a surface of two boxes.
    let (code, err) = check_edited(|t| {
        t.replace(
            "id = \"1+1\"\ncount = 100\nwins = [1, 1]",
            "id = \"1+1\"\ncount = 100\nwins = [1, 0.5, 0.5]",
        )
    });
    assert_eq!(code, 2);
    assert!(err.contains("way \"1+1\""), "{err}");
    assert!(err.contains("no surface can carry it"), "{err}");
}

#[test]
fn a_surface_maximum_below_a_way_is_refused_and_two_surfaces_may_not_share_a_column() {
    let (code, err) = check_edited(|t| t.replace("boxes = 2\n", "boxes = 2\nmax = 50\n"));
    assert_eq!(code, 2);
    assert!(err.contains("way \"100\""), "{err}");
    assert!(err.contains("above its printed maximum 50"), "{err}");
    let (code, err) = check_edited(|t| {
        let second =
            "\n[[surfaces]]\nstyle = \"reveal\"\nid = \"cash\"\narea = \"bonus\"\namounts = [1]\n";
        t.replace("\n[[tiers]]", &format!("{second}\n[[tiers]]"))
    });
    assert_eq!(code, 2);
    assert!(err.contains("names face column \"cash_amount\""), "{err}");
}

/// Five surfaces of two boxes each: a way of ten free wins of 1 has one split (every box
/// wins), found among the 1 001 ways to spread ten alike wins, and its ticket shows it.
#[test]
fn ten_alike_free_wins_spread_over_five_surfaces() {
    let mut spec = String::from(
        "[game]\nid = \"dix\"\nname = \"DIX\"\nlegal_reference = \"test\"\ncurrency = \"EUR\"\n\
         price = 1\nblock_size = 100\npack_size = 50\ngame_code = 9999\n\n\
         [published]\nlots = 10\npayout = 100\n\n\
         [captions]\n\"0\" = \"ZERO EURO\"\n\"1\" = \"UN EURO\"\n\n",
    );
    for s in 1..=5 {
        spec += &format!(
            "[[surfaces]]\nstyle = \"reveal\"\nid = \"c{s}\"\nboxes = 2\namounts = [1]\n\n"
        );
    }
    spec += "[[tiers]]\namount = 10\ncount = 10\n[[tiers.ways]]\nid = \"10x1\"\ncount = 10\n\
             wins = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dix.toml");
    std::fs::write(&path, spec).unwrap();
    let o = tirage().arg("check").arg(&path).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = dir.path().join("b");
    common::generate(&path, &out, 1);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let winners: Vec<&str> = csv.lines().filter(|l| l.contains(",10x1,")).collect();
    assert_eq!(winners.len(), 10);
    for w in winners {
        assert_eq!(w.matches(",1,UN EURO").count(), 10, "{w}");
    }
}

/// A game whose losing ticket cannot be built is refused by check, naming the losing way,
/// never found out by generate.
#[test]
fn a_losing_face_that_cannot_be_built_is_refused_at_check() {
    let text = std::fs::read_to_string(repo("game_specs/examples/trefle.toml")).unwrap();
    let line = text.lines().find(|l| l.starts_with("symbols = ")).unwrap();
    let edited = text.replace(
        line,
        "symbols = [\"TREFLE\", \"COCCINELLE\", \"CLOCHE\", \"ETOILE\", \"LUNE\", \"POMME\"]",
    );
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("trefle.toml");
    std::fs::write(&spec, edited).unwrap();
    let o = tirage().arg("check").arg(&spec).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("way \"lose\": no surface can carry it"),
        "{err}"
    );
}
