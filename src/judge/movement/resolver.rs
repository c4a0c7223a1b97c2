//! The resolver: DATC chapter 5. Each order is a yes/no decision (a move moves, a
//! support is given, a convoy holds its place in the chain). `resolve` guesses and
//! checks (5.F), finds cycles, and applies the backup rule: circular movement
//! succeeds, convoy paradoxes make the convoying fleets hold (Szykman).
//! Everything is indexed by province, the cycle list included: no heap use.

use super::board::{Board, MAX, SPAN};
use super::legality::Act;
use crate::judge::{Allegiance, ConvoyParadox, DislodgedBounce, MultiRoute, Rules};
use crate::map::{Map, Province, ProvinceSet};

#[derive(Copy, Clone, PartialEq, Eq)]
enum State {
    Unresolved,
    Guessing,
    Resolved,
}

pub(crate) struct Resolver<'a, A: Allegiance + ?Sized> {
    pub map: &'a Map,
    pub rules: &'a Rules,
    pub allegiance: &'a A,
    pub board: &'a Board,
    state: [State; SPAN],
    result: [bool; SPAN],
    /// Convoys that failed by the paradox rule.
    pub paradox: ProvinceSet,
    cycle: Cycle,
    /// The earliest place in `cycle` of any guess read since the decision under
    /// way began (`NO_GUESS`: none). A decision depends on a guess whenever it
    /// reads one, also one that is already listed in the cycle: comparing the
    /// cycle's length before and after would miss that case and settle the
    /// decision on a guess.
    earliest: usize,
    /// Per failed move decided without a guess: why it failed, as its final
    /// decision found it, so that explaining it need not work it out again.
    bounce: [Bounce; SPAN],
    /// The moves whose entry in `bounce` is final.
    explained: ProvinceSet,
}

/// Why a move did not get through: its attack strength, and the unit (in `by`)
/// that held or kept it out with the strength `opposing`. An attack strength of
/// 0 means the move was not allowed to attack at all.
/// Aligned to four bytes so that a table of them is cleared as plain memory
/// (three-byte entries are cleared one field at a time).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(align(4))]
pub(crate) struct Bounce {
    pub attack: u8,
    pub by: Province,
    pub opposing: u8,
}

const NO_GUESS: usize = usize::MAX;

const NO_BOUNCE: Bounce = Bounce {
    attack: 0,
    by: Province(0),
    opposing: 0,
};

/// The orders resolved on a guess, in the order they joined the current cycle.
/// Each province is in it at most once, so `MAX` entries always suffice.
struct Cycle {
    items: [Province; MAX],
    len: usize,
    members: ProvinceSet,
}

impl Cycle {
    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, p: Province) {
        if self.len < MAX && !self.members.contains(p) {
            self.items[self.len] = p;
            self.len += 1;
            self.members.insert(p);
        }
    }

    /// Where `p` stands in the cycle, listing it first if it is not there yet.
    fn place(&mut self, p: Province) -> usize {
        if !self.members.contains(p) {
            self.push(p);
        }
        self.items[..self.len]
            .iter()
            .position(|&q| q == p)
            .unwrap_or(self.len)
    }

    fn get(&self, k: usize) -> Province {
        self.items[k]
    }

    fn since(&self, from: usize) -> &[Province] {
        &self.items[from.min(self.len)..self.len]
    }

    fn truncate(&mut self, len: usize) {
        while self.len > len {
            self.len -= 1;
            self.members.remove(self.items[self.len]);
        }
    }
}

