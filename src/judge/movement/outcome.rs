//! Turning the resolver's decisions into verdicts with reasons, and the board after.

use super::board::{MAX, NO_ORDER, SPAN, Status};
use super::legality::Act;
use super::resolver::Resolver;
use crate::judge::{
    AdjacentConvoy, Adjudication, Allegiance, Dislodged, Position, Reason, Resolution, Verdict,
    transition,
};
use crate::map::{Province, ProvinceSet};
use crate::orders::{Order, PowerOrder, UnitSpec};

pub(crate) fn build<A: Allegiance + ?Sized>(
    r: &mut Resolver<A>,
    position: &Position,
    orders: &[PowerOrder],
    status: &[Status],
) -> Adjudication {
    let board = r.board;
    // Per province: where the unit that dislodged its unit came from.
    let mut dislodger: [Option<Province>; SPAN] = [None; SPAN];
    for &p in board.units() {
        let q = board.slot(p).to.province;
        if r.moved(p) && board.unit(q).is_some() && !r.moved(q) {
            dislodger[q.0 as usize] = Some(p);
        }
    }

    let mut resolutions = Vec::with_capacity(orders.len() + 4);
    // `extend` over an exact-size iterator writes without a capacity check per order.
    resolutions.extend(orders.iter().zip(status).map(|(po, &status)| {
        let (verdict, reason, at) = match status {
            Status::Carried(p) => {
                let (verdict, reason) = explain(r, p);
                (verdict, reason, Some(p))
            }
            Status::Void(reason) => (Verdict::Void, reason, named_unit(po, reason)),
        };
        let by = at.and_then(|p| dislodger[p.0 as usize]);
        Resolution {
            power: po.power,
            order: po.order,
            verdict,
            dislodged: by.is_some(),
            dislodged_by: by,
            reason,
            defaulted: false,
        }
    }));
    let mut after = Position {
        phase: position.phase,
        units: Vec::with_capacity(position.units.len()),
        dislodged: Vec::new(),
        contested: ProvinceSet::EMPTY,
        owners: position.owners.clone(),
        homes: position.homes.clone(),
    };
    // Units whose move failed.
    let mut bounced = ProvinceSet::EMPTY;
    for &p in board.units() {
        let s = board.slot(p);
        let Some(mut unit) = s.unit else { continue };
        let by = dislodger[p.0 as usize];
        if s.order == NO_ORDER {
            resolutions.push(Resolution {
                power: unit.power,
                order: Order::Hold {
                    unit: UnitSpec {
                        kind: Some(unit.kind),
                        location: unit.location,
                        power: Some(unit.power),
                    },
                },
                verdict: Verdict::Ok,
                dislodged: by.is_some(),
                dislodged_by: by,
                reason: Reason::Unordered,
                defaulted: true,
            });
        }
        if r.moved(p) {
            unit.location = s.to;
        } else {
            if s.act == Act::Move {
                bounced.insert(p);
            }
            if let Some(from) = by {
                let via_convoy = r.by_convoy(from);
                after.dislodged.push(Dislodged {
                    unit,
                    attacker_from: from,
                    via_convoy,
                });
                continue;
            }
        }
        after.units.push(unit);
    }
    // Provinces left empty where a move bounced: a standoff, closed to retreats.
    // A unit beaten in a head-to-head battle leaves no standoff behind (DATC 6.H.9).
    for p in bounced.iter() {
        let q = board.slot(p).to.province;
        if !filled(r, q) && r.prevent_strength(p) > 0 {
            after.contested.insert(q);
        }
    }
    transition::advance(r.map, r.rules, &mut after, position.phase);
    Adjudication { resolutions, after }
}

/// Where the unit a void order names stands: a void order still tells its
/// unit's fate, unless it named no unit of its power.
fn named_unit(po: &PowerOrder, reason: Reason) -> Option<Province> {
    if matches!(
        reason,
        Reason::NoUnit { .. } | Reason::ForeignUnit { .. } | Reason::WrongPhase
    ) {
        return None;
    }
    let at = po.order.unit()?.location.province;
    ((at.0 as usize) < MAX).then_some(at)
}

