//! Press and broadcasts between the powers of a game.

use serde_json::json;

use super::{Session, Who, power_by_initial};
use crate::docs::power_name;
use crate::game::EngineError;
use crate::game::advance;
use crate::game::model::{PressKind, Role, Status};
use crate::game::request::PressTarget;
use crate::store::NewPress;

impl Session<'_, '_, '_> {
    pub(super) fn press(
        &mut self,
        line: usize,
        text: &str,
        to: &PressTarget,
        grey: bool,
        fake: Option<&PressTarget>,
        message: &str,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        // njudge: an observer may always write to the master.
        let observer_to_master = ctx.who == Who::Observer && matches!(to, PressTarget::Master);
        let from_power = match &ctx.who {
            Who::Power(p) => Some(p.clone()),
            Who::Master => None,
            Who::Observer if observer_to_master => None,
            Who::Observer | Who::Joined => {
                let g = self.work.game(&ctx.key);
                match g.variant.press_author(&g.state, &self.sender) {
                    Some(author) => Some(author),
                    None => {
                        self.fail(line, text, no_press_from(&ctx.who));
                        return Ok(());
                    }
                }
            }
        };
        let g = self.work.game(&ctx.key);
        let (name, id) = (g.state.name.clone(), g.row.id);
        if g.state.status == Status::Finished {
            self.fail(line, text, format!("{name} is over; it takes no press"));
            return Ok(());
        }
        let master = from_power.is_none() && !observer_to_master;
        // njudge: press to the master only is always allowed, and always white.
        let to_master = matches!(to, PressTarget::Master);
        // njudge's SET GREY: every player's press goes out anonymous.
        let grey = (grey || (g.state.settings.house.grey_only && !master)) && !to_master;
        match g.state.settings.press {
            _ if to_master => {}
            PressKind::None if !master => {
                self.fail(line, text, format!("{name} allows no press"));
                return Ok(());
            }
            PressKind::White if grey && !master => {
                self.fail(
                    line,
                    text,
                    format!("{name} allows only white (signed) press"),
                );
                return Ok(());
            }
            _ => {}
        }
        if g.state.settings.broadcast_only
            && !master
            && matches!(
                to,
                PressTarget::Powers(_) | PressTarget::AllBut(_) | PressTarget::Observers
            )
        {
            self.fail(
                line,
                text,
                format!(
                    "{name} allows no partial press (SET NO PARTIAL): only broadcasts, \
                     and press to the master (PRESS TO M)"
                ),
            );
            return Ok(());
        }
        // njudge's fake press: only where the master set PARTIAL MAY BE FAKED,
        // and never to or as the master.
        if fake.is_some() && !g.state.settings.house.fake_press {
            self.fail(
                line,
                text,
                format!(
                    "{name} allows no fake press (No Fake); its master may SET PARTIAL MAY BE \
                     FAKED. The message was not sent"
                ),
            );
            return Ok(());
        }
        if fake.is_some() && (to_master || observer_to_master) {
            self.fail(line, text, "press to the master is never faked");
            return Ok(());
        }
        let map = g.map();
        let powers = match addressed_powers(map, to) {
            Ok(p) => p,
            Err(p) => {
                self.fail(line, text, format!("there is no power {p:?} in {name}"));
                return Ok(());
            }
        };
        let faked = match fake.map(|f| addressed_powers(map, f)) {
            None => None,
            Some(Ok(p)) => Some(p),
            Some(Err(p)) => {
                self.fail(line, text, format!("there is no power {p:?} in {name}"));
                return Ok(());
            }
        };
        // Players of the addressed powers; observers read only press to all; the
        // master reads everything.
        let mut recipients: Vec<String> = Vec::new();
        for m in &g.state.members {
            let wanted = match m.role {
                Role::Player => {
                    m.power.as_ref().is_some_and(|p| powers.contains(p))
                        || g.variant.press_reaches(&g.state, &m.address, &powers)
                }
                Role::Observer => matches!(to, PressTarget::All | PressTarget::Observers),
                Role::Master => true,
                Role::Standby => false,
            };
            let own = m.address.eq_ignore_ascii_case(&self.sender);
            if wanted
                && !own
                && !recipients
                    .iter()
                    .any(|r| r.eq_ignore_ascii_case(&m.address))
            {
                recipients.push(m.address.clone());
            }
        }
        let signer = match (&from_power, grey) {
            _ if observer_to_master => format!("an observer ({})", self.sender),
            (_, true) => "an anonymous power".to_string(),
            (Some(p), false) => p.clone(),
            (None, false) => "the master".to_string(),
        };
        let audience = audience_words(to, &powers);
        // What the header says: the real readers, or the fake ones.
        let shown = match (fake, &faked) {
            (Some(f), Some(p)) => audience_words(f, p),
            _ => audience.clone(),
        };
        let state = g.state.clone();
        let masters: Vec<String> = state.masters().map(|m| m.address.clone()).collect();
        let phase = state.phase_name().map(str::to_string);
        let subject = advance::subject(&self.work.judge, &state, &format!("Press from {signer}"));
        let body = |header: &str| {
            format!(
                ":: Judge: {}  Game: {name}\n\nPress from {signer} to {header}:\n\n{message}\n",
                self.work.judge
            )
        };
        let (for_readers, for_masters) = (
            body(&shown),
            // The master reads everything, and is not fooled.
            body(&if fake.is_some() {
                format!("{shown} (faked: really to {audience})")
            } else {
                shown.clone()
            }),
        );
        for to in &recipients {
            let master = masters.iter().any(|m| m.eq_ignore_ascii_case(to));
            let text = if master { &for_masters } else { &for_readers };
            self.work
                .send(to, subject.clone(), text.clone(), Some(id), false);
        }
        let account = self.work.tx.account_by_address(&self.sender)?.map(|a| a.id);
        self.work.tx.insert_press(&NewPress {
            game: id,
            phase: phase.as_deref(),
            from_account: account,
            from_power: from_power.as_deref(),
            recipients: &powers,
            broadcast: matches!(to, PressTarget::All),
            grey,
            body: message,
            sent_at: self.now(),
            inbound: self.work.inbound,
        })?;
        self.work.event(
            Some(id),
            "press.sent",
            json!({ "from": from_power, "to": powers, "grey": grey, "faked_as": faked }),
        )?;
        let header = if fake.is_some() {
            format!(", its header naming {shown}")
        } else {
            String::new()
        };
        self.ok(
            text,
            format!(
                "Press sent to {audience} ({} recipient(s)){header}.",
                recipients.len()
            ),
        );
        Ok(())
    }
}

