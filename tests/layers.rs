//! The library's modules depend on each other one way: no cycle between top-level modules,
//! counting every `crate::X` path outside tests and comments. Also pins the seams the
//! layout promises: `output` never names the generator, and in `verify` only the replay does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `src/` directory of this package.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") && !test_only(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// True when `file` is a module its parent declares under `#[cfg(test)]` (a style's
/// `tests.rs`): its uses are the tests', not the library's.
fn test_only(file: &Path) -> bool {
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = file.parent().unwrap();
    let parent = if dir.join("mod.rs").exists() {
        dir.join("mod.rs")
    } else {
        dir.with_extension("rs")
    };
    let Ok(text) = std::fs::read_to_string(parent) else {
        return false;
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines.windows(2).any(|w| {
        w[0] == "#[cfg(test)]"
            && w[1]
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                == format!("mod {stem};")
    })
}

/// The library's top-level modules: `src/X.rs` or `src/X/` (the binary's `cli` excluded),
/// each with its files.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(src()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if matches!(name.as_str(), "lib" | "main" | "cli") {
            continue;
        }
        if p.is_dir() {
            out.insert(name, rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.entry(name).or_insert_with(Vec::new).push(p);
        }
    }
    out
}

/// As many line ends as `skipped` holds, so that what follows keeps its line.
fn newlines(skipped: &str, out: &mut String) {
    out.extend(skipped.chars().filter(|&c| c == '\n'));
}

/// `text` without comments, string literals' contents and `#[cfg(test)]` items; every line
/// keeps its number.
fn code(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            newlines(&text[i..end], &mut out);
            i = end;
        } else if b[i..].starts_with(b"r#\"") {
            let end = text[i + 3..].find("\"#").map_or(b.len(), |k| i + 3 + k + 2);
            out.push_str("\"\"");
            newlines(&text[i..end], &mut out);
            i = end;
        } else if b[i] == b'\'' {
            // A char literal ('"', '\'', 'é'), or a lifetime ('a), kept.
            let c = text[i + 1..].chars().next().unwrap_or(' ');
            if c == '\\' {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 1 + c.len_utf8()) == Some(&b'\'') {
                i += 2 + c.len_utf8();
            } else {
                out.push('\'');
                i += 1;
            }
        } else if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
            newlines(&text[start..i.min(b.len())], &mut out);
        } else if b[i..].starts_with(b"#[cfg(test)]") {
            let start = i;
            i += "#[cfg(test)]".len();
            // Skip the item: up to its `;`, or its braced body.
            while i < b.len() && b[i] != b';' && b[i] != b'{' {
                i += 1;
            }
            if i < b.len() && b[i] == b'{' {
                let mut depth = 0;
                while i < b.len() {
                    match b[i] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            i += 1;
            newlines(&text[start..i.min(b.len())], &mut out);
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules `code` names through `crate::`, including each of a `use
/// crate::{a, b::c}` group.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `$crate::`, `foo_crate::`
        }
        let t = rest.trim_start();
        if let Some(group) = t.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        start = false;
                        let id = ident(&group[k..]);
                        if !id.is_empty() {
                            out.insert(id.to_owned());
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let id = ident(t);
            if !id.is_empty() {
                out.insert(id.to_owned());
            }
        }
    }
    out
}

