//! Judge commands (njudge and DPjudge compatible), one per line. Block commands
//! (`PRESS` ... `ENDPRESS`, `REGISTER` ... `END`) carry the block's text, which the
//! mail-body reader collects (see `body`).
//!
//! Every command has a canonical form (its `Display`), with passwords shown as `****`.

use std::fmt;

use chrono::NaiveTime;
use chrono_tz::Tz;

use crate::map::{Map, Power};
use crate::phase::{Phase, PhaseKind, Season};

use super::date::{DateSpec, parse_date, parse_zone_name};
use super::error::{ErrorKind, GrammarError};
use super::lexer::{Cursor, Kind};
use super::lexicon::{self, suggest_keyword};
use super::order::{Ctx, condition_unit, power_word};

/// How a player names the seat in `SIGNON`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// `SIGNON Fmygame pw`: njudge's one-letter power initial (`M` master, `O` observer).
    Initial(char),
    /// `SIGNON France@mygame pw`
    Power(Power),
    /// `SIGNON ?mygame pw`: join a game that is forming; `SIGNON ? pw`
    /// (no game named): the next game that is forming.
    Join,
}

/// Who may read a press message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressTo {
    All,
    /// `PRESS TO M`, `PRESS TO MASTER`: the game's master only (always allowed).
    Master,
    Powers(Vec<Power>),
    AllBut(Vec<Power>),
    /// `PRESS TO O` (njudge's `O`): the game's observers (and the master).
    Observers,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PressColor {
    White,
    Grey,
}

/// `SET PRESS WHITE|GREY|NONE`
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PressSetting {
    White,
    Grey,
    None,
}

/// njudge's `HISTORY ... LINES n` and `EXCLSTART turn [EXCLEND turn]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryLimits {
    /// At most this many lines of answer.
    pub lines: Option<u32>,
    /// Phases left out: from the first to the second (to the end when none).
    pub exclude: Option<(Phase, Option<Phase>)>,
}

/// `SET RULES 2023|2000|1971`: the rulebook edition where editions differ.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RulesEdition {
    R1971,
    R2000,
    R2023,
}

/// `SET MOVE|RETREAT|ADJUST <field> <value>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockSetting {
    /// `CLOCK 23:30` (deadlines fall at that time of day) or `CLOCK -1` (none).
    Clock(Option<NaiveTime>),
    /// `NEXT 48` hours from the last processing to the next deadline (in minutes).
    Next(u32),
    /// `GRACE 72` hours of grace after the deadline (in minutes).
    Grace(u32),
    /// `DAYS -MTWTF-`: the days a deadline may fall on, Sunday first (bit 0 = Sunday).
    Days(u8),
    /// `MIN 12` hours at least between the start of the phase and its
    /// processing (in minutes).
    Min(u32),
    /// `DELAY 0.5` hours between the last orders in and the processing (in minutes).
    Delay(u32),
}

/// A condition of `IF <condition>`: an expression over the units on the board
/// when the orders are resolved (`IF Par AND NOT F Bre`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The power has a unit at this location (type checked when given).
    Unit(crate::orders::UnitSpec),
    Not(Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
}

/// `DIARY` sub-commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiaryAction {
    /// `DIARY` or `DIARY RECORD`: the following text, up to `ENDPRESS`, is the entry.
    Record(String),
    List,
    Read(u32),
    Delete(u32),
}

/// One judge command. The engine matches on it directly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    // -- player and account --------------------------------------------------------
    /// `SIGNON Fmygame pw`, `SIGNON France@mygame pw`, `SIGNON ?mygame pw`,
    /// each with the game's variant named after the password (njudge: proof
    /// the player knows what the game is).
    Signon {
        seat: Seat,
        game: String,
        password: String,
        variant: Option<String>,
        /// Options after the variant (`SIGNON ?game pw standard gunboat`): each
        /// must describe the game, or the sign-on is refused.
        options: Vec<String>,
    },
    /// Ends the mail: nothing after it is read.
    Signoff,
    /// `CREATE ?game password [variant] [options...]`
    Create {
        game: String,
        password: String,
        variant: Option<String>,
        options: Vec<String>,
    },
    /// `JOIN [game [password]]`
    Join {
        game: Option<String>,
        password: Option<String>,
    },
    /// `OBSERVE game password`
    Observe {
        game: String,
        password: String,
    },
    /// `RESIGN`
    Resign,
    /// `REGISTER` ... `END`: the `key: value` lines of the block.
    Register(Vec<(String, String)>),
    /// `SET PASSWORD new`
    SetPassword(String),
    /// `SET ADDRESS [address]` (none: the mail's sender).
    SetAddress(Option<String>),
    /// Groups in order of preference; powers in one group are equally wanted.
    SetPreference(Vec<Vec<Power>>),
    /// `SET PREFERENCE *`: any power, drawn by lot (njudge's `PRFBOTH`).
    SetPreferenceAny,
    /// `SET TIMEZONE Europe/Paris`: the zone the player's dates are read in.
    SetTimezone(Tz),
    // -- njudge habits of players -----------------------------------------------
    /// `WHOIS user ...`, `WHO IS user ...`, `WHO user ...`: the registrations
    /// whose address starts with each word.
    WhoIs(Vec<String>),
    /// `INFO PLAYER address`: what the judge knows of one player.
    InfoPlayer(String),
    /// `I AM ALSO oldaddress`: refused on purpose (a From: can be forged).
    IAmAlso(String),
    /// `POSTAL PRESS` / `POSTALPRESS` ... `ENDPRESS`: a broadcast held until
    /// the phase is processed.
    PostalPress(String),
    // -- game ----------------------------------------------------------------------
    /// `LIST [game]`
    List(Option<String>),
    /// `LIST FULL`: every listed game with its settings, schedule and players.
    ListFull,
    /// `HISTORY [game] [FROM date] [TO date] [LINES n]`,
    /// `HISTORY [game] EXCLSTART turn [EXCLEND turn] [BROAD]`
    History {
        game: Option<String>,
        from: Option<DateSpec>,
        to: Option<DateSpec>,
        limits: HistoryLimits,
    },
    /// `SUMMARY [game]`
    Summary(Option<String>),
    /// `WHOGAME [game]`
    Whogame(Option<String>),
    /// `HELP [topic]`
    Help(Option<String>),
    /// `GET topic`
    Get(String),
    /// `VERSION`
    Version,
    /// `SET WAIT` (true) / `SET NOWAIT` (false).
    SetWait(bool),
    /// `SET DRAW [powers]`: empty means any draw including this power.
    SetDraw(Vec<Power>),
    /// `SET NO DRAW`
    SetNoDraw,
    /// `SET CONCEDE power`
    SetConcede(Power),
    /// `SET NO CONCEDE`
    SetNoConcede,
    /// `SET ABSENCE date [TO date]`
    SetAbsence {
        from: DateSpec,
        to: Option<DateSpec>,
    },
    /// `PRESS [TO powers | TO ALL BUT powers] [GREY|WHITE]` ... `ENDPRESS`, with the text.
    Press {
        to: PressTo,
        color: Option<PressColor>,
        /// `FAKE [PARTIAL] [TO list | BROADCAST]`: who the header names instead.
        fake: Option<PressTo>,
        text: String,
    },
    /// `BROADCAST` ... `ENDPRESS`
    Broadcast {
        text: String,
    },
    /// `DIARY ...`
    Diary(DiaryAction),
    /// Orders that follow are for this phase.
    Phase(Phase),
    /// `IF condition`: the orders up to `ELSE`/`ENDIF` apply when it holds.
    If(Condition),
    /// `ELSE`
    Else,
    /// `ELSE IF condition [THEN]`: the next branch of the `IF` (one `ENDIF`
    /// closes the chain).
    ElseIf(Condition),
    /// `ENDIF`
    EndIf,
    // -- Master --------------------------------------------------------------------
    /// `PROCESS [phase]`: adjudicate now.
    Process(Option<Phase>),
    /// `PREDICT`: show what the current orders would give.
    Predict,
    /// `ROLLBACK [phase]`
    Rollback(Option<Phase>),
    /// `PAUSE`
    Pause,
    /// `RESUME`
    Resume,
    /// `TERMINATE`
    Terminate,
    /// A power or an address.
    Eject(String),
    /// `BECOME power`: the Master acts as that power.
    Become(Power),
    /// `BECOME <player>`: in a game whose players are not powers (GTD), the
    /// Master acts as that player. A word close to a power's name is read as a
    /// mistyped power instead.
    BecomePlayer(String),
    /// `FORCE BEGIN`: start a forming game now.
    ForceBegin,
    /// `SET DEADLINE date`
    SetDeadline(DateSpec),
    /// `SET GRACE date`
    SetGrace(DateSpec),
    /// `SET MOVE|RETREAT|ADJUST CLOCK|NEXT|GRACE|DAYS value`
    SetClock {
        phase: PhaseKind,
        setting: ClockSetting,
    },
    /// `SET NMR` (true) / `SET NO NMR` (false)
    SetNmr(bool),
    /// `SET PRESS WHITE|GREY|NONE`
    SetPress(PressSetting),
    /// `SET PARTIAL` (true) / `SET NO PARTIAL` (false)
    /// `SET [NO] PARTIAL [PRESS]` (njudge): whether players may send press to
    /// some powers only (`NO PARTIAL`: broadcasts only, and to the master).
    SetPartial(bool),
    /// `SET DIAS` / `SET NODIAS` (njudge, `draws`): whether a draw must include
    /// all survivors (`NODIAS`: partial draws may be voted).
    SetDias(bool),
    /// `SET VARIANT name` (lower case)
    SetVariant(String),
    /// `SET MASTERS MR1,MR2 ...` (upper case, comma-separated as written): the
    /// Masters Rules a forming game plays (`ALL`, `NONE` or a list).
    SetMasters(String),
    /// `SET RULES 2023|2000|1971`
    SetRules(RulesEdition),
    /// `PROMOTE address`: make an observer or player a Master.
    Promote(String),
    // -- variants ------------------------------------------------------------------
    /// Masters Rules: orders that follow (without a power prefix) are for this power.
    For(Power),
    EndFor,
    /// Twilight Zone map submission (format defined with the variant): the block's text.
    MapBlock(String),
    /// Agora: a proposal's text.
    Propose(String),
    WithdrawProposal(u32),
    VoteProposal {
        proposal: u32,
        in_favour: bool,
    },
    /// `ASSISTANT <address> [ORDERS] [what they do]`
    Assistant {
        address: String,
        orders: bool,
        role: String,
    },
    /// Agora: `ENTER ?game password`: enter the tournament (section 1).
    Enter {
        game: String,
        password: String,
    },
    /// Agora: `GET REGULATIONS [version]`.
    GetRegulations(Option<u32>),
    /// Agora Gamemaster: `REMOVE CONTESTANT <address>`.
    RemoveContestant(String),
    /// Agora Gamemaster: `ADD CONTESTANT <address> <password> CONSENTED`.
    AddContestant {
        address: String,
        password: String,
        consented: bool,
    },
    /// Agora Gamemaster: `SUBSTITUTE <address> BY <address> <password>`.
    Substitute {
        from: String,
        to: String,
        password: String,
    },
    /// Agora Gamemaster: `AMEND REGULATIONS` ... `ENDREGULATIONS`, the whole new text.
    AmendRegulations(String),
    /// Agora Gamemaster: `END TOURNAMENT` ... `ENDREGULATIONS`, the replacing text.
    EndTournament(String),
    /// Agora Gamemaster: `EFFECT PROPOSAL <n> <what was done>`.
    ProposalEffect {
        proposal: u32,
        text: String,
    },
    /// Agora Gamemaster: `DECLARE DRAW` (section 9).
    DeclareDraw,
    /// Agora Gamemaster: `SET WINNERS <address> [, <address> ...]` (section 3).
    SetWinners(Vec<String>),
    // -- njudge's Master habits (`master`, `index`) ----------------------------------
    /// `BECOME MASTER`: the only player of a game without a master becomes it.
    BecomeMaster,
    /// `CLEAR`: the orders kept for later phases (`PHASE`) are dropped.
    Clear,
    /// `UNSTART`: a game back to forming before its first phase is processed.
    Unstart,
    /// `WITHDRAW` alone: njudge's `RESIGN` (the Agora's `WITHDRAW n` is a proposal's).
    Withdraw,
    /// `ROLLBACK n`: njudge's turn number (001 is the first phase played).
    RollbackTurn(u32),
    /// A game setting in njudge's words (`SET NOLIST`, `SET COMMENT ...`).
    SetFlag(GameFlag),
    /// `SET MOVE CLOCK 1410 NEXT 71 MIN 12 DELAY 30 GRACE 72`: several clock
    /// settings on one line, applied in order.
    SetClockLine {
        phase: PhaseKind,
        settings: Vec<ClockSetting>,
    },
    /// An njudge setting that cannot apply to this judge's games: the words
    /// as written and why.
    SetRefused {
        setting: String,
        why: String,
    },
    /// An njudge setting that is always so on this judge: the words as
    /// written and why (nothing changes).
    SetAlready {
        setting: String,
        why: String,
    },
}

