//! Plain words for each order that failed, from the adjudicator's reasons:
//! `Army Munich -> Burgundy bounced: 1 against 2 (Army Paris supported by Army
//! Marseilles)`.

use super::names::{power_name, unit_name};
use crate::judge::{Position, Reason, Resolution, Verdict};
use crate::map::{Map, Province};
use crate::orders::Order;
use crate::phase::PhaseKind;

/// The explanation of one resolution, or `None` when there is nothing to explain
/// (the order did what it said and the unit stayed).
pub fn explain(
    map: &Map,
    before: &Position,
    all: &[Resolution],
    r: &Resolution,
    text: &str,
) -> Option<String> {
    let ctx = Ctx { map, before, all };
    let failed = !super::model::fleet_dislodged_while_convoying(r)
        && match r.verdict {
            Verdict::Ok => false,
            Verdict::Disband => !matches!(r.order, Order::Disband { .. } | Order::Remove { .. }),
            _ => true,
        };
    let mut line = if failed {
        ctx.failure(r, text)
    } else if r.reason == Reason::CivilDisorder {
        format!("{text}: removed by civil disorder, for want of orders")
    } else if r.dislodged {
        text.to_string()
    } else {
        return None;
    };
    if r.dislodged {
        match r.dislodged_by {
            Some(by) => line.push_str(&format!("; dislodged by {}", ctx.unit_at(by))),
            None => line.push_str("; dislodged"),
        }
    }
    Some(line)
}

struct Ctx<'a> {
    map: &'a Map,
    before: &'a Position,
    all: &'a [Resolution],
}

