//! The tournament's mail commands: the regulations, proposals and votes,
//! assistants, and the Gamemaster's acts (each logged and announced).

use serde_json::json;

use super::super::super::EngineError;
use super::super::super::model::{Outcome, Role, Status};
use super::super::super::process::{position_of, survivors};
use super::super::super::work::Work;
use super::super::{Next, Reply};
use super::{UNPUBLISHED, deliver, player, suspend};
use crate::docs::power_name;
use crate::lots::draw;
use crate::variant::agora::assistants::Assistant;
pub(crate) use crate::variant::agora::command::AgoraCommand;
use crate::variant::agora::person;
use crate::variant::agora::regulations::Cause;
use crate::variant::agora::tournament::{GmAct, Stage};
use crate::variant::agora::{Audience, Notice};

/// Carries out one command for `sender` in the game `key`; `master`: the sender
/// signed on as its master. The answer for the reply, or why it was refused.
pub(crate) fn run(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    master: bool,
    cmd: &AgoraCommand,
) -> Result<Reply, EngineError> {
    let answer = answer(work, key, sender, master, cmd)?;
    // `END TOURNAMENT` done: the engine ends the game.
    let next = if matches!(cmd, AgoraCommand::End(_)) && answer.is_ok() {
        Next::End(Outcome::Terminated)
    } else {
        Next::Nothing
    };
    Ok(Reply { answer, next })
}

fn answer(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    master: bool,
    cmd: &AgoraCommand,
) -> Result<Result<String, String>, EngineError> {
    if work.game(key).state.agora.is_none() {
        return Ok(Err(
            "this game is not an Agora tournament (CREATE ?game password agora)".into(),
        ));
    }
    if cmd.for_gamemaster() && !master {
        return Ok(Err(
            "only the Gamemaster (signed on as master) may do this".into()
        ));
    }
    use AgoraCommand::*;
    match cmd {
        GetRegulations(n) => Ok(regulations(work, key, *n)),
        Propose(text) => propose(work, key, sender, text),
        Withdraw(n) => {
            let g = work.game_mut(key);
            let agora = g.state.agora.as_mut().expect("checked above");
            match agora.proposals.withdraw(sender, *n) {
                Ok(notice) => {
                    deliver(work, key, vec![notice])?;
                    Ok(Ok(format!("Proposal {n} is withdrawn.")))
                }
                Err(e) => Ok(Err(e.to_string())),
            }
        }
        Vote {
            proposal,
            in_favour,
        } => vote(work, key, sender, *proposal, *in_favour),
        Assistant {
            address,
            orders,
            role,
        } => assistant(work, key, sender, address, *orders, role),
        Remove(_) | Add { .. } | Substitute { .. } | Amend(_) | End(_) => gm_act(work, key, cmd),
        Effect { proposal, text } => {
            let g = work.game_mut(key);
            let agora = g.state.agora.as_mut().expect("checked above");
            match agora.proposals.log_effect(*proposal, text) {
                Ok(notice) => {
                    log(
                        work,
                        key,
                        "agora.effect",
                        json!({ "proposal": proposal, "what": text }),
                    )?;
                    deliver(work, key, vec![notice])?;
                    Ok(Ok(format!(
                        "Logged against proposal {proposal} and announced."
                    )))
                }
                Err(e) => Ok(Err(e.to_string())),
            }
        }
        DeclareDraw => {
            let now = work.now;
            let g = work.game_mut(key);
            let agora = g.state.agora.as_mut().expect("checked above");
            let gm = agora.tournament.gamemaster.clone();
            match agora.declare_draw(&gm, now) {
                Ok(notice) => {
                    let at = agora.draw_clock.declared;
                    if let Some(at) = at {
                        suspend(&mut g.state, at);
                    }
                    log(work, key, "agora.draw_declared", json!({ "at": at }))?;
                    deliver(work, key, vec![notice])?;
                    Ok(Ok("The draw is declared, with two days' notice.".into()))
                }
                Err(e) => Ok(Err(e.to_string())),
            }
        }
        SetWinners(list) => {
            let g = work.game_mut(key);
            let agora = g.state.agora.as_mut().expect("checked above");
            if agora.victory.pending.is_none() {
                return Ok(Err(
                    "no announcement of winners is pending: the judge gives notice \
                     when one contestant remains (section 3) or a declared draw takes effect \
                     (section 9)"
                        .into(),
                ));
            }
            match agora.victory.amend(list.clone()) {
                Ok(notice) => {
                    log(work, key, "agora.winners", json!({ "winners": list }))?;
                    deliver(work, key, vec![notice])?;
                    Ok(Ok("The winners to be announced are changed.".into()))
                }
                Err(e) => Ok(Err(e.to_string())),
            }
        }
    }
}

