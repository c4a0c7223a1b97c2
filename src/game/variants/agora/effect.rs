//! Carrying out an enacted proposal (section 8 changes the regulations; what
//! a free-text change asks for is done by the Gamemaster): `EFFECT PROPOSAL n
//! <command>` runs one of eir commands and logs it against the proposal;
//! any other text is logged as a note of what e did.

use super::super::super::model::GameState;
use crate::variant::agora::proposals::Status;

/// Why the Gamemaster's commands cannot be run for proposal `n`: only an
/// enacted proposal changed the regulations, so only its effect is carried out.
pub(crate) fn refusal(state: &GameState, n: u32) -> Option<String> {
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
pub(crate) fn log_lines(state: &GameState, upto: u32) -> Vec<String> {
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
