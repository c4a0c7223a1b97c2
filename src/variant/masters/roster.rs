//! Who is who in a Masters game, beyond what the judge's `Position` holds: which
//! power indexes are great powers, minors and rebels, each rebel's origin and
//! identity, and who owned which center at the previous adjustment (MR4).
//!
//! Power indexes: `0..great` the great powers, `great..great + minors` the minors
//! (powers of the map, see `minors`), then rebels, each rebel unit its own power
//! (a rebel is aided, and gains a center, on its own: MR3 e, MR6 a). Rebel
//! indexes are given lowest free first, so the same game always numbers them alike.

use crate::judge::Position;
use crate::map::{Map, Power, Province, UnitKind};

use super::options::Options;

/// Power indexes stop at 32: the judge sizes its per-power tables so.
pub const MAX_POWERS: usize = 32;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Great,
    Minor,
    Rebel,
}

/// One rebel power (MR3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rebel {
    pub power: Power,
    /// The kind of unit raised.
    pub kind: UnitKind,
    /// The center it was raised in (its first name: `Rebel A Mos`).
    pub raised_in: Province,
    /// The center it gained ownership of, and identity with (MR3 e); its home from then on.
    pub identity: Option<Province>,
}

/// The Masters bookkeeping a game keeps between phases (`to_json`/`from_json`
/// for the store; serde through the same stored form).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct MastersState {
    pub options: Options,
    /// Number of great powers: the first indexes.
    pub great: u8,
    /// Number of minor powers after them (0 without MR1).
    pub minors: u8,
    /// Living rebels, by power index.
    pub rebels: Vec<Rebel>,
    /// Center owners at the previous adjustment (`None` before the first one):
    /// MR4 annexes only a center owned then and now.
    pub previous_owners: Option<Vec<Option<Power>>>,
}

impl MastersState {
    /// A new game on `map`, whose first `great` powers are the great powers and the
    /// rest its minors (see `minors::with_minors`).
    pub fn new(map: &Map, great: usize, options: Options) -> MastersState {
        let all = map.powers().len().min(MAX_POWERS);
        let great = great.min(all);
        MastersState {
            options,
            great: great as u8,
            minors: (all - great) as u8,
            rebels: Vec::new(),
            previous_owners: None,
        }
    }

    /// First index that is not a great power or a minor.
    pub fn first_rebel_index(&self) -> usize {
        self.great as usize + self.minors as usize
    }

    pub fn kind(&self, power: Power) -> Option<Kind> {
        let i = power.0 as usize;
        if i < self.great as usize {
            Some(Kind::Great)
        } else if i < self.first_rebel_index() {
            Some(Kind::Minor)
        } else {
            self.rebel(power).map(|_| Kind::Rebel)
        }
    }

    pub fn rebel(&self, power: Power) -> Option<&Rebel> {
        self.rebels.iter().find(|r| r.power == power)
    }

    /// Minors and rebels are always in civil disorder (MR1 c, MR3 a); a great
    /// power is when the game says so (`cd_great`).
    pub fn in_civil_disorder(&self, power: Power, cd_great: &[Power]) -> bool {
        match self.kind(power) {
            Some(Kind::Minor | Kind::Rebel) => true,
            Some(Kind::Great) => cd_great.contains(&power),
            None => false,
        }
    }

    /// Lowest rebel index in use by no living rebel, if any is left.
    pub fn free_rebel_index(&self, taken: &[Power]) -> Option<Power> {
        (self.first_rebel_index()..MAX_POWERS)
            .map(|i| Power(i as u8))
            .find(|p| self.rebel(*p).is_none() && !taken.contains(p))
    }

    /// How reports name a power: the map's name, `Rebel A Mos` (type and the space
    /// its unit stands in now), or, once it has an identity, `Rebel Moscow`.
    pub fn name(&self, map: &Map, position: &Position, power: Power) -> String {
        if let Some(info) = map.powers().get(power.0 as usize) {
            return info.name.clone();
        }
        let Some(rebel) = self.rebel(power) else {
            return format!("Power {}", power.0);
        };
        if let Some(home) = rebel.identity {
            return format!("Rebel {}", map.name(home));
        }
        let (kind, at) = position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .find(|u| u.power == power)
            .map_or((rebel.kind, rebel.raised_in), |u| (u.kind, u.province()));
        format!("Rebel {} {}", kind.letter(), map.abbr(at).to_uppercase())
    }

