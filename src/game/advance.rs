//! Moving a game forward: starting it, processing phases, the deadline and
//! grace, late powers, and the end of the game.

use chrono::{DateTime, Utc};
use serde_json::json;

use super::EngineError;
pub use super::clock::late_powers;
use super::clock::played_powers;
pub(crate) use super::clock::{reschedule_for_absences, schedule};
use super::model::{GameState, Outcome, Role, Status};
pub(crate) use super::notice::{broadcast, deadline_line, subject};
use super::orders_check::owes_orders;
use super::process::{self, position_of, survivors};
use super::results;
use super::variants::{Audience, Next, Started, Tell, Variant};
use super::work::Work;
use crate::docs::power_name;
use crate::lots::LotSecret;
use crate::map::Map;
use crate::schedule::{self};
use crate::store::NewPhase;

/// Every power that owes orders has complete orders, at least one power owes
/// orders, and nobody asked to wait.
pub(crate) fn ready(
    variant: &dyn Variant,
    map: &Map,
    state: &GameState,
) -> Result<bool, EngineError> {
    if state.status != Status::Active
        || state
            .members
            .iter()
            .any(|m| m.wait && m.role == Role::Player)
    {
        return Ok(false);
    }
    let position = position_of(map, state)?;
    if let Some(r) = variant.ready(state, position.phase.kind) {
        return Ok(r);
    }
    let owing = played_powers(map, state)
        .into_iter()
        .filter(|(p, _)| owes_orders(map, &position, *p))
        .count();
    Ok(owing > 0 && late_powers(variant, map, state)?.is_empty())
}

/// Starts a forming game: powers by preference and lot, the opening board,
/// the first deadline, and an announcement to everyone.
pub(crate) fn start(work: &mut Work<'_, '_>, key: &str) -> Result<(), EngineError> {
    let g = work.game_mut(key);
    g.variant.before_start(&mut g.state);
    g.resolve_variant();
    let variant = g.variant;
    match variant.start(work, key)? {
        Started::Generic => start_by_lot(work, key, variant),
        Started::Held(tell) => match tell {
            Some(t) => send_tell(work, key, &t),
            None => Ok(()),
        },
        Started::Seated {
            opening,
            announcement,
            detail,
        } => {
            let now = work.now;
            let judge = work.judge.clone();
            let g = work.game_mut(key);
            let map = g.map();
            g.state.status = Status::Active;
            variant.started(&mut g.state);
            process::enter_phase(variant, map, &mut g.state, &opening);
            schedule(map, &mut g.state, now)?;
            let (id, state) = (g.row.id, g.state.clone());
            let subject = subject(&judge, &state, "Game starting");
            broadcast(work, &state, &subject, &announcement, Some(id))?;
            work.event(Some(id), "game.started", detail)
        }
    }
}

