//! Which characters a printed text shows as written. A name, caption or label that a
//! ticket, a proof, a report or a terminal shows must read the same to everyone who looks
//! at it: a control character can drive a terminal, a text-direction character reorders
//! what follows it, and an invisible character makes two different texts look alike (a
//! caption "DEUX EUROS" with a zero-width space inside is another caption than "DEUX
//! EUROS", printed the same). [`hidden`] names all three kinds; [`prototype`] reads a
//! letter of another script as the Latin letter it looks like.

/// True when `c` does not show as itself where text is printed: a control character (C0,
/// DEL, C1: Unicode category Cc); a line or paragraph separator (Zl, Zp: a line break); a
/// format character (Cf: zero-width spaces and joiners,
/// the byte order mark, text-direction marks, embeddings, overrides and isolates,
/// interlinear annotations, number signs that span other characters); an enclosing mark
/// (Me: a keycap or a circle drawn around the character before it); a character for
/// private use or not assigned (Co, Cn, whose glyph depends on the font); or another
/// default-ignorable code point, which renders as nothing (Unicode's
/// `Default_Ignorable_Code_Point`, DerivedCoreProperties.txt, 15.1: the soft hyphen,
/// variation selectors, Hangul fillers, tags); or the braille blank, the object
/// replacement or the replacement character (U+2800, U+FFFC, U+FFFD). Categories by the
/// `unicode-properties` crate.
pub fn hidden(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    c.is_control()
        || matches!(
            c.general_category(),
            G::Format
                | G::EnclosingMark
                | G::PrivateUse
                | G::Unassigned
                | G::Surrogate
                | G::LineSeparator
                | G::ParagraphSeparator
        )
        // The braille blank prints nothing; the object replacement and replacement
        // characters stand for what could not be shown.
        || matches!(c, '\u{2800}' | '\u{FFFC}' | '\u{FFFD}')
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// `text` cut to its first `max` characters, each that does not show as written
/// ([`hidden`]: a control, a line end, a zero-width or direction mark) escaped as Rust
/// writes it (`\u{1b}`, `\n`): text read from a file, quoted in a message, so it never
/// drives the terminal nor hides what it stands beside.
pub fn escaped(text: &str, max: usize) -> String {
    let cut = text
        .char_indices()
        .nth(max)
        .map_or(text, |(i, _)| &text[..i]);
    shown(cut, &[]).into_owned()
}

/// `text` with every character that does not show as written ([`hidden`]) but those of
/// `keep` (the line feed of a text of several lines) escaped as Rust writes it
/// (`\u{1b}`, `\u{202e}`): the whole text, borrowed when nothing needs an escape. For what
/// is printed for a person to read: a message, a report.
pub fn shown<'a>(text: &'a str, keep: &[char]) -> std::borrow::Cow<'a, str> {
    let stray = |c: char| hidden(c) && !keep.contains(&c);
    if !text.contains(stray) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if stray(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The first character of `text` that does not show as written, if any: one [`hidden`]
/// names, or a stray combining mark, one that stays apart from the ASCII letter, digit or
/// sign before it once the text is composed (NFC): a stroke through a letter (U+0336), a
/// dot under a digit. An accent that composes with its letter (`E` and U+0301, which is
/// `É`) is a letter, and marks over the letters of other scripts are theirs.
pub fn first_hidden(text: &str) -> Option<char> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    if let Some(c) = text.chars().find(|&c| hidden(c)) {
        return Some(c);
    }
    let mut before = ' ';
    for c in text.nfc() {
        if before.is_ascii() && matches!(c.general_category(), G::NonspacingMark | G::SpacingMark) {
            return Some(c);
        }
        if !matches!(c.general_category(), G::NonspacingMark | G::SpacingMark) {
            before = c;
        }
    }
    None
}

