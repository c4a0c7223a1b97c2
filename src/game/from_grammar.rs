//! From the grammar's reading of a mail body to the engine's lines: dates
//! resolved against `now` in the sender's zone, powers named, and commands
//! the engine does not carry out yet marked as such.

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;

use super::model::PressKind;
use super::request::{ClockField, Line, PressTarget, Request};
use crate::docs::power_name;
use crate::grammar::{
    Body, ClockSetting, Command, Entry, GameFlag, GrammarError, Ignored, OrderItem, PressColor,
    PressSetting, PressTo, RulesEdition, Seat, command_canonical, parse_line,
};
use crate::map::Map;
use crate::phase::Phase;
use crate::schedule::Weekdays;

/// The engine's lines for a parsed body.
pub fn lines_from_body(map: &Map, body: &Body, now: DateTime<Utc>, tz: Tz) -> Vec<Line> {
    let mut out = Vec::new();
    for l in &body.lines {
        match &l.entry {
            Entry::Orders(items) => push_orders(&mut out, l.line, &l.text, items),
            Entry::Command(c) => {
                let text = command_canonical(map, c);
                // Every option of CREATE is honoured or the game is not created.
                let settings = match c {
                    Command::Create { game, options, .. } => match create_settings(options) {
                        Ok(list) => list,
                        Err(message) => {
                            out.push(Line::Error {
                                line: l.line,
                                text: format!("CREATE ?{game} ****"),
                                message,
                            });
                            continue;
                        }
                    },
                    _ => Vec::new(),
                };
                // A variant's options on `CREATE`: the variant to create, and a
                // command applied right after it.
                let extra = super::variants::create_options(c);
                match request(map, c, now, tz) {
                    Ok(Some(mut request)) => {
                        if let (Some((v, _)), Request::Create { variant, .. }) =
                            (&extra, &mut request)
                        {
                            variant.clone_from(v);
                        }
                        out.push(Line::Command {
                            line: l.line,
                            text: text.clone(),
                            request,
                        })
                    }
                    Ok(None) => {}
                    Err(message) => out.push(Line::Error {
                        line: l.line,
                        text: text.clone(),
                        message,
                    }),
                }
                if let Some((_, request)) = extra {
                    out.push(Line::Command {
                        line: l.line,
                        text: text.clone(),
                        request,
                    });
                }
                for request in settings {
                    out.push(Line::Command {
                        line: l.line,
                        text: text.clone(),
                        request,
                    });
                }
            }
            // Each order of the line stands on its own: the good ones apply,
            // each bad one is refused with its own error.
            Entry::Error {
                error,
                orders,
                more,
            } => {
                for e in std::iter::once(error).chain(more) {
                    out.push(Line::Error {
                        line: l.line,
                        text: l.text.clone(),
                        message: error_message(e),
                    });
                }
                push_orders(&mut out, l.line, &l.text, orders);
            }
            Entry::Refused { by } => out.push(Line::Error {
                line: l.line,
                text: refused_echo(&l.text),
                message: format!("not applied because line {by} was refused"),
            }),
            Entry::Ignored(Ignored::Closing) => out.push(Line::Unread {
                line: l.line,
                text: l.text.clone(),
            }),
            Entry::BlockText | Entry::Ignored(_) => {}
        }
    }
    out
}

/// The engine's lines for the orders of one line.
fn push_orders(out: &mut Vec<Line>, line: usize, text: &str, items: &[OrderItem]) {
    for item in items {
        out.push(match item {
            OrderItem::Order(p) => Line::Order {
                line,
                text: text.to_string(),
                order: p.order,
                route: p.route,
            },
            OrderItem::Variant { order, .. } => Line::Command {
                line,
                text: text.to_string(),
                request: Request::Variant(order.clone()),
            },
        });
    }
}

/// A grammar error as the reply gives it: column, what was wrong, suggestion.
fn error_message(error: &GrammarError) -> String {
    let message = match &error.suggestion {
        Some(s) => format!("{} - did you mean {s}?", error.detail()),
        None => error.detail(),
    };
    match error.column {
        Some(c) => format!("col {c}: {message}"),
        None => message,
    }
}

/// A line refused with its block, as the reply quotes it: the password field
/// of a refused registration form is masked.
fn refused_echo(text: &str) -> String {
    match text.split_once(':') {
        Some((key, _)) if key.trim().eq_ignore_ascii_case("password") => format!("{key}: ****"),
        _ => text.to_string(),
    }
}