/// The engine's start: powers by preference and lot (njudge's PRFRAND: by
/// lot alone), players beyond the powers on the stand-by list, the
/// variant's opening board, the first deadline, and the announcement.
fn start_by_lot(
    work: &mut Work<'_, '_>,
    key: &str,
    variant: &'static dyn Variant,
) -> Result<(), EngineError> {
    let now = work.now;
    let judge = work.judge.clone();
    let g = work.game_mut(key);
    let map = g.map();
    let secret = g.lot_secret()?;
    let powers = variant.playable_powers(&g.state, map);
    let (assigned, draws) = super::assign::assign_players(&secret, &g.state, &powers)?;
    for (address, power) in &assigned {
        if let Some(m) = g
            .state
            .members
            .iter_mut()
            .find(|m| m.role == Role::Player && m.address == *address)
        {
            m.power = Some(power.clone());
        }
    }
    // Players beyond the number of powers wait on the stand-by list.
    for m in g
        .state
        .members
        .iter_mut()
        .filter(|m| m.role == Role::Player && m.power.is_none())
    {
        m.role = Role::Standby;
    }
    g.state.draws.extend(draws);
    g.state.status = Status::Active;
    variant.started(&mut g.state);
    process::enter_phase(variant, map, &mut g.state, &variant.opening(map));
    schedule(map, &mut g.state, now)?;
    let mut body = format!("Game {} has started.\n\nPowers:\n", g.state.name);
    for (address, power) in &assigned {
        body.push_str(&format!("  {power:<10} {address}\n"));
    }
    if let Some(notes) = variant.start_notes() {
        body.push('\n');
        body.push_str(notes);
    }
    body.push_str(&format!(
        "\nLot commitment (SHA-256 of the game's secret): {}\n",
        g.state.lot_commitment.clone().unwrap_or_default()
    ));
    for d in &g.state.draws {
        body.push_str(&format!("Drawn by lot: {}: {}\n", d.purpose, d.winner()));
    }
    let (id, state) = (g.row.id, g.state.clone());
    let opening = opening_position(variant, &state);
    let subject = subject(&judge, &state, "Game starting");
    for to in state.audience() {
        // njudge: each player is told which power is theirs.
        let yours = assigned
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(&to))
            .map(|(_, p)| format!("You are {p} in {}.\n\n", state.name))
            .unwrap_or_default();
        let tz = work.zone_of(&to);
        let text = format!(
            ":: Judge: {judge}  Game: {}\n{}\n\n{yours}{body}{opening}",
            state.name,
            deadline_line(&state, tz, work.now)
        );
        work.send(&to, subject.clone(), text, Some(id), false);
    }
    work.event(Some(id), "game.started", json!({ "powers": assigned }))?;
    Ok(())
}

/// The opening position, as the start notice shows it: units and centers.
fn opening_position(variant: &dyn Variant, state: &GameState) -> String {
    let Some(doc) = &state.position else {
        return String::new();
    };
    let doc = doc.relabelled(&variant.display_names(state));
    format!(
        "\nThe opening position:\n{}\n{}",
        results::units(&doc),
        results::centers(&doc)
    )
}

/// Processes the current phase now, whatever orders are missing (civil
/// disorder for them), then every following phase that is already complete.
pub(crate) fn process_now(work: &mut Work<'_, '_>, key: &str) -> Result<usize, EngineError> {
    let mut count = 0;
    loop {
        process_one(work, key)?;
        count += 1;
        let g = work.game(key);
        if count >= 16 || !ready(g.variant, g.map(), &g.state)? {
            return Ok(count);
        }
    }
}

/// Processes when every order is in (early processing). Returns phases
/// processed. `changed`: this mail changed the phase's orders, which restarts
/// njudge's `DELAY`.
pub(crate) fn process_if_ready(
    work: &mut Work<'_, '_>,
    key: &str,
    changed: bool,
) -> Result<usize, EngineError> {
    let g = work.game(key);
    let map = g.map();
    if !ready(g.variant, map, &g.state)? {
        return Ok(0);
    }
    // njudge's MIN and DELAY: the deadline comes forward to the first moment
    // both allow, and the phase is processed then.
    let now = work.now;
    if let Some(at) = held_until(map, &g.state, now)? {
        let clock = &mut work.game_mut(key).state.clock;
        // Changed orders count from the deadline the phase had; otherwise
        // the phase keeps the earlier of the two.
        let scheduled = match clock.held_from {
            Some(d) if changed => Some(d),
            _ => clock.deadline,
        };
        if scheduled.is_none_or(|d| at < d) {
            // Grace stays: orders withdrawn meanwhile are late at the
            // deadline, not abandoned before the grace they had.
            clock.held_from = clock.held_from.or(clock.deadline);
            clock.deadline = Some(at);
        } else if changed && clock.held_from.is_some() {
            clock.deadline = clock.held_from.take();
        }
        return Ok(0);
    }
    process_now(work, key)
}