/// `text` as a reader tells it from another, whatever the script or the accents: its
/// compatibility forms folded (NFKC, by the `unicode-normalization` crate: a circled `Ⓒ`,
/// a full-width `Ｃ`, a superscript `²`, a Roman numeral `Ⅱ` are `C`, `C`, `2`, `II`), a
/// Latin small capital read as its capital (`ᴇ` as `E`), every other character outside
/// ASCII replaced by its prototype in Unicode's confusables (UTS #39's skeleton, by the
/// `unicode-security` crate: a Cyrillic `Е` or a Greek `Ο` reads as the Latin `E` or `O`
/// it looks like), and accents left out (`É`, `È`, `İ` read as `E`, `E`, `I`: `TRÈFLE`
/// and `TREFLE` are one word to a reader). ASCII characters stay as they are, so that each
/// comparison keeps its own reading of them (`0` and `O`); a look-alike of a capital I
/// reads as `I`. Two texts whose prototypes are equal look alike to a reader.
pub fn prototype(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::with_capacity(text.len());
    let mut one = [0u8; 4];
    for c in text.nfkc() {
        if c.is_ascii() {
            out.push(c);
        } else if let Some(capital) = small_capital(c) {
            out.push(capital);
        } else {
            let shown = c.encode_utf8(&mut one);
            let skeleton = unicode_security::confusable_detection::skeleton(shown);
            // The prototype of every capital I look-alike (Greek Ι, Cyrillic І) is a small
            // l; texts are compared in capitals, where it reads as I.
            let p: String = skeleton.collect();
            let bare: String = p
                .nfd()
                .filter(|&c| !unicode_normalization::char::is_combining_mark(c))
                .collect();
            out.push_str(if bare == "l" { "I" } else { &p });
        }
    }
    // Accents apart, then left out: `É` reads as `E`, `İ` as `I`.
    out.nfd()
        .filter(|&c| !unicode_normalization::char::is_combining_mark(c))
        .collect()
}

/// The capital letter a Latin small capital (`ᴇ`, U+1D07) prints like, if `c` is one.
fn small_capital(c: char) -> Option<char> {
    const SMALL: [(char, char); 25] = [
        ('\u{1D00}', 'A'),
        ('\u{0299}', 'B'),
        ('\u{1D04}', 'C'),
        ('\u{1D05}', 'D'),
        ('\u{1D07}', 'E'),
        ('\u{A730}', 'F'),
        ('\u{0262}', 'G'),
        ('\u{029C}', 'H'),
        ('\u{026A}', 'I'),
        ('\u{1D0A}', 'J'),
        ('\u{1D0B}', 'K'),
        ('\u{029F}', 'L'),
        ('\u{1D0D}', 'M'),
        ('\u{0274}', 'N'),
        ('\u{1D0F}', 'O'),
        ('\u{1D18}', 'P'),
        ('\u{01EB}', 'Q'),
        ('\u{0280}', 'R'),
        ('\u{A731}', 'S'),
        ('\u{1D1B}', 'T'),
        ('\u{1D1C}', 'U'),
        ('\u{1D20}', 'V'),
        ('\u{1D21}', 'W'),
        ('\u{028F}', 'Y'),
        ('\u{1D22}', 'Z'),
    ];
    SMALL
        .iter()
        .find(|&&(s, _)| s == c)
        .map(|&(_, capital)| capital)
}

/// Where `text` holds a letter of another script that reads as a Latin one: `" (its
/// U+0415 reads as E)"`, naming the first such character, for an error that quotes a text
/// which looks like another; empty when it holds none.
pub fn look_alike_note(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    // An accented Latin letter is itself, not a look-alike (`É`).
    let latin = |c: char| c.nfd().next().is_some_and(|b| b.is_ascii());
    text.chars()
        .filter(|&c| !c.is_ascii() && !latin(c))
        .find_map(|c| {
            let p = prototype(c.encode_utf8(&mut [0u8; 4]));
            let reads = p.chars().count() == 1 && p.is_ascii();
            reads.then(|| format!(" (its U+{:04X} reads as {p})", u32::from(c)))
        })
        .unwrap_or_default()
}

/// Why `text`, a multiplier's symbol or caption (`5X`, `GAGNE 5 FOIS`), does not show its
/// factor `times` alone, if it does not: a number in figures (read through compatibility
/// forms and look-alikes, [`prototype`]: `⑤` is 5) other than `times` (`5X` on a
/// multiplier by 2), or a numeral that is no figure (a Roman `Ⅴ`). A text without figures
/// (`DOUBLE`) shows no other factor.
pub fn other_factor(text: &str, times: u64) -> Option<String> {
    let other = text.chars().find(|&c| {
        c.is_numeric()
            && !prototype(c.encode_utf8(&mut [0u8; 4]))
                .bytes()
                .all(|b| b.is_ascii_digit())
    });
    if let Some(c) = other {
        return Some(format!("shows the numeral {c}"));
    }
    prototype(text)
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .find(|run| run.parse::<u64>().ok() != Some(times))
        .map(|run| format!("shows {run}"))
}

