//! The sender's own affairs: `REGISTER`, `SET ADDRESS`, `DIARY`; and what
//! guards their passwords: no echo of a password, wrong passwords counted per
//! seat and, past a limit, the seat locked for mail from every address.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use super::{Session, Who, power_by_initial};
use crate::docs::power_name;
use crate::game::EngineError;
use crate::game::model::{DiaryEntry, Role};
use crate::game::request::Vouch;
use crate::game::work::Work;
use crate::grammar::DiaryAction;

/// Wrong passwords for one game within this window count towards [`GUESS_LIMIT`].
pub const GUESS_WINDOW: Duration = Duration::hours(1);
/// Wrong passwords for one seat (from any addresses) within [`GUESS_WINDOW`]
/// after which mail signing on to it is not read, from any address.
pub const GUESS_LIMIT: usize = 10;

/// Event kinds of the password guard.
const EV_REFUSED: &str = "password.refused";
const EV_LOCKED_OUT: &str = "password.locked_out";
const EV_MASTER_TOLD: &str = "password.master_told";

/// A line as it may be echoed: the words that may carry a password replaced
/// by `****`, and those words (to take out of an error message too).
pub(super) struct Masked {
    pub text: String,
    pub secrets: Vec<String>,
    /// The line is a sign-on (`SIGNON`, `CREATE`, `OBSERVE`, `JOIN`, or a
    /// misspelt `SIGNON`): what follows must not speak for an earlier sign-on.
    pub signs_on: bool,
}

const SIGN_ON_WORDS: &[&str] = &["signon", "create", "observe", "join"];

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `word` is `target` or a misspelling of it (a line the grammar could not
/// read may still carry a password).
fn near(word: &str, target: &str) -> bool {
    word == target || (word.len() >= 4 && word != "signoff" && edit_distance(word, target) <= 2)
}

/// How a line that may carry a password is echoed, or `None` when it carries
/// none. Whatever follows the game (or `SET PASSWORD`) is masked, read or not:
/// a line the grammar refused may have its words anywhere.
pub(super) fn mask_line(text: &str) -> Option<Masked> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    if first == "register" {
        return mask_fields(text);
    }
    let second = words.get(1).map(|w| w.to_lowercase());
    let bears_password = SIGN_ON_WORDS.iter().any(|w| near(&first, w));
    // Only a sign-on word, or a misspelt SIGNON, ends the sign-on before it: a
    // line such as "Joint ..." is masked but changes nothing else.
    let signs_on = SIGN_ON_WORDS.contains(&first.as_str()) || near(&first, "signon");
    let keep = if bears_password {
        let rest = &words[1..];
        let lone_initial = rest
            .first()
            .is_some_and(|w| w.chars().count() == 1 && w.chars().all(|c| c.is_alphabetic()));
        match rest.len() {
            n if n >= 3 && lone_initial && near(&first, "signon") => 3,
            n if n >= 2 => 2,
            1 if rest[0].starts_with('?') => 2,
            _ => 1,
        }
    } else if first == "set" && second.as_deref().is_some_and(|w| near(w, "password")) {
        2
    } else {
        return None;
    };
    let secrets: Vec<String> = words[keep.min(words.len())..]
        .iter()
        .filter(|w| **w != "****")
        .map(|w| w.to_string())
        .collect();
    let mut shown = words[..keep.min(words.len())].join(" ");
    if words.len() > keep {
        shown.push_str(" ****");
    }
    Some(Masked {
        text: shown,
        secrets,
        signs_on,
    })
}

