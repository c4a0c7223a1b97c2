//! The order and command language: what players write in mail bodies, read into
//! exact values (`Order`, `Command`, variant orders) or into errors that say
//! where the mistake is and what would have been right.
//!
//! Pure: no I/O and no clock (dates stay relative until the engine resolves them
//! with its own `now`). Never panics on any input. The language is specified in
//! `grammar/legate.ebnf`; `grammar/examples/` holds lines and what they must give.
//!
//! Layout: `lexer` (tokens, nom), `lexicon` (provinces, coasts, powers,
//! suggestions), `order` (orders), `variant` (variant orders), `command` (judge
//! commands), `date` (njudge dates), `body` (mail-body structure), `canonical`
//! (printing), `shape` (what an unread line looks like), `error`.

mod body;
mod canonical;
mod command;
mod date;
mod error;
mod lexer;
mod lexicon;
mod njudge_master;
mod order;
mod shape;
pub mod testing;
mod variant;

pub use body::{
    Body, BodyLine, Entry, Ignored, OrderItem, entry_canonical, item_canonical, parse_body,
    parse_body_in, parse_line,
};
pub use canonical::{canonical, canonical_parsed, canonical_routed};
pub use command::{
    ClockSetting, Command, Condition, DiaryAction, HistoryLimits, PressColor, PressSetting,
    PressTo, RulesEdition, Seat, command_canonical,
};
pub use command::{GameFlag, PreferenceRule, PressRule};
pub use date::{DateSpec, Zone, parse_date, parse_zone_name};
pub use error::{ErrorKind, GrammarError};
pub use order::{ConvoyRoute, ParsedOrder, parse_order, parse_order_in};
pub use variant::{Country, VariantOrder, variant_canonical};
