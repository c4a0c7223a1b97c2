//! Property tests: random positions and random (often nonsensical) orders, under
//! every preset. The judge must never panic, every unit must end in exactly one
//! place, and no two units may share a province.

use std::collections::HashSet;

use legate::judge::{
    Countries, Edition, Position, Reason, Rules, Unit, Verdict, adjudicate, retreat_options,
};
use legate::map::{Location, Map, Power, Province, Terrain, UnitKind};
use legate::orders::{Order, PowerOrder, UnitSpec};
use legate::phase::{Phase, PhaseKind, Season};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

fn map() -> &'static Map {
    Map::standard()
}

/// Raw random choices; turned into a position and orders against the map.
#[derive(Debug, Clone)]
struct Scenario {
    units: Vec<(u8, u8, bool, bool)>, // province pick, power, wants fleet, coast pick
    orders: Vec<(u8, u8, u8, u8, u8, bool, bool)>, // kind, unit pick, a, b, power, flag, own power
    edition: u8,
    fall: bool,
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec((any::<u8>(), 0u8..7, any::<bool>(), any::<bool>()), 0..40),
        prop::collection::vec(
            (
                0u8..20,
                any::<u8>(),
                any::<u8>(),
                any::<u8>(),
                0u8..7,
                any::<bool>(),
                any::<bool>(),
            ),
            0..60,
        ),
        0u8..3,
        any::<bool>(),
    )
        .prop_map(|(units, orders, edition, fall)| Scenario {
            units,
            orders,
            edition,
            fall,
        })
}

fn rules(edition: u8) -> Rules {
    Rules::preset([Edition::E2023, Edition::E2000, Edition::E1971][edition as usize % 3])
}

fn build_position(s: &Scenario) -> Position {
    let m = map();
    let n = m.province_count() as u8;
    let mut p = Position::initial(m);
    let season = if s.fall { Season::Fall } else { Season::Spring };
    p.phase = Phase::new(season, 1905, PhaseKind::Movement);
    p.units.clear();
    let mut taken = HashSet::new();
    for &(pick, power, fleet, coast) in &s.units {
        let prov = Province(pick % n);
        if !taken.insert(prov) {
            continue;
        }
        let terrain = m.terrain(prov);
        let kind = match terrain {
            Terrain::Impassable => continue,
            Terrain::Sea => UnitKind::Fleet,
            Terrain::Inland => UnitKind::Army,
            Terrain::Coastal if fleet => UnitKind::Fleet,
            Terrain::Coastal => UnitKind::Army,
        };
        let coasts = m.coasts(prov);
        let c = if kind == UnitKind::Fleet && !coasts.is_empty() {
            Some(coasts[coast as usize % coasts.len()])
        } else {
            None
        };
        p.units.push(Unit {
            power: Power(power),
            kind,
            location: Location::new(prov, c),
        });
    }
    p
}

/// A place near `from` most of the time, anywhere (with a random coast) otherwise.
fn place(from: Province, pick: u8, flag: bool) -> Location {
    let m = map();
    let near: Vec<Province> = m
        .army_neighbours(from)
        .iter()
        .chain(m.fleet_neighbours(from.into()).iter())
        .collect();
    let prov = if !pick.is_multiple_of(4) && !near.is_empty() {
        near[pick as usize % near.len()]
    } else {
        Province(pick % m.province_count() as u8)
    };
    let coasts = m.coasts(prov);
    let coast = if flag && !coasts.is_empty() {
        Some(coasts[pick as usize % coasts.len()])
    } else {
        None
    };
    Location::new(prov, coast)
}

