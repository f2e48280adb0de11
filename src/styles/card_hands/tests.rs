use super::*;
use crate::spec::raw::RawSpec;
use crate::spec::GameSpec;
use crate::styles::testkit::{drawn_twice, texts};
use crate::styles::testkit::{Planning, Tested};
use proptest::prelude::*;
use rand_core::SeedableRng;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::OnceLock;

fn load(rel: &str) -> GameSpec {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    GameSpec::load(&p).unwrap_or_else(|e| panic!("{e}"))
}

fn full() -> &'static GameSpec {
    static S: OnceLock<GameSpec> = OnceLock::new();
    S.get_or_init(|| load("game_specs/poker.toml"))
}

fn small() -> &'static GameSpec {
    static S: OnceLock<GameSpec> = OnceLock::new();
    S.get_or_init(|| load("tests/specs/poker_small.toml"))
}

/// The card_hands style of the first surface of `spec`, built again as its own type.
pub(super) fn surface(spec: &GameSpec) -> Arc<CardHands> {
    spec.surface_style(0, |t, ctx| CardHands::new(&style::parse(t)?, ctx))
        .map(Arc::new)
        .expect("a card_hands surface")
}

fn cards<const N: usize>(s: &str) -> [Card; N] {
    let v: Vec<Card> = s
        .split_whitespace()
        .map(|c| parse_card(c).unwrap_or_else(|| panic!("bad card {c}")))
        .collect();
    v.try_into()
        .unwrap_or_else(|_| panic!("expected {N} cards in {s}"))
}

/// A face of the full spec: four zones as "Ah 7c", the community as "As Kd 9c 4h 2s",
/// GAIN amounts in euros.
fn face(zones: [&str; 4], board: &str, gains: [u64; 4]) -> Face {
    let spec = full();
    let cols = &spec.game.layout().columns;
    let mut f = Face::default();
    for z in 0..4 {
        let own: [Card; 2] = cards(zones[z]);
        f.codes[z * 4] = own[0];
        f.codes[z * 4 + 1] = own[1];
        let ColumnKind::Amount(a) = &cols[z * 4 + 2].kind else {
            panic!("gain column")
        };
        let code = a
            .iter()
            .position(|&m| m == Money::units(gains[z]))
            .expect("a zone amount");
        f.codes[z * 4 + 2] = code as u8;
        f.codes[z * 4 + 3] = spec
            .captions
            .keys()
            .position(|&m| m == Money::units(gains[z]))
            .unwrap() as u8;
    }
    let b: [Card; 5] = cards(board);
    f.codes[16..21].copy_from_slice(&b);
    f
}

fn strict(own: &str, board: &str) -> Option<Combination> {
    read_zone(cards(own), cards(board)).strict
}

// Three harmless losing zones for a community "As Kd 9c 4h 2s"-like board are built per
// test; these helpers keep the expected values explicit.
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
fn card_codes_round_trip() {
    for c in 0..DECK {
        assert_eq!(parse_card(&card_code(c)), Some(c));
    }
    assert_eq!(card_code(card(12, 2)), "Ah");
    assert_eq!(card_code(card(8, 1)), "Td");
    assert_eq!(parse_card("10h"), None);
    assert_eq!(parse_card("ah"), None);
    let spec = full();
    let names: Vec<&str> = spec
        .game
        .layout()
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names[..4], ["p1_c1", "p1_c2", "p1_gain", "p1_caption"]);
    assert_eq!(names[12..16], ["p4_c1", "p4_c2", "p4_gain", "p4_caption"]);
    assert_eq!(names[16..], ["b1", "b2", "b3", "b4", "b5"]);
    assert_eq!(spec.game.layout().areas, ["p1", "p2", "p3", "p4"]);
}

/// One hand-made zone per combination (art. 3.4), each the zone's best.
#[test]
fn each_combination_by_the_letter() {
    assert_eq!(strict("Ah 7c", "As Kd 9c 4h 2s"), Some(Combination::Pair));
    assert_eq!(
        strict("9h 9d", "9c Kd 5s 2h Jc"),
        Some(Combination::ThreeOfAKind)
    );
    assert_eq!(
        strict("Kc 3d", "Kd Kh 8s 5c 2h"),
        Some(Combination::ThreeOfAKind)
    );
    assert_eq!(
        strict("8h 2c", "4c 5d 6s 7h Kd"),
        Some(Combination::Straight)
    );
    assert_eq!(strict("Ah 3h", "7h 9h Jh 2c Kd"), Some(Combination::Flush));
    assert_eq!(strict("2h 9c", "4h 7h Jh Kh 3s"), Some(Combination::Flush));
    assert_eq!(
        strict("7c 7d", "7h 7s Kd 4c 2h"),
        Some(Combination::FourOfAKind)
    );
    assert_eq!(
        strict("7c Qd", "7h 7s 7d 4c 2h"),
        Some(Combination::FourOfAKind)
    );
    assert_eq!(
        strict("Ks As", "Ts Js Qs 3d 4c"),
        Some(Combination::RoyalFlush)
    );
    // Best only (art. 3.6): brelan beats the paire it contains, couleur beats quinte.
    assert_eq!(
        strict("9h Kc", "9c 9d Kd 5s 2h"),
        Some(Combination::ThreeOfAKind)
    );
    assert_eq!(strict("8h 2h", "4h 5h 6s 7h Kh"), Some(Combination::Flush));
    // Nothing: high card.
    assert_eq!(strict("Ah 7c", "Qs Kd 9c 4h 2s"), None);
}

