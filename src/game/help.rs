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
