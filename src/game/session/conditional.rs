//! `IF <condition> ... ELSE ... ENDIF`: conditional orders, for the current
//! phase (decided at once on the board as it is) or stored for a later phase
//! (decided when that phase begins).

use super::{PendingOrder, Session};
use crate::docs::{OrderDoc, order_text};
use crate::game::EngineError;
use crate::game::conditions::{CondDoc, ConditionalOrders, phase_for};
use crate::judge::Position;
use crate::map::{Map, Power};
use crate::phase::Phase;
use crate::store::NewOrder;

/// An `IF` block being read.
#[derive(Clone, Debug)]
pub(super) struct OpenIf {
    pub line: usize,
    pub text: String,
    /// When the block's orders apply (for an `ELSE IF`: no branch before
    /// holds and its own condition does).
    pub condition: CondDoc,
    /// An `ELSE IF` chain: the branches before this one, any of which holding
    /// keeps this one from applying.
    pub before: Option<CondDoc>,
    /// This branch's own condition, as written.
    pub own: CondDoc,
    pub in_else: bool,
    pub block: u32,
}

/// `before OR own`, or `own` alone.
fn any_of(before: Option<CondDoc>, own: CondDoc) -> CondDoc {
    match before {
        Some(b) => CondDoc::Or {
            left: Box::new(b),
            right: Box::new(own),
        },
        None => own,
    }
}

/// A stored block as the reply shows it.
pub(super) fn describe(map: &Map, c: &ConditionalOrders) -> String {
    let show = |list: &[OrderDoc]| -> String {
        list.iter()
            .filter_map(|o| o.to_order(map).ok())
            .map(|o| format!("    {}\n", order_text(map, &o)))
            .collect()
    };
    let mut out = format!("Conditional orders for {}: {}\n", c.phase, c.text);
    out.push_str(&show(&c.then));
    if !c.otherwise.is_empty() {
        out.push_str("  ELSE\n");
        out.push_str(&show(&c.otherwise));
    }
    out
}