/// A game setting of njudge's `master` and `index` files (the Master's, or any
/// player's in an unmoderated game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFlag {
    /// `SET [NO] LIST`, `SET PUBLIC`, `SET PRIVATE`: shown in `LIST` of all games.
    List(bool),
    /// `SET COMMENT text` (empty: cleared): the game's one-line comment.
    Comment(String),
    /// `SET PLAYERS n`: players needed to start.
    Players(u32),
    /// `SET CENTERS n`: supply centres that win.
    Centers(u32),
    /// `SET [NO] MANUAL START`, `SET AUTO START`: the game starts only when the
    /// Master says so.
    ManualStart(bool),
    /// `SET MODERATED` / `SET UNMODERATED`: whether only the Master may change
    /// the game's settings.
    Moderated(bool),
    /// `SET PRFLIST | PRFRAND | PRFBOTH`: how powers are assigned.
    Preference(PreferenceRule),
    /// `SET WHITE`, `SET GREY`, `SET WHITE/GREY`, `SET NO WHITE`, `SET NO GREY`.
    Press(PressRule),
    /// `SET NO FAKE` (false), `SET PARTIAL MAY BE FAKED` (true).
    Fake(bool),
    /// `SET [NO] QUIET`: notices of sign-ons, observers, resignations and
    /// take-overs go to the Master only.
    Quiet(bool),
    /// `SET [NO] CONCESSIONS`: whether players may `SET CONCEDE`.
    Concessions(bool),
    /// `SET MAX ABSENCE n`: the longest absence (days) a player may set.
    MaxAbsence(u32),
}

/// njudge's power assignment settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PreferenceRule {
    /// `PRFLIST`: by the players' preference lists (the default).
    List,
    /// `PRFRAND`: by lot, preferences ignored.
    Random,
    /// `PRFBOTH`: by lot for `SET PREFERENCE *`, by list for the others.
    Both,
}

/// njudge's press colour settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PressRule {
    /// `SET WHITE [PRESS]`, `SET NO GREY`: signed press only.
    WhiteOnly,
    /// `SET GREY [PRESS]`, `SET NO WHITE`: every player's press is anonymous.
    GreyOnly,
    /// `SET WHITE/GREY [PRESS]`: signed unless the press asks for GREY.
    WhiteGrey,
}

/// Which block a command opens; the body reader collects its lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    Press,
    Register,
    Map,
    Propose,
    Regulations,
}

impl Block {
    /// The words that close this block.
    pub fn closers(self) -> &'static [&'static str] {
        match self {
            // A press block's closer stands alone on its line (see `closes`).
            Block::Press => &[
                "endpress",
                "end press",
                "endbroadcast",
                "end broadcast",
                "enddiary",
                "signoff",
                "sign off",
            ],
            Block::Register => &["end", "endregister"],
            Block::Map => &["endmap"],
            Block::Propose => &["endproposal", "endpropose"],
            Block::Regulations => &["endregulations", "endamend"],
        }
    }
}

impl Command {
    /// The block this command opens, if any.
    pub(crate) fn block(&self) -> Option<Block> {
        match self {
            Command::Press { .. }
            | Command::Broadcast { .. }
            | Command::PostalPress(_)
            | Command::Diary(DiaryAction::Record(_)) => Some(Block::Press),
            Command::Register(_) => Some(Block::Register),
            Command::MapBlock(_) => Some(Block::Map),
            Command::Propose(_) => Some(Block::Propose),
            Command::AmendRegulations(_) | Command::EndTournament(_) => Some(Block::Regulations),
            _ => None,
        }
    }

    /// Puts a block's collected text into the command that opened it.
    pub(crate) fn fill_block(&mut self, lines: &[&str]) {
        let text = lines.join("\n");
        match self {
            Command::Press { text: t, .. }
            | Command::Broadcast { text: t }
            | Command::PostalPress(t)
            | Command::Diary(DiaryAction::Record(t))
            | Command::MapBlock(t)
            | Command::Propose(t)
            | Command::AmendRegulations(t)
            | Command::EndTournament(t) => *t = text,
            Command::Register(fields) => {
                *fields = lines
                    .iter()
                    .filter_map(|l| l.split_once(':'))
                    .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))
                    .collect()
            }
            _ => {}
        }
    }
}

/// Every first word of a command, for recognition and suggestions.
/// (Kept in step with `is_command_word`.)
pub(crate) const COMMAND_WORDS: &[&str] = &[
    "signon",
    "signoff",
    "sign",
    "hello",
    "login",
    "create",
    "join",
    "observe",
    "resign",
    "register",
    "set",
    "list",
    "history",
    "summary",
    "whogame",
    "help",
    "get",
    "version",
    "press",
    "broadcast",
    "diary",
    "phase",
    "if",
    "else",
    "endif",
    "process",
    "predict",
    "rollback",
    "pause",
    "resume",
    "terminate",
    "eject",
    "become",
    "force",
    "promote",
    "for",
    "endfor",
    "map",
    "propose",
    "withdraw",
    "vote",
    "assistant",
    "enter",
    "remove",
    "add",
    "substitute",
    "amend",
    "end",
    "effect",
    "declare",
    "nowait",
    "wait",
    "clear",
    "unstart",
    "whois",
    "who",
    "watch",
    "info",
    "postalpress",
    "postal",
];

const SET_WORDS: &[&str] = &[
    "password",
    "address",
    "preference",
    "preferences",
    "timezone",
    "wait",
    "nowait",
    "draw",
    "nodraw",
    "no",
    "concede",
    "absence",
    "deadline",
    "grace",
    "move",
    "movement",
    "retreat",
    "adjust",
    "adjustment",
    "build",
    "nmr",
    "press",
    "partial",
    "dias",
    "nodias",
    "variant",
    "masters",
    "rules",
    "winners",
];