/// The settings the options of `CREATE ?game pw variant <options>` ask for,
/// each the master's `SET` of the same name, applied right after the game is
/// created. Options from `masters=` on belong to the Masters Rules. An option
/// the judge does not take refuses the whole `CREATE`: a game is never
/// created other than as asked.
fn create_settings(options: &[String]) -> Result<Vec<Request>, String> {
    let mut out = Vec::new();
    for o in options {
        let w = o.to_ascii_lowercase();
        if w.starts_with("masters=") {
            break;
        }
        out.push(match w.as_str() {
            "white" => Request::SetPress(PressKind::White),
            "grey" | "gray" => Request::SetPress(PressKind::Grey),
            "nopress" | "none" => Request::SetPress(PressKind::None),
            "nmr" => Request::SetNmr(true),
            "nonmr" => Request::SetNmr(false),
            "partial" => Request::SetPartial(true),
            "nopartial" => Request::SetPartial(false),
            "dias" => Request::SetDias(true),
            "nodias" => Request::SetDias(false),
            "1971" | "2000" | "2023" => Request::SetRules(w.clone()),
            w => match create_flag(w) {
                Some(flag) => Request::Flag(flag),
                None => {
                    let why = match w {
                        "gunboat" => " (gunboat: players' identities kept secret)",
                        "blind" => " (blind: each power sees only its own units)",
                        _ => "",
                    };
                    return Err(format!(
                        "option \"{o}\"{why} is not supported by this judge, so the game was \
                     not created; the options CREATE takes: WHITE, GREY, NOPRESS, NMR, NONMR, \
                     PARTIAL, NOPARTIAL, DIAS, NODIAS, 1971, 2000, 2023, NOLIST, MANUALSTART, \
                     PRFRAND, PRFBOTH"
                    ));
                }
            },
        });
    }
    Ok(out)
}

/// njudge's game settings a `CREATE` may name as one word.
fn create_flag(w: &str) -> Option<GameFlag> {
    use crate::grammar::PreferenceRule;
    Some(match w {
        "nolist" | "private" => GameFlag::List(false),
        "manualstart" => GameFlag::ManualStart(true),
        "prfrand" => GameFlag::Preference(PreferenceRule::Random),
        "prfboth" => GameFlag::Preference(PreferenceRule::Both),
        "prflist" => GameFlag::Preference(PreferenceRule::List),
        _ => return None,
    })
}

fn press_target(map: &Map, to: &PressTo) -> PressTarget {
    match to {
        PressTo::All => PressTarget::All,
        PressTo::Master => PressTarget::Master,
        PressTo::Powers(list) => PressTarget::Powers(names(map, list)),
        PressTo::AllBut(list) => PressTarget::AllBut(names(map, list)),
        PressTo::Observers => PressTarget::Observers,
    }
}

fn names(map: &Map, powers: &[crate::map::Power]) -> Vec<String> {
    powers.iter().map(|p| power_name(map, *p)).collect()
}

