//! Step 5 of the adjustment: builds and removals for powers in civil disorder,
//! decided by the votes of eligible players (MR2 e).

use std::collections::BTreeMap;

use super::{Held, Work};
use crate::judge::Unit;
use crate::map::{Power, Province};
use crate::variant::masters::build::home_build;
use crate::variant::masters::control::eligible;
use crate::variant::masters::options::Rule;
use crate::variant::masters::outcome::{AdjustmentOrder, Reason, Verdict};
use crate::variant::masters::roster::MAX_POWERS;

impl Work<'_> {
    /// Step 5: builds and removals for powers in civil disorder, by vote.
    pub(super) fn civil_disorder_votes(&mut self) {
        let mut builds: BTreeMap<Power, Vec<(Unit, Vec<usize>)>> = BTreeMap::new();
        let mut removes: BTreeMap<Power, Vec<(Unit, Vec<usize>)>> = BTreeMap::new();
        let mut written: BTreeMap<(Power, Power), u32> = BTreeMap::new();
        for h in std::mem::take(&mut self.for_cd) {
            match self.cd_vote(h, &mut written) {
                Ok((target, unit, true)) => {
                    add_candidate(builds.entry(target).or_default(), unit, h.idx)
                }
                Ok((target, unit, false)) => {
                    add_candidate(removes.entry(target).or_default(), unit, h.idx)
                }
                Err(reason) => self.set(h.idx, Verdict::Void, reason),
            }
        }
        for (target, list) in builds {
            let need = (self.balance(target) + self.aid_of(target) as i32).max(0) as usize;
            for (unit, idxs) in self.elect(list, need, true) {
                self.owned
                    .insert(unit.province(), (unit, idxs.len() as u32, idxs));
            }
        }
        for i in 0..MAX_POWERS {
            let p = Power(i as u8);
            if !self.in_cd(p) {
                continue;
            }
            let owed = self.owed(p) as usize;
            let chosen = self.elect(removes.remove(&p).unwrap_or_default(), owed, false);
            for (unit, _) in &chosen {
                self.removed.insert(unit.province());
            }
            self.civil_disorder_removals(p, (owed - chosen.len().min(owed)) as u32);
        }
    }

    /// Checks one vote for a power in civil disorder: (that power, the unit to build
    /// or remove, is it a build).
    pub(super) fn cd_vote(
        &mut self,
        h: Held,
        written: &mut BTreeMap<(Power, Power), u32>,
    ) -> Result<(Power, Unit, bool), Reason> {
        let at = h.order_province();
        let (target, build) = match h.order {
            AdjustmentOrder::Build(_) => (
                self.cd_owner_of_home(at, h.writer)
                    .ok_or(Reason::NotHomeCenter { at })?,
                true,
            ),
            _ => (
                self.pos.unit_at(at).ok_or(Reason::NoUnit { at })?.power,
                false,
            ),
        };
        self.outcomes[h.idx].power = target;
        if !self.state.options.has(Rule::VariableControl) {
            return Err(Reason::RuleOff(Rule::VariableControl));
        }
        if !eligible(self.map, &self.pos, h.writer, target) {
            return Err(Reason::NotEligible { controlled: target });
        }
        let need = self.balance(target) + self.aid_of(target) as i32;
        match (build, need) {
            (true, n) if n <= 0 => return Err(Reason::NoBuildsLeft),
            (false, n) if n >= 0 => return Err(Reason::NotBeyondLosses),
            _ => {}
        }
        let count = written.entry((h.writer, target)).or_insert(0);
        if *count >= need.unsigned_abs() {
            return Err(Reason::OverAdjustments);
        }
        *count += 1;
        let unit = match h.order {
            AdjustmentOrder::Build(spec) => home_build(self.map, &self.pos, target, spec)?,
            _ => *self.pos.unit_at(at).ok_or(Reason::NoUnit { at })?,
        };
        Ok((target, unit, build))
    }

    /// Up to `places` candidates with the most votes (one per province); a tie
    /// across the last place leaves all the tied ones out. Marks every vote.
    pub(super) fn elect(
        &mut self,
        list: Vec<(Unit, Vec<usize>)>,
        places: usize,
        build: bool,
    ) -> Vec<(Unit, Vec<usize>)> {
        let mut by_place: BTreeMap<Province, Vec<(Unit, Vec<usize>)>> = BTreeMap::new();
        for (u, idxs) in list {
            by_place.entry(u.province()).or_default().push((u, idxs));
        }
        let mut winners = Vec::new();
        for (_, mut group) in by_place {
            group.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
            let top = group[0].1.len() as u32;
            let tied = group.get(1).is_some_and(|g| g.1.len() as u32 == top);
            for (i, (_, idxs)) in group.iter().enumerate() {
                if tied || i > 0 {
                    let votes = idxs.len() as u32;
                    let reason = if votes == top {
                        Reason::Tied { votes }
                    } else {
                        Reason::OutVoted {
                            votes,
                            against: top,
                        }
                    };
                    self.not_followed(idxs, reason);
                }
            }
            if !tied {
                winners.push(group.swap_remove(0));
            }
        }
        winners.sort_by(|a, b| {
            b.1.len()
                .cmp(&a.1.len())
                .then(a.0.province().cmp(&b.0.province()))
        });
        let cut = winners.get(places).map_or(0, |w| w.1.len());
        let (chosen, out): (Vec<_>, Vec<_>) = winners
            .into_iter()
            .enumerate()
            .partition(|(i, w)| *i < places && w.1.len() > cut);
        for (_, (_, idxs)) in &out {
            let votes = idxs.len() as u32;
            self.not_followed(
                idxs,
                if votes == cut as u32 {
                    Reason::Tied { votes }
                } else {
                    Reason::OutVoted {
                        votes,
                        against: cut as u32,
                    }
                },
            );
        }
        let done = if build {
            Reason::None
        } else {
            Reason::Required
        };
        chosen
            .into_iter()
            .map(|(_, w)| {
                for &i in &w.1 {
                    self.set(i, Verdict::Done, done);
                }
                w
            })
            .collect()
    }
}

fn add_candidate(list: &mut Vec<(Unit, Vec<usize>)>, unit: Unit, idx: usize) {
    match list.iter_mut().find(|(u, _)| *u == unit) {
        Some((_, idxs)) => idxs.push(idx),
        None => list.push((unit, vec![idx])),
    }
}