/// Is this word the start of a command?
pub(crate) fn is_command_word(w: &str) -> bool {
    // A match compiles to a length-then-bytes test: this runs once per line.
    matches!(
        w,
        "signon"
            | "signoff"
            | "sign"
            | "hello"
            | "login"
            | "create"
            | "join"
            | "observe"
            | "resign"
            | "register"
            | "set"
            | "list"
            | "history"
            | "summary"
            | "whogame"
            | "help"
            | "get"
            | "version"
            | "press"
            | "broadcast"
            | "diary"
            | "phase"
            | "if"
            | "else"
            | "endif"
            | "process"
            | "predict"
            | "rollback"
            | "pause"
            | "resume"
            | "terminate"
            | "eject"
            | "become"
            | "force"
            | "promote"
            | "for"
            | "endfor"
            | "map"
            | "propose"
            | "withdraw"
            | "vote"
            | "assistant"
            | "enter"
            | "remove"
            | "add"
            | "substitute"
            | "amend"
            | "end"
            | "effect"
            | "declare"
            | "nowait"
            | "wait"
            | "whois"
            | "who"
            | "watch"
            | "info"
            | "i"
            | "postalpress"
            | "postal"
            | "endpress"
            | "enddiary"
            | "endbroadcast"
            | "endmap"
            | "endproposal"
            | "endregulations"
            | "clear"
            | "unstart"
    )
}

fn err_end(cur: &Cursor, what: &str) -> GrammarError {
    cur.expected(what)
}

fn raw(cur: &mut Cursor, what: &str) -> Result<String, GrammarError> {
    cur.raw_field()
        .map(str::to_string)
        .ok_or_else(|| err_end(cur, what))
}

fn opt_raw(cur: &mut Cursor) -> Option<String> {
    cur.raw_field().map(str::to_string)
}

pub(super) fn number(cur: &mut Cursor, what: &str) -> Result<u32, GrammarError> {
    match cur.word().and_then(|w| w.parse().ok()) {
        Some(n) => {
            cur.bump();
            Ok(n)
        }
        None => Err(cur.expected(what)),
    }
}

