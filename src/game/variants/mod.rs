//! Where the engine meets the variants: the `Variant` trait, one hook per
//! place the engine lets a variant change the game, each with a default that
//! plays the standard game; one stateless implementation per variant in the
//! registry `ALL`; and the one resolution of a game's variant (`of`), made
//! when a game is loaded (`work::Loaded::variant`).
//!
//! The rules themselves are pure and live in `crate::variant::*`; the modules
//! here only adapt them to the game state, the store and the mail replies.

pub mod agora;
pub mod gtd;
pub mod masters;
#[cfg(test)]
mod toy;
pub mod twilight;

use chrono::{DateTime, Utc};

use super::EngineError;
use super::model::{GameState, Outcome, Settings};
use super::request::Request;
use super::work::Work;
use crate::grammar::{ConvoyRoute, VariantOrder};
use crate::judge::{Adjudication, Position, Rules};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;
use crate::report::PhaseReport;
use crate::store::{GameId, PhaseRecord, Tx};

/// What a reply line says: accepted (`Ok`) or refused (`Err`), with why.
pub type Answer = Result<String, String>;

/// What the engine does for a game once a variant has answered: the start
/// and the end of a game are the engine's (`advance::follow`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Next {
    #[default]
    Nothing,
    /// Start the forming game now.
    Start,
    /// End the game with this outcome.
    End(Outcome),
}

/// A variant's answer to one line, and what the engine does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub answer: Answer,
    pub next: Next,
}

impl Reply {
    /// An answer after which nothing follows.
    pub(crate) fn only(answer: Answer) -> Reply {
        Reply {
            answer,
            next: Next::Nothing,
        }
    }
}

/// Who a variant's mail about a game goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone in the game, each with the deadline line.
    Everyone,
    /// The masters only, the text as it is.
    Masters,
}

/// A mail a variant asks the engine to send about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tell {
    pub to: Audience,
    pub subject: String,
    pub body: String,
}

/// What a variant made of a full forming game at its start.
#[derive(Clone, Debug, PartialEq)]
pub enum Started {
    /// The engine's start: powers by preference and lot on the opening board.
    Generic,
    /// Not yet, with what to tell whom.
    Held(Option<Tell>),
    /// The variant seated the players itself (GTD: players to countries by
    /// lot); the engine puts `opening` on the board, sets the clock and
    /// announces `announcement` to everyone.
    Seated {
        opening: Position,
        announcement: String,
        /// The detail of the `game.started` event.
        detail: serde_json::Value,
    },
}

/// A phase a variant played and reports in its own words (GTD). The engine
/// records it, sets the clock, mails it with the board picture and ends the
/// game; these are the variant's parts.
pub trait OwnResults {
    /// The phase is recorded as `record`: what the variant keeps of it.
    fn recorded(&self, work: &mut Work<'_, '_>, key: &str, record: i64) -> Result<(), EngineError>;

    /// The results text `reader` receives (times in `zone`).
    fn text_for(
        &self,
        state: &GameState,
        judge: &str,
        reader: &str,
        zone: chrono_tz::Tz,
        now: DateTime<Utc>,
    ) -> String;

    /// A mail when the phase ended the game, before the end is announced.
    fn last_word(&self, state: &GameState, judge: &str) -> Option<Tell>;
}

/// A variant as the engine sees it. Every method is a hook the engine calls;
/// the defaults play the standard game, so a variant overrides only where it
/// differs. Implementations are stateless: a game's own variant state lives
/// in its `GameState`.
pub trait Variant: Sync {
    /// The name `CREATE` and `SET VARIANT` give, and the game's settings keep.
    fn name(&self) -> &'static str;