fn build_orders(s: &Scenario, position: &Position) -> Vec<PowerOrder> {
    let m = map();
    let n = m.province_count() as u8;
    let mut out = Vec::new();
    for (i, &(kind, upick, a, b, power, flag, own)) in s.orders.iter().enumerate() {
        // Random units (sometimes empty provinces) first; the last orders go to
        // each unit in turn, so that most units end with one considered order.
        let from_end = s.orders.len() - i;
        let pick = if from_end <= position.units.len() {
            from_end - 1
        } else {
            upick as usize
        };
        let (at, owner) = if !position.units.is_empty() && upick % 8 != 0 {
            let u = position.units[pick % position.units.len()];
            (u.location, u.power)
        } else {
            (Location::from(Province(upick % n)), Power(power))
        };
        // Most orders come from the unit's own power.
        let power = if own || a % 4 != 0 {
            owner
        } else {
            Power(power)
        };
        let unit = UnitSpec::at(at);
        // Every unit has an intended move; moves usually follow it, and supports and
        // convoys usually name a neighbour and its intended move, so that they match.
        let intent = |k: usize| {
            place(
                position.units[k].location.province,
                (k * 37 + 11) as u8,
                false,
            )
        };
        let reach = m.army_neighbours(at.province).0 | m.fleet_neighbours(at).0;
        let helped: Vec<usize> = (0..position.units.len())
            .filter(|&k| {
                let q = intent(k).province;
                position.units[k].location.province != at.province
                    && q != at.province
                    && reach >> q.0 & 1 == 1
            })
            .collect();
        let near: Vec<usize> = (0..position.units.len())
            .filter(|&k| reach >> position.units[k].location.province.0 & 1 == 1)
            .collect();
        let mine = position.units.iter().position(|u| u.location == at);
        let dest = match mine {
            Some(k) if a % 3 != 0 => intent(k),
            _ => place(at.province, a, flag),
        };
        // A fleet at sea convoys a neighbouring army to another shore it touches.
        let shores: Vec<Province> = m
            .fleet_neighbours(at)
            .iter()
            .filter(|&q| m.terrain(q) == Terrain::Coastal)
            .collect();
        let armies: Vec<usize> = near
            .iter()
            .copied()
            .filter(|&k| {
                position.units[k].kind == UnitKind::Army
                    && shores.contains(&position.units[k].location.province)
            })
            .collect();
        let at_sea = m.terrain(at.province) == Terrain::Sea;
        let (other, other_dest) = match (kind, helped.is_empty(), near.is_empty()) {
            (14 | 15, _, _) if at_sea && !armies.is_empty() && shores.len() > 1 => {
                let k = armies[b as usize % armies.len()];
                let army = position.units[k].location;
                let to = shores
                    .iter()
                    .copied()
                    .find(|&q| q != army.province && q.0 % 2 == b % 2)
                    .unwrap_or(shores[0]);
                (army, Location::from(to))
            }
            (8..=15, false, _) if a % 5 != 0 => {
                let k = helped[b as usize % helped.len()];
                (position.units[k].location, intent(k))
            }
            (6 | 7, _, false) if a % 5 != 0 => {
                let k = near[b as usize % near.len()];
                (position.units[k].location, dest)
            }
            _ => {
                let o = place(at.province, b, flag);
                (o, place(o.province, a, !flag))
            }
        };
        let order = match kind {
            0 => Order::Hold { unit },
            1..=5 => Order::Move {
                unit,
                to: dest,
                via_convoy: flag && a % 3 == 0,
            },
            6 | 7 => Order::SupportHold {
                unit,
                supported: UnitSpec::at(other),
            },
            8..=13 => Order::SupportMove {
                unit,
                supported: UnitSpec::at(other),
                to: other_dest,
            },
            14 | 15 => Order::Convoy {
                unit,
                army: UnitSpec::at(other),
                to: other_dest,
            },
            16 => Order::Disband { unit },
            _ => Order::Build {
                unit: UnitSpec::new(UnitKind::Fleet, dest),
            },
        };
        out.push(PowerOrder { power, order });
    }
    out
}

fn assert_no_sharing(units: &[Unit]) -> Result<(), TestCaseError> {
    let mut seen = HashSet::new();
    for u in units {
        prop_assert!(
            seen.insert(u.location.province),
            "two units in {}",
            map().abbr(u.location.province)
        );
        prop_assert!(map().can_stand_here(u), "a unit stands where it cannot");
    }
    Ok(())
}

trait CanStand {
    fn can_stand_here(&self, u: &Unit) -> bool;
}

