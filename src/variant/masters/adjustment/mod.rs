//! A Masters adjustment phase, all six rules together, resolved in this sequence
//! so each outcome can be explained (see `docs/rulings.md#masters`):
//!
//! 0. Identity: a rebel that owns a center takes it as home (MR3 e).
//! 1. Counts: every power's balance, centers minus units, fixed before anything is
//!    built or removed (so a disband makes no room: MR5 b).
//! 2. Each player, in power order, orders in the order written: builds, rebel
//!    builds, annexations and waives are checked, then each takes one of the
//!    builds the power is due; copies of a build count as votes and take a build
//!    too (MR3 c). Orders for a power in civil disorder are set aside for step 5.
//! 3. Aid (MR6): each player's builds left after step 2 go to his aid orders, in
//!    the order written. Aid received is never passed on (it comes after).
//! 4. Aid received: first it makes up a shortfall of centers, then it gives
//!    builds, which the recipient's orders that found no build in step 2 take, in
//!    the order written.
//! 5. Powers in civil disorder (MR2 e): each eligible player may write one build
//!    or removal per adjustment the power owes; most votes win, a tie at the last
//!    place none; removals still owed follow the civil-disorder rule; their
//!    disbands go no further than their losses (MR5 c).
//! 6. Removals of one's own units: the first ones written are the losses owed,
//!    the rest voluntary disbands (MR5); losses not ordered follow the
//!    civil-disorder rule.
//! 7. Conflicts per center (MR3 c): rebel builds written alike add up, and the
//!    most written one stands (a tie: none); against the owner's build the one
//!    written more times is followed, neither on a tie.
//! 8. The board: units removed, built, rebels given power numbers (lowest free,
//!    centers in map order), annexed centers made home (MR4 c: usable from the
//!    next adjustment).

use std::collections::BTreeMap;

use crate::judge::{self, Position, Rules, Unit};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::UnitSpec;

use super::build::home_build;
use super::options::Rule;
use super::outcome::{AdjustmentOrder, Outcome, Reason, Verdict};
use super::roster::{Kind, MAX_POWERS, MastersState};
use super::{aid, annexation, disarmament, rebellion};

mod conflicts;
mod votes;

/// What one player wrote for the adjustment phase, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjustmentSubmission {
    pub writer: Power,
    pub orders: Vec<AdjustmentOrder>,
}

/// The adjustment phase played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjustmentResult {
    /// Every order in power order, then as written; then the defaults.
    pub outcomes: Vec<Outcome>,
    /// The position after the phase (the next phase is Spring movement).
    pub after: Position,
    /// The Masters state after the phase (new rebels, owners noted for MR4).
    pub state: MastersState,
    /// Aid received, per power, for the report.
    pub aid_received: Vec<(Power, u32)>,
}

/// What a valid order claims once it has a build to spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Claim {
    Own(Unit),
    Copy(Province),
    Rebel(UnitKind, Location),
    Annex(Province),
    Waive,
}

/// Rebel builds written alike: the unit, and the orders that wrote it.
type RebelGroup = ((UnitKind, Location), Vec<usize>);

/// An order waiting for its step.
#[derive(Copy, Clone, Debug)]
struct Held {
    idx: usize,
    writer: Power,
    order: AdjustmentOrder,
}

struct Work<'a> {
    map: &'a Map,
    rules: &'a Rules,
    state: MastersState,
    pos: Position,
    cd: &'a [Power],
    balance: [i32; MAX_POWERS],
    aid: [u32; MAX_POWERS],
    outcomes: Vec<Outcome>,
    /// Builds of the owner per center: the unit, how often written, the orders.
    owned: BTreeMap<Province, (Unit, u32, Vec<usize>)>,
    /// Rebel builds per center, alike ones together.
    rebels: BTreeMap<Province, Vec<RebelGroup>>,
    annexed: Vec<(Power, Province)>,
    /// Claims that found no build in step 2.
    pending: Vec<(Held, Claim)>,
    aids: Vec<Held>,
    removals: Vec<Held>,
    for_cd: Vec<Held>,
    removed: ProvinceSet,
}

