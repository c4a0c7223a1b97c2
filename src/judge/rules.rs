//! The options DATC chapter 4 leaves open, and the three rulebook presets.
//!
//! Each field names the DATC issue it settles. `Rules::default()` is the 2023
//! rulebook as DATC 3.1 prefers it.

use std::fmt;
use std::str::FromStr;

/// A rulebook edition, used to pick a preset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Edition {
    /// The 2023 rulebook with the DATC 3.1 preferred readings.
    #[default]
    E2023,
    /// The 2000 rulebook (the DATC 2.x preferences).
    E2000,
    /// The 1971 rulebook, as Grand Tournament Diplomacy plays it.
    E1971,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules edition {0:?} (expected 2023, 2000 or 1971)")]
pub struct EditionParseError(pub String);

impl FromStr for Edition {
    type Err = EditionParseError;
    fn from_str(s: &str) -> Result<Edition, EditionParseError> {
        match s.trim() {
            "2023" => Ok(Edition::E2023),
            "2000" => Ok(Edition::E2000),
            "1971" => Ok(Edition::E1971),
            _ => Err(EditionParseError(s.to_string())),
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edition::E2023 => "2023",
            Edition::E2000 => "2000",
            Edition::E1971 => "1971",
        })
    }
}

/// DATC 4.A.1: when is a convoy with several routes disrupted?
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MultiRoute {
    /// (a, 1971) as soon as one of its routes is disrupted.
    AnyRouteCut,
    /// (b, 1982 and later) only when every route is disrupted.
    AllRoutesCut,
}

/// DATC 4.A.2: how a convoy disruption paradox is broken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConvoyParadox {
    /// The convoying fleets in the paradox hold (Szykman).
    Szykman,
    /// The 1971 rule: a convoyed army does not cut a support given to an attack on
    /// one of its convoying fleets; what is left circular is broken the Szykman way.
    Rules1971,
}

/// DATC 4.A.3: an army that could reach its adjacent destination by land or by convoy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AdjacentConvoy {
    /// 2000/2023: the convoy is used if the order says "via convoy" or a fleet of
    /// the army's own power is ordered to convoy it. `land_fallback`: if that convoy
    /// is not there or fails, may the army still walk? (2023: no; 2000: yes.)
    Intent { land_fallback: bool },
    /// 1971: the convoy is used only if the unit at the destination moves the other
    /// way (a swap) and the convoy is not disrupted; otherwise the land route.
    Rules1971,
}

/// DATC 4.A.7: may a dislodged unit still bounce a unit moving into the province
/// its attacker came from?
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DislodgedBounce {
    /// (a) never: a dislodged unit has no effect on its attacker's origin.
    Never,
    /// (b) it loses that effect only when it lost a head-to-head battle.
    UnlessHeadToHead,
}

/// DATC 4.D.3: several different orders to one unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MultipleOrders {
    First,
    Last,
    /// The unit holds (and can receive hold support).
    Hold,
}

/// DATC 4.D.8: which unit civil disorder removes first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CivilDisorder {
    /// 2023: furthest from an owned supply center, counting every border whatever the
    /// unit type; then fleets before armies; then by the English province name.
    OwnedCenter,
    /// 1971/2000: furthest from the nearest home supply center; then fleets before
    /// armies; then by the English province name.
    HomeCenter,
}

/// Every choice DATC chapter 4 leaves open.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub edition: Edition,
    /// 4.A.1
    pub multi_route: MultiRoute,
    /// 4.A.2
    pub convoy_paradox: ConvoyParadox,
    /// 4.A.3
    pub adjacent_convoy: AdjacentConvoy,
    /// 4.A.4: does an army convoyed into a supporting unit cut a support given
    /// against the army's own province? (DATC prefers no.)
    pub convoyed_attack_cuts_support_against_origin: bool,
    /// 4.A.5: may a unit dislodged by a convoyed army retreat to the army's origin?
    pub retreat_to_convoy_origin: bool,
    /// 4.A.7
    pub dislodged_bounce: DislodgedBounce,
    /// 4.B.2: a fleet move without a coast goes to the only coast it can reach.
    pub infer_single_coast: bool,
    /// 4.B.3: a move to a coast the fleet cannot reach goes to the one it can.
    pub correct_impossible_coast: bool,
    /// 4.B.5: a wrong coast for the ordered fleet's own location is ignored.
    pub ignore_wrong_unit_coast: bool,
    /// 4.B.6: a coast given for an army or a single-coast province is ignored.
    pub ignore_irrelevant_coast: bool,
    /// 4.C.2: a wrong unit type in an order is ignored (otherwise the order is void).
    pub ignore_wrong_unit_kind: bool,
    /// 4.D.3
    pub multiple_orders: MultipleOrders,
    /// 4.D.7: builds may be waived.
    pub waive_allowed: bool,
    /// 4.D.8
    pub civil_disorder: CivilDisorder,
}

impl Rules {
    pub fn preset(edition: Edition) -> Rules {
        let r2023 = Rules {
            edition,
            multi_route: MultiRoute::AllRoutesCut,
            convoy_paradox: ConvoyParadox::Szykman,
            adjacent_convoy: AdjacentConvoy::Intent {
                land_fallback: false,
            },
            convoyed_attack_cuts_support_against_origin: false,
            retreat_to_convoy_origin: true,
            dislodged_bounce: DislodgedBounce::UnlessHeadToHead,
            infer_single_coast: true,
            correct_impossible_coast: false,
            ignore_wrong_unit_coast: true,
            ignore_irrelevant_coast: true,
            ignore_wrong_unit_kind: true,
            multiple_orders: MultipleOrders::Last,
            waive_allowed: true,
            civil_disorder: CivilDisorder::OwnedCenter,
        };
        match edition {
            Edition::E2023 => r2023,
            Edition::E2000 => Rules {
                adjacent_convoy: AdjacentConvoy::Intent {
                    land_fallback: true,
                },
                retreat_to_convoy_origin: false,
                civil_disorder: CivilDisorder::HomeCenter,
                ..r2023
            },
            Edition::E1971 => Rules {
                multi_route: MultiRoute::AnyRouteCut,
                convoy_paradox: ConvoyParadox::Rules1971,
                adjacent_convoy: AdjacentConvoy::Rules1971,
                retreat_to_convoy_origin: false,
                civil_disorder: CivilDisorder::HomeCenter,
                ..r2023
            },
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Edition::E2023)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_parse_print_and_differ_where_the_datc_says() {
        for e in ["2023", "2000", "1971"] {
            assert_eq!(e.parse::<Edition>().expect(e).to_string(), e);
        }
        assert!("1982".parse::<Edition>().is_err());
        let (r23, r00, r71) = (
            Rules::default(),
            Rules::preset(Edition::E2000),
            Rules::preset(Edition::E1971),
        );
        assert_eq!(r23, Rules::preset(Edition::E2023));
        assert_eq!(
            r23.adjacent_convoy,
            AdjacentConvoy::Intent {
                land_fallback: false
            }
        );
        assert_eq!(
            r00.adjacent_convoy,
            AdjacentConvoy::Intent {
                land_fallback: true
            }
        );
        assert_eq!(r71.multi_route, MultiRoute::AnyRouteCut);
        assert_eq!(r71.convoy_paradox, ConvoyParadox::Rules1971);
        assert_eq!(r23.civil_disorder, CivilDisorder::OwnedCenter);
        assert_eq!(r00.civil_disorder, CivilDisorder::HomeCenter);
    }
}
