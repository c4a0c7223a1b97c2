//! Checking a game's lots from the store: the secret against the commitment
//! and every recorded draw.

use super::EngineError;
use super::model::GameState;
use crate::lots::{Draw, DrawProblem, LotSecret, verify};
use crate::store::Store;

/// What `legate verify-lots` reports.
#[derive(Debug)]
pub struct LotAudit {
    pub game: String,
    pub commitment: String,
    pub draws: Vec<Draw>,
    pub problems: Vec<DrawProblem>,
}

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("there is no game named {0}")]
    UnknownGame(String),
    #[error("game {0} has no lot commitment")]
    NoCommitment(String),
    #[error(
        "the secret of {0} is revealed when the game ends; give it with --secret to check it earlier"
    )]
    NotRevealed(String),
    #[error("--secret must be 64 hexadecimal digits")]
    BadSecret,
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Audits `game`. `secret` (hex) overrides the stored one, which is only used
/// once the game has ended and the secret has been revealed.
pub fn audit_lots(
    store: &mut Store,
    game: &str,
    secret: Option<&str>,
) -> Result<LotAudit, AuditError> {
    let row = store
        .transaction(|tx| tx.game_by_name(game))
        .map_err(EngineError::from)?
        .ok_or_else(|| AuditError::UnknownGame(game.to_string()))?;
    let state: GameState =
        serde_json::from_str(&row.state).map_err(|e| EngineError::State(e.to_string()))?;
    let commitment = row
        .lot_commitment
        .clone()
        .or(state.lot_commitment.clone())
        .ok_or_else(|| AuditError::NoCommitment(row.name.clone()))?;
    let secret = match secret {
        Some(hex) => LotSecret::from_hex(hex).ok_or(AuditError::BadSecret)?,
        None if row.lot_revealed => row
            .lot_secret
            .as_deref()
            .and_then(LotSecret::from_hex)
            .ok_or_else(|| AuditError::NotRevealed(row.name.clone()))?,
        None => return Err(AuditError::NotRevealed(row.name.clone())),
    };
    let problems = verify(&secret, &commitment, &state.draws);
    Ok(LotAudit {
        game: row.name,
        commitment,
        draws: state.draws,
        problems,
    })
}
