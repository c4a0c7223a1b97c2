//! Masters Rules Diplomacy (Elwell, Dale and Guenter): six optional rules, each a
//! switch (`Options`), played singly or together on the standard map or others.
//!
//! - `options`: which of MR1 to MR6 are on.
//! - `minors` (MR1): minor powers made powers of the map.
//! - `roster`: great powers, minors and rebels by power index; the state kept
//!   between phases.
//! - `control` (MR2): variable control in movement and retreat phases.
//! - `rebellion` (MR3), `annexation` (MR4), `disarmament` (MR5), `aid` (MR6):
//!   the checks of each rule's adjustment orders; `build` (where a unit can be
//!   built) serves them all, and removals owed follow the judge's civil-disorder
//!   rule (`judge::removal_order`).
//! - `outcome`: adjustment orders, verdicts and reasons.
//! - `report`: what season reports print of all this.
//! - `adjustment`: the adjustment phase with all six rules, resolved in a
//!   documented sequence, each outcome with its reason.
//!
//! Nothing is decided by lot: every tie has a stated rule (`docs/rulings.md#masters`).

pub mod adjustment;
pub mod aid;
pub mod annexation;
pub mod build;
pub mod control;
pub mod disarmament;
pub mod game;
pub mod minors;
pub mod options;
pub mod outcome;
pub mod rebellion;
pub mod report;
pub mod roster;

pub use adjustment::{AdjustmentResult, AdjustmentSubmission, resolve as resolve_adjustment};
pub use control::{ControlResult, Submission, resolve as resolve_control};
pub use options::{Options, OptionsError, Rule};
pub use outcome::{AdjustmentOrder, Outcome, Reason, Verdict};
pub use roster::{Kind, MastersState, Rebel, StateError};