/// Does a unit stand in `q` after the moves? One does if the unit there stayed
/// (were it dislodged, its attacker stands there instead) or one moved in.
fn filled<A: Allegiance + ?Sized>(r: &Resolver<A>, q: Province) -> bool {
    let stayed = r.board.unit(q).is_some() && !r.moved(q);
    stayed || r.board.movers_into[q.0 as usize].iter().any(|m| r.moved(m))
}

/// Verdict and reason for the order carried out by the unit in `p`.
fn explain<A: Allegiance + ?Sized>(r: &mut Resolver<A>, p: Province) -> (Verdict, Reason) {
    let s = *r.board.slot(p);
    let ok = r.succeeded(p);
    match s.act {
        Act::Hold => (Verdict::Ok, Reason::None),
        Act::Move if ok => (Verdict::Ok, Reason::None),
        Act::Move => explain_bounce(r, p),
        Act::SupportHold | Act::SupportMove if ok => (Verdict::Ok, Reason::None),
        Act::SupportHold | Act::SupportMove => match r.support_cutter(p) {
            Some(by) => (Verdict::Cut, Reason::CutBy { by }),
            None => (Verdict::Cut, Reason::None),
        },
        Act::Convoy if r.paradox.contains(p) => (Verdict::Failed, Reason::Paradox),
        Act::Convoy => explain_convoy(r, p),
    }
}

fn explain_bounce<A: Allegiance + ?Sized>(r: &mut Resolver<A>, p: Province) -> (Verdict, Reason) {
    let s = *r.board.slot(p);
    // A convoy that was broken explains the failure even if the army then tried
    // the land route (2000 rules, DATC 4.A.3).
    if !r.path(p) || (s.convoy && s.land_fallback && !r.convoy_path(p)) {
        let route = r.board.route(p);
        if route.is_empty() {
            return (Verdict::NoConvoy, Reason::NoConvoyRoute);
        }
        if route.iter().any(|f| r.paradox.contains(f)) {
            return (Verdict::Disrupted, Reason::Paradox);
        }
        let fleet = route.iter().find(|&f| !r.succeeded(f)).unwrap_or(p);
        return (Verdict::Disrupted, Reason::DisruptedBy { fleet });
    }
    let known = r.known_bounce(p);
    // Every order is decided by now, so working it out again must agree.
    debug_assert!(known.is_none() || known == r.move_bounce(p));
    match known.or_else(|| r.move_bounce(p)) {
        Some(b) if b.attack == 0 => (Verdict::Bounce, Reason::OwnUnit { at: b.by }),
        Some(b) => (
            Verdict::Bounce,
            Reason::Bounced {
                by: b.by,
                strength: b.attack,
                opposing: b.opposing,
            },
        ),
        // Decided by a paradox rule, not by strength.
        None => (Verdict::Bounce, Reason::None),
    }
}

/// A convoy order fails when its fleet is dislodged, and also when the army's convoy
/// was broken elsewhere. Under the 1971 rules a convoy that would be disrupted is
/// not used at all: the army takes the land route (DATC 4.A.3).
fn explain_convoy<A: Allegiance + ?Sized>(r: &mut Resolver<A>, f: Province) -> (Verdict, Reason) {
    let army = r.board.slot(f).from;
    let s = *r.board.slot(army);
    if s.land_fallback && r.rules.adjacent_convoy == AdjacentConvoy::Rules1971 && !r.by_convoy(army)
    {
        return (Verdict::Void, Reason::LandRoute);
    }
    if !r.succeeded(f) {
        return (Verdict::Disrupted, Reason::DisruptedBy { fleet: f });
    }
    if r.convoy_path(army) {
        return (Verdict::Ok, Reason::None);
    }
    let route = r.board.route(army);
    match route.iter().find(|&g| !r.succeeded(g)) {
        Some(fleet) if r.paradox.contains(fleet) => (Verdict::Disrupted, Reason::Paradox),
        Some(fleet) => (Verdict::Disrupted, Reason::DisruptedBy { fleet }),
        None => (Verdict::Disrupted, Reason::None),
    }
}
