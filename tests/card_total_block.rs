//! Blocks of the card_total style (blackjack) judged ticket by ticket by an evaluator written
//! here from the rule text alone (game_specs/README.md, `card_total`), not from the style's
//! code: the test spec tests/specs/card_total_small.toml (a dealer per hand, of three cards;
//! a tie loses; a natural wins 40) and the example game_specs/examples/vingt_et_un.toml (one
//! shared dealer; no tie printed; a natural wins twice its GAIN), and
//! game_specs/examples/blackjack_duo.toml (two tables playing against one dealer's hand
//! printed once, all cards from one deck). Every ticket's printed prize must be what the
//! rules pay, under every reading a player may make of its aces.

mod common;

use common::{generate, repo, tirage};
use std::collections::{BTreeMap, HashSet};

/// What the rule text of a spec says, as this evaluator reads it.
struct Rules {
    /// Surface id (column prefix).
    id: &'static str,
    hands: usize,
    /// Player cards per hand.
    cards: usize,
    /// Dealer's cards, and the stem of its columns when one dealer serves every hand
    /// (`bj_d` for `bj_d1`, `banque_` for `banque_1`); `None` for a dealer per hand.
    dealer_cards: usize,
    shared: Option<&'static str>,
    /// How a tie pays: `None` when the rules never print one.
    tie_wins: Option<bool>,
    /// A natural's pay: `Err(factor)` of the GAIN, or `Ok(prize)` in whole euros.
    natural: Result<u64, u64>,
}

/// A card's points with an ace as 1, from its two-character code (`Ah`, `Td`, `7s`).
fn points(code: &str) -> u64 {
    match code.as_bytes()[0] {
        b'A' => 1,
        b'T' | b'J' | b'Q' | b'K' => 10,
        d @ b'2'..=b'9' => u64::from(d - b'0'),
        _ => panic!("not a card: {code}"),
    }
}

/// Every total a player may read on `hand`: each ace 1 or 11 without going over 21 (the
/// hard total always), a natural only 21. Returns the rule's total too (the highest not over
/// 21, or the hard total when over) and whether the hand is a natural.
fn read(hand: &[&str]) -> (Vec<u64>, u64, bool) {
    let hard: u64 = hand.iter().map(|c| points(c)).sum();
    let aces = hand.iter().filter(|c| c.starts_with('A')).count() as u64;
    let natural = hand.len() == 2 && aces == 1 && hard == 11;
    if natural {
        return (vec![21], 21, true);
    }
    let readings: Vec<u64> = (0..=aces)
        .map(|k| hard + 10 * k)
        .filter(|&t| t == hard || t <= 21)
        .collect();
    let best = *readings.iter().filter(|&&t| t <= 21).max().unwrap_or(&hard);
    (readings, best, false)
}

/// 1 win, 0 tie, -1 lose, comparing totals (over 21 busts, the player's first).
fn compare(p: u64, d: u64) -> i32 {
    if p > 21 {
        -1
    } else if d > 21 || p > d {
        1
    } else if p == d {
        0
    } else {
        -1
    }
}

/// The prize of one ticket (a CSV row by column name) in whole euros, and the hands whose
/// outcome a reading could change (which the rules say are never printed).
fn judge(r: &Rules, row: &BTreeMap<&str, &str>) -> (u64, Vec<String>) {
    let (prizes, problems) = judge_hands(r, row);
    (prizes.iter().sum(), problems)
}

/// The cards of hand `h`'s dealer on one ticket: the shared dealer's, or its own.
fn dealer_of<'a>(r: &Rules, row: &BTreeMap<&str, &'a str>, h: usize) -> Vec<&'a str> {
    (1..=r.dealer_cards)
        .map(|i| {
            let col = match r.shared {
                Some(stem) => format!("{stem}{i}"),
                None => format!("{}_h{h}_d{i}", r.id),
            };
            row[col.as_str()]
        })
        .collect()
}

