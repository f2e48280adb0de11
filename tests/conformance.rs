//! The conformance suite every play style runs, through every spec of the repository
//! (`game_specs/`, `game_specs/examples/`, `tests/specs/`): a spec of a new style, or a new
//! example, is checked as soon as its file exists.
//!
//! For every way of every spec, over many face streams:
//! - the face round-trips: judged by the rules alone, it realises exactly its way, with no
//!   ambiguity under either reading (a loser never wins);
//! - the same stream gives the same face, and asking for no feature draws what a production
//!   face draws;
//! - the panels draw every face column but the captions exactly once, each winning play area
//!   has a cell marked as its win and a losing one none, and every near miss or decoy the
//!   evaluation reports has its cell marked;
//! - each feature a way can show comes out when asked, judged as its way; a way that cannot
//!   show it gets an error, never a face without it;
//! - the features a way always shows come out unasked.
//!
//! The value-stability vector: for a fixed stream, the first faces of every way of every spec,
//! as `tickets.csv` prints them, and a digest of more of them, are held against
//! `tests/golden/faces.txt`, so a change in what a style draws is seen and made on purpose
//! (run with `TIRAGE_BLESS=1` to write the file anew: its diff shows which cells changed; say
//! so in the commit).

use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tirage::block::judge;
use tirage::output::tickets_csv::{self, RowWriter};
use tirage::output::Ticket;
use tirage::spec::GameSpec;
use tirage::styles::{ColumnKind, FaceRng, MarkKind};

/// Faces drawn per way for the round trip.
const ROUND_TRIPS: u64 = 150;

/// Faces asked per way and feature.
const FEATURE_TRIES: u64 = 4;

