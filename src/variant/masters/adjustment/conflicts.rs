//! Step 7 of the adjustment: rebel builds against each other and against the
//! owner's build in the same center (MR3 c), and the raising of rebels.

use super::Work;
use crate::judge::Unit;
use crate::map::{Location, Power, Province, UnitKind};
use crate::variant::masters::outcome::{Reason, Verdict};
use crate::variant::masters::roster::Rebel;

impl Work<'_> {
    /// Step 7.
    pub(super) fn conflicts(&mut self) {
        let centers: Vec<Province> = self.rebels.keys().copied().collect();
        for at in centers {
            let mut groups = self.rebels.remove(&at).unwrap_or_default();
            groups.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
            let top = groups.first().map_or(0, |g| g.1.len() as u32);
            let second = groups.get(1).map_or(0, |g| g.1.len() as u32);
            for g in groups.iter().skip(1) {
                let reason = if g.1.len() as u32 == top {
                    Reason::Tied { votes: top }
                } else {
                    Reason::OutVoted {
                        votes: g.1.len() as u32,
                        against: top,
                    }
                };
                self.not_followed(&g.1, reason);
            }
            let Some(((kind, loc), idxs)) = groups.into_iter().next() else {
                continue;
            };
            if top == second {
                self.not_followed(&idxs, Reason::Tied { votes: top });
                continue;
            }
            self.rebel_against_owner(at, kind, loc, idxs);
        }
    }

    pub(super) fn not_followed(&mut self, idxs: &[usize], reason: Reason) {
        for &i in idxs {
            self.set(i, Verdict::NotFollowed, reason);
        }
    }

    /// MR3 c: the rebel build against the owner's build in the same center.
    pub(super) fn rebel_against_owner(
        &mut self,
        at: Province,
        kind: UnitKind,
        loc: Location,
        idxs: Vec<usize>,
    ) {
        let rebel = idxs.len() as u32;
        let owner = self.owned.get(&at).map_or(0, |o| o.1);
        if owner > rebel {
            self.not_followed(
                &idxs,
                Reason::OutVoted {
                    votes: rebel,
                    against: owner,
                },
            );
            return;
        }
        if let Some((_, _, own_idxs)) = self.owned.remove(&at) {
            let reason = if owner == rebel {
                Reason::Tied { votes: rebel }
            } else {
                Reason::OutVoted {
                    votes: owner,
                    against: rebel,
                }
            };
            self.not_followed(&own_idxs, reason);
            if owner == rebel {
                self.not_followed(&idxs, Reason::Tied { votes: rebel });
                return;
            }
        }
        self.raise(kind, loc, idxs);
    }

    /// A new rebel power, lowest free number; centers are met in map order.
    pub(super) fn raise(&mut self, kind: UnitKind, location: Location, idxs: Vec<usize>) {
        let taken: Vec<Power> = self.state.rebels.iter().map(|r| r.power).collect();
        let Some(power) = self.state.free_rebel_index(&taken) else {
            self.not_followed(&idxs, Reason::RebelLimit);
            return;
        };
        self.state.rebels.push(Rebel {
            power,
            kind,
            raised_in: location.province,
            identity: None,
        });
        self.pos.units.push(Unit {
            power,
            kind,
            location,
        });
        for i in idxs {
            self.outcomes[i].power = power;
            if self.outcomes[i].reason == Reason::None || self.outcomes[i].reason == Reason::WithAid
            {
                self.set(i, Verdict::Done, Reason::Raised { rebel: power });
            }
        }
    }
}
