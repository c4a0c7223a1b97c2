//! Plain words for each order that failed, from the adjudicator's reasons:
//! `Army Munich -> Burgundy bounced: 1 against 2 (Army Paris supported by Army
//! Marseilles)`.
//!
//! Written onto a caller's buffer (`explain_into`): the JSON interface writes
//! one for every failed order of every phase it is given. Its own words are
//! plain JSON text (no `"`, `\` or control character), so an explanation
//! is whenever the order's text and the map's names are: the JSON interface
//! then copies it as it is (a test below holds every reason to that).

use std::cell::OnceCell;
use std::fmt;

use super::names::{power_name, write_unit_name};
use crate::judge::{Position, Reason, Resolution, Unit, Verdict};
use crate::map::{Map, Province};
use crate::orders::Order;
use crate::phase::PhaseKind;

/// Where an explanation is written: a `String`, or a caller's own text
/// that grows at its end (the JSON interface writes into its document).
pub trait Text: fmt::Write {
    #[inline]
    fn push_str(&mut self, text: &str) {
        // Writing to the texts here cannot fail.
        let _ = self.write_str(text);
    }

    #[inline]
    fn push(&mut self, c: char) {
        let _ = self.write_char(c);
    }
}

impl Text for String {}

/// An adjudicated phase, explained order by order: the board before it and
/// every resolution. The explanations of one phase look up the same few
/// units and moves again and again: by province, in tables made the first
/// time one is needed.
pub struct Adjudicated<'a> {
    pub(super) map: &'a Map,
    pub(super) before: &'a Position,
    pub(super) all: &'a [Resolution],
    /// The units that stood in each province before the phase (in a retreat
    /// phase, the dislodged ones).
    units: OnceCell<ByProvince>,
    /// The moves ordered from each province (not defaults), in `all`.
    moves: OnceCell<ByProvince>,
}

/// Per province: 1 + the place in a list of its first item there; 0 for
/// none. `None` for a list too long for a byte, which is searched instead.
type ByProvince = Option<[u8; 256]>;

/// The `ByProvince` table of `items`, each in a province or in none.
fn by_province<I>(items: I) -> ByProvince
where
    I: DoubleEndedIterator<Item = Option<Province>> + ExactSizeIterator,
{
    if items.len() >= usize::from(u8::MAX) {
        return None;
    }
    let mut table = [0; 256];
    // Backwards, so that the first of two in one province counts.
    for (i, p) in items.enumerate().rev() {
        if let Some(p) = p {
            table[usize::from(p.0)] = i as u8 + 1;
        }
    }
    Some(table)
}

