//! A Masters phase played: movement and retreats with variable control (MR2)
//! decided before the judge adjudicates, adjustments resolved by the rules core
//! (MR2 e to MR6), the adjustment phase kept when Masters gives something to do
//! in it, and the report lines of each.

use std::collections::BTreeMap;

use super::{MastersGame, cd_great};
use crate::game::model::GameState;
use crate::grammar::VariantOrder;
use crate::grammar::{Entry, OrderItem, canonical, parse_line, variant_canonical};
use crate::judge::{
    Adjudication, Countries, Position, Reason as JudgeReason, Resolution, Rules,
    Verdict as JudgeVerdict,
};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder, UnitSpec};
use crate::phase::{Phase, PhaseKind, Season};
use crate::variant::masters::adjustment::adjustment_needed;
use crate::variant::masters::control::{self, Submission};
use crate::variant::masters::report::{summary, tally_lines};
use crate::variant::masters::{
    AdjustmentOrder, AdjustmentSubmission, Outcome, Reason, Verdict, resolve_adjustment,
};

/// Adjudicates the current phase of a Masters game. `given` holds the players'
/// own orders; it is replaced by the orders actually adjudicated (with those
/// decided for controlled units, or the adjustment orders carried out).
pub(crate) fn adjudicate(
    map: &Map,
    rules: &Rules,
    state: &mut GameState,
    position: &Position,
    given: &mut Vec<PowerOrder>,
) -> Adjudication {
    let cd = cd_great(map, state);
    let Some(game) = state.masters.as_mut() else {
        return crate::judge::adjudicate(map, rules, &Countries, position, given);
    };
    game.snapshots
        .insert(position.phase.to_string(), game.rules.clone());
    let (adjudication, report) = match position.phase.kind {
        PhaseKind::Adjustment => adjustment(map, rules, game, position, &cd, given),
        _ => movement(map, rules, game, position, &cd, given),
    };
    game.control.clear();
    game.adjustment.clear();
    game.marks.clear();
    game.history
        .insert(position.phase.to_string(), report.clone());
    game.report = report;
    adjudication
}

/// Movement or retreats: variable control first, then the judge.
fn movement(
    map: &Map,
    rules: &Rules,
    game: &mut MastersGame,
    position: &Position,
    cd: &[Power],
    given: &mut Vec<PowerOrder>,
) -> (Adjudication, Vec<String>) {
    // A hold written for one's own unit is what an unordered unit does anyway
    // ("presumed to Hold"): it is kept for the judge but is no order under the
    // MR2 b limit (docs/rulings.md#masters).
    let (holds, own): (Vec<PowerOrder>, Vec<PowerOrder>) = given
        .iter()
        .partition(|o| matches!(o.order, Order::Hold { .. }));
    let mut by_writer: BTreeMap<Power, Vec<Order>> = BTreeMap::new();
    for o in &own {
        by_writer.entry(o.power).or_default().push(o.order);
    }
    for (writer, list) in &game.control {
        let Some(p) = map.power(writer) else { continue };
        let orders = list.iter().filter_map(|(_, doc)| doc.to_order(map).ok());
        by_writer.entry(p).or_default().extend(orders);
    }
    let subs: Vec<Submission> = by_writer
        .into_iter()
        .map(|(writer, orders)| Submission { writer, orders })
        .collect();
    let result = control::resolve(map, &game.rules, position, cd, &subs);
    *given = holds;
    given.extend(result.orders.iter().copied());
    let mut adjudication = crate::judge::adjudicate(map, rules, &Countries, position, given);
    keep_adjustment(game, position.phase, &mut adjudication.after);
    let mut lines = Vec::new();
    if !result.tallies.is_empty() {
        lines.push("Variable control (orders for units in civil disorder, with votes):".into());
        for t in &result.tallies {
            for l in tally_lines(map, &game.rules, position, t) {
                lines.push(format!("  {l}"));
            }
        }
    }
    if !result.rejected.is_empty() {
        lines.push("Variable-control orders not counted:".into());
        for r in &result.rejected {
            lines.push(format!(
                "  {}: {} - {}",
                game.rules.name(map, position, r.writer),
                canonical(map, &r.order),
                r.why
            ));
        }
    }
    (adjudication, lines)
}