/// Plays a Masters adjustment phase. `cd_great`: the great powers in civil disorder.
pub fn resolve(
    map: &Map,
    rules: &Rules,
    state: &MastersState,
    position: &Position,
    cd_great: &[Power],
    submissions: &[AdjustmentSubmission],
) -> AdjustmentResult {
    let mut w = Work::new(map, rules, state, position, cd_great);
    // Players who wrote nothing still have their unused builds reported.
    let silent: Vec<AdjustmentSubmission> = (0..state.great)
        .map(Power)
        .filter(|p| !cd_great.contains(p) && submissions.iter().all(|s| s.writer != *p))
        .map(|writer| AdjustmentSubmission {
            writer,
            orders: Vec::new(),
        })
        .collect();
    let mut sorted: Vec<&AdjustmentSubmission> = submissions.iter().chain(&silent).collect();
    sorted.sort_by_key(|s| s.writer);
    for sub in sorted {
        w.walk(sub);
    }
    w.spend_aid();
    w.civil_disorder_votes();
    w.own_removals();
    w.conflicts();
    w.finish()
}

impl<'a> Work<'a> {
    fn new(
        map: &'a Map,
        rules: &'a Rules,
        state: &MastersState,
        position: &Position,
        cd: &'a [Power],
    ) -> Work<'a> {
        let mut state = state.clone();
        let mut pos = position.clone();
        state.update_rebels(&mut pos);
        let mut balance = [0i32; MAX_POWERS];
        for (i, b) in balance.iter_mut().enumerate() {
            let p = Power(i as u8);
            *b = pos.centers_of(p).len() as i32 - pos.unit_count(p) as i32;
        }
        Work {
            map,
            rules,
            state,
            pos,
            cd,
            balance,
            aid: [0; MAX_POWERS],
            outcomes: Vec::new(),
            owned: BTreeMap::new(),
            rebels: BTreeMap::new(),
            annexed: Vec::new(),
            pending: Vec::new(),
            aids: Vec::new(),
            removals: Vec::new(),
            for_cd: Vec::new(),
            removed: ProvinceSet::EMPTY,
        }
    }

    fn push(&mut self, writer: Option<Power>, order: AdjustmentOrder, power: Power) -> usize {
        self.outcomes.push(Outcome {
            writer,
            order,
            power,
            verdict: Verdict::Void,
            reason: Reason::None,
        });
        self.outcomes.len() - 1
    }

    fn set(&mut self, idx: usize, verdict: Verdict, reason: Reason) {
        if let Some(o) = self.outcomes.get_mut(idx) {
            o.verdict = verdict;
            o.reason = reason;
        }
    }

    fn balance(&self, p: Power) -> i32 {
        self.balance.get(p.0 as usize).copied().unwrap_or(0)
    }

    fn aid_of(&self, p: Power) -> u32 {
        self.aid.get(p.0 as usize).copied().unwrap_or(0)
    }

    fn in_cd(&self, p: Power) -> bool {
        self.state.in_civil_disorder(p, self.cd)
    }

    /// Step 2 for one player.
    fn walk(&mut self, sub: &AdjustmentSubmission) {
        let writer = sub.writer;
        let writes = self.state.kind(writer) == Some(Kind::Great) && !self.in_cd(writer);
        let mut left = self.balance(writer).max(0) as u32;
        let mut own: BTreeMap<Province, Unit> = BTreeMap::new();
        let mut annexing = ProvinceSet::EMPTY;
        for &order in &sub.orders {
            let idx = self.push(Some(writer), order, writer);
            if !writes {
                self.set(idx, Verdict::Void, Reason::WriterInCivilDisorder);
                continue;
            }
            let held = Held { idx, writer, order };
            let claim = match self.classify(held, &mut own, &mut annexing) {
                Ok(Some(claim)) => claim,
                Ok(None) => continue,
                Err(reason) => {
                    self.set(idx, Verdict::Void, reason);
                    continue;
                }
            };
            if left > 0 {
                left -= 1;
                self.activate(held, claim, Reason::None);
            } else {
                self.pending.push((held, claim));
            }
        }
        // Step 3: builds left over are what aid may be given from (MR6 a).
        for h in std::mem::take(&mut self.aids) {
            match aid::recipient(&self.state, &self.pos, writer, h.order) {
                Ok(to) if left > 0 => {
                    left -= 1;
                    if let Some(a) = self.aid.get_mut(to.0 as usize) {
                        *a += 1;
                    }
                    self.outcomes[h.idx].power = to;
                    self.set(h.idx, Verdict::Done, Reason::AidGiven { to });
                }
                Ok(_) => self.set(h.idx, Verdict::Void, Reason::NoBuildsLeft),
                Err(reason) => self.set(h.idx, Verdict::Void, reason),
            }
        }
        self.unused(writer, left);
    }

    /// Sorts one order: a claim on a build, or set aside for a later step.
    fn classify(
        &mut self,
        h: Held,
        own: &mut BTreeMap<Province, Unit>,
        annexing: &mut ProvinceSet,
    ) -> Result<Option<Claim>, Reason> {
        match h.order {
            AdjustmentOrder::Build(spec) => {
                if self.cd_owner_of_home(spec.province(), h.writer).is_some() {
                    self.for_cd.push(h);
                    return Ok(None);
                }
                self.own_build(h.writer, spec, own).map(Some)
            }
            AdjustmentOrder::Remove(spec) => {
                let at = spec.province();
                let unit = self.pos.unit_at(at).copied().ok_or(Reason::NoUnit { at })?;
                if unit.power == h.writer {
                    self.removals.push(h);
                } else if self.in_cd(unit.power) {
                    self.for_cd.push(h);
                } else {
                    return Err(Reason::ForeignUnit { owner: unit.power });
                }
                Ok(None)
            }
            AdjustmentOrder::Waive => Ok(Some(Claim::Waive)),
            AdjustmentOrder::BuildRebel(spec) => {
                let (kind, loc) =
                    rebellion::check(self.map, &self.state, &self.pos, h.writer, spec)?;
                Ok(Some(Claim::Rebel(kind, loc)))
            }
            AdjustmentOrder::Annex(at) => {
                annexation::check(self.map, &self.state, &self.pos, h.writer, at)?;
                if annexing.contains(at) {
                    return Err(Reason::Duplicate);
                }
                annexing.insert(at);
                Ok(Some(Claim::Annex(at)))
            }
            AdjustmentOrder::Aid(_) | AdjustmentOrder::AidRebel(_) => {
                self.aids.push(h);
                Ok(None)
            }
        }
    }

    /// The power in civil disorder whose owned home center `at` is, if not the writer's.
    fn cd_owner_of_home(&self, at: Province, writer: Power) -> Option<Power> {
        let owner = self.pos.owner(at)?;
        let home = self.pos.home_of(owner).contains(at);
        (owner != writer && home && self.in_cd(owner)).then_some(owner)
    }

    /// A build for the writer's own power; a second one in the same center is a
    /// copy (a vote, MR3 c) when it is the same and rebellion is played.
    fn own_build(
        &self,
        writer: Power,
        spec: UnitSpec,
        own: &mut BTreeMap<Province, Unit>,
    ) -> Result<Claim, Reason> {
        let at = spec.province();
        if let Some(first) = own.get(&at) {
            // The first build is not on the board yet: the copy is checked alike.
            let same = home_build(self.map, &self.pos, writer, spec).is_ok_and(|u| u == *first);
            return match (same, self.state.options.has(Rule::Rebellion)) {
                (true, true) => Ok(Claim::Copy(at)),
                (true, false) => Err(Reason::Duplicate),
                (false, _) => Err(Reason::Occupied { at }),
            };
        }
        let unit = home_build(self.map, &self.pos, writer, spec)?;
        own.insert(at, unit);
        Ok(Claim::Own(unit))
    }

    fn activate(&mut self, h: Held, claim: Claim, reason: Reason) {
        match claim {
            Claim::Own(unit) => {
                self.owned.insert(unit.province(), (unit, 1, vec![h.idx]));
                self.set(h.idx, Verdict::Done, reason);
            }
            Claim::Copy(at) => {
                if let Some(entry) = self.owned.get_mut(&at) {
                    entry.1 += 1;
                    entry.2.push(h.idx);
                }
                self.set(h.idx, Verdict::Counted, Reason::Copy);
            }
            Claim::Rebel(kind, loc) => {
                let list = self.rebels.entry(loc.province).or_default();
                match list.iter_mut().find(|(k, _)| *k == (kind, loc)) {
                    Some((_, idxs)) => idxs.push(h.idx),
                    None => list.push(((kind, loc), vec![h.idx])),
                }
                self.set(h.idx, Verdict::Done, reason);
            }
            Claim::Annex(at) => {
                self.annexed.push((h.writer, at));
                self.set(h.idx, Verdict::Done, reason);
            }
            Claim::Waive => self.set(h.idx, Verdict::Done, Reason::Unused),
        }
    }

    /// Defaults for builds neither used nor given away.
    fn unused(&mut self, writer: Power, left: u32) {
        for _ in 0..left {
            let idx = self.push(None, AdjustmentOrder::Waive, writer);
            self.set(idx, Verdict::Default, Reason::Unused);
        }
    }

    /// Step 4: claims that found no build take those aid gives.
    fn spend_aid(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let mut extra: BTreeMap<Power, u32> = BTreeMap::new();
        for (h, claim) in pending {
            let left = extra.entry(h.writer).or_insert_with(|| {
                aid::extra_builds(self.balance(h.writer), self.aid_of(h.writer))
            });
            if *left > 0 {
                *left -= 1;
                self.activate(h, claim, Reason::WithAid);
            } else {
                self.set(h.idx, Verdict::Void, Reason::NoBuildsLeft);
            }
        }
    }

    /// Removals a power still owes after aid.
    fn owed(&self, p: Power) -> u32 {
        (-(self.balance(p) + self.aid_of(p) as i32)).max(0) as u32
    }

    /// Step 6.
    fn own_removals(&mut self) {
        let removals = std::mem::take(&mut self.removals);
        let mut owed: BTreeMap<Power, u32> = BTreeMap::new();
        for h in removals {
            let at = h.order_province();
            let left = owed.entry(h.writer).or_insert_with(|| self.owed(h.writer));
            if self.removed.contains(at) {
                self.set(h.idx, Verdict::Void, Reason::Duplicate);
                continue;
            }
            match disarmament::own_removal(self.state.options, left) {
                Ok(reason) => {
                    self.removed.insert(at);
                    self.set(h.idx, Verdict::Done, reason);
                }
                Err(reason) => self.set(h.idx, Verdict::Void, reason),
            }
        }
        for i in 0..MAX_POWERS {
            let p = Power(i as u8);
            if self.in_cd(p) || self.state.kind(p).is_none() {
                continue;
            }
            let done = *owed.get(&p).unwrap_or(&self.owed(p));
            self.civil_disorder_removals(p, done);
        }
    }

    /// Removes `count` more units of `power` by the civil-disorder rule.
    fn civil_disorder_removals(&mut self, power: Power, count: u32) {
        let mut rest = self.pos.clone();
        rest.units.retain(|u| !self.removed.contains(u.province()));
        let order = judge::removal_order(self.map, self.rules, &rest, power);
        for unit in order.into_iter().take(count as usize) {
            self.removed.insert(unit.province());
            let spec = UnitSpec {
                kind: Some(unit.kind),
                location: unit.location,
                power: Some(power),
            };
            let idx = self.push(None, AdjustmentOrder::Remove(spec), power);
            self.set(idx, Verdict::Default, Reason::CivilDisorder);
        }
    }

    /// Step 8.
    fn finish(mut self) -> AdjustmentResult {
        let mut after = self.pos.clone();
        let removed = self.removed;
        // Rebels are raised only in empty centers, so nothing raised is removed here.
        after.units.retain(|u| !removed.contains(u.province()));
        after.units.extend(self.owned.values().map(|(u, _, _)| *u));
        for &(power, at) in &self.annexed {
            super::roster::set_home(&mut after, power, at);
        }
        after.dislodged.clear();
        after.contested = ProvinceSet::EMPTY;
        after.phase = self.pos.phase.successor();
        self.state.note_adjustment(&after);
        self.state.update_rebels(&mut after);
        let aid_received = (0..MAX_POWERS)
            .filter(|&i| self.aid[i] > 0)
            .map(|i| (Power(i as u8), self.aid[i]))
            .collect();
        AdjustmentResult {
            outcomes: self.outcomes,
            after,
            state: self.state,
            aid_received,
        }
    }
}