/// What each hand of one ticket wins in whole euros (0 when it loses), in hand order, and
/// the problems [`judge`] reports.
fn judge_hands(r: &Rules, row: &BTreeMap<&str, &str>) -> (Vec<u64>, Vec<String>) {
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    let mut prizes = Vec::new();
    for h in 1..=r.hands {
        prizes.push(0);
        let own: Vec<&str> = (1..=r.cards)
            .map(|i| row[format!("{}_h{h}_c{i}", r.id).as_str()])
            .collect();
        let dealer = dealer_of(r, row, h);
        for c in own.iter().chain(if h == 1 || r.shared.is_none() {
            dealer.iter()
        } else {
            [].iter()
        }) {
            if !seen.insert(c.to_string()) {
                problems.push(format!("card {c} twice"));
            }
        }
        let gain: u64 = row[format!("{}_h{h}_gain", r.id).as_str()].parse().unwrap();
        let (p_read, p, p_nat) = read(&own);
        let (d_read, d, d_nat) = read(&dealer);
        let settle = |o: i32| match o {
            1 => Some(true),
            -1 => Some(false),
            _ => r.tie_wins,
        };
        // The letter: a natural beats all but a natural (a tie); otherwise the totals.
        let letter = if p > 21 {
            Some(false)
        } else if p_nat || d_nat {
            settle(if p_nat && d_nat {
                0
            } else if p_nat {
                1
            } else {
                -1
            })
        } else {
            settle(compare(p, d))
        };
        let Some(wins) = letter else {
            problems.push(format!("hand {h}: a tie printed"));
            continue;
        };
        for &pr in &p_read {
            for &dr in &d_read {
                if settle(compare(pr, dr)) != Some(wins) {
                    problems.push(format!(
                        "hand {h}: {own:?} against {dealer:?} read {pr} to {dr}"
                    ));
                }
            }
        }
        if wins {
            prizes[h - 1] = match (p_nat && !d_nat, r.natural) {
                (true, Err(factor)) => gain * factor,
                (true, Ok(p)) => {
                    if gain != p {
                        problems.push(format!("hand {h}: a natural over a GAIN of {gain}"));
                    }
                    p
                }
                _ => gain,
            };
        }
    }
    (prizes, problems)
}

/// A dealer's hand as a bin of the law tests: 0 for a natural, else its total by the rule
/// (above 21 when bust).
fn dealer_bin(dealer: &[&str]) -> u64 {
    let (_, total, natural) = read(dealer);
    if natural {
        0
    } else {
        total
    }
}

/// The chi-square statistic of homogeneity of two histograms over the same bins (each bin's
/// `[first, second]` counts), and its degrees of freedom: the bins either shows, less one.
fn chi_square(bins: &BTreeMap<u64, [u32; 2]>) -> (f64, usize) {
    let n = [0, 1].map(|k| bins.values().map(|c| c[k]).sum::<u32>());
    let mut chi2 = 0.0;
    for counts in bins.values() {
        let column = f64::from(counts[0] + counts[1]);
        for k in 0..2 {
            let expected = column * f64::from(n[k]) / f64::from(n[0] + n[1]);
            chi2 += (f64::from(counts[k]) - expected).powi(2) / expected;
        }
    }
    (chi2, bins.len() - 1)
}

/// The 0.1 % critical values of chi-square, for 1 to 12 degrees of freedom.
const CHI2_CRITICAL: [f64; 12] = [
    10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588, 31.264, 32.909,
];

/// Asserts that the dealers of `bins` (by [`dealer_bin`], `[losing, winning]`) follow one
/// law on losers and winners: the chi-square of homogeneity stays below its 0.1 % critical
/// value; then that the law is the style's: no ace, a total of 12 to 19, every total seen.
fn assert_one_dealer_law(what: &str, bins: &BTreeMap<u64, [u32; 2]>) {
    let (chi2, df) = chi_square(bins);
    assert!(
        (1..=CHI2_CRITICAL.len()).contains(&df) && chi2 < CHI2_CRITICAL[df - 1],
        "{what}: {bins:?}: chi-square {chi2} with {df} degrees of freedom"
    );
    assert_eq!(
        bins.keys().copied().collect::<Vec<_>>(),
        (12..=19).collect::<Vec<_>>(),
        "{what}: {bins:?}"
    );
}

