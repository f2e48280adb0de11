//! A game designer's preview of a spec: one static HTML page (inline CSS and inline SVG, no
//! script, no font, no link outside the page; a content security policy forbids fetching
//! anything) to read before anything is printed.
//!
//! The page shows the lot table (odds as "1 in N", payout per tier and its share, the
//! payout ratio), a chart of the prize structure, the pack guarantees and what they cost,
//! the near-miss and decoy rates, the rules in words beside the règlement's reference
//! ([`crate::spec::words`]) and, for every way, a sample face drawn as a proof draws it
//! ([`ticket_canvas`], marks shown).
//!
//! **Specimens from a public stream.** The sample faces, and the faces the rates are
//! estimated from, are drawn from ChaCha20 streams keyed by SHA-256(`"tirage/v1/preview/"`
//! ‖ purpose ‖ 0x00 ‖ the spec's SHA-256 ‖ way index as u64 LE): from the spec alone,
//! never from a seed. Their serials are of block 000 (no ticket of a printed block) and
//! each face is marked SPECIMEN. The page is a function of the spec's text: anyone holding
//! it learns the spec and nothing about any block (where its winners are, its faces, its
//! codes).

use super::render::{ticket_canvas, Marks, Stamp};
use crate::alloc::stats;
use crate::block::{judge, serial};
use crate::crypto::rng::Stream;
use crate::lots::WayId;
use crate::money::{grouped, Money};
use crate::output::Ticket;
use crate::proof::draw::{svg, Anchor, Canvas, Color, Font};
use crate::spec::{words, GameSpec};
use crate::styles::FeatureKind;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// Why a preview cannot be made: a face drawn for a way is not judged that way by the rules
/// (a fault of the play style, never of the spec once it loads).
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    /// The face drawn for the way is not that way by the rules, or cannot be drawn as a
    /// proof.
    #[error("way {way}: the specimen face drawn for it {reason}")]
    Judged {
        /// The way's id.
        way: String,
        /// What the rules found instead.
        reason: String,
    },
}

/// The first bytes of every page [`page`] writes: a later run recognises its own page by
/// them (and replaces it without `--force`).
pub const GENERATOR: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"generator\" content=\"tirage preview\">\n";

/// Specimen faces drawn per way to estimate the near-miss and decoy rates: this many, plus
/// [`RATE_FACES_SPREAD`] spread over the ways in proportion to their counts.
pub const RATE_FACES_PER_WAY: u32 = 100;
/// See [`RATE_FACES_PER_WAY`].
pub const RATE_FACES_SPREAD: u32 = 10_000;

/// The stream for `purpose` and way `index` of `spec` (see the module docs).
fn public_stream(spec: &GameSpec, purpose: &str, index: u64) -> Stream {
    let mut h = Sha256::new();
    h.update(b"tirage/v1/preview/");
    h.update(purpose.as_bytes());
    h.update([0u8]);
    h.update(spec.sha256.as_bytes());
    h.update(index.to_le_bytes());
    Stream::from_seed(h.finalize().into())
}

/// The specimen ticket of way `w` of `spec`: a face drawn from the way's public stream,
/// judged that way by the rules, with a block-000 serial. Errors: [`PreviewError`].
pub fn specimen(spec: &GameSpec, w: usize) -> Result<Ticket, PreviewError> {
    let way = &spec.ways[w];
    let mut rng = public_stream(spec, "face", w as u64);
    let face = spec.game.synthesize(way, &mut rng);
    let j = judge::judge(spec, &face);
    j.realises(spec, w as WayId)
        .map_err(|reason| PreviewError::Judged {
            way: way.id.clone(),
            reason,
        })?;
    let size = spec.pack_size.max(1);
    let (pack, position) = (1 + w as u32 / size, 1 + w as u32 % size);
    Ok(Ticket {
        block: 0,
        pack,
        pack_position: position,
        ticket: w as u32 + 1,
        serial: serial::serial(
            spec.game_code,
            spec.emission,
            0,
            pack,
            position,
            spec.pack_size,
        ),
        validation: 0,
        prize: j.prize,
        way: w as WayId,
        face,
    })
}

