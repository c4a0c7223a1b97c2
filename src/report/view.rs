//! Who reads a report, and what they may see of it.
//!
//! A [`View`] belongs to a variant: it decides, for one [`Recipient`], which
//! orders, units and centers the report shows and what private notices it adds.
//! The standard game hides nothing ([`Public`]); variants that keep secrets
//! (Twilight Zone maps, Agora votes, Grand Tournament commands) supply their own.
//! The report is always rebuilt from the model through the view, never edited
//! as text.

use chrono_tz::Tz;

use super::model::{DislodgedUnit, PhaseReport, ResolvedOrder};
use crate::judge::Unit;
use crate::map::{Power, Province};

/// The part a recipient plays in the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The player of a power.
    Player(Power),
    /// Someone watching the game.
    Observer,
    /// The game master: sees everything.
    Master,
}

/// One reader of a report: their part in the game and their time zone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    pub role: Role,
    /// Deadlines are printed in this zone.
    pub zone: Tz,
}

impl Recipient {
    pub fn new(role: Role, zone: Tz) -> Recipient {
        Recipient { role, zone }
    }

    /// The power this recipient plays, if any.
    pub fn power(&self) -> Option<Power> {
        match self.role {
            Role::Player(p) => Some(p),
            _ => None,
        }
    }
}

/// What a recipient may see. Every method defaults to "everything", the rule of
/// the standard game; a variant overrides the ones it keeps secret.
pub trait View {
    /// May the recipient read this order and its result?
    fn shows_order(&self, _who: &Recipient, _order: &ResolvedOrder) -> bool {
        true
    }

    /// May the recipient see this unit on the board?
    fn shows_unit(&self, _who: &Recipient, _unit: &Unit) -> bool {
        true
    }

    /// May the recipient see that this unit was dislodged and where it may go?
    fn shows_dislodged(&self, who: &Recipient, d: &DislodgedUnit) -> bool {
        self.shows_unit(who, &d.unit)
    }

    /// May the recipient see who owns this supply center (`None`: that nobody does)?
    fn shows_center(&self, _who: &Recipient, _owner: Option<Power>, _center: Province) -> bool {
        true
    }

    /// May the recipient see this power's count of centers and units?
    fn shows_standing(&self, _who: &Recipient, _power: Power) -> bool {
        true
    }

    /// Lines only this recipient is told (the units they command, vote counts...).
    fn notices(&self, _who: &Recipient, _report: &PhaseReport) -> Vec<String> {
        Vec::new()
    }
}

/// The standard game: results are public.
#[derive(Copy, Clone, Debug, Default)]
pub struct Public;

impl View for Public {}

/// A view for games played blind: a player sees only their own orders and units;
/// observers and the master see everything. Also an example of a secret-keeping view.
#[derive(Copy, Clone, Debug, Default)]
pub struct OwnOnly;

impl View for OwnOnly {
    fn shows_order(&self, who: &Recipient, order: &ResolvedOrder) -> bool {
        who.power().is_none_or(|p| p == order.power())
    }

    fn shows_unit(&self, who: &Recipient, unit: &Unit) -> bool {
        who.power().is_none_or(|p| p == unit.power)
    }

    fn shows_center(&self, who: &Recipient, owner: Option<Power>, _center: Province) -> bool {
        who.power().is_none_or(|p| Some(p) == owner)
    }

    fn shows_standing(&self, who: &Recipient, power: Power) -> bool {
        who.power().is_none_or(|p| p == power)
    }
}

impl PhaseReport {
    /// The report as `who` may see it under `view`. The master always sees all.
    pub fn seen_by(&self, view: &dyn View, who: &Recipient) -> PhaseReport {
        if who.role == Role::Master {
            return self.clone();
        }
        let mut out = self.clone();
        out.orders.retain(|o| view.shows_order(who, o));
        out.dislodged.retain(|d| view.shows_dislodged(who, d));
        for position in [&mut out.before, &mut out.after] {
            position.units.retain(|u| view.shows_unit(who, u));
            position.dislodged.retain(|d| view.shows_unit(who, &d.unit));
            for (i, owner) in position.owners.iter_mut().enumerate() {
                if let Some(p) = *owner
                    && !view.shows_center(who, Some(p), Province(i as u8))
                {
                    *owner = None;
                }
            }
        }
        for summary in &mut out.powers {
            let power = summary.power;
            summary
                .centers
                .retain(|c| view.shows_center(who, Some(power), *c));
        }
        out.unowned.retain(|c| view.shows_center(who, None, *c));
        out.powers.retain(|s| view.shows_standing(who, s.power));
        out.notices = view.notices(who, self);
        out
    }
}