impl CanStand for Map {
    fn can_stand_here(&self, u: &Unit) -> bool {
        match (u.kind, self.terrain(u.location.province)) {
            (_, Terrain::Impassable) => false,
            (UnitKind::Army, Terrain::Sea) => false,
            (UnitKind::Fleet, Terrain::Inland) => false,
            (UnitKind::Fleet, _) => {
                self.coasts(u.location.province).is_empty() == u.location.coast.is_none()
            }
            (UnitKind::Army, _) => u.location.coast.is_none(),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn movement_keeps_every_unit_in_exactly_one_place(s in scenario()) {
        let m = map();
        let rules = rules(s.edition);
        let position = build_position(&s);
        let orders = build_orders(&s, &position);
        let adj = adjudicate(m, &rules, &Countries, &position, &orders);

        // One resolution per order, in order; defaults only after them.
        prop_assert!(adj.resolutions.len() >= orders.len());
        for (r, o) in adj.resolutions.iter().zip(&orders) {
            prop_assert_eq!(r.order, o.order);
            prop_assert!(!r.defaulted);
        }
        prop_assert!(adj.resolutions[orders.len()..].iter().all(|r| r.defaulted));

        // Every unit is on the board or dislodged, never both, never lost.
        assert_no_sharing(&adj.after.units)?;
        prop_assert_eq!(adj.after.units.len() + adj.after.dislodged.len(), position.units.len());
        for d in &adj.after.dislodged {
            prop_assert!(position.units.contains(&d.unit), "a dislodged unit that was not there");
            prop_assert!(!adj.after.units.contains(&d.unit), "dislodged and on the board");
            // The attacker came from its origin into the dislodged unit's province.
            let attacker = position.unit_at(d.attacker_from);
            prop_assert!(attacker.is_some(), "attacker_from holds no unit");
            let attacker = attacker.copied().unwrap_or(d.unit);
            prop_assert!(attacker.power != d.unit.power, "a unit dislodged by its own side");
            let now = adj.after.unit_at(d.unit.location.province).copied();
            prop_assert_eq!(now.map(|u| (u.power, u.kind)), Some((attacker.power, attacker.kind)));
            prop_assert!(!adj.after.contested.contains(d.unit.location.province));
        }
        // A move said to bounce off its own side met a unit of its own power.
        for (r, o) in adj.resolutions.iter().zip(&orders) {
            if let Reason::OwnUnit { at } = r.reason {
                let mover = o.order.unit().and_then(|u| position.unit_at(u.location.province));
                let met = position.unit_at(at);
                prop_assert!(
                    mover.is_some() && mover.map(|u| u.power) == met.map(|u| u.power),
                    "{:?} said to bounce off its own side at {:?}", o.order, met
                );
            }
        }
        // Units move only to where they could go: next door, or by sea between coasts.
        for a in &adj.after.units {
            let came = position.units.iter().any(|u| {
                u.power == a.power
                    && u.kind == a.kind
                    && (u.location == a.location
                        || m.can_move(u.kind, u.location, a.location)
                        || (u.kind == UnitKind::Army
                            && m.terrain(u.location.province) == Terrain::Coastal
                            && m.terrain(a.location.province) == Terrain::Coastal))
            });
            prop_assert!(came, "a unit appeared where none could have gone");
        }
        for a in &adj.after.units {
            prop_assert!(!adj.after.contested.contains(a.location.province), "a standoff province holds a unit");
        }
        // Whatever comes next is a phase that follows this one.
        prop_assert!(adj.after.phase > position.phase);

        // Play the retreat phase, if there is one, with random retreats.
        if adj.after.phase.kind == PhaseKind::Retreat {
            let mut retreats = Vec::new();
            for (i, d) in adj.after.dislodged.iter().enumerate() {
                let options = retreat_options(m, &adj.after, d);
                for o in &options {
                    prop_assert!(adj.after.unit_at(o.province).is_none(), "retreat into an occupied province");
                }
                let unit = UnitSpec::at(d.unit.location);
                let order = match (i + s.units.len()) % 3 {
                    0 if !options.is_empty() => Order::Move { unit, to: options[i % options.len()], via_convoy: false },
                    1 => Order::Disband { unit },
                    _ => Order::Move { unit, to: place(d.unit.location.province, i as u8, false), via_convoy: false },
                };
                retreats.push(PowerOrder { power: d.unit.power, order });
            }
            let before = adj.after.units.len();
            let next = adjudicate(m, &rules, &Countries, &adj.after, &retreats);
            assert_no_sharing(&next.after.units)?;
            prop_assert!(next.after.dislodged.is_empty());
            prop_assert!(next.after.units.len() >= before);
            prop_assert!(next.after.units.len() <= before + adj.after.dislodged.len());
        }
    }

    #[test]
    fn adjustments_never_overfill_the_board(s in scenario()) {
        let m = map();
        let rules = rules(s.edition);
        let mut position = build_position(&s);
        position.phase = Phase::new(Season::Winter, 1905, PhaseKind::Adjustment);
        // Random ownership from the scenario's numbers.
        for (i, o) in position.owners.iter_mut().enumerate() {
            let pick = s.orders.get(i).map_or(7, |o| o.4);
            *o = if m.is_supply_center(Province(i as u8)) && pick < 7 { Some(Power(pick)) } else { None };
        }
        let mut orders = Vec::new();
        for &(kind, a, _, _, power, flag, _) in &s.orders {
            let prov = Province(a % m.province_count() as u8);
            let coasts = m.coasts(prov);
            let coast = if flag && !coasts.is_empty() { Some(coasts[kind as usize % coasts.len()]) } else { None };
            let unit = UnitSpec { kind: Some(if flag { UnitKind::Fleet } else { UnitKind::Army }), location: Location::new(prov, coast), power: None };
            let order = match kind % 4 {
                0 | 1 => Order::Build { unit },
                2 => Order::Remove { unit },
                _ => Order::Waive,
            };
            orders.push(PowerOrder { power: Power(power), order });
        }
        let adj = adjudicate(m, &rules, &Countries, &position, &orders);
        assert_no_sharing(&adj.after.units)?;
        for i in 0..m.powers().len() {
            let power = Power(i as u8);
            let centers = adj.after.centers_of(power).len() as usize;
            let before = position.unit_count(power);
            let after = adj.after.unit_count(power);
            // Builds never exceed the centers; removals bring units down to them.
            if after > before {
                prop_assert!(after <= centers);
            }
            if before > centers {
                prop_assert_eq!(after, centers);
            }
        }
        prop_assert_eq!(adj.after.phase.season, Season::Spring);
    }
}

/// The generator must make real battles, or the properties above prove little.
#[test]
fn the_random_scenarios_contain_battles_convoys_and_retreats() {
    let mut runner = TestRunner::deterministic();
    let (mut moved, mut dislodged, mut convoyed, mut retreat_phases) = (0, 0, 0, 0);
    for _ in 0..500 {
        let s = scenario()
            .new_tree(&mut runner)
            .expect("scenario")
            .current();
        let position = build_position(&s);
        let orders = build_orders(&s, &position);
        let adj = adjudicate(map(), &rules(s.edition), &Countries, &position, &orders);
        moved += adj
            .resolutions
            .iter()
            .filter(|r| matches!(r.order, Order::Move { .. }) && r.result_text() == "ok")
            .count();
        dislodged += adj.after.dislodged.len();
        convoyed += adj
            .resolutions
            .iter()
            .filter(|r| {
                // Legal convoy orders: carried out, or only left unmatched by the army.
                matches!(r.order, Order::Convoy { .. })
                    && (r.verdict != Verdict::Void
                        || matches!(
                            r.reason,
                            Reason::ConvoyNotMatched { .. } | Reason::LandRoute
                        ))
            })
            .count();
        retreat_phases += usize::from(adj.after.phase.kind == PhaseKind::Retreat);
    }
    assert!(moved > 500, "{moved} successful moves");
    assert!(dislodged > 5, "{dislodged} dislodgements");
    assert!(convoyed > 0, "{convoyed} legal convoy orders");
    assert!(retreat_phases > 5, "{retreat_phases} retreat phases");
}

/// Where a fleet in `p` stands to touch the sea `s` (the right coast of a
/// two-coast province), if it can.
fn fleet_touching(p: Province, s: Province) -> Option<Location> {
    let m = map();
    let coasts = m.coasts(p);
    if coasts.is_empty() {
        let l = Location::from(p);
        return m.fleet_neighbours(l).contains(s).then_some(l);
    }
    coasts
        .iter()
        .map(|&c| Location::new(p, Some(c)))
        .find(|&l| m.fleet_neighbours(l).contains(s))
}

/// The shape of a real game's error, on every sea of the map: an army convoyed
/// from `a` over the sea `s` to `t`, supported from `y`; the convoying fleet is
/// supported from `x`; the fleet in `t` supports an attack on `s` from `w`.
/// The attack on the convoy fails (2 at most against 2), so the army always
/// dislodges the fleet in `t`, under every preset, wherever it happens.
#[test]
fn a_supported_convoyed_army_dislodges_a_fleet_supporting_an_attack_on_its_convoy_anywhere() {
    let m = map();
    let (turkey, france) = (m.power("Turkey").unwrap(), m.power("France").unwrap());
    let mut shapes = 0;
    for s in m.provinces().filter(|&p| m.terrain(p) == Terrain::Sea) {
        let shore: Vec<Province> = m
            .provinces()
            .filter(|&p| m.terrain(p) == Terrain::Coastal && fleet_touching(p, s).is_some())
            .collect();
        for &a in &shore {
            for &t in &shore {
                if a == t || m.army_adjacent(a, t) {
                    continue;
                }
                let free = |p: Province, used: &[Province]| !used.contains(&p);
                let Some(w) = m
                    .provinces()
                    .find(|&p| free(p, &[a, t, s]) && fleet_touching(p, s).is_some())
                else {
                    continue;
                };
                let Some(x) = m
                    .provinces()
                    .find(|&p| free(p, &[a, t, s, w]) && fleet_touching(p, s).is_some())
                else {
                    continue;
                };
                let Some(y) = m.provinces().find(|&p| {
                    free(p, &[a, t, s, w, x])
                        && m.terrain(p) != Terrain::Sea
                        && m.army_adjacent(p, t)
                }) else {
                    continue;
                };
                shapes += 1;
                let (tl, wl) = (fleet_touching(t, s).unwrap(), fleet_touching(w, s).unwrap());
                let xl = fleet_touching(x, s).unwrap();
                let army = |p: Province| Unit {
                    power: turkey,
                    kind: UnitKind::Army,
                    location: Location::from(p),
                };
                let fleet = |power, l| Unit {
                    power,
                    kind: UnitKind::Fleet,
                    location: l,
                };
                let mut position = Position::initial(m);
                position.phase = Phase::new(Season::Fall, 1909, PhaseKind::Movement);
                position.units = vec![
                    army(a),
                    fleet(turkey, Location::from(s)),
                    fleet(turkey, xl),
                    army(y),
                    fleet(france, tl),
                    fleet(france, wl),
                ];
                let spec = |u: &Unit| UnitSpec::at(u.location);
                let [ua, us, ux, uy, ut, uw] = position.units[..] else {
                    unreachable!()
                };
                let order = |power, order| PowerOrder { power, order };
                let orders = [
                    order(
                        turkey,
                        Order::Move {
                            unit: spec(&ua),
                            to: Location::from(t),
                            via_convoy: false,
                        },
                    ),
                    order(
                        turkey,
                        Order::Convoy {
                            unit: spec(&us),
                            army: spec(&ua),
                            to: Location::from(t),
                        },
                    ),
                    order(
                        turkey,
                        Order::SupportMove {
                            unit: spec(&uy),
                            supported: spec(&ua),
                            to: Location::from(t),
                        },
                    ),
                    order(
                        turkey,
                        Order::SupportHold {
                            unit: spec(&ux),
                            supported: spec(&us),
                        },
                    ),
                    order(
                        france,
                        Order::SupportMove {
                            unit: spec(&ut),
                            supported: spec(&uw),
                            to: Location::from(s),
                        },
                    ),
                    order(
                        france,
                        Order::Move {
                            unit: spec(&uw),
                            to: Location::from(s),
                            via_convoy: false,
                        },
                    ),
                ];
                for edition in 0..3 {
                    let adj = adjudicate(m, &rules(edition), &Countries, &position, &orders);
                    let shape = format!(
                        "A {} - {} over {} (support from {}, {}; attack from {}), edition {edition}: {:?}",
                        m.location_code(ua.location),
                        m.location_code(ut.location),
                        m.location_code(us.location),
                        m.location_code(uy.location),
                        m.location_code(ux.location),
                        m.location_code(uw.location),
                        adj.resolutions
                            .iter()
                            .map(|r| (r.result_text(), r.reason))
                            .collect::<Vec<_>>()
                    );
                    let army_in_t = adj
                        .after
                        .unit_at(t)
                        .is_some_and(|u| u.power == turkey && u.kind == UnitKind::Army);
                    assert!(army_in_t, "the army did not arrive: {shape}");
                    assert!(
                        adj.after.dislodged.iter().any(|d| d.unit == ut),
                        "the fleet was not dislodged: {shape}"
                    );
                    assert!(
                        adj.resolutions
                            .iter()
                            .all(|r| !matches!(r.reason, Reason::OwnUnit { .. })),
                        "{shape}"
                    );
                }
            }
        }
    }
    assert!(shapes > 100, "only {shapes} shapes found on the map");
}
