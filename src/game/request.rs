//! What the engine is asked to do: one mail's lines, already parsed. The
//! grammar produces them (see `from_grammar`); tests may build them directly.

use chrono::{DateTime, Utc};

use super::model::PressKind;
use crate::orders::Order;
use crate::phase::{Phase, PhaseKind};

/// Who a press message is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressTarget {
    All,
    /// The game's master only: always allowed, whatever the press settings.
    Master,
    Powers(Vec<String>),
    AllBut(Vec<String>),
    /// The game's observers (`PRESS TO O`); the master reads it too.
    Observers,
}

/// One part of a phase kind's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockField {
    /// Deadline time of day (`None`: exactly the hours after the phase starts).
    Time(Option<chrono::NaiveTime>),
    NextHours(u32),
    GraceHours(u32),
    Days(crate::schedule::Weekdays),
    /// `MIN`: minutes at least from the start of the phase to its processing.
    MinMinutes(u32),
    /// `DELAY`: minutes from the last orders in to the processing.
    DelayMinutes(u32),
}

/// One line of a mail, as the engine receives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    Command {
        line: usize,
        text: String,
        request: Request,
    },
    Order {
        line: usize,
        text: String,
        order: Order,
        /// The convoy route the line wrote (`A LON - NTH - BEL`), if any.
        route: Option<crate::grammar::ConvoyRoute>,
    },
    /// A line the grammar could not read: reported back; the other lines still apply.
    Error {
        line: usize,
        text: String,
        message: String,
    },
    /// Prose after the last order or command (a closing, a name): echoed as
    /// not read, no error.
    Unread { line: usize, text: String },
}

impl Line {
    pub fn number(&self) -> usize {
        match self {
            Line::Command { line, .. }
            | Line::Order { line, .. }
            | Line::Error { line, .. }
            | Line::Unread { line, .. } => *line,
        }
    }

    pub fn text(&self) -> &str {
        match self {
            Line::Command { text, .. }
            | Line::Order { text, .. }
            | Line::Error { text, .. }
            | Line::Unread { text, .. } => text,
        }
    }
}

