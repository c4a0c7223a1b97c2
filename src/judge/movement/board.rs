//! The movement board: one slot per province holding its unit and the order it
//! will carry out, after legality checks, order choice and matching.

use super::legality::{self, Act, Checked};
use crate::judge::geometry;
use crate::judge::maps::{OrderMaps, pick};
use crate::judge::{AdjacentConvoy, Allegiance, MultipleOrders, Position, Reason, Rules, Unit};
use crate::map::{Location, Map, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, PowerOrder};

/// Provinces a board holds: a `ProvinceSet` has room for 128.
pub(crate) const MAX: usize = 128;
/// Length of the per-province tables: every `u8` index, so that indexing by a
/// province needs no bounds check. Entries from `MAX` on stay empty.
pub(crate) const SPAN: usize = 256;
pub(crate) const NO_ORDER: u16 = u16::MAX;

#[derive(Copy, Clone, Debug)]
pub(crate) struct Slot {
    pub unit: Option<Unit>,
    pub act: Act,
    /// Move: destination. SupportMove / Convoy: the supported move's destination.
    pub to: Location,
    /// SupportHold / SupportMove / Convoy: the supported or convoyed unit's province.
    pub from: Province,
    /// Move: the army goes by convoy.
    pub convoy: bool,
    /// Move (1971): the army may still walk if its convoy fails.
    pub land_fallback: bool,
    /// The input order carried out, or `NO_ORDER`.
    pub order: u16,
}

const EMPTY_SLOT: Slot = Slot {
    unit: None,
    act: Act::Hold,
    to: Location {
        province: Province(0),
        coast: None,
    },
    from: Province(0),
    convoy: false,
    land_fallback: false,
    order: NO_ORDER,
};

/// Per-order status after validation.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Status {
    /// Carried out by the unit in this province.
    Carried(Province),
    /// Not carried out, for this reason.
    Void(Reason),
}

impl Status {
    /// A placeholder for the status table, overwritten for every order.
    pub const UNSET: Status = Status::Void(Reason::None);
}

pub(crate) struct Board {
    pub slots: [Slot; SPAN],
    /// The provinces holding a unit, in ascending order, `count` of them.
    list: [Province; MAX],
    count: usize,
    /// Provinces holding a fleet.
    pub fleets: ProvinceSet,
    /// The map's seas (filled in only when some order is a convoy: only convoy
    /// routes need them).
    pub seas: ProvinceSet,
    /// Movers into each province.
    pub movers_into: [ProvinceSet; SPAN],
    /// Units whose valid support the unit in this province receives.
    pub supporters: [ProvinceSet; SPAN],
    /// Per army going by convoy: the matched convoying fleets lying on a route.
    /// (While orders are matched: per army, the fleets whose convoy matches its move.)
    routes: [ProvinceSet; SPAN],
}

impl Board {
    /// An empty board, on the heap: it is large, and reused (see `clear`).
    pub fn boxed() -> Box<Board> {
        Box::new(Board {
            slots: [EMPTY_SLOT; SPAN],
            list: [Province(0); MAX],
            count: 0,
            fleets: ProvinceSet::EMPTY,
            seas: ProvinceSet::EMPTY,
            movers_into: [ProvinceSet::EMPTY; SPAN],
            supporters: [ProvinceSet::EMPTY; SPAN],
            routes: [ProvinceSet::EMPTY; SPAN],
        })
    }

    /// Empties the board after a phase. Every entry a phase writes belongs to a
    /// province that held a unit, or is the movers into a move's destination (the
    /// `to` its unit's slot still holds), so only those are reset: far cheaper
    /// than zeroing the whole board each phase.
    pub fn clear(&mut self) {
        for k in 0..self.count {
            let i = self.list[k].0 as usize;
            let to = self.slots[i].to.province.0 as usize;
            if let Some(m) = self.movers_into.get_mut(to) {
                *m = ProvinceSet::EMPTY;
            }
            self.supporters[i] = ProvinceSet::EMPTY;
            self.routes[i] = ProvinceSet::EMPTY;
            self.slots[i] = EMPTY_SLOT;
        }
        self.count = 0;
        self.fleets = ProvinceSet::EMPTY;
        self.seas = ProvinceSet::EMPTY;
    }

    /// Is every entry empty, as `clear` must leave it? (Checked in debug builds.)
    pub fn is_empty(&self) -> bool {
        let no_set = |sets: &[ProvinceSet; SPAN]| sets.iter().all(|s| s.is_empty());
        self.slots
            .iter()
            .all(|s| s.unit.is_none() && s.order == NO_ORDER)
            && no_set(&self.movers_into)
            && no_set(&self.supporters)
            && no_set(&self.routes)
            && self.count == 0
    }

