//! Entering a running GTD game (rule 1: "by sending a request to enter and
//! subscription fee to the Gamemaster, and by securing an appointment from the
//! head of state"): a `SIGNON ?game` after the start is a request to enter,
//! kept until the Gamemaster answers `APPROVE <player>` or `REFUSE <player>`;
//! only approved players are on the stand-by list a head may appoint from.

use super::super::Answer;
use super::GtdGame;
use crate::game::EngineError;
use crate::game::model::{Member, Role};
use crate::game::notice::subject;
use crate::game::work::Work;
use crate::store::{hash_password, verify_password};

/// `SIGNON ?game password` once the game runs: a player (or one waiting for
/// approval) signs on as themselves; anyone else asks to enter.
pub(crate) fn join(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    password: &str,
) -> Result<Answer, EngineError> {
    let g = work.game(key);
    let name = g.state.name.clone();
    let member = g.state.member(sender).cloned();
    let Some(game) = g.state.gtd.as_ref() else {
        return Ok(Err(format!("{name} is not a GTD game")));
    };
    if let Some(m) = member {
        if !verify_password(password, &m.password_hash) {
            return Ok(Err(format!("wrong password for {sender} in {name}")));
        }
        let who = game.player_of(sender).unwrap_or(sender).to_string();
        let waiting = if game.pending.contains(&who) {
            " Your request to enter waits for the Gamemaster's approval (rule 1)."
        } else {
            ""
        };
        return Ok(Ok(format!(
            "Signed on to {name} as {who}. Orders for the units you command follow.{waiting}"
        )));
    }
    let hash = hash_password(password)?;
    let judge = work.judge.clone();
    let g = work.game_mut(key);
    g.state
        .members
        .push(Member::new(sender, Role::Standby, hash));
    let id = g.row.id;
    let Some(game) = g.state.gtd.as_mut() else {
        return Ok(Err(format!("{name} is not a GTD game")));
    };
    let who = game.seat(sender);
    if !game.pending.contains(&who) {
        game.pending.push(who.clone());
    }
    let state = g.state.clone();
    let body = format!(
        "{sender} asks to enter {name} as {who} (rule 1).\n\
         Answer with APPROVE {who} (they go on the stand-by list, from which a head of \
         government may appoint them to a unit) or REFUSE {who}.\n"
    );
    let gms: Vec<String> = state.masters().map(|m| m.address.clone()).collect();
    for to in gms {
        work.send(
            &to,
            subject(&judge, &state, "Request to enter"),
            body.clone(),
            Some(id),
            false,
        );
    }
    Ok(Ok(format!(
        "{name} has started; your request to enter it as {who} is sent to the Gamemaster \
         (rule 1). Once approved you are on the stand-by list, and you enter the game when \
         a head of government appoints you to a unit."
    )))
}

/// The Gamemaster's answer to a request to enter: `APPROVE` puts the player on
/// the stand-by list, `REFUSE` ends the request (the address may ask again).
pub(crate) fn answer(
    work: &mut Work<'_, '_>,
    key: &str,
    player: &str,
    approve: bool,
) -> Result<Answer, EngineError> {
    let judge = work.judge.clone();
    let g = work.game_mut(key);
    let (id, name) = (g.row.id, g.state.name.clone());
    let Some(game) = g.state.gtd.as_mut() else {
        return Ok(Err(format!("{name} is not a GTD game")));
    };
    let Some(who) = pending_named(game, player) else {
        return Ok(Err(not_pending(game, player)));
    };
    game.pending.retain(|p| *p != who);
    let address = game.address_of(&who).unwrap_or_default().to_string();
    let reply = if approve {
        game.state.standby.push(who.clone());
        let place = game.state.standby.len();
        game.state.note(format!(
            "rule 1: the Gamemaster admitted {who} to the stand-by list"
        ));
        format!("{who} is on the stand-by list of {name} (number {place}).")
    } else {
        game.seats.retain(|s| s.name != who);
        g.state
            .members
            .retain(|m| !(m.role == Role::Standby && m.address.eq_ignore_ascii_case(&address)));
        format!("{who}'s request to enter {name} is refused.")
    };
    let body = if approve {
        format!(
            "The Gamemaster approved your request to enter {name}: you are on its stand-by \
             list as {who}. You enter the game when a head of government appoints you to a \
             unit (rule 1), or by the Gamemaster's lot (rule 27).\n"
        )
    } else {
        format!("The Gamemaster refused your request to enter {name}.\n")
    };
    let state = work.game(key).state.clone();
    let what = if approve {
        "Entry approved"
    } else {
        "Entry refused"
    };
    work.send(
        &address,
        subject(&judge, &state, what),
        body,
        Some(id),
        false,
    );
    Ok(Ok(reply))
}

/// The pending request `written` names: by seat name (any case) or address.
fn pending_named(game: &GtdGame, written: &str) -> Option<String> {
    game.pending
        .iter()
        .find(|p| {
            p.eq_ignore_ascii_case(written)
                || game
                    .address_of(p)
                    .is_some_and(|a| a.eq_ignore_ascii_case(written))
        })
        .cloned()
}

fn not_pending(game: &GtdGame, written: &str) -> String {
    let listed = if game.pending.is_empty() {
        "none is waiting".to_string()
    } else {
        format!("waiting: {}", game.pending.join(", "))
    };
    if game
        .state
        .standby
        .iter()
        .any(|p| p.eq_ignore_ascii_case(written))
    {
        return format!("{written} is already on the stand-by list ({listed})");
    }
    format!("{written} has no request to enter waiting ({listed})")
}

/// Why `player` cannot be given a unit or a country yet, if they are waiting
/// for approval.
pub(crate) fn waiting(game: &GtdGame, player: &str) -> Option<String> {
    game.pending.iter().any(|p| p == player).then(|| {
        format!(
            "{player} has asked to enter but is not yet approved by the Gamemaster \
             (APPROVE {player}); only stand-by players may be appointed (rule 1)"
        )
    })
}
