//! `tirage preview`: the designer's page of every spec loads in a real browser (headless
//! Chromium, installed by `.ci/run`) with no console message and one face per way; a bad
//! spec is refused as `check` refuses it; a file that is no preview is never replaced
//! without --force; the page is a function of the spec alone (a block made from it changes
//! nothing, and none of its serials appears).

mod common;

use common::{generate, repo, tirage};
use std::path::{Path, PathBuf};
use tirage::proof::words::Words;
use tirage::spec::GameSpec;

/// Every spec of the repository a designer previews: the seed games and the examples.
fn specs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["game_specs", "game_specs/examples"] {
        for e in std::fs::read_dir(repo(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Writes the preview of `spec` into `out`; returns the page's path.
fn preview(spec: &Path, out: &Path) -> PathBuf {
    tirage()
        .arg("preview")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .arg("-q")
        .assert()
        .success();
    out.join("index.html")
}

/// Loads `page` in headless Chromium: the DOM it built, and every console message it
/// logged (a script error, a resource the content security policy refused, …).
fn chromium(page: &Path) -> (String, Vec<String>) {
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium (.ci/run installs Debian's chromium)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

#[test]
fn every_spec_s_page_loads_in_chromium_without_a_console_message_one_face_per_way() {
    let t = tempfile::tempdir().unwrap();
    // The check can fail: a page fetching an image outside is refused by the same policy,
    // and Chromium says so on its console.
    let control = t.path().join("control.html");
    let page = std::fs::read_to_string(preview(
        &repo("tests/specs/coq_tiny.toml"),
        &t.path().join("tiny"),
    ))
    .unwrap();
    std::fs::write(
        &control,
        page.replace(
            "</body>",
            "<img src=\"http://127.0.0.1:9/x.png\" alt=\"\"></body>",
        ),
    )
    .unwrap();
    let (_, console) = chromium(&control);
    assert!(
        console
            .iter()
            .any(|l| l.contains("Content Security Policy")),
        "the control page's refused image is not on the console: {console:?}"
    );
    for spec in specs() {
        let name = spec.file_stem().unwrap().to_string_lossy().into_owned();
        let loaded = GameSpec::load(&spec).unwrap();
        let (ways, words) = (&loaded.ways, Words::of(loaded.language));
        let page = preview(&spec, &t.path().join(&name));
        let (dom, console) = chromium(&page);
        assert!(console.is_empty(), "{name}: console says {console:?}");
        assert!(dom.contains("</html>"), "{name}: no page in {dom}");
        assert_eq!(
            dom.matches("<figure class=\"face\"").count(),
            ways.len(),
            "{name}: not one face per way"
        );
        for w in ways {
            assert_eq!(
                dom.matches(&format!("data-way=\"{}\"", w.id)).count(),
                1,
                "{name}: way {}",
                w.id
            );
        }
        let mark = format!(">{}</text>", words.specimen);
        assert_eq!(dom.matches(&mark).count(), ways.len(), "{name}");
    }
}

#[test]
fn a_bad_spec_is_refused_as_check_refuses_it_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let bad = t.path().join("bad.toml");
    std::fs::write(&bad, text.replacen("pack_size", "pack_sise", 1)).unwrap();
    let check = tirage().arg("check").arg(&bad).output().unwrap();
    let out = t.path().join("page");
    let pre = tirage()
        .arg("preview")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(2));
    assert_eq!(pre.status.code(), Some(2));
    let said = String::from_utf8_lossy(&pre.stderr);
    assert_eq!(said, String::from_utf8_lossy(&check.stderr));
    assert!(
        said.contains("bad.toml") && said.contains("pack_sise"),
        "{said}"
    );
    assert!(!out.exists());
}

#[test]
fn an_earlier_preview_is_replaced_any_other_file_only_with_force() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_tiny.toml");
    let out = t.path().join("page");
    let page = preview(&spec, &out);
    let first = std::fs::read(&page).unwrap();
    // An earlier preview: replaced, and the same bytes again.
    assert_eq!(std::fs::read(preview(&spec, &out)).unwrap(), first);
    std::fs::write(&page, "<p>the designer's own notes</p>").unwrap();
    let o = tirage()
        .arg("preview")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("is no tirage preview"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        "<p>the designer's own notes</p>"
    );
    tirage()
        .arg("preview")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--force")
        .arg("-q")
        .assert()
        .success();
    assert_eq!(std::fs::read(&page).unwrap(), first);
    // A file that is no HTML (a seed, a key) is kept, even with --force.
    std::fs::write(&page, "00".repeat(32)).unwrap();
    let o = tirage()
        .arg("preview")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--force")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().last().unwrap(),
        format!(
            "tirage: error: {} exists and is not an HTML page (it does not begin with a tag, <): nothing was written, and --force would not replace it (it replaces only pages); choose another --out",
            page.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "00".repeat(32));
    std::fs::write(&page, &first).unwrap();
    // Nothing staged is left beside it.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["index.html"]);
}

#[test]
fn the_default_page_is_under_output_game_preview() {
    let t = tempfile::tempdir().unwrap();
    let o = tirage()
        .current_dir(t.path())
        .arg("preview")
        .arg(repo("tests/specs/coq_tiny.toml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "output/coq/preview/index.html\n"
    );
    assert!(t.path().join("output/coq/preview/index.html").is_file());
}

/// What an insider holding only the page learns: the spec. A block made from the spec
/// leaves the page as it was, and none of the block's serials is on it (its specimen
/// serials are block 000's).
#[test]
fn the_page_says_nothing_about_any_block() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let before = std::fs::read_to_string(preview(&spec, &t.path().join("a"))).unwrap();
    let block = t.path().join("block");
    generate(&spec, &block, 1);
    let after = std::fs::read_to_string(preview(&spec, &t.path().join("b"))).unwrap();
    assert_eq!(before, after);
    let csv = std::fs::read_to_string(block.join("tickets.csv")).unwrap();
    let mut header = csv.lines().next().unwrap().split(',');
    let col = header.position(|c| c == "serial").expect("a serial column");
    for row in csv.lines().skip(1) {
        let serial = row.split(',').nth(col).unwrap();
        assert!(!after.contains(serial), "serial {serial} on the page");
    }
    // Every serial the page shows is of block 000.
    let spec = GameSpec::load(&spec).unwrap();
    let serial = Words::of(spec.language).place[4];
    let prefix = format!("{:04}{:03}000", spec.game_code, spec.emission);
    let shown = after.matches(&format!("{serial} ")).count();
    assert_eq!(shown, spec.ways.len());
    assert_eq!(after.matches(&format!("{serial} {prefix}")).count(), shown);
}

/// An English game's page names its règlement in English, a French game's in French.
#[test]
fn the_page_names_the_rules_in_the_game_s_language() {
    let t = tempfile::tempdir().unwrap();
    let en = std::fs::read_to_string(preview(
        &repo("game_specs/examples/ticket_bonus.toml"),
        &t.path().join("en"),
    ))
    .unwrap();
    assert!(en.contains(
        "<p>Official rules: Example game (invented): tirage game_specs/examples/ticket_bonus.toml</p>"
    ));
    assert!(en.contains(
        "<p>To hold against the official rules: <strong>Example game (invented): tirage game_specs/examples/ticket_bonus.toml</strong></p>"
    ));
    assert!(!en.contains("Règlement") && !en.contains("règlement"));
    let fr = std::fs::read_to_string(preview(
        &repo("tests/specs/coq_small.toml"),
        &t.path().join("fr"),
    ))
    .unwrap();
    assert!(fr.contains(
        "<p>Règlement: Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016</p>"
    ));
}