/// The letter, where it differs from standard poker.
#[test]
fn the_letter_where_poker_differs() {
    // Art. 3.5: community cards alone never make a combination.
    assert_eq!(strict("3h 9c", "Kc Kd 5h 8s 2c"), None);
    assert_eq!(strict("Kh Jc", "5c 6d 7h 8s 4c"), None);
    assert_eq!(strict("3c 9d", "2h 5h 8h Th Qh"), None);
    // Art. 3.4: at least one community card: a pocket pair alone is nothing, nor a pocket
    // pair beside a community pair.
    assert_eq!(strict("8c 8d", "As Kd 5c 3h 2s"), None);
    assert_eq!(strict("7c 7d", "Kc Kd 5h 8s 2c"), None);
    // Ace high only: A-2-3-4-5 is no quinte.
    assert_eq!(strict("Ac 4d", "2s 3h 5c 9d Jh"), None);
    // A straight flush other than the royal one is neither quinte nor couleur...
    assert_eq!(strict("6s 2c", "7s 8s 9s Ts Kd"), None);
    // ...unless another card of a rank breaks the suit: then it is a quinte,
    assert_eq!(
        strict("6s Jh", "7s 8s 9s Ts Kd"),
        Some(Combination::Straight)
    );
    assert_eq!(
        strict("6h 2c", "6s 7s 8s 9s Ts"),
        Some(Combination::Straight)
    );
    // ...or a sixth suited card leaves five non-consecutive ones: then a couleur.
    assert_eq!(strict("6s 2s", "7s 8s 9s Ts Kd"), Some(Combination::Flush));
    // A-2-3-4-5 suited is not consecutive by the letter: a couleur.
    assert_eq!(strict("As 4s", "2s 3s 5s 9d Kc"), Some(Combination::Flush));
    // A card of the zone substitutes for a community card of the same rank.
    assert_eq!(
        strict("5d Kh", "5c 6d 7h 8s 9c"),
        Some(Combination::Straight)
    );
    // Royal with one own card.
    assert_eq!(
        strict("As 2d", "Ts Js Qs Ks 3c"),
        Some(Combination::RoyalFlush)
    );
}

#[test]
fn a_clean_face_evaluates_with_amounts_added() {
    let f = face(
        ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
        "As Kd 9c 4h 2s",
        [5, 10, 50000, 3],
    );
    let ev = full().game.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(
        wins(&full().game, &ev),
        vec![(0, 5, "paire"), (1, 10, "brelan")]
    );
    assert_eq!(ev.prize(), Money::units(15));
}

#[test]
fn near_misses_on_losing_zones_are_reported() {
    // p1: 2h 7h Kh 5h, four hearts; p2: A 2 3 4, four of the wheel; p3: nothing;
    // p4 pairs the jack and wins.
    let f = face(
        ["Kh 5h", "Ac 3d", "Kd 6d", "Jh 3h"],
        "2h 7h Jc 9d 4s",
        [5, 10, 50, 3],
    );
    let m = &full().game;
    let ev = m.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(wins(m, &ev), vec![(3, 3, "paire")]);
    let near = m.named(&ev.losing_features);
    assert_eq!(near, vec![(0, NEAR_MISS_FLUSH), (1, NEAR_MISS_STRAIGHT)]);
    // The winning zones' features are unchanged by them.
    assert_eq!(m.feature_of(&ev, 0), None);
    assert_eq!(m.feature_of(&ev, 3), Some("paire"));
    assert!(m.shows(&ev, NEAR_MISS_FLUSH) && m.shows(&ev, "paire") && !m.shows(&ev, "brelan"));
}

