//! Odds as a lot table prints them (`1 in 4.26`), checked against the counts.
//!
//! A lottery prints, beside each row of its lot table, the odds of that row: the block's
//! tickets divided by the row's lots, written `1 in N` with a fixed number of decimals and
//! rounded as the operator rounds (`[published] odds_rounding`). A spec may copy them
//! (`[[tiers]] odds`, `[published] odds` for all lots together); the loader then refuses a
//! printed figure that the counts do not give, as it refuses a printed total that is not
//! count × amount.

use serde::Deserialize;

/// How the operator rounds printed odds to their last decimal (`[published]
/// odds_rounding`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// To the nearest, a half up (`4.255` → `4.26`): the default.
    #[default]
    Nearest,
    /// Towards zero (`4.259` → `4.25`).
    Down,
    /// Away from zero (`4.251` → `4.26`).
    Up,
}

/// Most decimals a printed figure may have.
const MAX_DECIMALS: usize = 6;

/// A printed figure `1 in N`, read as `N` scaled to its decimals: `(value × 10^decimals,
/// decimals)`. `N` has a `.` as its decimal point and may group its thousands with commas,
/// spaces or underscores (`1 in 1,125,000.00`). Errors: text of another form, or more than
/// six decimals, in words.
pub fn parse(printed: &str) -> Result<(u128, usize), String> {
    let form = || {
        format!("\"{printed}\" is not printed odds: expected \"1 in N\", N with a . before its decimals (\"1 in 4.26\", \"1 in 1,125,000\")")
    };
    let rest = printed
        .trim()
        .strip_prefix("1 in ")
        .ok_or_else(form)?
        .trim();
    let digits: String = rest
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || (digits.contains('.') && frac.is_empty())
    {
        return Err(form());
    }
    if frac.len() > MAX_DECIMALS {
        return Err(format!(
            "\"{printed}\" has {} decimals; at most {MAX_DECIMALS}",
            frac.len()
        ));
    }
    let value: u128 = format!("{int}{frac}").parse().map_err(|_| form())?;
    Ok((value, frac.len()))
}

/// `tickets / lots` with `decimals` decimals, rounded by `rounding`, scaled by
/// `10^decimals`. `lots` is above 0.
pub fn expected(tickets: u64, lots: u64, decimals: usize, rounding: Rounding) -> u128 {
    let scaled = u128::from(tickets) * 10u128.pow(decimals as u32);
    let (q, r) = (scaled / u128::from(lots), scaled % u128::from(lots));
    let up = match rounding {
        Rounding::Nearest => 2 * r >= u128::from(lots),
        Rounding::Down => false,
        Rounding::Up => r > 0,
    };
    q + u128::from(up)
}

/// `value` (scaled by `10^decimals`) written with its decimals and grouped thousands
/// (`1,125,000.00`).
fn written(value: u128, decimals: usize) -> String {
    let p = 10u128.pow(decimals as u32);
    let int = crate::money::grouped((value / p) as u64);
    if decimals == 0 {
        int
    } else {
        format!("{int}.{:0decimals$}", value % p)
    }
}

/// Checks printed odds `printed` against `tickets` tickets and `lots` lots (above 0).
/// Errors: text not of the form `1 in N`, or a figure the counts do not give, saying the
/// figure they give at the printed decimals.
pub fn check(printed: &str, tickets: u64, lots: u64, rounding: Rounding) -> Result<(), String> {
    let (value, decimals) = parse(printed)?;
    let want = expected(tickets, lots, decimals, rounding);
    if value == want {
        return Ok(());
    }
    let how = match rounding {
        Rounding::Nearest => "rounded to the nearest",
        Rounding::Down => "rounded down",
        Rounding::Up => "rounded up",
    };
    Err(format!(
        "printed \"{printed}\", but {} tickets / {} lots is 1 in {} ({how}; [published] odds_rounding says how the operator rounds)",
        crate::money::grouped(tickets),
        crate::money::grouped(lots),
        written(want, decimals)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_odds_are_read_with_their_decimals() {
        assert_eq!(parse("1 in 4.26"), Ok((426, 2)));
        assert_eq!(parse(" 1 in 1,125,000.00 "), Ok((112_500_000, 2)));
        assert_eq!(parse("1 in 10"), Ok((10, 0)));
        assert_eq!(parse("1 in 2 500"), Ok((2500, 0)));
        for bad in [
            "4.26",
            "1 in",
            "1 in 4.",
            "1 in .5",
            "1 in 4,26x",
            "2 in 9",
            "1 in -4",
        ] {
            assert!(
                parse(bad).unwrap_err().contains("is not printed odds"),
                "{bad}"
            );
        }
        assert_eq!(
            parse("1 in 1.1234567").unwrap_err(),
            "\"1 in 1.1234567\" has 7 decimals; at most 6"
        );
    }

    #[test]
    fn each_rounding_gives_its_figure() {
        // 2 000 / 470 = 4.2553…; 2 000 / 3 = 666.666…; 1 000 / 8 = 125 exactly.
        assert_eq!(expected(2_000, 470, 2, Rounding::Nearest), 426);
        assert_eq!(expected(2_000, 470, 2, Rounding::Down), 425);
        assert_eq!(expected(2_000, 470, 2, Rounding::Up), 426);
        assert_eq!(expected(2_000, 3, 1, Rounding::Nearest), 6667);
        assert_eq!(expected(2_000, 3, 0, Rounding::Down), 666);
        assert_eq!(expected(1_000, 8, 2, Rounding::Up), 12_500);
        // A half rounds up when rounding to the nearest: 1 / 8 = 0.125 → 0.13.
        assert_eq!(expected(1, 8, 2, Rounding::Nearest), 13);
    }

    #[test]
    fn a_wrong_figure_is_refused_with_the_right_one() {
        assert_eq!(check("1 in 4.26", 2_000, 470, Rounding::Nearest), Ok(()));
        assert_eq!(check("1 in 4.255", 2_000, 470, Rounding::Down), Ok(()));
        assert_eq!(
            check("1 in 4.00", 2_000, 470, Rounding::Nearest).unwrap_err(),
            "printed \"1 in 4.00\", but 2,000 tickets / 470 lots is 1 in 4.26 (rounded to the nearest; [published] odds_rounding says how the operator rounds)"
        );
        assert_eq!(
            check("1 in 1,125,000.00", 4_500_000, 4, Rounding::Nearest),
            Ok(())
        );
        assert!(check("1 in 4.26", 2_000, 470, Rounding::Down)
            .unwrap_err()
            .contains("is 1 in 4.25 (rounded down;"));
    }
}