/// After the Fall: the judge skips an adjustment phase when no power can build
/// or must remove; Masters keeps it when rebels, annexation, aid or disbands
/// give something to do. A winter skipped still counts for annexation (MR4 a)
/// and gives rebels their identity (MR3 e).
fn keep_adjustment(game: &mut MastersGame, played: Phase, after: &mut Position) {
    let fall_over = played.season == Season::Fall
        && after.phase.kind != PhaseKind::Retreat
        && after.phase.year > played.year;
    if !fall_over {
        return;
    }
    let winter = Phase {
        year: played.year,
        season: Season::Winter,
        kind: PhaseKind::Adjustment,
    };
    let mut at_winter = after.clone();
    at_winter.phase = winter;
    if adjustment_needed(&game.rules, &at_winter) {
        after.phase = winter;
    } else {
        game.rules.update_rebels(after);
        game.rules.note_adjustment(after);
    }
}

/// An adjustment order kept as text, read back.
pub(crate) fn parse_adjustment(
    map: &Map,
    position: &Position,
    text: &str,
) -> Option<AdjustmentOrder> {
    let lines = parse_line(map, text, Some(position.phase));
    let Entry::Orders(items) = &lines.first()?.entry else {
        return None;
    };
    match items.first()? {
        OrderItem::Order(o) => match o.order {
            Order::Disband { unit } => Some(AdjustmentOrder::Remove(unit)),
            other => AdjustmentOrder::from_order(&other),
        },
        OrderItem::Variant { order, .. } => AdjustmentOrder::from_variant(order),
    }
}

/// The adjustment phase, all six rules, through the rules core.
fn adjustment(
    map: &Map,
    rules: &Rules,
    game: &mut MastersGame,
    position: &Position,
    cd: &[Power],
    given: &mut Vec<PowerOrder>,
) -> (Adjudication, Vec<String>) {
    let subs: Vec<AdjustmentSubmission> = game
        .adjustment
        .iter()
        .filter_map(|(writer, texts)| {
            Some(AdjustmentSubmission {
                writer: map.power(writer)?,
                orders: texts
                    .iter()
                    .filter_map(|t| parse_adjustment(map, position, t))
                    .collect(),
            })
        })
        .collect();
    let result = resolve_adjustment(map, rules, &game.rules, position, cd, &subs);
    let lines = adjustment_lines(map, game, position, &result);
    game.rules = result.state.clone();
    let resolutions: Vec<Resolution> = result.outcomes.iter().filter_map(resolution).collect();
    *given = result
        .outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Done && o.writer.is_some())
        .filter_map(|o| {
            resolution(o).map(|r| PowerOrder {
                power: r.power,
                order: r.order,
            })
        })
        .collect();
    let adjudication = Adjudication {
        resolutions,
        after: result.after,
    };
    (adjudication, lines)
}

/// A standard order carried out (or a default), as the judge reports it.
fn resolution(o: &Outcome) -> Option<Resolution> {
    if !matches!(o.verdict, Verdict::Done | Verdict::Default) {
        return None;
    }
    let (order, reason) = match o.order {
        AdjustmentOrder::Build(unit) => (Order::Build { unit }, JudgeReason::None),
        AdjustmentOrder::Remove(unit) => (Order::Remove { unit }, JudgeReason::None),
        AdjustmentOrder::Waive => (Order::Waive, JudgeReason::Waived),
        _ => return None,
    };
    Some(Resolution {
        power: o.power,
        order,
        verdict: JudgeVerdict::Ok,
        dislodged: false,
        dislodged_by: None,
        reason,
        defaulted: o.writer.is_none(),
    })
}

