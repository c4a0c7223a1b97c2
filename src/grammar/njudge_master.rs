//! The Master's words of njudge (`master`, `index`) that the judge's own forms
//! did not already read: `BECOME MASTER`, `BECOME` with an initial or an
//! abbreviation, the game settings (`SET NOLIST`, `SET COMMENT`, `SET PRFRAND`,
//! ...), the clock's `MIN` and `DELAY`, and the settings that cannot apply here,
//! each refused with the reason.

use super::command::{
    ClockSetting, Command, GameFlag, PreferenceRule, PressRule, PressSetting, number,
};
use super::error::GrammarError;
use super::lexer::{Cursor, Kind};
use super::lexicon;
use super::order::Ctx;
use crate::map::Power;

/// `BECOME MASTER`, or `BECOME <initial | abbreviation>` (njudge: "The "power"
/// name may be abbreviated or spelled out in full"); `None`: neither.
pub(super) fn become_word(ctx: &Ctx, cur: &mut Cursor) -> Option<Command> {
    let w = cur.word()?;
    if matches!(w, "master" | "moderator" | "gm") {
        cur.bump();
        return Some(Command::BecomeMaster);
    }
    if lexicon::power(ctx.map, w).is_some() {
        return None;
    }
    let p = abbreviated_power(ctx, w)?;
    cur.bump();
    Some(Command::Become(p))
}

/// The one power whose initial is `w`, or whose name or adjective begins with
/// `w` (at least two letters).
fn abbreviated_power(ctx: &Ctx, w: &str) -> Option<Power> {
    if !w.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let fits = |name: &str| name.to_ascii_lowercase().starts_with(w);
    // One letter is an initial; longer, the start of a name or an adjective.
    let mut hits = ctx
        .map
        .powers()
        .iter()
        .enumerate()
        .filter(|(_, p)| fits(&p.name) || (w.len() > 1 && fits(&p.adjective)));
    let (i, _) = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    Some(Power(i as u8))
}

/// A clock field in hours (`MIN 12`, `DELAY 0.5`), kept in minutes.
pub(super) fn hours_setting(field: &str, value: &str) -> Option<ClockSetting> {
    let hours: f64 = value
        .parse()
        .ok()
        .filter(|h: &f64| h.is_finite() && *h >= 0.0 && *h < 100_000.0)?;
    let minutes = (hours * 60.0).round() as u32;
    Some(if field == "delay" {
        ClockSetting::Delay(minutes)
    } else {
        ClockSetting::Min(minutes)
    })
}

fn flag(f: GameFlag) -> Option<Result<Command, GrammarError>> {
    Some(Ok(Command::SetFlag(f)))
}