/// What [`judge_block`] counts over a block.
struct Tally {
    /// Hands showing a natural.
    naturals: usize,
    /// Hands showing a soft total (an ace a player may count 1 or 11), naturals left out.
    soft: usize,
    /// Hands over 21.
    busts: usize,
    /// The dealers' hands by [`dealer_bin`], `[losing, winning]`: with one dealer for the
    /// hands, the tickets by their dealer (a losing ticket wins nothing); with a dealer per
    /// hand, the hands by their own dealer.
    dealers: BTreeMap<u64, [u32; 2]>,
}

/// Generates block 1 of `spec`, judges every ticket and counts what [`Tally`] holds.
fn judge_block(spec: &str, r: &Rules) -> Tally {
    let csv = common::clean_block_csv(spec);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut tally = Tally {
        naturals: 0,
        soft: 0,
        busts: 0,
        dealers: BTreeMap::new(),
    };
    let mut tickets = 0;
    for line in lines {
        let row: BTreeMap<&str, &str> = header.iter().copied().zip(line.split(',')).collect();
        let (prizes, problems) = judge_hands(r, &row);
        assert!(
            problems.is_empty(),
            "{spec} ticket {}: {problems:?}",
            row["ticket"]
        );
        let prize: u64 = prizes.iter().sum();
        assert_eq!(
            prize.to_string(),
            row["prize"],
            "{spec} ticket {}",
            row["ticket"]
        );
        for h in 1..=r.hands {
            let own: Vec<&str> = (1..=r.cards)
                .map(|i| row[format!("{}_h{h}_c{i}", r.id).as_str()])
                .collect();
            let (readings, total, natural) = read(&own);
            tally.naturals += usize::from(natural);
            tally.soft += usize::from(!natural && readings.len() > 1);
            tally.busts += usize::from(total > 21);
            if r.shared.is_none() {
                let bin = dealer_bin(&dealer_of(r, &row, h));
                tally.dealers.entry(bin).or_default()[usize::from(prizes[h - 1] > 0)] += 1;
            }
        }
        if r.shared.is_some() {
            let bin = dealer_bin(&dealer_of(r, &row, 1));
            tally.dealers.entry(bin).or_default()[usize::from(prize > 0)] += 1;
        }
        tickets += 1;
    }
    assert!(tickets >= 1000, "{spec}: {tickets} tickets");
    tally
}

/// The rules of the test spec with a dealer per hand.
const PER_HAND: Rules = Rules {
    id: "ct",
    hands: 4,
    cards: 2,
    dealer_cards: 3,
    shared: None,
    tie_wins: Some(false),
    natural: Ok(40),
};

/// The rules of the example with one dealer for its five hands.
const SHARED: Rules = Rules {
    id: "bj",
    hands: 5,
    cards: 2,
    dealer_cards: 2,
    shared: Some("bj_d"),
    tie_wins: None,
    natural: Err(2),
};

#[test]
fn every_ticket_of_a_block_with_a_dealer_per_hand_pays_what_the_rules_say() {
    let t = judge_block("tests/specs/card_total_small.toml", &PER_HAND);
    // 2 tickets of two naturals and 4 of one: every natural is a win of 40.
    assert_eq!(t.naturals, 8);
    // For the fixed seed: the soft hands of the block's 4 000 (an ace and a 2 to 9, each
    // losing whether its ace counts 1 or 11), some one hand in twelve.
    assert_eq!(t.soft, 380);
}

