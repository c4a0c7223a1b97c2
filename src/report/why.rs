//! Plain words for each order that failed, from the adjudicator's reasons:
//! `Army Munich -> Burgundy bounced: 1 against 2 (Army Paris supported by Army
//! Marseilles)`.
//!
//! Written onto a caller's buffer (`explain_into`): the JSON interface writes
//! one for every failed order of every phase it is given.

use std::fmt::{self, Write as _};

use super::names::{power_name, write_unit_name};
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
    let mut line = String::new();
    explain_into(&mut line, map, before, all, r, text).then_some(line)
}

/// `explain`, appended to `out`; `false` (and `out` as it was) when there is
/// nothing to explain.
pub fn explain_into(
    out: &mut String,
    map: &Map,
    before: &Position,
    all: &[Resolution],
    r: &Resolution,
    text: &str,
) -> bool {
    let ctx = Ctx { map, before, all };
    let failed = !super::model::fleet_dislodged_while_convoying(r)
        && match r.verdict {
            Verdict::Ok => false,
            Verdict::Disband => !matches!(r.order, Order::Disband { .. } | Order::Remove { .. }),
            _ => true,
        };
    if failed {
        ctx.failure(out, r, text);
    } else if r.reason == Reason::CivilDisorder {
        out.push_str(text);
        out.push_str(": removed by civil disorder, for want of orders");
    } else if r.dislodged {
        out.push_str(text);
    } else {
        return false;
    }
    if r.dislodged {
        match r.dislodged_by {
            Some(by) => {
                out.push_str("; dislodged by ");
                // Writing to a `String` cannot fail.
                let _ = ctx.write_unit_at(out, by);
            }
            None => out.push_str("; dislodged"),
        }
    }
    true
}

/// The unit that stood in a province, named (`Ctx::unit_at`).
struct UnitAt<'c, 'a>(&'c Ctx<'a>, Province);

