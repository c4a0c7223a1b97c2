//! One GTD phase at its deadline, in the order `variant::gtd::season` fixes:
//! the political orders and the movement orders given by commanders, the
//! judge (1971 rules, commanders as owners), the commands following their
//! units, the end of the season (insurrection, elections, rule 22 silence,
//! rule 27), and the Winter always played as the adjustment season.

use chrono::{DateTime, Utc};

use super::{Carried, GtdGame, Item, journal, lot_of, report};
use crate::docs::{PositionDoc, PowerOrderDoc, order_text};
use crate::game::EngineError;
use crate::game::model::GameState;
use crate::game::model::{Outcome, Status};
use crate::game::process::{self, ResultLine, position_of};
use crate::game::variants::{Audience, OwnResults, Tell};
use crate::game::work::Work;
use crate::grammar::{Entry, OrderItem, VariantOrder, parse_line};
use crate::judge::{Adjudication, Edition, Position, Resolution, Rules, adjudicate};
use crate::lots::{Draw, LotError, LotSecret};
use crate::map::{Map, Power, Province, ProvinceSet};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind, Season};
use crate::variant::gtd::final_place::winner;
use crate::variant::gtd::politics::{self, Tally, Vote, name_of};
use crate::variant::gtd::season::{self, Before, Written};
use crate::variant::gtd::winter::{self, WinterKind, WinterOrder};
use crate::variant::gtd::{Commanders, GtdState};

/// A unit's order and its result, with who commanded it.
#[derive(Clone, Debug)]
pub struct UnitLine {
    pub country: String,
    pub order: String,
    pub commander: String,
    pub result: String,
}

/// What a phase did, for the record and the reports.
#[derive(Clone, Debug)]
pub struct Played {
    pub phase: Phase,
    pub before: Position,
    pub after: Position,
    pub judge_orders: Vec<PowerOrder>,
    /// The judge's resolutions of the units' orders (none in a Winter).
    pub resolutions: Vec<Resolution>,
    pub units: Vec<UnitLine>,
    /// Political and Winter orders: writer, order, verdict.
    pub political: Vec<(String, String, Result<(), String>)>,
    pub draws: Vec<Draw>,
    pub tallies: Vec<Tally>,
    pub begun: Vec<String>,
    pub ended: Vec<String>,
    pub new_countries: Vec<String>,
    /// Units the lot removed (rule 10 B, 11 F).
    pub lot_removals: Vec<String>,
    /// Players silent two seasons running (rule 22).
    pub silent: Vec<String>,
    pub winner: Option<Power>,
}

impl Played {
    fn new(before: &Position) -> Played {
        Played {
            phase: before.phase,
            before: before.clone(),
            after: before.clone(),
            judge_orders: Vec::new(),
            resolutions: Vec::new(),
            units: Vec::new(),
            political: Vec::new(),
            draws: Vec::new(),
            tallies: Vec::new(),
            begun: Vec::new(),
            ended: Vec::new(),
            new_countries: Vec::new(),
            lot_removals: Vec::new(),
            silent: Vec::new(),
            winner: None,
        }
    }
}

/// Rule 3: the 1971 rules.
fn rules() -> Rules {
    Rules::preset(Edition::E1971)
}

/// The deadline of a GTD game: the phase played (the state moves on, the
/// end comes if a country has eighteen centers, rule 2), for the engine to
/// record, report with the board picture, and end.
pub(crate) fn play_phase(
    work: &mut Work<'_, '_>,
    key: &str,
) -> Result<process::Played, EngineError> {
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let secret = g.lot_secret()?;
    let position = position_of(map, &g.state)?;
    let mut game = g.state.gtd.clone().unwrap_or_default();
    let played = play(map, &mut game, &position, &secret)
        .map_err(|e| EngineError::State(format!("GTD lot: {e}")))?;
    g.state.draws.extend(played.draws.iter().cloned());
    g.state.gtd = Some(game);
    super::sync_roles(&mut g.state);
    process::enter_phase(&super::Gtd, map, &mut g.state, &played.after);
    g.state.next_seq += 1;
    if let Some(w) = played.winner {
        let name = g
            .state
            .gtd
            .as_ref()
            .map(|x| name_of(&x.state, w))
            .unwrap_or_default();
        g.state.outcome = Some(Outcome::Solo { power: name });
        g.state.status = Status::Finished;
    }
    let results: Vec<ResultLine> = played
        .units
        .iter()
        .map(|u| ResultLine {
            power: u.country.clone(),
            order: u.order.clone(),
            result: u.result.clone(),
            defaulted: false,
        })
        .collect();
    let orders: Vec<PowerOrderDoc> = played
        .judge_orders
        .iter()
        .map(|o| PowerOrderDoc::from_power_order(map, o))
        .collect();
    Ok(process::Played {
        processed: process::Processed {
            phase: played.phase.to_string(),
            before: PositionDoc::from_position(map, &played.before),
            orders,
            results,
            after: PositionDoc::from_position(map, &played.after),
        },
        before: played.before.clone(),
        adjudication: Adjudication {
            resolutions: played.resolutions.clone(),
            after: played.after.clone(),
        },
        own: Some(Box::new(played)),
    })
}