/// The powers a press target names (`Err`: a power the map does not have).
fn addressed_powers(map: &crate::map::Map, to: &PressTarget) -> Result<Vec<String>, String> {
    let mut named = Vec::new();
    if let PressTarget::Powers(list) | PressTarget::AllBut(list) = to {
        for p in list {
            match power_by_initial(map, p) {
                Some(x) => named.push(power_name(map, x)),
                None => return Err(p.clone()),
            }
        }
    }
    let everyone = map.powers().iter().map(|p| p.name.clone());
    Ok(match to {
        PressTarget::All => everyone.collect(),
        PressTarget::Master | PressTarget::Observers => Vec::new(),
        PressTarget::Powers(_) => named,
        PressTarget::AllBut(_) => everyone.filter(|p| !named.contains(p)).collect(),
    })
}

/// Who a press message is for, in the header's words.
fn audience_words(to: &PressTarget, powers: &[String]) -> String {
    match to {
        PressTarget::All => "everyone".to_string(),
        PressTarget::Master => "the master".to_string(),
        PressTarget::Observers => "the observers".to_string(),
        _ => powers.join(", "),
    }
}

/// Why a member who plays no power may not send this press; an observer is
/// told what they may send (njudge's observers broadcast; here they write to
/// the master only: `docs/rulings.md`, "njudge habits: players", rule 9).
fn no_press_from(who: &Who) -> &'static str {
    match who {
        Who::Observer => {
            "only the powers and the master may send press; an observer may write to the \
             master alone, with PRESS TO M"
        }
        _ => "only the powers and the master may send press",
    }
}
