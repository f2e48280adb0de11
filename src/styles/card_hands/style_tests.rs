use super::tests::surface;
use super::*;
use crate::spec::GameSpec;
use crate::styles::game::DrawError;
use crate::styles::testkit::{
    assert_pays, drawn_twice, example_surface, round_trip, show, texts, worded, Ctx,
};
use crate::styles::testkit::{Planning, Tested};
use rand_core::SeedableRng;
use std::path::PathBuf;
use std::sync::OnceLock;

const EXAMPLE: &str = "game_specs/examples/trois_mains.toml";

fn text() -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE)).unwrap()
}

fn example() -> &'static GameSpec {
    static S: OnceLock<GameSpec> = OnceLock::new();
    S.get_or_init(|| variant(&[]).unwrap_or_else(|e| panic!("{e}")))
}

/// The example with each `(from, to)` replaced (each must be there).
fn variant(edits: &[(&str, &str)]) -> Result<GameSpec, crate::spec::SpecError> {
    let mut t = text();
    for (from, to) in edits {
        assert!(t.contains(from), "{from:?} is in the example");
        t = t.replacen(from, to, 1);
    }
    GameSpec::parse(&PathBuf::from("trois_mains-variant.toml"), t)
}

/// The columns of `face` that `m` marks as part of the first zone's win, ascending.
fn won_by_first(m: &CardHands, face: &Face, ev: &Evaluation) -> Vec<usize> {
    let marks = m.marks(face, ev);
    let won = marks
        .iter()
        .filter(|k| k.area == 0 && k.kind == MarkKind::Win);
    let mut columns: Vec<usize> = won.map(|k| k.column).collect();
    columns.sort_unstable();
    columns
}

/// A face of the example: three hands as "Ah 7c", the tapis as "As Kd 9c 4h 2s", GAIN
/// amounts in euros.
fn face(hands: [&str; 3], tapis: &str, gains: [u64; 3]) -> Face {
    let m = surface(example());
    let mut f = Face::default();
    for z in 0..3 {
        let own: Vec<Card> = hands[z]
            .split_whitespace()
            .map(|c| parse_card(c).unwrap())
            .collect();
        f.codes[z * 4] = own[0];
        f.codes[z * 4 + 1] = own[1];
        f.codes[z * 4 + 2] = m.gain.code(Money::units(gains[z])).unwrap();
        f.codes[z * 4 + 3] = 0;
    }
    for (i, c) in tapis.split_whitespace().enumerate() {
        f.codes[12 + i] = parse_card(c).unwrap();
    }
    f
}

fn wins<'a>(m: &'a impl Tested, ev: &Evaluation) -> Vec<(u8, u64, &'a str)> {
    ev.wins
        .iter()
        .map(|w| {
            let shown = m.feature_of(ev, w.area).unwrap();
            (w.area, w.amount.cents() / 100, shown)
        })
        .collect()
}