#[test]
fn which_ways_can_show_which_feature() {
    let s = full();
    let m = surface(s);
    let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
    assert_eq!(m.can_show_why(way("50000"), "quinte_flush_royale"), Ok(()));
    let e = m.can_show_why(way("50000"), "paire").unwrap_err();
    assert_eq!(
        e,
        Refusal::NoWeight {
            feature: "paire".into(),
            way: "50000".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "way \"50000\" gives paire no weight (combination_weights of its tier, or way_combination_weights)"
    );
    assert_eq!(
        m.can_show_why(way("lose"), "paire"),
        Err(Refusal::NoWeight {
            feature: "paire".into(),
            way: "lose".into()
        })
    );
    assert_eq!(m.can_show_why(way("25+25+25+25"), "carre"), Ok(()));
    assert_eq!(
        m.can_show_why(way("25+25+25+25"), NEAR_MISS_FLUSH),
        Err(Refusal::NeedsLosing {
            feature: NEAR_MISS_FLUSH.into(),
            needs: "one of the 4 zones to lose".into(),
            way: "25+25+25+25".into()
        })
    );
    assert_eq!(m.can_show_why(way("10+3"), NEAR_MISS_STRAIGHT), Ok(()));
    assert_eq!(m.always_shows(way("50000")), vec!["quinte_flush_royale"]);
    assert_eq!(m.always_shows(way("1000")), Vec::<&str>::new());
    let err = m
        .synthesize_showing(way("50000"), Some("carre"), &mut FaceRng::seed_from_u64(3))
        .unwrap_err();
    assert!(err.contains("gives carre no weight"), "{err}");
}

#[test]
fn every_combination_on_a_face() {
    let spec = full();
    // Royale, quinte and couleur on one clean face (p4 loses).
    let f = face(
        ["Js As", "Jd 9c", "3s 5s", "2c 4d"],
        "Ts Qs Ks 6h 8h",
        [50000, 3, 4, 5],
    );
    let ev = spec.game.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(
        wins(&spec.game, &ev),
        vec![
            (0, 50000, "quinte_flush_royale"),
            (1, 3, "quinte"),
            (2, 4, "couleur")
        ]
    );
    // Carré: the community pair is fine when all four zones win.
    let f = face(
        ["7c 7d", "Kc 5d", "4h 4d", "Qs Qh"],
        "7h 7s Kd 4c Qd",
        [2, 2, 2, 2],
    );
    let ev = spec.game.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(
        wins(&spec.game, &ev),
        vec![
            (0, 2, "carre"),
            (1, 2, "paire"),
            (2, 2, "brelan"),
            (3, 2, "brelan")
        ]
    );
    assert_eq!(ev.prize(), Money::units(8));
}

#[test]
fn ambiguous_faces_are_reported() {
    let spec = full();
    let amb = |zones: [&str; 4], board: &str| {
        spec.game
            .evaluate(&face(zones, board, [2, 3, 4, 5]))
            .ambiguities
    };
    let quiet = ["Jc Qd", "Jh Qh", "Jd Qs", "Js Qc"]; // losing, no draws, on the boards below
    let mut z = quiet;
    // Pocket pair on a losing zone.
    z[0] = "8c 8d";
    assert_eq!(amb(z, "As Kd 5c 3h 2s"), vec![AMB_LOSER_PAIR]);
    // A-2-3-4-5 on a losing zone.
    z[0] = "Ac 4d";
    assert_eq!(amb(z, "2s 3h 5c 9d 7h"), vec![AMB_LOSER_STRAIGHT]);
    // Community pair / straight / flush, not all four winning.
    assert_eq!(
        amb(quiet, "Kc Kd 5h 8s 2c"),
        vec![AMB_LOSER_PAIR, AMB_COMMUNITY_PAIR]
    );
    assert_eq!(
        amb(["Kc 2h", "Kh 3d", "Ks 3c", "Ad 2s"], "5c 6d 7h 8s 9c"),
        vec![AMB_LOSER_STRAIGHT, AMB_COMMUNITY_STRAIGHT]
    );
    assert_eq!(
        amb(["3c 4d", "3d Kd", "4s 7d", "Kc 7c"], "2h 5h 8h Th Qh"),
        vec![AMB_LOSER_FLUSH, AMB_COMMUNITY_FLUSH]
    );
    // Two pairs of the wrong origin (pocket pair, community pair) lose by the letter.
    assert_eq!(
        amb(["7c 7d", "Jh Qh", "Jd Qs", "Js Qc"], "Kc Kd 5h 8s 2c"),
        vec![AMB_LOSER_PAIR, AMB_COMMUNITY_PAIR]
    );
    // A non-royal straight flush deciding a zone: losing by the letter...
    assert_eq!(
        amb(["6s 2c", "3c 4d", "3d 5c", "4c Ah"], "7s 8s 9s Ts Kd"),
        vec![AMB_LOSER_STRAIGHT, AMB_LOSER_FLUSH, AMB_STRAIGHT_FLUSH]
    );
    // ...or winning a quinte / couleur by the letter while a player sees a straight flush.
    assert_eq!(
        amb(["6s Jh", "3c 4d", "3d 5c", "4c Ah"], "7s 8s 9s Ts 2d"),
        vec![AMB_STRAIGHT_FLUSH]
    );
    assert_eq!(
        amb(["As 4s", "6h 7d", "Jh Qd", "Td 8c"], "2s 3s 5s 9d Kc"),
        vec![AMB_STRAIGHT_FLUSH]
    );
    // The same card twice.
    let mut z = quiet;
    z[0] = "Ah 7c";
    z[1] = "Ah Qh";
    assert!(amb(z, "As Kd 9c 4h 2s").contains(&AMB_DUPLICATE));
    // A community straight when all four zones win is no ambiguity.
    let f = face(
        ["5d Kh", "6h Ah", "7d Qh", "8h Jh"],
        "5c 6d 7h 8s 9c",
        [2, 2, 2, 2],
    );
    let ev = spec.game.evaluate(&f);
    assert_eq!(ev.ambiguities, Vec::<&str>::new());
    assert_eq!(ev.wins.len(), 4);
    // A royal beside a 9-K straight flush is the royal: no ambiguity.
    let f = face(
        ["9s As", "Jc Qd", "Jd Qc", "Jh Qh"],
        "Ts Js Qs Ks 3c",
        [2, 2, 2, 2],
    );
    let ev = spec.game.evaluate(&f);
    assert!(!ev.ambiguities.contains(&AMB_STRAIGHT_FLUSH), "{ev:?}");
    assert_eq!(spec.game.feature_of(&ev, 0), Some("quinte_flush_royale"));
}

#[test]
fn bad_codes_are_findings_not_panics() {
    let mut f = face(
        ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
        "As Kd 9c 4h 2s",
        [5, 10, 2, 3],
    );
    f.codes[20] = 60;
    assert_eq!(full().game.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
    let mut f = face(
        ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
        "As Kd 9c 4h 2s",
        [5, 10, 2, 3],
    );
    f.codes[2] = 200;
    assert_eq!(full().game.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
}

fn every_goal_set() -> Vec<[Goal; 4]> {
    let kinds: Vec<Goal> = [
        Goal::Lose(Draw::None),
        Goal::Lose(Draw::Flush),
        Goal::Lose(Draw::Straight),
    ]
    .into_iter()
    .chain(Combination::ALL.iter().map(|&c| Goal::Win(c)))
    .collect();
    let mut out = Vec::new();
    let n = kinds.len();
    for a in 0..n {
        for b in a..n {
            for c in b..n {
                for d in c..n {
                    let g = [kinds[a], kinds[b], kinds[c], kinds[d]];
                    let count = |x: Goal| g.iter().filter(|&&y| y == x).count();
                    let all_win = g.iter().all(|x| matches!(x, Goal::Win(_)));
                    if count(Goal::Win(Combination::FourOfAKind)) > 1
                        || count(Goal::Win(Combination::RoyalFlush)) > 1
                    {
                        continue;
                    }
                    if count(Goal::Win(Combination::FourOfAKind)) == 1 && !all_win {
                        continue;
                    }
                    out.push(g);
                }
            }
        }
    }
    out
}

/// Every feasible set of goals deals, and the deal is read back exactly as wanted, with
/// no ambiguity: the evaluator and the builder agree on every combination and near miss.
#[test]
fn every_goal_set_deals_and_reads_back() {
    let sets = every_goal_set();
    assert_eq!(sets.len(), 324);
    let mut rng = FaceRng::seed_from_u64(7);
    let mut dead_ends = 0;
    let mut near = [0u32; 2];
    for goals in &sets {
        for _ in 0..8 {
            let mut dealt = None;
            for _ in 0..MAX_ATTEMPTS {
                dealt = deal(goals, &mut rng);
                if dealt.is_some() {
                    break;
                }
                dead_ends += 1;
            }
            let (own, board) = dealt.unwrap_or_else(|| panic!("no deal for {goals:?}"));
            let b = Board::new(board);
            let mut seen = used_of(&board);
            for z in 0..4 {
                assert_eq!(
                    seen & (bit(own[z][0]) | bit(own[z][1])),
                    0,
                    "duplicate card"
                );
                assert_ne!(own[z][0], own[z][1]);
                seen |= bit(own[z][0]) | bit(own[z][1]);
                let r = read(own[z], &b, ALL_KINDS);
                match goals[z] {
                    Goal::Win(c) => assert_eq!(r.strict, Some(c), "{goals:?}"),
                    Goal::Lose(d) => {
                        assert!(r.strict.is_none() && !r.naive_wins(), "{goals:?}");
                        near[0] += u32::from(d == Draw::Flush && r.flush_draw);
                        near[1] += u32::from(d == Draw::Straight && r.straight_draw);
                    }
                }
                assert!(!r.straight_flush);
            }
        }
    }
    // Dead ends are rare: far from MAX_ATTEMPTS in a row.
    assert!(dead_ends < sets.len() * 8 / 10, "{dead_ends} dead ends");
    assert!(near[0] > 0 && near[1] > 0);
}

/// The losing choices are exactly the own cards that read as a loser with the near
/// miss asked, on every board a losing zone can meet (all-losing tickets' and those built
/// for winning zones), with cards taken by other zones left out.
#[test]
fn losing_choices_are_exactly_the_losers() {
    let mut rng = FaceRng::seed_from_u64(11);
    let goal_sets = every_goal_set();
    let mut sizes = [0usize; 4];
    for round in 0..600 {
        let goals = goal_sets[round % goal_sets.len()];
        let cards = if round % 2 == 0 {
            losing_board(&mut rng).0
        } else {
            match build_board(&goals, &mut rng) {
                Some(c) => c,
                None => continue,
            }
        };
        let b = Board::new(cards);
        if b.pair {
            continue; // a carré's board: every zone wins there
        }
        let room = LosingRoom::new(&b, LOSING_SET_INDEX[b.ranks as usize]).unwrap();
        // A few cards already taken by other zones.
        let mut used = used_of(&cards);
        for _ in 0..below(&mut rng, 7) {
            used |= bit(below(&mut rng, 52) as Card);
        }
        for (i, d) in [Draw::None, Draw::Flush, Draw::Straight, Draw::Any]
            .into_iter()
            .enumerate()
        {
            let mut got: Vec<[Card; 2]> = LosingChoice::new(d, &room).all(used).to_vec();
            got.sort();
            let mut want = Vec::new();
            for c0 in 0..DECK {
                for c1 in 0..DECK {
                    if rank(c0) >= rank(c1) || !free(used, &[c0, c1]) {
                        continue;
                    }
                    let z = read([c0, c1], &b, ALL_KINDS);
                    let ok = z.strict.is_none()
                        && !z.naive_wins()
                        && match d {
                            Draw::None => !z.flush_draw && !z.straight_draw,
                            Draw::Flush => z.flush_draw && !z.straight_draw,
                            Draw::Straight => z.straight_draw && !z.flush_draw,
                            Draw::Any => true,
                        };
                    if ok {
                        want.push([c0, c1]);
                    }
                }
            }
            assert_eq!(got, want, "{d:?} on {cards:?}");
            sizes[i] += got.len();
        }
    }
    // Every kind of choice was met, many times.
    assert!(sizes.iter().all(|&n| n > 1000), "{sizes:?}");
}

/// The first and second card sets of a winning zone hold every pair of own cards that
/// shows the combination (one card in the first set, the other in that card's second).
#[test]
fn winning_card_sets_miss_no_winner() {
    let mut rng = FaceRng::seed_from_u64(13);
    let goal_sets: Vec<[Goal; 4]> = every_goal_set()
        .into_iter()
        .filter(|g| g.iter().any(|g| matches!(g, Goal::Win(_))))
        .collect();
    let mut winners = [0usize; 6];
    for round in 0..400 {
        let goals = goal_sets[round % goal_sets.len()];
        let Some(cards) = build_board(&goals, &mut rng) else {
            continue;
        };
        let b = Board::new(cards);
        let room = LosingRoom::new(&b, LOSING_SET_INDEX[b.ranks as usize]);
        let mut used = used_of(&cards);
        // Zones in dealing order, each checked against the cards dealt before it.
        let mut order = goals;
        order.sort_by_key(|&g| priority(g));
        for g in order {
            let Some(own) = pick_own(g, &b, &room, used, &mut rng) else {
                break; // a dead end: the deal would start again
            };
            let before = used;
            used |= bit(own[0]) | bit(own[1]);
            let Goal::Win(c) = g else { continue };
            let used = before;
            let firsts = first_cards(c, &b);
            for c0 in 0..DECK {
                for c1 in 0..DECK {
                    if c0 == c1 || !free(used, &[c0, c1]) || !win_ok(c, [c0, c1], &b) {
                        continue;
                    }
                    let reachable = |x: Card, y: Card| {
                        firsts & bit(x) != 0 && second_cards(c, x, &b) & bit(y) != 0
                    };
                    assert!(
                        reachable(c0, c1) || reachable(c1, c0),
                        "{c:?}: {} {} on {cards:?}",
                        card_code(c0),
                        card_code(c1),
                    );
                    winners[c.index()] += 1;
                }
            }
        }
    }
    assert!(winners.iter().all(|&n| n > 40), "{winners:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every way of both specs round-trips: synthesize → evaluate → recognise gives the
    /// way back, with no ambiguity, and each winning zone shows a combination its way's
    /// weights allow.
    #[test]
    fn every_way_round_trips(seed in any::<[u8; 32]>()) {
        for spec in [full(), small()] {
            let mut rng = FaceRng::from_seed(seed);
            let raw = raw_surface(spec);
            for (id, way) in spec.ways.iter().enumerate() {
                let allowed = if id == 0 { BTreeMap::new() } else { spec_weights(&raw, way) };
                for _ in 0..3 {
                    let f = spec.game.synthesize(way, &mut rng);
                    let ev = spec.game.evaluate(&f);
                    prop_assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
                    prop_assert_eq!(spec.recognise(&ev.wins), Some(id as u16));
                    prop_assert_eq!(ev.prize(), way.amount);
                    for w in &ev.wins {
                        let name = spec.game.feature_of(&ev, w.area).unwrap();
                        prop_assert!(allowed.get(name).is_some_and(|&w| w > 0), "{} on way {}", name, way.id);
                    }
                }
            }
        }
    }
}

/// The way's weights as the spec text gives them (read independently of the style).
fn spec_weights(p: &RawCardHands, way: &Way) -> BTreeMap<String, u32> {
    p.way_combination_weights
        .get(&way.id)
        .or_else(|| {
            p.combination_weights
                .iter()
                .find(|(k, _)| k.parse::<Money>().unwrap() == way.amount)
                .map(|x| x.1)
        })
        .unwrap()
        .clone()
}

/// The spec's card_hands table as written (read independently of the style).
fn raw_surface(spec: &GameSpec) -> RawCardHands {
    let raw: RawSpec = toml::from_str(&spec.text).unwrap();
    let mut t = raw.surfaces[0].get_ref().clone();
    t.remove("style");
    t.remove("id");
    style::parse(t).unwrap()
}

/// Value-stability vector: the same stream gives the same face, and these two faces are
/// part of the reproducibility contract (a change here changes every block generated).
#[test]
fn synthesis_is_deterministic_and_pinned() {
    let spec = full();
    let way = &spec.ways[spec.way_by_id("4+3+3+3").unwrap() as usize];
    let a = drawn_twice(&spec.game, way, 42);
    let lose = spec
        .game
        .synthesize(&spec.ways[0], &mut FaceRng::seed_from_u64(42));
    let show = |f: &Face| texts(&spec.game, f).join(",");
    assert_eq!(show(&lose), PINNED_LOSE);
    assert_eq!(show(&a), PINNED_4333);
}

const PINNED_LOSE: &str = "Jh,Qc,2,DEUX EUROS,2c,9c,10,DIX EUROS,Td,Qd,15,QUINZE EUROS,Th,Qs,15,QUINZE EUROS,5s,8c,4h,Ah,7h";
const PINNED_4333: &str = "2s,As,3,TROIS EUROS,6c,6s,3,TROIS EUROS,Kc,4d,4,QUATRE EUROS,5c,9s,3,TROIS EUROS,Js,2d,6h,4c,5h";

/// Combination and near-miss frequencies follow the spec over many faces.
#[test]
fn synthesis_follows_the_weights() {
    let spec = full();
    let mut rng = FaceRng::seed_from_u64(3);
    // Tier 5 way "5": paire 8, brelan 2 → 80 % paire.
    let way = &spec.ways[spec.way_by_id("5").unwrap() as usize];
    let mut paires = 0;
    for _ in 0..2000 {
        let ev = spec.game.evaluate(&spec.game.synthesize(way, &mut rng));
        paires += usize::from(spec.game.feature_of(&ev, ev.features[0].area) == Some("paire"));
    }
    assert!((1500..1700).contains(&paires), "{paires}");
    // Losing zones: near misses at the spec's rates (0.12 each) when there is room.
    let (mut flush, mut straight, mut zones) = (0, 0, 0);
    for _ in 0..1000 {
        let f = spec.game.synthesize(&spec.ways[0], &mut rng);
        let board: [Card; 5] = f.codes[16..21].try_into().unwrap();
        for z in 0..4 {
            let r = read_zone([f.codes[z * 4], f.codes[z * 4 + 1]], board);
            flush += usize::from(r.flush_draw);
            straight += usize::from(r.straight_draw);
            zones += 1;
        }
    }
    assert_eq!(zones, 4000);
    assert!(
        (400..600).contains(&flush) && (400..600).contains(&straight),
        "{flush} flush draws, {straight} straight draws"
    );
}

fn spec_with(replace: &str, by: &str) -> Result<GameSpec, crate::spec::SpecError> {
    let text = full().text.replace(replace, by);
    assert_ne!(text, full().text, "the replaced text is in the spec");
    GameSpec::parse(&PathBuf::from("poker-variant.toml"), text)
}

/// A near miss to a flush or a straight needs that combination among those paid:
/// trois_mains pays a pair, three of a kind and a straight, never a flush.
#[test]
fn a_near_miss_to_a_combination_the_game_does_not_pay_is_refused() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("game_specs/examples/trois_mains.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(GameSpec::parse(&path, text.clone()).is_ok());
    let straight = "near_miss_straight = 0.15";
    assert!(text.contains(straight));
    let flush = text.replace(
        straight,
        "near_miss_flush = 0.10\nnear_miss_straight = 0.15",
    );
    let e = GameSpec::parse(&path, flush).unwrap_err();
    assert_eq!(e.field, "surfaces[0].near_miss_flush");
    assert!(
        e.message
            .starts_with("no combination of `combinations` is a flush (nor a royal_flush)"),
        "{e}"
    );
    // Without its straight, the game's near miss to a straight is refused the same way.
    let no_straight = text.replace(
        "  { id = \"suite\", kind = \"straight\", name = \"SUITE\", not_flush = true, ace_low = false },\n",
        "",
    );
    assert_ne!(no_straight, text);
    let e = GameSpec::parse(&path, no_straight).unwrap_err();
    assert_eq!(e.field, "surfaces[0].near_miss_straight", "{e}");
}

#[test]
fn infeasible_weights_are_rejected() {
    // A field error names the surface's field, and the field's line where the loader
    // finds it (a key of the surface, or its sub-table's header), else the surface's
    // (`[[surfaces]]`).
    let line_of = |key: &str| {
        full()
            .text
            .lines()
            .position(|l| l.starts_with(key))
            .map(|i| i + 1)
    };
    let e = spec_with("near_miss_flush = 0.12", "near_miss_flush = -0.12").unwrap_err();
    assert_eq!(e.field, "surfaces[0].near_miss_flush");
    assert_eq!(e.line, line_of("near_miss_flush ="));
    let e = spec_with(
        "[surfaces.combination_weights.\"5\"]\npaire = 8\nbrelan = 2",
        "[surfaces.combination_weights.\"5\"]\npaire = 0\nbrelan = 0",
    )
    .unwrap_err();
    assert_eq!(e.field, "surfaces[0].combination_weights.\"5\"");
    assert_eq!(e.line, line_of("[surfaces.combination_weights.\"5\"]"));
    // The same amount under two keys, in combination and decoy weights.
    let e = spec_with(
        "[surfaces.combination_weights.\"5\"]\npaire = 8",
        "[surfaces.combination_weights.\"5.0\"]\nquinte = 1\n[surfaces.combination_weights.\"5\"]\npaire = 8",
    )
    .unwrap_err();
    assert_eq!(e.field, "surfaces[0].combination_weights");
    assert!(e.message.contains("is the amount 5 a second time"), "{e}");
    let e = spec_with("\"2\" = 200\n", "\"2\" = 200\n\"2.00\" = 9\n").unwrap_err();
    assert_eq!(e.field, "surfaces[0].decoy_weights");
    assert!(e.message.contains("is the amount 2 a second time"), "{e}");
    // A carré on a tier that has single-zone ways.
    let e = spec_with(
        "[surfaces.combination_weights.\"5\"]\npaire = 8",
        "[surfaces.combination_weights.\"5\"]\ncarre = 1\npaire = 8",
    )
    .unwrap_err();
    assert!(
        e.message.contains("four of a kind needs a community pair"),
        "{e}"
    );
    assert_eq!(e.field, "way \"5\"");
    // Only royal on a way with two wins.
    let e = spec_with(
        "[surfaces.combination_weights.\"1000\"]\nquinte = 1\ncouleur = 2\n",
        "[surfaces.combination_weights.\"1000\"]\n",
    )
    .unwrap_err();
    assert!(e.message.contains("at most one of each fits"), "{e}");
    // Weights for an amount that is no tier, and a tier without weights.
    let e = spec_with(
        "[surfaces.combination_weights.\"5\"]",
        "[surfaces.combination_weights.\"6\"]",
    )
    .unwrap_err();
    assert!(
        e.message.contains("\"6\" is not the amount of a tier"),
        "{e}"
    );
    let e = spec_with(
        "[surfaces.combination_weights.\"5\"]\npaire = 8\nbrelan = 2\n",
        "",
    )
    .unwrap_err();
    assert!(e.message.contains("no combination weights"), "{e}");
    // An unknown field of the surface.
    let e = spec_with("near_miss_flush", "near_miss_flushes").unwrap_err();
    assert!(e.message.contains("unknown field"), "{e}");
}

#[test]
fn small_spec_loads() {
    let s = small();
    assert_eq!(s.block_size, 3000);
    assert_eq!(s.pack_size, 100);
    assert_eq!(s.lots(), s.published_lots);
    assert_eq!(s.payout(), s.published_payout);
    let f = full();
    assert_eq!(f.block_size, 1_500_000);
    assert_eq!(f.lots(), 319_380);
    assert_eq!(f.payout(), Money::units(3_060_000));
    assert_eq!(f.price, Money::units(3));
}

/// Art. 3.4–3.5 by the letter: each of the 21 five-card hands of the seven cards but the
/// community cards alone, judged as written; the best kept.
fn best_five_by_letter(own: [Card; 2], community: [Card; COMMUNITY]) -> Option<Combination> {
    let seven = [
        own[0],
        own[1],
        community[0],
        community[1],
        community[2],
        community[3],
        community[4],
    ];
    let mut best = None;
    for i in 0..7 {
        for j in i + 1..7 {
            if (i, j) == (0, 1) {
                continue; // the five community cards alone (art. 3.5)
            }
            let hand: Vec<Card> = (0..7)
                .filter(|&k| k != i && k != j)
                .map(|k| seven[k])
                .collect();
            let bits = hand.iter().fold(0u16, |m, &c| m | 1 << rank(c));
            let same_suit = hand.iter().all(|&c| suit(c) == suit(hand[0]));
            let consecutive = bits.count_ones() == 5 && bits >> bits.trailing_zeros() == 0x1F;
            let c = match (consecutive, same_suit) {
                (true, false) => Some(Combination::Straight),
                (false, true) => Some(Combination::Flush),
                (true, true) if bits == ROYAL => Some(Combination::RoyalFlush),
                _ => None,
            };
            best = best.max(c);
        }
    }
    best
}

/// The bit-mask reading of quinte, couleur and quinte flush royale against the letter,
/// on deals from small pools of cards (one to four suits, seven to thirteen ranks) where
/// straights, flushes and straight flushes are common.
#[test]
fn best_five_is_the_letter() {
    let mut rng = FaceRng::seed_from_u64(35);
    let mut seen = [0u32; 4];
    for _ in 0..300_000 {
        let suits = 1 + below(&mut rng, 15) as u8;
        let width = 7 + below(&mut rng, 7) as u8;
        let low = below(&mut rng, u32::from(14 - width)) as u8;
        let pool: Vec<Card> = (0..4u8)
            .filter(|s| suits & 1 << s != 0)
            .flat_map(|s| (low..low + width).map(move |r| card(r, s)))
            .collect();
        if pool.len() < 7 {
            continue;
        }
        let mut pool = pool;
        shuffle(&mut rng, &mut pool);
        let own = [pool[0], pool[1]];
        let community: [Card; COMMUNITY] = pool[2..7].try_into().unwrap();
        let want = best_five_by_letter(own, community);
        assert_eq!(
            best_of(five_card_kinds(own, &Board::new(community), false)),
            want,
            "own {own:?}, community {community:?}"
        );
        if let Some(c) = want {
            seen[c.index() - 2] += 1;
        }
    }
    // Each of quinte, couleur, (carré slot unused), quinte flush royale came up often.
    assert!(
        seen[0] > 10_000 && seen[1] > 10_000 && seen[3] > 100,
        "{seen:?}"
    );
}

/// Cross-check against rs_poker (an established poker hand evaluator), on random
/// seven-card sets enriched with straights, flushes and sets of a rank:
/// - where rs_poker sees high card, ours finds no win and no naive hand;
/// - ours equals a letter-of-the-rule oracle built on rs_poker's categories of every
///   card subset holding an own and a community card;
/// - where standard poker and the rule agree (nothing in the community cards alone, no
///   pocket pair, best hand not A-2-3-4-5 nor a non-royal straight flush), the
///   categories agree.
#[test]
fn cross_check_with_rs_poker() {
    use rs_poker::core::{Card as PCard, Rank, Rankable};
    let to_p = |c: Card| PCard::try_from(card_code(c).as_str()).unwrap();
    let lib = |cs: &[Card]| cs.iter().map(|&c| to_p(c)).collect::<Vec<PCard>>().rank();
    let royal = lib(&cards::<5>("As Ks Qs Js Ts"));
    let wheel = lib(&cards::<5>("As 2d 3c 4h 5s"));
    // rs_poker's categories, numbered in poker order.
    const HIGH: u8 = 0;
    const SF: u8 = 8;
    let cat = |r: Rank| match r {
        Rank::HighCard(_) => HIGH,
        Rank::OnePair(_) => 1,
        Rank::TwoPair(_) => 2,
        Rank::ThreeOfAKind(_) => 3,
        Rank::Straight(_) => 4,
        Rank::Flush(_) => 5,
        Rank::FullHouse(_) => 6,
        Rank::FourOfAKind(_) => 7,
        Rank::StraightFlush(_) => SF,
    };
    let map = |r: Rank| match cat(r) {
        HIGH => None,
        1 | 2 => Some(Combination::Pair),
        3 | 6 => Some(Combination::ThreeOfAKind),
        4 => Some(Combination::Straight),
        5 => Some(Combination::Flush),
        7 => Some(Combination::FourOfAKind),
        _ => (r == royal).then_some(Combination::RoyalFlush),
    };
    // The letter via the library: the best listed combination over subsets of 2..=5 cards
    // with at least one own card and one community card, each judged by its category.
    let oracle = |seven: &[Card; 7]| {
        let mut best = None;
        for m in 0u32..128 {
            let n = m.count_ones();
            if !(2..=5).contains(&n) || m & 0b11 == 0 || m & !0b11 == 0 {
                continue;
            }
            let sub: Vec<Card> = (0..7)
                .filter(|i| m & (1 << i) != 0)
                .map(|i| seven[i])
                .collect();
            let mut sub5 = sub.clone();
            if n == 4 {
                // rs_poker 4.1 ranks four cards of one rank only with a fifth card.
                let other = (0..DECK)
                    .find(|&c| sub.iter().all(|&s| rank(s) != rank(c)))
                    .unwrap();
                sub5.push(other);
            }
            let r = lib(&sub5);
            let c = match (n, cat(r)) {
                (2, 1) => Some(Combination::Pair),
                (3, 3) => Some(Combination::ThreeOfAKind),
                (4, 7) => Some(Combination::FourOfAKind),
                (5, 4) if r != wheel => Some(Combination::Straight),
                (5, 5) => Some(Combination::Flush),
                (5, SF) if r == royal => Some(Combination::RoyalFlush),
                // A-2-3-4-5 suited: not consecutive by the letter, so five of a suit.
                (5, SF)
                    if sub.iter().any(|&c| rank(c) == 3) && sub.iter().any(|&c| rank(c) == 12) =>
                {
                    Some(Combination::Flush)
                }
                _ => None,
            };
            best = best.max(c);
        }
        best
    };
    let mut rng = FaceRng::seed_from_u64(2011);
    let mut agree_checked = [0u32; 7];
    for i in 0..6_000 {
        // Pools: the whole deck, six ranks × two suits (straights, flushes, straight
        // flushes), three ranks (sets, carrés), the royal ranks of two suits.
        let pool: Vec<Card> = match i % 4 {
            0 => (0..DECK).collect(),
            1 => {
                let r0 = below(&mut rng, 9) as u8;
                (0..DECK)
                    .filter(|&c| (r0..r0 + 6).contains(&rank(c)) && suit(c) < 2)
                    .chain([card(12, 3)])
                    .collect()
            }
            2 => (0..DECK).filter(|&c| rank(c) % 5 == 0).collect(),
            _ => (0..DECK)
                .filter(|&c| rank(c) >= 7 && suit(c) >= 2)
                .collect(),
        };
        let mut pool = pool;
        shuffle(&mut rng, &mut pool);
        let seven: [Card; 7] = pool[..7].try_into().unwrap();
        let own = [seven[0], seven[1]];
        let board: [Card; 5] = seven[2..].try_into().unwrap();
        let ours = read_zone(own, board);
        let whole = lib(&seven);
        if cat(whole) == HIGH {
            assert!(ours.strict.is_none() && !ours.naive_wins(), "{seven:?}");
        }
        assert_eq!(ours.naive_wins(), cat(whole) != HIGH, "{seven:?}");
        assert_eq!(
            ours.straight_flush,
            cat(whole) == SF && whole != royal,
            "{seven:?}"
        );
        assert_eq!(ours.strict, oracle(&seven), "{:?}", seven.map(card_code));
        let board_nothing = cat(lib(&board)) == HIGH;
        let pocket_pair = rank(own[0]) == rank(own[1]);
        let odd = whole == wheel || (cat(whole) == SF && whole != royal);
        if board_nothing && !pocket_pair && !odd {
            assert_eq!(ours.strict, map(whole), "{:?}", seven.map(card_code));
            agree_checked[map(whole).map_or(0, |c| c.index() + 1)] += 1;
        }
    }
    // The agreeing cases cover nothing, paire, quinte, couleur and the royal flush.
    for k in [0, 1, 3, 4, 6] {
        assert!(agree_checked[k] > 0, "{agree_checked:?}");
    }
}

/// The weights a way or the surface cannot use are refused with the typed reason.
#[test]
fn weight_refusals_name_their_reason() {
    let spec = full();
    let m = surface(spec);
    let tier = |units: u64| {
        spec.tiers
            .iter()
            .position(|t| t.amount == Money::units(units))
    };
    let way = |id: &str, tier: Option<usize>, wins: &[u64]| Way {
        id: id.to_string(),
        tier,
        amount: Money::units(wins.iter().sum()),
        count: 1,
        wins: wins
            .iter()
            .map(|&u| crate::lots::Win {
                area: None,
                amount: Money::units(u),
            })
            .collect(),
    };
    // Way 2+2+2+2 weighs a carré, which only a way winning on all four zones can show.
    assert_eq!(
        m.check_way(&way("2+2+2+2", tier(8), &[2])),
        Err(Refusal::FourNeedsEveryZone {
            four: "carre".into(),
            weight: 1,
            wins: 1,
            zones: 4
        })
    );
    // Tier 50 000 weighs only the royal flush, which fits once on a ticket.
    assert_eq!(
        m.check_way(&way("x", tier(50000), &[2, 2])),
        Err(Refusal::NothingRepeats {
            wins: 2,
            give: "paire, brelan, quinte, couleur".into()
        })
    );
    // With no way planned, the first way's own weights apply to none.
    assert_eq!(
        Style::check_ways(&*m, &[]),
        Err(Refusal::WayWeightsUnused {
            way: "2+2+2+2".into()
        })
    );
}