impl Held {
    fn order_province(&self) -> Province {
        match self.order {
            AdjustmentOrder::Build(s) | AdjustmentOrder::Remove(s) => s.province(),
            AdjustmentOrder::BuildRebel(s) | AdjustmentOrder::AidRebel(s) => s.province(),
            AdjustmentOrder::Annex(p) => p,
            AdjustmentOrder::Aid(_) | AdjustmentOrder::Waive => Province(0),
        }
    }
}

/// Must the adjustment phase be played? The judge skips it when no power can build
/// or must remove; Masters gives more to do: a surplus with no free home center
/// can still raise rebels, annex or give aid (MR3, MR4, MR6), powers in civil
/// disorder and rebels adjust too, and with MR5 anyone may disband.
pub fn adjustment_needed(state: &MastersState, position: &Position) -> bool {
    let o = state.options;
    if o.has(Rule::Disarmament) && !position.units.is_empty() {
        return true;
    }
    let spend = o.has(Rule::Rebellion) || o.has(Rule::Annexation) || o.has(Rule::ForeignAid);
    (0..MAX_POWERS).map(|i| Power(i as u8)).any(|p| {
        let centers = position.centers_of(p);
        let balance = centers.len() as i32 - position.unit_count(p) as i32;
        let occupied: ProvinceSet = position.units.iter().map(|u| u.province()).collect();
        let free = position.home_of(p).0 & centers.0 & !occupied.0 != 0;
        let great = state.kind(p) == Some(Kind::Great);
        balance < 0 || (balance > 0 && (free || (great && spend)))
    })
}