#[test]
fn columns_areas_panels_and_inscriptions_come_from_the_spec() {
    let s = example();
    let m = surface(s);
    let names: Vec<&str> = m.layout().columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "m1_c1",
            "m1_c2",
            "m1_gain",
            "m1_caption",
            "m2_c1",
            "m2_c2",
            "m2_gain",
            "m2_caption",
            "m3_c1",
            "m3_c2",
            "m3_gain",
            "m3_caption",
            "t1",
            "t2",
            "t3",
            "t4",
            "t5"
        ]
    );
    assert_eq!(m.layout().areas, ["m1", "m2", "m3"]);
    let panels: Vec<String> = m.layout().panels.iter().map(|p| p.id.clone()).collect();
    assert_eq!(panels, ["m1", "m2", "m3", "tapis"]);
    assert_eq!(m.layout().name, "card_hands");
    let ten_of_spades = parse_card("Ts").unwrap();
    assert_eq!(
        m.layout().inscription(12, ten_of_spades),
        Some("10 DE PIQUE")
    );
    assert_eq!(
        m.layout().inscription(0, parse_card("Qh").unwrap()),
        Some("DAME DE COEUR")
    );
    assert_eq!(
        m.layout().inscription(2, 0),
        None,
        "a GAIN has no card inscription"
    );
    // The features are the spec's ids, then the near misses (to a straight only: no
    // flush pays).
    let features = m.features();
    let ids: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(ids, ["paire", "brelan", "suite", NEAR_MISS_STRAIGHT]);
    // Defaults: p1 … pN, b1 … b5 and the surface's board panel.
    let d = variant(&[
        ("zone_ids = [\"m1\", \"m2\", \"m3\"]", "zones = 3"),
        ("community_prefix = \"t\"    # t1 … t5\n", ""),
        ("community_id = \"tapis\"\n", ""),
        (
            "m1 = \"Main 1\"\nm2 = \"Main 2\"\nm3 = \"Main 3\"\ntapis = \"Le Tapis\"\n",
            "",
        ),
    ])
    .unwrap();
    let m = surface(&d);
    assert_eq!(m.layout().columns[0].name, "p1_c1");
    assert_eq!(m.layout().columns[12].name, "b1");
    assert_eq!(m.layout().areas, ["p1", "p2", "p3"]);
    assert_eq!(m.layout().panels[3].id, "mains_board");
}

#[test]
fn describe_says_how_each_hand_wins() {
    let lines = surface(example()).layout().description.clone();
    assert_eq!(
        lines[0],
        "« Main 1 » wins the amount in its GAIN when its best hand, made with at least one of its 2 own cards and at least one of the 5 cards of « Le Tapis », is one of: « PAIRE », « BRELAN », « SUITE » (only its best counts; winning zones add up)."
    );
    assert!(lines[2].starts_with("« Main 3 »"), "{lines:?}");
    assert_eq!(
        lines[3],
        "« Le Tapis » (5 cards, t1 to t5) wins nothing by itself: it is read by every zone."
    );
    assert!(
        lines[4].contains(
            "« SUITE » (suite: five consecutive ranks, ace high only, not all of one suit)"
        ),
        "{lines:?}"
    );
}

/// The letter of the example, clause by clause: only the listed combinations win, the
/// best listed one is the one reported, a hand needs one own and one tapis card.
#[test]
fn only_the_listed_combinations_win() {
    let m = surface(example());
    // Paire (own 9 + tapis 9), brelan (pocket 4s + tapis 4), suite 5-9 with own 8 and 5.
    let f = face(["9d 2c", "4c 4s", "8c 5d"], "9s 4h 7h 6s Kd", [2, 4, 10]);
    let ev = m.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(
        wins(&m, &ev),
        vec![(0, 2, "paire"), (1, 4, "brelan"), (2, 10, "suite")]
    );
    // Five of a suit is no combination here: a hand with a flush and nothing listed
    // loses by the letter and is a naive win, so the face is ambiguous.
    let f = face(["2h 3h", "Jc Qd", "Ks Ad"], "9h 7h 5h Tc 4s", [2, 4, 10]);
    let ev = m.evaluate(&f);
    assert!(ev.wins.is_empty(), "{:?}", ev.wins);
    assert!(
        ev.ambiguities.contains(&AMB_LOSER_FLUSH),
        "{:?}",
        ev.ambiguities
    );
    // A flush beside a listed paire: the paire wins (best listed), no ambiguity of a
    // loser.
    let f = face(["9h 3h", "Jc Qd", "Ks 2d"], "9c 7h 5h 4h 8s", [2, 4, 10]);
    let ev = m.evaluate(&f);
    assert_eq!(wins(&m, &ev), vec![(0, 2, "paire")]);
    // A pocket pair alone is no hand by the letter (no tapis card): ambiguous.
    let f = face(["8c 8d", "Jc Qd", "Ks 2d"], "9c 7h 5h 4s 3d", [2, 4, 10]);
    let ev = m.evaluate(&f);
    assert!(ev.wins.is_empty());
    assert!(ev.ambiguities.contains(&AMB_LOSER_PAIR));
}