/// Parses the command at the cursor, whose first word is a command word.
/// `Ok(None)` when the first word is not a command at all.
pub(crate) fn command(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<Command>, GrammarError> {
    let Some(first) = cur.word() else {
        return Ok(None);
    };
    if !is_command_word(first) {
        return Ok(None);
    }
    // `FOR` and `VOTE`, `MAP` may begin orders in some variants: the body tries
    // orders first for those (see `body`).
    cur.bump();
    let c = match first {
        "signon" => signon(ctx, cur)?,
        "signoff" => Command::Signoff,
        // njudge: `SIGN ON` and `SIGN OFF` are `SIGNON` and `SIGNOFF`.
        "sign" if cur.eat_word(&["on"]) => signon(ctx, cur)?,
        "sign" if cur.eat_word(&["off"]) => Command::Signoff,
        "sign" => return Err(cur.expected("ON or OFF")),
        // `HELLO Fgame pw`, `LOGIN Fgame pw`: a sign-on when the line is one;
        // otherwise the word is a greeting.
        "hello" | "login" => match signon(ctx, cur) {
            Ok(c) if cur.at_end() => c,
            // The caller puts the cursor back.
            _ => return Ok(None),
        },
        "create" => create(cur)?,
        "join" => Command::Join {
            game: opt_raw(cur),
            password: opt_raw(cur),
        },
        "observe" => Command::Observe {
            game: raw(cur, "a game name")?,
            password: raw(cur, "a password")?,
        },
        "resign" => Command::Resign,
        "register" => Command::Register(Vec::new()),
        "set" => set(ctx, cur)?,
        "nowait" => Command::SetWait(false),
        "wait" => Command::SetWait(true),
        // njudge: `LIST FULL` is the keyword, not a game named Full.
        "list" if cur.is_word(&["full"]) && cur.peek_at(1).is_none() => {
            cur.bump();
            Command::ListFull
        }
        "list" => Command::List(opt_raw(cur)),
        "history" => history(cur)?,
        "summary" => Command::Summary(opt_raw(cur)),
        "whogame" => Command::Whogame(opt_raw(cur)),
        "help" => Command::Help(if cur.at_end() {
            None
        } else {
            Some(rest_text(cur, "a topic")?)
        }),
        "get" if cur.eat_word(&["regulations", "regulation"]) => {
            Command::GetRegulations(opt_number(cur, "a version number")?)
        }
        "get" => Command::Get(rest_text(cur, "a topic")?),
        "version" => Command::Version,
        "press" => press(ctx, cur)?,
        // njudge: `BROADCAST` with options is `PRESS` with them.
        "broadcast" if !cur.at_end() => press(ctx, cur)?,
        "broadcast" => Command::Broadcast {
            text: String::new(),
        },
        "diary" => diary(cur)?,
        "phase" => Command::Phase(phase_words(cur)?),
        "if" => Command::If(condition_then(ctx, cur)?),
        "else" if cur.eat_word(&["if"]) => Command::ElseIf(condition_then(ctx, cur)?),
        "else" => Command::Else,
        "endif" => Command::EndIf,
        "process" => Command::Process(opt_phase(cur)?),
        "predict" => Command::Predict,
        "rollback" if cur.word().is_some_and(|w| w.parse::<u32>().is_ok()) => {
            Command::RollbackTurn(number(cur, "a turn number")?)
        }
        "rollback" => Command::Rollback(opt_phase(cur)?),
        // `CLEAR` alone; a line such as "Clear skies!" is not a command.
        "clear" if cur.at_end() => Command::Clear,
        "clear" => {
            cur.pos -= 1;
            return Ok(None);
        }
        "unstart" => Command::Unstart,
        "withdraw" if cur.at_end() => Command::Withdraw,
        "pause" => Command::Pause,
        "resume" => Command::Resume,
        "terminate" => Command::Terminate,
        "eject" => Command::Eject(raw(cur, "a power or an address")?),
        "become" => become_arg(ctx, cur)?,
        "force" => {
            if !cur.eat_word(&["begin", "start"]) {
                return Err(cur.expected("BEGIN"));
            }
            Command::ForceBegin
        }
        "promote" => Command::Promote(raw(cur, "an address")?),
        "for" => Command::For(power_arg(ctx, cur)?),
        "endfor" => Command::EndFor,
        "map" => Command::MapBlock(String::new()),
        "propose" => Command::Propose(String::new()),
        "withdraw" => {
            cur.eat_word(&["proposal"]);
            Command::WithdrawProposal(number(cur, "a proposal number")?)
        }
        "vote" => {
            let in_favour = if cur.eat_word(&["for"]) {
                true
            } else if cur.eat_word(&["against"]) {
                false
            } else {
                // `VOTE <country> FOR <player>` is a Grand Tournament order.
                cur.pos -= 1;
                return Ok(None);
            };
            if !cur.eat_word(&["proposal"]) {
                return Err(cur.expected("PROPOSAL"));
            }
            Command::VoteProposal {
                proposal: number(cur, "a proposal number")?,
                in_favour,
            }
        }
        "assistant" => {
            let address = raw(cur, "an address")?;
            let orders = cur.eat_word(&["orders"]);
            let role = if cur.at_end() {
                String::new()
            } else {
                rest_text(cur, "what the assistant does")?
            };
            Command::Assistant {
                address,
                orders,
                role,
            }
        }
        "enter" => {
            let field = raw(cur, "?game")?;
            Command::Enter {
                game: field.strip_prefix('?').unwrap_or(&field).to_string(),
                password: raw(cur, "a password")?,
            }
        }
        "remove" | "add" | "substitute" | "amend" | "end" | "effect" | "declare" => {
            match agora_gm(first, cur)? {
                Some(c) => c,
                // `REMOVE A Mun` is an order; `END` closes a REGISTER block.
                None => {
                    cur.pos -= 1;
                    return Ok(None);
                }
            }
        }
        "whois" | "who" | "watch" | "info" | "i" | "postalpress" | "postal" => {
            match player_habit(first, cur)? {
                Some(c) => c,
                // `I` that is not `I AM ALSO`: the line is something else.
                None => {
                    cur.pos -= 1;
                    return Ok(None);
                }
            }
        }
        "endpress" | "enddiary" | "endbroadcast" | "endmap" | "endproposal" | "endregulations" => {
            return Err(GrammarError::new(
                ErrorKind::Block,
                Some(1),
                first,
                &format!("{} without an open block", first.to_uppercase()),
            ));
        }
        _ => return Ok(None),
    };
    if !cur.at_end() {
        return Err(GrammarError::new(
            ErrorKind::Trailing,
            cur.column(),
            cur.found(),
            &command_canonical(ctx.map, &c),
        ));
    }
    Ok(Some(c))
}

/// An optional number at the cursor (nothing left on the line: `None`).
fn opt_number(cur: &mut Cursor, what: &str) -> Result<Option<u32>, GrammarError> {
    if cur.at_end() {
        Ok(None)
    } else {
        number(cur, what).map(Some)
    }
}

/// The Agora Gamemaster's acts; `None` when the line is not one of them (the
/// first word is already read).
fn agora_gm(first: &str, cur: &mut Cursor) -> Result<Option<Command>, GrammarError> {
    Ok(Some(match first {
        "remove" if cur.eat_word(&["contestant"]) => {
            Command::RemoveContestant(raw(cur, "an address")?)
        }
        "add" if cur.eat_word(&["contestant"]) => Command::AddContestant {
            address: raw(cur, "an address")?,
            password: raw(cur, "a password for the new contestant")?,
            consented: cur.eat_word(&["consented", "consenting"]),
        },
        "substitute" => {
            let from = raw(cur, "the address of the contestant replaced")?;
            if !cur.eat_word(&["by", "with"]) {
                return Err(cur.expected("BY"));
            }
            Command::Substitute {
                from,
                to: raw(cur, "the address of the new contestant")?,
                password: raw(cur, "a password for the new contestant")?,
            }
        }
        "amend" if cur.eat_word(&["regulations", "regulation"]) => {
            Command::AmendRegulations(String::new())
        }
        "end" if cur.eat_word(&["tournament"]) => Command::EndTournament(String::new()),
        "effect" => {
            cur.eat_word(&["proposal"]);
            Command::ProposalEffect {
                proposal: number(cur, "a proposal number")?,
                text: rest_text(cur, "what was done")?,
            }
        }
        "declare" => {
            if !cur.eat_word(&["draw"]) {
                return Err(cur.expected("DRAW"));
            }
            Command::DeclareDraw
        }
        _ => return Ok(None),
    }))
}

/// njudge's commands for players that Legate reads as its own: `WHOIS`,
/// `WHO IS`, `WHO GAME`, `INFO PLAYER`, `WATCH`, `I AM ALSO`, `POSTAL PRESS`.
/// `None` when the line is not one of them (the first word is already read).
fn player_habit(first: &str, cur: &mut Cursor) -> Result<Option<Command>, GrammarError> {
    Ok(Some(match first {
        "who" if cur.eat_word(&["game"]) => {
            let game = if cur.at_end() || cur.is_word(&["full"]) {
                None
            } else {
                opt_raw(cur)
            };
            // `FULL` (observers too): the answer lists them already.
            cur.eat_word(&["full"]);
            Command::Whogame(game)
        }
        "whois" | "who" => {
            cur.eat_word(&["is"]);
            let mut users = Vec::new();
            while let Some(u) = opt_raw(cur) {
                users.push(u);
            }
            if users.is_empty() {
                return Err(cur.expected("an address or the start of one"));
            }
            Command::WhoIs(users)
        }
        "info" => {
            if !cur.eat_word(&["player"]) {
                return Err(cur.expected("PLAYER"));
            }
            Command::InfoPlayer(raw(cur, "an address")?)
        }
        "watch" => Command::Observe {
            game: raw(cur, "a game name")?,
            password: raw(cur, "a password")?,
        },
        "i" if cur.is_word(&["am"]) && cur.word_at(1) == Some("also") => {
            cur.bump();
            cur.bump();
            Command::IAmAlso(raw(cur, "your registered address")?)
        }
        "postalpress" => Command::PostalPress(String::new()),
        "postal" if cur.eat_word(&["press"]) => Command::PostalPress(String::new()),
        "postal" => return Err(cur.expected("PRESS")),
        _ => return Ok(None),
    }))
}

/// The rest of the line as written.
fn rest_text(cur: &mut Cursor, what: &str) -> Result<String, GrammarError> {
    let t = cur.rest_raw().trim().to_string();
    if t.is_empty() {
        return Err(err_end(cur, what));
    }
    cur.pos = cur.line.toks.len();
    Ok(t)
}

fn power_arg(ctx: &Ctx, cur: &mut Cursor) -> Result<Power, GrammarError> {
    let p = power_word(ctx, cur)?;
    cur.bump();
    Ok(p)
}

/// `BECOME <power>` | `BECOME <player>` (a quoted name, or a word that is
/// neither a power nor close to one).
fn become_arg(ctx: &Ctx, cur: &mut Cursor) -> Result<Command, GrammarError> {
    if let Some(c) = super::njudge_master::become_word(ctx, cur) {
        return Ok(c);
    }
    if let Some(t) = cur.peek().filter(|t| t.kind == Kind::Quoted) {
        let name = cur.line.raw_of(t).trim().to_string();
        if !name.is_empty() {
            cur.bump();
            return Ok(Command::BecomePlayer(name));
        }
    }
    match power_word(ctx, cur) {
        Ok(p) => {
            cur.bump();
            Ok(Command::Become(p))
        }
        Err(e) if e.suggestion.is_some() => Err(e),
        Err(_) => raw(cur, "a power or a player").map(Command::BecomePlayer),
    }
}

/// `SIGNON <initial><game> <password>` | `SIGNON <power>@<game> <password>` |
/// `SIGNON ?<game> <password>`
fn signon(ctx: &Ctx, cur: &mut Cursor) -> Result<Command, GrammarError> {
    let col = cur.column();
    let mut field = raw(cur, "a power initial and game name (Fmygame)")?;
    // `SIGNON F mygame pw`: a lone initial, then the game, then the password.
    let tail = cur.line.toks.len() - cur.pos;
    if field.chars().count() == 1
        && field.chars().all(|c| c.is_ascii_alphabetic())
        && tail >= 2
        && let Some(game) = cur.raw_field()
    {
        field.push_str(game);
    }
    let bad = |what: &str| GrammarError::new(ErrorKind::Expected, col, &field, what);
    let (seat, game) = if let Some(game) = field.strip_prefix('?') {
        (Seat::Join, game.to_string())
    } else if let Some((who, game)) = field.split_once('@') {
        let p = lexicon::power(ctx.map, who)
            .ok_or_else(|| GrammarError::new(ErrorKind::UnknownPower, col, who, "a power"))?;
        (Seat::Power(p), game.to_string())
    } else {
        let mut chars = field.chars();
        let initial = chars.next().filter(|c| c.is_ascii_alphabetic());
        match initial {
            Some(c) => (
                Seat::Initial(c.to_ascii_uppercase()),
                chars.as_str().to_string(),
            ),
            None => return Err(bad("a power initial and game name (Fmygame)")),
        }
    };
    // `SIGNON ? pw`: the next game that is forming.
    if game.is_empty() && seat != Seat::Join {
        return Err(bad("a game name after the power"));
    }
    let password = raw(cur, "a password")?;
    // njudge: the variant named after the password, to show the player
    // knows what the game is.
    let variant = opt_raw(cur).map(|v| v.to_ascii_lowercase());
    // Options after the variant, when every word left is one: a line with
    // other words after a sign-on is not a sign-on (`Hello judge, here are my
    // orders`).
    let rest: Vec<String> = cur.line.toks[cur.pos..]
        .iter()
        .map(|t| cur.line.raw_of(t).to_ascii_lowercase())
        .collect();
    let options = if rest.iter().all(|w| SIGNON_OPTIONS.contains(&w.as_str())) {
        cur.pos = cur.line.toks.len();
        rest
    } else {
        Vec::new()
    };
    Ok(Command::Signon {
        seat,
        game,
        password,
        variant,
        options,
    })
}

/// The words njudge players write after the variant on `SIGNON` (the
/// engine says which the game has): the options `CREATE` takes, and the
/// variant options of njudge's judges this judge does not play.
const SIGNON_OPTIONS: &[&str] = &[
    "white",
    "grey",
    "gray",
    "nopress",
    "none",
    "nmr",
    "nonmr",
    "partial",
    "nopartial",
    "dias",
    "nodias",
    "1971",
    "2000",
    "2023",
    "nolist",
    "private",
    "manualstart",
    "prflist",
    "prfrand",
    "prfboth",
    "gunboat",
    "blind",
    "shorthand",
    "wings",
    "duplex",
];

/// `CREATE ?<game> <password> [variant] [options]`
fn create(cur: &mut Cursor) -> Result<Command, GrammarError> {
    let col = cur.column();
    let field = raw(cur, "?game")?;
    let game = field.strip_prefix('?').unwrap_or(&field).to_string();
    if game.is_empty() {
        return Err(GrammarError::new(
            ErrorKind::Expected,
            col,
            &field,
            "a game name",
        ));
    }
    let password = raw(cur, "a password")?;
    let variant = opt_raw(cur);
    let mut options = Vec::new();
    while let Some(o) = opt_raw(cur) {
        options.push(o);
    }
    Ok(Command::Create {
        game,
        password,
        variant,
        options,
    })
}

/// A date at the cursor (read from the raw text).
fn date(cur: &mut Cursor) -> Result<DateSpec, GrammarError> {
    let rest = cur.rest_raw();
    let start = cur.line.src.len() - rest.len();
    match parse_date(rest) {
        Some((spec, used)) => {
            cur.skip_to(start + used);
            Ok(spec)
        }
        None => Err(GrammarError::new(
            ErrorKind::BadDate,
            cur.column(),
            rest.split_whitespace().next().unwrap_or(""),
            "a date such as Mon 23:30, Jun 15 23:30 or 2026-12-01 12:00",
        )),
    }
}

/// `HISTORY [game] [FROM date] [TO date]`
fn history(cur: &mut Cursor) -> Result<Command, GrammarError> {
    let game = if cur.at_end() || cur.is_word(HISTORY_WORDS) {
        None
    } else {
        opt_raw(cur)
    };
    let from = if cur.eat_word(&["from"]) {
        Some(date(cur)?)
    } else {
        None
    };
    let to = if cur.eat_word(&["to"]) {
        Some(date(cur)?)
    } else {
        None
    };
    let limits = history_limits(cur)?;
    Ok(Command::History {
        game,
        from,
        to,
        limits,
    })
}

/// njudge's turn id: a phase (`S1902M`), where builds are `F1999B` (the
/// adjustments of that year, `W1999A` here).
fn turn_id(cur: &mut Cursor) -> Result<Phase, GrammarError> {
    let builds = cur.word().and_then(|w| {
        let year = w.strip_prefix(['f', 'w'])?.strip_suffix('b')?;
        format!("W{year}A").parse::<Phase>().ok()
    });
    match builds {
        Some(p) => {
            cur.bump();
            Ok(p)
        }
        None => phase_words(cur),
    }
}

/// The words of `HISTORY` after the game.
const HISTORY_WORDS: &[&str] = &["from", "to", "lines", "exclstart", "exclend", "broad"];

/// njudge's `LINES n`, `EXCLSTART turn [EXCLEND turn]` and `BROAD` (notices
/// are not in this judge's history, so `BROAD` changes nothing).
fn history_limits(cur: &mut Cursor) -> Result<HistoryLimits, GrammarError> {
    let mut limits = HistoryLimits::default();
    while !cur.at_end() {
        if cur.eat_word(&["lines"]) {
            limits.lines = Some(number(cur, "a number of lines")?);
        } else if cur.eat_word(&["exclstart"]) {
            limits.exclude = Some((turn_id(cur)?, None));
        } else if cur.eat_word(&["exclend"]) {
            let end = turn_id(cur)?;
            match limits.exclude.as_mut() {
                Some((_, e)) => *e = Some(end),
                None => {
                    return Err(GrammarError::new(
                        ErrorKind::Block,
                        cur.column(),
                        "EXCLEND",
                        "EXCLEND needs an EXCLSTART before it (HISTORY game EXCLSTART S1903M EXCLEND F1905B)",
                    ));
                }
            }
        } else if !cur.eat_word(&["broad"]) {
            return Err(cur.expected("LINES, EXCLSTART, EXCLEND or BROAD"));
        }
    }
    Ok(limits)
}

/// A list of powers by name, adjective or initial, separated by spaces or commas.
fn powers(ctx: &Ctx, cur: &mut Cursor) -> Result<Vec<Power>, GrammarError> {
    let mut out = Vec::new();
    loop {
        cur.eat(Kind::Comma);
        let Some(w) = cur.word() else { break };
        if matches!(w, "grey" | "gray" | "white" | "but") {
            break;
        }
        match lexicon::power(ctx.map, w).or_else(|| initial(ctx.map, w)) {
            Some(p) => out.push(p),
            None => {
                // `FEG`: several initials in one word.
                let ps: Option<Vec<Power>> = w
                    .chars()
                    .map(|c| initial(ctx.map, &c.to_string()))
                    .collect();
                match ps {
                    Some(ps) if w.len() > 1 => out.extend(ps),
                    _ => {
                        return Err(power_word(ctx, cur)
                            .err()
                            .unwrap_or_else(|| cur.expected("a power")));
                    }
                }
            }
        }
        cur.bump();
    }
    Ok(out)
}

/// A power by its initial (`F`): the one power of the map with that initial, or
/// the one great power among several.
fn initial(map: &Map, w: &str) -> Option<Power> {
    let mut c = w.chars();
    let (Some(ch), None) = (c.next(), c.next()) else {
        return None;
    };
    let mut hits = map.powers().iter().enumerate().filter(|(_, p)| {
        p.name
            .chars()
            .next()
            .is_some_and(|f| f.eq_ignore_ascii_case(&ch))
    });
    let (i, first) = hits.next()?;
    let mut best = (i, first.home_centers.len(), true);
    // Where a variant's minor powers share an initial with a great power
    // (Rumania and Russia in Masters games), the initial is the great power's,
    // as njudge gives each playing power its own letter.
    for (j, p) in hits {
        let homes = p.home_centers.len();
        if homes > best.1 {
            best = (j, homes, true);
        } else if homes == best.1 {
            best.2 = false;
        }
    }
    best.2.then_some(Power(best.0 as u8))
}

/// `PRESS [TO <powers> | TO ALL BUT <powers>] [GREY | WHITE]`
fn press(ctx: &Ctx, cur: &mut Cursor) -> Result<Command, GrammarError> {
    let mut to = PressTo::All;
    let mut color = None;
    let mut fake = None;
    // njudge: `PRESS` alone sends nothing (a broadcast must be asked for).
    if cur.at_end() {
        return Err(GrammarError::new(
            ErrorKind::Expected,
            cur.column(),
            "",
            "who the press is for: PRESS TO <powers>, PRESS TO M (the master), \
             PRESS TO ALL, or BROADCAST",
        ));
    }
    let mut fake_col = None;
    for _ in 0..4 {
        if let Some(t) = press_audience(ctx, cur)? {
            to = t;
        }
        if cur.eat_word(&["grey", "gray", "anonymous", "anonymously"]) {
            color = Some(PressColor::Grey);
        } else if cur.eat_word(&["white", "unanonymous", "unanonymously"]) {
            color = Some(PressColor::White);
        }
        let col = cur.column();
        if let Some(f) = fake_header(ctx, cur)? {
            fake = f;
            fake_col = col;
        }
    }
    // njudge's `press`: "press to the Master will NOT be faked, and you will
    // get scolded if you try".
    if fake.is_some() && to == PressTo::Master {
        return Err(GrammarError::new(
            ErrorKind::Block,
            fake_col,
            "FAKE",
            "press to the master is never faked; the message was not sent",
        ));
    }
    Ok(Command::Press {
        to,
        color,
        fake,
        text: String::new(),
    })
}

/// Who a press header sends to: `TO <list>`, `+<list>`, `TO ALL BUT <list>`,
/// `-<list>`, `TO ALL`, `TO M`, `TO O`. njudge's lists are initials run
/// together (`TO frg`), where `O` is the observers and `M` the master.
fn press_audience(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<PressTo>, GrammarError> {
    let all_but = if cur.eat_word(&["to"]) {
        if cur.eat_word(&["all"]) {
            if !cur.eat_word(&["but"]) {
                return Ok(Some(PressTo::All));
            }
            true
        } else if cur.eat_word(&["master", "gm", "moderator"]) {
            return Ok(Some(PressTo::Master));
        } else if cur.eat_word(&["observer", "observers"]) {
            return Ok(Some(PressTo::Observers));
        } else {
            false
        }
    } else if cur
        .peek()
        .is_some_and(|t| t.kind == Kind::Other && t.ch == '+')
    {
        cur.bump();
        false
    } else if cur.eat(Kind::Dash) {
        true
    } else {
        return Ok(None);
    };
    let col = cur.column();
    let (list, observers, master) = press_list(ctx, cur)?;
    let refuse = |why: &str| Err(GrammarError::new(ErrorKind::Block, col, "", why));
    Ok(Some(match (all_but, list.is_empty(), observers, master) {
        (_, true, false, false) => return Err(cur.expected("a power")),
        (false, true, true, false) => PressTo::Observers,
        (false, true, false, true) => PressTo::Master,
        (false, false, false, false) => PressTo::Powers(list),
        (false, ..) => {
            return refuse(
                "a press list names powers, or the master (M), or the observers (O): \
                 send each a message of its own",
            );
        }
        (true, _, _, true) => {
            return refuse("ALL BUT takes powers only: the master reads all press on this judge");
        }
        // Observers never read press that is not to all here: `ALL BUT ro`
        // already keeps it from them.
        (true, true, true, false) => return Err(cur.expected("a power")),
        (true, false, _, false) => PressTo::AllBut(list),
    }))
}

/// A press list: power names, or initials run together (`frg`) where `O` is
/// the observers and `M` the master. Returns (powers, observers, master).
fn press_list(ctx: &Ctx, cur: &mut Cursor) -> Result<(Vec<Power>, bool, bool), GrammarError> {
    let (mut out, mut observers, mut master) = (Vec::new(), false, false);
    loop {
        cur.eat(Kind::Comma);
        let Some(w) = cur.word() else { break };
        if is_press_option(w) {
            break;
        }
        if let Some(p) = lexicon::power(ctx.map, w).or_else(|| initial(ctx.map, w)) {
            out.push(p);
        } else {
            for c in w.chars() {
                match (c, initial(ctx.map, &c.to_string())) {
                    (_, Some(p)) => out.push(p),
                    ('o', None) => observers = true,
                    ('m', None) => master = true,
                    _ => {
                        return Err(power_word(ctx, cur)
                            .err()
                            .unwrap_or_else(|| cur.expected("a power")));
                    }
                }
            }
        }
        cur.bump();
    }
    Ok((out, observers, master))
}

/// The words of a press header that end a list of powers.
fn is_press_option(w: &str) -> bool {
    matches!(
        w,
        "grey"
            | "gray"
            | "white"
            | "but"
            | "anonymous"
            | "anonymously"
            | "unanonymous"
            | "unanonymously"
            | "fake"
            | "nofake"
            | "no"
            | "to"
    )
}

/// njudge's fake headers: `NOFAKE` / `NO FAKE [BROADCAST]` (`Some(None)`: the
/// press is what it says), `FAKE [BROADCAST]`, `FAKE [PARTIAL] TO [ALL BUT]
/// list`, `FAKE +list`, `FAKE -list` (`Some(Some(to))`: the readers the
/// header names). `None`: no such words here. Whether the game allows it is
/// the engine's to say.
fn fake_header(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<Option<PressTo>>, GrammarError> {
    let at = cur.pos;
    if cur.eat_word(&["nofake"]) || (cur.eat_word(&["no"]) && cur.eat_word(&["fake"])) {
        cur.eat_word(&["broadcast"]);
        return Ok(Some(None));
    }
    cur.pos = at;
    if !cur.eat_word(&["fake"]) {
        return Ok(None);
    }
    if cur.eat_word(&["broadcast"]) {
        return Ok(Some(Some(PressTo::All)));
    }
    cur.eat_word(&["partial"]);
    let col = cur.column();
    match press_audience(ctx, cur)? {
        None => Ok(Some(Some(PressTo::All))),
        Some(PressTo::Master | PressTo::Observers) => Err(GrammarError::new(
            ErrorKind::Block,
            col,
            "FAKE",
            "a fake header names powers or everyone, never the master or the \
             observers; the message was not sent",
        )),
        Some(t) => Ok(Some(Some(t))),
    }
}

/// `DIARY [RECORD | LIST | READ <n> | DELETE <n>]`
fn diary(cur: &mut Cursor) -> Result<Command, GrammarError> {
    Ok(Command::Diary(if cur.eat_word(&["list"]) {
        DiaryAction::List
    } else if cur.eat_word(&["read"]) {
        DiaryAction::Read(number(cur, "an entry number")?)
    } else if cur.eat_word(&["delete"]) {
        DiaryAction::Delete(number(cur, "an entry number")?)
    } else {
        cur.eat_word(&["record"]);
        DiaryAction::Record(String::new())
    }))
}

/// `<season> <year> <kind>` (`Spring 1902 Movement`, `F 1901 R`) or `S1902M`.
fn phase_words(cur: &mut Cursor) -> Result<Phase, GrammarError> {
    let col = cur.column();
    if let Some(w) = cur.word()
        && let Ok(p) = w.parse::<Phase>()
    {
        cur.bump();
        return Ok(p);
    }
    // njudge's syntax file: only the first letter of the season and of the
    // phase is significant (`Movements`, `Builds`, `Autumn`).
    // (`Summer` is a season of its own in njudge's variants, not Spring.)
    let initial = |w: Option<&str>| {
        w.filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()) && !w.starts_with("su"))
            .and_then(|w| w.chars().next())
    };
    let season = match initial(cur.word()) {
        Some('s') => Season::Spring,
        Some('f' | 'a') => Season::Fall,
        Some('w') => Season::Winter,
        _ => return Err(cur.expected("a season (Spring, Fall, Winter) or a phase (S1902M)")),
    };
    cur.bump();
    let year = match cur.word().and_then(|w| w.parse::<u16>().ok()) {
        Some(y) => y,
        None => return Err(cur.expected("a year")),
    };
    cur.bump();
    let kind = match (initial(cur.word()), cur.word()) {
        (Some('m'), _) => PhaseKind::Movement,
        (Some('r'), _) => PhaseKind::Retreat,
        (Some('a' | 'b'), _) => PhaseKind::Adjustment,
        (_, None) if season == Season::Winter => PhaseKind::Adjustment,
        _ => return Err(cur.expected("movement, retreat or adjustment")),
    };
    if cur.word().is_some() {
        cur.bump();
    }
    let phase = Phase::new(season, year, kind);
    if !phase.is_valid() {
        return Err(GrammarError::new(
            ErrorKind::Expected,
            col,
            &phase.to_string(),
            "a phase that exists (adjustments are in Winter)",
        ));
    }
    Ok(phase)
}

fn opt_phase(cur: &mut Cursor) -> Result<Option<Phase>, GrammarError> {
    if cur.at_end() {
        Ok(None)
    } else {
        phase_words(cur).map(Some)
    }
}

/// `condition [THEN]` (njudge: "The THEN's are optional").
fn condition_then(ctx: &Ctx, cur: &mut Cursor) -> Result<Condition, GrammarError> {
    let c = condition(ctx, cur)?;
    cur.eat_word(&["then"]);
    Ok(c)
}

/// `condition = term {(AND | OR) term}`, `term = [NOT] unit`; AND binds tighter.
fn condition(ctx: &Ctx, cur: &mut Cursor) -> Result<Condition, GrammarError> {
    let mut left = cond_and(ctx, cur)?;
    while cur.eat_word(&["or"]) {
        left = Condition::Or(Box::new(left), Box::new(cond_and(ctx, cur)?));
    }
    Ok(left)
}

fn cond_and(ctx: &Ctx, cur: &mut Cursor) -> Result<Condition, GrammarError> {
    let mut left = cond_term(ctx, cur)?;
    while cur.eat_word(&["and"]) {
        left = Condition::And(Box::new(left), Box::new(cond_term(ctx, cur)?));
    }
    Ok(left)
}

fn cond_term(ctx: &Ctx, cur: &mut Cursor) -> Result<Condition, GrammarError> {
    if cur.eat_word(&["not"]) {
        return Ok(Condition::Not(Box::new(cond_term(ctx, cur)?)));
    }
    if cur.eat(Kind::LParen) {
        let c = condition(ctx, cur)?;
        if !cur.eat(Kind::RParen) {
            return Err(cur.expected("\")\""));
        }
        return Ok(c);
    }
    Ok(Condition::Unit(condition_unit(ctx, cur)?))
}

/// `SET ...`
fn set(ctx: &Ctx, cur: &mut Cursor) -> Result<Command, GrammarError> {
    let Some(w) = cur.word() else {
        return Err(cur.expected("a setting"));
    };
    cur.bump();
    Ok(match w {
        "password" => Command::SetPassword(raw(cur, "a password")?),
        "address" => Command::SetAddress(opt_raw(cur)),
        "preference" | "preferences" | "pref"
            if cur
                .peek()
                .is_some_and(|t| t.kind == Kind::Other && t.ch == '*') =>
        {
            cur.bump();
            Command::SetPreferenceAny
        }
        // njudge: `SET PREFERENCE` alone clears the list.
        "preference" | "preferences" | "pref" if cur.at_end() => Command::SetPreference(Vec::new()),
        "preference" | "preferences" | "pref" => Command::SetPreference(preference(ctx, cur)?),
        "timezone" => {
            let col = cur.column();
            let z = raw(cur, "a time zone (Europe/Paris)")?;
            Command::SetTimezone(parse_zone_name(&z).ok_or_else(|| {
                GrammarError::new(
                    ErrorKind::Expected,
                    col,
                    &z,
                    "an IANA time zone such as Europe/Paris",
                )
            })?)
        }
        "wait" => Command::SetWait(true),
        "nowait" => Command::SetWait(false),
        "draw" => Command::SetDraw(powers(ctx, cur)?),
        "nodraw" => Command::SetNoDraw,
        "concede" | "conc" => Command::SetConcede(power_arg(ctx, cur)?),
        "noconcede" => Command::SetNoConcede,
        "nonmr" => Command::SetNmr(false),
        "nopartial" => {
            cur.eat_word(&["press"]);
            return Ok(Command::SetPartial(false));
        }
        "dias" => Command::SetDias(true),
        "nodias" => Command::SetDias(false),
        "no" => set_no(cur)?,
        // njudge: `SET HOLIDAY[S]`, `SET VACATION[S]` are `SET ABSENCE`.
        "absence" | "holiday" | "holidays" | "vacation" | "vacations" => {
            let from = date(cur)?;
            let to = if cur.eat_word(&["to", "until"]) {
                Some(date(cur)?)
            } else {
                None
            };
            Command::SetAbsence { from, to }
        }
        "deadline" => Command::SetDeadline(date(cur)?),
        "grace" if !cur.is_word(&["press"]) => Command::SetGrace(date(cur)?),
        "move" | "movement" => set_clock(cur, PhaseKind::Movement)?,
        "retreat" => set_clock(cur, PhaseKind::Retreat)?,
        "adjust" | "adjustment" | "build" => set_clock(cur, PhaseKind::Adjustment)?,
        "nmr" => Command::SetNmr(true),
        "press" => {
            let s = match cur.word() {
                Some("white") => PressSetting::White,
                Some("grey" | "gray") => PressSetting::Grey,
                Some("none" | "no") => PressSetting::None,
                _ => return Err(cur.expected("WHITE, GREY or NONE")),
            };
            cur.bump();
            Command::SetPress(s)
        }
        "partial" => {
            if let Some(c) = super::njudge_master::partial_fakes(cur) {
                return c;
            }
            cur.eat_word(&["press"]);
            return Ok(Command::SetPartial(true));
        }
        "winners" | "winner" => Command::SetWinners(
            rest_text(cur, "the winners' addresses")?
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        "variant" => Command::SetVariant(raw(cur, "a variant name")?.to_lowercase()),
        "masters" => {
            let mut list = vec![raw(cur, "Masters Rules (MR1,MR2,... or ALL)")?];
            while let Some(more) = opt_raw(cur) {
                list.push(more);
            }
            Command::SetMasters(list.join(",").to_uppercase())
        }
        "rules" => {
            let r = match cur.word() {
                Some("2023") => RulesEdition::R2023,
                Some("2000") => RulesEdition::R2000,
                Some("1971") => RulesEdition::R1971,
                _ => return Err(cur.expected("2023, 2000 or 1971")),
            };
            cur.bump();
            Command::SetRules(r)
        }
        other => {
            if let Some(c) = super::njudge_master::set_word(cur, other) {
                return c;
            }
            cur.pos -= 1;
            let sug = suggest_keyword(other, SET_WORDS);
            return Err(cur
                .expected("a setting (PASSWORD, ADDRESS, DEADLINE, ...)")
                .with_suggestion(sug));
        }
    })
}

/// `SET NO DRAW | NO CONCEDE | NO NMR | NO PARTIAL`
fn set_no(cur: &mut Cursor) -> Result<Command, GrammarError> {
    let c = match cur.word() {
        Some("draw") => Command::SetNoDraw,
        Some("concede" | "conc") => Command::SetNoConcede,
        Some("nmr") => Command::SetNmr(false),
        Some("partial") => Command::SetPartial(false),
        Some("dias") => Command::SetDias(false),
        Some("wait") => Command::SetWait(false),
        _ => {
            if let Some(c) = super::njudge_master::set_no_word(cur) {
                return c;
            }
            return Err(cur.expected("DRAW, CONCEDE, NMR, PARTIAL or DIAS"));
        }
    };
    cur.bump();
    if c == Command::SetPartial(false) {
        cur.eat_word(&["press"]);
    }
    Ok(c)
}

/// `SET PREFERENCE E[FG]RTAI`, `SET PREFERENCE England, [France Germany], Russia`
fn preference(ctx: &Ctx, cur: &mut Cursor) -> Result<Vec<Vec<Power>>, GrammarError> {
    let mut groups: Vec<Vec<Power>> = Vec::new();
    let mut open: Option<Vec<Power>> = None;
    while let Some(t) = cur.peek() {
        match t.kind {
            // njudge's `info` writes equal choices in parentheses too.
            Kind::LParen => {
                if open.is_some() {
                    return Err(cur.expected("\")\""));
                }
                open = Some(Vec::new());
            }
            Kind::RParen => match open.take() {
                Some(g) if !g.is_empty() => groups.push(g),
                _ => return Err(cur.expected("a power")),
            },
            Kind::Other if t.ch == '[' => {
                if open.is_some() {
                    return Err(cur.expected("\"]\""));
                }
                open = Some(Vec::new());
            }
            Kind::Other if t.ch == ']' => match open.take() {
                Some(g) if !g.is_empty() => groups.push(g),
                _ => return Err(cur.expected("a power")),
            },
            Kind::Comma | Kind::Semi => {}
            Kind::Word => {
                let w = cur.line.norm_of(t);
                let ps: Vec<Power> = match lexicon::power(ctx.map, w) {
                    Some(p) => vec![p],
                    None => {
                        let each: Option<Vec<Power>> = w
                            .chars()
                            .map(|c| initial(ctx.map, &c.to_string()))
                            .collect();
                        each.ok_or_else(|| {
                            power_word(ctx, cur)
                                .err()
                                .unwrap_or_else(|| cur.expected("a power"))
                        })?
                    }
                };
                match open.as_mut() {
                    Some(g) => g.extend(ps),
                    None => groups.extend(ps.into_iter().map(|p| vec![p])),
                }
            }
            _ => return Err(cur.expected("a power, \"[\" or \"]\"")),
        }
        cur.bump();
    }
    if open.is_some() {
        return Err(cur.expected("\"]\""));
    }
    if groups.is_empty() {
        return Err(cur.expected("a list of powers"));
    }
    Ok(groups)
}

/// `SET MOVE|RETREAT|ADJUST CLOCK|NEXT|GRACE|DAYS|MIN|DELAY <value> [...]`:
/// one setting, or several on one line (njudge: "setting value [setting value ...]").
fn set_clock(cur: &mut Cursor, phase: PhaseKind) -> Result<Command, GrammarError> {
    let first = clock_setting(cur)?;
    if cur.at_end() {
        return Ok(Command::SetClock {
            phase,
            setting: first,
        });
    }
    let mut settings = vec![first];
    while !cur.at_end() {
        settings.push(clock_setting(cur)?);
    }
    Ok(Command::SetClockLine { phase, settings })
}

/// One `<field> <value>` of a clock line.
fn clock_setting(cur: &mut Cursor) -> Result<ClockSetting, GrammarError> {
    let Some(field) = cur.word() else {
        return Err(cur.expected("CLOCK, NEXT, GRACE or DAYS"));
    };
    let field_pos = cur.pos;
    cur.bump();
    let col = cur.column();
    let value = raw(cur, "a value")?;
    let bad = |what: &str| GrammarError::new(ErrorKind::Expected, col, &value, what);
    let setting = match field {
        "clock" => {
            if value == "-1" {
                ClockSetting::Clock(None)
            } else if let Ok(mins) = value
                .parse::<u32>()
                .map_err(|_| ())
                .and_then(|m| if m < 1440 { Ok(m) } else { Err(()) })
            {
                ClockSetting::Clock(NaiveTime::from_hms_opt(mins / 60, mins % 60, 0))
            } else {
                let t = NaiveTime::parse_from_str(&value, "%H:%M")
                    .map_err(|_| bad("a time of day (23:30), minutes after midnight, or -1"))?;
                ClockSetting::Clock(Some(t))
            }
        }
        "next" | "grace" => {
            let hours: f64 = value
                .parse()
                .ok()
                .filter(|h: &f64| h.is_finite() && *h >= 0.0 && *h < 100_000.0)
                .ok_or_else(|| bad("a number of hours"))?;
            let minutes = (hours * 60.0).round() as u32;
            if field == "next" {
                ClockSetting::Next(minutes)
            } else {
                ClockSetting::Grace(minutes)
            }
        }
        "days" => ClockSetting::Days(
            days_mask(&value)
                .ok_or_else(|| bad("seven day letters or dashes, Sunday first (-MTWTF-)"))?,
        ),
        "min" | "minimum" | "delay" => super::njudge_master::hours_setting(field, &value)
            .ok_or_else(|| bad("a number of hours"))?,
        _ => {
            cur.pos = field_pos;
            let sug = suggest_keyword(field, &["clock", "next", "grace", "days", "min", "delay"]);
            return Err(cur
                .expected("CLOCK, NEXT, GRACE or DAYS")
                .with_suggestion(sug));
        }
    };
    Ok(setting)
}

/// `SMTWTFS` with `-` for days off, Sunday first.
fn days_mask(s: &str) -> Option<u8> {
    let letters = ['s', 'm', 't', 'w', 't', 'f', 's'];
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 7 {
        return None;
    }
    let mut mask = 0u8;
    for (i, c) in chars.iter().enumerate() {
        if c.to_ascii_lowercase() == letters[i] {
            mask |= 1 << i;
        } else if *c != '-' {
            return None;
        }
    }
    Some(mask)
}

/// Canonical printing needs the map for power names; `Display` prints powers by
/// index, so use [`command_canonical`] for anything a player sees.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print(None, self))
    }
}