impl Session<'_, '_, '_> {
    pub(super) fn open_if(
        &mut self,
        line: usize,
        text: &str,
        condition: &CondDoc,
    ) -> Result<(), EngineError> {
        if let Some(open) = &self.open_if {
            let outer = open.line;
            self.fail(
                line,
                text,
                format!("an IF cannot be inside another; close the IF on line {outer} first"),
            );
            return Ok(());
        }
        self.blocks += 1;
        self.open_if = Some(OpenIf {
            line,
            text: text.to_string(),
            condition: condition.clone(),
            before: None,
            own: condition.clone(),
            in_else: false,
            block: self.blocks,
        });
        self.ok(
            text,
            "The orders up to ELSE or ENDIF apply if this holds when their phase begins.",
        );
        Ok(())
    }

    /// `ELSE IF`: a new block whose orders apply when none of the branches
    /// before holds and this one does (njudge's syntax file).
    pub(super) fn else_if(
        &mut self,
        line: usize,
        text: &str,
        condition: &CondDoc,
    ) -> Result<(), EngineError> {
        let Some(open) = self.open_if.clone().filter(|o| !o.in_else) else {
            let why = match self.open_if {
                Some(_) => "ELSE IF after the ELSE of its IF",
                None => "ELSE IF without an IF",
            };
            self.fail(line, text, why);
            return Ok(());
        };
        let before = any_of(open.before, open.own);
        self.blocks += 1;
        self.open_if = Some(OpenIf {
            line,
            text: text.to_string(),
            condition: CondDoc::And {
                left: Box::new(CondDoc::Not {
                    of: Box::new(before.clone()),
                }),
                right: Box::new(condition.clone()),
            },
            before: Some(before),
            own: condition.clone(),
            in_else: false,
            block: self.blocks,
        });
        self.ok(
            text,
            "The orders up to the next ELSE or ENDIF apply if no branch before holds and this does.",
        );
        Ok(())
    }

    pub(super) fn else_branch(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        // After ELSE IF, the ELSE is a block of its own: it applies when no
        // branch of the chain holds.
        if let Some(open) = self
            .open_if
            .clone()
            .filter(|o| !o.in_else && o.before.is_some())
        {
            self.blocks += 1;
            let chain = any_of(open.before, open.own);
            self.open_if = Some(OpenIf {
                line,
                text: text.to_string(),
                condition: chain.clone(),
                before: None,
                own: chain,
                in_else: true,
                block: self.blocks,
            });
            self.ok(
                text,
                "The orders up to ENDIF apply if no branch of the IF holds.",
            );
            return Ok(());
        }
        match &mut self.open_if {
            Some(open) if !open.in_else => {
                open.in_else = true;
                let at = open.line;
                self.ok(
                    text,
                    format!("The orders up to ENDIF apply if the IF on line {at} does not hold."),
                );
            }
            Some(_) => self.fail(line, text, "this IF already has its ELSE"),
            None => self.fail(line, text, "ELSE without an IF"),
        }
        Ok(())
    }

    pub(super) fn end_if(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        match self.open_if.take() {
            Some(open) => self.ok(text, format!("End of the IF on line {}.", open.line)),
            None => self.fail(line, text, "ENDIF without an IF"),
        }
        Ok(())
    }

    /// Orders read inside an `IF` block: each for the phase `PHASE` named, or
    /// else for the phase its kind belongs to (see `phase_for`).
    pub(super) fn store_conditional(
        &mut self,
        key: &str,
        map: &Map,
        p: Power,
        power: &str,
        position: &Position,
        pending: Vec<PendingOrder>,
    ) -> Result<(), EngineError> {
        let Some(open) = self.open_if.clone() else {
            return Ok(());
        };
        let mut current = Vec::new();
        for o in pending {
            let phase = self
                .target
                .unwrap_or_else(|| phase_for(position.phase, &o.order));
            if phase < position.phase {
                self.fail(o.line, &o.text, format!("phase {phase} is already over"));
            } else if phase == position.phase {
                current.push(o);
            } else {
                self.store_conditional_later(key, map, power, phase, &open, &o)?;
            }
        }
        if current.is_empty() {
            return Ok(());
        }
        // For the phase under way the board is already known: decide now.
        let holds = open.condition.holds(map, position, None)?;
        if holds != open.in_else {
            self.store_current(key, map, p, power, current)
        } else {
            let branch = if open.in_else { "ELSE of the IF" } else { "IF" };
            for o in current {
                self.ok_at(
                    o.line,
                    &o.text,
                    format!(
                        "Not applied: the {branch} on line {} does not apply on the board now.",
                        open.line
                    ),
                );
            }
            Ok(())
        }
    }

    fn store_conditional_later(
        &mut self,
        key: &str,
        map: &Map,
        power: &str,
        phase: Phase,
        open: &OpenIf,
        o: &PendingOrder,
    ) -> Result<(), EngineError> {
        let name = phase.to_string();
        let id = self.work.game(key).row.id;
        let first_touch = !self
            .cond_replaced
            .iter()
            .any(|(ph, pw)| *ph == name && pw == power);
        let g = self.work.game_mut(key);
        if first_touch {
            // A new mail's conditional orders for a phase replace the earlier ones.
            g.state
                .conditional
                .retain(|c| !(c.phase == name && c.power == power));
        }
        let entry = match g
            .state
            .conditional
            .iter()
            .position(|c| c.phase == name && c.power == power && c.block == open.block)
        {
            Some(i) => &mut g.state.conditional[i],
            None => {
                g.state.conditional.push(ConditionalOrders {
                    phase: name.clone(),
                    power: power.to_string(),
                    block: open.block,
                    text: open.text.clone(),
                    condition: open.condition.clone(),
                    then: Vec::new(),
                    otherwise: Vec::new(),
                });
                g.state.conditional.last_mut().expect("just pushed")
            }
        };
        let doc = OrderDoc::from_order(map, &o.order);
        if open.in_else {
            entry.otherwise.push(doc);
        } else {
            entry.then.push(doc);
        }
        if first_touch {
            self.cond_replaced.push((name.clone(), power.to_string()));
        }
        let canon = o.canonical(map);
        self.given.push((
            key.into(),
            power.into(),
            name.clone(),
            format!("{canon} (conditional)"),
        ));
        self.work.tx.insert_order(&NewOrder {
            game: id,
            phase: &name,
            power,
            text: &o.text,
            canonical: Some(&canon),
            submitter: &self.sender,
            submitted_at: self.now(),
            inbound: self.work.inbound,
        })?;
        let branch = if open.in_else { "ELSE of the IF" } else { "IF" };
        self.ok_at(
            o.line,
            &o.text,
            format!(
                "Stored for {name}, under the {branch} on line {}: {canon}",
                open.line
            ),
        );
        Ok(())
    }
}