/// The attack a dealer per hand invited: a player or retailer who scratches one hand's
/// dealer alone learns nothing of that hand's prize. Every dealer of the test spec follows
/// one law on losing and winning hands (no natural, no bust, no 20 that only losers show).
#[test]
fn each_dealer_per_hand_follows_one_law_on_losing_and_winning_hands() {
    let t = judge_block("tests/specs/card_total_small.toml", &PER_HAND);
    assert_one_dealer_law("card_total_small", &t.dealers);
    // 1 000 tickets of four hands; for the fixed seed, the hands that win.
    let n = [0, 1].map(|k| t.dealers.values().map(|c| c[k]).sum::<u32>());
    assert_eq!(n, [3634, 366]);
}

#[test]
fn every_ticket_of_the_example_with_a_shared_dealer_pays_what_the_rules_say() {
    let t = judge_block("game_specs/examples/vingt_et_un.toml", &SHARED);
    // For the fixed seed: the naturals of the block's 10 000 hands, the two wins only a
    // natural pays (bj250, bj50) and 55 of the 379 wins of 2, 4, 10 or 20 a natural may
    // pay (15 % would be 57); the soft hands, about one hand in twelve.
    assert_eq!((t.naturals, t.soft), (57, 868));
    assert_eq!(t.busts, 0, "two cards never bust");
}

/// The attack a dealer shown to every hand invited: a player or retailer who scratches the
/// bank alone learns nothing of the ticket's prize. The bank of the example follows one
/// law on losing and winning tickets (no natural, no 20 that only losers show).
#[test]
fn the_bank_of_the_example_follows_one_law_on_losing_and_winning_tickets() {
    let t = judge_block("game_specs/examples/vingt_et_un.toml", &SHARED);
    assert_one_dealer_law("vingt_et_un", &t.dealers);
    // 2 000 tickets, 358 of them winning (the lot table's lots).
    let n = [0, 1].map(|k| t.dealers.values().map(|c| c[k]).sum::<u32>());
    assert_eq!(n, [1642, 358]);
}

/// Table 1 and table 2 of the shared-dealer example, as its rule text says: both play
/// against « La Banque » (`banque_1`, `banque_2`).
fn duo_tables() -> [Rules; 2] {
    [
        Rules {
            id: "table1",
            hands: 3,
            cards: 2,
            dealer_cards: 2,
            shared: Some("banque_"),
            tie_wins: None,
            natural: Err(2),
        },
        Rules {
            id: "table2",
            hands: 2,
            cards: 2,
            dealer_cards: 2,
            shared: Some("banque_"),
            tie_wins: Some(false),
            natural: Err(1),
        },
    ]
}

/// Every card of a ticket of the shared-dealer example: the bank's, then each hand's.
fn duo_cards<'a>(row: &BTreeMap<&str, &'a str>) -> Vec<&'a str> {
    let mut v = vec![row["banque_1"], row["banque_2"]];
    for (t, hands) in [(1, 3), (2, 2)] {
        for h in 1..=hands {
            for c in 1..=2 {
                v.push(row[format!("table{t}_h{h}_c{c}").as_str()]);
            }
        }
    }
    v
}