/// The canonical form of a command, passwords masked: `SIGNON F mygame ****`.
pub fn command_canonical(map: &Map, c: &Command) -> String {
    print(Some(map), c)
}

fn pname(map: Option<&Map>, p: Power) -> String {
    match map {
        Some(m) => lexicon::power_name(m, p),
        None => format!("POWER{}", p.0),
    }
}

fn plist(map: Option<&Map>, ps: &[Power]) -> String {
    ps.iter()
        .map(|p| pname(map, *p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn opt_s(prefix: &str, s: &Option<String>) -> String {
    match s {
        Some(s) => format!("{prefix} {s}"),
        None => prefix.to_string(),
    }
}

fn cond(map: Option<&Map>, c: &Condition) -> String {
    match c {
        Condition::Unit(u) => match map {
            Some(m) => {
                let mut s = String::new();
                super::canonical::write_unit(m, &mut s, u);
                s
            }
            // Without a map, the standard board's names (never internal values).
            None => {
                let mut s = String::new();
                super::canonical::write_unit(Map::standard(), &mut s, u);
                s
            }
        },
        Condition::Not(c) => format!("NOT {}", cond_paren(map, c)),
        Condition::And(a, b) => format!("{} AND {}", cond_paren(map, a), cond_paren(map, b)),
        Condition::Or(a, b) => format!("{} OR {}", cond(map, a), cond(map, b)),
    }
}

fn cond_paren(map: Option<&Map>, c: &Condition) -> String {
    match c {
        Condition::Or(..) => format!("({})", cond(map, c)),
        _ => cond(map, c),
    }
}

/// A clock setting as printed (`NEXT 48`).
pub(super) fn clock_field_text(s: &ClockSetting) -> String {
    clock_field(s)
}

fn clock_field(s: &ClockSetting) -> String {
    match s {
        ClockSetting::Clock(None) => "CLOCK -1".into(),
        ClockSetting::Clock(Some(t)) => format!("CLOCK {}", t.format("%H:%M")),
        ClockSetting::Next(m) => format!("NEXT {}", hours(*m)),
        ClockSetting::Grace(m) => format!("GRACE {}", hours(*m)),
        ClockSetting::Days(mask) => {
            let letters = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];
            let d: String = (0..7)
                .map(|i| if mask >> i & 1 == 1 { letters[i] } else { '-' })
                .collect();
            format!("DAYS {d}")
        }
        ClockSetting::Min(m) => format!("MIN {}", hours(*m)),
        ClockSetting::Delay(m) => format!("DELAY {}", hours(*m)),
    }
}

fn hours(minutes: u32) -> String {
    if minutes.is_multiple_of(60) {
        format!("{}", minutes / 60)
    } else {
        format!("{}", minutes as f64 / 60.0)
    }
}

/// A block on one line, its lines separated by `\\` (as a phone would write it).
fn block(head: &str, text: &str, end: &str) -> String {
    let mut s = head.to_string();
    for l in text.lines() {
        s.push_str(" \\\\ ");
        s.push_str(l.trim());
    }
    s.push_str(" \\\\ ");
    s.push_str(end);
    s
}

/// ` TO ...` for a press audience.
fn press_to(map: Option<&Map>, to: &PressTo) -> String {
    match to {
        PressTo::All => " TO ALL".into(),
        PressTo::Master => " TO MASTER".into(),
        PressTo::Powers(ps) => format!(" TO {}", plist(map, ps)),
        PressTo::AllBut(ps) => format!(" TO ALL BUT {}", plist(map, ps)),
        PressTo::Observers => " TO O".into(),
    }
}

fn print(map: Option<&Map>, c: &Command) -> String {
    use Command::*;
    match c {
        Signon {
            seat,
            game,
            variant,
            options,
            ..
        } => {
            let s = match seat {
                Seat::Initial(ch) => format!("SIGNON {ch} {game} ****"),
                Seat::Power(p) => format!("SIGNON {}@{game} ****", pname(map, *p)),
                Seat::Join => format!("SIGNON ?{game} ****"),
            };
            let mut s = opt_s(&s, variant);
            for o in options {
                s.push(' ');
                s.push_str(o);
            }
            s
        }
        Signoff => "SIGNOFF".into(),
        Create {
            game,
            variant,
            options,
            ..
        } => {
            let mut s = format!("CREATE ?{game} ****");
            for o in variant.iter().chain(options) {
                s.push(' ');
                s.push_str(o);
            }
            s
        }
        Join { game, password } => {
            let mut s = opt_s("JOIN", game);
            if password.is_some() {
                s.push_str(" ****");
            }
            s
        }
        Observe { game, .. } => format!("OBSERVE {game} ****"),
        Resign => "RESIGN".into(),
        Register(fields) => {
            let lines: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            block("REGISTER", &lines.join("\n"), "END")
        }
        SetPassword(_) => "SET PASSWORD ****".into(),
        SetAddress(a) => opt_s("SET ADDRESS", a),
        SetPreference(groups) if groups.is_empty() => "SET PREFERENCE".into(),
        SetPreference(groups) => {
            let parts: Vec<String> = groups
                .iter()
                .map(|g| {
                    if g.len() == 1 {
                        pname(map, g[0])
                    } else {
                        format!("[{}]", plist(map, g))
                    }
                })
                .collect();
            format!("SET PREFERENCE {}", parts.join(" "))
        }
        SetPreferenceAny => "SET PREFERENCE *".into(),
        SetTimezone(tz) => format!("SET TIMEZONE {}", tz.name()),
        List(g) => opt_s("LIST", g),
        ListFull => "LIST FULL".into(),
        History {
            game,
            from,
            to,
            limits,
        } => {
            let mut s = opt_s("HISTORY", game);
            if let Some(d) = from {
                s.push_str(&format!(" FROM {d}"));
            }
            if let Some(d) = to {
                s.push_str(&format!(" TO {d}"));
            }
            if let Some(n) = limits.lines {
                s.push_str(&format!(" LINES {n}"));
            }
            if let Some((start, end)) = limits.exclude {
                s.push_str(&format!(" EXCLSTART {start}"));
                if let Some(e) = end {
                    s.push_str(&format!(" EXCLEND {e}"));
                }
            }
            s
        }
        Summary(g) => opt_s("SUMMARY", g),
        Whogame(g) => opt_s("WHOGAME", g),
        Help(t) => opt_s("HELP", t),
        Get(t) => format!("GET {t}"),
        Version => "VERSION".into(),
        SetWait(true) => "SET WAIT".into(),
        SetWait(false) => "SET NOWAIT".into(),
        SetDraw(ps) if ps.is_empty() => "SET DRAW".into(),
        SetDraw(ps) => format!("SET DRAW {}", plist(map, ps)),
        SetNoDraw => "SET NO DRAW".into(),
        SetConcede(p) => format!("SET CONCEDE {}", pname(map, *p)),
        SetNoConcede => "SET NO CONCEDE".into(),
        SetAbsence { from, to: None } => format!("SET ABSENCE {from}"),
        SetAbsence { from, to: Some(to) } => format!("SET ABSENCE {from} TO {to}"),
        Press {
            to,
            color,
            fake,
            text,
        } => {
            let mut s = "PRESS".to_string();
            match to {
                // `PRESS` alone is refused: a broadcast says so.
                PressTo::All if color.is_none() => s.push_str(" TO ALL"),
                PressTo::All => {}
                to => s.push_str(&press_to(map, to)),
            }
            match color {
                Some(PressColor::Grey) => s.push_str(" GREY"),
                Some(PressColor::White) => s.push_str(" WHITE"),
                None => {}
            }
            match fake {
                Some(PressTo::All) => s.push_str(" FAKE BROADCAST"),
                Some(to) => s.push_str(&format!(" FAKE{}", press_to(map, to))),
                None => {}
            }
            block(&s, text, "ENDPRESS")
        }
        Broadcast { text } => block("BROADCAST", text, "ENDPRESS"),
        PostalPress(text) => block("POSTAL PRESS", text, "ENDPRESS"),
        WhoIs(users) => format!("WHOIS {}", users.join(" ")),
        InfoPlayer(a) => format!("INFO PLAYER {a}"),
        IAmAlso(a) => format!("I AM ALSO {a}"),
        Diary(DiaryAction::Record(t)) => block("DIARY RECORD", t, "ENDPRESS"),
        Diary(DiaryAction::List) => "DIARY LIST".into(),
        Diary(DiaryAction::Read(n)) => format!("DIARY READ {n}"),
        Diary(DiaryAction::Delete(n)) => format!("DIARY DELETE {n}"),
        Phase(p) => format!("PHASE {p}"),
        If(c) => format!("IF {}", cond(map, c)),
        Else => "ELSE".into(),
        ElseIf(c) => format!("ELSE IF {}", cond(map, c)),
        EndIf => "ENDIF".into(),
        Process(p) => p.map_or("PROCESS".into(), |p| format!("PROCESS {p}")),
        Predict => "PREDICT".into(),
        Rollback(p) => p.map_or("ROLLBACK".into(), |p| format!("ROLLBACK {p}")),
        Pause => "PAUSE".into(),
        Resume => "RESUME".into(),
        Terminate => "TERMINATE".into(),
        Eject(who) => format!("EJECT {who}"),
        Become(p) => format!("BECOME {}", pname(map, *p)),
        BecomePlayer(who) if who.contains(char::is_whitespace) => format!("BECOME \"{who}\""),
        BecomePlayer(who) => format!("BECOME {who}"),
        ForceBegin => "FORCE BEGIN".into(),
        SetDeadline(d) => format!("SET DEADLINE {d}"),
        SetGrace(d) => format!("SET GRACE {d}"),
        SetClock { phase, setting } => {
            let k = match phase {
                PhaseKind::Movement => "MOVE",
                PhaseKind::Retreat => "RETREAT",
                PhaseKind::Adjustment => "ADJUST",
            };
            format!("SET {k} {}", clock_field(setting))
        }
        SetNmr(true) => "SET NMR".into(),
        SetNmr(false) => "SET NO NMR".into(),
        SetPress(PressSetting::White) => "SET PRESS WHITE".into(),
        SetPress(PressSetting::Grey) => "SET PRESS GREY".into(),
        SetPress(PressSetting::None) => "SET PRESS NONE".into(),
        SetPartial(true) => "SET PARTIAL".into(),
        SetPartial(false) => "SET NO PARTIAL".into(),
        SetDias(true) => "SET DIAS".into(),
        SetDias(false) => "SET NO DIAS".into(),
        SetVariant(v) => format!("SET VARIANT {v}"),
        SetMasters(list) => format!("SET MASTERS {list}"),
        SetRules(r) => format!(
            "SET RULES {}",
            match r {
                RulesEdition::R1971 => 1971,
                RulesEdition::R2000 => 2000,
                RulesEdition::R2023 => 2023,
            }
        ),
        Promote(a) => format!("PROMOTE {a}"),
        For(p) => format!("FOR {}", pname(map, *p)),
        EndFor => "ENDFOR".into(),
        MapBlock(t) => block("MAP", t, "ENDMAP"),
        Propose(t) => block("PROPOSE", t, "ENDPROPOSAL"),
        WithdrawProposal(n) => format!("WITHDRAW PROPOSAL {n}"),
        VoteProposal {
            proposal,
            in_favour,
        } => {
            format!(
                "VOTE {} PROPOSAL {proposal}",
                if *in_favour { "FOR" } else { "AGAINST" }
            )
        }
        Assistant {
            address,
            orders,
            role,
        } => {
            let mut s = format!("ASSISTANT {address}");
            if *orders {
                s.push_str(" ORDERS");
            }
            if !role.is_empty() {
                s.push(' ');
                s.push_str(role);
            }
            s
        }
        Enter { game, .. } => format!("ENTER ?{game} ****"),
        GetRegulations(None) => "GET REGULATIONS".into(),
        GetRegulations(Some(n)) => format!("GET REGULATIONS {n}"),
        RemoveContestant(a) => format!("REMOVE CONTESTANT {a}"),
        AddContestant {
            address, consented, ..
        } => format!(
            "ADD CONTESTANT {address} ****{}",
            if *consented { " CONSENTED" } else { "" }
        ),
        Substitute { from, to, .. } => format!("SUBSTITUTE {from} BY {to} ****"),
        AmendRegulations(t) => block("AMEND REGULATIONS", t, "ENDREGULATIONS"),
        EndTournament(t) => block("END TOURNAMENT", t, "ENDREGULATIONS"),
        ProposalEffect { proposal, text } => format!("EFFECT PROPOSAL {proposal} {text}"),
        DeclareDraw => "DECLARE DRAW".into(),
        SetWinners(list) => format!("SET WINNERS {}", list.join(", ")),
        BecomeMaster
        | Clear
        | Unstart
        | Withdraw
        | RollbackTurn(_)
        | SetFlag(_)
        | SetClockLine { .. }
        | SetRefused { .. }
        | SetAlready { .. } => super::njudge_master::print(c),
    }
}
