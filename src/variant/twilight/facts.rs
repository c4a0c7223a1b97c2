//! The fixed facts a Twilight Zone map keeps from the standard board.

use crate::map::{Map, Province};

/// Each country's spaces as coloured on the standard board, with Sevastopol
/// moved from Russia to Turkey (rule 2.8). Rule 2.6 asks each list to be continuous.
pub const COUNTRY_SPACES: [(&str, &[&str]); 7] = [
    ("Austria", &["boh", "bud", "gal", "tri", "tyr", "vie"]),
    ("England", &["cly", "edi", "lon", "lvp", "wal", "yor"]),
    ("France", &["bre", "bur", "gas", "mar", "par", "pic"]),
    ("Germany", &["ber", "kie", "mun", "pru", "ruh", "sil"]),
    ("Italy", &["apu", "nap", "pie", "rom", "tus", "ven"]),
    ("Russia", &["fin", "lvn", "mos", "stp", "ukr", "war"]),
    ("Turkey", &["ank", "arm", "con", "sev", "smy", "syr"]),
];

/// Sevastopol: a Turkish space, but no supply centre (rule 2.8).
pub fn sevastopol() -> Province {
    province("sev")
}

/// A standard province by abbreviation; only called with the fixed names above.
pub fn province(abbr: &str) -> Province {
    match Map::standard().lookup(abbr) {
        Some(loc) => loc.province,
        None => panic!("{abbr} is not a standard province"),
    }
}

/// The 33 supply centres: the standard 34 less Sevastopol (rules 2.3 and 2.8).
pub fn is_supply_centre(p: Province) -> bool {
    p != sevastopol() && Map::standard().is_supply_center(p)
}

/// A country's home centres: its standard ones, Russia without Sevastopol.
pub fn home_centres(country: &str) -> Vec<Province> {
    let map = Map::standard();
    map.power(country)
        .map(|p| map.power_info(p).home_centers.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|&p| p != sevastopol())
        .collect()
}
