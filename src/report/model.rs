//! One processed phase, as every report of it is built from: the orders and how
//! they fared, the units dislodged and where they may go, the supply centers and
//! what comes next. Names are resolved here once, so the writers only lay out.
//!
//! A report for one recipient is the model seen through a [`View`]
//! (see `view.rs`): the view removes what the recipient may not see, and the text
//! and the picture are drawn from what is left.

use chrono::{DateTime, Utc};

use super::names;
use super::why;
use crate::judge::{
    Adjudication, Allegiance, Position, Resolution, Rules, Unit, Verdict, adjudicate,
    retreat_options_with,
};
use crate::map::{Location, Map, Power, Province};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind, Season};

/// Who the report is about: the game, the judge, and where this phase stands in
/// the game's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's name (`game001`).
    pub game: String,
    /// The judge's name, printed on the `:: Judge:` line.
    pub judge: String,
    /// The variant's name (`Standard`).
    pub variant: String,
    /// The number of this results listing within the game: 1 for the first phase.
    pub seq: u32,
}

/// One order and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedOrder {
    pub resolution: Resolution,
    /// The power's name (`France`).
    pub power_name: String,
    /// The unit the order was for, as it stood before the phase (`None` for a build,
    /// a waiver, or an order to a province where no unit stood).
    pub unit: Option<Unit>,
    /// The order in results form, without power and full stop:
    /// `Army Paris -> Burgundy`, `Builds Army Paris`, `Build waived`.
    pub text: String,
    /// For a convoyed move: the provinces of the convoying fleets, in route order.
    pub convoy_route: Vec<Province>,
    /// The result marker without its stars (`bounce`, `cut, dislodged`), or `None` for
    /// an order that did what it said.
    pub marker: Option<String>,
    /// Why a failed order failed, in plain words.
    pub why: Option<String>,
}

impl ResolvedOrder {
    pub fn power(&self) -> Power {
        self.resolution.power
    }

    /// Did the order fail (anything but a plain success)?
    pub fn failed(&self) -> bool {
        !matches!(self.resolution.verdict, Verdict::Ok | Verdict::Disband)
    }
}

/// A unit dislodged this phase, with every place it may retreat to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DislodgedUnit {
    pub unit: Unit,
    /// Where the attack came from.
    pub attacker_from: Province,
    /// Empty: the unit has nowhere to go and is destroyed.
    pub options: Vec<Location>,
}

/// One power's supply centers and units after the phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerSummary {
    pub power: Power,
    pub name: String,
    /// Owned supply centers, by full name.
    pub centers: Vec<Province>,
    pub units: usize,
    /// Builds (positive) or removals (negative) due at the next adjustment.
    pub adjustment: i32,
}

/// What comes after this phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextPhase {
    pub phase: Phase,
    /// `None`: no deadline set (the game waits, or the master processes by hand).
    pub deadline: Option<DateTime<Utc>>,
}

/// A processed phase: the one structure every report is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseReport {
    pub info: GameInfo,
    pub phase: Phase,
    /// Every order, sorted by power, then as the power's units stand.
    pub orders: Vec<ResolvedOrder>,
    /// Units that must retreat (or were destroyed for want of a retreat).
    pub dislodged: Vec<DislodgedUnit>,
    /// Powers with centers or units after the phase, in map order.
    pub powers: Vec<PowerSummary>,
    /// Supply centers nobody owns.
    pub unowned: Vec<Province>,
    /// Show the supply-center table: at the end of a year's fighting.
    pub show_centers: bool,
    /// `None` when the game is over.
    pub next: Option<NextPhase>,
    /// The board before and after the phase (for the picture).
    pub before: Position,
    pub after: Position,
    /// Lines a view adds for one recipient (a variant's private notices).
    pub notices: Vec<String>,
    /// Lines a variant adds for everyone after the results (Masters: orders
    /// given to controlled units with their votes, adjustment outcomes).
    pub sections: Vec<String>,
    /// How the report prints years (Twilight Zone counts them down, BC).
    pub era: crate::phase::Era,
}