/// When the phase's `MIN` and `DELAY` let complete orders be processed, if
/// later than `now`.
fn held_until(
    map: &Map,
    state: &GameState,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, EngineError> {
    let kind = position_of(map, state)?.phase.kind;
    let sched = state.settings.schedule.for_kind(kind);
    let minutes = |m: u32| chrono::Duration::minutes(i64::from(m));
    let mut at = now + minutes(sched.delay_minutes);
    if let Some(start) = state.clock.started {
        at = at.max(start + minutes(sched.min_minutes));
    }
    Ok((at > now).then_some(at))
}

/// One phase: played by the variant or adjudicated by the judge, then
/// recorded, the next deadline set, the results mailed to each reader with
/// the board picture, and the end of the game announced if it came.
fn process_one(work: &mut Work<'_, '_>, key: &str) -> Result<(), EngineError> {
    let now = work.now;
    let judge = work.judge.clone();
    let variant = work.game(key).variant;
    let played = match variant.play(work, key)? {
        Some(played) => played,
        None => {
            let g = work.game_mut(key);
            let map = g.map();
            process::process(variant, map, &mut g.state)?
        }
    };
    let g = work.game(key);
    let map = g.map();
    let done = &played.processed;
    let id = g.row.id;
    let record = NewPhase {
        game: id,
        phase: &done.phase,
        position_before: &to_json(&done.before),
        orders: &to_json(&done.orders),
        results: &to_json(&done.results),
        position_after: &to_json(&done.after),
        processed_at: now,
    };
    let record = work.tx.insert_phase(&record)?;
    let g = work.game_mut(key);
    let finished = g.state.status == Status::Finished;
    if !finished {
        schedule(map, &mut g.state, now)?;
        // The variant's reckoning of the turn comes before the report, so the
        // report shows the game as the turn left it (Agora: who ceased to be a
        // contestant, whether a draw may now be declared).
        variant.after_phase(work, key, &played.adjudication.after)?;
    }
    if let Some(own) = &played.own {
        own.recorded(work, key, record.0)?;
    }
    let state = work.game(key).state.clone();
    let seq = u32::try_from(state.next_seq).unwrap_or(u32::MAX);
    let report = results::report_of(
        variant,
        map,
        &state,
        &judge,
        &played.before,
        &played.adjudication,
        seq,
    );
    let subj = format!("{judge}:{} - {} results", state.name, done.phase);
    // Each reader gets the report as their part in the game lets them see it,
    // with times in their own zone.
    let mut pictures = super::pictures::Pictures::new(map, &report, &state.name, &done.phase);
    for to in state.audience() {
        let zone = work.zone_of(&to);
        let who = results::recipient(map, &state, &to, zone);
        let body = match &played.own {
            Some(own) => own.text_for(&state, &judge, &to, zone, now),
            None => {
                let mut body = results::text_for(map, &report, &who);
                body.push_str(&variant.reader_lines(&state, &to));
                body
            }
        };
        work.send(&to, subj.clone(), body, Some(id), false);
        work.attach(pictures.for_reader(&who));
    }
    work.event(Some(id), "phase.processed", json!({ "phase": done.phase }))?;
    if finished {
        if let Some(tell) = played
            .own
            .as_ref()
            .and_then(|o| o.last_word(&state, &judge))
        {
            send_tell(work, key, &tell)?;
        }
        announce_end(work, key)?;
    }
    Ok(())
}

/// Ends the game with `outcome`.
pub(crate) fn finish(
    work: &mut Work<'_, '_>,
    key: &str,
    outcome: Outcome,
) -> Result<(), EngineError> {
    let g = work.game_mut(key);
    g.state.outcome = Some(outcome);
    g.state.status = Status::Finished;
    g.state.paused_from = None;
    announce_end(work, key)
}

fn announce_end(work: &mut Work<'_, '_>, key: &str) -> Result<(), EngineError> {
    let judge = work.judge.clone();
    let g = work.game(key);
    let state = g.state.clone();
    let id = g.row.id;
    let how = match &state.outcome {
        Some(Outcome::Solo { power }) => format!("{power} has won the game."),
        Some(Outcome::Draw { powers }) => {
            format!("The game is drawn between {}.", powers.join(", "))
        }
        Some(Outcome::Concession { power }) => format!("The game is conceded to {power}."),
        Some(Outcome::Terminated) | None => "The game has been terminated.".to_string(),
    };
    let secret = g.secret.as_ref().map(LotSecret::to_hex).unwrap_or_default();
    let body = format!(
        "{how}\n\nThe game's lot secret is {secret}\nIts SHA-256 is the commitment announced at the start: {}\n\
         Every draw by lot can now be checked with `legate verify-lots {}`.\n",
        state.lot_commitment.clone().unwrap_or_default(),
        state.name
    );
    broadcast(
        work,
        &state,
        &format!("{judge}:{} - Game over", state.name),
        &body,
        Some(id),
    )?;
    give_back_diaries(work, &state, Some(id));
    work.event(
        Some(id),
        "game.finished",
        json!({ "outcome": state.outcome }),
    )?;
    Ok(())
}

/// Each diary author gets their entries back when the game ends.
fn give_back_diaries(work: &mut Work<'_, '_>, state: &GameState, id: Option<crate::store::GameId>) {
    let mut authors: Vec<String> = Vec::new();
    for e in &state.diary {
        if !authors.iter().any(|a| a.eq_ignore_ascii_case(&e.author)) {
            authors.push(e.author.clone());
        }
    }
    for author in authors {
        let mut body = format!("Your diary of {}, now that the game is over:\n", state.name);
        for (i, e) in state
            .diary
            .iter()
            .filter(|e| e.author.eq_ignore_ascii_case(&author))
            .enumerate()
        {
            body.push_str(&format!(
                "\n{}. {} ({}{}):\n{}\n",
                i + 1,
                schedule::format_in(e.at, work.zone_of(&author)),
                e.phase.as_deref().unwrap_or("-"),
                e.power
                    .as_deref()
                    .map(|p| format!(", {p}"))
                    .unwrap_or_default(),
                e.text
            ));
        }
        let subject = format!("{}:{} - Diary", work.judge, state.name);
        work.send(&author, subject, body, id, false);
    }
}

/// What the clock asks for a game at `now`: process, send late notices, put
/// late powers in civil disorder or mark them abandoned.
pub(crate) fn due(work: &mut Work<'_, '_>, key: &str) -> Result<usize, EngineError> {
    let now = work.now;
    let judge = work.judge.clone();
    let g = work.game(key);
    let variant = g.variant;
    if g.state.status == Status::Forming {
        let next = variant.forming_due(work, key)?;
        follow(work, key, next)?;
        return Ok(0);
    }
    if g.state.status == Status::Paused {
        return super::pause::remind(work, key);
    }
    if g.state.status != Status::Active {
        return Ok(0);
    }
    if let Some(next) = variant.due(work, key)? {
        follow(work, key, next)?;
        return Ok(0);
    }
    let g = work.game(key);
    let map = g.map();
    let (Some(deadline), grace) = (g.state.clock.deadline, g.state.clock.grace) else {
        return Ok(0);
    };
    if now < deadline {
        return Ok(0);
    }
    let late = late_powers(variant, map, &g.state)?;
    let waiting = g
        .state
        .members
        .iter()
        .any(|m| m.wait && m.role == Role::Player);
    if late.is_empty() && !waiting {
        return process_now(work, key);
    }
    let id = g.row.id;
    if !g.state.clock.late_notice_sent {
        let state = g.state.clone();
        let body = format!(
            "The deadline for {} has passed. Orders are still missing for: {}.\n",
            state.phase_name().unwrap_or(""),
            if late.is_empty() {
                "nobody (a player asked to wait)".to_string()
            } else {
                late.join(", ")
            }
        );
        for power in &late {
            if let Some(m) = state.player_of(power) {
                let to = m.address.clone();
                let tz = work.zone_of(&to);
                let text = format!("{}\n\n{body}", deadline_line(&state, tz, now));
                work.send(
                    &to,
                    subject(&judge, &state, "Late notice"),
                    text,
                    Some(id),
                    false,
                );
            }
        }
        let masters: Vec<String> = state.masters().map(|m| m.address.clone()).collect();
        for to in masters {
            work.send(
                &to,
                subject(&judge, &state, "Late notice"),
                body.clone(),
                Some(id),
                false,
            );
        }
        work.game_mut(key).state.clock.late_notice_sent = true;
        work.event(Some(id), "phase.late", json!({ "late": late }))?;
    }
    let g = work.game(key);
    if now < grace.unwrap_or(deadline) {
        return Ok(0);
    }
    if g.state.settings.nmr || late.is_empty() {
        // NMR: the late powers' units get the civil-disorder defaults.
        work.event(Some(id), "phase.civil_disorder", json!({ "powers": late }))?;
        return process_now(work, key);
    }
    // No NMR: the late players are marked abandoned; each is announced once
    // per phase, and a stand-by player takes the power over if there is one.
    let g = work.game_mut(key);
    let mut newly = Vec::new();
    for power in &late {
        if let Some(m) = g.state.player_of_mut(power) {
            m.abandoned = true;
        }
        if !g.state.clock.abandon_announced.contains(power) {
            g.state.clock.abandon_announced.push(power.clone());
            newly.push(power.clone());
        }
    }
    if !newly.is_empty() {
        let state = g.state.clone();
        let body = format!(
            "Grace has ended without orders from: {}. The game waits for them (or a replacement); \
             the master may PROCESS to put them in civil disorder.\n",
            newly.join(", ")
        );
        broadcast(
            work,
            &state,
            &subject(&judge, &state, "Abandoned"),
            &body,
            Some(id),
        )?;
        work.event(Some(id), "phase.abandoned", json!({ "powers": newly }))?;
    }
    for power in &late {
        replace_with_standby(work, key, power)?;
    }
    Ok(0)
}

/// Powers that need a player: abandoned ones, and surviving powers nobody plays.
pub(crate) fn vacant_powers(
    variant: &dyn Variant,
    map: &Map,
    state: &GameState,
) -> Result<Vec<String>, EngineError> {
    let position = position_of(map, state)?;
    Ok(survivors(map, &position)
        .into_iter()
        .filter(|p| variant.has_seat(state, *p))
        .map(|p| power_name(map, p))
        .filter(|name| state.player_of(name).is_none_or(|m| m.abandoned))
        .collect())
}

/// Hands `power` to the first player on the stand-by list, if any: the old
/// player leaves the game, the new one plays with the password they joined
/// with and gets a fresh deadline. Returns the new player's address.
pub(crate) fn replace_with_standby(
    work: &mut Work<'_, '_>,
    key: &str,
    power: &str,
) -> Result<Option<String>, EngineError> {
    let now = work.now;
    let judge = work.judge.clone();
    let g = work.game_mut(key);
    if !matches!(g.state.status, Status::Active | Status::Paused) {
        return Ok(None);
    }
    let Some(i) = g.state.members.iter().position(|m| m.role == Role::Standby) else {
        return Ok(None);
    };
    let map = g.map();
    let old = g
        .state
        .members
        .iter()
        .position(|m| m.role == Role::Player && m.power.as_deref() == Some(power));
    let old_address = old.map(|o| g.state.members[o].address.clone());
    let new = &mut g.state.members[i];
    new.role = Role::Player;
    new.power = Some(power.to_string());
    new.abandoned = false;
    new.preferences.clear();
    let new_address = new.address.clone();
    if let Some(o) = old {
        g.state.members.remove(o);
    }
    // The newcomer, if late in turn, is announced as such.
    g.state.clock.abandon_announced.retain(|p| p != power);
    // The newcomer gets a whole period to read the board and order.
    if g.state.status == Status::Active {
        schedule(map, &mut g.state, now)?;
    }
    let (id, state) = (g.row.id, g.state.clone());
    let tz = work.zone_of(&new_address);
    let welcome = format!(
        ":: Judge: {judge}  Game: {name}\n{deadline}\n\n\
         You have taken over {power} in {name} from the stand-by list.\n\
         Sign on with SIGNON {initial}{name} <the password you joined with>.\n",
        name = state.name,
        deadline = deadline_line(&state, tz, now),
        initial = power.chars().next().unwrap_or('?'),
    );
    work.send(
        &new_address,
        subject(&judge, &state, &format!("You now play {power}")),
        welcome,
        Some(id),
        false,
    );
    if let Some(old) = &old_address {
        work.send(
            old,
            subject(&judge, &state, "Replaced"),
            format!(
                "{power} in {} has been handed to a stand-by player; you are no longer in the game.\n",
                state.name
            ),
            Some(id),
            false,
        );
    }
    let body = format!("{power} is now played by {new_address}, from the stand-by list.\n");
    broadcast(
        work,
        &state,
        &subject(&judge, &state, "Replacement"),
        &body,
        Some(id),
    )?;
    work.event(
        Some(id),
        "member.replaced",
        json!({ "power": power, "from": old_address, "to": new_address }),
    )?;
    Ok(Some(new_address))
}

/// Checks votes after a change: a unanimous draw or a concession ends the game.
pub(crate) fn check_votes(work: &mut Work<'_, '_>, key: &str) -> Result<bool, EngineError> {
    let g = work.game(key);
    if g.state.status != Status::Active && g.state.status != Status::Paused {
        return Ok(false);
    }
    let map = g.map();
    let position = position_of(map, &g.state)?;
    let alive: Vec<String> = survivors(map, &position)
        .into_iter()
        .filter(|p| g.variant.has_seat(&g.state, *p))
        .map(|p| power_name(map, p))
        .collect();
    if alive.is_empty() {
        return Ok(false);
    }
    let voters: Vec<_> = alive.iter().map(|p| g.state.player_of(p)).collect();
    // A draw: every survivor's player votes for the same set.
    let sets: Option<Vec<Vec<String>>> = voters
        .iter()
        .map(|m| {
            m.and_then(|m| m.draw.clone()).map(|list| {
                let mut set = if list.is_empty() { alive.clone() } else { list };
                set.sort();
                set
            })
        })
        .collect();
    if let Some(sets) = sets
        && sets.windows(2).all(|w| w[0] == w[1])
        && let Some(first) = sets.first()
    {
        finish(
            work,
            key,
            Outcome::Draw {
                powers: first.clone(),
            },
        )?;
        return Ok(true);
    }
    // A concession: every other survivor concedes to the same power.
    for winner in &alive {
        let all = alive.iter().filter(|p| *p != winner).all(|p| {
            g.state
                .player_of(p)
                .and_then(|m| m.concede.as_deref())
                .is_some_and(|c| c.eq_ignore_ascii_case(winner))
        });
        if all && alive.len() > 1 {
            let w = winner.clone();
            finish(work, key, Outcome::Concession { power: w })?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// JSON text of a stored document (plain data: serialising cannot fail).
pub(crate) fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

/// Sends a variant's mail about a game: to everyone with the deadline line,
/// or to the masters as it is.
pub(crate) fn send_tell(
    work: &mut Work<'_, '_>,
    key: &str,
    tell: &Tell,
) -> Result<(), EngineError> {
    let g = work.game(key);
    let (id, state) = (g.row.id, g.state.clone());
    match tell.to {
        Audience::Everyone => broadcast(work, &state, &tell.subject, &tell.body, Some(id)),
        Audience::Masters => {
            let masters: Vec<String> = state.masters().map(|m| m.address.clone()).collect();
            for to in masters {
                work.send(
                    &to,
                    tell.subject.clone(),
                    tell.body.clone(),
                    Some(id),
                    false,
                );
            }
            Ok(())
        }
    }
}

/// What follows a variant's answer: the start or the end of the game.
pub(crate) fn follow(work: &mut Work<'_, '_>, key: &str, next: Next) -> Result<(), EngineError> {
    match next {
        Next::Nothing => Ok(()),
        Next::Start => start(work, key),
        Next::End(outcome) => finish(work, key, outcome),
    }
}
