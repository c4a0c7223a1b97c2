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
                        self.fail(line, text, "only the powers and the master may send press");
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
        let map = g.map();
        let mut named = Vec::new();
        if let PressTarget::Powers(list) | PressTarget::AllBut(list) = to {
            for p in list {
                match power_by_initial(map, p) {
                    Some(x) => named.push(power_name(map, x)),
                    None => {
                        self.fail(line, text, format!("there is no power {p:?} in {name}"));
                        return Ok(());
                    }
                }
            }
        }
        let everyone: Vec<String> = map.powers().iter().map(|p| p.name.clone()).collect();
        let powers: Vec<String> = match to {
            PressTarget::All => everyone,
            PressTarget::Master | PressTarget::Observers => Vec::new(),
            PressTarget::Powers(_) => named.clone(),
            PressTarget::AllBut(_) => everyone
                .into_iter()
                .filter(|p| !named.contains(p))
                .collect(),
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
        let audience = match to {
            PressTarget::All => "everyone".to_string(),
            PressTarget::Master => "the master".to_string(),
            PressTarget::Observers => "the observers".to_string(),
            _ => powers.join(", "),
        };
        let state = g.state.clone();
        let phase = state.phase_name().map(str::to_string);
        let subject = advance::subject(&self.work.judge, &state, &format!("Press from {signer}"));
        let body = format!(
            ":: Judge: {}  Game: {name}\n\nPress from {signer} to {audience}:\n\n{message}\n",
            self.work.judge
        );
        for to in &recipients {
            self.work
                .send(to, subject.clone(), body.clone(), Some(id), false);
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
            json!({ "from": from_power, "to": powers, "grey": grey }),
        )?;
        self.ok(
            text,
            format!(
                "Press sent to {audience} ({} recipient(s)).",
                recipients.len()
            ),
        );
        Ok(())
    }
}