/// What the engine knows about a phase besides the adjudication.
#[derive(Clone, Debug)]
pub struct PhaseInput<'a> {
    pub info: GameInfo,
    pub before: &'a Position,
    pub adjudication: &'a Adjudication,
    /// Deadline of the next phase; `None` if there is none (or the game is over).
    pub deadline: Option<DateTime<Utc>>,
    /// The game ended with this phase (a solo, a draw): no next phase is announced.
    pub game_over: bool,
}

/// A stored phase to report again (see [`PhaseReport::replay`]).
#[derive(Clone)]
pub struct Replay<'a> {
    pub info: GameInfo,
    pub allegiance: &'a dyn Allegiance,
    pub before: &'a Position,
    pub orders: &'a [PowerOrder],
    pub after: Option<&'a Position>,
    pub deadline: Option<DateTime<Utc>>,
    pub game_over: bool,
}

impl PhaseReport {
    /// Builds the model of one processed phase played under the default rules
    /// (2023). A game under another edition uses [`PhaseReport::build_under`].
    pub fn build(map: &Map, input: &PhaseInput<'_>) -> PhaseReport {
        PhaseReport::build_under(map, &Rules::default(), input)
    }

    /// Builds the model of one processed phase played under `rules`: the rules
    /// decide where a dislodged unit may retreat (a unit dislodged by a convoyed
    /// attack may retreat to the attacker's origin under the 2023 rules only).
    pub fn build_under(map: &Map, rules: &Rules, input: &PhaseInput<'_>) -> PhaseReport {
        let before = input.before;
        let after = &input.adjudication.after;
        let resolutions = &input.adjudication.resolutions;
        let explained = why::Adjudicated::new(map, before, resolutions);
        let mut orders: Vec<ResolvedOrder> = resolutions
            .iter()
            .filter(|r| !repeats_an_order(resolutions, r))
            .map(|r| resolve_one(&explained, r))
            .collect();
        sort_orders(map, before.phase.kind, &mut orders);
        let dislodged = dislodged_units(map, rules, before.phase.kind, after);
        let (powers, unowned) = summaries(map, after);
        PhaseReport {
            info: input.info.clone(),
            phase: before.phase,
            orders,
            dislodged,
            powers,
            unowned,
            show_centers: year_ends(before.phase, after.phase),
            next: (!input.game_over).then_some(NextPhase {
                phase: after.phase,
                deadline: input.deadline,
            }),
            before: before.clone(),
            after: after.clone(),
            notices: Vec::new(),
            sections: Vec::new(),
            era: Default::default(),
        }
    }

    /// Builds the model again from a phase as stored: the position before it and
    /// the orders given. The adjudicator is deterministic, so the resolutions
    /// come out as they did; `after`, when given, is the stored result and is
    /// drawn as such.
    pub fn replay(map: &Map, rules: &Rules, replay: &Replay<'_>) -> PhaseReport {
        let mut adjudication = if replay.orders.is_empty() && replay.after.is_none() {
            // Nothing was played: the position as it stands.
            Adjudication {
                resolutions: Vec::new(),
                after: replay.before.clone(),
            }
        } else {
            adjudicate(map, rules, replay.allegiance, replay.before, replay.orders)
        };
        if let Some(after) = replay.after {
            adjudication.after = after.clone();
        }
        let input = PhaseInput {
            info: replay.info.clone(),
            before: replay.before,
            adjudication: &adjudication,
            deadline: replay.deadline,
            game_over: replay.game_over,
        };
        PhaseReport::build_under(map, rules, &input)
    }

    /// The powers that sent no orders for the phase: every order of theirs in
    /// the listing went by default (units held, disbanded or removed, builds
    /// waived). In map order.
    pub fn powers_without_orders(&self) -> Vec<String> {
        let mut out: Vec<(u8, String)> = Vec::new();
        for o in &self.orders {
            let power = o.resolution.power;
            if out.iter().any(|(p, _)| *p == power.0) {
                continue;
            }
            let mut theirs = self.orders.iter().filter(|x| x.resolution.power == power);
            if theirs.all(|x| x.resolution.defaulted) {
                out.push((power.0, o.power_name.clone()));
            }
        }
        out.sort();
        out.into_iter().map(|(_, name)| name).collect()
    }