/// `SET <word> ...` for the words of njudge's settings (`word` is read);
/// `None`: not one of them.
pub(super) fn set_word(cur: &mut Cursor, word: &str) -> Option<Result<Command, GrammarError>> {
    match word {
        "list" | "public" | "listed" => flag(GameFlag::List(true)),
        "nolist" | "private" | "unlist" | "unlisted" => flag(GameFlag::List(false)),
        "comment" if cur.is_word(&["begin"]) => {
            cur.bump();
            refused(
                "SET COMMENT BEGIN",
                "the long comment is not kept on this judge; SET COMMENT <text> sets the \
                 comment LIST shows",
            )
        }
        "comment" => {
            let text = cur.rest_raw().trim().to_string();
            cur.pos = cur.line.toks.len();
            flag(GameFlag::Comment(text))
        }
        "players" => {
            Some(number(cur, "a number of players").map(|n| Command::SetFlag(GameFlag::Players(n))))
        }
        "centers" | "centres" | "center" | "centre" => Some(
            number(cur, "a number of supply centres")
                .map(|n| Command::SetFlag(GameFlag::Centers(n))),
        ),
        "manual" if cur.eat_word(&["start"]) => flag(GameFlag::ManualStart(true)),
        "manualstart" => flag(GameFlag::ManualStart(true)),
        "auto" | "automatic" if cur.eat_word(&["start"]) => flag(GameFlag::ManualStart(false)),
        "autostart" => flag(GameFlag::ManualStart(false)),
        "moderated" | "moderate" => flag(GameFlag::Moderated(true)),
        "unmoderated" | "unmoderate" => flag(GameFlag::Moderated(false)),
        "prflist" => flag(GameFlag::Preference(PreferenceRule::List)),
        "prfrand" => flag(GameFlag::Preference(PreferenceRule::Random)),
        "prfboth" => flag(GameFlag::Preference(PreferenceRule::Both)),
        "white" => {
            let rule = if slash_then(cur, &["grey", "gray"]) {
                PressRule::WhiteGrey
            } else {
                PressRule::WhiteOnly
            };
            cur.eat_word(&["press"]);
            flag(GameFlag::Press(rule))
        }
        "grey" | "gray" => {
            if slash_then(cur, &["white"]) {
                cur.eat_word(&["press"]);
                return refused(
                    "SET GREY/WHITE",
                    "press here is signed unless it asks for GREY; SET GREY makes every \
                     player's press anonymous, SET WHITE/GREY lets each message choose",
                );
            }
            cur.eat_word(&["press"]);
            flag(GameFlag::Press(PressRule::GreyOnly))
        }
        "none" => {
            cur.eat_word(&["press"]);
            Some(Ok(Command::SetPress(PressSetting::None)))
        }
        "nofake" => {
            cur.eat_word(&["broadcast"]);
            flag(GameFlag::Fake(false))
        }
        "cd" => Some(Ok(Command::SetNmr(true))),
        "nocd" => Some(Ok(Command::SetNmr(false))),
        "quiet" => flag(GameFlag::Quiet(true)),
        "concessions" | "concession" => flag(GameFlag::Concessions(true)),
        "max" | "maximum" if cur.eat_word(&["absence", "absences"]) => Some(
            number(cur, "a number of days (0 to 31)")
                .map(|n| Command::SetFlag(GameFlag::MaxAbsence(n))),
        ),
        other => house_word(cur, "SET", other, true).or_else(|| cannot_apply(cur, "SET", other)),
    }
}