fn date(
    spec: &crate::grammar::DateSpec,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, String> {
    spec.resolve(now, tz)
        .ok_or_else(|| "that date does not exist in your time zone".to_string())
}

/// Minutes to whole hours, rounding up.
fn hours(minutes: u32) -> u32 {
    minutes.div_ceil(60)
}

/// The engine's sign-on for a `SIGNON` line, whatever seat it names.
fn signon(map: &Map, c: &Command) -> Request {
    use Request as R;
    let Command::Signon {
        seat,
        game,
        password,
        ..
    } = c
    else {
        return Request::Unsupported("SIGNON".into());
    };
    match seat {
        Seat::Join => R::SignOn {
            power: None,
            game: game.clone(),
            password: password.clone(),
        },
        Seat::Initial(c) if c.eq_ignore_ascii_case(&'O') => R::Observe {
            game: game.clone(),
            password: password.clone(),
        },
        Seat::Initial(c) => R::SignOn {
            power: Some(c.to_string()),
            game: game.clone(),
            password: password.clone(),
        },
        Seat::Power(p) => R::SignOn {
            power: Some(power_name(map, *p)),
            game: game.clone(),
            password: password.clone(),
        },
    }
}

fn request(map: &Map, c: &Command, now: DateTime<Utc>, tz: Tz) -> Result<Option<Request>, String> {
    use Request as R;
    Ok(Some(match c {
        Command::Signon {
            variant: Some(variant),
            options,
            ..
        } => R::SignOnNamed {
            variant: variant.clone(),
            options: options.clone(),
            signon: Box::new(signon(map, c)),
        },
        Command::Signon { .. } => signon(map, c),
        Command::WhoIs(users) => R::WhoIs(users.clone()),
        Command::InfoPlayer(a) => R::InfoPlayer(a.clone()),
        Command::IAmAlso(a) => R::IAmAlso(a.clone()),
        Command::PostalPress(text) => R::PostalPress(text.clone()),
        Command::Signoff => return Ok(None),
        Command::Create {
            game,
            password,
            variant,
            ..
        } => R::Create {
            game: game.clone(),
            password: password.clone(),
            variant: variant.clone(),
        },
        Command::Join {
            game: Some(game),
            password: Some(password),
        } => R::SignOn {
            power: None,
            game: game.clone(),
            password: password.clone(),
        },
        Command::Observe { game, password } => R::Observe {
            game: game.clone(),
            password: password.clone(),
        },
        Command::Resign => R::Resign,
        Command::SetPreference(groups) => {
            R::SetPreference(groups.iter().map(|g| names(map, g)).collect())
        }
        Command::SetTimezone(zone) => R::SetTimezone(zone.name().to_string()),
        Command::SetPassword(pw) => R::SetPassword(pw.clone()),
        Command::List(g) => R::List(g.clone()),
        Command::History {
            game,
            from,
            to,
            limits,
        } => R::History {
            limits: limits.clone(),
            game: game.clone(),
            from: from.as_ref().map(|d| date(d, now, tz)).transpose()?,
            to: to.as_ref().map(|d| date(d, now, tz)).transpose()?,
        },
        Command::Get(topic) | Command::Help(Some(topic)) => R::Get(topic.clone()),
        Command::Register(fields) => R::Register(fields.clone()),
        Command::Diary(action) => R::Diary(action.clone()),
        Command::SetAddress(a) => R::SetAddress(a.clone()),
        Command::Predict => R::Predict,
        Command::SetVariant(v) => R::SetVariant(v.clone()),
        Command::MapBlock(text) => R::SubmitMap(text.clone()),
        Command::SetMasters(list) => R::SetMasters(list.clone()),
        // `FOR Portugal` (or a line `Portugal`) heads orders for that power: the
        // engine knows each unit's power from the board, so nothing is left to do.
        Command::For(_) | Command::EndFor => return Ok(None),
        Command::Summary(g) => R::Summary(g.clone()),
        Command::Whogame(g) => R::WhoGame(g.clone()),
        Command::Help(None) => R::Help,
        Command::Version => R::Version,
        Command::SetWait(on) => R::SetWait(*on),
        Command::SetDraw(powers) => R::SetDraw(Some(names(map, powers))),
        Command::SetNoDraw => R::SetDraw(None),
        Command::SetConcede(p) => R::SetConcede(Some(power_name(map, *p))),
        Command::SetNoConcede => R::SetConcede(None),
        Command::SetAbsence { from, to } => {
            let from = date(from, now, tz)?;
            let to = match to {
                // A day without a time: the absence lasts to the end of it.
                Some(t) if !t.has_time() => date(t, now, tz)? + Duration::days(1),
                Some(t) => date(t, now, tz)?,
                // A single date is one day away.
                None => from + Duration::days(1),
            };
            R::SetAbsence { from, to }
        }
        Command::Phase(p) => R::Phase(*p),
        Command::If(c) => R::If(super::conditions::CondDoc::from_grammar(map, c)),
        Command::Else => R::Else,
        Command::ElseIf(c) => R::ElseIf(super::conditions::CondDoc::from_grammar(map, c)),
        Command::EndIf => R::EndIf,
        Command::Press {
            to,
            color,
            fake,
            text,
        } => R::Press {
            to: press_target(map, to),
            grey: matches!(color, Some(PressColor::Grey)),
            fake: fake.as_ref().map(|f| press_target(map, f)),
            text: text.clone(),
        },
        Command::Broadcast { text } => R::Press {
            to: PressTarget::All,
            grey: false,
            fake: None,
            text: text.clone(),
        },
        Command::Process(None) => R::Process,
        Command::Process(Some(p)) => R::ProcessPhase(*p),
        Command::Rollback(p) => R::Rollback(*p),
        Command::Pause => R::Pause,
        Command::Resume => R::Resume,
        Command::Terminate => R::Terminate,
        Command::ForceBegin => R::ForceBegin,
        // A day without a time keeps the phase's time of day: the engine,
        // which knows the deadline, resolves it.
        Command::SetDeadline(spec) if !spec.has_time() => R::SetDeadlineDay(*spec),
        Command::SetDeadline(spec) => R::SetDeadline(date(spec, now, tz)?),
        Command::SetGrace(spec) => R::SetGrace(date(spec, now, tz)?),
        Command::Become(p) => R::Become(power_name(map, *p)),
        Command::BecomePlayer(who) => R::Become(who.clone()),
        Command::Eject(who) => R::Eject(who.clone()),
        Command::Promote(address) => R::Promote(address.clone()),
        Command::SetClock { phase, setting } => R::SetClock {
            kind: Some(*phase),
            field: clock_field(setting),
        },
        Command::SetNmr(on) => R::SetNmr(*on),
        Command::SetPress(p) => R::SetPress(match p {
            PressSetting::White => PressKind::White,
            PressSetting::Grey => PressKind::Grey,
            PressSetting::None => PressKind::None,
        }),
        Command::SetPartial(on) => R::SetPartial(*on),
        Command::SetDias(on) => R::SetDias(*on),
        Command::SetRules(e) => R::SetRules(
            match e {
                RulesEdition::R1971 => "1971",
                RulesEdition::R2000 => "2000",
                RulesEdition::R2023 => "2023",
            }
            .to_string(),
        ),
        Command::Enter { game, password } => R::SignOn {
            power: None,
            game: game.clone(),
            password: password.clone(),
        },
        Command::BecomeMaster => R::BecomeMaster,
        Command::Clear => R::ClearLater,
        Command::Unstart => R::Unstart,
        Command::Withdraw => R::Resign,
        Command::RollbackTurn(n) => R::RollbackTurn(*n),
        Command::SetFlag(f) => R::Flag(f.clone()),
        Command::SetClockLine { phase, settings } => R::SetClocks {
            kind: *phase,
            fields: settings.iter().map(clock_field).collect(),
        },
        Command::SetRefused { setting, why } => R::Refused {
            setting: setting.clone(),
            why: why.clone(),
        },
        Command::SetAlready { setting, why } => R::Already {
            setting: setting.clone(),
            why: why.clone(),
        },
        Command::ListFull => R::ListFull,
        Command::SetPreferenceAny => R::SetPreferenceAny,
        other => match agora_command(other) {
            Some(c) => R::Agora(c),
            None => R::Unsupported(command_canonical(map, other)),
        },
    }))
}

/// One clock setting in the engine's units.
fn clock_field(setting: &ClockSetting) -> ClockField {
    match setting {
        ClockSetting::Clock(t) => ClockField::Time(*t),
        ClockSetting::Next(m) => ClockField::NextHours(hours(*m)),
        ClockSetting::Grace(m) => ClockField::GraceHours(hours(*m)),
        // The grammar's bit 0 is Sunday; the clock's is Monday.
        ClockSetting::Days(bits) => {
            ClockField::Days(Weekdays(((bits >> 1) | ((bits & 1) << 6)) & 0x7f))
        }
        ClockSetting::Min(m) => ClockField::MinMinutes(*m),
        ClockSetting::Delay(m) => ClockField::DelayMinutes(*m),
    }
}

/// The Agora tournament's commands.
fn agora_command(c: &Command) -> Option<crate::variant::agora::command::AgoraCommand> {
    use crate::variant::agora::command::AgoraCommand as A;
    Some(match c {
        Command::GetRegulations(n) => A::GetRegulations(*n),
        Command::Propose(t) => A::Propose(t.clone()),
        Command::WithdrawProposal(n) => A::Withdraw(*n),
        Command::VoteProposal {
            proposal,
            in_favour,
        } => A::Vote {
            proposal: *proposal,
            in_favour: *in_favour,
        },
        Command::Assistant {
            address,
            orders,
            role,
        } => A::Assistant {
            address: address.clone(),
            orders: *orders,
            role: role.clone(),
        },
        Command::RemoveContestant(a) => A::Remove(a.clone()),
        Command::AddContestant {
            address,
            password,
            consented,
        } => A::Add {
            address: address.clone(),
            password: password.clone(),
            consented: *consented,
        },
        Command::Substitute { from, to, password } => A::Substitute {
            from: from.clone(),
            to: to.clone(),
            password: password.clone(),
        },
        Command::AmendRegulations(t) => A::Amend(t.clone()),
        Command::EndTournament(t) => A::End(t.clone()),
        Command::ProposalEffect { proposal, text } => A::Effect {
            proposal: *proposal,
            text: text.clone(),
        },
        Command::DeclareDraw => A::DeclareDraw,
        Command::SetWinners(list) => A::SetWinners(list.clone()),
        _ => return None,
    })
}

/// The commands a text reads as, when it reads as nothing else (every part
/// a command: the Agora's `EFFECT PROPOSAL n <command>`); `None`: it does not.
pub fn commands_only(
    map: &Map,
    text: &str,
    phase: Option<Phase>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Option<Vec<Line>> {
    let lines = parse_line(map, text, phase);
    let mut any = false;
    for l in &lines {
        match &l.entry {
            Entry::Command(_) => any = true,
            Entry::BlockText | Entry::Ignored(_) => {}
            Entry::Orders(_) | Entry::Error { .. } | Entry::Refused { .. } => return None,
        }
    }
    if !any {
        return None;
    }
    Some(lines_from_body(map, &Body { lines }, now, tz))
}