/// GTD reports a phase in its own words: commanders, political orders,
/// tallies; the journal keeps each phase for `ROLLBACK` and `HISTORY`.
impl OwnResults for Played {
    fn recorded(&self, work: &mut Work<'_, '_>, key: &str, record: i64) -> Result<(), EngineError> {
        let map = crate::map::Map::standard();
        let g = work.game(key);
        let id = g.row.id;
        let Some(game) = g.state.gtd.clone() else {
            return Ok(());
        };
        let entry = journal::Entry {
            record: Some(record),
            opens: self.after.phase.to_string(),
            public: report::public(map, &game.state, self),
            game,
            position: PositionDoc::from_position(map, &self.after),
        };
        journal::keep(work, id, &entry)
    }

    fn text_for(
        &self,
        state: &GameState,
        judge: &str,
        reader: &str,
        zone: chrono_tz::Tz,
        now: DateTime<Utc>,
    ) -> String {
        report::season(
            crate::map::Map::standard(),
            state,
            self,
            judge,
            reader,
            zone,
            now,
        )
    }

    /// The Final Place List (rule 2).
    fn last_word(&self, state: &GameState, judge: &str) -> Option<Tell> {
        let game = state.gtd.as_ref()?;
        Some(Tell {
            to: Audience::Everyone,
            subject: format!("{judge}:{} - Final Place List", state.name),
            body: report::final_places(&game.state, &self.after),
        })
    }
}

/// `PREDICT` (the Gamemaster's): the current phase played on a copy with the
/// orders given so far, reported as the Gamemaster would get it; nothing is
/// stored. Lots are drawn with a fresh secret from the operating system, not
/// the game's, so the game's draws stay unknown until the deadline.
pub(crate) fn predict(work: &Work<'_, '_>, key: &str, sender: &str) -> Result<String, EngineError> {
    let g = work.game(key);
    let map = crate::map::Map::standard();
    let position = position_of(map, &g.state)?;
    let mut copy = g.state.clone();
    let mut game = copy.gtd.clone().unwrap_or_default();
    let stand_in = LotSecret(crate::game::work::os_secret());
    let played = play(map, &mut game, &position, &stand_in)
        .map_err(|e| EngineError::State(format!("GTD lot: {e}")))?;
    copy.gtd = Some(game);
    let tz = work.zone_of(sender);
    let text = report::season(map, &copy, &played, &work.judge, sender, tz, work.now);
    Ok(format!(
        "Prediction for {} from the orders given so far (nothing was processed or stored; \
         any lot is drawn with a stand-in secret, not the game's, so real draws may \
         differ):\n\n{text}",
        played.phase
    ))
}

/// Plays the current phase of `game` on `position`.
pub(crate) fn play(
    map: &Map,
    game: &mut GtdGame,
    position: &Position,
    secret: &LotSecret,
) -> Result<Played, LotError> {
    let drawn = game.state.draws.len();
    let mut played = Played::new(position);
    let mut lot = lot_of(secret);
    match position.phase.kind {
        PhaseKind::Movement => movement(map, game, position, &mut lot, &mut played)?,
        PhaseKind::Retreat => retreat(map, game, position, &mut lot, &mut played)?,
        PhaseKind::Adjustment => winter_season(map, game, position, &mut lot, &mut played)?,
    }
    game.written.clear();
    played.draws = game.state.draws[drawn.min(game.state.draws.len())..].to_vec();
    played.winner = winner(&game.state, &played.after);
    Ok(played)
}