/// A `REGISTER` block (its lines joined by ` \\ ` when echoed) with the value of
/// each `password:` field masked.
fn mask_fields(text: &str) -> Option<Masked> {
    let mut secrets = Vec::new();
    let mut mask = |line: &str| match line.split_once(':') {
        Some((key, value))
            if key.trim().eq_ignore_ascii_case("password") && !value.trim().is_empty() =>
        {
            secrets.extend(value.split_whitespace().map(str::to_string));
            format!("{}: ****", key.trim_end())
        }
        _ => line.to_string(),
    };
    let shown: Vec<String> = text
        .split(" \\\\ ")
        .map(|part| {
            part.split('\n')
                .map(&mut mask)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    (!secrets.is_empty()).then(|| Masked {
        text: shown.join(" \\\\ "),
        secrets,
        signs_on: false,
    })
}

/// `message` with every whole-word occurrence of a secret replaced by `****`.
pub(super) fn mask_words(message: &str, secrets: &[String]) -> String {
    let mut out = message.to_string();
    for s in secrets.iter().filter(|s| !s.is_empty()) {
        let mut from = 0;
        while let Some(at) = out[from..].find(s.as_str()).map(|i| i + from) {
            let end = at + s.len();
            let before = out[..at].chars().next_back();
            let after = out[end..].chars().next();
            let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            if boundary(before) && boundary(after) {
                out.replace_range(at..end, "****");
                from = at + 4;
            } else {
                from = end;
            }
        }
    }
    out
}

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

/// The fields of njudge's registration form (and Legate's `password:`).
const FORM_FIELDS: &[&str] = &[
    "name",
    "phone",
    "site",
    "address",
    "country",
    "timezone",
    "time zone",
    "time-zone",
    "tz",
    "zone",
    "e-mail",
    "email",
    "mail",
    "level",
    "birthdate",
    "sex",
    "package",
    "password",
];

/// A time zone as njudge's form writes it (`Eastern`, `Pacific`, `GMT+1`,
/// `EST`) or an IANA name, as an IANA name. njudge counts `GMT+1` east of
/// Greenwich; the IANA `Etc/GMT-1` is that zone (its sign is the other way).
fn njudge_zone(z: &str) -> Option<String> {
    if z.parse::<chrono_tz::Tz>().is_ok() {
        return Some(z.to_string());
    }
    let w = z.trim().to_ascii_lowercase();
    let named = match w.as_str() {
        "eastern" | "est" | "edt" | "us/eastern" => Some("America/New_York"),
        "central" | "cst" | "cdt" => Some("America/Chicago"),
        "mountain" | "mst" | "mdt" => Some("America/Denver"),
        "pacific" | "pst" | "pdt" => Some("America/Los_Angeles"),
        "alaska" | "akst" => Some("America/Anchorage"),
        "hawaii" | "hst" => Some("Pacific/Honolulu"),
        "atlantic" | "ast" => Some("America/Halifax"),
        "gmt" | "utc" | "ut" | "z" => Some("UTC"),
        "bst" => Some("Europe/London"),
        "cet" | "cest" => Some("Europe/Paris"),
        "eet" => Some("Europe/Athens"),
        _ => None,
    };
    if let Some(n) = named {
        return Some(n.to_string());
    }
    let offset = w.strip_prefix("gmt").or_else(|| w.strip_prefix("utc"))?;
    let hours: i32 = offset.trim().trim_start_matches('+').parse().ok()?;
    if !(-12..=14).contains(&hours) {
        return None;
    }
    let iana = match hours {
        0 => "UTC".to_string(),
        h if h > 0 => format!("Etc/GMT-{h}"),
        h => format!("Etc/GMT+{}", -h),
    };
    iana.parse::<chrono_tz::Tz>().ok().map(|_| iana)
}

/// Plausible enough to send mail to: one `@`, something on each side, no spaces.
fn plausible_address(a: &str) -> bool {
    let mut parts = a.split('@');
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(l), Some(d), None) if !l.is_empty() && d.contains('.') && !a.contains(char::is_whitespace)
    )
}