    /// The board a game of this variant is played on, by the variant's name.
    fn board(&self) -> &'static Map {
        Map::standard()
    }

    /// The board of this game.
    fn map(&self, _state: &GameState) -> &'static Map {
        self.board()
    }

    /// The variant a game named for this one plays once its state is read
    /// (Masters Rules chosen for a standard game). `None`: this one.
    fn refined(&self, _state: &GameState) -> Option<&'static dyn Variant> {
        None
    }

    /// May Masters Rules be chosen for a game of this variant (`SET MASTERS`)?
    fn takes_masters_rules(&self) -> bool {
        false
    }

    /// The variant's options on a `CREATE` line (before any game exists):
    /// the variant the game is created with, and a request applied right
    /// after it. `None`: the line names none of this variant's options.
    fn create_options(
        &self,
        _command: &crate::grammar::Command,
    ) -> Option<(Option<String>, Request)> {
        None
    }

    /// A new game's settings for the variant (`CREATE`, `SET VARIANT`).
    fn settings(&self, _settings: &mut Settings) {}

    /// A game just created (`CREATE`), with its creator as master.
    fn created(&self, _state: &mut GameState, _creator: &str, _now: DateTime<Utc>) {}

    /// Just before a full forming game starts: settings and state made to agree.
    fn before_start(&self, _state: &mut GameState) {}

    /// Starting a full forming game: the engine's way, held, or seated by
    /// the variant.
    fn start(&self, _work: &mut Work<'_, '_>, _key: &str) -> Result<Started, EngineError> {
        Ok(Started::Generic)
    }

    /// The board the engine's start opens on.
    fn opening(&self, map: &Map) -> Position {
        Position::initial(map)
    }

    /// What the engine's start announces after the powers (Twilight Zone:
    /// the placement of rule 3).
    fn start_notes(&self) -> Option<&'static str> {
        None
    }

    /// A forming game has just started, powers given.
    fn started(&self, _state: &mut GameState) {}

    /// Plays the current phase in the variant's own way (the state moves to
    /// the next phase); `None`: the engine's adjudication.
    fn play(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
    ) -> Result<Option<super::process::Played>, EngineError> {
        Ok(None)
    }

    /// `SIGNON ?game` handled by the variant (`None`: the generic way).
    fn join(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _sender: &str,
        _password: &str,
    ) -> Result<Option<Reply>, EngineError> {
        Ok(None)
    }

    /// Do players sign on as themselves, with a password the variant checks
    /// (GTD after the start), rather than as powers?
    fn checks_own_passwords(&self, _state: &GameState) -> bool {
        false
    }

    /// May a power nobody plays be taken over by signing on to it, as on
    /// njudge? Not in the tournaments, whose organisers choose who plays.
    fn open_to_take_over(&self, _state: &GameState) -> bool {
        true
    }

    /// Does the game take its orders through its variant (by player, not power)?
    fn takes_own_orders(&self, _state: &GameState) -> bool {
        false
    }

    /// One order line of a game that `takes_own_orders`.
    fn take_order(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _sender: &str,
        _order: &Order,
    ) -> Result<Answer, EngineError> {
        Ok(Err("this game takes no orders this way".into()))
    }

    /// A variant's own order line; `power`: the power the sender speaks for
    /// (their own, or the one the master became).
    fn take_variant_order(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        _sender: &str,
        _power: Option<&str>,
        _order: &VariantOrder,
    ) -> Result<Answer, EngineError> {
        let variant = &work.game(key).state.settings.variant;
        Ok(Err(format!(
            "this order is not part of the {variant} variant; the line was not applied"
        )))
    }

    /// The sender's current orders, for the end of a reply (`None`: the
    /// generic summary).
    fn order_summary(&self, _state: &GameState, _sender: &str) -> Option<String> {
        None
    }

    /// The master's `EJECT` in a game that `takes_own_orders`.
    fn eject(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        who: &str,
    ) -> Result<Answer, EngineError> {
        Ok(Err(format!("{who} is not in this game")))
    }

    /// Who signs press sent by a member who plays no power, if the variant
    /// lets them send press.
    fn press_author(&self, _state: &GameState, _sender: &str) -> Option<String> {
        None
    }

    /// Does press to `powers` reach this member who plays no power?
    fn press_reaches(&self, _state: &GameState, _address: &str, _powers: &[String]) -> bool {
        false
    }

    /// A master command the variant does not allow, with why.
    fn master_refusal(&self, _state: &GameState, _request: &Request) -> Option<String> {
        None
    }

    /// `RESIGN` in a game that `takes_own_orders`.
    fn resign(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _sender: &str,
    ) -> Result<Answer, EngineError> {
        Ok(Err("nothing to resign".into()))
    }

    /// Orders of a power's player that the variant takes itself. One answer
    /// per order; `None`: the order goes the generic way.
    fn take_power_orders(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _sender: &str,
        _power: &str,
        orders: &[(String, Order)],
    ) -> Result<Vec<Option<Answer>>, EngineError> {
        Ok(vec![None; orders.len()])
    }

    /// The adjudication of the current phase, for variants that change it.
    /// `given` is replaced by the orders adjudicated. `None`: the judge's own.
    fn adjudicate(
        &self,
        _map: &Map,
        _rules: &Rules,
        _state: &mut GameState,
        _position: &Position,
        _given: &mut Vec<PowerOrder>,
    ) -> Option<Adjudication> {
        None
    }

    /// `MAP ... ENDMAP`, a player's map.
    fn submit_map(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        _sender: &str,
        _text: &str,
    ) -> Result<Reply, EngineError> {
        let variant = &work.game(key).state.settings.variant;
        Ok(Reply::only(Err(format!(
            "maps are submitted only in Twilight Zone games; this game is {variant}"
        ))))
    }

    /// A power's current order as the reply's summary lists it. `None`: the
    /// canonical order.
    fn order_line(&self, _state: &GameState, _power: &str, _order: &Order) -> Option<String> {
        None
    }

    /// Why an order line of `power`'s player kept for a later phase or an
    /// `IF` block cannot be kept as written. `None`: it can.
    fn kept_order_refusal(&self, _state: &GameState, _power: &str, _line: &str) -> Option<String> {
        None
    }

    /// The master's `FORCE BEGIN` was accepted.
    fn force_begin(&self, _state: &mut GameState) {}

    /// Why the master may not `FORCE BEGIN` now (`None`: may).
    fn may_begin(&self, _state: &GameState, _now: DateTime<Utc>) -> Option<String> {
        None
    }

    /// The season report of a phase just played, as the variant prints it.
    fn edit_report(&self, _state: &GameState, _report: &mut PhaseReport) {}

    /// Lines the variant adds to the report of the phase just played.
    fn report_sections(&self, _state: &GameState) -> Vec<String> {
        Vec::new()
    }

    /// Text only `reader` gets at the end of a phase report.
    fn reader_lines(&self, _state: &GameState, _reader: &str) -> String {
        String::new()
    }

    /// A stored phase adjudicated again for `HISTORY`, when the variant
    /// adjudicates differently. `None`: the judge's own.
    fn replay_adjudication(
        &self,
        _state: &GameState,
        _before: &Position,
        _orders: &[PowerOrder],
        _after: &Position,
    ) -> Option<Adjudication> {
        None
    }

    /// A stored phase's report for `HISTORY`, as the variant names its
    /// powers when that phase was played.
    fn edit_history_report(&self, _state: &GameState, _phase: &str, _report: &mut PhaseReport) {}

    /// The lines the variant added to the report of a stored phase (`HISTORY`).
    fn history_sections(&self, _state: &GameState, _phase: &str) -> Vec<String> {
        Vec::new()
    }

    /// The text `HISTORY` shows for each phase record (by record id), for a
    /// variant that keeps its own reports. `None`: the generic replay.
    fn history_texts(
        &self,
        _tx: &Tx<'_>,
        _game: GameId,
        _state: &GameState,
    ) -> Result<Option<std::collections::BTreeMap<i64, String>>, EngineError> {
        Ok(None)
    }

    /// When the clock must call for a forming game. `None`: a forming game
    /// waits for its players or master.
    fn forming_wakeup(&self, _state: &GameState) -> Option<DateTime<Utc>> {
        None
    }

    /// The clock's call for a forming game whose wake-up has come.
    fn forming_due(&self, _work: &mut Work<'_, '_>, _key: &str) -> Result<Next, EngineError> {
        Ok(Next::Nothing)
    }

    /// Why an order line's convoy route, or its lack, is refused when written
    /// for a phase of `kind`. `None`: accepted.
    fn route_refusal(
        &self,
        _state: &GameState,
        _position: &Position,
        _kind: PhaseKind,
        _order: &Order,
        _route: Option<ConvoyRoute>,
    ) -> Option<String> {
        None
    }

    /// A one-letter seat several powers of the map share: the one power with
    /// that initial that players play.
    fn played_power_by_initial(
        &self,
        _state: &GameState,
        _map: &Map,
        _initial: &str,
    ) -> Option<Power> {
        None
    }

    /// The powers players are given at the start.
    fn playable_powers(&self, _state: &GameState, map: &Map) -> Vec<String> {
        map.powers().iter().map(|p| p.name.clone()).collect()
    }

    /// Why `sender` may not sign on as `power` though the password is right.
    fn sign_on_refusal(&self, _state: &GameState, _power: &str, _sender: &str) -> Option<String> {
        None
    }

    /// Orders a power's seat gave in one mail, (phase, canonical order), with
    /// the sender.
    fn orders_given(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _power: &str,
        _sender: &str,
        _orders: &[(String, String)],
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// Whether the current phase is processed before its deadline (`None`:
    /// when every order is in, the generic way).
    fn ready(&self, _state: &GameState, _kind: PhaseKind) -> Option<bool> {
        None
    }

    /// Has a power's player given this phase's orders in a way the generic
    /// count of own units does not see?
    fn orders_given_otherwise(&self, _state: &GameState, _power: &str) -> bool {
        false
    }

    /// Names shown for powers the map does not name, stored name -> shown name.
    fn display_names(&self, _state: &GameState) -> std::collections::BTreeMap<String, String> {
        Default::default()
    }

    /// Does a power with a majority of centres end the game at once?
    fn solo_ends_game(&self, _state: &GameState) -> bool {
        true
    }

    /// After a phase is processed, before its report is made (the report
    /// shows what the hook changed).
    fn after_phase(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _after: &Position,
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// The clock's call for a game whose deadline passed; `Some`: the
    /// variant dealt with it (no phase processed), and what follows.
    fn due(&self, _work: &mut Work<'_, '_>, _key: &str) -> Result<Option<Next>, EngineError> {
        Ok(None)
    }

    /// Does this power have a seat a player can hold (and so a vote in a draw)?
    fn has_seat(&self, _state: &GameState, _power: Power) -> bool {
        true
    }

    /// The game was rolled back to the start of `phase` (its board is in
    /// place): the variant's own state goes back too.
    fn rolled_back(&self, _state: &mut GameState, _phase: &str) {}

    /// `ROLLBACK` to the start of `record`'s phase, for a variant whose own
    /// state goes back with the board: the board to restore, or why the
    /// rollback cannot be made. `None`: the generic way (`rolled_back` after).
    fn restore(
        &self,
        _work: &mut Work<'_, '_>,
        _key: &str,
        _record: &PhaseRecord,
    ) -> Result<Option<Result<crate::docs::PositionDoc, String>>, EngineError> {
        Ok(None)
    }

    /// Has the variant's own start made state of its own (GTD's government,
    /// the Agora's contestants, Twilight Zone maps, Masters' minor powers)?
    /// The master's `UNSTART` cannot take that back.
    fn has_own_state(&self, _state: &GameState) -> bool {
        false
    }

    /// Does the variant keep its players' seats and secrets to itself, so
    /// the master's order status lists none (GTD's commanders, the Agora's
    /// contestants, Twilight Zone maps)? Where it has state of its own.
    fn keeps_own_accounts(&self, state: &GameState) -> bool {
        self.has_own_state(state)
    }

    /// Why a player's `SET DRAW` or `SET CONCEDE` (`what`) is refused.
    fn vote_refusal(&self, _state: &GameState, _what: &str) -> Option<String> {
        None
    }

    /// Orders given ahead for a phase, added to those already stored for it
    /// (a later order for a unit replaces the earlier one).
    fn merge_later(
        &self,
        _state: &GameState,
        kind: PhaseKind,
        existing: &[Order],
        new: &[Order],
    ) -> Vec<Order> {
        super::orders_check::merge(kind, existing, new)
    }

    /// A phase has just been put on the board with the orders given ahead for it.
    fn entered_phase(&self, _map: &Map, _state: &mut GameState, _position: &Position) {}

    /// The master's `PREDICT` for a variant that plays its phases itself.
    /// `None`: the generic prediction.
    fn predict(
        &self,
        _work: &Work<'_, '_>,
        _key: &str,
        _sender: &str,
    ) -> Result<Option<String>, EngineError> {
        Ok(None)
    }

    /// The master's `BECOME <who>` in a game that `takes_own_orders`: the
    /// address the master then speaks for and the name shown, or why not.
    fn become_player(&self, state: &GameState, who: &str) -> Result<(String, String), String> {
        Err(format!("there is no player {who:?} in {}", state.name))
    }
}

/// The standard game: every hook's default.
pub struct Standard;

impl Variant for Standard {
    fn name(&self) -> &'static str {
        "standard"
    }

    /// Masters Rules chosen for a standard game (`SET MASTERS` without MR1)
    /// play through the Masters variant.
    fn refined(&self, state: &GameState) -> Option<&'static dyn Variant> {
        state
            .masters
            .is_some()
            .then_some(&masters::Masters as &dyn Variant)
    }

    fn takes_masters_rules(&self) -> bool {
        true
    }
}