type LotFn<'a> = dyn FnMut(&str, &[String]) -> Result<Draw, LotError> + 'a;

/// The written lines of the phase, read again as the grammar reads them:
/// political orders first, then the orders of units, each in the order
/// written (`season`: the countries and commanders of the phase are settled
/// before any unit's order is given to the judge).
fn items(map: &Map, game: &GtdGame, phase: Phase) -> Vec<Written> {
    let mut all = read(map, game, phase);
    all.sort_by_key(|w| matches!(w.item, Item::Order(_)));
    all
}

fn read(map: &Map, game: &GtdGame, phase: Phase) -> Vec<Written> {
    game.written
        .iter()
        .filter_map(|w| {
            let item = match (&w.order, &w.variant) {
                (Some(o), _) => Item::Order(o.to_order(map).ok()?),
                (None, Some(text)) => {
                    let lines = parse_line(map, text, Some(phase));
                    match &lines.first()?.entry {
                        Entry::Orders(items) => match items.first()? {
                            OrderItem::Variant { order, .. } => Item::Variant(order.clone()),
                            OrderItem::Order(o) => Item::Order(o.order),
                        },
                        _ => return None,
                    }
                }
                (None, None) => return None,
            };
            Some(Written {
                player: w.player.clone(),
                item,
            })
        })
        .collect()
}

fn item_text(map: &Map, item: &Item) -> String {
    match item {
        Item::Order(o) => order_text(map, o),
        Item::Variant(v) => crate::grammar::variant_canonical(map, v),
    }
}

fn commander_table(state: &GtdState, dislodged: bool) -> Vec<(Province, String)> {
    state
        .commands
        .iter()
        .filter(|c| c.dislodged == dislodged)
        .map(|c| {
            let who = c.commander.clone().unwrap_or_else(|| "(none)".into());
            (Province(c.at), who)
        })
        .collect()
}

fn unit_lines(
    map: &Map,
    state: &GtdState,
    adj: &Adjudication,
    commanders: &[(Province, String)],
) -> Vec<UnitLine> {
    adj.resolutions
        .iter()
        .map(|r| {
            let at = r.order.unit().map(|u| u.province());
            let commander = commanders
                .iter()
                .find(|(p, _)| Some(*p) == at)
                .map_or_else(|| "(none)".to_string(), |c| c.1.clone());
            UnitLine {
                country: name_of(state, r.power),
                order: order_text(map, &r.order),
                commander,
                result: if r.defaulted {
                    format!("{} (no order: holds)", r.result_text())
                } else {
                    r.result_text()
                },
            }
        })
        .collect()
}

fn movement(
    map: &Map,
    game: &mut GtdGame,
    position: &Position,
    lot: &mut LotFn<'_>,
    played: &mut Played,
) -> Result<(), LotError> {
    let written = items(map, game, position.phase);
    let mut pos = position.clone();
    let resigned = game.resigned.clone();
    let before = season::before_movement(map, &mut game.state, &mut pos, &written, &resigned);
    vetoes(game);
    played.new_countries = before
        .new_countries
        .iter()
        .map(|p| name_of(&game.state, *p))
        .collect();
    for (w, v) in &before.outcomes {
        let shown = matches!(w.item, Item::Variant(_)) || v.is_err();
        if shown {
            let verdict = v.clone().map_err(|e| e.to_string());
            played
                .political
                .push((w.player.clone(), item_text(map, &w.item), verdict));
        }
    }
    let commanders = commander_table(&game.state, false);
    let adj = adjudicate(
        map,
        &rules(),
        &Commanders::of(&game.state),
        &pos,
        &before.judge_orders,
    );
    season::follow(&mut game.state, PhaseKind::Movement, &adj);
    played.units = unit_lines(map, &game.state, &adj, &commanders);
    played.resolutions = adj.resolutions.clone();
    played.judge_orders = before.judge_orders.clone();
    played.before = pos;
    let mut after = adj.after.clone();
    let carried = carried_of(&before);
    if after.phase.kind == PhaseKind::Retreat {
        game.carried = Some(carried);
    } else {
        end_season(map, game, &mut after, position.phase, &carried, lot, played)?;
    }
    played.after = after;
    Ok(())
}

