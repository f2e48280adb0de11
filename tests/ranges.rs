//! Printed numbers written as a range (`symbols = { from = 1, to = 30, width = 2 }`) stand
//! for exactly the list of their numbers, in every style that takes a list of symbols: the
//! game a spec loads to is the same either way, and so are the block files it generates.
//!
//! A block's seed is bound to the digest of the spec's text (`Seed::bound_to`), so two texts
//! never share streams; the files are compared for the same text digest: the game loaded
//! from the range and the game loaded from the list, each under the range spec's text and
//! digest, generate byte-identical files.

mod common;

use common::{repo, SEED};
use std::collections::BTreeMap;
use std::path::Path;
use tirage::crypto::rng::Seed;
use tirage::crypto::validation::ValidationKey;
use tirage::generate::{build, BlockPlan, Folder};
use tirage::spec::GameSpec;

/// `text` with its one occurrence of `from` replaced by `to`.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from}");
    text.replacen(from, to, 1)
}

/// The numbers `from..=to` as a TOML list of `width`-digit strings.
fn listed(from: u32, to: u32, width: usize) -> String {
    let items: Vec<String> = (from..=to).map(|n| format!("\"{n:0width$}\"")).collect();
    format!("[{}]", items.join(", "))
}

/// Every file of block 1 of `spec` (fixed seed), generated into `dir`, by name.
fn block(spec: &GameSpec, dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::create_dir(dir).unwrap();
    let seed = Seed::from_hex(SEED).unwrap();
    let hex = std::fs::read_to_string(repo(common::VALIDATION_KEY)).unwrap();
    let key = ValidationKey::from_hex(hex.trim()).unwrap();
    let mut plan = BlockPlan::production(spec, &seed, 1).unwrap();
    plan.validation_key = Some(&key);
    build(&plan, &mut Folder::new(dir, 0o600)).unwrap();
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Loads `range` and `list` (two texts of one game), asserts they load to the same game,
/// and that, under `range`'s text and digest, both generate the same files.
fn same_game_and_files(range: &str, list: &str) {
    let at = Path::new("game.toml");
    let a = GameSpec::parse(at, range.to_string()).unwrap();
    let mut b = GameSpec::parse(at, list.to_string()).unwrap();
    assert_ne!(a.sha256, b.sha256);
    assert_eq!(a.game.layout(), b.game.layout());
    assert_eq!(a.ways, b.ways);
    b.text = a.text.clone();
    b.sha256 = a.sha256.clone();
    let dir = tempfile::tempdir().unwrap();
    let from_range = block(&a, &dir.path().join("range"));
    let from_list = block(&b, &dir.path().join("list"));
    assert!(
        from_range.contains_key("tickets.csv"),
        "{:?}",
        from_range.keys()
    );
    assert_eq!(
        from_range.keys().collect::<Vec<_>>(),
        from_list.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &from_range {
        assert!(bytes == &from_list[name], "{name} differs");
    }
}

#[test]
fn a_key_match_range_is_its_list() {
    let text = std::fs::read_to_string(repo("game_specs/examples/numero_chance.toml")).unwrap();
    let range = "symbols = { from = 1, to = 30, width = 2 }";
    let list = replace_once(&text, range, &format!("symbols = {}", listed(1, 30, 2)));
    same_game_and_files(&text, &list);
}

#[test]
fn a_lines_and_a_match_symbols_range_is_its_list() {
    // morpion: a lines grid of six words becomes a grid of the numbers 1 to 6.
    let text = std::fs::read_to_string(repo("game_specs/examples/morpion.toml")).unwrap();
    let words = ["TREFLE", "COEUR", "ETOILE", "LUNE", "SOLEIL", "FER"];
    let mut numbered = text.clone();
    for (i, w) in words.iter().enumerate() {
        numbered = numbered.replace(&format!("\"{w}\""), &format!("\"{}\"", i + 1));
        numbered = numbered.replace(&format!("{w} ="), &format!("\"{}\" =", i + 1));
    }
    let list = format!("symbols = {}", listed(1, 6, 1));
    let range = replace_once(&numbered, &list, "symbols = { from = 1, to = 6 }");
    same_game_and_files(&range, &numbered);
    // trefle: a match_symbols surface of eight words (and a FER multiplier) becomes one of
    // the numbers 01 to 08.
    let text = std::fs::read_to_string(repo("game_specs/examples/trefle.toml")).unwrap();
    let words = [
        "TREFLE",
        "COCCINELLE",
        "CLOCHE",
        "ETOILE",
        "LUNE",
        "POMME",
        "ROSE",
        "SOLEIL",
    ];
    let mut numbered = text.clone();
    for (i, w) in words.iter().enumerate() {
        numbered = numbered.replace(&format!("\"{w}\""), &format!("\"{:02}\"", i + 1));
        numbered = numbered.replace(&format!("{w} ="), &format!("\"{:02}\" =", i + 1));
    }
    let list = format!("symbols = {}", listed(1, 8, 2));
    let range = replace_once(
        &numbered,
        &list,
        "symbols = { from = 1, to = 8, width = 2 }",
    );
    same_game_and_files(&range, &numbered);
}