fn log(
    work: &mut Work<'_, '_>,
    key: &str,
    what: &str,
    data: serde_json::Value,
) -> Result<(), EngineError> {
    let id = work.game(key).row.id;
    work.event(Some(id), what, data)?;
    Ok(())
}

/// `GET REGULATIONS [n]`
fn regulations(work: &Work<'_, '_>, key: &str, n: Option<u32>) -> Result<String, String> {
    let agora = work.game(key).state.agora.as_ref().expect("checked above");
    let v = agora.regulations.get(n).map_err(|e| e.to_string())?;
    let cause = match v.cause {
        Cause::Initial => "as created".to_string(),
        Cause::Proposal(p) => format!("enacted proposal {p}"),
        Cause::Gamemaster => "by the Gamemaster".to_string(),
    };
    let mut text = format!(
        "The regulations, version {} ({cause}; the latest is {}):\n\n{}",
        v.number,
        agora.regulations.current().number,
        v.text.trim_end()
    );
    for effects in super::effect::log_lines(&work.game(key).state, v.number) {
        text.push_str("\n\n");
        text.push_str(&effects);
    }
    Ok(text)
}

fn propose(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    text: &str,
) -> Result<Result<String, String>, EngineError> {
    let g = work.game_mut(key);
    let agora = g.state.agora.as_mut().expect("checked above");
    let is = agora.tournament.is_contestant(sender);
    match agora.proposals.submit(&agora.regulations, sender, is, text) {
        Ok((n, notice)) => {
            log(
                work,
                key,
                "agora.proposal",
                json!({ "number": n, "by": person(sender) }),
            )?;
            deliver(work, key, vec![notice])?;
            Ok(Ok(format!(
                "Your proposal is number {n}; it is published to the tournament."
            )))
        }
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// A private vote: acknowledged in the voter's reply only; an enactment is
/// published with the counts (section 8).
fn vote(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    n: u32,
    in_favour: bool,
) -> Result<Result<String, String>, EngineError> {
    let g = work.game_mut(key);
    let agora = g.state.agora.as_mut().expect("checked above");
    let is = agora.tournament.is_contestant(sender);
    let notices = match agora
        .proposals
        .vote(&mut agora.regulations, sender, is, n, in_favour)
    {
        Ok(v) => v,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let voter = person(sender);
    let (mine, others): (Vec<Notice>, Vec<Notice>) = notices
        .into_iter()
        .partition(|x| x.to == Audience::Private(voter.clone()));
    let version = agora.regulations.current().number;
    // The event log counts votes; it does not name the voter's side.
    log(work, key, "agora.vote", json!({ "proposal": n }))?;
    if !others.is_empty() {
        log(
            work,
            key,
            "agora.enacted",
            json!({ "proposal": n, "version": version }),
        )?;
    }
    deliver(work, key, others)?;
    Ok(Ok(mine
        .into_iter()
        .map(|x| x.text)
        .collect::<Vec<_>>()
        .join("\n")))
}

fn assistant(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    address: &str,
    orders: bool,
    role: &str,
) -> Result<Result<String, String>, EngineError> {
    let role = match (role.trim(), orders) {
        ("", true) => "submitting orders".to_string(),
        ("", false) => {
            return Ok(Err(
                "say what assistance they will provide (section 7): ASSISTANT <address> [ORDERS] <what they do>"
                    .into(),
            ));
        }
        (r, _) => r.to_string(),
    };
    let g = work.game_mut(key);
    let agora = g.state.agora.as_mut().expect("checked above");
    let t = agora.tournament.clone();
    let a = Assistant {
        contestant: person(sender),
        address: address.to_string(),
        may_order: orders,
        role,
    };
    match agora
        .assistants
        .announce(sender, |w| t.is_contestant(w), &t.gamemaster, a)
    {
        Ok(notice) => {
            log(
                work,
                key,
                "agora.assistant",
                json!({ "contestant": person(sender), "assistant": person(address), "orders": orders }),
            )?;
            deliver(work, key, vec![notice])?;
            let how = if orders {
                " They sign on to your power with its password; you are told of every order they submit."
            } else {
                ""
            };
            Ok(Ok(format!(
                "Your assistant is announced to the tournament.{how}"
            )))
        }
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// A Gamemaster act (section 2), carried into the game's members too.
fn gm_act(
    work: &mut Work<'_, '_>,
    key: &str,
    cmd: &AgoraCommand,
) -> Result<Result<String, String>, EngineError> {
    use AgoraCommand as C;
    let now = work.now;
    let act = match cmd {
        C::Remove(p) => GmAct::Remove { person: person(p) },
        C::Add {
            address, consented, ..
        } => GmAct::Add {
            person: person(address),
            consented: *consented,
        },
        C::Substitute { from, to, .. } => GmAct::Substitute {
            from: person(from),
            to: person(to),
        },
        C::Amend(text) => GmAct::Amend { text: text.clone() },
        C::End(text) => GmAct::End { text: text.clone() },
        _ => return Ok(Err("not a Gamemaster act".into())),
    };
    if let GmAct::Amend { text } | GmAct::End { text } = &act
        && text.trim().is_empty()
    {
        return Ok(Err(
            "the new regulations go between the command and ENDREGULATIONS".into(),
        ));
    }
    let g = work.game_mut(key);
    let agora = g.state.agora.as_mut().expect("checked above");
    let first_publication = agora.regulations.current().text == UNPUBLISHED;
    let gm = agora.tournament.gamemaster.clone();
    let mut notice = match agora.gm_act(&gm, &act, now) {
        Ok(n) => n,
        Err(e) => return Ok(Err(e.to_string())),
    };
    if let GmAct::Amend { .. } = act {
        if first_publication && agora.tournament.stage == Stage::Entry {
            // Section 1 counts the entry window from the promulgation.
            agora.tournament.published = now;
            let closes = agora.tournament.entry_closes();
            notice.text.push_str(&format!(
                "\nEntry is open until {} (ENTER ?{} <password>).",
                closes.format("%Y-%m-%d %H:%M UTC"),
                g.state.name
            ));
        }
        let v = agora.regulations.current();
        notice.text.push_str(&format!(
            "\nThe regulations, version {}:\n{}",
            v.number, v.text
        ));
    }
    let mut private = Vec::new();
    match cmd {
        C::Remove(p) => {
            let who = person(p);
            if let Some(i) = g
                .state
                .members
                .iter()
                .position(|m| m.role == Role::Player && person(&m.address) == who)
            {
                let m = g.state.members.remove(i);
                if let Some(power) = m.power {
                    // Section 24: a power without its contestant orders nothing.
                    g.state.orders.remove(&power);
                    g.state.future_orders.retain(|f| f.power != power);
                    g.state.conditional.retain(|c| c.power != power);
                }
                private.push(Notice::private(
                    &who,
                    "The Gamemaster has removed you from the tournament: you are no longer a contestant.",
                ));
            }
        }
        C::Add {
            address, password, ..
        } => {
            let mut m = player(address, password)?;
            if g.state.status == Status::Active {
                m.power = free_power(work, key, address)?;
                let g = work.game_mut(key);
                if let (Some(agora), Some(pname)) = (g.state.agora.as_mut(), m.power.as_ref()) {
                    let map = crate::map::Map::standard();
                    let who = person(address);
                    if let Some(c) = agora
                        .tournament
                        .contestants
                        .iter_mut()
                        .find(|c| c.person == who)
                    {
                        c.power = map.power(pname);
                    }
                    notice
                        .text
                        .push_str(&format!(" E plays {pname}, drawn by lot."));
                }
            }
            let g = work.game_mut(key);
            g.state.members.push(m);
            private.push(Notice::private(
                address,
                format!(
                    "The Gamemaster has made you a contestant of {}. Your password is the one the \
                     Gamemaster gave; change it with SET PASSWORD once signed on.",
                    g.state.name
                ),
            ));
        }
        C::Substitute { from, to, password } => {
            let who = person(from);
            if let Some(m) = g
                .state
                .members
                .iter_mut()
                .find(|m| m.role == Role::Player && person(&m.address) == who)
            {
                m.address = to.clone();
                m.password_hash = crate::store::hash_password(password)?;
                m.abandoned = false;
            }
            private.push(Notice::private(
                to,
                format!(
                    "The Gamemaster has substituted you for {who} in {}: you now hold eir place.",
                    g.state.name
                ),
            ));
            private.push(Notice::private(
                &who,
                format!(
                    "The Gamemaster has substituted {} for you in {}.",
                    person(to),
                    g.state.name
                ),
            ));
        }
        _ => {}
    }
    log(
        work,
        key,
        "agora.gm_act",
        json!({ "act": format!("{act:?}") }),
    )?;
    let text = notice.text.clone();
    deliver(work, key, vec![notice])?;
    deliver(work, key, private)?;
    Ok(Ok(format!("Done and announced: {text}")))
}

/// A surviving power nobody plays, drawn by lot for a contestant added in play.
fn free_power(
    work: &mut Work<'_, '_>,
    key: &str,
    address: &str,
) -> Result<Option<String>, EngineError> {
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let position = position_of(map, &g.state)?;
    let free: Vec<String> = survivors(map, &position)
        .into_iter()
        .map(|p| power_name(map, p))
        .filter(|p| g.state.player_of(p).is_none())
        .collect();
    if free.is_empty() {
        return Ok(None);
    }
    let Some(secret) = g.secret.clone() else {
        return Ok(None);
    };
    let purpose = format!("Agora: great power for {} added in play", person(address));
    let d = draw(&secret, &purpose, &free)?;
    let winner = d.winner().to_string();
    g.state.draws.push(d);
    Ok(Some(winner))
}