fn retreat(
    map: &Map,
    game: &mut GtdGame,
    position: &Position,
    lot: &mut LotFn<'_>,
    played: &mut Played,
) -> Result<(), LotError> {
    let written = items(map, game, position.phase);
    let mut players: Vec<String> = written.iter().map(|w| w.player.clone()).collect();
    players.dedup();
    let mut orders = Vec::new();
    for p in &players {
        let theirs: Vec<Order> = written
            .iter()
            .filter(|w| w.player == *p)
            .filter_map(|w| match w.item {
                Item::Order(o) => Some(o),
                _ => None,
            })
            .collect();
        orders.extend(season::retreat_orders(&game.state, position, p, &theirs));
    }
    orders.dedup();
    let commanders = commander_table(&game.state, true);
    let adj = adjudicate(
        map,
        &rules(),
        &Commanders::of(&game.state),
        position,
        &orders,
    );
    season::follow(&mut game.state, PhaseKind::Retreat, &adj);
    played.units = unit_lines(map, &game.state, &adj, &commanders);
    played.resolutions = adj.resolutions.clone();
    played.judge_orders = orders;
    let mut after = adj.after.clone();
    let carried = game.carried.take().unwrap_or_default();
    end_season(map, game, &mut after, position.phase, &carried, lot, played)?;
    played.after = after;
    Ok(())
}

/// Winter: political orders of the season (votes, abdication, renaming), then
/// builds, removals and appointments with the lot's part (rules 9-12).
fn winter_season(
    map: &Map,
    game: &mut GtdGame,
    position: &Position,
    lot: &mut LotFn<'_>,
    played: &mut Played,
) -> Result<(), LotError> {
    let written = items(map, game, position.phase);
    let mut orders = Vec::new();
    let mut others = Vec::new();
    for w in written {
        let kind = match &w.item {
            Item::Variant(VariantOrder::BuildCommander { unit, commander }) => {
                Some(WinterKind::Build {
                    unit: *unit,
                    commander: commander.clone(),
                })
            }
            Item::Variant(VariantOrder::AppointToUnit { player, unit }) => {
                Some(WinterKind::Appoint {
                    player: player.clone(),
                    unit: *unit,
                })
            }
            Item::Order(Order::Remove { unit }) => Some(WinterKind::Remove { unit: *unit }),
            _ => None,
        };
        match kind {
            Some(kind) => orders.push(WinterOrder {
                player: w.player,
                kind,
            }),
            None => others.push(w),
        }
    }
    let mut pos = position.clone();
    let start = winter::open(&game.state, &pos);
    let resigned = game.resigned.clone();
    let before = season::before_movement(map, &mut game.state, &mut pos, &others, &resigned);
    vetoes(game);
    for (w, v) in &before.outcomes {
        let verdict = v.clone().map_err(|e| e.to_string());
        played
            .political
            .push((w.player.clone(), item_text(map, &w.item), verdict));
    }
    let report = winter::resolve(map, &mut game.state, &mut pos, &start, &orders, lot)?;
    for (o, v) in &report.outcomes {
        let text = winter_text(map, o);
        played
            .political
            .push((o.player.clone(), text, v.clone().map_err(|e| e.to_string())));
    }
    for (country, p, rule) in &report.lot_removals {
        played.lot_removals.push(format!(
            "{}: {} removed by lot ({rule})",
            name_of(&game.state, *country),
            map.abbr(*p).to_uppercase()
        ));
    }
    for (country, n) in &report.unused_builds {
        played.lot_removals.push(format!(
            "{}: {n} build(s) not used",
            name_of(&game.state, *country)
        ));
    }
    let carried = carried_of(&before);
    end_season(map, game, &mut pos, position.phase, &carried, lot, played)?;
    pos.phase = Phase::new(Season::Spring, position.phase.year + 1, PhaseKind::Movement);
    pos.dislodged.clear();
    pos.contested = ProvinceSet::EMPTY;
    played.after = pos;
    Ok(())
}