/// The first currency sign of `text` (Unicode category Sc: `$`, `€`, `£`) or picture of
/// money (U+1F4B0 to U+1F4B8: a money bag, banknotes; U+1F911, a face with dollar signs),
/// if any.
pub fn first_currency_sign(text: &str) -> Option<char> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    text.chars().find(|&c| {
        c.general_category() == G::CurrencySymbol
            || matches!(c, '\u{1F4B0}'..='\u{1F4B8}' | '\u{1F911}')
    })
}

/// `text` as a player reads it, for telling two printed tokens apart: compatibility forms
/// folded (a full-width letter is the letter, a no-break space a space), case ignored,
/// spaces, `_`, hyphens, dashes and dots ignored, the letters that print like digits read
/// as those digits (`O` as `0`, `I` as `1`, either case: `C0UPE` reads as `COUPE`, `O5` as
/// `05`), and every number by its value (`03` reads as `3`, `STAR 07` as `STAR7`, `O5` as
/// `5`). A run of zeros followed by no other digit is a number only when it is the whole
/// token (`00` reads as `0`); inside a word each zero counts (`DOOR` and `DOR` read apart).
/// A lowercase `l` is not read as `1`: it would part `gold` from `GOLD`, and symbols are
/// written in capitals. A letter of another script reads first as the Latin letter it
/// looks like ([`prototype`]: a Cyrillic `С` as `C`).
pub fn reading(text: &str) -> String {
    let text = prototype(text);
    let folded = text.chars().filter_map(|c| {
        // The full-width forms of ASCII (U+FF01..=U+FF5E) are ASCII, 0xFEE0 above it.
        let c = match u32::from(c) {
            0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        let ignored = c.is_whitespace()
            || matches!(
                c,
                '_' | '-' | '.' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{00B7}'
            );
        (!ignored).then_some(c)
    });
    // Each character, and whether it is a letter read as a digit.
    let chars: Vec<(char, bool)> = folded
        .flat_map(char::to_uppercase)
        .map(|c| match c {
            'O' => ('0', true),
            'I' => ('1', true),
            c => (c, false),
        })
        .collect();
    let mut out = String::new();
    // Zeros read so far that may lead a number (dropped if a digit 1-9 follows; an I
    // after an O is a word's, as in COIN, and keeps them).
    let mut zeros = 0;
    for &(c, letter) in &chars {
        match c {
            '0' if zeros > 0 || !out.ends_with(|d: char| d.is_ascii_digit()) => zeros += 1,
            '1'..='9' if !letter => {
                zeros = 0;
                out.push(c);
            }
            c => {
                out.extend(std::iter::repeat_n('0', zeros));
                zeros = 0;
                out.push(c);
            }
        }
    }
    if zeros == chars.len() && zeros > 0 {
        // A token of zeros alone is the number 0.
        out.push('0');
    } else {
        out.extend(std::iter::repeat_n('0', zeros));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `shown` escapes what does not show as written but what it keeps, and borrows a text
    /// that needs no escape.
    #[test]
    fn shown_escapes_all_but_what_it_keeps() {
        assert_eq!(
            shown("a\u{1b}[2J\tb\nc\u{202e}", &['\n']),
            "a\\u{1b}[2J\\tb\nc\\u{202e}"
        );
        assert_eq!(shown("a\tb\n", &['\n', '\t']), "a\tb\n");
        assert!(matches!(
            shown("Jeu 1 € «x»", &[]),
            std::borrow::Cow::Borrowed("Jeu 1 € «x»")
        ));
    }

    #[test]
    fn escaped_shows_what_drives_a_terminal_and_cuts() {
        assert_eq!(escaped("evil\u{1b}[31m\nok", 80), "evil\\u{1b}[31m\\nok");
        assert_eq!(escaped("a\u{200b}b\u{202e}c", 80), "a\\u{200b}b\\u{202e}c");
        assert_eq!(escaped("coq", 2), "co");
        assert_eq!(escaped("Déjà vu", 80), "Déjà vu");
    }

    #[test]
    fn controls_invisibles_and_direction_characters_are_hidden() {
        for c in [
            '\u{0}',
            '\t',
            '\n',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9f}', // controls
            '\u{ad}',
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}', // invisible
            '\u{61c}',
            '\u{200e}',
            '\u{200f}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}', // direction
            '\u{fe0f}',
            '\u{3164}',
            '\u{e0041}',
            '\u{e01ef}',
            '\u{fff9}',
            '\u{fffb}',
            '\u{13430}',
            '\u{600}',
            '\u{110bd}', // format
            '\u{489}',
            '\u{20e3}',
            '\u{e000}',
            '\u{10ffff}',
            '\u{378}', // Me, Co, Cn
            '\u{2028}',
            '\u{2029}',
            '\u{2800}',
            '\u{fffc}',
            '\u{fffd}',
        ] {
            assert!(hidden(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn letters_spaces_and_signs_show() {
        for c in [
            'A', 'é', 'Ö', ' ', '\u{a0}', '€', '«', '»', '\u{2010}', '\u{2070}', '\u{fe10}',
            '\u{2fff}', '\u{ffa1}', 'あ',
        ] {
            assert!(!hidden(c), "U+{:04X}", u32::from(c));
        }
        assert_eq!(first_hidden("DEUX EUROS"), None);
        assert_eq!(first_hidden("DEUX\u{200b} EU\u{7}ROS"), Some('\u{200b}'));
        // Marks: composed with their letter, or over another script's letters, they show.
        assert_eq!(first_hidden("DE\u{301}COR Z\u{c9}RO \u{e01}\u{e34}"), None);
        assert_eq!(first_hidden("DEUX EURO\u{336}S"), Some('\u{336}'));
        assert_eq!(first_hidden("2\u{323} EUROS"), Some('\u{323}'));
        assert_eq!(first_hidden("Q\u{336}UATRE"), Some('\u{336}'));
    }

    #[test]
    fn letters_of_other_scripts_read_as_the_latin_ones_they_look_like() {
        // Cyrillic Е and О, Greek Ο, full-width Ｅ: one reading with the Latin letters.
        assert_eq!(prototype("D\u{415}UX EUR\u{41e}S"), "DEUX EUROS");
        assert_eq!(prototype("EUR\u{39f}S"), "EUROS");
        assert_eq!(prototype("\u{ff25}URO"), "EURO");
        assert_eq!(prototype("C\u{41e}\u{406}N \u{399}"), "COIN I");
        // Compatibility forms: circled, superscript, Roman numeral, mathematical bold.
        assert_eq!(
            prototype("\u{24b8}OFFRE X\u{b2} \u{2161} \u{1d403}"),
            "COFFRE X2 II D"
        );
        // ASCII stays as written; accents stay apart from their letters.
        assert_eq!(prototype("D1X 0R lI"), "D1X 0R lI");
        // Accents left out, composed or not; small capitals read as capitals.
        assert_eq!(
            prototype("D\u{c9}COR TR\u{c8}FLE M\u{130}LLE"),
            "DECOR TREFLE MILLE"
        );
        assert_eq!(prototype("DE\u{301}COR"), "DECOR");
        assert_eq!(prototype("NO\u{401}L"), "NOEL");
        assert_eq!(prototype("\u{1d0d}\u{26a}\u{29f}\u{29f}\u{1d07}"), "MILLE");
        assert_eq!(
            look_alike_note("D\u{c9}CO D\u{415}UX"),
            " (its U+0415 reads as E)"
        );
        assert_eq!(look_alike_note("D\u{c9}COR \u{20ac}"), "");
        assert_eq!(other_factor("5X", 5), None);
        assert_eq!(other_factor("GAGNE 5 FOIS", 5), None);
        assert_eq!(other_factor("DOUBLE", 2), None);
        assert_eq!(other_factor("5X", 2), Some("shows 5".to_string()));
        assert_eq!(other_factor("X10", 5), Some("shows 10".to_string()));
        assert_eq!(other_factor("\u{ff15}X", 2), Some("shows 5".to_string()));
        assert_eq!(other_factor("\u{2464}X", 2), Some("shows 5".to_string()));
        assert_eq!(
            other_factor("\u{2164}X", 5),
            Some("shows the numeral \u{2164}".to_string())
        );
        assert_eq!(first_currency_sign("FREE TICKET"), None);
        assert_eq!(first_currency_sign("100 \u{20ac} OR $"), Some('\u{20ac}'));
        assert_eq!(first_currency_sign("\u{a3}5"), Some('\u{a3}'));
        assert_eq!(first_currency_sign("BON \u{1f4b0}"), Some('\u{1f4b0}'));
    }
}