/// Every spec of the repository, by path relative to the crate.
fn specs() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["game_specs", "game_specs/examples", "tests/specs"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for f in files {
            out.push(f.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
    out
}

fn load(rel: &str) -> GameSpec {
    GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_suite_covers_the_seed_games_and_at_least_ten_examples() {
    let all = specs();
    for seed in ["coq", "poker", "pharaon"] {
        assert!(all.contains(&format!("game_specs/{seed}.toml")), "{all:?}");
    }
    let examples = all.iter().filter(|s| s.contains("/examples/")).count();
    assert!(examples >= 10, "{all:?}");
}

#[test]
fn every_way_round_trips_and_losers_never_win() {
    for rel in specs() {
        let s = load(&rel);
        let m = &s.game;
        for (id, way) in s.ways.iter().enumerate() {
            for seed in 0..ROUND_TRIPS {
                let face = m.synthesize(way, &mut FaceRng::seed_from_u64(seed));
                let j = judge(&s, &face);
                assert_eq!(
                    j.realises(&s, id as u16),
                    Ok(()),
                    "{rel} way {} seed {seed}",
                    way.id
                );
                assert_eq!(j.prize, way.amount, "{rel} {}", way.id);
                let again = m.synthesize(way, &mut FaceRng::seed_from_u64(seed));
                assert_eq!(
                    face, again,
                    "{rel} {} seed {seed}: not deterministic",
                    way.id
                );
            }
            let (mut a, mut b) = (FaceRng::seed_from_u64(5), FaceRng::seed_from_u64(5));
            assert_eq!(
                m.synthesize(way, &mut a),
                m.synthesize_showing(way, None, &mut b).unwrap(),
                "{rel} {}",
                way.id
            );
        }
    }
}

#[test]
fn panels_draw_every_cell_once_and_marks_follow_the_evaluation() {
    for rel in specs() {
        let s = load(&rel);
        let m = &s.game;
        let mut drawn: Vec<usize> = m
            .layout()
            .panels
            .iter()
            .flat_map(|p| p.rows.concat())
            .filter(|&c| c != tirage::styles::FREE_CELL)
            .collect();
        drawn.sort_unstable();
        let want: Vec<usize> = (0..m.layout().columns.len())
            .filter(|&i| !matches!(m.layout().columns[i].kind, ColumnKind::Caption { .. }))
            .collect();
        assert_eq!(drawn, want, "{rel}");
        for way in &s.ways {
            for seed in 0..40u64 {
                let face = m.synthesize(way, &mut FaceRng::seed_from_u64(seed));
                let ev = m.evaluate(&face);
                let marks = m.marks(&face, &ev);
                for a in 0..m.layout().areas.len() as u8 {
                    let wins = ev.wins.iter().any(|w| w.area == a);
                    let marked = marks.iter().any(|k| k.area == a && k.kind == MarkKind::Win);
                    assert_eq!(wins, marked, "{rel} {} seed {seed} area {a}", way.id);
                }
                for f in &ev.losing_features {
                    assert!(
                        marks
                            .iter()
                            .any(|k| k.area == f.area && k.kind != MarkKind::Win),
                        "{rel} {} seed {seed}: {} unmarked",
                        way.id,
                        s.game.feature_name(f.id)
                    );
                }
            }
        }
    }
}

#[test]
fn every_feature_shows_when_asked_on_every_way_that_can_show_it() {
    for rel in specs() {
        let s = load(&rel);
        let m = &s.game;
        let features = m.features();
        for (id, way) in s.ways.iter().enumerate() {
            for &(fid, f) in &features {
                for seed in 0..FEATURE_TRIES {
                    let mut rng = FaceRng::seed_from_u64(seed);
                    match m.can_show(way, fid) {
                        Ok(()) => {
                            let face = m
                                .synthesize_showing_checked(way, fid, &mut rng)
                                .unwrap_or_else(|e| panic!("{rel} {} {}: {e}", way.id, f.name));
                            // It shows the feature: the checked synthesis returns no other face.
                            assert_eq!(
                                judge(&s, &face).realises(&s, id as u16),
                                Ok(()),
                                "{rel} {} {}",
                                way.id,
                                f.name
                            );
                        }
                        Err(e) => assert_eq!(
                            m.synthesize_showing(way, Some(fid), &mut rng),
                            Err(e),
                            "{rel} {} {}",
                            way.id,
                            f.name
                        ),
                    }
                }
            }
            for always in m.always_shows(way) {
                let mut rng = FaceRng::seed_from_u64(9);
                for _ in 0..10 {
                    assert!(
                        m.evaluate(&m.synthesize(way, &mut rng)).shows(always),
                        "{rel} {} {}",
                        way.id,
                        m.feature_name(always)
                    );
                }
            }
        }
    }
}

/// Faces of every way the golden file shows, as `tickets.csv` prints them.
const SHOWN: usize = 2;

/// Faces of every way the golden file's digest covers. The shown faces alone would miss a
/// change deeper in the stream (a near miss or decoy drawn at a low rate, a rarely taken
/// branch of a style); the digest over these catches it.
const DIGESTED: usize = 20;

/// What the golden file says of spec `rel`: its path, the SHA-256 of the codes of the first
/// [`DIGESTED`] faces of every way (each way drawn from stream 0), then a CSV of the first
/// [`SHOWN`] of them, in the `prize`, `way` and face columns of `tickets.csv` as its writer
/// renders them (the columns of a ticket's place, which no face decides, left out).
fn golden_section(rel: &str, s: &GameSpec) -> String {
    let mut digest = Sha256::new();
    let mut csv = RowWriter::new(s);
    for (id, way) in s.ways.iter().enumerate() {
        let mut rng = FaceRng::seed_from_u64(0);
        for n in 0..DIGESTED {
            let face = s.game.synthesize(way, &mut rng);
            digest.update(&face.codes[..s.game.layout().columns.len()]);
            if n < SHOWN {
                csv.push(&Ticket {
                    block: 1,
                    pack: 1,
                    pack_position: 1,
                    ticket: 1,
                    serial: [b'0'; tirage::block::serial::LEN],
                    validation: 0,
                    prize: way.amount,
                    way: id as u16,
                    face,
                });
            }
        }
    }
    let mut out = format!(
        "# {rel}\n# SHA-256 of faces 1 to {DIGESTED} of every way: {}\n",
        hex::encode(digest.finalize())
    );
    let header = tickets_csv::header(s);
    for line in header
        .split(|&b| b == b'\n')
        .chain(csv.bytes().split(|&b| b == b'\n'))
    {
        if line.is_empty() {
            continue;
        }
        let line = std::str::from_utf8(line).unwrap();
        // The five columns before `prize`: block, pack, pack_position, ticket, serial.
        let face = line.splitn(6, ',').nth(5).unwrap();
        out.push_str(face);
        out.push('\n');
    }
    out
}

/// The golden file's opening lines.
const GOLDEN_HEAD: &str = "\
# Faces drawn for a fixed stream (tests/conformance.rs, faces_for_a_fixed_stream_are_stable).
# Per spec: the digest of the first faces of every way, then the first of them as
# tickets.csv prints them (prize, way, face columns). Rewrite with TIRAGE_BLESS=1.
";

#[test]
fn faces_for_a_fixed_stream_are_stable() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/faces.txt");
    let mut now = String::from(GOLDEN_HEAD);
    for rel in specs() {
        now.push('\n');
        now.push_str(&golden_section(&rel, &load(&rel)));
    }
    if std::env::var_os("TIRAGE_BLESS").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &now).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    if now != want {
        panic!(
            "faces drawn for a fixed stream changed; if on purpose, run with TIRAGE_BLESS=1 \
             and say so in the commit. First difference: {}",
            first_difference(&want, &now)
        );
    }
}

/// Where `now` first differs from `want`: the line number, the spec whose section it is in,
/// and both lines.
fn first_difference(want: &str, now: &str) -> String {
    let (mut w, mut n) = (want.lines(), now.lines());
    let mut spec = "";
    for number in 1.. {
        let (a, b) = (w.next(), n.next());
        if a == b {
            match a {
                Some(line) => {
                    if let Some(rel) = line.strip_prefix("# ").filter(|r| r.ends_with(".toml")) {
                        spec = rel;
                    }
                    continue;
                }
                None => break,
            }
        }
        return format!("line {number} (in {spec}):\n  golden: {a:?}\n  now:    {b:?}");
    }
    "only in line endings".to_string()
}

#[test]
fn a_changed_golden_line_is_named_with_its_spec() {
    let want = "# head\n\n# a/b.toml\nprize,way,x\n0,lose,A\n\n# c/d.toml\n2,2,B\n";
    let now = want.replace("2,2,B", "2,2,C");
    assert_eq!(
        first_difference(want, &now),
        "line 8 (in c/d.toml):\n  golden: Some(\"2,2,B\")\n  now:    Some(\"2,2,C\")"
    );
    let short = "# head\n\n# a/b.toml\nprize,way,x\n";
    assert_eq!(
        first_difference(want, short),
        "line 5 (in a/b.toml):\n  golden: Some(\"0,lose,A\")\n  now:    None"
    );
}