impl<'a, A: Allegiance + ?Sized> Resolver<'a, A> {
    pub fn new(
        map: &'a Map,
        rules: &'a Rules,
        allegiance: &'a A,
        board: &'a Board,
    ) -> Resolver<'a, A> {
        Resolver {
            map,
            rules,
            allegiance,
            board,
            state: [State::Unresolved; SPAN],
            result: [false; SPAN],
            paradox: ProvinceSet::EMPTY,
            cycle: Cycle {
                items: [Province(0); MAX],
                len: 0,
                members: ProvinceSet::EMPTY,
            },
            earliest: NO_GUESS,
            bounce: [NO_BOUNCE; SPAN],
            explained: ProvinceSet::EMPTY,
        }
    }

    /// Resolves every order on the board.
    pub fn run(&mut self) {
        for &p in self.board.units() {
            if self.board.slot(p).act != Act::Hold {
                self.resolve(p);
            }
        }
    }

    /// The final result of the order in `p` (after `run`).
    pub fn succeeded(&self, p: Province) -> bool {
        self.result[p.0 as usize]
    }

    /// Did the unit in `p` move (after `run`)?
    #[inline]
    pub fn moved(&self, p: Province) -> bool {
        self.board.slot(p).act == Act::Move && self.result[p.0 as usize]
    }

    /// Why the failed move in `p` failed, if its decision found that out
    /// without guessing (after `run`).
    pub fn known_bounce(&self, p: Province) -> Option<Bounce> {
        self.explained
            .contains(p)
            .then(|| self.bounce[p.0 as usize])
    }

    /// The decision for the order in `p`. Most calls find it already made, so
    /// that case is answered inline.
    #[inline]
    fn resolve(&mut self, p: Province) -> bool {
        let i = p.0 as usize;
        if self.state[i] == State::Resolved {
            return self.result[i];
        }
        self.decide(p)
    }

    #[inline(never)]
    fn decide(&mut self, p: Province) -> bool {
        let i = p.0 as usize;
        match self.state[i] {
            State::Resolved => return self.result[i],
            State::Guessing => {
                let at = self.cycle.place(p);
                self.earliest = self.earliest.min(at);
                return self.result[i];
            }
            State::Unresolved => {}
        }
        let outer = std::mem::replace(&mut self.earliest, NO_GUESS);
        let old_len = self.cycle.len();
        self.result[i] = false;
        self.state[i] = State::Guessing;
        let first = self.adjudicate(p);
        let read = std::mem::replace(&mut self.earliest, outer);
        if read == NO_GUESS {
            // No dependency on a guess: final (unless a backup rule already settled it).
            if self.state[i] != State::Resolved {
                self.result[i] = first;
                self.state[i] = State::Resolved;
                if !first && self.board.slot(p).act == Act::Move {
                    self.explained.insert(p);
                }
            }
            return self.result[i];
        }
        if read < old_len || self.cycle.len() == old_len || self.cycle.get(old_len) != p {
            // Part of a cycle that started further up: report the guess-based
            // result, and the caller depends on that guess too.
            self.earliest = outer.min(read);
            self.cycle.push(p);
            self.result[i] = first;
            return first;
        }
        // A cycle starting here: try the other guess.
        self.unwind(old_len);
        self.result[i] = true;
        self.state[i] = State::Guessing;
        let second = self.adjudicate(p);
        self.earliest = outer;
        if first == second {
            self.unwind(old_len);
            self.result[i] = first;
            self.state[i] = State::Resolved;
            return first;
        }
        self.backup_rule(old_len);
        self.resolve(p)
    }

    /// Forgets the guesses made in the cycle from `from` on.
    fn unwind(&mut self, from: usize) {
        for &q in self.cycle.since(from) {
            self.state[q.0 as usize] = State::Unresolved;
        }
        self.cycle.truncate(from);
    }

    /// Zero or two consistent resolutions: DATC 5.B.9.
    fn backup_rule(&mut self, from: usize) {
        let has_convoy = self
            .cycle
            .since(from)
            .iter()
            .any(|&q| self.board.slot(q).act == Act::Convoy);
        let has_move = self
            .cycle
            .since(from)
            .iter()
            .any(|&q| self.board.slot(q).act == Act::Move);
        for k in from..self.cycle.len() {
            let q = self.cycle.get(k);
            let i = q.0 as usize;
            let act = self.board.slot(q).act;
            if has_convoy {
                if act == Act::Convoy {
                    self.state[i] = State::Resolved;
                    self.result[i] = false;
                    self.paradox.insert(q);
                } else {
                    self.state[i] = State::Unresolved;
                }
            } else if act == Act::Move {
                self.state[i] = State::Resolved;
                self.result[i] = true;
            } else if !has_move {
                // A cycle of neither moves nor convoys cannot arise on a standard
                // board; should a variant make one, its orders fail rather than loop.
                self.state[i] = State::Resolved;
                self.result[i] = false;
            } else {
                self.state[i] = State::Unresolved;
            }
        }
        self.cycle.truncate(from);
    }

    fn adjudicate(&mut self, p: Province) -> bool {
        match self.board.slot(p).act {
            Act::Move => match self.move_bounce(p) {
                None => true,
                Some(b) => {
                    self.bounce[p.0 as usize] = b;
                    false
                }
            },
            Act::SupportHold | Act::SupportMove => self.adjudicate_support(p),
            Act::Convoy => self.adjudicate_convoy(p),
            Act::Hold => true,
        }
    }

    // ---- MOVE ----

    /// Why the move in `p` fails, or `None` if it succeeds.
    pub fn move_bounce(&mut self, p: Province) -> Option<Bounce> {
        let attack = self.attack_strength(p);
        let q = self.board.slot(p).to.province;
        let bounce = |by, opposing| {
            Some(Bounce {
                attack,
                by,
                opposing,
            })
        };
        if attack == 0 {
            return bounce(q, 0);
        }
        let opposing = if self.head_to_head(p) {
            self.defend_strength(q)
        } else {
            self.hold_strength(q)
        };
        if attack <= opposing {
            return bounce(q, opposing);
        }
        for r in self.board.movers_into[q.0 as usize].iter() {
            if r != p {
                let prevent = self.prevent_strength(r);
                if attack <= prevent {
                    return bounce(r, prevent);
                }
            }
        }
        None
    }

    /// The move in `p` and the move from its destination go the opposite ways over
    /// the same border (neither by convoy).
    #[inline]
    pub fn head_to_head(&mut self, p: Province) -> bool {
        let s = *self.board.slot(p);
        let q = s.to.province;
        let t = *self.board.slot(q);
        t.unit.is_some()
            && t.act == Act::Move
            && t.to.province == p
            && !self.by_convoy(p)
            && !self.by_convoy(q)
    }

    /// Does the move in `p` actually travel by convoy?
    #[inline]
    pub fn by_convoy(&mut self, p: Province) -> bool {
        let s = self.board.slot(p);
        s.convoy && (!s.land_fallback || self.convoy_path(p))
    }

    /// DATC 5.B.4 PATH. Asked many times over for every move, nearly always of
    /// a move over land: that answer is given inline.
    #[inline]
    pub fn path(&mut self, p: Province) -> bool {
        let s = self.board.slot(p);
        !s.convoy || s.land_fallback || self.convoy_path(p)
    }

    /// Is there a chain of successful convoys for the army in `p`?
    #[inline(never)]
    pub fn convoy_path(&mut self, p: Province) -> bool {
        let route = self.board.route(p);
        if route.is_empty() {
            return false;
        }
        let mut working = ProvinceSet::EMPTY;
        for f in route.iter() {
            if self.resolve(f) {
                working.insert(f);
            } else if self.rules.multi_route == MultiRoute::AnyRouteCut {
                return false;
            }
        }
        if working == route {
            return true;
        }
        let to = self.board.slot(p).to.province;
        crate::judge::geometry::joined(self.map, p, to, working)
    }

    fn supports(&mut self, p: Province, exclude_owner_of: Option<Province>) -> u8 {
        let mut n = 1;
        let defender = exclude_owner_of.and_then(|q| self.board.unit(q));
        for s in self.board.supporters[p.0 as usize].iter() {
            if let (Some(d), Some(u)) = (defender, self.board.unit(s))
                && self.allegiance.same_owner(&u, &d)
            {
                continue;
            }
            if self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    /// DATC 5.B.8 ATTACK STRENGTH.
    pub fn attack_strength(&mut self, p: Province) -> u8 {
        if !self.path(p) {
            return 0;
        }
        let s = *self.board.slot(p);
        let q = s.to.province;
        let Some(defender) = self.board.unit(q) else {
            return self.supports(p, None);
        };
        let leaves = self.board.slot(q).act == Act::Move && !self.head_to_head(p);
        if leaves && self.resolve(q) {
            return self.supports(p, None);
        }
        let Some(attacker) = s.unit else { return 0 };
        if self.allegiance.same_owner(&attacker, &defender) {
            return 0;
        }
        self.supports(p, Some(q))
    }

    /// DATC 5.B.5 HOLD STRENGTH of province `q`.
    pub fn hold_strength(&mut self, q: Province) -> u8 {
        let s = *self.board.slot(q);
        if s.unit.is_none() {
            return 0;
        }
        if s.act == Act::Move {
            return if self.resolve(q) { 0 } else { 1 };
        }
        self.supports(q, None)
    }

    /// DATC 5.B.7 DEFEND STRENGTH.
    pub fn defend_strength(&mut self, q: Province) -> u8 {
        self.supports(q, None)
    }

    /// DATC 5.B.6 PREVENT STRENGTH (with DATC 4.A.7).
    pub fn prevent_strength(&mut self, r: Province) -> u8 {
        if !self.path(r) {
            return 0;
        }
        let q = self.board.slot(r).to.province;
        let t = *self.board.slot(q);
        let opposite = t.unit.is_some() && t.act == Act::Move && t.to.province == r;
        if opposite {
            let counts = match self.rules.dislodged_bounce {
                DislodgedBounce::UnlessHeadToHead => self.head_to_head(r),
                DislodgedBounce::Never => true,
            };
            if counts && self.resolve(q) {
                return 0;
            }
        }
        self.supports(r, None)
    }

    // ---- SUPPORT ----

    fn adjudicate_support(&mut self, s: Province) -> bool {
        self.support_cutter(s).is_none()
    }

    /// The unit that cuts (or dislodges) the support in `s`, if any.
    pub fn support_cutter(&mut self, s: Province) -> Option<Province> {
        let slot = *self.board.slot(s);
        let supporter = slot.unit?;
        let against = match slot.act {
            Act::SupportMove => Some(slot.to.province),
            _ => None,
        };
        for r in self.board.movers_into[s.0 as usize].iter() {
            let Some(attacker) = self.board.unit(r) else {
                continue;
            };
            if self.allegiance.same_owner(&attacker, &supporter) || self.exempt_1971(r, &slot) {
                continue;
            }
            if against == Some(r) {
                let cuts =
                    self.rules.convoyed_attack_cuts_support_against_origin && self.by_convoy(r);
                if !cuts {
                    continue;
                }
            }
            if self.path(r) {
                return Some(r);
            }
        }
        for r in self.board.movers_into[s.0 as usize].iter() {
            if self.exempt_1971(r, &slot) {
                continue;
            }
            if self.resolve(r) {
                return Some(r);
            }
        }
        None
    }

    /// The 1971 paradox rule: a convoyed army does not cut a support given to an
    /// attack on one of its own convoying fleets.
    fn exempt_1971(&self, r: Province, support: &super::board::Slot) -> bool {
        self.rules.convoy_paradox == ConvoyParadox::Rules1971
            && support.act == Act::SupportMove
            && self.board.slot(r).convoy
            && self.board.route(r).contains(support.to.province)
    }

    // ---- CONVOY ----

    /// The fleet is not dislodged. Per DATC 5.D the attackers are adjudicated, not
    /// resolved, so that every paradox forms one clean cycle.
    fn adjudicate_convoy(&mut self, f: Province) -> bool {
        for r in self.board.movers_into[f.0 as usize].iter() {
            if self.move_bounce(r).is_none() {
                return false;
            }
        }
        true
    }
}