/// njudge's settings of press, processing and secrecy that this judge reads
/// as always so, or refuses with the reason (`on`: without `NO`). The rest of
/// the line is taken with them; `None`: not one of them.
fn house_word(
    cur: &mut Cursor,
    prefix: &str,
    word: &str,
    on: bool,
) -> Option<Result<Command, GrammarError>> {
    const PRESS_ALWAYS: &str = "the master of a game here receives all press, partial press \
                                included, always";
    const OBSERVERS: &str = "observers here read press to everyone and write only to the \
                             master; press between players stays between them and the master";
    const PROCESS: &str = "a phase here is processed at its deadline by the clock; PAUSE holds \
                           a game and its master's PROCESS processes it by hand";
    let next = cur.word();
    let press_next = next == Some("press");
    let (already, why) = match (word, on) {
        ("all", true) if press_next => (true, PRESS_ALWAYS),
        ("normal", true) if press_next => (
            false,
            "the master of a game here always receives all press (a master who arbitrates \
             must read what was said)",
        ),
        ("watch", _) if next == Some("all") => (!on, OBSERVERS),
        ("observer" | "observers", true) if next == Some("no") => (
            true,
            "observers here may write only to the master, as njudge allows under OBSERVER NO",
        ),
        ("observer" | "observers", true) => (false, OBSERVERS),
        ("manual", _) if matches!(next, Some("process" | "proc")) => (!on, PROCESS),
        ("manualprocess", _) => (!on, PROCESS),
        ("auto" | "automatic", _) if matches!(next, Some("process" | "proc")) => (on, PROCESS),
        ("autoprocess", _) => (on, PROCESS),
        ("show", _) => (
            !on,
            "changes to a game's settings are not announced to its players here, so nobody's \
             address is shown with them",
        ),
        ("secret", _) => (
            !on,
            "LIST and WHOGAME show who plays every game here; this judge plays no duplex games",
        ),
        ("reveal", _) => (
            on,
            "the players of a game are public here (this judge plays no gunboat games), before \
             and after it ends",
        ),
        ("resume", _) => (
            !on,
            "only a master resumes a game here (RESUME); a terminated game stays finished",
        ),
        ("late", _) if next == Some("count") => {
            (!on, "this judge keeps no count of a player's late phases")
        }
        ("late" | "minor" | "grace" | "touch" | "must", _)
            if press_next || next == Some("order") =>
        {
            (
                !on,
                "press here is held back neither by the phase, nor by who has ordered or is late, \
                 nor by where units stand: the game's press setting alone says who may write",
            )
        }
        ("blank", _) if press_next => (
            !on,
            "a press message here must have text; an empty one is not sent",
        ),
        ("postal" | "postalpress", _) => (
            !on,
            "postal press (held until the phase is processed) is not offered; BROADCAST sends \
             the message to everyone now",
        ),
        ("strict", _) => (
            false,
            "convoy orders are always checked against the board, the grace period ends when it \
             was set to, and SET WAIT holds a phase until its deadline",
        ),
        ("approval" | "approve" | "approved", _) => (
            !on,
            "a player's orders are never held for approval here: a master vets players with \
             SET MANUAL START before the game starts, and EJECT",
        ),
        ("not", true) if next.is_some_and(|w| w.starts_with("approve")) => (
            false,
            "a player's orders are never held for approval here: a master vets players with \
             SET MANUAL START before the game starts, and EJECT",
        ),
        ("not", true) if next == Some("variant") => (
            false,
            "options are set each by its own SET here (SET NO DIAS, SET NO PARTIAL...), and \
             the Masters Rules by SET MASTERS",
        ),
        ("start", true) => (
            false,
            "the earliest processing is set by the clock here: SET MOVE MIN <hours> (and \
             RETREAT, ADJUST) keeps complete orders from being processed sooner",
        ),
        ("auto" | "automatic", _) if next == Some("create") => (
            !on,
            "a game is created here only by CREATE; njudge never built its AUTO CREATE",
        ),
        ("auto" | "automatic", _) if next == Some("disband") => (
            !on,
            "a dislodged unit here may retreat, as the rulebook says",
        ),
        ("normal", true) if next == Some("disband") => (
            true,
            "builds and disbands here follow the rulebook: a power disbands only when it has \
             more units than centres",
        ),
        ("broadcast", _) => (
            on,
            "the masters and observers of a game receive every broadcast here",
        ),
        ("normal", _) if next == Some("broadcast") => (
            on,
            "the masters and observers of a game receive every broadcast here",
        ),
        ("autocreate", _) => (
            !on,
            "a game is created here only by CREATE; njudge never built its AUTO CREATE",
        ),
        _ => return None,
    };
    // The words as written from the setting's first (`SET START Mon 10:00`).
    let from = cur.line.toks[cur.pos.saturating_sub(1)].start as usize;
    let words = cur.line.src.get(from..).unwrap_or("").trim().to_uppercase();
    cur.pos = cur.line.toks.len();
    let setting = format!("{prefix} {words}");
    Some(Ok(if already {
        Command::SetAlready {
            setting,
            why: why.to_string(),
        }
    } else {
        Command::SetRefused {
            setting,
            why: why.to_string(),
        }
    }))
}