    /// The orders that failed, for the "why" section.
    pub fn failures(&self) -> impl Iterator<Item = &ResolvedOrder> {
        self.orders.iter().filter(|o| o.why.is_some())
    }
}

/// A default (hold, disband) for a unit whose own order was void: the listing
/// shows the order given, with its marker, and not the default as well.
fn repeats_an_order(all: &[Resolution], r: &Resolution) -> bool {
    let defaults = matches!(r.order, Order::Hold { .. } | Order::Disband { .. });
    let Some(unit) = r.order.unit().filter(|_| r.defaulted && defaults) else {
        return false;
    };
    all.iter().any(|other| {
        !other.defaulted
            && other.power == r.power
            && other
                .order
                .unit()
                .is_some_and(|u| u.province() == unit.province())
    })
}

/// The centers change hands after the fall fighting: the table is shown when the
/// next phase is no longer in the fall.
fn year_ends(played: Phase, next: Phase) -> bool {
    played.season == Season::Fall && (next.season != Season::Fall || next.year != played.year)
}

fn resolve_one(explained: &why::Adjudicated, r: &Resolution) -> ResolvedOrder {
    let (map, before, all) = (explained.map, explained.before, explained.all);
    let unit = match r.order {
        Order::Build { .. } => None,
        order => order
            .unit()
            .and_then(|spec| explained.unit_at(spec.province())),
    };
    let convoy_route = match r.order {
        Order::Move {
            unit: spec,
            to,
            via_convoy: true,
        } if before.phase.kind == PhaseKind::Movement => {
            names::convoy_route(map, all, spec.province(), to.province)
        }
        _ => Vec::new(),
    };
    let text = names::order_text(map, before, &r.order, &convoy_route);
    let marker = marker(r);
    let why = explained.explain(r, &text);
    ResolvedOrder {
        resolution: *r,
        power_name: names::power_name(map, r.power),
        unit,
        text,
        convoy_route,
        marker,
        why,
    }
}

/// The judge's marker, or none for an order carried out. A disband that was
/// ordered (or defaulted) is carried out, not a failure. A unit that went by
/// default (its power sent no order for it) is marked `no orders`.
fn marker(r: &Resolution) -> Option<String> {
    let own = own_marker(r);
    // A build not ordered is simply waived: that is what no order means there.
    if !r.defaulted || matches!(r.order, Order::Waive) {
        return own;
    }
    Some(match own {
        Some(m) => format!("no orders, {m}"),
        None => "no orders".to_string(),
    })
}

fn own_marker(r: &Resolution) -> Option<String> {
    if fleet_dislodged_while_convoying(r) {
        return Some("dislodged".to_string());
    }
    let carried_out = match r.verdict {
        Verdict::Ok => true,
        Verdict::Disband => matches!(r.order, Order::Disband { .. } | Order::Remove { .. }),
        _ => false,
    };
    if carried_out && !r.dislodged {
        return None;
    }
    Some(r.result_text())
}

/// A convoying fleet that was itself dislodged: its convoy failed because of
/// that, and the listing says only that it was dislodged.
pub(super) fn fleet_dislodged_while_convoying(r: &Resolution) -> bool {
    matches!(r.order, Order::Convoy { .. }) && r.dislodged && r.verdict == Verdict::Disrupted
}

/// Orders by power, then by the full name of the unit's province (builds and
/// waivers keep the order they were given in, after the power's other lines).
fn sort_orders(map: &Map, kind: PhaseKind, orders: &mut [ResolvedOrder]) {
    let key = |o: &ResolvedOrder| {
        let place = match (kind, o.resolution.order) {
            (PhaseKind::Adjustment, _) | (_, Order::Waive) => String::new(),
            (_, order) => order
                .unit()
                .map(|u| map.name(u.province()).to_string())
                .unwrap_or_default(),
        };
        (o.resolution.power, place)
    };
    orders.sort_by_key(key);
}

