//! Which characters a printed text shows as written. A name, caption or label that a
//! ticket, a proof, a report or a terminal shows must read the same to everyone who looks
//! at it: a control character can drive a terminal, a text-direction character reorders
//! what follows it, and an invisible character makes two different texts look alike (a
//! caption "DEUX EUROS" with a zero-width space inside is another caption than "DEUX
//! EUROS", printed the same). [`hidden`] names all three kinds.

/// True when `c` does not show as itself where text is printed: a control character (C0,
/// DEL, C1: Unicode category Cc), or a default-ignorable code point, which renders as
/// nothing (Unicode's `Default_Ignorable_Code_Point`, DerivedCoreProperties.txt, 15.1:
/// the soft hyphen, zero-width spaces and joiners, the word joiner, the byte order mark,
/// the text-direction marks, embeddings, overrides and isolates, variation selectors,
/// Hangul fillers and tags).
pub fn hidden(c: char) -> bool {
    c.is_control()
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

/// The first character of `text` that [`hidden`] names, if any.
pub fn first_hidden(text: &str) -> Option<char> {
    text.chars().find(|&c| hidden(c))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