/// One near miss or decoy with its estimated rates.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureRate {
    /// Its name (`near_miss_jeu1`).
    pub id: String,
    /// Near miss or decoy.
    pub kind: FeatureKind,
    /// What the face shows, in words.
    pub about: String,
    /// Share of all tickets showing it (0..1), the ways weighted by their counts.
    pub of_all: f64,
    /// Share of losing tickets showing it (0..1).
    pub of_losers: f64,
}

/// The near misses and decoys of `spec`'s game with their rates, estimated from specimen
/// faces of every way ([`RATE_FACES_PER_WAY`] each plus a share of [`RATE_FACES_SPREAD`]
/// by count), and the number of faces drawn. Errors: [`PreviewError`].
pub fn feature_rates(spec: &GameSpec) -> Result<(Vec<FeatureRate>, u64), PreviewError> {
    let features: Vec<_> = spec
        .game
        .features()
        .into_iter()
        .filter(|(_, f)| f.kind.losing())
        .collect();
    let block = f64::from(spec.block_size);
    let mut of_all = vec![0.0; features.len()];
    let mut of_losers = vec![0.0; features.len()];
    let mut drawn = 0u64;
    for (w, way) in spec.ways.iter().enumerate() {
        if way.count == 0 || features.is_empty() {
            continue;
        }
        let share = f64::from(way.count) / block;
        let n = RATE_FACES_PER_WAY + (f64::from(RATE_FACES_SPREAD) * share).round() as u32;
        let mut rng = public_stream(spec, "rates", w as u64);
        let mut hits = vec![0u32; features.len()];
        for _ in 0..n {
            let face = spec.game.synthesize(way, &mut rng);
            let ev = spec.game.evaluate(&face);
            for (k, &(id, _)) in features.iter().enumerate() {
                if ev.losing_features.iter().any(|g| g.id == id) {
                    hits[k] += 1;
                }
            }
        }
        drawn += u64::from(n);
        for k in 0..features.len() {
            let rate = f64::from(hits[k]) / f64::from(n);
            of_all[k] += share * rate;
            if way.tier.is_none() {
                of_losers[k] = rate;
            }
        }
    }
    let rates = features
        .iter()
        .enumerate()
        .map(|(k, (_, f))| FeatureRate {
            id: f.name.clone(),
            kind: f.kind,
            about: f.about.clone(),
            of_all: of_all[k],
            of_losers: of_losers[k],
        })
        .collect();
    Ok((rates, drawn))
}

/// `text` escaped for HTML text and attribute values.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Odds "1 in N": two decimals below 100, else a whole number with thousands separators.
pub fn one_in(n: f64) -> String {
    if n < 100.0 {
        format!("1 in {n:.2}")
    } else {
        format!("1 in {}", grouped(n.round() as u64))
    }
}

/// `n` tickets in words: `1 ticket`, `1,500 tickets`.
fn tickets(n: u32) -> String {
    match n {
        1 => "1 ticket".into(),
        n => format!("{} tickets", grouped(u64::from(n))),
    }
}

/// A share (0..1) as a percentage with two decimals.
fn percent(x: f64) -> String {
    format!("{:.2} %", 100.0 * x)
}

