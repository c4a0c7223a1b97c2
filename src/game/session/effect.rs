//! `EFFECT PROPOSAL n <command>`: the Gamemaster runs one of eir commands to
//! carry out an enacted Agora proposal, and the command is logged against it.

use super::Session;
use crate::game::EngineError;
use crate::game::request::{Line, Request};
use crate::game::variants::agora::effect;
use crate::variant::agora::command::AgoraCommand;

impl Session<'_, '_, '_> {
    /// `Ok(true)`: the effect's text read as commands and was handled here;
    /// `Ok(false)`: it is a note, for the tournament's own `EFFECT`.
    pub(super) fn agora_effect(
        &mut self,
        line: usize,
        text: &str,
        proposal: u32,
        what: &str,
    ) -> Result<bool, EngineError> {
        let Some(ctx) = self.context.clone() else {
            return Ok(false);
        };
        let g = self.work.game(&ctx.key);
        let (state, map) = (&g.state, g.map());
        let phase = state.phase_name().and_then(|p| p.parse().ok());
        let tz = self.work.zone_of(&self.sender);
        let Some(inner) =
            crate::game::from_grammar::commands_only(map, what, phase, self.now(), tz)
        else {
            return Ok(false);
        };
        if ctx.who != super::Who::Master {
            self.fail(
                line,
                text,
                "only the Gamemaster (signed on as master) may do this",
            );
            return Ok(true);
        }
        if let Some(why) = effect::refusal(state, proposal) {
            self.fail(line, text, why);
            return Ok(true);
        }
        for l in inner {
            let (inner_text, request) = match l {
                Line::Command { text, request, .. } => (text, request),
                Line::Order { text, .. } | Line::Error { text, .. } | Line::Unread { text, .. } => {
                    self.fail(line, &text, "an EFFECT runs commands only");
                    continue;
                }
            };
            if let Some(why) = not_in_effect(&request) {
                self.fail(line, &inner_text, why);
                continue;
            }
            let before = self.errors;
            self.dispatch(line, &inner_text, &request)?;
            if self.errors > before {
                self.fail(
                    line,
                    text,
                    format!("not logged against proposal {proposal}: the command was refused"),
                );
                continue;
            }
            let logged = AgoraCommand::Effect {
                proposal,
                text: format!("ran {inner_text}"),
            };
            let sender = self.sender.clone();
            let key = ctx.key.clone();
            let reply =
                crate::game::variants::agora_command(self.work, &key, &sender, true, &logged)?;
            crate::game::advance::follow(self.work, &key, reply.next)?;
            match reply.answer {
                Ok(m) => self.ok(text, m),
                Err(m) => self.fail(line, text, m),
            }
        }
        Ok(true)
    }
}

/// Commands an `EFFECT` does not run: those that change who the mail speaks
/// for, and another `EFFECT`.
fn not_in_effect(request: &Request) -> Option<&'static str> {
    match request {
        Request::SignOn { .. } | Request::Observe { .. } | Request::Create { .. } => {
            Some("an EFFECT cannot sign on; sign on as master before it")
        }
        Request::Agora(AgoraCommand::Effect { .. }) => Some("an EFFECT cannot hold another EFFECT"),
        _ => None,
    }
}