    /// Records the owners at an adjustment, played or skipped (MR4 a: "owned in the
    /// previous Adjustments phase"). The engine calls it each winter the
    /// adjustment phase is skipped; `adjustment::resolve` does it when played.
    pub fn note_adjustment(&mut self, position: &Position) {
        self.previous_owners = Some(position.owners.clone());
    }

    /// A rebel that owns a center gains identity with it, and it becomes its home
    /// (MR3 e). Rebels with neither units nor centers are gone. Call after each Fall.
    pub fn update_rebels(&mut self, position: &mut Position) {
        for rebel in &mut self.rebels {
            if rebel.identity.is_none() {
                rebel.identity = position.centers_of(rebel.power).iter().next();
                if let Some(home) = rebel.identity {
                    set_home(position, rebel.power, home);
                }
            }
        }
        self.rebels.retain(|r| {
            position.unit_count(r.power) > 0
                || position.dislodged.iter().any(|d| d.unit.power == r.power)
                || !position.centers_of(r.power).is_empty()
        });
    }
}

/// Makes `p` a home center of `power`, growing `homes` as needed.
pub fn set_home(position: &mut Position, power: Power, p: Province) {
    let i = power.0 as usize;
    if position.homes.len() <= i {
        position.homes.resize(i + 1, Default::default());
    }
    position.homes[i].insert(p);
}

#[derive(Debug, thiserror::Error)]
#[error("stored Masters state is not valid: {0}")]
pub struct StateError(String);

/// The stored form: plain numbers, so the map types need no serde.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Stored {
    options: Options,
    great: u8,
    minors: u8,
    /// (power, fleet?, raised in, identity)
    rebels: Vec<(u8, bool, u8, Option<u8>)>,
    previous_owners: Option<Vec<Option<u8>>>,
}

impl From<MastersState> for Stored {
    fn from(s: MastersState) -> Stored {
        s.stored()
    }
}

impl TryFrom<Stored> for MastersState {
    type Error = StateError;

    fn try_from(s: Stored) -> Result<MastersState, StateError> {
        MastersState::from_stored(s)
    }
}

impl MastersState {
    pub fn to_json(&self) -> String {
        // Plain numbers and vectors always serialize.
        serde_json::to_string(&self.stored()).unwrap_or_default()
    }

    fn stored(&self) -> Stored {
        Stored {
            options: self.options,
            great: self.great,
            minors: self.minors,
            rebels: self
                .rebels
                .iter()
                .map(|r| {
                    let fleet = r.kind == UnitKind::Fleet;
                    (r.power.0, fleet, r.raised_in.0, r.identity.map(|p| p.0))
                })
                .collect(),
            previous_owners: self
                .previous_owners
                .as_ref()
                .map(|v| v.iter().map(|o| o.map(|p| p.0)).collect()),
        }
    }

    pub fn from_json(text: &str) -> Result<MastersState, StateError> {
        let s: Stored = serde_json::from_str(text).map_err(|e| StateError(e.to_string()))?;
        MastersState::from_stored(s)
    }

    fn from_stored(s: Stored) -> Result<MastersState, StateError> {
        let kind = |fleet: bool| {
            if fleet {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            }
        };
        Ok(MastersState {
            options: s.options,
            great: s.great,
            minors: s.minors,
            rebels: s
                .rebels
                .into_iter()
                .map(|(p, f, at, id)| Rebel {
                    power: Power(p),
                    kind: kind(f),
                    raised_in: Province(at),
                    identity: id.map(Province),
                })
                .collect(),
            previous_owners: s
                .previous_owners
                .map(|v| v.into_iter().map(|o| o.map(Power)).collect()),
        })
    }
}
