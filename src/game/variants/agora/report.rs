//! What the season report says of the tournament: public lines for everyone,
//! and for each contestant eir own votes on open proposals (section 8: the
//! judge reveals no one's vote to anyone else).

use crate::docs::power_name;
use crate::game::model::GameState;
use crate::variant::agora::person;
use crate::variant::agora::proposals::Status;
use crate::variant::agora::state::Agora;

/// The tournament's public state: the regulations' version, who plays what,
/// the open proposals (never a count before enactment), the draw clock and
/// any pending announcement.
pub(crate) fn public_lines(state: &GameState) -> Vec<String> {
    let Some(agora) = &state.agora else {
        return Vec::new();
    };
    let mut out = vec![format!(
        "Tournament: the regulations are at version {} (GET REGULATIONS).",
        agora.regulations.current().number
    )];
    {
        let map = crate::map::Map::standard();
        let who: Vec<String> = agora
            .tournament
            .contestants
            .iter()
            .map(|c| match c.power {
                Some(p) => format!("{} ({})", c.person, power_name(map, p)),
                None => c.person.clone(),
            })
            .collect();
        out.push(format!("Contestants: {}.", who.join(", ")));
    }
    let open = open_proposals(agora);
    if !open.is_empty() {
        out.push(format!("Open proposals: {}.", open.join(", ")));
    }
    let clock = &agora.draw_clock;
    if clock.may_declare() {
        out.push(format!(
            "No centre has changed hands since {}: the Gamemaster may declare a draw (section 9).",
            clock.last_change
        ));
    }
    if let Some(p) = &agora.victory.pending {
        out.push(format!(
            "Winners to be announced at {}: {}.",
            p.at.format("%Y-%m-%d %H:%M UTC"),
            p.winners.join(", ")
        ));
    }
    out
}

fn open_proposals(agora: &Agora) -> Vec<String> {
    agora
        .proposals
        .items
        .iter()
        .filter(|p| p.status == Status::Open)
        .map(|p| format!("{} (by {})", p.number, p.proposer))
        .collect()
}

/// The reader's own votes on open proposals; empty for anyone else.
pub(crate) fn reader_lines(state: &GameState, reader: &str) -> String {
    let Some(agora) = &state.agora else {
        return String::new();
    };
    let me = person(reader);
    let mine: Vec<String> = agora
        .proposals
        .items
        .iter()
        .filter(|p| p.status == Status::Open)
        .filter_map(|p| {
            p.vote_of(&me).map(|v| {
                format!(
                    "proposal {}: {}",
                    p.number,
                    if v { "for" } else { "against" }
                )
            })
        })
        .collect();
    if mine.is_empty() {
        return String::new();
    }
    format!(
        "\nYour votes on open proposals (shown to you only): {}.\n",
        mine.join("; ")
    )
}
