//! The words proofs write themselves, in the ticket's language (`[game] language`): the
//! header line, the verdict, the marks and their key, the notes, the SPECIMEN mark, the
//! proof sheet's cover, tables and page numbers. What
//! the ticket prints (labels, captions, symbols) comes from the spec as it is.

use crate::language::Language;

/// The words of one language.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The specimen mark (`SPECIMEN`, `SPÉCIMEN`).
    pub specimen: &'static str,
    /// The mark of a test block, made with a test seed and never sold (`TEST BLOCK`).
    pub test: &'static str,
    /// A colon as the language sets it (`: `, ` : `).
    pub colon: &'static str,
    /// Header line: block, pack, position, ticket and serial, in this order.
    pub place: [&'static str; 5],
    /// "Proof: prize", before the amount; "way", before the way's id.
    pub verdict: (&'static str, &'static str),
    /// Before the amount a prize that is not money is stated at (`stated value`), after
    /// the item's name.
    pub stated: &'static str,
    /// After the prize of a losing ticket, in place of the way and its id (`lose`, an id
    /// of the files).
    pub losing: &'static str,
    /// The tags of a win, a near miss and a decoy on a cell.
    pub tags: [&'static str; 3],
    /// The key's words after each tag.
    pub key: [&'static str; 3],
    /// After a winning play area's name, before the amount.
    pub wins: &'static str,
    /// Before what a play area wins with: a combination's name, a special symbol's play
    /// area.
    pub with: &'static str,
    /// A near miss, in a note.
    pub near_miss: &'static str,
    /// A decoy, in a note.
    pub decoy: &'static str,
    /// After a losing play area's name (quoted, as every play area a note names: a name
    /// may be plural, « Your numbers »).
    pub area_loses: &'static str,
    /// A losing ticket.
    pub ticket_loses: &'static str,
    /// The marks around a play area's name in a note (`“`, `”`; `« `, ` »`).
    pub quotes: (&'static str, &'static str),
    /// Before the règlement's reference in a designer's preview (`Official rules`).
    pub rules: &'static str,
    /// Under a panel's name: printed under the scratch layer, printed in the open, or in
    /// the open but for its hatched cells.
    pub scope: [&'static str; 3],
    /// Under the cell of a crossword's grid number (`GRID No.`).
    pub grid_number: &'static str,
    /// A printed square that is no face column (bingo's free centre).
    pub free: &'static str,
    /// The proof sheet's words.
    pub sheet: SheetWords,
}

/// The words of a proof sheet: its cover, tables and page numbers.
#[derive(Clone, Copy, Debug)]
pub struct SheetWords {
    /// Its title (`Proof sheet`).
    pub title: &'static str,
    /// Before the game code, the emission, the block (running head and cover).
    pub code: [&'static str; 3],
    /// "tickets in packs of", between the count of tickets and the pack size.
    pub in_packs: (&'static str, &'static str),
    /// A QA deck of a known composition (before and after it), one of none, a production
    /// block, a test block.
    pub kind: [&'static str; 5],
    /// How a QA deck's counts were chosen, between the first two of [`SheetWords::kind`]:
    /// every way and feature (`deck`'s default), the lot table's mix (`--proportional`).
    pub composition: [&'static str; 2],
    /// The lot table is not the published one.
    pub reconstructed: &'static str,
    /// Before the spec's note.
    pub note: &'static str,
    /// "This sheet: N ticket(s), in the order asked", before and after N; the last when
    /// they come in print order (ascending ticket numbers, as `--way` or `--pack` select
    /// them).
    pub this_sheet: (&'static str, &'static str, &'static str),
    /// Marks shown, marks hidden.
    pub marks: [&'static str; 2],
    /// Before the spec's SHA-256.
    pub spec_sha: &'static str,
    /// The ways' heading and its columns: way, prize, count in the block, tickets here.
    pub ways: [&'static str; 5],
    /// The features' heading and its columns: feature, what the face shows, promised on
    /// ticket, tickets here showing it.
    pub features: [&'static str; 5],
    /// "page i of n": before i, before n.
    pub page: (&'static str, &'static str),
    /// After a ticket's number and serial at the top of each further page its proof takes.
    pub continued: &'static str,
    /// The scale of the proofs: before and after the percentage (or range of them), and
    /// the sentence for proofs drawn at full size.
    pub scale: (&'static str, &'static str, &'static str),
}

/// English.
const EN: Words = Words {
    specimen: "SPECIMEN",
    test: "TEST BLOCK",
    colon: ": ",
    place: ["Block", "pack", "position", "ticket", "serial"],
    verdict: ("Proof: prize", "way"),
    stated: "stated value",
    losing: "losing ticket",
    tags: ["WIN", "NEAR MISS", "DECOY"],
    key: [
        "wins",
        "near miss (a loser, one step short of a win)",
        "decoy (shown, wins nothing)",
    ],
    wins: "wins",
    with: "with",
    near_miss: "near miss",
    decoy: "decoy",
    area_loses: "loses: nothing it shows wins.",
    ticket_loses: "No play area wins: the ticket loses.",
    quotes: ("“", "”"),
    rules: "Official rules",
    scope: [
        "under the scratch layer",
        "printed in the open",
        "printed in the open; hatched cells under the scratch layer",
    ],
    grid_number: "GRID No.",
    free: "FREE",
    sheet: SheetWords {
        title: "Proof sheet",
        code: ["game code", "emission", "block"],
        in_packs: ("tickets in packs of", ""),
        kind: [
            "A QA deck (",
            "): specimen serials of block 0 and specimen validation codes, never payable",
            "A QA deck: specimen serials and codes, never payable",
            "A production block: these proofs show tickets that will be printed and sold",
            "A TEST BLOCK, made with a test seed: these proofs show tickets never to be printed for sale",
        ],
        composition: ["every way and every feature", "the lot table's mix"],
        reconstructed: "The lot table is a reconstruction, not the published one.",
        note: "Note: ",
        this_sheet: (
            "This sheet:",
            "ticket(s), in the order asked",
            "ticket(s), in print order",
        ),
        marks: [
            "wins, near misses and decoys marked",
            "plain: what the tickets print, no marks",
        ],
        spec_sha: "block spec SHA-256",
        ways: [
            "Ways",
            "way",
            "prize",
            "in the block",
            "tickets on this sheet",
        ],
        features: [
            "Features",
            "feature",
            "what the face shows",
            "promised on ticket",
            "tickets on this sheet showing it",
        ],
        page: ("page", "of"),
        continued: "continued",
        scale: (
            "Tickets drawn at",
            "of their size: text and barcode are that much smaller here than on the printed ticket",
            "Tickets drawn at their size",
        ),
    },
};

/// French.
const FR: Words = Words {
    specimen: "SPÉCIMEN",
    test: "BLOC DE TEST",
    colon: " : ",
    place: ["Bloc", "carnet", "position", "billet", "série"],
    verdict: ("Épreuve : gain", "combinaison"),
    stated: "valeur déclarée",
    losing: "billet perdant",
    tags: ["GAGNANT", "PRESQUE", "LEURRE"],
    key: [
        "gagne",
        "presque (perdant, tout près d'un gain)",
        "leurre (montré, ne gagne rien)",
    ],
    wins: "gagne",
    with: "avec",
    near_miss: "presque gagnant",
    decoy: "leurre",
    area_loses: "perd : rien de ce qu'il montre ne gagne.",
    ticket_loses: "Aucun jeu ne gagne : le billet est perdant.",
    quotes: ("« ", " »"),
    rules: "Règlement",
    scope: [
        "sous la couche à gratter",
        "imprimé à découvert",
        "imprimé à découvert ; cases hachurées sous la couche à gratter",
    ],
    grid_number: "GRILLE N°",
    free: "LIBRE",
    sheet: SheetWords {
        title: "Planche d'épreuves",
        code: ["code jeu", "émission", "bloc"],
        in_packs: ("billets en carnets de", ""),
        kind: [
            "Un jeu d'essai QA (",
            ") : séries spécimen du bloc 0 et codes de validation spécimen, jamais payables",
            "Un jeu d'essai QA : séries et codes spécimen, jamais payables",
            "Un bloc de production : ces épreuves montrent des billets qui seront imprimés et vendus",
            "Un BLOC DE TEST, fait d'une graine de test : ces épreuves montrent des billets qui ne seront jamais imprimés pour la vente",
        ],
        composition: [
            "chaque combinaison et chaque particularité",
            "la répartition du tableau des lots",
        ],
        reconstructed: "Le tableau des lots est une reconstitution, non le tableau publié.",
        note: "Note : ",
        this_sheet: (
            "Cette planche :",
            "billet(s), dans l'ordre demandé",
            "billet(s), dans l'ordre d'impression",
        ),
        marks: [
            "gains, presque gagnants et leurres marqués",
            "sans marques : ce que les billets impriment",
        ],
        spec_sha: "SHA-256 de la spec du bloc",
        ways: [
            "Combinaisons",
            "combinaison",
            "gain",
            "dans le bloc",
            "billets de cette planche",
        ],
        features: [
            "Particularités",
            "particularité",
            "ce que montre la face",
            "promise au billet",
            "billets de cette planche qui la montrent",
        ],
        page: ("page", "sur"),
        continued: "suite",
        scale: (
            "Billets reproduits à",
            "de leur taille : textes et code-barres y sont réduits d'autant par rapport au billet imprimé",
            "Billets reproduits à leur taille",
        ),
    },
};

impl Words {
    /// The words of `language`.
    pub fn of(language: Language) -> &'static Words {
        match language {
            Language::En => &EN,
            Language::Fr => &FR,
        }
    }

    /// `name` between this language's quotation marks: `“Your numbers”`, `« Jeu 1 »`.
    pub fn quoted(&self, name: &str) -> String {
        format!("{}{name}{}", self.quotes.0, self.quotes.1)
    }
}
