//! The words proofs write themselves, in the ticket's language (`[game] language`): the
//! header line, the verdict, the marks and their key, the notes, the SPECIMEN mark. What
//! the ticket prints (labels, captions, symbols) comes from the spec as it is.

use crate::language::Language;

/// The words of one language.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The specimen mark (`SPECIMEN`, `SPÉCIMEN`).
    pub specimen: &'static str,
    /// A colon as the language sets it (`: `, ` : `).
    pub colon: &'static str,
    /// Header line: block, pack, position, ticket and serial, in this order.
    pub place: [&'static str; 5],
    /// "Proof: prize", before the amount; "way", before the way's id.
    pub verdict: (&'static str, &'static str),
    /// The tags of a win, a near miss and a decoy on a cell.
    pub tags: [&'static str; 3],
    /// The key's words after each tag.
    pub key: [&'static str; 3],
    /// After a winning play area's name, before the amount.
    pub wins: &'static str,
    /// Before a combination's name.
    pub with: &'static str,
    /// A near miss, in a note.
    pub near_miss: &'static str,
    /// A decoy, in a note.
    pub decoy: &'static str,
    /// After a losing play area's name.
    pub area_loses: &'static str,
    /// A losing ticket.
    pub ticket_loses: &'static str,
}

/// English.
const EN: Words = Words {
    specimen: "SPECIMEN",
    colon: ": ",
    place: ["Block", "pack", "position", "ticket", "serial"],
    verdict: ("Proof: prize", "way"),
    tags: ["WIN", "NEAR MISS", "DECOY"],
    key: [
        "wins",
        "near miss (one symbol short of a win)",
        "decoy (shown, wins nothing)",
    ],
    wins: "wins",
    with: "with a",
    near_miss: "near miss",
    decoy: "decoy",
    area_loses: "loses: nothing it shows wins.",
    ticket_loses: "No play area wins: the ticket loses.",
};

/// French.
const FR: Words = Words {
    specimen: "SPÉCIMEN",
    colon: " : ",
    place: ["Bloc", "carnet", "position", "billet", "série"],
    verdict: ("Épreuve : gain", "combinaison"),
    tags: ["GAGNANT", "PRESQUE", "LEURRE"],
    key: [
        "gagne",
        "presque (à un symbole d'un gain)",
        "leurre (montré, ne gagne rien)",
    ],
    wins: "gagne",
    with: "avec",
    near_miss: "presque gagnant",
    decoy: "leurre",
    area_loses: "perd : rien de ce qu'il montre ne gagne.",
    ticket_loses: "Aucun jeu ne gagne : le billet est perdant.",
};

impl Words {
    /// The words of `language`.
    pub fn of(language: Language) -> &'static Words {
        match language {
            Language::En => &EN,
            Language::Fr => &FR,
        }
    }
}