#[test]
fn every_way_round_trips_over_many_streams() {
    let s = example();
    let m = &s.game;
    for way in &s.ways {
        for (seed, f, ev) in round_trip(m, way, 0..200) {
            for w in &ev.wins {
                let shown = m.feature_of(&ev, w.area);
                assert!(
                    matches!(shown, Some("paire" | "brelan" | "suite")),
                    "{} seed {seed}: {shown:?} on {}",
                    way.id,
                    show(m, &f)
                );
            }
        }
    }
}

#[test]
fn every_feature_shows_when_asked() {
    let s = example();
    let m = &s.game;
    for way in &s.ways {
        for (id, f) in m.features() {
            if let Err(e) = m.can_show(way, id) {
                assert!(matches!(e, DrawError::CannotShow { .. }), "{e}");
                let face = m.synthesize_showing(way, Some(id), &mut FaceRng::seed_from_u64(1));
                assert_eq!(face, Err(e));
                continue;
            }
            for seed in 0..8u64 {
                let face = m
                    .synthesize_showing_checked(way, id, &mut FaceRng::seed_from_u64(seed))
                    .unwrap_or_else(|e| panic!("{} {}: {e}", way.id, f.name));
                // It shows the feature (the checked synthesis returns no other face),
                // and it pays its way.
                assert_pays(m, way, &face, &format!("showing {}, seed {seed}", f.name));
            }
        }
    }
    let m = surface(s);
    let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
    assert_eq!(m.always_shows(way("1000")), vec!["suite"]);
    assert_eq!(m.always_shows(way("2")), vec!["paire"]);
    assert_eq!(
        m.can_show_why(way("4+4+2"), NEAR_MISS_STRAIGHT),
        Err(Refusal::NeedsLosing {
            feature: NEAR_MISS_STRAIGHT.into(),
            needs: "one of the 3 zones to lose".into(),
            way: "4+4+2".into()
        })
    );
    assert_eq!(
        m.can_show_why(way("2"), "couleur"),
        Err(Refusal::NoFeature {
            style: "card_hands",
            feature: "couleur".into()
        })
    );
}

/// Value-stability vector of the example: the same stream gives the same face.
#[test]
fn synthesis_is_deterministic_and_pinned() {
    let s = example();
    let way = &s.ways[s.way_by_id("4+4+2").unwrap() as usize];
    let face = drawn_twice(&s.game, way, 7);
    assert_eq!(texts(&s.game, &face).join(" "), PINNED);
}

/// Way 4+4+2, stream 7: each hand's two cards and GAIN (2, 4, 4), then the shared cards.
const PINNED: &str = "6h 4c 2 DEUX EUROS As Ac 4 QUATRE EUROS 5h Jc 4 QUATRE EUROS 6c 5d Ah Js 3c";