/// Every variant this judge runs: the one list a new variant is added to.
static ALL: &[&dyn Variant] = &[
    &Standard,
    &masters::Masters,
    &gtd::Gtd,
    &agora::Agora,
    &twilight::Twilight,
    // Only in the unit tests: a variant known to nothing else (`toy`).
    #[cfg(test)]
    &toy::Toy,
];

/// The names of the variants this judge runs, as `SET VARIANT` lists them.
pub(crate) fn names() -> Vec<&'static str> {
    ALL.iter().map(|v| v.name()).collect()
}

/// The variant a name stands for (`CREATE`, `SET VARIANT`, the settings);
/// an empty name is the standard game.
pub(crate) fn named(name: &str) -> Option<&'static dyn Variant> {
    if name.is_empty() {
        return Some(&Standard);
    }
    ALL.iter()
        .copied()
        .find(|v| v.name().eq_ignore_ascii_case(name))
}

/// Whether two variants are the same one of the registry (each has its own
/// name there; the unit structs have no address to compare).
pub(crate) fn same(a: &dyn Variant, b: &dyn Variant) -> bool {
    a.name() == b.name()
}

/// The variant a game plays: the one its settings name, as its state refines
/// it. A name this judge does not run (never stored by `CREATE` or `SET
/// VARIANT`) plays the standard game.
pub fn of(state: &GameState) -> &'static dyn Variant {
    let named = named(&state.settings.variant).unwrap_or(&Standard);
    named.refined(state).unwrap_or(named)
}