/// `SET NO <word> ...` for njudge's settings (the cursor is on `word`).
pub(super) fn set_no_word(cur: &mut Cursor) -> Option<Result<Command, GrammarError>> {
    let w = cur.word()?;
    let start = cur.pos;
    cur.bump();
    let c = match w {
        "list" => flag(GameFlag::List(false)),
        "manual" if cur.eat_word(&["start"]) => flag(GameFlag::ManualStart(false)),
        "auto" | "automatic" if cur.eat_word(&["start"]) => flag(GameFlag::ManualStart(true)),
        "fake" => {
            cur.eat_word(&["broadcast"]);
            flag(GameFlag::Fake(false))
        }
        "white" => {
            cur.eat_word(&["press"]);
            flag(GameFlag::Press(PressRule::GreyOnly))
        }
        "grey" | "gray" => {
            cur.eat_word(&["press"]);
            flag(GameFlag::Press(PressRule::WhiteOnly))
        }
        "press" => Some(Ok(Command::SetPress(PressSetting::None))),
        "cd" => Some(Ok(Command::SetNmr(false))),
        "quiet" => flag(GameFlag::Quiet(false)),
        "concessions" | "concession" => flag(GameFlag::Concessions(false)),
        other => {
            house_word(cur, "SET NO", other, false).or_else(|| cannot_apply(cur, "SET NO", other))
        }
    };
    if c.is_none() {
        cur.pos = start;
    }
    c
}

/// `SET PARTIAL MAY [BE FAKED]` and `SET PARTIAL FAKES [BROADCAST] [BY DEFAULT]`
/// (`PARTIAL` is read); `None`: plain `SET PARTIAL [PRESS]`.
pub(super) fn partial_fakes(cur: &mut Cursor) -> Option<Result<Command, GrammarError>> {
    if cur.eat_word(&["may"]) {
        cur.eat_word(&["be"]);
        cur.eat_word(&["faked"]);
        return flag(GameFlag::Fake(true));
    }
    if cur.eat_word(&["fakes", "fake"]) {
        cur.pos = cur.line.toks.len();
        return refused(
            "SET PARTIAL FAKES BROADCAST",
            "press to some powers is never shown to its readers as a broadcast unless \
             its writer asks for it (SET PARTIAL MAY BE FAKED lets them)",
        );
    }
    None
}

/// `/` then one of `words`.
fn slash_then(cur: &mut Cursor, words: &[&str]) -> bool {
    if cur.is_kind(Kind::Slash) && cur.word_at(1).is_some_and(|w| words.contains(&w)) {
        cur.bump();
        cur.bump();
        true
    } else {
        false
    }
}

fn refused(setting: &str, why: &str) -> Option<Result<Command, GrammarError>> {
    Some(Ok(Command::SetRefused {
        setting: setting.to_string(),
        why: why.to_string(),
    }))
}

/// njudge's settings that cannot apply to the games this judge runs, with why.
/// The rest of the line is taken with them.
fn cannot_apply(
    cur: &mut Cursor,
    prefix: &str,
    word: &str,
) -> Option<Result<Command, GrammarError>> {
    const MACHIAVELLI: &str =
        "it belongs to Machiavelli, whose money, dice and special units this judge does not play";
    const MAP: &str = "it belongs to maps with that option coded in, and this judge plays \
                       the standard board and its own variants only";
    const RATINGS: &str = "this judge keeps no dedication, on-time or CD ratings to restrict \
                           a game by";
    let why = match word {
        "money" | "loans" | "bank" | "bankers" | "dice" | "assassins" | "assassination"
        | "assassinations" | "famine" | "plague" | "storm" | "storms" | "special" | "adjacent"
        | "adjacency" | "fort" | "fortress" | "garrison" | "garrisons" | "mach2" | "summer"
        | "disband" | "coastal" => MACHIAVELLI,
        "railways" | "gateways" | "hong" | "hongkong" | "duality" | "bcenters" | "bcentres"
        | "portage" | "transform" | "trafo" | "attack" | "blank" | "empty" | "allied" => MAP,
        "any" | "home" | "one" => {
            "builds and disbands here follow the rulebook (builds in unoccupied home centres \
             still owned); the build options of njudge's variants are not played"
        }
        "powers" => "every power of the map plays here; SET PLAYERS sets how many players start",
        "dedication" | "resrat" | "ontimerat" | "level" | "rated" | "unrated" => RATINGS,
        "bn" | "bnc" | "mn" | "mnc" | "ep" => {
            "Boardman, Miller and EP numbers are no longer kept by anyone (njudge keeps them \
             for compatibility only)"
        }
        "access" | "allow" | "deny" => {
            "a game is reached by its name and password here; an invitation-only game is \
             SET NOLIST and a password given to the invited"
        }
        "proxy" => "orders for another power's units are refused here: each power orders its own",
        _ => return None,
    };
    let start = cur.pos.saturating_sub(1);
    let words: Vec<String> = cur.line.toks[start..]
        .iter()
        .map(|t| cur.line.raw_of(t).to_uppercase())
        .collect();
    cur.pos = cur.line.toks.len();
    refused(&format!("{prefix} {}", words.join(" ")), why)
}