/// Edges `from → to` between top-level modules, each with the first file naming it.
fn edges() -> BTreeMap<(String, String), PathBuf> {
    let mods = modules();
    let mut out = BTreeMap::new();
    for (m, files) in &mods {
        for f in files {
            let text = std::fs::read_to_string(f).unwrap();
            for r in crate_refs(&code(&text)) {
                if &r != m && mods.contains_key(&r) {
                    out.entry((m.clone(), r)).or_insert_with(|| f.clone());
                }
            }
        }
    }
    out
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<(String, String), PathBuf>) -> Vec<BTreeSet<String>> {
    let mut nodes = BTreeSet::new();
    for (a, b) in edges.keys() {
        nodes.insert(a.clone());
        nodes.insert(b.clone());
    }
    let nodes: Vec<String> = nodes.into_iter().collect();
    let at = |n: &str| nodes.iter().position(|m| m == n).unwrap();
    let mut succ = vec![Vec::new(); nodes.len()];
    for (a, b) in edges.keys() {
        succ[at(a)].push(at(b));
    }
    struct T<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &t.succ[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut c = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                t.out.push(c);
            }
        }
    }
    let mut t = T {
        succ: &succ,
        index: vec![None; nodes.len()],
        low: vec![0; nodes.len()],
        on: vec![false; nodes.len()],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..nodes.len() {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
        .into_iter()
        .map(|c| c.into_iter().map(|i| nodes[i].clone()).collect())
        .collect()
}

#[test]
fn no_cycle_between_top_level_modules() {
    let edges = edges();
    let cycles = cycles(&edges);
    let mut msg = String::new();
    for c in &cycles {
        msg += &format!("cycle between {c:?}:\n");
        for ((a, b), f) in &edges {
            if c.contains(a) && c.contains(b) {
                let f = f.strip_prefix(src()).unwrap_or(f);
                msg += &format!("  {a} -> {b}  ({})\n", f.display());
            }
        }
    }
    assert!(cycles.is_empty(), "{msg}");
}

#[test]
fn output_never_names_the_generator() {
    let edges = edges();
    for to in ["generate", "deck", "verify", "render", "place"] {
        let e = ("output".to_owned(), to.to_owned());
        assert!(
            !edges.contains_key(&e),
            "output -> {to} ({:?})",
            edges.get(&e)
        );
    }
}

/// An auditor's build could leave the generator out: only `verify/replay.rs` needs it.
/// Every other file of `verify` names only modules that do not reach `generate`, directly
/// or through others.
#[test]
fn in_verify_only_the_replay_reaches_the_generator() {
    let edges = edges();
    let reaches_generate = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            if m == "generate" {
                return true;
            }
            if seen.insert(m.clone()) {
                todo.extend(
                    edges
                        .keys()
                        .filter(|(a, _)| *a == m)
                        .map(|(_, b)| b.clone()),
                );
            }
        }
        false
    };
    let mods = modules();
    for f in rust_files(&src().join("verify")) {
        if f.file_name().is_some_and(|n| n == "replay.rs") {
            continue;
        }
        let refs = crate_refs(&code(&std::fs::read_to_string(&f).unwrap()));
        for m in refs
            .iter()
            .filter(|m| *m != "verify" && mods.contains_key(*m))
        {
            assert!(
                !reaches_generate(m),
                "{} names crate::{m}, which reaches crate::generate",
                f.display()
            );
        }
    }
}

#[test]
fn the_reader_sees_use_groups_and_skips_tests_and_comments() {
    let text = "use crate::{a::B, b, c::{d, e}};\n// crate::x\nfn f() { crate::g::h(); }\n\
                fn q<'a>(s: &'a str) { s.trim_matches('\"'); crate::k::l(); }\n\
                #[cfg(test)]\nmod tests { use crate::t; }\n";
    let refs: Vec<_> = crate_refs(&code(text)).into_iter().collect();
    assert_eq!(refs, ["a", "b", "c", "g", "k"]);
}

/// The longest a function of the pipeline (generate, emission, deck, output), of `verify`
/// or of `audit` may be: lines of its body between the lines of its braces, blank lines and
/// comments not counted, tests not read.
const MAX_FN_LINES: usize = 80;

/// The files of the pipeline (generate with its emission, the deck compositions, output),
/// of `verify` and of `audit`.
fn pipeline_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in ["generate", "block/deck.rs", "output", "verify", "audit"] {
        let p = src().join(name);
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.is_file() {
            out.push(p);
        }
    }
    out
}

/// Every function with a body in `code` (as [`code`] gives it): its name and the lines of
/// its body (between the lines of its braces) that are not blank.
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("fn ") {
        let at = from + k;
        from = at + 3;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let name = ident(code[at + 3..].trim_start());
        if name.is_empty() {
            continue;
        }
        let Some(open) = code[at..].find(['{', ';']).map(|o| at + o) else {
            break;
        };
        if b[open] == b';' {
            continue;
        }
        let mut depth = 0;
        let mut close = open;
        for (i, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let body = &code[open..close];
        let lines = body
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .count();
        out.push((name.to_owned(), lines));
    }
    out
}

#[test]
fn no_function_of_the_pipeline_verify_or_audit_is_over_80_lines() {
    let mut over = Vec::new();
    for f in pipeline_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        for (name, lines) in function_lengths(&code(&text)) {
            if lines > MAX_FN_LINES {
                over.push(format!("{rel}::{name}: {lines} lines"));
            }
        }
    }
    assert!(
        over.is_empty(),
        "over {MAX_FN_LINES} lines, to split by meaning:\n{}",
        over.join("\n")
    );
}

#[test]
fn a_function_is_measured_by_the_lines_of_its_body() {
    let text = "fn a() {\n    let x = 1;\n\n    // a comment\n    let s = \"two\n lines\";\n}\n\
                trait T { fn b(&self); }\n#[cfg(test)]\nmod tests { fn c() {\n 1;\n } }\n\
                fn d() -> u8 { 1 }\n";
    assert_eq!(
        function_lengths(&code(text)),
        [("a".to_owned(), 3), ("d".to_owned(), 0)]
    );
}
