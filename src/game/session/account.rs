//! The sender's own affairs: `REGISTER`, `SET ADDRESS`, `DIARY`.

use serde_json::json;

use super::{Session, Who};
use crate::game::EngineError;
use crate::game::model::{DiaryEntry, Role};
use crate::grammar::DiaryAction;

/// The value of the first of `keys` present in a `REGISTER` block.
fn field<'f>(fields: &'f [(String, String)], keys: &[&str]) -> Option<&'f str> {
    fields
        .iter()
        .find(|(k, _)| keys.contains(&k.as_str()))
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

const EMAIL: &[&str] = &["e-mail", "email", "mail"];
const ZONE: &[&str] = &["timezone", "time zone", "time-zone", "tz", "zone"];

/// Plausible enough to send mail to: one `@`, something on each side, no spaces.
fn plausible_address(a: &str) -> bool {
    let mut parts = a.split('@');
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(l), Some(d), None) if !l.is_empty() && d.contains('.') && !a.contains(char::is_whitespace)
    )
}

impl Session<'_, '_, '_> {
    pub(super) fn register(
        &mut self,
        line: usize,
        text: &str,
        fields: &[(String, String)],
    ) -> Result<(), EngineError> {
        let Some(name) = field(fields, &["name"]) else {
            self.fail(line, text, "REGISTER needs a \"name:\" line before END");
            return Ok(());
        };
        if let Some(email) = field(fields, EMAIL)
            && !email.eq_ignore_ascii_case(&self.sender)
        {
            self.fail(
                line,
                text,
                format!(
                    "e-mail {email} is not the address this mail came from ({}); \
                     register from the address you play from",
                    self.sender
                ),
            );
            return Ok(());
        }
        let zone = field(fields, ZONE);
        if let Some(z) = zone
            && z.parse::<chrono_tz::Tz>().is_err()
        {
            self.fail(
                line,
                text,
                format!("unknown time zone {z:?} (use an IANA name such as Europe/London)"),
            );
            return Ok(());
        }
        let password = field(fields, &["password"]);
        if password.is_some_and(|p| p.len() < 4) {
            self.fail(line, text, "a password needs at least 4 characters");
            return Ok(());
        }
        let hash = password.map(crate::store::hash_password).transpose()?;
        let now = self.now();
        let id = match self.work.tx.account_by_address(&self.sender)? {
            Some(mut a) => {
                if let Some(z) = zone {
                    a.time_zone = z.to_string();
                }
                if hash.is_some() {
                    a.password_hash = hash;
                }
                self.work.tx.update_account(&a)?;
                a.id
            }
            None => self.work.tx.insert_account(
                &self.sender,
                hash.as_deref(),
                zone.unwrap_or("UTC"),
                now,
            )?,
        };
        // The registration's other fields (name, postal address, ...) are kept
        // in the event log; the password is not.
        let kept: serde_json::Map<String, serde_json::Value> = fields
            .iter()
            .filter(|(k, _)| k != "password")
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        self.work.tx.append_event(&crate::store::NewEvent {
            at: now,
            game: None,
            account: Some(id),
            inbound: self.work.inbound,
            kind: "account.registered",
            detail: &serde_json::Value::Object(kept).to_string(),
        })?;
        let zone_shown = match zone {
            Some(z) => z.to_string(),
            None => self.work.zone_of(&self.sender).name().to_string(),
        };
        self.ok(
            text,
            format!(
                "Registered {name} <{}>; times are shown in {zone_shown}.",
                self.sender
            ),
        );
        Ok(())
    }

    pub(super) fn set_address(
        &mut self,
        line: usize,
        text: &str,
        address: Option<&str>,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let new = address.unwrap_or(&self.sender).trim().to_string();
        if !plausible_address(&new) {
            self.fail(line, text, format!("{new:?} is not a mail address"));
            return Ok(());
        }
        let sender = self.sender.clone();
        let g = self.work.game_mut(&ctx.key);
        let name = g.state.name.clone();
        let role = match &ctx.who {
            Who::Power(_) | Who::Joined => Role::Player,
            Who::Master => Role::Master,
            Who::Observer => Role::Observer,
        };
        if g.state
            .members
            .iter()
            .any(|m| m.role == role && m.address.eq_ignore_ascii_case(&new))
            && !new.eq_ignore_ascii_case(&sender)
        {
            self.fail(
                line,
                text,
                format!("{new} already has such a seat in {name}"),
            );
            return Ok(());
        }
        let seat = match &ctx.who {
            Who::Power(p) => g.state.player_of_mut(p),
            _ => g
                .state
                .members
                .iter_mut()
                .find(|m| m.role == role && m.address.eq_ignore_ascii_case(&sender)),
        };
        match seat {
            Some(m) => {
                let old = std::mem::replace(&mut m.address, new.clone());
                let id = self.work.game(&ctx.key).row.id;
                self.work.event(
                    Some(id),
                    "member.address",
                    json!({ "from": old, "to": new }),
                )?;
                self.ok(
                    text,
                    format!("Mail for your seat in {name} now goes to {new}."),
                );
            }
            None => self.fail(line, text, format!("you have no seat in {name} to move")),
        }
        Ok(())
    }

    pub(super) fn diary(
        &mut self,
        line: usize,
        text: &str,
        action: &DiaryAction,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let sender = self.sender.clone();
        let mine = |e: &DiaryEntry| e.author.eq_ignore_ascii_case(&sender);
        let g = self.work.game(&ctx.key);
        let name = g.state.name.clone();
        let count = g.state.diary.iter().filter(|e| mine(e)).count();
        // The n-th (1-based) of the sender's entries, as an index into the diary.
        let nth = |n: u32| -> Option<usize> {
            g.state
                .diary
                .iter()
                .enumerate()
                .filter(|(_, e)| mine(e))
                .nth((n as usize).checked_sub(1)?)
                .map(|(i, _)| i)
        };
        match action {
            DiaryAction::Record(body) => {
                if body.trim().is_empty() {
                    self.fail(
                        line,
                        text,
                        "the diary entry is empty (its text goes up to ENDPRESS)",
                    );
                    return Ok(());
                }
                let entry = DiaryEntry {
                    author: sender.clone(),
                    power: match &ctx.who {
                        Who::Power(p) => Some(p.clone()),
                        _ => None,
                    },
                    phase: g.state.phase_name().map(str::to_string),
                    at: self.now(),
                    text: body.clone(),
                };
                self.work.game_mut(&ctx.key).state.diary.push(entry);
                self.ok(
                    text,
                    format!(
                        "Diary entry {} kept with {name}; it is yours alone and comes back to you when the game ends.",
                        count + 1
                    ),
                );
            }
            DiaryAction::List => {
                let mut out = format!(
                    "Your diary in {name}: {count} entr{}.\n",
                    if count == 1 { "y" } else { "ies" }
                );
                for (i, e) in g.state.diary.iter().filter(|e| mine(e)).enumerate() {
                    let first = e.text.lines().next().unwrap_or("");
                    out.push_str(&format!(
                        "  {:>2}. {} {}\n",
                        i + 1,
                        e.phase.as_deref().unwrap_or("-"),
                        first
                    ));
                }
                self.ok(text, out.trim_end());
            }
            DiaryAction::Read(n) => match nth(*n) {
                Some(i) => {
                    let e = &g.state.diary[i];
                    let body = format!(
                        "Diary entry {n} ({}):\n{}",
                        e.phase.as_deref().unwrap_or("-"),
                        e.text
                    );
                    self.ok(text, body);
                }
                None => self.fail(line, text, format!("you have no diary entry {n} in {name}")),
            },
            DiaryAction::Delete(n) => match nth(*n) {
                Some(i) => {
                    self.work.game_mut(&ctx.key).state.diary.remove(i);
                    self.ok(text, format!("Diary entry {n} deleted."));
                }
                None => self.fail(line, text, format!("you have no diary entry {n} in {name}")),
            },
        }
        Ok(())
    }
}