impl Ctx<'_> {
    fn name(&self, p: Province) -> &str {
        self.map.name(p)
    }

    /// The unit that stood in `p` before the phase (in a retreat phase, the
    /// dislodged one), named; `the unit in X` when the board has none there.
    fn unit_at(&self, p: Province) -> String {
        let unit = match self.before.phase.kind {
            PhaseKind::Retreat => self.before.dislodged_at(p).map(|d| d.unit),
            _ => self.before.unit_at(p).copied(),
        };
        match unit {
            Some(u) => unit_name(self.map, u.kind, u.location),
            None => format!("the unit in {}", self.name(p)),
        }
    }

    fn failure(&self, r: &Resolution, text: &str) -> String {
        let what = match r.verdict {
            Verdict::Bounce => "bounced",
            Verdict::Cut => "was cut",
            Verdict::Void => "was void",
            _ => "failed",
        };
        match self.detail(r) {
            Some(detail) => format!("{text} {what}: {detail}"),
            None => format!("{text} {what}"),
        }
    }

    fn detail(&self, r: &Resolution) -> Option<String> {
        let n = |p: Province| self.name(p).to_string();
        Some(match r.reason {
            Reason::None | Reason::Unordered | Reason::LandRoute | Reason::Waived => return None,
            Reason::NoUnit { at } => format!("there is no unit in {}", n(at)),
            Reason::ForeignUnit { owner } => {
                format!("the unit belongs to {}", power_name(self.map, owner))
            }
            Reason::Replaced => "a later order to the same unit replaced it".into(),
            Reason::Conflicting => "the unit had several different orders, so it held".into(),
            Reason::WrongPhase => "that kind of order is not given in this phase".into(),
            Reason::NotAdjacent { to } => match r.order.unit() {
                Some(u) => format!("{} does not border {}", n(to), n(u.province())),
                None => format!("{} does not border the unit", n(to)),
            },
            Reason::ArmyToSea { to } => format!("an army cannot enter {}, a sea", n(to)),
            Reason::FleetInland { to } => {
                format!("a fleet cannot enter {}, an inland province", n(to))
            }
            Reason::Impassable { to } => format!("no unit may enter {}", n(to)),
            Reason::CoastUnreachable { to } => {
                format!("the fleet cannot reach that coast of {}", n(to))
            }
            Reason::CoastNeeded { to } => {
                format!(
                    "the fleet can reach two coasts of {} and the order names neither",
                    n(to)
                )
            }
            Reason::MoveToSelf => "a unit cannot move to where it stands".into(),
            Reason::SupportSelf => "a unit cannot support itself".into(),
            Reason::SupportUnreachable { to } => {
                format!("the supporting unit cannot reach {}", n(to))
            }
            Reason::SupportedMoveImpossible { to } => {
                format!("the supported unit cannot reach {}", n(to))
            }
            Reason::NoSupportedUnit { at } => format!("there is no unit in {}", n(at)),
            Reason::ConvoyByArmy => "only a fleet can convoy".into(),
            Reason::ConvoyFromCoast => "a fleet can convoy only from a sea".into(),
            Reason::ConvoyOfFleet { at } => {
                format!("only an army can be convoyed, and {} holds a fleet", n(at))
            }
            Reason::ConvoyNotOnRoute => "the fleet lies on no route for that move".into(),
            Reason::WrongUnitKind => "the order names the wrong type of unit".into(),
            Reason::SupportNotMatched { supported } => {
                format!("{} was not ordered to do that", self.unit_at(supported))
            }
            Reason::ConvoyOffNamedPath { army } => {
                format!(
                    "{} named its convoy path, and this fleet is not on it",
                    self.unit_at(army)
                )
            }
            Reason::ConvoyNotMatched { army } => {
                format!("{} was not ordered to make that move", self.unit_at(army))
            }
            Reason::Bounced {
                by,
                strength,
                opposing,
            } => format!(
                "{strength} against {opposing} ({})",
                self.with_supports(by, &r.order)
            ),
            Reason::OwnUnit { at } => {
                format!(
                    "it would have dislodged its own side's {}",
                    self.unit_at(at)
                )
            }
            Reason::CutBy { by } => format!("support cut by {}", self.unit_at(by)),
            Reason::DisruptedBy { fleet } => {
                format!("the convoying {} was dislodged", self.unit_at(fleet))
            }
            Reason::NoConvoyRoute => "no fleets were ordered to convoy it".into(),
            Reason::Paradox => "the convoy was caught in a paradox and the fleets held".into(),
            Reason::RetreatClash { with } => format!(
                "{} retreated there too, and both were disbanded",
                self.unit_at(with)
            ),
            Reason::RetreatBlocked { to } => format!("{} is not free to retreat into", n(to)),
            Reason::NoRetreat => "it had nowhere to retreat, and was disbanded".into(),
            Reason::NotHomeCenter { at } => {
                format!("{} is not a home supply center of the builder", n(at))
            }
            Reason::CenterNotOwned { at } => format!("the builder does not own {} now", n(at)),
            Reason::Occupied { at } => format!("a unit already stands in {}", n(at)),
            Reason::FleetBuildInland { at } => {
                format!("a fleet cannot be built in {}, an inland province", n(at))
            }
            Reason::ArmyBuildAtSea { at } => format!("an army cannot be built in {}", n(at)),
            Reason::NoBuildsLeft => "no builds were left".into(),
            Reason::NoRemovalsLeft => "no more removals were due".into(),
            Reason::CivilDisorder => "removed by civil disorder".into(),
        })
    }

    /// `Army Paris supported by Army Marseilles and Fleet Gascony`: the unit that
    /// stood in `by` and the supports that counted for it against `ours`: its
    /// move's supports if it moved to the same place or against us head to head,
    /// its hold supports if it stayed; none if it tried to go elsewhere and failed.
    fn with_supports(&self, by: Province, ours: &Order) -> String {
        let head = self.unit_at(by);
        let (origin, dest) = match *ours {
            Order::Move { unit, to, .. } => (unit.province(), to.province),
            _ => return head,
        };
        let rival_move = self.all.iter().find_map(|r| match r.order {
            Order::Move { unit, to, .. } if unit.province() == by && !r.defaulted => {
                Some(to.province)
            }
            _ => None,
        });
        if rival_move.is_some_and(|to| to != dest && to != origin) {
            return head;
        }
        let supporters: Vec<String> = self
            .all
            .iter()
            .filter(|r| r.verdict == Verdict::Ok)
            .filter(|r| match (r.order, rival_move) {
                (Order::SupportHold { supported, .. }, None) => supported.province() == by,
                (Order::SupportMove { supported, to, .. }, Some(dest)) => {
                    supported.province() == by && to.province == dest
                }
                _ => false,
            })
            .filter_map(|r| r.order.unit().map(|u| self.unit_at(u.province())))
            .collect();
        match supporters.split_last() {
            None => head,
            Some((last, [])) => format!("{head} supported by {last}"),
            Some((last, rest)) => format!("{head} supported by {} and {last}", rest.join(", ")),
        }
    }
}