const CSS: &str = "body{font-family:Helvetica,Arial,'Liberation Sans',sans-serif;margin:2em auto;max-width:62em;padding:0 1em;color:#111;background:#fff}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc;padding-bottom:.2em}
.specimen{color:#c80000;font-weight:bold}
.note{background:#fff6d5;border:1px solid #e0c060;padding:.5em .8em}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.2em .6em;border-bottom:1px solid #ddd;vertical-align:top}
th{text-align:left;background:#f2f2f2}td.n{text-align:right;white-space:nowrap}
tr.total td{font-weight:bold;border-top:2px solid #888}
svg{max-width:100%;height:auto}
.faces{display:flex;flex-wrap:wrap;gap:1em}
figure.face{margin:0;flex:1 1 30em;max-width:40em}figure.face figcaption{font-weight:bold;margin:.3em 0}
.rule{margin:.6em 0 1.2em}.rule p{margin:.2em 0}.rule ul{margin:.2em 0}
footer{margin-top:2em;color:#555;font-size:.9em}
";

/// The preview page of `spec` (see the module docs). `packs` is what `tirage check` says of
/// its `[packs]` constraints, one line each (empty without constraints: the page then gives
/// the winners per pack the shuffle alone gives). Same spec, same page, byte for byte.
/// Errors: [`PreviewError`].
pub fn page(spec: &GameSpec, packs: &[String]) -> Result<String, PreviewError> {
    let cur = spec.currency.as_str();
    let mut h = String::from(GENERATOR);
    let _ = write!(
        h,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>{} — preview</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        esc(&spec.name)
    );
    let _ = write!(
        h,
        "<h1>{}</h1>\n<p>Designer's preview of <code>{}</code> ({}), game code {:04}, emission {:03}: price {}, blocks of {} tickets in {} packs of {}.</p>\n<p>{}: {}</p>\n",
        esc(&spec.name),
        esc(&spec.id),
        esc(&spec
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())),
        spec.game_code,
        spec.emission,
        spec.price.with_currency(cur),
        grouped(u64::from(spec.block_size)),
        grouped(u64::from(spec.packs())),
        spec.pack_size,
        crate::proof::words::Words::of(spec.language).rules,
        esc(&spec.legal_reference)
    );
    if spec.reconstructed {
        h += "<p class=\"note\">The lot table is a RECONSTRUCTION, not the published table.</p>\n";
    }
    if let Some(note) = &spec.note {
        let _ = writeln!(h, "<p class=\"note\">The spec's note: {}</p>", esc(note));
    }
    let _ = writeln!(
        h,
        "<p class=\"note\"><span class=\"specimen\">SPECIMEN</span> Every face on this page is a specimen drawn from a fixed public stream derived from the spec alone, never from a seed: it shows how the game looks and says nothing about any block. Spec SHA-256 <code>{}</code>.</p>",
        spec.sha256
    );
    h += "<nav><a href=\"#lots\">Lot table</a> · <a href=\"#chart\">Prize structure</a> · <a href=\"#packs\">Pack guarantees</a> · <a href=\"#rates\">Near misses and decoys</a> · <a href=\"#rules\">The rules in words</a> · <a href=\"#faces\">Every way</a></nav>\n";
    lot_table(&mut h, spec);
    h += "<h2 id=\"chart\">Prize structure</h2>\n";
    h += &svg::to_svg(&chart(spec));
    pack_section(&mut h, spec, packs);
    rates_section(&mut h, spec)?;
    rules_section(&mut h, spec);
    faces_section(&mut h, spec)?;
    h += "<footer>Made by tirage preview from the spec alone. Open it from disk: it loads nothing else.</footer>\n</body>\n</html>\n";
    Ok(h)
}

/// The lot table: per tier its amount, count, odds, payout, share of the payout and ways.
fn lot_table(h: &mut String, spec: &GameSpec) {
    let cur = spec.currency.as_str();
    let n = f64::from(spec.block_size);
    let payout = spec.payout().cents().max(1) as f64;
    *h += "<h2 id=\"lots\">Lot table</h2>\n<table class=\"lots\">\n<tr><th>amount</th><th>tickets per block</th><th>odds</th><th>payout</th><th>share of payout</th><th>ways (tickets)</th></tr>\n";
    for t in &spec.tiers {
        let ways: Vec<String> = t
            .ways
            .iter()
            .map(|&w| {
                let w = &spec.ways[usize::from(w)];
                format!("{} ({})", esc(&w.id), grouped(u64::from(w.count)))
            })
            .collect();
        let pay = Money(t.amount.cents() * u64::from(t.count));
        let amount = match &t.item {
            Some(item) => format!(
                "{} (not money; stated value {})",
                esc(item),
                t.amount.with_currency(cur)
            ),
            None => t.amount.with_currency(cur),
        };
        let _ = writeln!(
            h,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}{}</td></tr>",
            amount,
            grouped(u64::from(t.count)),
            one_in(n / f64::from(t.count)),
            pay.with_currency(cur),
            percent(pay.cents() as f64 / payout),
            ways.join(", "),
            if t.combined_only { " — combined only" } else { "" }
        );
    }
    let lots = spec.lots();
    let sales = Money(spec.price.cents() * u64::from(spec.block_size));
    let _ = writeln!(
        h,
        "<tr class=\"total\"><td>all lots</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">100.00 %</td><td>published: {} lots, {}</td></tr>\n</table>",
        grouped(lots),
        one_in(n / lots.max(1) as f64),
        spec.payout().with_currency(cur),
        grouped(spec.published_lots),
        spec.published_payout.with_currency(cur)
    );
    if spec.has_items() {
        let share = |m: Money| percent(m.cents() as f64 / sales.cents().max(1) as f64);
        let _ = writeln!(
            h,
            "<p>Of the payout, <strong>cash {}</strong> ({} of sales) and <strong>prizes that are not money {}</strong> at their stated value ({} of sales).</p>",
            spec.cash_payout().with_currency(cur),
            share(spec.cash_payout()),
            spec.item_value().with_currency(cur),
            share(spec.item_value())
        );
    }
    let _ = writeln!(
        h,
        "<p>Losing tickets: {} per block ({}). Sales {} per block; <strong>payout ratio {}</strong>.</p>",
        grouped(u64::from(spec.ways[0].count)),
        percent(f64::from(spec.ways[0].count) / n),
        sales.with_currency(cur),
        percent(spec.payout().cents() as f64 / sales.cents().max(1) as f64)
    );
}

/// The prize structure as a chart: per tier (and the losers), the tickets of a block on a
/// logarithmic scale with their odds, and the share of the payout.
fn chart(spec: &GameSpec) -> Canvas {
    let cur = spec.currency.as_str();
    let n = f64::from(spec.block_size);
    let payout = spec.payout().cents().max(1) as f64;
    let (row, top) = (18.0, 40.0);
    let rows = spec.tiers.len() + 1;
    let (label_w, count_x, count_w, share_x, share_w) = (110.0, 120.0, 260.0, 470.0, 200.0);
    let width = share_x + share_w + 70.0;
    let mut c = Canvas::new(width, top + rows as f64 * row + 12.0);
    let head = |c: &mut Canvas, x: f64, t: &str| {
        c.text_styled(x, 20.0, 10.0, Font::Bold, Color::BLACK, Anchor::Start, t);
    };
    head(&mut c, count_x, "tickets per block (log scale) and odds");
    head(&mut c, share_x, "share of the payout");
    c.text_styled(
        label_w,
        20.0,
        10.0,
        Font::Bold,
        Color::BLACK,
        Anchor::End,
        "amount",
    );
    let max_share = spec
        .tiers
        .iter()
        .map(|t| (t.amount.cents() * u64::from(t.count)) as f64 / payout)
        .fold(0.0, f64::max)
        .max(1e-9);
    let log_n = n.log10().max(1e-9);
    let mut entries: Vec<(String, u32, f64, Color)> = spec
        .tiers
        .iter()
        .map(|t| {
            (
                t.amount.with_currency(cur),
                t.count,
                (t.amount.cents() * u64::from(t.count)) as f64 / payout,
                Color::WIN,
            )
        })
        .collect();
    entries.push(("losers".into(), spec.ways[0].count, 0.0, Color::GREY));
    for (k, (label, count, share, color)) in entries.iter().enumerate() {
        let y = top + k as f64 * row;
        c.text_styled(
            label_w,
            y + 12.0,
            9.0,
            Font::Regular,
            Color::BLACK,
            Anchor::End,
            label.clone(),
        );
        let len = (1.0 + f64::from(*count)).log10() / log_n * count_w;
        c.rect(
            count_x,
            y + 3.0,
            len.max(1.0),
            row - 6.0,
            0.0,
            Some(*color),
            None,
        );
        c.text_styled(
            count_x + len + 4.0,
            y + 12.0,
            8.0,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            format!(
                "{} · {}",
                grouped(u64::from(*count)),
                one_in(n / f64::from((*count).max(1)))
            ),
        );
        if *share > 0.0 {
            let len = share / max_share * share_w;
            c.rect(
                share_x,
                y + 3.0,
                len.max(1.0),
                row - 6.0,
                0.0,
                Some(Color::DECOY),
                None,
            );
            c.text_styled(
                share_x + len + 4.0,
                y + 12.0,
                8.0,
                Font::Regular,
                Color::GREY,
                Anchor::Start,
                percent(*share),
            );
        }
    }
    c
}

/// The pack guarantees: `packs` (check's words) or, without constraints, the winners per
/// full pack the shuffle alone gives.
fn pack_section(h: &mut String, spec: &GameSpec, packs: &[String]) {
    *h += "<h2 id=\"packs\">Pack guarantees and what they cost</h2>\n";
    if packs.is_empty() {
        let ps = u64::from(spec.pack_size);
        let (n, k) = (u64::from(spec.block_size), spec.lots());
        let pmf = stats::hypergeometric_pmf(n, k, ps);
        let mean = (ps * k) as f64 / n as f64;
        let sd = pmf
            .iter()
            .enumerate()
            .map(|(c, p)| p * (c as f64 - mean).powi(2))
            .sum::<f64>()
            .sqrt();
        let none = pmf.first().copied().unwrap_or(0.0);
        let _ = writeln!(
            h,
            "<p>The spec sets no pack guarantee (<code>[packs]</code>): winners fall where the shuffle puts them. A full pack of {ps} holds on average {mean:.2} winning tickets (sd {sd:.2}, hypergeometric); {} of full packs hold none. Guarantees (at least k winners or a minimum payout per pack, caps per pack and carton, no long run of losers) cost randomness: a buyer who watched a pack's first tickets lose can expect more of the next one.</p>",
            percent(none)
        );
    } else {
        *h += "<ul>\n";
        for l in packs {
            let _ = writeln!(h, "<li>{}</li>", esc(l.trim()));
        }
        *h += "</ul>\n";
    }
}

/// The near-miss and decoy rates (see [`feature_rates`]).
fn rates_section(h: &mut String, spec: &GameSpec) -> Result<(), PreviewError> {
    *h += "<h2 id=\"rates\">Near misses and decoys</h2>\n";
    let (rates, drawn) = feature_rates(spec)?;
    if rates.is_empty() {
        *h += "<p>This game shows no near miss and no named decoy.</p>\n";
        return Ok(());
    }
    let _ = writeln!(
        h,
        "<p>Estimated from {} specimen faces of every way (each weighted by its tickets); the spec's settings are under the rules in words below.</p>\n<table class=\"rates\">\n<tr><th>feature</th><th>kind</th><th>what the face shows</th><th>of all tickets</th><th>of losing tickets</th></tr>",
        grouped(drawn)
    );
    for r in &rates {
        let kind = match r.kind {
            FeatureKind::Decoy => "decoy",
            _ => "near miss",
        };
        let _ = writeln!(
            h,
            "<tr><td><code>{}</code></td><td>{kind}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&r.id),
            esc(&r.about),
            percent(r.of_all),
            percent(r.of_losers)
        );
    }
    *h += "</table>\n";
    Ok(())
}

/// The rules in words beside the règlement's reference ([`words::rules`]).
fn rules_section(h: &mut String, spec: &GameSpec) {
    let _ = writeln!(
        h,
        "<h2 id=\"rules\">The rules in words</h2>\n<p>To hold against the {}: <strong>{}</strong></p>",
        match spec.language {
            crate::language::Language::Fr => "règlement",
            crate::language::Language::En => "official rules",
        },
        esc(&spec.legal_reference)
    );
    for line in words::items(spec).iter().chain(&words::shared(spec)) {
        let _ = writeln!(h, "<p>{}</p>", esc(line));
    }
    for r in words::rules(spec) {
        let _ = write!(
            h,
            "<div class=\"rule\"><h3>Surface <code>{}</code>: {} — {}",
            esc(&r.id),
            esc(r.style),
            esc(r.term)
        );
        if let Some(m) = r.max {
            let _ = write!(h, ", printed maximum {}", m.with_currency(&spec.currency));
        }
        let _ = writeln!(
            h,
            "</h3>\n<p><strong>The style's rule:</strong> {}</p>\n<p><strong>A naive player reads:</strong> {}</p>\n<p><strong>As this spec sets it:</strong></p>\n<ul>",
            esc(r.rule),
            esc(r.naive)
        );
        for s in &r.settings {
            let _ = writeln!(h, "<li>{}</li>", esc(s.trim()));
        }
        *h += "</ul></div>\n";
    }
    let wide = words::ticket_wide(spec);
    if let Some((head, rest)) = wide.split_first() {
        let _ = writeln!(h, "<div class=\"rule\"><h3>{}</h3>\n<ul>", esc(head));
        for s in rest {
            let _ = writeln!(h, "<li>{}</li>", esc(s.trim()));
        }
        *h += "</ul></div>\n";
    }
}

/// Every way with its specimen face, drawn as a proof with its marks.
fn faces_section(h: &mut String, spec: &GameSpec) -> Result<(), PreviewError> {
    let cur = spec.currency.as_str();
    let n = f64::from(spec.block_size);
    let _ = writeln!(
        h,
        "<h2 id=\"faces\">Every way, with a specimen face</h2>\n<p>{} ways. Each face is drawn as a proof draws it (wins, near misses and decoys marked) from the way's public specimen stream, and judged by the rules to be that way.</p>\n<div class=\"faces\">",
        spec.ways.len()
    );
    for w in 0..spec.ways.len() {
        let way = &spec.ways[w];
        let t = specimen(spec, w)?;
        let canvas = ticket_canvas(spec, Stamp::Specimen, &t, Marks::Shown).map_err(|e| {
            PreviewError::Judged {
                way: way.id.clone(),
                reason: format!("cannot be drawn: {e}"),
            }
        })?;
        let _ = writeln!(
            h,
            "<figure class=\"face\" data-way=\"{}\"><figcaption>{} — {}, {} per block, {}</figcaption>",
            esc(&way.id),
            esc(&way.id),
            if way.tier.is_none() {
                "loses".to_string()
            } else {
                format!("wins {}", way.amount.with_currency(cur))
            },
            tickets(way.count),
            one_in(n / f64::from(way.count.max(1)))
        );
        *h += &svg::to_svg(&canvas);
        *h += "</figure>\n";
    }
    *h += "</div>\n";
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> GameSpec {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        GameSpec::load(&p).unwrap()
    }

    #[test]
    fn odds_read_as_one_in_n() {
        assert_eq!(one_in(3.284), "1 in 3.28");
        assert_eq!(one_in(1_125_000.0), "1 in 1,125,000");
        assert_eq!(one_in(333.33), "1 in 333");
    }

    #[test]
    fn every_way_has_a_specimen_face_of_that_way_with_a_block_000_serial() {
        let s = spec("tests/specs/coq_tiny.toml");
        for w in 0..s.ways.len() {
            let t = specimen(&s, w).unwrap();
            assert_eq!(usize::from(t.way), w);
            assert_eq!(&t.serial[7..10], b"000", "way {w}");
            assert_eq!(t.prize, s.ways[w].amount);
        }
    }

    #[test]
    fn the_page_is_a_function_of_the_spec_with_one_face_per_way() {
        let s = spec("tests/specs/coq_tiny.toml");
        let a = page(&s, &[]).unwrap();
        assert_eq!(a, page(&s, &[]).unwrap());
        // Read from elsewhere, the same text gives the same page: no path of the reader's.
        let elsewhere = GameSpec::parse(
            std::path::Path::new("/elsewhere/coq_tiny.toml"),
            s.text.clone(),
        )
        .unwrap();
        assert_eq!(a, page(&elsewhere, &[]).unwrap());
        assert!(a.starts_with(GENERATOR));
        assert_eq!(a.matches("<figure class=\"face\"").count(), s.ways.len());
        for w in &s.ways {
            assert!(
                a.contains(&format!("data-way=\"{}\"", esc(&w.id))),
                "{}",
                w.id
            );
        }
        // Nothing to fetch: no URL but the SVG namespace, no script.
        let without_ns = a.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        for outside in ["http:", "https:", "file:", "//", "url("] {
            assert!(!without_ns.contains(outside), "{outside} in the page");
        }
        assert!(!a.contains("<script"), "a script in the page");
        assert!(!a.contains("src="), "an external resource");
    }

    #[test]
    fn rates_follow_the_spec_s_near_miss_settings() {
        // coq_tiny: each game's losing box shows a near miss on 30 % of its losing tickets.
        let s = spec("tests/specs/coq_tiny.toml");
        let (rates, drawn) = feature_rates(&s).unwrap();
        assert!(drawn > u64::from(RATE_FACES_SPREAD));
        let ids: Vec<&str> = rates.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["near_miss_jeu1", "near_miss_jeu2"]);
        for r in &rates {
            assert!(
                (r.of_losers - 0.30).abs() < 0.03,
                "{}: {}",
                r.id,
                r.of_losers
            );
            assert!(r.of_all < r.of_losers + 0.1, "{}", r.id);
        }
    }
}