impl Session<'_, '_, '_> {
    /// A line the grammar could not read. A password in it is never echoed; a
    /// sign-on line that could not be read is a refused sign-on: nothing after it
    /// speaks for an earlier one.
    pub(super) fn line_error(
        &mut self,
        line: usize,
        text: &str,
        message: &str,
    ) -> Result<(), EngineError> {
        let Some(masked) = mask_line(text) else {
            self.fail(line, text, message);
            return Ok(());
        };
        let message = mask_words(message, &masked.secrets);
        if masked.signs_on {
            // Orders read before this line belong to the sign-on before it.
            self.flush_orders()?;
            self.fail(line, &masked.text, message);
            self.context = None;
            self.target = None;
            self.failed_signon = Some(line);
        } else {
            self.fail(line, &masked.text, message);
        }
        Ok(())
    }

    /// The addresses that hold the seat `power` (`M`/`master`: the masters) in a
    /// loaded game; empty when there is no such seat.
    fn seat_addresses(&self, key: &str, power: &str) -> Vec<String> {
        let state = &self.work.game(key).state;
        if power.eq_ignore_ascii_case("m") || power.eq_ignore_ascii_case("master") {
            return state.masters().map(|m| m.address.clone()).collect();
        }
        let map = self.work.game(key).map();
        power_by_initial(map, power)
            .and_then(|p| state.player_of(&power_name(map, p)))
            .map(|m| vec![m.address.clone()])
            .unwrap_or_default()
    }

    /// The name a seat's wrong passwords are counted under: `master`, or the
    /// power's name (`F` and `France` are one seat).
    fn seat_label(&self, key: &str, power: &str) -> String {
        if power.eq_ignore_ascii_case("m") || power.eq_ignore_ascii_case("master") {
            return "master".to_string();
        }
        let map = self.work.game(key).map();
        power_by_initial(map, power)
            .map(|p| power_name(map, p))
            .unwrap_or_else(|| power.to_ascii_uppercase())
    }

    /// When the seat `label` of game `id` was given a wrong password at or
    /// after `since`, oldest first.
    fn wrong_passwords(
        &self,
        id: crate::store::GameId,
        label: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, EngineError> {
        Ok(self
            .work
            .tx
            .game_event_details(id, EV_REFUSED, since)?
            .into_iter()
            .filter(|(_, detail)| {
                serde_json::from_str::<serde_json::Value>(detail)
                    .ok()
                    .and_then(|d| d.get("seat").and_then(|s| s.as_str()).map(str::to_string))
                    .is_some_and(|s| s == label)
            })
            .map(|(at, _)| at)
            .collect())
    }

    /// An event of the password guard: kept even if the mail is undone.
    fn keep_event(
        &mut self,
        game: crate::store::GameId,
        kind: &'static str,
        detail: serde_json::Value,
    ) -> Result<(), EngineError> {
        self.work.event(Some(game), kind, detail.clone())?;
        self.held.kept_events.push(super::KeptEvent {
            game: Some(game),
            kind,
            detail,
        });
        Ok(())
    }

    /// `SIGNON <power><game> <password>` with the guard against guessing: every
    /// wrong password is logged with the game and seat; past [`GUESS_LIMIT`]
    /// for one seat within [`GUESS_WINDOW`], the seat is locked for mail from
    /// every address, its own included (anyone can write that address in
    /// From:): its password is not checked, nothing in the mail is applied, and
    /// the masters are told once. Only mail the receiving server vouches for
    /// as coming from the seat's own address passes the lock.
    pub(super) fn guarded_sign_on(
        &mut self,
        line: usize,
        text: &str,
        power: &str,
        game: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.work.load(game)? else {
            return self.sign_on(line, text, power, game, password);
        };
        let seat = self.seat_addresses(&key, power);
        let own = seat.iter().any(|a| a.eq_ignore_ascii_case(&self.sender));
        let id = self.work.game(&key).row.id;
        let name = self.work.game(&key).state.name.clone();
        let label = self.seat_label(&key, power);
        let since = self.now() - GUESS_WINDOW;
        let vouched_own = own && self.vouch == Vouch::Vouched;
        if !seat.is_empty() && !vouched_own {
            let refused = self.wrong_passwords(id, &label, since)?;
            if refused.len() >= GUESS_LIMIT {
                let until = lock_ends(&refused);
                self.keep_event(
                    id,
                    EV_LOCKED_OUT,
                    json!({ "from": self.sender, "seat": label }),
                )?;
                let zone = self.work.zone_of(&self.sender);
                let message = format!(
                    "the seat {label} of {name} has had {} wrong passwords within the last \
                     hour, so it is locked until {} for mail from every address, its own \
                     included; the password was not checked. Sign on again after that.",
                    refused.len(),
                    until.with_timezone(&zone).format("%a %b %d %Y %H:%M %Z")
                );
                self.fail(line, text, &message);
                if self.held.locked.is_none() {
                    self.held.locked = Some(super::Locked {
                        game: id,
                        game_name: name,
                        line,
                        text: text.to_string(),
                        message,
                    });
                }
                return Ok(());
            }
        }
        let errors = self.errors;
        self.sign_on(line, text, power, game, password)?;
        if seat.is_empty() || self.errors == errors {
            return Ok(());
        }
        // The seat exists and the sign-on was refused: the password was wrong.
        self.keep_event(
            id,
            EV_REFUSED,
            json!({ "from": self.sender, "seat": label, "own_address": own }),
        )?;
        let refused = self.wrong_passwords(id, &label, since)?;
        let told = self.work.tx.game_event_times(id, EV_MASTER_TOLD, since)?;
        if refused.len() >= GUESS_LIMIT && told.is_empty() {
            let notice = super::MastersNotice {
                game: id,
                seat: label,
                count: refused.len(),
                until: lock_ends(&refused),
            };
            let sender = self.sender.clone();
            tell_masters_of_guessing(self.work, &key, &notice, &sender)?;
            self.held.masters_notice = Some(notice);
        }
        Ok(())
    }

    /// Why the sender's account may not be changed by this mail, if it may
    /// not. Anyone can write an address in From:, so a change needs proof
    /// that the sender is the address's player: a sign-on earlier in the mail
    /// with the password of a seat held at that address, or (`REGISTER`) the
    /// account's own password. An address that holds no seat and has no
    /// account password has nothing to take over, and registers freely.
    /// Where the judge believes its mail server, mail it does not vouch for
    /// changes no account at all.
    pub(super) fn account_change_refusal(
        &self,
        account_password: Option<&str>,
    ) -> Result<Option<String>, EngineError> {
        let sender = &self.sender;
        if self.vouch == Vouch::Unvouched {
            return Ok(Some(format!(
                "this judge changes account settings only in mail its mail server vouches \
                 for (DKIM or DMARC) as coming from {sender}; it did not vouch for this \
                 one, so nothing was changed"
            )));
        }
        if self.held.signed_own {
            return Ok(None);
        }
        let Some(account) = self.work.tx.account_by_address(sender)? else {
            return Ok(None);
        };
        if let (Some(hash), Some(given)) = (&account.password_hash, account_password)
            && crate::store::verify_password(given, hash)
        {
            return Ok(None);
        }
        let seats = self.work.tx.memberships_of(account.id)?;
        if account.password_hash.is_none() && seats.is_empty() {
            return Ok(None);
        }
        Ok(Some(format!(
            "the settings of {sender} change only in a mail that first signs on with the \
             password of a seat held at {sender} (SIGNON <power><game> <password>){}; this \
             one did not, so nothing was changed. Anyone can write an address in From:; \
             if you did not send this mail, someone is writing in your name",
            if account.password_hash.is_some() {
                ", or in a REGISTER whose password: line is the account's password"
            } else {
                ""
            }
        )))
    }

    pub(super) fn register(
        &mut self,
        line: usize,
        text: &str,
        fields: &[(String, String)],
    ) -> Result<(), EngineError> {
        let masked = mask_line(text);
        let text = masked.as_ref().map_or(text, |m| m.text.as_str());
        let Some(name) = field(fields, &["name"]) else {
            self.fail(line, text, "REGISTER needs a \"name:\" line before END");
            return Ok(());
        };
        // njudge's form lists several addresses, on one line or several.
        let emails: Vec<&str> = fields
            .iter()
            .filter(|(k, _)| EMAIL.contains(&k.as_str()))
            .flat_map(|(_, v)| v.split([',', ' ', '\t']))
            .filter(|a| !a.is_empty())
            .collect();
        if let Some(email) = emails.first()
            && !emails.iter().any(|a| a.eq_ignore_ascii_case(&self.sender))
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
        let zone = match field(fields, ZONE).map(|z| (z, njudge_zone(z))) {
            None => None,
            Some((_, Some(z))) => Some(z),
            Some((z, None)) => {
                self.fail(
                    line,
                    text,
                    format!(
                        "unknown time zone {z:?} (use an IANA name such as Europe/London, \
                         or Eastern, Central, Mountain, Pacific, GMT, GMT+1 ...)"
                    ),
                );
                return Ok(());
            }
        };
        let zone = zone.as_deref();
        let password = field(fields, &["password"]);
        if password.is_some_and(|p| p.len() < 4) {
            self.fail(line, text, "a password needs at least 4 characters");
            return Ok(());
        }
        if let Some(why) = self.account_change_refusal(field(fields, &["password"]))? {
            self.fail(line, text, why);
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
                zone.unwrap_or(self.work.default_zone.name()),
                now,
            )?,
        };
        // The registration's other fields (name, postal address, ...) are kept
        // in the event log; the password is not.
        let kept: serde_json::Map<String, serde_json::Value> = fields
            .iter()
            .filter(|(k, _)| k != "password" && FORM_FIELDS.contains(&k.as_str()))
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
        let mut notes = String::new();
        let others: Vec<&&str> = emails
            .iter()
            .filter(|a| !a.eq_ignore_ascii_case(&self.sender))
            .collect();
        if !others.is_empty() {
            let list: Vec<&str> = others.iter().map(|a| **a).collect();
            notes.push_str(&format!(
                "\nNot linked to this registration: {} (a mail cannot prove another \
                 address is yours; register from each address you play from).",
                list.join(", ")
            ));
        }
        let unknown: Vec<&str> = fields
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !FORM_FIELDS.contains(k))
            .collect();
        if !unknown.is_empty() {
            notes.push_str(&format!(
                "\nNot a field of the registration form, so not registered: {} \
                 (the fields: Name, Phone, Site, Address, Country, Timezone, Email, Level, \
                 Birthdate, Sex, Package, Password).",
                unknown.join(", ")
            ));
        }
        self.ok(
            text,
            format!(
                "Registered {name} <{}>; times are shown in {zone_shown}.{notes}",
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
        if !self.held.signed {
            self.fail(
                line,
                text,
                "a seat's mail moves only in a mail that signs on to it with its password \
                 (SIGNON <power><game> <password>) before SET ADDRESS; nothing was changed",
            );
            return Ok(());
        }
        if new.eq_ignore_ascii_case(&self.work.judge_address) {
            self.fail(
                line,
                text,
                format!("{new} is this judge's own address; a seat's mail cannot go there"),
            );
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
                // The address the seat leaves hears of it: whoever sent this
                // knew the password, and the player should know it was used.
                if !old.eq_ignore_ascii_case(&new) && !old.eq_ignore_ascii_case(&sender) {
                    let body = format!(
                        ":: Judge: {judge}  Game: {name}\n\n\
                         Mail for your seat in {name} now goes to {new}, as asked in a mail \
                         from {sender} that gave the seat's password. If you did not ask \
                         for this, tell the game's master.\n",
                        judge = self.work.judge
                    );
                    let subject = format!("{}:{name} - Address changed", self.work.judge);
                    self.work.send(&old, subject, body, Some(id), false);
                }
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

/// Tells a game's masters, once an hour, that a seat of theirs is locked.
pub(crate) fn tell_masters_of_guessing(
    work: &mut Work<'_, '_>,
    key: &str,
    notice: &super::MastersNotice,
    from: &str,
) -> Result<(), EngineError> {
    let g = work.game(key);
    let (id, name) = (g.row.id, g.state.name.clone());
    let masters: Vec<String> = g.state.masters().map(|m| m.address.clone()).collect();
    let subject = format!("{}:{name} - Wrong passwords", work.judge);
    let (count, seat) = (notice.count, &notice.seat);
    for to in &masters {
        let zone = work.zone_of(to);
        let body = format!(
            ":: Judge: {}  Game: {name}\n\n\
             {count} wrong passwords were given for the seat {seat} in {name} within the \
             last hour, the last in a mail from {from}. Until {}, mail that signs on to \
             that seat is not read, from whatever address it comes (anyone can write a \
             player's address in From:), unless the receiving mail server vouches for \
             it as the seat's own.\n\n\
             If a player's password may be known to someone else, the player can change \
             it with SET PASSWORD.\n",
            work.judge,
            notice
                .until
                .with_timezone(&zone)
                .format("%a %b %d %Y %H:%M %Z"),
        );
        work.send(to, subject.clone(), body, Some(id), false);
    }
    work.event(
        Some(id),
        EV_MASTER_TOLD,
        json!({ "masters": masters, "refused": count }),
    )?;
    Ok(())
}

/// When a lock that `refused` (times of wrong passwords in the window, oldest
/// first, at least [`GUESS_LIMIT`]) caused ends: when all but `GUESS_LIMIT - 1`
/// of them have left the window.
fn lock_ends(refused: &[DateTime<Utc>]) -> DateTime<Utc> {
    let at = refused.len().saturating_sub(GUESS_LIMIT);
    refused.get(at).copied().unwrap_or_default() + GUESS_WINDOW
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_words_are_masked_read_or_not() {
        let m = |t: &str| mask_line(t).map(|m| m.text);
        assert_eq!(
            m("SIGNON Fgame secret extra").as_deref(),
            Some("SIGNON Fgame ****")
        );
        assert_eq!(
            m("signon F game secret").as_deref(),
            Some("signon F game ****")
        );
        assert_eq!(m("SIGNON F secret").as_deref(), Some("SIGNON F ****"));
        assert_eq!(m("SIGNON secret").as_deref(), Some("SIGNON ****"));
        assert_eq!(m("SIGNN Fgame secret").as_deref(), Some("SIGNN Fgame ****"));
        assert_eq!(
            m("CREATE ?g secret standard").as_deref(),
            Some("CREATE ?g ****")
        );
        assert_eq!(m("OBSERVE g secret").as_deref(), Some("OBSERVE g ****"));
        assert_eq!(
            m("SET PASSWORD a b c").as_deref(),
            Some("SET PASSWORD ****")
        );
        assert_eq!(m("SET PASWORD abc").as_deref(), Some("SET PASWORD ****"));
        assert_eq!(m("SET WAIT"), None);
        assert_eq!(m("A Par - Bur"), None);
        assert_eq!(m("SIGNOFF"), None);
        assert_eq!(
            m("REGISTER \\\\ name: Ann \\\\ Password: pw 1 \\\\ END").as_deref(),
            Some("REGISTER \\\\ name: Ann \\\\ Password: **** \\\\ END")
        );
        assert_eq!(m("REGISTER \\\\ name: Ann \\\\ END"), None);
        let ends = |t: &str| mask_line(t).is_some_and(|m| m.signs_on);
        assert!(ends("SIGNN Fgame secret"));
        assert!(ends("observe g secret more"));
        assert!(!ends("Joint A Par - Bur"), "masked only");
        assert!(!ends("SET PASSWORD a b"));
    }

    #[test]
    fn secrets_leave_messages_as_whole_words_only() {
        let secrets = vec!["b".to_string(), "pw1".to_string()];
        assert_eq!(
            mask_words("col 16: unexpected \"b\" about pw1; but not pw12", &secrets),
            "col 16: unexpected \"****\" about ****; but not pw12"
        );
    }
}
