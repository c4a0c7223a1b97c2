//! Help texts for `GET <topic>` and `HELP <topic>`, kept as files under
//! `config/help/` and built into the binary.

const TOPICS: &[(&str, &str)] = &[
    ("index", include_str!("../../config/help/index.txt")),
    ("orders", include_str!("../../config/help/orders.txt")),
    (
        "conditional",
        include_str!("../../config/help/conditional.txt"),
    ),
    ("commands", include_str!("../../config/help/commands.txt")),
    ("press", include_str!("../../config/help/press.txt")),
    ("deadlines", include_str!("../../config/help/deadlines.txt")),
    ("diary", include_str!("../../config/help/diary.txt")),
    ("register", include_str!("../../config/help/register.txt")),
    ("master", include_str!("../../config/help/master.txt")),
    ("standby", include_str!("../../config/help/standby.txt")),
    ("agora", include_str!("../../config/help/agora.txt")),
    ("masters", include_str!("../../config/help/masters.txt")),
    ("twilight", include_str!("../../config/help/twilight.txt")),
    ("gtd", include_str!("../../config/help/gtd.txt")),
    ("mapformat", include_str!("../../grammar/twilight-map.md")),
    ("rules", include_str!("../../config/help/rules.txt")),
];

/// Other words players use for the same topics.
const ALIASES: &[(&str, &str)] = &[
    ("help", "index"),
    ("topics", "index"),
    ("info", "index"),
    // njudge's file names.
    ("flist", "index"),
    ("package", "index"),
    ("guide", "index"),
    ("form", "register"),
    ("whois", "register"),
    ("syntax", "orders"),
    ("house.rules", "rules"),
    ("houserules", "rules"),
    ("how2gm", "master"),
    ("concessions", "commands"),
    ("convoys", "orders"),
    ("absence", "deadlines"),
    ("draws", "commands"),
    ("history", "commands"),
    ("order", "orders"),
    ("if", "conditional"),
    ("phase", "conditional"),
    ("command", "commands"),
    ("deadline", "deadlines"),
    ("nmr", "deadlines"),
    ("broadcast", "press"),
    ("gm", "master"),
    ("gamemaster", "master"),
    ("stand-by", "standby"),
    ("replacement", "standby"),
    ("tournament", "agora"),
    ("mr", "masters"),
    ("grand", "gtd"),
];

/// The text of a topic (any case; aliases and unambiguous prefixes accepted).
pub fn topic(name: &str) -> Option<&'static str> {
    let want = name.trim().to_ascii_lowercase();
    // njudge's variant files: `info.<variant>` is that variant's topic.
    let want = match want.strip_prefix("info.") {
        Some(variant) if !variant.is_empty() => variant.to_string(),
        _ => want,
    };
    let want = ALIASES
        .iter()
        .find(|(a, _)| *a == want)
        .map(|(_, t)| t.to_string())
        .unwrap_or(want);
    if let Some((_, text)) = TOPICS.iter().find(|(t, _)| *t == want) {
        return Some(text);
    }
    let prefixed: Vec<_> = TOPICS
        .iter()
        .filter(|(t, _)| !want.is_empty() && t.starts_with(&want))
        .collect();
    match prefixed.as_slice() {
        [(_, text)] => Some(text),
        _ => None,
    }
}

/// The topic names, for an error naming the choices.
pub fn names() -> Vec<&'static str> {
    TOPICS.iter().map(|(t, _)| *t).collect()
}

/// njudge's `GET map`: the board's provinces, each with its abbreviation,
/// kind, supply centre and the spellings read, then where armies and fleets
/// may move from it.
pub fn map_text(map: &crate::map::Map) -> String {
    use crate::map::{Location, Terrain};
    use std::fmt::Write as _;
    let mut out = format!(
        "The {} map: each province, its abbreviation, what it is, and the other \
         spellings read (any case; dots dropped).\n\n",
        map.title()
    );
    let mut others: Vec<Vec<&str>> = vec![Vec::new(); map.province_count()];
    for (spelling, loc) in map.spellings() {
        let p = loc.province;
        if loc.coast.is_none()
            && spelling != &map.abbr(p).to_lowercase()
            && spelling != &map.name(p).to_lowercase()
        {
            others[p.0 as usize].push(spelling.as_str());
        }
    }
    for p in map.provinces() {
        let kind = match map.terrain(p) {
            Terrain::Inland => "land",
            Terrain::Coastal => "coast",
            Terrain::Sea => "sea",
            Terrain::Impassable => "impassable",
        };
        let centre = match (map.is_supply_center(p), map.home_power(p)) {
            (true, Some(h)) => format!(", supply centre of {}", map.power_info(h).name),
            (true, None) => ", supply centre".to_string(),
            _ => String::new(),
        };
        let _ = write!(out, "{:<4} {} ({kind}{centre})", map.abbr(p), map.name(p));
        let coasts = map.coasts(p);
        if !coasts.is_empty() {
            let names: Vec<String> = coasts
                .iter()
                .map(|c| {
                    map.location_code(Location {
                        province: p,
                        coast: Some(*c),
                    })
                    .to_lowercase()
                })
                .collect();
            let _ = write!(out, ", coasts {}", names.join(" "));
        }
        if !others[p.0 as usize].is_empty() {
            let _ = write!(out, "; also {}", others[p.0 as usize].join(", "));
        }
        out.push('\n');
        let armies: Vec<&str> = map.army_neighbours(p).iter().map(|q| map.abbr(q)).collect();
        if !armies.is_empty() {
            let _ = writeln!(out, "       army to: {}", armies.join(" "));
        }
        let mut fleets = Vec::new();
        let froms: Vec<Location> = if coasts.is_empty() {
            vec![Location {
                province: p,
                coast: None,
            }]
        } else {
            coasts
                .iter()
                .map(|c| Location {
                    province: p,
                    coast: Some(*c),
                })
                .collect()
        };
        for from in froms {
            let reach: Vec<&str> = map
                .fleet_neighbours(from)
                .iter()
                .map(|q| map.abbr(q))
                .collect();
            if reach.is_empty() {
                continue;
            }
            let label = if from.coast.is_some() {
                format!("fleet from {} to", map.location_code(from).to_lowercase())
            } else {
                "fleet to".to_string()
            };
            fleets.push(format!("       {label}: {}", reach.join(" ")));
        }
        for f in fleets {
            out.push_str(&f);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_by_name_alias_and_prefix() {
        assert!(topic("ORDERS").unwrap().contains("A Par - Bur"));
        assert!(topic("if").unwrap().contains("ENDIF"));
        assert!(topic("dia").unwrap().contains("DIARY"));
        // "d" could be deadlines or diary.
        assert_eq!(topic("d"), None);
        assert_eq!(topic("regulations"), None);
        // Every topic in the index exists, and the index names every topic.
        let index = topic("index").unwrap();
        for name in names().into_iter().filter(|n| *n != "index") {
            assert!(index.contains(name), "{name} missing from the index");
        }
    }
}
