//! Cards: their codes (`rank * 4 + suit`), the two-character codes files print, and
//! parsing them back.

/// Rank characters in ascending order (2 … 10, J, Q, K, A), as written in files.
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// Suit characters (clubs, diamonds, hearts, spades).
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
/// A card code, `rank * 4 + suit` (see the module doc).
pub type Card = u8;

/// The card of `rank` (`0..13`, 2 to ace) and `suit` (`0..4`, `cdhs`).
pub const fn card(rank: u8, suit: u8) -> Card {
    rank * 4 + suit
}

/// Rank of `c`: `0..13` for 2 … ace.
pub const fn rank(c: Card) -> u8 {
    c / 4
}

/// Suit of `c`: `0..4` for `cdhs`.
pub const fn suit(c: Card) -> u8 {
    c % 4
}

/// The standard two-character code of `c` (`Ah`, `Td`). Panics if `c >= 52`.
pub fn card_code(c: Card) -> String {
    format!(
        "{}{}",
        RANK_CHARS[rank(c) as usize],
        SUIT_CHARS[suit(c) as usize]
    )
}

/// Parses a standard two-character code (`Ah`, `Td`; rank upper case, suit lower case).
pub fn parse_card(s: &str) -> Option<Card> {
    let mut it = s.chars();
    let (r, su) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let r = RANK_CHARS.iter().position(|&x| x == r)? as u8;
    let su = SUIT_CHARS.iter().position(|&x| x == su)? as u8;
    Some(card(r, su))
}