#[test]
fn five_and_six_zones_round_trip() {
    for (ids, labels) in [
        (
            "[\"m1\", \"m2\", \"m3\", \"m4\", \"m5\"]",
            "m4 = \"Main 4\"\nm5 = \"Main 5\"\n",
        ),
        (
            "[\"m1\", \"m2\", \"m3\", \"m4\", \"m5\", \"m6\"]",
            "m4 = \"Main 4\"\nm5 = \"Main 5\"\nm6 = \"Main 6\"\n",
        ),
    ] {
        let s = variant(&[
            (
                "zone_ids = [\"m1\", \"m2\", \"m3\"]",
                &format!("zone_ids = {ids}"),
            ),
            (
                "tapis = \"Le Tapis\"\n",
                &format!("tapis = \"Le Tapis\"\n{labels}"),
            ),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        for way in &s.ways {
            round_trip(&s.game, way, 0..60);
        }
    }
}

/// What the engine does not carry is refused when the spec is loaded, naming the field.
#[test]
fn what_the_engine_cannot_carry_is_refused_at_load() {
    let refused = |edits: &[(&str, &str)]| {
        let e = variant(edits).unwrap_err();
        (e.field.clone(), e.message.clone())
    };
    let suite = "{ id = \"suite\", kind = \"straight\", name = \"SUITE\", not_flush = true, ace_low = false }";
    let (f, m) = refused(&[(
        "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" }",
        "{ id = \"paire\", kind = \"pair\", ace_low = true }",
    )]);
    assert_eq!(f, "surfaces[0].combinations[0].ace_low");
    assert_eq!(m, "ace_low does not apply to a pair combination");
    let (f, m) = refused(&[(
        suite,
        "{ id = \"suite\", kind = \"straight\", not_flush = false }",
    )]);
    assert_eq!(f, "surfaces[0].combinations[2].not_flush");
    assert!(m.contains("not_flush = false is not carried"), "{m}");
    let (f, m) = refused(&[(
        suite,
        "{ id = \"suite\", kind = \"straight\", not_straight = true }",
    )]);
    assert_eq!(f, "surfaces[0].combinations[2].not_straight");
    assert_eq!(m, "not_straight does not apply to a straight combination");
    let (f, m) = refused(&[(suite, "{ id = \"suite\", kind = \"full_house\" }")]);
    assert_eq!(f, "surfaces[0].combinations[2].kind");
    assert!(m.starts_with("the card_hands engine does not build or judge \"full_house\" hands yet; it carries: pair, three_of_a_kind, straight, flush, four_of_a_kind, royal_flush"), "{m}");
    let (f, m) = refused(&[(suite, "{ id = \"suite\", kind = \"quinte\" }")]);
    assert_eq!(f, "surfaces[0].combinations[2].kind");
    assert!(m.starts_with("unknown kind \"quinte\""), "{m}");
    // Out of ascending order.
    let (f, m) = refused(&[(
        "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" },",
        "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" },\n  { id = \"couleur\", kind = \"flush\" },",
    )]);
    assert_eq!(f, "surfaces[0].combinations[2].kind");
    assert!(m.contains("cannot come after \"flush\""), "{m}");
    // A repeated id, a weight of a combination not listed.
    let (f, _) = refused(&[(suite, "{ id = \"paire\", kind = \"straight\" }")]);
    assert_eq!(f, "surfaces[0].combinations[2].id");
    let (f, m) = refused(&[(
        "[surfaces.combination_weights.\"2\"]\npaire = 1",
        "[surfaces.combination_weights.\"2\"]\ncouleur = 1",
    )]);
    assert_eq!(f, "surfaces[0].combination_weights.\"2\".couleur");
    assert_eq!(m, "\"couleur\" is not the id of one of the combinations");
    // Card counts, usage rule, zones.
    for (key, value) in [
        ("own_cards", 3),
        ("community_cards", 3),
        ("min_own", 2),
        ("min_community", 2),
    ] {
        let tapis = "community_id = \"tapis\"";
        let (f, m) = refused(&[(tapis, &format!("{tapis}\n{key} = {value}"))]);
        assert_eq!(f, format!("surfaces[0].{key}"), "{m}");
        if key == "own_cards" {
            assert_eq!(m, "3 own cards per zone; this engine deals exactly 2");
        }
    }
    let (f, m) = refused(&[("zone_ids = [\"m1\", \"m2\", \"m3\"]", "zones = 7")]);
    assert_eq!(f, "surfaces[0].zones");
    assert_eq!(m, "7 zones; expected 1 to 6");
    let (f, m) = refused(&[(
        "zone_ids = [\"m1\", \"m2\", \"m3\"]",
        "zone_ids = [\"m1\", \"m1\", \"m3\"]",
    )]);
    assert_eq!(f, "surfaces[0].zone_ids");
    assert_eq!(m, "\"m1\" is listed twice");
    let (f, _) = refused(&[("card_name = \"{rank} DE {suit}\"", "card_name = \"{rank}\"")]);
    assert_eq!(f, "surfaces[0].card_name");
    // A way of more wins than zones.
    let e = variant(&[
        ("wins = [4, 4, 2]", "wins = [2, 2, 2, 2, 2]"),
        ("id = \"4+4+2\"", "id = \"2x5\""),
    ])
    .unwrap_err();
    assert!(
        e.message.contains(
            "surface \"mains\": 5 wins, but « m1, m2, m3 » shows at most 3 at once (one win per \
             player zone)"
        ),
        "{e}"
    );
}