impl fmt::Display for UnitAt<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.write_unit_at(f, self.1)
    }
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
    fn write_unit_at<W: fmt::Write>(&self, out: &mut W, p: Province) -> fmt::Result {
        let unit = match self.before.phase.kind {
            PhaseKind::Retreat => self.before.dislodged_at(p).map(|d| d.unit),
            _ => self.before.unit_at(p).copied(),
        };
        match unit {
            Some(u) => write_unit_name(out, self.map, u.kind, u.location),
            None => {
                out.write_str("the unit in ")?;
                out.write_str(self.name(p))
            }
        }
    }

    /// `write_unit_at` for a `write!`.
    fn unit_at(&self, p: Province) -> UnitAt<'_, '_> {
        UnitAt(self, p)
    }

    fn failure(&self, out: &mut String, r: &Resolution, text: &str) {
        let what = match r.verdict {
            Verdict::Bounce => "bounced",
            Verdict::Cut => "was cut",
            Verdict::Void => "was void",
            _ => "failed",
        };
        out.push_str(text);
        out.push(' ');
        out.push_str(what);
        self.detail(out, r);
    }

    /// `: ` and the reason, if there is one to give.
    fn detail(&self, out: &mut String, r: &Resolution) {
        if matches!(
            r.reason,
            Reason::None | Reason::Unordered | Reason::LandRoute | Reason::Waived
        ) {
            return;
        }
        out.push_str(": ");
        let n = |p: Province| self.name(p);
        // Writing to a `String` cannot fail.
        let _ = match r.reason {
            Reason::None | Reason::Unordered | Reason::LandRoute | Reason::Waived => Ok(()),
            Reason::NoUnit { at } => write!(out, "there is no unit in {}", n(at)),
            Reason::ForeignUnit { owner } => {
                write!(out, "the unit belongs to {}", power_name(self.map, owner))
            }
            Reason::Replaced => out.write_str("a later order to the same unit replaced it"),
            Reason::Conflicting => {
                out.write_str("the unit had several different orders, so it held")
            }
            Reason::WrongPhase => out.write_str("that kind of order is not given in this phase"),
            Reason::NotAdjacent { to } => match r.order.unit() {
                Some(u) => write!(out, "{} does not border {}", n(to), n(u.province())),
                None => write!(out, "{} does not border the unit", n(to)),
            },
            Reason::ArmyToSea { to } => write!(out, "an army cannot enter {}, a sea", n(to)),
            Reason::FleetInland { to } => {
                write!(out, "a fleet cannot enter {}, an inland province", n(to))
            }
            Reason::Impassable { to } => write!(out, "no unit may enter {}", n(to)),
            Reason::CoastUnreachable { to } => {
                write!(out, "the fleet cannot reach that coast of {}", n(to))
            }
            Reason::CoastNeeded { to } => {
                write!(
                    out,
                    "the fleet can reach two coasts of {} and the order names neither",
                    n(to)
                )
            }
            Reason::MoveToSelf => out.write_str("a unit cannot move to where it stands"),
            Reason::SupportSelf => out.write_str("a unit cannot support itself"),
            Reason::SupportUnreachable { to } => {
                write!(out, "the supporting unit cannot reach {}", n(to))
            }
            Reason::SupportedMoveImpossible { to } => {
                write!(out, "the supported unit cannot reach {}", n(to))
            }
            Reason::NoSupportedUnit { at } => write!(out, "there is no unit in {}", n(at)),
            Reason::ConvoyByArmy => out.write_str("only a fleet can convoy"),
            Reason::ConvoyFromCoast => out.write_str("a fleet can convoy only from a sea"),
            Reason::ConvoyOfFleet { at } => {
                write!(
                    out,
                    "only an army can be convoyed, and {} holds a fleet",
                    n(at)
                )
            }
            Reason::ConvoyNotOnRoute => out.write_str("the fleet lies on no route for that move"),
            Reason::WrongUnitKind => out.write_str("the order names the wrong type of unit"),
            Reason::SupportNotMatched { supported } => {
                write!(
                    out,
                    "{} was not ordered to do that",
                    self.unit_at(supported)
                )
            }
            Reason::ConvoyOffNamedPath { army } => {
                write!(
                    out,
                    "{} named its convoy path, and this fleet is not on it",
                    self.unit_at(army)
                )
            }
            Reason::ConvoyNotMatched { army } => {
                write!(
                    out,
                    "{} was not ordered to make that move",
                    self.unit_at(army)
                )
            }
            Reason::Bounced {
                by,
                strength,
                opposing,
            } => {
                let _ = write!(out, "{strength} against {opposing} (");
                self.with_supports(out, by, &r.order);
                out.write_char(')')
            }
            Reason::OwnUnit { at } => {
                write!(
                    out,
                    "it would have dislodged its own side's {}",
                    self.unit_at(at)
                )
            }
            Reason::CutBy { by } => write!(out, "support cut by {}", self.unit_at(by)),
            Reason::DisruptedBy { fleet } => {
                write!(out, "the convoying {} was dislodged", self.unit_at(fleet))
            }
            Reason::NoConvoyRoute => out.write_str("no fleets were ordered to convoy it"),
            Reason::Paradox => {
                out.write_str("the convoy was caught in a paradox and the fleets held")
            }
            Reason::RetreatClash { with } => write!(
                out,
                "{} retreated there too, and both were disbanded",
                self.unit_at(with)
            ),
            Reason::RetreatBlocked { to } => write!(out, "{} is not free to retreat into", n(to)),
            Reason::NoRetreat => out.write_str("it had nowhere to retreat, and was disbanded"),
            Reason::NotHomeCenter { at } => {
                write!(out, "{} is not a home supply center of the builder", n(at))
            }
            Reason::CenterNotOwned { at } => write!(out, "the builder does not own {} now", n(at)),
            Reason::Occupied { at } => write!(out, "a unit already stands in {}", n(at)),
            Reason::FleetBuildInland { at } => {
                write!(
                    out,
                    "a fleet cannot be built in {}, an inland province",
                    n(at)
                )
            }
            Reason::ArmyBuildAtSea { at } => write!(out, "an army cannot be built in {}", n(at)),
            Reason::NoBuildsLeft => out.write_str("no builds were left"),
            Reason::NoRemovalsLeft => out.write_str("no more removals were due"),
            Reason::CivilDisorder => out.write_str("removed by civil disorder"),
        };
    }

    /// `Army Paris supported by Army Marseilles and Fleet Gascony`: the unit that
    /// stood in `by` and the supports that counted for it against `ours`: its
    /// move's supports if it moved to the same place or against us head to head,
    /// its hold supports if it stayed; none if it tried to go elsewhere and failed.
    fn with_supports(&self, out: &mut String, by: Province, ours: &Order) {
        let _ = self.write_unit_at(out, by);
        let (origin, dest) = match *ours {
            Order::Move { unit, to, .. } => (unit.province(), to.province),
            _ => return,
        };
        let rival_move = self.all.iter().find_map(|r| match r.order {
            Order::Move { unit, to, .. } if unit.province() == by && !r.defaulted => {
                Some(to.province)
            }
            _ => None,
        });
        if rival_move.is_some_and(|to| to != dest && to != origin) {
            return;
        }
        let supporters = || {
            self.all
                .iter()
                .filter(|r| r.verdict == Verdict::Ok)
                .filter(move |r| match (r.order, rival_move) {
                    (Order::SupportHold { supported, .. }, None) => supported.province() == by,
                    (Order::SupportMove { supported, to, .. }, Some(dest)) => {
                        supported.province() == by && to.province == dest
                    }
                    _ => false,
                })
                .filter_map(|r| r.order.unit().map(|u| u.province()))
        };
        let count = supporters().count();
        for (i, p) in supporters().enumerate() {
            out.push_str(match i {
                0 => " supported by ",
                _ if i + 1 == count => " and ",
                _ => ", ",
            });
            let _ = self.write_unit_at(out, p);
        }
    }
}