impl<'a> Adjudicated<'a> {
    pub fn new(map: &'a Map, before: &'a Position, all: &'a [Resolution]) -> Adjudicated<'a> {
        Adjudicated {
            map,
            before,
            all,
            units: OnceCell::new(),
            moves: OnceCell::new(),
        }
    }

    /// The explanation of `r`, whose order reads `text`, or `None` when
    /// there is nothing to explain (the order did what it said and the unit
    /// stayed).
    pub fn explain(&self, r: &Resolution, text: &str) -> Option<String> {
        let mut line = String::new();
        self.explain_into(&mut line, r, text).then_some(line)
    }

    /// `explain`, appended to `out`; `false` (and `out` as it was) when
    /// there is nothing to explain.
    #[inline]
    pub fn explain_into<T: Text>(&self, out: &mut T, r: &Resolution, text: &str) -> bool {
        if !may_explain(r) {
            return false;
        }
        self.explain_other(out, r, text)
    }

    fn explain_other<T: Text>(&self, out: &mut T, r: &Resolution, text: &str) -> bool {
        let failed = !super::model::fleet_dislodged_while_convoying(r)
            && match r.verdict {
                Verdict::Ok => false,
                Verdict::Disband => {
                    !matches!(r.order, Order::Disband { .. } | Order::Remove { .. })
                }
                _ => true,
            };
        if failed {
            self.failure(out, r, text);
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
                    self.put_unit_at(out, by);
                }
                None => out.push_str("; dislodged"),
            }
        }
        true
    }

    /// The unit that stood in `p` before the phase (in a retreat phase, the
    /// dislodged one).
    pub(super) fn unit_at(&self, p: Province) -> Option<Unit> {
        let (units, dislodged) = (&self.before.units, &self.before.dislodged);
        let retreat = self.before.phase.kind == PhaseKind::Retreat;
        let table = self.units.get_or_init(|| match retreat {
            true => by_province(dislodged.iter().map(|d| Some(d.unit.province()))),
            false => by_province(units.iter().map(|u| Some(u.province()))),
        });
        match table {
            Some(t) => {
                let i = usize::from(t[usize::from(p.0)]).checked_sub(1)?;
                match retreat {
                    true => self.before.dislodged.get(i).map(|d| d.unit),
                    false => self.before.units.get(i).copied(),
                }
            }
            None if retreat => self.before.dislodged_at(p).map(|d| d.unit),
            None => self.before.unit_at(p).copied(),
        }
    }

    /// Where the unit in `p` was ordered to move (not a default), if it was.
    fn move_from(&self, p: Province) -> Option<Province> {
        let destination = |r: &Resolution| match r.order {
            Order::Move { unit, to, .. } if unit.province() == p && !r.defaulted => {
                Some(to.province)
            }
            _ => None,
        };
        let table = self.moves.get_or_init(|| {
            by_province(self.all.iter().map(|r| match r.order {
                Order::Move { unit, .. } if !r.defaulted => Some(unit.province()),
                _ => None,
            }))
        });
        match table {
            Some(t) => {
                let i = usize::from(t[usize::from(p.0)]).checked_sub(1)?;
                self.all.get(i).and_then(destination)
            }
            None => self.all.iter().find_map(destination),
        }
    }
}

/// `false` when `Adjudicated::explain` has nothing to say about `r` for
/// certain: most orders, done with the unit staying (`true` may still give
/// nothing).
#[inline]
pub fn may_explain(r: &Resolution) -> bool {
    r.verdict != Verdict::Ok || r.dislodged || r.reason == Reason::CivilDisorder
}