/// `ace_low = true`: A-2-3-4-5 with an own card and a tapis card not all of one suit is
/// a SUITE; without it the same face is a loser a naive player reads as a win.
#[test]
fn an_ace_low_straight_wins_only_when_the_spec_says_so() {
    let wheel = face(["Ac 2d", "Jc Qd", "Ks 8d"], "3h 4s 5c 9d Th", [2, 4, 10]);
    let ev = surface(example()).evaluate(&wheel);
    assert!(ev.wins.is_empty());
    assert!(ev.ambiguities.contains(&AMB_LOSER_STRAIGHT), "{ev:?}");
    let s = variant(&[("ace_low = false", "ace_low = true")]).unwrap();
    let m = surface(&s);
    let ev = m.evaluate(&wheel);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(wins(&m, &ev), vec![(0, 2, "suite")]);
    // Its five cards are marked: one per rank of A-2-3-4-5, and the GAIN.
    assert_eq!(won_by_first(&m, &wheel, &ev), [0, 1, 2, 12, 13, 14]);
    assert!(m.layout().description[4].contains("ace high or low (A-2-3-4-5)"));
    // A suited A-2-3-4-5 is a straight flush: neither a SUITE nor five of a suit.
    let suited = face(["Ah 2h", "Jc Qd", "Ks 8d"], "3h 4h 5h 9d Tc", [2, 4, 10]);
    let ev = m.evaluate(&suited);
    assert!(ev.ambiguities.contains(&AMB_STRAIGHT_FLUSH), "{ev:?}");
    // Every way still round-trips.
    for way in &s.ways {
        round_trip(&s.game, way, 0..60);
    }
}

/// `min_community = 0`: a pocket pair wins by itself; with the default it is a loser a
/// naive player reads as a win.
#[test]
fn a_pocket_pair_wins_only_when_the_spec_says_so() {
    let pocket = face(["8c 8d", "Jc Qd", "Ks 2d"], "9c 7h 5h 4s 3d", [2, 4, 10]);
    let ev = surface(example()).evaluate(&pocket);
    assert!(ev.wins.is_empty() && ev.ambiguities.contains(&AMB_LOSER_PAIR));
    let s = variant(&[(
        "community_id = \"tapis\"",
        "community_id = \"tapis\"\nmin_community = 0",
    )])
    .unwrap();
    let m = surface(&s);
    let ev = m.evaluate(&pocket);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(wins(&m, &ev), vec![(0, 2, "paire")]);
    assert_eq!(won_by_first(&m, &pocket, &ev), [0, 1, 2]);
    assert!(
        m.layout().description[0].contains("(its two cards alone may make a pair)"),
        "{:?}",
        m.layout().description
    );
    for way in &s.ways {
        round_trip(&s.game, way, 0..60);
    }
}

/// The library's example entry builds as it is written.
#[test]
fn the_library_example_builds() {
    let (id, s) = example_surface(&INFO);
    let captions = worded(&[(2, "DEUX"), (5, "CINQ"), (20, "VINGT")]);
    let ctx = Ctx::new(&id).captions(captions).tiers(&[2, 5, 20]);
    let m = build(s, &ctx.get()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.layout().areas, ["p1", "p2", "p3"]);
    assert_eq!(m.layout().panels[3].id, "board");
}