/// The example with one dealer's hand read by two tables, judged ticket by ticket: every
/// prize is the sum of both tables' hands as the rules pay them; no card twice on the
/// ticket (one deck); the bank printed once. The bank alone tells winners from losers no
/// better than chance: it never shows an ace, a natural or a bust, and its totals follow
/// one law on winning and losing tickets.
#[test]
fn every_ticket_of_the_example_with_a_dealer_shared_by_two_tables_pays_what_the_rules_say() {
    let spec = "game_specs/examples/blackjack_duo.toml";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo(spec), &out, 2);
    assert_eq!(common::verify_code(&out), 0, "{spec}: verify not clean");
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    // The bank is printed once: no table has dealer columns of its own.
    assert!(header.contains(&"banque_2"));
    assert!(!header.iter().any(|h| h.contains("_d1")), "{header:?}");
    let tables = duo_tables();
    let (mut tickets, mut winners, mut paid, mut naturals) = (0, 0, 0, 0);
    // Tickets by the bank's total, losing and winning.
    let mut by_total: BTreeMap<u64, [u32; 2]> = BTreeMap::new();
    for line in lines {
        let row: BTreeMap<&str, &str> = header.iter().copied().zip(line.split(',')).collect();
        let ticket = row["ticket"];
        let mut prize = 0;
        for r in &tables {
            let (p, problems) = judge(r, &row);
            assert!(problems.is_empty(), "ticket {ticket}: {problems:?}");
            prize += p;
            for h in 1..=r.hands {
                let own: Vec<&str> = (1..=2)
                    .map(|i| row[format!("{}_h{h}_c{i}", r.id).as_str()])
                    .collect();
                naturals += usize::from(read(&own).2);
            }
        }
        assert_eq!(prize.to_string(), row["prize"], "ticket {ticket}");
        let cards = duo_cards(&row);
        assert_eq!(
            cards.iter().collect::<HashSet<_>>().len(),
            cards.len(),
            "ticket {ticket}: a card twice on the ticket {cards:?}"
        );
        let bank = [row["banque_1"], row["banque_2"]];
        assert!(bank.iter().all(|c| !c.starts_with('A')), "ticket {ticket}");
        let total = bank.iter().map(|c| points(c)).sum::<u64>();
        assert!((12..=19).contains(&total), "ticket {ticket}: bank {total}");
        by_total.entry(total).or_default()[usize::from(prize > 0)] += 1;
        winners += usize::from(prize > 0);
        paid += prize;
        tickets += 1;
    }
    assert_eq!((tickets, winners, paid), (2000, 357, 2320));
    // For the fixed seed: some 15 % of table 1's wins a natural may pay.
    assert_eq!(naturals, 23);
    // A natural is printed, so the spec's word that no hand changing outcome with an ace
    // counted 1 or 11 is printed excepts it.
    let text = std::fs::read_to_string(repo(spec)).unwrap();
    assert!(
        text.contains("with an ace counted 1 or 11 is printed, but a\n# BLACK JACK, which every reading takes for 21."),
        "{spec}: the comment must except a BLACK JACK"
    );
    // One law on losers and winners.
    assert_one_dealer_law("blackjack_duo", &by_total);
    let n = [0, 1].map(|k| by_total.values().map(|c| c[k]).sum::<u32>());
    assert_eq!(n, [1643, 357]);
}

/// The attack a shared dealer invites: on a losing ticket whose hands hold no ace, the
/// bank's second card is edited into a 2 (one not on the ticket), in the print file and the
/// CSV alike, so that a hand now beats the bank. `verify` must find the face paying what
/// its printed prize does not.
#[test]
fn verify_finds_a_shared_dealer_card_forged_on_a_loser() {
    let f = common::Forgery::of("game_specs/examples/blackjack_duo.toml");
    const SUITS: [&str; 4] = ["c", "d", "h", "s"];
    // A 2 (card code = its suit: rank 0) the ticket does not show, on a loser of no ace.
    let (row, two) = f
        .rows()
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let r: BTreeMap<&str, &str> = r.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let row = i + 1;
            let cards = duo_cards(&r);
            let two = (0..4u8)
                .find(|&s| !cards.contains(&format!("2{}", SUITS[usize::from(s)]).as_str()))?;
            let bank = points(r["banque_1"]) + 2;
            let beaten = cards[2..]
                .chunks(2)
                .any(|h| points(h[0]) + points(h[1]) > bank);
            let no_ace = cards.iter().all(|c| !c.starts_with('A'));
            (r["prize"] == "0" && no_ace && beaten).then_some((row, two))
        })
        .expect("a losing ticket of no ace with a hand above the bank's first card + 2");
    common::forge_cell(
        &f.bad,
        row,
        "banque_2",
        two,
        &format!("2{}", SUITS[usize::from(two)]),
    );
    let text = f.verified();
    // The edited face, judged by the rules, now pays: neither its printed prize nor the
    // block's counts agree.
    assert_eq!(
        common::status_of(&text, "csv_matches_print"),
        "FAIL",
        "{text}"
    );
    assert_eq!(common::status_of(&text, "counts"), "FAIL", "{text}");
}