fn dislodged_units(
    map: &Map,
    rules: &Rules,
    kind: PhaseKind,
    after: &Position,
) -> Vec<DislodgedUnit> {
    if kind != PhaseKind::Movement {
        return Vec::new();
    }
    let retreats_next = after.phase.kind == PhaseKind::Retreat;
    let mut out: Vec<DislodgedUnit> = after
        .dislodged
        .iter()
        .map(|d| DislodgedUnit {
            unit: d.unit,
            attacker_from: d.attacker_from,
            options: if retreats_next {
                let mut options = retreat_options_with(map, rules, after, d);
                options.sort_by_key(|l| map.location_name(*l));
                options
            } else {
                Vec::new()
            },
        })
        .collect();
    out.sort_by_key(|d| (d.unit.power, map.name(d.unit.province()).to_string()));
    out
}

fn summaries(map: &Map, after: &Position) -> (Vec<PowerSummary>, Vec<Province>) {
    let by_name = |list: &mut Vec<Province>| list.sort_by_key(|p| map.name(*p).to_string());
    let mut powers = Vec::new();
    for i in 0..map.powers().len() {
        let power = Power(i as u8);
        let mut centers: Vec<Province> = after.centers_of(power).iter().collect();
        let units = after.unit_count(power);
        if centers.is_empty() && units == 0 {
            continue;
        }
        by_name(&mut centers);
        powers.push(PowerSummary {
            power,
            name: names::power_name(map, power),
            adjustment: centers.len() as i32 - units as i32,
            centers,
            units,
        });
    }
    let mut unowned: Vec<Province> = map
        .supply_centers()
        .iter()
        .filter(|p| after.owner(*p).is_none())
        .collect();
    by_name(&mut unowned);
    (powers, unowned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Countries, Edition};
    use crate::map::UnitKind;

    /// An English army convoyed from Brest, supported from Paris, dislodges the
    /// French army in Picardy: where may the French army go?
    fn picardy_options(edition: Edition) -> Vec<String> {
        let map = Map::standard();
        let p = |code: &str| map.lookup(code).expect(code);
        let england = map.power("England").expect("England");
        let france = map.power("France").expect("France");
        let mut before = Position::initial(map);
        before.units = vec![
            Unit {
                power: england,
                kind: UnitKind::Army,
                location: p("bre"),
            },
            Unit {
                power: england,
                kind: UnitKind::Fleet,
                location: p("eng"),
            },
            Unit {
                power: england,
                kind: UnitKind::Army,
                location: p("par"),
            },
            Unit {
                power: france,
                kind: UnitKind::Army,
                location: p("pic"),
            },
        ];
        let orders: Vec<PowerOrder> = [
            "England: A Bre - Pic via convoy",
            "England: F Eng C A Bre - Pic",
            "England: A Par S A Bre - Pic",
            "France: A Pic H",
        ]
        .iter()
        .map(|line| {
            let o = crate::grammar::parse_order(map, line).expect(line);
            PowerOrder {
                power: o.power.expect("power"),
                order: o.order,
            }
        })
        .collect();
        let report = PhaseReport::replay(
            map,
            &Rules::preset(edition),
            &Replay {
                info: GameInfo {
                    game: "retreats".into(),
                    judge: "LEGATE".into(),
                    variant: "Standard".into(),
                    seq: 1,
                },
                allegiance: &Countries,
                before: &before,
                orders: &orders,
                after: None,
                deadline: None,
                game_over: false,
            },
        );
        assert_eq!(report.dislodged.len(), 1, "{edition:?}");
        assert_eq!(report.dislodged[0].attacker_from, p("bre").province);
        report.dislodged[0]
            .options
            .iter()
            .map(|l| map.location_code(*l))
            .collect()
    }

    #[test]
    fn retreat_options_follow_the_games_rules() {
        // DATC 4.A.5: only the 2023 rules open the convoyed attacker's origin.
        assert_eq!(picardy_options(Edition::E2023), ["BEL", "BRE", "BUR"]);
        assert_eq!(picardy_options(Edition::E2000), ["BEL", "BUR"]);
    }
}