/// The canonical form of the commands of this module.
pub(super) fn print(c: &Command) -> String {
    match c {
        Command::BecomeMaster => "BECOME MASTER".into(),
        Command::Clear => "CLEAR".into(),
        Command::Unstart => "UNSTART".into(),
        Command::Withdraw => "WITHDRAW".into(),
        Command::RollbackTurn(n) => format!("ROLLBACK {n:03}"),
        Command::SetFlag(f) => match f {
            GameFlag::List(true) => "SET LIST".into(),
            GameFlag::List(false) => "SET NOLIST".into(),
            GameFlag::Comment(t) if t.is_empty() => "SET COMMENT".into(),
            GameFlag::Comment(t) => format!("SET COMMENT {t}"),
            GameFlag::Players(n) => format!("SET PLAYERS {n}"),
            GameFlag::Centers(n) => format!("SET CENTERS {n}"),
            GameFlag::ManualStart(true) => "SET MANUAL START".into(),
            GameFlag::ManualStart(false) => "SET NO MANUAL START".into(),
            GameFlag::Moderated(true) => "SET MODERATED".into(),
            GameFlag::Moderated(false) => "SET UNMODERATED".into(),
            GameFlag::Preference(PreferenceRule::List) => "SET PRFLIST".into(),
            GameFlag::Preference(PreferenceRule::Random) => "SET PRFRAND".into(),
            GameFlag::Preference(PreferenceRule::Both) => "SET PRFBOTH".into(),
            GameFlag::Press(PressRule::WhiteOnly) => "SET WHITE".into(),
            GameFlag::Press(PressRule::GreyOnly) => "SET GREY".into(),
            GameFlag::Press(PressRule::WhiteGrey) => "SET WHITE/GREY".into(),
            GameFlag::Fake(false) => "SET NO FAKE".into(),
            GameFlag::Fake(true) => "SET PARTIAL MAY BE FAKED".into(),
            GameFlag::Quiet(true) => "SET QUIET".into(),
            GameFlag::Quiet(false) => "SET NO QUIET".into(),
            GameFlag::Concessions(true) => "SET CONCESSIONS".into(),
            GameFlag::Concessions(false) => "SET NO CONCESSIONS".into(),
            GameFlag::MaxAbsence(n) => format!("SET MAX ABSENCE {n}"),
        },
        Command::SetClockLine { phase, settings } => {
            let mut s = match phase {
                crate::phase::PhaseKind::Movement => "SET MOVE".to_string(),
                crate::phase::PhaseKind::Retreat => "SET RETREAT".to_string(),
                crate::phase::PhaseKind::Adjustment => "SET ADJUST".to_string(),
            };
            for f in settings {
                s.push(' ');
                s.push_str(&super::command::clock_field_text(f));
            }
            s
        }
        Command::SetRefused { setting, .. } | Command::SetAlready { setting, .. } => {
            setting.clone()
        }
        _ => String::new(),
    }
}