fn winter_text(map: &Map, o: &WinterOrder) -> String {
    let v = match &o.kind {
        WinterKind::Build { unit, commander } => VariantOrder::BuildCommander {
            unit: *unit,
            commander: commander.clone(),
        },
        WinterKind::Appoint { player, unit } => VariantOrder::AppointToUnit {
            player: player.clone(),
            unit: *unit,
        },
        WinterKind::Remove { unit } => return order_text(map, &Order::Remove { unit: *unit }),
    };
    crate::grammar::variant_canonical(map, &v)
}

/// The votes and weights of a season's political orders, as kept until the
/// season ends (over a retreat phase, `GtdGame::carried`).
fn carried_of(before: &Before) -> Carried {
    Carried {
        votes: before
            .votes
            .iter()
            .map(|(p, v)| (p.0, v.voter.clone(), v.candidate.clone(), v.votes))
            .collect(),
        weights: before
            .weights
            .iter()
            .map(|(p, who, n)| (p.0, who.clone(), *n))
            .collect(),
    }
}

/// The end of a Spring, Fall or Winter (step 4 of `season`), rule 22's
/// silence count, rule 27, and the Winter after every Fall.
fn end_season(
    map: &Map,
    game: &mut GtdGame,
    after: &mut Position,
    played_phase: Phase,
    carried: &Carried,
    lot: &mut LotFn<'_>,
    played: &mut Played,
) -> Result<(), LotError> {
    let votes: Vec<(Power, Vote)> = carried
        .votes
        .iter()
        .map(|(p, voter, candidate, n)| {
            (
                Power(*p),
                Vote {
                    voter: voter.clone(),
                    candidate: candidate.clone(),
                    votes: *n,
                },
            )
        })
        .collect();
    let weights: Vec<(Power, String, u32)> = carried
        .weights
        .iter()
        .map(|(p, who, n)| (Power(*p), who.clone(), *n))
        .collect();
    let end = season::end_season(
        &mut game.state,
        after,
        played_phase.season,
        &votes,
        &weights,
    );
    played.tallies = end.tallies;
    played.begun = end
        .insurrections_begun
        .iter()
        .map(|p| name_of(&game.state, *p))
        .collect();
    played.ended = end
        .insurrections_ended
        .iter()
        .map(|p| name_of(&game.state, *p))
        .collect();
    let wrote = std::mem::take(&mut game.wrote);
    // Most players have nothing to order in a Winter: only Spring and Fall
    // count towards play death (rule 22).
    if played_phase.season != Season::Winter {
        played.silent = season::note_silence(&mut game.state, &wrote);
    }
    leaderless(map, &mut game.state, after, lot)?;
    if played_phase.season == Season::Fall && after.phase.season == Season::Spring {
        // Rule 9-12: the Winter is always played, builds or not.
        after.phase = Phase::new(Season::Winter, played_phase.year, PhaseKind::Adjustment);
    }
    season::begin_season(&mut game.state);
    game.resigned.clear();
    Ok(())
}

/// Rule 27: a country whose head and commanders all left the game gets a
/// head and commanders from the stand-by list by lot.
fn leaderless(
    map: &Map,
    state: &mut GtdState,
    position: &Position,
    lot: &mut LotFn<'_>,
) -> Result<(), LotError> {
    let powers: Vec<Power> = state
        .countries
        .iter()
        .filter(|c| !c.gone && position.unit_count(Power(c.power)) > 0)
        .map(|c| Power(c.power))
        .collect();
    for power in powers {
        let head_out = state
            .country(power)
            .is_none_or(|c| c.hog.as_deref().is_none_or(|h| !state.is_active(h)));
        let anyone = state
            .commanders_of(position, power)
            .iter()
            .any(|p| state.is_active(p));
        if head_out && !anyone && !state.standby.is_empty() {
            match politics::dead_bandit(map, state, position, power, lot) {
                Ok(()) => {}
                Err(politics::PoliticsError::Lot(e)) => return Err(e),
                Err(e) => state.note(format!("rule 27: {e}")),
            }
        }
    }
    Ok(())
}

/// Rule 26 (B): names the Gamemaster vetoed this season do not take effect.
fn vetoes(game: &mut GtdGame) {
    for p in std::mem::take(&mut game.vetoed) {
        politics::veto_rename(&mut game.state, Power(p));
        let name = name_of(&game.state, Power(p));
        game.state
            .note(format!("rule 26(B): the Gamemaster kept the name {name}"));
    }
}