    /// Empties every entry, whatever was written (after a phase that did not finish).
    pub fn wipe(&mut self) {
        self.slots.fill(EMPTY_SLOT);
        self.movers_into.fill(ProvinceSet::EMPTY);
        self.supporters.fill(ProvinceSet::EMPTY);
        self.routes.fill(ProvinceSet::EMPTY);
        self.count = 0;
        self.fleets = ProvinceSet::EMPTY;
        self.seas = ProvinceSet::EMPTY;
    }

    /// Puts the position's units on the board. The sets are built in locals:
    /// kept in registers, not written back for every unit.
    pub fn load(&mut self, position: &Position) {
        let mut occupied = ProvinceSet::EMPTY;
        let mut fleets = ProvinceSet::EMPTY;
        for u in &position.units {
            let p = u.location.province;
            // A second unit in one province (malformed input) stays off the board.
            if (p.0 as usize) < MAX && !occupied.contains(p) {
                self.slots[p.0 as usize].unit = Some(*u);
                occupied.insert(p);
                if u.kind == UnitKind::Fleet {
                    fleets.insert(p);
                }
            }
        }
        for (entry, p) in self.list.iter_mut().zip(occupied.iter()) {
            *entry = p;
        }
        self.count = occupied.len() as usize;
        self.fleets = fleets;
    }

    /// The provinces holding a unit, in ascending order.
    #[inline]
    pub fn units(&self) -> &[Province] {
        &self.list[..self.count]
    }

    #[inline]
    pub fn unit(&self, p: Province) -> Option<Unit> {
        self.slots[p.0 as usize].unit
    }

    #[inline]
    pub fn slot(&self, p: Province) -> &Slot {
        &self.slots[p.0 as usize]
    }

    /// The convoying fleets on a route of the army in `p` (empty if none).
    #[inline]
    pub fn route(&self, p: Province) -> ProvinceSet {
        self.routes
            .get(p.0 as usize)
            .copied()
            .unwrap_or(ProvinceSet::EMPTY)
    }

    /// Checks every order, gives each unit the order it carries out, and fills in
    /// `status` (one entry per input order, `orders.len()` long).
    pub fn assign<A: Allegiance + ?Sized>(
        &mut self,
        map: &Map,
        maps: Option<&OrderMaps<'_>>,
        rules: &Rules,
        allegiance: &A,
        orders: &[PowerOrder],
        status: &mut [Status],
    ) {
        // Where convoy orders were given: the only units convoy matching looks at.
        let mut convoying = ProvinceSet::EMPTY;
        for po in orders {
            if let Order::Convoy { unit, .. } = po.order
                && (unit.location.province.0 as usize) < MAX
            {
                convoying.insert(unit.location.province);
            }
        }
        if !convoying.is_empty() {
            self.seas = geometry::seas(map);
        }
        let mut conflicted = ProvinceSet::EMPTY;
        for (i, po) in orders.iter().enumerate() {
            let checked = legality::check(pick(maps, map, i), map, rules, allegiance, self, po);
            let (p, c) = match checked {
                Ok(pc) => pc,
                Err(reason) => {
                    status[i] = Status::Void(reason);
                    continue;
                }
            };
            status[i] = Status::Carried(p);
            let slot = &mut self.slots[p.0 as usize];
            if slot.order != NO_ORDER {
                let prev = slot.order as usize;
                match rules.multiple_orders {
                    MultipleOrders::First => {
                        status[i] = Status::Void(Reason::Replaced);
                        continue;
                    }
                    MultipleOrders::Last => status[prev] = Status::Void(Reason::Replaced),
                    MultipleOrders::Hold => {
                        if orders[prev].order != po.order {
                            conflicted.insert(p);
                        }
                        status[prev] = Status::Void(Reason::Replaced);
                    }
                }
            }
            set_slot(slot, c, i as u16);
        }
        for p in conflicted.iter() {
            let slot = &mut self.slots[p.0 as usize];
            status[slot.order as usize] = Status::Void(Reason::Conflicting);
            slot.act = Act::Hold;
            slot.order = NO_ORDER;
        }
        self.match_convoys(convoying, status);
        self.match_orders(map, maps, rules, allegiance, status);
    }

    /// Supports count only if the supported unit does what they say; armies next
    /// to their destination go by convoy only as DATC 4.A.3 says.
    fn match_orders<A: Allegiance + ?Sized>(
        &mut self,
        map: &Map,
        maps: Option<&OrderMaps<'_>>,
        rules: &Rules,
        allegiance: &A,
        status: &mut [Status],
    ) {
        for k in 0..self.count {
            let p = self.list[k];
            let s = self.slots[p.0 as usize];
            match s.act {
                Act::Move => {
                    if let Some(army) = s.unit.filter(|u| u.kind == UnitKind::Army) {
                        // The army's route is judged on the map its order names.
                        let map = pick(maps, map, s.order as usize);
                        self.settle_route(map, rules, allegiance, p, army, status);
                    }
                    self.movers_into[s.to.province.0 as usize].insert(p);
                }
                Act::SupportHold | Act::SupportMove => self.match_support(p, s, status),
                Act::Hold | Act::Convoy => {}
            }
        }
    }

