//! Variants: rules and data that change the standard game live here, one
//! module each. Every variant keeps to the pure core: no I/O, no clock.

pub mod agora;
pub mod gtd;
pub mod masters;
pub mod twilight;
