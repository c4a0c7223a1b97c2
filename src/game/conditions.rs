//! Conditional orders (`IF <condition> ... ELSE ... ENDIF`): the condition as
//! stored with the game, its truth on a board, and the phase an order in a
//! conditional block is for.

use serde::{Deserialize, Serialize};

use crate::docs::{DocError, OrderDoc, location, power_by_name, power_name};
use crate::judge::Position;
use crate::map::{Map, Power, UnitKind};
use crate::orders::Order;
use crate::phase::{Phase, PhaseKind};

/// A condition over the units on the board when its phase comes: "a unit
/// stands there" (of that type, when given; of that nationality, when given:
/// njudge's syntax file, "the type and power are optional and interpreted as
/// 'any' if not specified").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum CondDoc {
    Unit {
        #[serde(default)]
        kind: Option<String>,
        at: String,
        #[serde(default)]
        power: Option<String>,
    },
    Not {
        of: Box<CondDoc>,
    },
    And {
        left: Box<CondDoc>,
        right: Box<CondDoc>,
    },
    Or {
        left: Box<CondDoc>,
        right: Box<CondDoc>,
    },
}

impl CondDoc {
    /// From the grammar's condition.
    pub fn from_grammar(map: &Map, c: &crate::grammar::Condition) -> CondDoc {
        use crate::grammar::Condition as C;
        match c {
            C::Unit(spec) => CondDoc::Unit {
                kind: spec.kind.map(|k| k.letter().to_string()),
                at: map.location_code(spec.location),
                power: spec.power.map(|p| power_name(map, p)),
            },
            C::Not(a) => CondDoc::Not {
                of: Box::new(CondDoc::from_grammar(map, a)),
            },
            C::And(a, b) => CondDoc::And {
                left: Box::new(CondDoc::from_grammar(map, a)),
                right: Box::new(CondDoc::from_grammar(map, b)),
            },
            C::Or(a, b) => CondDoc::Or {
                left: Box::new(CondDoc::from_grammar(map, a)),
                right: Box::new(CondDoc::from_grammar(map, b)),
            },
        }
    }

    /// Whether the condition holds on `position`; a unit named without a power
    /// is `unnamed`'s (`None`: any power's, as njudge reads it; the Agora
    /// regulations read it as the ordering power's). Only units on the board
    /// count (not dislodged ones awaiting retreat).
    pub fn holds(
        &self,
        map: &Map,
        position: &Position,
        unnamed: Option<Power>,
    ) -> Result<bool, DocError> {
        Ok(match self {
            CondDoc::Unit { kind, at, power: p } => {
                let owner = match p {
                    Some(name) => Some(power_by_name(map, name)?),
                    None => unnamed,
                };
                let want = match kind.as_deref() {
                    Some("A") => Some(UnitKind::Army),
                    Some("F") => Some(UnitKind::Fleet),
                    _ => None,
                };
                let province = location(map, at)?.province;
                position.unit_at(province).is_some_and(|u| {
                    owner.is_none_or(|o| u.power == o) && want.is_none_or(|k| u.kind == k)
                })
            }
            CondDoc::Not { of } => !of.holds(map, position, unnamed)?,
            CondDoc::And { left, right } => {
                left.holds(map, position, unnamed)? && right.holds(map, position, unnamed)?
            }
            CondDoc::Or { left, right } => {
                left.holds(map, position, unnamed)? || right.holds(map, position, unnamed)?
            }
        })
    }
}

/// One power's orders of one `IF` block for one phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionalOrders {
    pub phase: String,
    pub power: String,
    /// Which `IF` block of the mail that gave it (blocks of one mail are kept
    /// apart; a later mail replaces them all for that phase).
    #[serde(default)]
    pub block: u32,
    /// The `IF` line as read (`IF A PAR AND NOT F BRE`).
    pub text: String,
    pub condition: CondDoc,
    /// Applied when the condition holds.
    #[serde(default)]
    pub then: Vec<OrderDoc>,
    /// Applied when it does not (`ELSE`).
    #[serde(default)]
    pub otherwise: Vec<OrderDoc>,
}

/// The phase an order in a conditional block is for, when no `PHASE` names
/// one: the current phase if the order fits it, else the first later phase
/// of a kind that takes it (a build given with movement orders is for the
/// coming adjustments; a disband, for the coming retreats).
pub fn phase_for(current: Phase, order: &Order) -> Phase {
    let mut p = current;
    for _ in 0..8 {
        if fits(p.kind, order) {
            return p;
        }
        p = p.successor();
    }
    current
}

fn fits(kind: PhaseKind, order: &Order) -> bool {
    super::orders_check::fits_phase(kind, order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::UnitSpec;

    fn unit(at: &str, kind: Option<&str>) -> CondDoc {
        CondDoc::Unit {
            kind: kind.map(str::to_string),
            at: at.to_string(),
            power: None,
        }
    }

    #[test]
    fn a_build_given_in_spring_is_for_the_winter_and_a_disband_for_the_retreats() {
        let map = Map::standard();
        let par = UnitSpec::at(map.lookup("PAR").unwrap());
        let s1901m: Phase = "S1901M".parse().unwrap();
        let build = Order::Build { unit: par };
        assert_eq!(phase_for(s1901m, &build).to_string(), "W1901A");
        assert_eq!(
            phase_for(s1901m, &Order::Disband { unit: par }).to_string(),
            "S1901R"
        );
        assert_eq!(phase_for(s1901m, &Order::Hold { unit: par }), s1901m);
        let w: Phase = "W1901A".parse().unwrap();
        assert_eq!(
            phase_for(w, &Order::Hold { unit: par }).to_string(),
            "S1902M"
        );
    }

    #[test]
    fn conditions_look_at_the_units_on_the_board() {
        let map = Map::standard();
        let board = Position::initial(map);
        let france = Some(map.power("France").unwrap());
        assert!(unit("PAR", Some("A")).holds(map, &board, france).unwrap());
        assert!(!unit("PAR", Some("F")).holds(map, &board, france).unwrap());
        // Berlin's army is German, not French; a condition naming no power
        // (njudge: "any") holds for it.
        assert!(!unit("BER", None).holds(map, &board, france).unwrap());
        assert!(unit("BER", None).holds(map, &board, None).unwrap());
        assert!(!unit("BUR", None).holds(map, &board, None).unwrap());
        let either = CondDoc::Or {
            left: Box::new(unit("BER", None)),
            right: Box::new(CondDoc::Not {
                of: Box::new(unit("PIC", None)),
            }),
        };
        assert!(either.holds(map, &board, france).unwrap());
        let both = CondDoc::And {
            left: Box::new(unit("BRE", Some("F"))),
            right: Box::new(unit("PIC", None)),
        };
        assert!(!both.holds(map, &board, france).unwrap());
    }
}