/// What a shared dealer's hand cannot be is refused with the file, the field and what was
/// expected: symbols given to a hand, a hand of four cards, a style other than card_total
/// reading it, a card_total reading a draw, the dealer's cards given again on a table, a
/// way only a natural pays, and more cards than one deck leaves room for.
#[test]
fn a_shared_dealer_that_cannot_be_is_refused_by_field() {
    let text = std::fs::read_to_string(repo("game_specs/examples/blackjack_duo.toml")).unwrap();
    let refused = |from: &str, to: &str| common::refused(&text, &[(from, to)]);
    let e = refused("count = 2\n", "count = 2\nsymbols = [\"A\", \"B\"]\n");
    assert!(
        e.contains("shared[0].symbols") && e.contains("leave `symbols` out"),
        "{e}"
    );
    let e = refused("count = 2\n", "count = 4\n");
    assert!(
        e.contains("shared[0].count") && e.contains("a dealer's hand has 2 or 3 cards, got 4"),
        "{e}"
    );
    let e = refused(
        "style = \"card_total\"\nid = \"table2\"",
        "style = \"key_match\"\nid = \"table2\"",
    );
    assert!(
        e.contains("surfaces[1].reads")
            && e.contains(
                "shared \"banque\" is a dealer's hand: only card_total surfaces read one"
            ),
        "{e}"
    );
    let e = refused(
        "kind = \"hand\"\ncount = 2\n",
        "kind = \"draw\"\ncount = 2\nsymbols = [\"A\", \"B\"]\n",
    );
    assert!(
        e.contains("surfaces[0].reads") && e.contains("a card_total surface reads a dealer's hand"),
        "{e}"
    );
    let e = refused("hands = 2\n", "hands = 2\ndealer_cards = 2\n");
    assert!(
        e.contains("surfaces[1].dealer_cards") && e.contains("leave dealer_cards = 2 out"),
        "{e}"
    );
    let e = refused("hands = 2\n", "hands = 2\ndealer = \"per_hand\"\n");
    assert!(
        e.contains("surfaces[1].dealer") && e.contains("leave `dealer` out"),
        "{e}"
    );
    // Without 10 in table 1's boxes, a win of 10 there is 5 × 2, only by a natural; and
    // table 2 shows no 10.
    let e = refused(
        "box_amounts = [1, 2, 5, 10, 50]",
        "box_amounts = [1, 2, 5, 50]",
    );
    assert!(e.contains("surfaces[0].decoy_weights"), "{e}");
    let e = common::refused(
        &text,
        &[
            (
                "box_amounts = [1, 2, 5, 10, 50]",
                "box_amounts = [1, 2, 5, 50]",
            ),
            ("\"10\" = 12\n", ""),
        ],
    );
    assert!(
        e.contains("only a natural pays it, and a surface reading a shared dealer never needs one"),
        "{e}"
    );
    let e = refused("hands = 2\n", "hands = 8\ncards = 3\n");
    assert!(
        e.contains(
            "shared \"banque\" and the hands that read it show 32 cards; at most 30 (one deck \
             deals every card of the ticket)"
        ),
        "{e}"
    );
}

/// A spec of eight hands of three cards, each losing one below the dealer (`near_miss =
/// 1.0`): against a dealer's 12 the losing ticket needs 24 cards of 11 in threes, more low
/// cards than a deck holds. The dealer's law is never bent for a way (no dealer drawn
/// higher because the hands cannot be dealt): the spec is refused when it loads, naming
/// the way, the surface and the dealer's total. With four hands it loads.
#[test]
fn a_surface_whose_hands_need_more_low_cards_than_a_deck_holds_is_refused() {
    let text = DEEP.to_string();
    let load =
        |t: &str| tirage::spec::GameSpec::parse(std::path::Path::new("deep.toml"), t.to_string());
    let e = load(&text).map(|_| ()).expect_err("loads").to_string();
    assert_eq!(
        e,
        "deep.toml:19: way \"lose\": no surface can carry it: surface \"ct\": « ct » cannot \
         deal its hands against a dealer's hand of 12: 16 of 16 sampled deals ran out of the \
         cards a hand needs (one deck deals every card; every dealer's total from 12 to 19 \
         must leave enough); give the surface fewer hands or fewer cards to a hand"
    );
    assert!(load(&text.replacen("hands = 8", "hands = 4", 1)).is_ok());
}