/// Hook: `SET MASTERS` (and the Masters Rules chosen at `CREATE`).
pub(crate) fn set_masters(state: &mut GameState, list: &str) -> Answer {
    masters::set_options(state, list)
}

/// The Agora tournament's commands (`answer` for the reply line).
pub(crate) fn agora_command(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    master: bool,
    command: &agora::AgoraCommand,
) -> Result<Reply, EngineError> {
    agora::command(work, key, sender, master, command)
}

/// Hook: the map a mail is read with: that of the game its first `SIGNON`,
/// `OBSERVE` or `JOIN` names, when the game's variant has its own (Masters
/// minor powers); else the standard map.
pub(crate) fn mail_map(
    tx: &crate::store::Tx<'_>,
    body: &crate::grammar::Body,
) -> Result<&'static crate::map::Map, EngineError> {
    use crate::grammar::{Command, Entry};
    let standard = crate::map::Map::standard();
    let game = body.lines.iter().find_map(|l| match &l.entry {
        Entry::Command(Command::Signon { game, .. })
        | Entry::Command(Command::Observe { game, .. })
        | Entry::Command(Command::Join {
            game: Some(game), ..
        }) => Some(game.clone()),
        _ => None,
    });
    let Some(row) = game.map(|g| tx.game_by_name(&g)).transpose()?.flatten() else {
        return Ok(standard);
    };
    let settings: Result<super::model::Settings, _> = serde_json::from_str(&row.settings);
    Ok(settings
        .ok()
        .and_then(|s| named(&s.variant))
        .map_or(standard, |v| v.board()))
}