    /// Does the army moving from `p` go by convoy, and along which fleets? Voids
    /// the convoys ordered for an army that walks, or lying off every route.
    fn settle_route<A: Allegiance + ?Sized>(
        &mut self,
        map: &Map,
        rules: &Rules,
        allegiance: &A,
        p: Province,
        army: Unit,
        status: &mut [Status],
    ) {
        let i = p.0 as usize;
        let to = self.slots[i].to.province;
        let fleets = self.routes[i];
        let adjacent = map.army_adjacent(p, to);
        if fleets.is_empty() && !self.slots[i].convoy {
            // Neither convoyed nor asking to be: it walks if it can, else its
            // convoy route is empty (the usual case, answered first).
            self.slots[i].convoy = !adjacent;
            self.slots[i].land_fallback = false;
            return;
        }
        let chain = if fleets.is_empty() {
            ProvinceSet::EMPTY
        } else {
            geometry::route_seas(map, self.seas, p, to, fleets)
        };
        let (convoy, fallback) = if !adjacent {
            (true, false)
        } else {
            self.adjacent_route(rules, allegiance, p, army, fleets, chain)
        };
        self.slots[i].convoy = convoy;
        self.slots[i].land_fallback = fallback;
        self.routes[i] = if convoy { chain } else { ProvinceSet::EMPTY };
        for f in fleets.iter() {
            if !convoy {
                self.void(f, Reason::LandRoute, status);
            } else if !chain.contains(f) {
                self.void(f, Reason::ConvoyNotOnRoute, status);
            }
        }
    }

    /// A support counts only if the supported unit does what it says.
    fn match_support(&mut self, p: Province, s: Slot, status: &mut [Status]) {
        let target = self.slots[s.from.0 as usize];
        let matched = match s.act {
            Act::SupportHold => target.unit.is_some() && target.act != Act::Move,
            _ => {
                let coast_ok = match (s.to.coast, target.to.coast) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                target.act == Act::Move && target.to.province == s.to.province && coast_ok
            }
        };
        if matched {
            self.supporters[s.from.0 as usize].insert(p);
        } else {
            self.void(p, Reason::SupportNotMatched { supported: s.from }, status);
        }
    }

    /// Per army, in `routes`: the fleets whose convoy order matches its move.
    /// Other convoy orders are void. Done first: convoys decide which armies go
    /// by sea. `ordered` holds every unit a convoy order was given to.
    fn match_convoys(&mut self, ordered: ProvinceSet, status: &mut [Status]) {
        for p in ordered.iter() {
            let s = self.slots[p.0 as usize];
            if s.act != Act::Convoy {
                continue;
            }
            let a = self.slots[s.from.0 as usize];
            let matched = a.act == Act::Move
                && a.to.province == s.to.province
                && a.unit.is_some_and(|u| u.kind == UnitKind::Army);
            if matched {
                self.routes[s.from.0 as usize].insert(p);
            } else {
                self.void(p, Reason::ConvoyNotMatched { army: s.from }, status);
            }
        }
    }

    /// DATC 4.A.3: does an army next to its destination go by the ordered convoy?
    /// Returns (by convoy, may fall back to land).
    fn adjacent_route<A: Allegiance + ?Sized>(
        &self,
        rules: &Rules,
        allegiance: &A,
        p: Province,
        army: Unit,
        fleets: ProvinceSet,
        chain: ProvinceSet,
    ) -> (bool, bool) {
        let s = self.slots[p.0 as usize];
        match rules.adjacent_convoy {
            AdjacentConvoy::Intent { land_fallback } => {
                let own_fleet = fleets.iter().any(|f| {
                    self.unit(f)
                        .is_some_and(|u| allegiance.same_owner(&u, &army))
                });
                // Until now `convoy` holds the order's "via convoy".
                let wants = s.convoy || own_fleet;
                if land_fallback && chain.is_empty() {
                    (false, false)
                } else {
                    (wants, land_fallback)
                }
            }
            AdjacentConvoy::Rules1971 => {
                let back = self.slots[s.to.province.0 as usize];
                let swap = back.act == Act::Move && back.to.province == p;
                (swap && !chain.is_empty(), true)
            }
        }
    }

    /// The order in `p` is void: the unit holds.
    fn void(&mut self, p: Province, reason: Reason, status: &mut [Status]) {
        let slot = &mut self.slots[p.0 as usize];
        if slot.order != NO_ORDER {
            status[slot.order as usize] = Status::Void(reason);
        }
        // The order stays recorded (reported void); the unit holds.
        slot.act = Act::Hold;
    }
}

fn set_slot(slot: &mut Slot, c: Checked, order: u16) {
    slot.act = c.act;
    slot.to = c.to;
    slot.from = c.from;
    // Until matching decides, `convoy` remembers the "via convoy" of the order.
    slot.convoy = c.via_convoy;
    slot.land_fallback = false;
    slot.order = order;
}
