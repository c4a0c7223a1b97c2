//! Carrying out an enacted proposal (section 8 changes the regulations; what
//! a free-text change asks for is done by the Gamemaster): `EFFECT PROPOSAL n
//! <command>` runs one of eir commands and logs it against the proposal;
//! any other text is logged as a note of what e did.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::super::super::model::GameState;
use super::super::super::request::Line;
use crate::grammar::{Body, Entry, parse_line};
use crate::map::Map;
use crate::phase::Phase;
use crate::variant::agora::proposals::Status;

/// The commands an effect's text reads as, when it reads as nothing else
/// (every part a command); `None`: the text is a note.
pub fn commands(
    map: &Map,
    text: &str,
    phase: Option<Phase>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Option<Vec<Line>> {
    let lines = parse_line(map, text, phase);
    let mut any = false;
    for l in &lines {
        match &l.entry {
            Entry::Command(_) => any = true,
            Entry::BlockText | Entry::Ignored(_) => {}
            Entry::Orders(_) | Entry::Error { .. } | Entry::Refused { .. } => return None,
        }
    }
    if !any {
        return None;
    }
    Some(super::super::super::from_grammar::lines_from_body(
        map,
        &Body { lines },
        now,
        tz,
    ))
}

/// Why the Gamemaster's commands cannot be run for proposal `n`: only an
/// enacted proposal changed the regulations, so only its effect is carried out.
pub fn refusal(state: &GameState, n: u32) -> Option<String> {
    let Some(agora) = state.agora.as_ref() else {
        return Some("this game is not an Agora tournament".into());
    };
    match agora.proposals.get(n) {
        Err(e) => Some(e.to_string()),
        Ok(p) => match &p.status {
            Status::Enacted { .. } => None,
            other => Some(format!(
                "proposal {n} is not enacted ({}); commands are run only for an enacted \
                 proposal (section 8)",
                match other {
                    Status::Open => "still open".to_string(),
                    Status::Withdrawn => "withdrawn".to_string(),
                    Status::Refused { reason } => format!("refused: {reason}"),
                    Status::Enacted { .. } => String::new(),
                }
            )),
        },
    }
}

/// The effects logged for enacted proposals up to regulations version
/// `upto`, as `GET REGULATIONS` lists them.
pub fn log_lines(state: &GameState, upto: u32) -> Vec<String> {
    let Some(agora) = state.agora.as_ref() else {
        return Vec::new();
    };
    agora
        .proposals
        .items
        .iter()
        .filter(|p| matches!(p.status, Status::Enacted { version } if version <= upto))
        .filter(|p| !p.effects.is_empty())
        .map(|p| {
            let done: Vec<String> = p.effects.iter().map(|e| format!("  - {e}")).collect();
            format!(
                "Carried out for proposal {} by the Gamemaster:\n{}",
                p.number,
                done.join("\n")
            )
        })
        .collect()
}
