//! Plain words for why an order is refused.

use super::orders_check::OrderProblem;
use crate::judge::Reason;
use crate::map::{Map, Province};

fn prov(map: &Map, p: Province) -> String {
    format!("{} ({})", map.name(p), map.abbr(p).to_ascii_uppercase())
}

pub fn problem(map: &Map, at: Option<Province>, p: &OrderProblem) -> String {
    let here = at
        .map(|a| prov(map, a))
        .unwrap_or_else(|| "that province".to_string());
    match p {
        OrderProblem::NoUnit => format!("there is no unit of yours to order in {here}"),
        OrderProblem::NotYours => format!("the unit in {here} is not yours to command"),
        OrderProblem::WrongPhase => "this kind of order cannot be given in this phase".to_string(),
        OrderProblem::Illegal(r) => reason(map, r),
    }
}

/// Where the dislodged unit in `at` may retreat, said after a refused retreat
/// order so that the player can choose again; `None` if no unit is dislodged
/// there.
pub fn retreat_choices(
    map: &Map,
    rules: &crate::judge::Rules,
    position: &crate::judge::Position,
    at: Province,
) -> Option<String> {
    let dislodged = position.dislodged_at(at)?;
    let mut options = crate::judge::retreat_options_with(map, rules, position, dislodged);
    options.sort_by_key(|l| map.location_name(*l));
    let unit = prov(map, at);
    Some(if options.is_empty() {
        format!("the unit in {unit} has nowhere to retreat: it can only disband")
    } else {
        let names: Vec<String> = options.iter().map(|l| map.location_name(*l)).collect();
        format!(
            "the unit in {unit} can retreat to {} or disband",
            names.join(", ")
        )
    })
}

pub fn reason(map: &Map, r: &Reason) -> String {
    use Reason::*;
    let p = |x: &Province| prov(map, *x);
    match r {
        NoUnit { at } => format!("there is no unit in {}", p(at)),
        ForeignUnit { owner } => format!(
            "that unit belongs to {}",
            map.powers()
                .get(owner.0 as usize)
                .map(|i| i.name.as_str())
                .unwrap_or("another power")
        ),
        WrongPhase => "this kind of order cannot be given in this phase".into(),
        NotAdjacent { to } => format!("{} is not next to the unit", p(to)),
        ArmyToSea { to } => format!("an army cannot go to sea ({})", p(to)),
        FleetInland { to } => format!("a fleet cannot go inland ({})", p(to)),
        Impassable { to } => format!("no unit may enter {}", p(to)),
        CoastUnreachable { to } => format!("the fleet cannot reach that coast of {}", p(to)),
        CoastNeeded { to } => format!("say which coast of {}", p(to)),
        MoveToSelf => "a unit cannot move to where it is".into(),
        SupportSelf => "a unit cannot support itself".into(),
        SupportUnreachable { to } => format!("the supporting unit cannot reach {}", p(to)),
        SupportedMoveImpossible { to } => format!("the supported unit cannot reach {}", p(to)),
        NoSupportedUnit { at } => format!("there is no unit in {} to support or convoy", p(at)),
        ConvoyByArmy => "only a fleet can convoy".into(),
        ConvoyFromCoast => "a fleet can only convoy from a sea".into(),
        ConvoyOfFleet { at } => {
            format!("only an army can be convoyed (not the fleet in {})", p(at))
        }
        ConvoyNotOnRoute => "this fleet is on no convoy route for that move".into(),
        WrongUnitKind => "the unit there is of the other type".into(),
        RetreatBlocked { to } => format!("the unit cannot retreat to {}", p(to)),
        NotHomeCenter { at } => format!("{} is not one of your home centers", p(at)),
        CenterNotOwned { at } => format!("you do not own {}", p(at)),
        Occupied { at } => format!("{} is occupied", p(at)),
        FleetBuildInland { at } => format!("a fleet cannot be built inland ({})", p(at)),
        ArmyBuildAtSea { at } => format!("an army cannot be built there ({})", p(at)),
        NoBuildsLeft => "you have no builds left".into(),
        NoRemovalsLeft => "you have no more units to remove".into(),
        // Outcomes rather than refusals; named in players' words all the
        // same, never as internal values.
        None => "the order succeeds".into(),
        Replaced => "a later order for the same unit replaced it".into(),
        Conflicting => "another order for the same unit conflicts with it".into(),
        SupportNotMatched { supported } => format!(
            "the unit in {} was not ordered to do what the support says",
            p(supported)
        ),
        ConvoyNotMatched { army } => format!(
            "the army in {} was not ordered to make the move the convoy says",
            p(army)
        ),
        ConvoyOffNamedPath { army } => format!(
            "this fleet is not on the path the army in {} named",
            p(army)
        ),
        Bounced { by, .. } => format!("the move bounced off the unit from {}", p(by)),
        OwnUnit { at } => format!(
            "the move would dislodge a unit of its own side in {}",
            p(at)
        ),
        CutBy { by } => format!("the support was cut by the unit from {}", p(by)),
        DisruptedBy { fleet } => format!("the convoy was disrupted in {}", p(fleet)),
        NoConvoyRoute => "no fleets convoy along any route there".into(),
        Paradox => "the convoy is part of a paradox".into(),
        LandRoute => "the army took the land route".into(),
        Unordered => "the unit had no order".into(),
        RetreatClash { with } => format!("another unit retreated to {} too", p(with)),
        NoRetreat => "the unit has nowhere to retreat".into(),
        Waived => "the build was waived".into(),
        CivilDisorder => "the power is in civil disorder".into(),
    }
}