/// A variant's options on a `CREATE` line, as the first variant that reads
/// them gives them: the variant the game is created with, and a request
/// applied right after (Masters: `SET MASTERS`).
pub(crate) fn create_options(
    command: &crate::grammar::Command,
) -> Option<(Option<String>, Request)> {
    ALL.iter().find_map(|v| v.create_options(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: &str) -> GameState {
        GameState::new(
            "g",
            Settings {
                variant: variant.to_string(),
                ..Settings::default()
            },
        )
    }

    #[test]
    fn a_standard_game_plays_the_standard_variant() {
        assert_eq!(of(&game("standard")).name(), "standard");
        assert_eq!(of(&game("")).name(), "standard");
    }

    #[test]
    fn masters_rules_in_a_standard_game_play_the_masters_variant() {
        let mut state = game("standard");
        set_masters(&mut state, "MR2").expect("rules chosen");
        assert_eq!(state.settings.variant, "standard");
        let variant = of(&state);
        assert_eq!(variant.name(), "masters");
        // Without MR1 the board stays the standard one.
        assert_eq!(variant.map(&state).powers().len(), 7);
        set_masters(&mut state, "").expect("rules dropped");
        assert_eq!(of(&state).name(), "standard");
    }

    #[test]
    fn a_masters_game_plays_on_the_board_with_minors() {
        let state = game("masters");
        let variant = of(&state);
        assert_eq!(variant.name(), "masters");
        assert!(variant.map(&state).powers().len() > 7);
    }

    #[test]
    fn a_gtd_game_plays_gtd_before_its_state_exists() {
        let state = game("GTD");
        assert!(state.gtd.is_none());
        let variant = of(&state);
        assert_eq!(variant.name(), "gtd");
        // Forming, it takes orders and sign-ons the generic way.
        assert!(!variant.takes_own_orders(&state));
        assert!(variant.may_begin(&state, chrono::Utc::now()).is_some());
    }

    #[test]
    fn a_twilight_game_plays_twilight_on_its_own_board() {
        let state = game("twilight");
        let variant = of(&state);
        assert_eq!(variant.name(), "twilight");
        assert_eq!(
            variant.map(&state).supply_centers().len(),
            Map::standard().supply_centers().len() - 1
        );
    }

    #[test]
    fn an_agora_game_plays_agora() {
        assert_eq!(of(&game("agora")).name(), "agora");
    }

    #[test]
    fn a_name_the_judge_does_not_run_is_no_variant() {
        assert!(named("chaos").is_none());
        assert_eq!(of(&game("chaos")).name(), "standard");
    }

    #[test]
    fn every_variant_is_found_by_its_own_name() {
        for v in ALL {
            assert_eq!(named(v.name()).map(|f| f.name()), Some(v.name()));
        }
    }
}