/// `n` in decimal.
fn number<T: Text>(out: &mut T, n: u32) {
    // Strengths are mostly one digit.
    if let Some(digit) = char::from_digit(n, 10) {
        out.push(digit);
        return;
    }
    let mut digits = [0u8; 10];
    let (mut n, mut at) = (n, digits.len());
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

impl Adjudicated<'_> {
    fn name(&self, p: Province) -> &str {
        self.map.name(p)
    }

    /// The unit that stood in `p` before the phase (in a retreat phase, the
    /// dislodged one), named; `the unit in X` when the board has none there.
    fn write_unit_at<W: fmt::Write>(&self, out: &mut W, p: Province) -> fmt::Result {
        match self.unit_at(p) {
            Some(u) => write_unit_name(out, self.map, u.kind, u.location),
            None => {
                out.write_str("the unit in ")?;
                out.write_str(self.name(p))
            }
        }
    }

    /// `write_unit_at` onto a `Text`.
    fn put_unit_at<T: Text>(&self, out: &mut T, p: Province) {
        // Writing to a `Text` cannot fail.
        let _ = self.write_unit_at(out, p);
    }

    fn failure<T: Text>(&self, out: &mut T, r: &Resolution, text: &str) {
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

    /// `: ` and the reason, if there is one to give. Written piece by piece,
    /// without the formatting machinery: the JSON interface writes one for
    /// every failed order of every phase it is given.
    fn detail<T: Text>(&self, out: &mut T, r: &Resolution) {
        if matches!(
            r.reason,
            Reason::None | Reason::Unordered | Reason::LandRoute | Reason::Waived
        ) {
            return;
        }
        out.push_str(": ");
        let n = |p: Province| self.name(p);
        // Words, a place's name, words.
        let around = |out: &mut T, before: &str, p: Province, after: &str| {
            out.push_str(before);
            out.push_str(n(p));
            out.push_str(after);
        };
        // Words, the unit that stood in a province, words.
        let unit = |out: &mut T, before: &str, p: Province, after: &str| {
            out.push_str(before);
            self.put_unit_at(out, p);
            out.push_str(after);
        };
        match r.reason {
            Reason::None | Reason::Unordered | Reason::LandRoute | Reason::Waived => {}
            Reason::NoUnit { at } => around(out, "there is no unit in ", at, ""),
            Reason::ForeignUnit { owner } => {
                out.push_str("the unit belongs to ");
                out.push_str(&power_name(self.map, owner));
            }
            Reason::Replaced => out.push_str("a later order to the same unit replaced it"),
            Reason::Conflicting => {
                out.push_str("the unit had several different orders, so it held")
            }
            Reason::WrongPhase => out.push_str("that kind of order is not given in this phase"),
            Reason::NotAdjacent { to } => match r.order.unit() {
                Some(u) => {
                    around(out, "", to, " does not border ");
                    out.push_str(n(u.province()));
                }
                None => around(out, "", to, " does not border the unit"),
            },
            Reason::ArmyToSea { to } => around(out, "an army cannot enter ", to, ", a sea"),
            Reason::FleetInland { to } => {
                around(out, "a fleet cannot enter ", to, ", an inland province")
            }
            Reason::Impassable { to } => around(out, "no unit may enter ", to, ""),
            Reason::CoastUnreachable { to } => {
                around(out, "the fleet cannot reach that coast of ", to, "")
            }
            Reason::CoastNeeded { to } => around(
                out,
                "the fleet can reach two coasts of ",
                to,
                " and the order names neither",
            ),
            Reason::MoveToSelf => out.push_str("a unit cannot move to where it stands"),
            Reason::SupportSelf => out.push_str("a unit cannot support itself"),
            Reason::SupportUnreachable { to } => {
                around(out, "the supporting unit cannot reach ", to, "")
            }
            Reason::SupportedMoveImpossible { to } => {
                around(out, "the supported unit cannot reach ", to, "")
            }
            Reason::NoSupportedUnit { at } => around(out, "there is no unit in ", at, ""),
            Reason::ConvoyByArmy => out.push_str("only a fleet can convoy"),
            Reason::ConvoyFromCoast => out.push_str("a fleet can convoy only from a sea"),
            Reason::ConvoyOfFleet { at } => around(
                out,
                "only an army can be convoyed, and ",
                at,
                " holds a fleet",
            ),
            Reason::ConvoyNotOnRoute => out.push_str("the fleet lies on no route for that move"),
            Reason::WrongUnitKind => out.push_str("the order names the wrong type of unit"),
            Reason::SupportNotMatched { supported } => {
                unit(out, "", supported, " was not ordered to do that")
            }
            Reason::ConvoyOffNamedPath { army } => unit(
                out,
                "",
                army,
                " named its convoy path, and this fleet is not on it",
            ),
            Reason::ConvoyNotMatched { army } => {
                unit(out, "", army, " was not ordered to make that move")
            }
            Reason::Bounced {
                by,
                strength,
                opposing,
            } => {
                number(out, strength.into());
                out.push_str(" against ");
                number(out, opposing.into());
                out.push_str(" (");
                self.with_supports(out, by, &r.order);
                out.push(')');
            }
            Reason::OwnUnit { at } => unit(out, "it would have dislodged its own side's ", at, ""),
            Reason::CutBy { by } => unit(out, "support cut by ", by, ""),
            Reason::DisruptedBy { fleet } => unit(out, "the convoying ", fleet, " was dislodged"),
            Reason::NoConvoyRoute => out.push_str("no fleets were ordered to convoy it"),
            Reason::Paradox => {
                out.push_str("the convoy was caught in a paradox and the fleets held")
            }
            Reason::RetreatClash { with } => unit(
                out,
                "",
                with,
                " retreated there too, and both were disbanded",
            ),
            Reason::RetreatBlocked { to } => around(out, "", to, " is not free to retreat into"),
            Reason::NoRetreat => out.push_str("it had nowhere to retreat, and was disbanded"),
            Reason::NotHomeCenter { at } => {
                around(out, "", at, " is not a home supply center of the builder")
            }
            Reason::CenterNotOwned { at } => around(out, "the builder does not own ", at, " now"),
            Reason::Occupied { at } => around(out, "a unit already stands in ", at, ""),
            Reason::FleetBuildInland { at } => around(
                out,
                "a fleet cannot be built in ",
                at,
                ", an inland province",
            ),
            Reason::ArmyBuildAtSea { at } => around(out, "an army cannot be built in ", at, ""),
            Reason::NoBuildsLeft => out.push_str("no builds were left"),
            Reason::NoRemovalsLeft => out.push_str("no more removals were due"),
            Reason::CivilDisorder => out.push_str("removed by civil disorder"),
        }
    }

    /// `Army Paris supported by Army Marseilles and Fleet Gascony`: the unit that
    /// stood in `by` and the supports that counted for it against `ours`: its
    /// move's supports if it moved to the same place or against us head to head,
    /// its hold supports if it stayed; none if it tried to go elsewhere and failed.
    fn with_supports<T: Text>(&self, out: &mut T, by: Province, ours: &Order) {
        self.put_unit_at(out, by);
        let (origin, dest) = match *ours {
            Order::Move { unit, to, .. } => (unit.province(), to.province),
            _ => return,
        };
        let rival_move = self.move_from(by);
        if rival_move.is_some_and(|to| to != dest && to != origin) {
            return;
        }
        let supporters = self
            .all
            .iter()
            .filter(|r| r.verdict == Verdict::Ok)
            .filter(move |r| match (r.order, rival_move) {
                (Order::SupportHold { supported, .. }, None) => supported.province() == by,
                (Order::SupportMove { supported, to, .. }, Some(dest)) => {
                    supported.province() == by && to.province == dest
                }
                _ => false,
            })
            .filter_map(|r| r.order.unit().map(|u| u.province()));
        // One pass: each supporter is written once the next is found, so the
        // last is known when it comes to be written (`and` before it).
        let mut held = None;
        let mut written = 0;
        for p in supporters {
            if let Some(q) = held.replace(p) {
                out.push_str(if written == 0 { " supported by " } else { ", " });
                self.put_unit_at(out, q);
                written += 1;
            }
        }
        if let Some(q) = held {
            out.push_str(if written == 0 {
                " supported by "
            } else {
                " and "
            });
            self.put_unit_at(out, q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Adjudicated;
    use crate::judge::{Position, Reason, Resolution, Unit, Verdict};
    use crate::map::{Map, Power, Province, UnitKind};
    use crate::orders::{Order, UnitSpec};

    /// One of each reason, about the provinces `p` and `q`.
    fn every_reason(p: Province, q: Province) -> Vec<Reason> {
        use Reason::*;
        // Fails to compile when a reason is added: list it below as well.
        let _listed = |r: Reason| match r {
            None
            | NoUnit { .. }
            | ForeignUnit { .. }
            | Replaced
            | Conflicting
            | WrongPhase
            | NotAdjacent { .. }
            | ArmyToSea { .. }
            | FleetInland { .. }
            | Impassable { .. }
            | CoastUnreachable { .. }
            | CoastNeeded { .. }
            | MoveToSelf
            | SupportSelf
            | SupportUnreachable { .. }
            | SupportedMoveImpossible { .. }
            | NoSupportedUnit { .. }
            | ConvoyByArmy
            | ConvoyFromCoast
            | ConvoyOfFleet { .. }
            | ConvoyNotOnRoute
            | WrongUnitKind
            | SupportNotMatched { .. }
            | ConvoyNotMatched { .. }
            | ConvoyOffNamedPath { .. }
            | Bounced { .. }
            | OwnUnit { .. }
            | CutBy { .. }
            | DisruptedBy { .. }
            | NoConvoyRoute
            | Paradox
            | LandRoute
            | Unordered
            | RetreatClash { .. }
            | RetreatBlocked { .. }
            | NoRetreat
            | NotHomeCenter { .. }
            | CenterNotOwned { .. }
            | Occupied { .. }
            | FleetBuildInland { .. }
            | ArmyBuildAtSea { .. }
            | NoBuildsLeft
            | NoRemovalsLeft
            | Waived
            | CivilDisorder => (),
        };
        vec![
            None,
            NoUnit { at: q },
            ForeignUnit { owner: Power(1) },
            Replaced,
            Conflicting,
            WrongPhase,
            NotAdjacent { to: q },
            ArmyToSea { to: q },
            FleetInland { to: q },
            Impassable { to: q },
            CoastUnreachable { to: q },
            CoastNeeded { to: q },
            MoveToSelf,
            SupportSelf,
            SupportUnreachable { to: q },
            SupportedMoveImpossible { to: q },
            NoSupportedUnit { at: q },
            ConvoyByArmy,
            ConvoyFromCoast,
            ConvoyOfFleet { at: q },
            ConvoyNotOnRoute,
            WrongUnitKind,
            SupportNotMatched { supported: q },
            ConvoyNotMatched { army: q },
            ConvoyOffNamedPath { army: p },
            Bounced {
                by: q,
                strength: 1,
                opposing: 12,
            },
            OwnUnit { at: q },
            CutBy { by: q },
            DisruptedBy { fleet: q },
            NoConvoyRoute,
            Paradox,
            LandRoute,
            Unordered,
            RetreatClash { with: q },
            RetreatBlocked { to: q },
            NoRetreat,
            NotHomeCenter { at: q },
            CenterNotOwned { at: q },
            Occupied { at: q },
            FleetBuildInland { at: q },
            ArmyBuildAtSea { at: q },
            NoBuildsLeft,
            NoRemovalsLeft,
            Waived,
            CivilDisorder,
        ]
    }

    #[test]
    fn every_explanation_is_plain_json_text_when_its_order_and_names_are() {
        let map = Map::standard();
        let at = |code| map.lookup(code).expect(code).province;
        let (stp, mos) = (at("STP"), at("MOS"));
        let unit = |p, kind| UnitSpec::new(kind, p);
        let mut before = Position::initial(map);
        before.units.push(Unit {
            power: Power(5),
            kind: UnitKind::Fleet,
            location: map.lookup("STP/SC").expect("a coast"),
        });
        let ours = Order::Move {
            unit: unit(map.lookup("MOS").expect("a place"), UnitKind::Army),
            to: stp.into(),
            via_convoy: false,
        };
        // Three supports for the unit in St Petersburg: `, ` and `and`.
        let support = |from: &str| Resolution {
            power: Power(5),
            order: Order::SupportHold {
                unit: unit(map.lookup(from).expect(from), UnitKind::Army),
                supported: unit(stp.into(), UnitKind::Fleet),
            },
            verdict: Verdict::Ok,
            dislodged: false,
            dislodged_by: None,
            reason: Reason::None,
            defaulted: false,
        };
        let all = [support("WAR"), support("LVN"), support("FIN")];
        let why = Adjudicated::new(map, &before, &all);
        let reasons = every_reason(mos, stp);
        let kinds: std::collections::HashSet<_> =
            reasons.iter().map(std::mem::discriminant).collect();
        assert_eq!(kinds.len(), 45, "one of each reason");
        let verdicts = [
            Verdict::Ok,
            Verdict::Bounce,
            Verdict::Cut,
            Verdict::Void,
            Verdict::NoConvoy,
            Verdict::Disrupted,
            Verdict::Disband,
            Verdict::Failed,
        ];
        let mut explained = 0;
        for reason in reasons {
            for verdict in verdicts {
                for (dislodged, by) in [(false, None), (true, None), (true, Some(stp))] {
                    let r = Resolution {
                        power: Power(5),
                        order: ours,
                        verdict,
                        dislodged,
                        dislodged_by: by,
                        reason,
                        defaulted: false,
                    };
                    let mut line = String::new();
                    if why.explain_into(&mut line, &r, "A MOS - STP") {
                        explained += 1;
                    }
                    let plain = |c: char| c != '"' && c != '\\' && !c.is_control();
                    assert!(line.chars().all(plain), "{reason:?}: {line}");
                }
            }
        }
        // Every reason is written at least once (a failed move).
        assert!(explained >= 45, "{explained}");
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 1, 9, 10, 42, 99, 100, 12345, u32::MAX] {
            let mut out = String::from("x");
            super::number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