/// The spec that [`a_surface_whose_hands_need_more_low_cards_than_a_deck_holds_is_refused`]
/// loads: eight hands of three cards, every losing hand one below the dealer.
const DEEP: &str = r#"[game]
id = "deep"
name = "DEEP"
legal_reference = "Test spec (invented)"
currency = "EUR"
price = 2
block_size = 100
pack_size = 50
game_code = 9990

[published]
lots = 10
payout = 10

[captions]
"1" = "UN EURO"
"2" = "DEUX EUROS"

[[surfaces]]
style = "card_total"
id = "ct"
hands = 8
cards = 3
box_amounts = [1, 2]
near_miss = 1.0
rank_names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "VALET", "DAME", "ROI", "AS"]
suit_names = ["TREFLE", "CARREAU", "COEUR", "PIQUE"]
[surfaces.decoy_weights]
"1" = 1
"2" = 1

[[tiers]]
amount = 1
count = 10
total = 10
[[tiers.ways]]
id = "1"
count = 10
wins = [1]
"#;

/// The evaluator above is no rubber stamp: it finds a soft hand whose outcome changes with
/// its ace, a tie, and a natural paid as a plain win.
#[test]
fn the_evaluator_finds_what_the_rules_forbid() {
    let rules = Rules {
        id: "bj",
        hands: 1,
        cards: 2,
        dealer_cards: 2,
        shared: Some("bj_d"),
        tie_wins: None,
        natural: Err(2),
    };
    let row = |d: [&'static str; 2], h: [&'static str; 2], gain: &'static str| {
        BTreeMap::from([
            ("bj_d1", d[0]),
            ("bj_d2", d[1]),
            ("bj_h1_c1", h[0]),
            ("bj_h1_c2", h[1]),
            ("bj_h1_gain", gain),
        ])
    };
    assert_eq!(
        judge(&rules, &row(["Kd", "9s"], ["Th", "Qc"], "5")),
        (5, vec![])
    );
    assert_eq!(
        judge(&rules, &row(["Kd", "5s"], ["Ah", "Kc"], "5")),
        (10, vec![])
    );
    assert_eq!(
        judge(&rules, &row(["Kd", "9s"], ["As", "6c"], "5")),
        (0, vec![])
    );
    let (_, p) = judge(&rules, &row(["Kd", "5s"], ["Ah", "9c"], "5"));
    assert_eq!(
        p,
        ["hand 1: [\"Ah\", \"9c\"] against [\"Kd\", \"5s\"] read 10 to 15"]
    );
    let (_, p) = judge(&rules, &row(["Kd", "5s"], ["Th", "5c"], "5"));
    assert_eq!(p, ["hand 1: a tie printed"]);
    let (_, p) = judge(&rules, &row(["Kd", "5s"], ["Kd", "9c"], "5"));
    assert_eq!(p, ["card Kd twice"]);
}

