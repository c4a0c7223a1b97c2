//! Board geometry the judge needs beyond the map's own questions: which seas touch
//! a coastal province, and which fleets can form a convoy route.
//!
//! A convoy route is a chain of seas from the army's province to its destination
//! that cannot be shortened: no sea of it touches a sea two steps further on, and
//! only its ends touch the two coasts. A fleet off every such chain is not needed by
//! any convoy (DATC 6.G.19, 6.F.12).

use crate::map::{Location, Map, Province, ProvinceSet};

/// Provinces a fleet could reach from province `p`, over any of its coasts.
#[inline]
pub(crate) fn fleet_touching(map: &Map, p: Province) -> ProvinceSet {
    map.fleet_touching(p)
}

/// Every sea province of the map.
#[inline]
pub(crate) fn seas(map: &Map) -> ProvinceSet {
    map.seas()
}

/// Provinces reachable from `start` by fleet steps through provinces in `allowed`.
pub(crate) fn flood(map: &Map, start: ProvinceSet, allowed: ProvinceSet) -> ProvinceSet {
    let mut reached = ProvinceSet(start.0 & allowed.0);
    let mut frontier = reached;
    while !frontier.is_empty() {
        let mut next = ProvinceSet::EMPTY;
        for s in frontier.iter() {
            next.0 |= fleet_touching(map, s).0;
        }
        next.0 &= allowed.0 & !reached.0;
        reached.0 |= next.0;
        frontier = next;
    }
    reached
}

/// Is there any chain of provinces in `allowed` joining `from` to `to` by fleet steps?
pub(crate) fn joined(map: &Map, from: Province, to: Province, allowed: ProvinceSet) -> bool {
    let reached = flood(map, fleet_touching(map, from), allowed);
    reached.0 & fleet_touching(map, to).0 != 0
}

/// The seas of `allowed` lying on some unshortenable convoy route from `from` to `to`.
/// `seas` is the map's set of seas (see [`seas`]).
pub(crate) fn route_seas(
    map: &Map,
    seas: ProvinceSet,
    from: Province,
    to: Province,
    allowed: ProvinceSet,
) -> ProvinceSet {
    let mut found = ProvinceSet::EMPTY;
    let allowed = ProvinceSet(allowed.0 & seas.0);
    if from == to || allowed.is_empty() {
        return found;
    }
    let start = ProvinceSet(fleet_touching(map, from).0 & allowed.0);
    let end = ProvinceSet(fleet_touching(map, to).0 & allowed.0);
    if start.is_empty() || end.is_empty() {
        return found;
    }
    let walk = Walk {
        map,
        start,
        end,
        allowed,
        budget: std::cell::Cell::new(WALK_BUDGET),
    };
    for s in start.iter() {
        walk.extend(
            s,
            ProvinceSet(1u128 << s.0),
            ProvinceSet::EMPTY,
            &mut found,
            0,
        );
    }
    found
}

/// Steps the route search may take. The standard map needs a few hundred; a
/// variant with a vast sea could need more, and then every sea the army can reach
/// counts as on a route rather than the search running on.
const WALK_BUDGET: u32 = 100_000;

struct Walk<'a> {
    map: &'a Map,
    start: ProvinceSet,
    end: ProvinceSet,
    allowed: ProvinceSet,
    budget: std::cell::Cell<u32>,
}

impl Walk<'_> {
    /// `path` ends at `node`; `banned` are seas touching the path before `node`.
    fn extend(
        &self,
        node: Province,
        path: ProvinceSet,
        banned: ProvinceSet,
        found: &mut ProvinceSet,
        depth: u32,
    ) {
        if self.end.contains(node) {
            found.0 |= path.0;
            return;
        }
        // Every path in a sea graph is shorter than the number of seas; the bounds
        // only guard against a malformed or enormous map.
        let left = self.budget.get();
        if depth > 128 || left == 0 {
            found.0 |= self.allowed.0;
            return;
        }
        self.budget.set(left - 1);
        let around = self.map.fleet_neighbours(Location::from(node));
        let next = around.0 & self.allowed.0 & !banned.0 & !self.start.0 & !path.0;
        let banned = ProvinceSet(banned.0 | around.0 | path.0);
        for c in ProvinceSet(next).iter() {
            self.extend(
                c,
                ProvinceSet(path.0 | 1u128 << c.0),
                banned,
                found,
                depth + 1,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testing::map;

    fn set(names: &[&str]) -> ProvinceSet {
        names
            .iter()
            .map(|n| map().lookup(n).expect(n).province)
            .collect()
    }

    #[test]
    fn a_fleet_off_every_unshortenable_route_is_not_on_a_route() {
        let m = map();
        let all = seas(m);
        let p = |n: &str| m.lookup(n).expect(n).province;
        // DATC 6.G.19: Marseilles to Spain through the Gulf of Lyon; the Western
        // Mediterranean is never needed.
        let r = route_seas(m, all, p("mar"), p("spa"), all);
        assert!(r.contains(p("lyo")));
        assert!(!r.contains(p("wes")));
        // DATC 6.F.12: the Irish Sea is not on a route from London to Belgium.
        let r = route_seas(m, all, p("lon"), p("bel"), set(&["eng", "iri"]));
        assert_eq!(r, set(&["eng"]));
        // A two-fleet chain.
        let r = route_seas(
            m,
            all,
            p("lon"),
            p("tun"),
            set(&["eng", "mao", "wes", "nth"]),
        );
        assert_eq!(r, set(&["eng", "mao", "wes"]));
    }

    #[test]
    fn joined_needs_fleets_all_along() {
        let m = map();
        let p = |n: &str| m.lookup(n).expect(n).province;
        assert!(joined(m, p("gre"), p("sev"), set(&["aeg", "con", "bla"])));
        assert!(!joined(m, p("gre"), p("sev"), set(&["aeg", "bla"])));
    }
}