/// A command, with dates already resolved to instants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `CREATE ?game password [variant]`: the sender becomes its master.
    Create {
        game: String,
        password: String,
        variant: Option<String>,
    },
    /// `SIGNON ?game password` (`power: None`: join a forming game) or
    /// `SIGNON <power>game password` / `SIGNON <power>@game password`.
    /// The master signs on with the power `M` or `master`.
    SignOn {
        power: Option<String>,
        game: String,
        password: String,
    },
    Observe {
        game: String,
        password: String,
    },
    /// A `SIGNON` that names the game's variant after the password (njudge):
    /// refused whole when the game is of another variant. `SIGNON ? pw
    /// variant` joins the next forming game of that variant.
    SignOnNamed {
        variant: String,
        /// The options named after the variant (`gunboat`, `nmr`...).
        options: Vec<String>,
        signon: Box<Request>,
    },
    /// `WHOIS user ...`: the registrations whose address starts so.
    WhoIs(Vec<String>),
    /// `INFO PLAYER address`: one player's registration and games.
    InfoPlayer(String),
    /// `I AM ALSO address`: refused, with the way that works.
    IAmAlso(String),
    /// `POSTAL PRESS ... ENDPRESS`: a broadcast sent after the phase is processed.
    PostalPress(String),
    /// Powers, most wanted first; a group holds equal choices.
    SetPreference(Vec<Vec<String>>),
    SetTimezone(String),
    /// `SET PASSWORD <new>`: for the seat signed on to.
    SetPassword(String),
    SetWait(bool),
    /// `SET DRAW [powers]` (`Some`, empty = every survivor) or `NO DRAW` (`None`).
    SetDraw(Option<Vec<String>>),
    SetConcede(Option<String>),
    SetAbsence {
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    /// `PHASE S1901M`: the orders that follow are for that phase.
    Phase(Phase),
    /// `IF <condition>`: the orders up to `ELSE` or `ENDIF` apply when it holds
    /// on the board at the start of their phase.
    If(super::conditions::CondDoc),
    /// `ELSE`: the orders up to `ENDIF` apply when the condition does not hold.
    Else,
    /// `ELSE IF <condition>`: the orders up to the next `ELSE`, `ELSE IF` or
    /// `ENDIF` apply when no branch before holds and this one does.
    ElseIf(super::conditions::CondDoc),
    EndIf,
    List(Option<String>),
    Summary(Option<String>),
    /// `HISTORY [game] [FROM date] [TO date]`: phases processed in that span.
    History {
        game: Option<String>,
        from: Option<DateTime<Utc>>,
        to: Option<DateTime<Utc>>,
        /// njudge's `LINES n` and `EXCLSTART`/`EXCLEND`.
        limits: crate::grammar::HistoryLimits,
    },
    WhoGame(Option<String>),
    Help,
    /// `GET <topic>` (and `HELP <topic>`): a help text.
    Get(String),
    /// `REGISTER ... END`: the block's `key: value` fields (keys in lower case).
    Register(Vec<(String, String)>),
    /// `DIARY ...`: a private note kept with the game signed on to.
    Diary(crate::grammar::DiaryAction),
    /// `SET ADDRESS [address]`: the seat signed on to is reached there (none:
    /// the sender's address).
    SetAddress(Option<String>),
    /// `PREDICT` (master): the results the current orders would give.
    Predict,
    /// `SET VARIANT <name>` (master, while forming).
    SetVariant(String),
    /// `SET MASTERS MR1,MR2` (master, while forming): the Masters Rules played.
    SetMasters(String),
    Version,
    Resign,
    // Master commands.
    Process,
    Rollback(Option<Phase>),
    Pause,
    Resume,
    Terminate,
    ForceBegin,
    SetDeadline(DateTime<Utc>),
    /// `SET DEADLINE Tue`: that day, at the time of day of the current deadline.
    SetDeadlineDay(crate::grammar::DateSpec),
    SetNmr(bool),
    SetPress(PressKind),
    /// `SET [NO] PARTIAL [PRESS]`: press to some powers allowed or not.
    SetPartial(bool),
    /// `SET [NO] DIAS`: draws must include all survivors, or not.
    SetDias(bool),
    SetRules(String),
    /// `SET GRACE <date>`: the end of grace of the current phase.
    SetGrace(DateTime<Utc>),
    /// `BECOME <power>`: the master speaks for a power for the rest of the mail.
    Become(String),
    /// `EJECT <power|address>`: removes a player (the power is left without one) or
    /// another member.
    Eject(String),
    /// `PROMOTE <address>`: makes a member a master too.
    Promote(String),
    /// `SET MOVE|RETREAT|ADJUST CLOCK/NEXT/GRACE/DAYS ...`; `kind: None` sets every kind.
    SetClock {
        kind: Option<PhaseKind>,
        field: ClockField,
    },
    /// `PRESS [TO ...] [GREY|WHITE] ... ENDPRESS`; `BROADCAST` is press to all, white.
    Press {
        to: PressTarget,
        grey: bool,
        /// njudge's fake press: the readers the header names instead.
        fake: Option<PressTarget>,
        text: String,
    },
    /// A command the engine does not carry out yet; answered as such.
    Unsupported(String),
    /// `MAP ... ENDMAP`: a player's own map (Twilight Zone), the block's text.
    SubmitMap(String),
    /// `ENTER`, proposals, votes, the Gamemaster's acts... of an Agora tournament.
    Agora(crate::variant::agora::command::AgoraCommand),
    /// A variant's own order (`A PAR DEFECT TO Germany`, `VOTE ...`); the
    /// game's variant takes it or refuses it.
    Variant(crate::grammar::VariantOrder),
    // njudge's Master habits.
    /// `BECOME MASTER`: the only player of a game without a master becomes it.
    BecomeMaster,
    /// `CLEAR`: the orders kept for later phases are dropped.
    ClearLater,
    /// `UNSTART` (master): back to forming before the first phase is processed.
    Unstart,
    /// `PROCESS <phase>` (master): processed only if that is the current phase.
    ProcessPhase(Phase),
    /// `ROLLBACK n` (master): to the state before njudge's turn `n` was processed.
    RollbackTurn(u32),
    /// A game setting in njudge's words (master, or any player when unmoderated).
    Flag(crate::grammar::GameFlag),
    /// Several clock settings on one line.
    SetClocks {
        kind: PhaseKind,
        fields: Vec<ClockField>,
    },
    /// An njudge setting that cannot apply here, with why: refused as such.
    Refused {
        setting: String,
        why: String,
    },
    /// An njudge setting that is always so here: answered, nothing changed.
    Already {
        setting: String,
        why: String,
    },
    /// `LIST FULL`: every listed game in detail.
    ListFull,
    /// `SET PREFERENCE *`: any power, by lot (in `PRFBOTH` and `PRFRAND` games).
    SetPreferenceAny,
}

/// What the receiving mail server says of a mail's sender: an
/// `Authentication-Results` field (RFC 8601) from a server the judge's
/// configuration names (`[judge] authserv_ids`), with DMARC, or DKIM aligned
/// with the From: domain, passing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Vouch {
    /// The judge takes no server's word (none configured).
    #[default]
    NotChecked,
    /// A trusted server vouched for the From: address.
    Vouched,
    /// A trusted server is configured and did not vouch for this mail.
    Unvouched,
}