/// The text of an adjustment order.
fn order_text(map: &Map, order: &AdjustmentOrder) -> String {
    match *order {
        AdjustmentOrder::Build(unit) => canonical(map, &Order::Build { unit }),
        AdjustmentOrder::Remove(unit) => canonical(map, &Order::Remove { unit }),
        AdjustmentOrder::Waive => "WAIVE".into(),
        AdjustmentOrder::BuildRebel(unit) => {
            variant_canonical(map, &VariantOrder::BuildRebel { unit })
        }
        AdjustmentOrder::Annex(province) => {
            variant_canonical(map, &VariantOrder::Annex { province })
        }
        AdjustmentOrder::Aid(power) => variant_canonical(map, &VariantOrder::Aid { power }),
        AdjustmentOrder::AidRebel(unit) => variant_canonical(map, &VariantOrder::AidRebel { unit }),
    }
}

fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Done => "done",
        Verdict::Counted => "counted",
        Verdict::NotFollowed => "not followed",
        Verdict::Void => "void",
        Verdict::Default => "default",
    }
}

/// Every adjustment order written, with its outcome and reason; then the
/// lists of rebels raised, annexations, aid and voluntary disbands.
fn adjustment_lines(
    map: &Map,
    game: &MastersGame,
    position: &Position,
    result: &crate::variant::masters::AdjustmentResult,
) -> Vec<String> {
    let after_state = &result.state;
    let name = |p: Power| {
        let n = after_state.name(map, &result.after, p);
        if n.starts_with("Power ") {
            game.rules.name(map, position, p)
        } else {
            n
        }
    };
    let mut lines = vec!["Masters Rules adjustment orders:".to_string()];
    let written: Vec<&Outcome> = result
        .outcomes
        .iter()
        .filter(|o| o.writer.is_some())
        .collect();
    if written.is_empty() {
        lines.push("  (none written)".into());
    }
    for o in written {
        let writer = o.writer.map(&name).unwrap_or_default();
        let mut line = format!(
            "  {writer}: {} - {}",
            order_text(map, &o.order),
            verdict_text(o.verdict)
        );
        let why = o.reason.to_string();
        if !why.is_empty() {
            line.push_str(&format!(" ({why})"));
        }
        if o.power != o.writer.unwrap_or(o.power) {
            line.push_str(&format!(" [for {}]", name(o.power)));
        }
        lines.push(line);
    }
    for o in result.outcomes.iter().filter(|o| o.writer.is_none()) {
        if let (AdjustmentOrder::Remove(unit), Reason::CivilDisorder) = (o.order, o.reason) {
            // The line names the power; the unit is its own.
            let own = AdjustmentOrder::Remove(UnitSpec {
                power: None,
                ..unit
            });
            lines.push(format!(
                "  {}: {} - removed by the civil-disorder rule",
                name(o.power),
                order_text(map, &own)
            ));
        }
    }
    let s = summary(result);
    let mut list = |title: &str, items: Vec<String>| {
        if !items.is_empty() {
            lines.push(format!("{title}: {}", items.join("; ")));
        }
    };
    list(
        "Rebels raised",
        s.rebels_raised
            .iter()
            .map(|(by, rebel, at)| {
                let by: Vec<String> = by.iter().map(|p| name(*p)).collect();
                format!(
                    "{} in {} (by {})",
                    name(*rebel),
                    map.name(*at),
                    by.join(" and ")
                )
            })
            .collect(),
    );
    list(
        "Annexed",
        s.annexed
            .iter()
            .map(|(p, at)| format!("{} by {}", map.name(*at), name(*p)))
            .collect(),
    );
    list(
        "Aid given",
        s.aid
            .iter()
            .map(|(from, to)| format!("{} to {}", name(*from), name(*to)))
            .collect(),
    );
    list(
        "Aid received",
        result
            .aid_received
            .iter()
            .map(|(p, n)| format!("{} {n}", name(*p)))
            .collect(),
    );
    list(
        "Voluntary disbands",
        s.voluntary_disbands
            .iter()
            .map(|(p, spec)| {
                format!(
                    "{} {}",
                    name(*p),
                    canonical(map, &Order::Remove { unit: *spec })
                )
            })
            .collect(),
    );
    lines
}