/// The attack the rule's naive reading guards against: on a losing ticket of the example,
/// the bank's ten or figure is edited into an ace (one not on the ticket), in the print file
/// and the CSV alike. By the letter the bank now counts one more (a soft total) and every
/// hand still loses, so the prize is unchanged; but a player counting the ace 1 sees the
/// bank at 10 or less, beaten by a hand: `verify` must report the ambiguity.
#[test]
fn verify_finds_a_dealer_s_soft_hand_a_player_reads_as_beaten() {
    let f = common::Forgery::of("game_specs/examples/vingt_et_un.toml");
    let bad = &f.bad;
    let csv = std::fs::read_to_string(bad.join("tickets.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|&h| h == name).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let mut bin = std::fs::read(bad.join("tickets.bin")).unwrap();
    let u16_at = |o: usize| u16::from_le_bytes([bin[o], bin[o + 1]]) as usize;
    let (record, k) = (u16_at(10), u16_at(28));
    let start = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    let face_at = |row: usize| start + (row - 1) * record + record - k;
    // Cards are coded rank * 4 + suit in the print file (rank 8..=11: ten to king, 12: ace).
    let cards = [0, 1, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19];
    let (row, ace) = (1..lines.len())
        .find_map(|row| {
            let f: Vec<&str> = lines[row].split(',').collect();
            let face = &bin[face_at(row)..face_at(row) + k];
            let other = points(f[col("bj_d2")]);
            let hands: Vec<u64> = (1..=5)
                .map(|h| {
                    points(f[col(&format!("bj_h{h}_c1"))]) + points(f[col(&format!("bj_h{h}_c2"))])
                })
                .collect();
            let beaten = hands.iter().any(|&t| t > 1 + other);
            let ten = (8..=11).contains(&(face[0] / 4));
            let ace = (48..52).find(|c| !cards.iter().any(|&i| face[i] == *c))?;
            (f[col("way")] == "lose" && ten && (6..=9).contains(&other) && beaten)
                .then_some((row, ace))
        })
        .expect("a losing ticket whose bank is a ten or figure and a 6 to 9");
    bin[face_at(row)] = ace;
    std::fs::write(bad.join("tickets.bin"), bin).unwrap();
    let mut fields: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    fields[col("bj_d1")] = format!("A{}", ["c", "d", "h", "s"][usize::from(ace % 4)]);
    lines[row] = fields.join(",");
    std::fs::write(bad.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
    let text = f.verified();
    let status = |check: &str| common::status_of(&text, check);
    assert_eq!(status("ambiguity"), "FAIL", "{text}");
    assert_eq!(status("csv_matches_print"), "PASS", "{text}");
    assert!(
        text.contains("a card_total hand whose outcome depends on how an ace is counted"),
        "{text}"
    );
}

/// The ticket's one deck is judged across surfaces: a card of table 1 copied onto table 2
/// (each table alone still shows no card twice) is an ambiguity of the ticket, on a face of
/// every way.
#[test]
fn a_card_twice_across_tables_is_an_ambiguity_of_the_ticket() {
    use rand_core::SeedableRng;
    let spec =
        tirage::spec::GameSpec::load(&repo("game_specs/examples/blackjack_duo.toml")).unwrap();
    let names: Vec<&str> = spec
        .game
        .layout()
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    let at = |n: &str| names.iter().position(|&c| c == n).unwrap();
    assert_eq!((at("banque_1"), at("banque_2")), (0, 1));
    let mut rng = tirage::styles::FaceRng::seed_from_u64(7);
    for way in &spec.ways {
        let face = spec.game.synthesize(way, &mut rng);
        let ev = spec.game.evaluate(&face);
        assert!(
            ev.ambiguities.is_empty(),
            "{}: {:?}",
            way.id,
            ev.ambiguities
        );
        let mut forged = face.clone();
        forged.codes[at("table2_h2_c2")] = face.codes[at("table1_h1_c1")];
        let ev = spec.game.evaluate(&forged);
        assert!(
            ev.ambiguities.contains(&tirage::styles::game::AMB_DECK),
            "{}: {:?}",
            way.id,
            ev.ambiguities
        );
    }
}

/// Two tables of eight and two hands against one bank: the first table's hands may take
/// every low card the second's losing hands need. The ticket is then dealt again from the
/// start, so the spec checks, and its block generates and verifies clean with no card twice.
#[test]
fn a_ticket_whose_tables_use_up_the_low_cards_is_dealt_again() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("game_specs/examples/blackjack_duo.toml")).unwrap();
    let text = text.replacen("hands = 3", "hands = 8", 1);
    assert!(text.contains("hands = 8"));
    let spec = t.path().join("bj8.toml");
    std::fs::write(&spec, text).unwrap();
    let out = t.path().join("block");
    generate(&spec, &out, 2);
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit", "-q"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}
