//! `legate bench`: capacity figures on this machine (see docs/capacity.md).
//!
//! - `setup`: a database of N active games, written through the engine's own
//!   working set (one game started by mail commands is the template).
//! - `ingest`: order mails, MIME in mixed charsets, handled as the daemon does
//!   (stored, guarded, applied, reply queued), per second.
//! - `deadlines`: every game due at one minute processed, with report text and
//!   board picture for each processed phase.
//! - `png`: what one board picture costs, stage by stage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Builds a database of active games (Spring 1901), `--due` of them with
    /// every order in and their deadline at `--now`, the rest due a day later.
    Setup {
        #[arg(long)]
        db: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        games: usize,
        #[arg(long, default_value_t = 1_000)]
        due: usize,
        /// Store the players' password hashes with the least argon2 work
        /// (8 KiB, one pass) instead of the defaults: shows what the rest of
        /// the mail path costs when checking a password is not the limit.
        #[arg(long)]
        cheap_hashes: bool,
    },
    /// Order mails handled as the daemon handles them (in batches of
    /// `FETCH_BATCH`), per second.
    Ingest {
        #[arg(long)]
        db: PathBuf,
        #[arg(long, default_value_t = 2_000)]
        mails: usize,
        /// Mails each player sends in a row (1: every mail is its sender's
        /// first, so every password is checked with argon2).
        #[arg(long, default_value_t = 1)]
        per_sender: usize,
        /// Sync every commit to disk on its own, instead of once per batch as
        /// the daemon does (see `Store::group_syncs`).
        #[arg(long)]
        sync_each_commit: bool,
        /// Check every sender's password once before the clock starts, as if
        /// each had written before: no mail timed then pays argon2.
        #[arg(long)]
        warm_checks: bool,
    },
    /// Every game due at the set minute processed by the engine: adjudication,
    /// the results mail to every member with the board picture, queued.
    Deadlines {
        #[arg(long)]
        db: PathBuf,
        /// Sync each game's commit to disk on its own, instead of once at the
        /// end of the pass as the daemon does.
        #[arg(long)]
        sync_each_commit: bool,
    },
    /// What one board picture costs, stage by stage.
    Png {
        /// Pictures to draw.
        #[arg(long, default_value_t = 20)]
        count: usize,
    },
}

pub fn run(args: Args) -> ExitCode {
    let result = match args.what {
        What::Png { count } => png_stages(count),
        What::Setup {
            db,
            games,
            due,
            cheap_hashes,
        } => setup(&db, games, due, cheap_hashes),
        What::Ingest {
            db,
            mails,
            per_sender,
            sync_each_commit,
            warm_checks,
        } => ingest(&db, mails, per_sender, sync_each_commit, warm_checks),
        What::Deadlines {
            db,
            sync_each_commit,
        } => deadlines(&db, sync_each_commit),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("legate bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Peak resident memory of this process so far, in MiB (Linux; 0 elsewhere).
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Processor time this process has used so far (user and system, every
/// thread, ended ones included), in seconds; 0 where `/proc` is missing. Told
/// beside the elapsed time: on a shared machine the two differ by the time
/// the process waited for a core.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends with the last ')'):
    // utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: f64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn png_stages(count: usize) -> Result<(), String> {
    use crate::report::{self, Layout, Public, Recipient, Role};
    let map = crate::map::Map::standard();
    let layout = Layout::standard();
    let model = sample_report(map);
    let who = Recipient::new(Role::Observer, chrono_tz::Tz::UTC);
    let (mut svg_t, mut png_t) = (Vec::new(), Vec::new());
    let mut size = 0;
    // The first picture loads the fonts: not counted.
    let _ = report::board_png(map, layout, &model, &Public, &who);
    for _ in 0..count.max(1) {
        let t = Instant::now();
        let svg = report::board_svg(map, layout, &model, &Public, &who);
        svg_t.push(t.elapsed());
        let t = Instant::now();
        let png = report::png::render(&svg, Some(1000)).map_err(|e| e.to_string())?;
        png_t.push(t.elapsed());
        size = png.len();
    }
    println!("svg_ms {:.2}", ms(median(svg_t)));
    println!("png_ms {:.2}", ms(median(png_t)));
    println!("png_bytes {size}");
    println!("peak_rss_mib {:.1}", peak_rss_mib());
    Ok(())
}

/// The opening phase with a typical set of orders, as a report model.
fn sample_report(map: &crate::map::Map) -> crate::report::PhaseReport {
    use crate::judge::{Countries, Position, Rules, adjudicate};
    use crate::orders::PowerOrder;
    use crate::report::{GameInfo, PhaseInput, PhaseReport};
    let before = Position::initial(map);
    let orders: Vec<PowerOrder> = OPENING
        .iter()
        .flat_map(|(power, list)| list.iter().map(move |o| (*power, *o)))
        .filter_map(|(power, text)| {
            let parsed = crate::grammar::parse_order_in(map, text, Some(before.phase.kind)).ok()?;
            Some(PowerOrder {
                power: map.power(power)?,
                order: parsed.order,
            })
        })
        .collect();
    let adjudication = adjudicate(map, &Rules::default(), &Countries, &before, &orders);
    PhaseReport::build(
        map,
        &PhaseInput {
            info: GameInfo {
                game: "bench".into(),
                judge: "LEGT".into(),
                variant: "Standard".into(),
                seq: 1,
            },
            before: &before,
            adjudication: &adjudication,
            deadline: None,
            game_over: false,
        },
    )
}

/// Opening orders for every power (Spring 1901).
const OPENING: &[(&str, &[&str])] = &[
    ("Austria", &["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"]),
    ("England", &["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]),
    (
        "France",
        &["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
    ),
    ("Germany", &["A Ber - Kie", "A Mun - Ruh", "F Kie - Den"]),
    ("Italy", &["A Ven H", "A Rom - Apu", "F Nap - Ion"]),
    (
        "Russia",
        &[
            "A War - Gal",
            "A Mos - Ukr",
            "F Sev - Bla",
            "F Stp/sc - Bot",
        ],
    ),
    ("Turkey", &["A Con - Bul", "A Smy - Arm", "F Ank - Bla"]),
];

/// The moment the due games fall due; mail arrives an hour before.
fn due_at() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default()
}

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn player(power: &str, game: &str) -> String {
    format!("{}.{game}@players.test", power.to_lowercase())
}

fn password(power: &str) -> String {
    format!("pw-{}", power.to_lowercase())
}

fn game_name(i: usize) -> String {
    format!("g{i:05}")
}

fn setup(db: &Path, games: usize, due: usize, cheap_hashes: bool) -> Result<(), String> {
    use crate::game::model::GameState;
    use crate::game::{Engine, EngineConfig, Line, Request};
    if db.exists() {
        return Err(format!("{}: exists; give a new file", db.display()));
    }
    let started = Instant::now();
    let mut engine = Engine::open(db, EngineConfig::default()).map_err(|e| e.to_string())?;
    let now = due_at() - chrono::Duration::days(3);
    // The template: one game created and joined by mail commands, so every
    // stored form (state, memberships, hashes) is the engine's own.
    let cmd = |request: Request| Line::Command {
        line: 1,
        text: String::new(),
        request,
    };
    let tpl = "tpl";
    let master = "master@players.test";
    engine
        .apply(
            master,
            &[cmd(Request::Create {
                game: tpl.into(),
                password: "pw-master".into(),
                variant: None,
            })],
            None,
            now,
        )
        .map_err(|e| e.to_string())?;
    for power in POWERS {
        engine
            .apply(
                &player(power, tpl),
                &[
                    cmd(Request::SignOn {
                        power: None,
                        game: tpl.into(),
                        password: password(power),
                    }),
                    cmd(Request::SetPreference(vec![vec![power.to_string()]])),
                ],
                None,
                now,
            )
            .map_err(|e| e.to_string())?;
    }
    let row = engine
        .store()
        .transaction(|tx| tx.game_by_name(tpl))
        .map_err(|e| e.to_string())?
        .ok_or("the template game was not created")?;
    let mut template: GameState = serde_json::from_str(&row.state).map_err(|e| e.to_string())?;
    if cheap_hashes {
        for m in &mut template.members {
            let power = m.power.clone().unwrap_or_else(|| "master".into());
            m.password_hash = cheap_hash(&password(&power))?;
        }
    }
    if template.status != crate::game::model::Status::Active {
        return Err("the template game did not start".into());
    }
    let map = crate::map::Map::standard();
    let opening = opening_orders(map)?;
    const BATCH: usize = 500;
    let mut i = 0;
    while i < games {
        let end = (i + BATCH).min(games);
        engine
            .store()
            .transaction(|tx| -> Result<(), crate::game::EngineError> {
                let mut work = crate::game::work::Work::new(tx, now, "LEGT", None);
                for k in i..end {
                    let name = game_name(k);
                    let mut state = template.clone();
                    state.name = name.clone();
                    for m in &mut state.members {
                        m.address = m.address.replace(&format!(".{tpl}@"), &format!(".{name}@"));
                    }
                    let deadline = if k < due {
                        for (power, orders) in &opening {
                            crate::game::process::set_orders(map, &mut state, *power, orders);
                        }
                        due_at()
                    } else {
                        // Spread over the following day, a minute apart.
                        due_at()
                            + chrono::Duration::days(1)
                            + chrono::Duration::minutes(k as i64 % 1440)
                    };
                    state.clock.deadline = Some(deadline);
                    state.clock.grace = Some(deadline + chrono::Duration::days(1));
                    let json = serde_json::to_string(&state)
                        .map_err(|e| crate::game::EngineError::State(e.to_string()))?;
                    let settings = serde_json::to_string(&state.settings)
                        .map_err(|e| crate::game::EngineError::State(e.to_string()))?;
                    let id = tx.insert_game(
                        &crate::store::NewGame {
                            name: &name,
                            variant: &row.variant,
                            rules_preset: &row.rules_preset,
                            settings: &settings,
                            state: &json,
                            lot_commitment: row.lot_commitment.as_deref(),
                            lot_secret: row.lot_secret.as_deref(),
                        },
                        now,
                    )?;
                    let Some(new_row) = tx.game(id)? else {
                        return Err(crate::game::EngineError::State("game vanished".into()));
                    };
                    let secret = row
                        .lot_secret
                        .as_deref()
                        .and_then(crate::lots::LotSecret::from_hex)
                        .ok_or_else(|| crate::game::EngineError::NoLotSecret(row.name.clone()))?;
                    work.adopt(new_row, state, secret);
                }
                work.flush()
            })
            .map_err(|e| e.to_string())?;
        i = end;
    }
    println!("games {games}");
    println!("due {}", due.min(games));
    println!("setup_s {:.2}", started.elapsed().as_secs_f64());
    Ok(())
}

/// Checks the password of each seat once (argon2 each time), so that the
/// engine remembers them as it would after each sender's first mail.
fn warm_checks(
    engine: &mut crate::game::Engine,
    seats: impl Iterator<Item = (&'static str, String)>,
) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for (power, game) in seats {
        if !seen.insert((power, game.clone())) {
            continue;
        }
        let row = engine
            .store()
            .transaction(|tx| tx.game_by_name(&game))
            .map_err(|e| e.to_string())?
            .ok_or(format!("no game {game}"))?;
        let state: crate::game::model::GameState =
            serde_json::from_str(&row.state).map_err(|e| e.to_string())?;
        let address = player(power, &game);
        let member = state
            .members
            .iter()
            .find(|m| m.address == address)
            .ok_or(format!("{address} does not play {game}"))?;
        let ok = crate::store::verify_seat_password(
            &address,
            &state.name,
            &password(power),
            &member.password_hash,
        );
        if !ok {
            return Err(format!("{address}: password not accepted"));
        }
    }
    Ok(())
}

/// An argon2id hash with the least work the format allows. The parameters
/// travel in the hash, so checking it costs that little too.
fn cheap_hash(password: &str) -> Result<String, String> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    use argon2::{Algorithm, Argon2, Params, Version};
    let params = Params::new(8, 1, 1, None).map_err(|e| e.to_string())?;
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

fn opening_orders(
    map: &crate::map::Map,
) -> Result<Vec<(crate::map::Power, Vec<crate::orders::Order>)>, String> {
    let kind = crate::phase::PhaseKind::Movement;
    OPENING
        .iter()
        .map(|(power, list)| {
            let p = map.power(power).ok_or(format!("no power {power}"))?;
            let orders = list
                .iter()
                .map(|t| {
                    crate::grammar::parse_order_in(map, t, Some(kind))
                        .map(|o| o.order)
                        .map_err(|e| format!("{t}: {}", e.detail()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok((p, orders))
        })
        .collect()
}

fn ingest(
    db: &Path,
    count: usize,
    per_sender: usize,
    sync_each: bool,
    warm: bool,
) -> Result<(), String> {
    use crate::daemon::intake::{IntakeSettings, Outcome, handle_batch};
    use crate::game::{Engine, EngineConfig};
    use crate::mail::IngestOptions;
    use crate::mail::inbound::{InboundMail, MailKey};
    let mut engine = Engine::open(db, EngineConfig::default()).map_err(|e| e.to_string())?;
    if !sync_each {
        engine.store().group_syncs().map_err(|e| e.to_string())?;
    }
    let (games, due) = engine
        .store()
        .transaction(|tx| {
            let due = tx.due_games(due_at())?.len();
            let far = due_at() + chrono::Duration::days(3650);
            // Less the template game the others were copied from.
            let games = tx.due_games(far)?.len().saturating_sub(1);
            Ok::<_, crate::store::StoreError>((games, due))
        })
        .map_err(|e| e.to_string())?;
    let targets = games.saturating_sub(due).max(1);
    let seat = |k: usize| {
        let sender = k / per_sender.max(1);
        // Turkey never writes, so no game gets every order and processes early.
        (
            POWERS[(sender / targets) % 6],
            game_name(due + sender % targets),
        )
    };
    if warm {
        warm_checks(&mut engine, (0..count).map(seat))?;
    }
    let mails: Vec<InboundMail> = (0..count)
        .map(|k| {
            let (power, game) = seat(k);
            let raw = order_mail(k, power, &game);
            InboundMail {
                key: MailKey::Maildir {
                    name: format!("bench-{k}"),
                },
                size: raw.len(),
                raw,
            }
        })
        .collect();
    let settings = IntakeSettings {
        ingest: IngestOptions {
            judge_address: "judge@judge.test".into(),
            max_bytes: 256 * 1024,
        },
        judge_name: "LEGT".into(),
        per_hour: 30,
        authserv_ids: Vec::new(),
    };
    let before = outbox_len(&mut engine)?;
    let now = due_at() - chrono::Duration::hours(1);
    let (mut applied, mut refused_lines, mut other) = (0, 0, 0);
    let (argon2_before, commits_before) = (crate::store::argon2_runs(), engine.store().commits());
    let (started, cpu_before) = (Instant::now(), cpu_seconds());
    for batch in mails.chunks(crate::mail::inbound::FETCH_BATCH) {
        let outcomes =
            handle_batch(&mut engine, &settings, batch, now).map_err(|e| e.to_string())?;
        for outcome in outcomes {
            match outcome.map_err(|e| e.to_string())? {
                Outcome::Applied { errors } => {
                    applied += 1;
                    refused_lines += errors;
                }
                _ => other += 1,
            }
        }
    }
    let elapsed = started.elapsed();
    let cpu = cpu_seconds() - cpu_before;
    let argon2 = crate::store::argon2_runs() - argon2_before;
    let commits = engine.store().commits() - commits_before;
    let peak = peak_rss_mib();
    let queued = outbox_len(&mut engine)? - before;
    // What one password check costs on its own, for comparison.
    let hash = crate::store::hash_password("pw-austria").map_err(|e| e.to_string())?;
    let t = Instant::now();
    let _ = crate::store::verify_password("pw-austria", &hash);
    let verify = t.elapsed();
    println!("games {games}");
    println!("mails {count}");
    println!("per_sender {per_sender}");
    println!("argon2_checks {argon2}");
    println!("commits {commits}");
    println!("syncs_grouped {}", !sync_each);
    println!("applied {applied}");
    println!("refused_lines {refused_lines}");
    println!("not_applied {other}");
    println!("outbox_added {queued}");
    println!("ingest_s {:.2}", elapsed.as_secs_f64());
    println!("cpu_s {cpu:.2}");
    println!("mails_per_cpu_s {:.1}", count as f64 / cpu.max(1e-9));
    println!(
        "mails_per_s {:.1}",
        count as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    println!("password_verify_ms {:.1}", ms(verify));
    println!("peak_rss_mib {peak:.1}");
    Ok(())
}

/// Mails waiting in the outbox (the bench sends none). Counted without
/// reading them: the attachments of thousands of results mails would take
/// more memory than anything measured.
fn outbox_len(engine: &mut crate::game::Engine) -> Result<usize, String> {
    engine
        .store()
        .transaction(|tx| tx.outbox_count())
        .map_err(|e| e.to_string())
}

/// One order mail in one of the forms players' clients send (after the
/// samples in fixtures/mail): plain ASCII, quoted-printable and base64 UTF-8,
/// Latin-1, Windows-1252 from Outlook with the quoted judge mail below, HTML
/// alternative, an attachment, a quoted reply, a signature.
fn order_mail(k: usize, power: &str, game: &str) -> Vec<u8> {
    let from = player(power, game);
    let initial = &power[..1];
    let orders = OPENING
        .iter()
        .find(|(p, _)| *p == power)
        .map(|(_, o)| o.join("\n"))
        .unwrap_or_default();
    let body = format!("SIGNON {initial}{game} {}\n{orders}\n", password(power));
    let head = |subject: &str, ctype: &str| {
        format!(
            "Return-Path: <{from}>\r\nReceived: from mail.example.test by mail.judge.test; \
             Tue, 01 Dec 2026 10:00:00 +0000\r\nFrom: Player <{from}>\r\n\
             To: Legate Judge <judge@judge.test>\r\nSubject: {subject}\r\n\
             Date: Tue, 01 Dec 2026 11:00:00 +0100\r\nMessage-ID: <bench-{k}@players.test>\r\n\
             MIME-Version: 1.0\r\nContent-Type: {ctype}\r\n"
        )
    };
    let crlf = |t: &str| t.replace('\n', "\r\n");
    let mut out: Vec<u8> = match k % 9 {
        0 => format!(
            "{}Content-Transfer-Encoding: 7bit\r\n\r\n{}",
            head("orders", "text/plain; charset=us-ascii"),
            crlf(&body)
        )
        .into_bytes(),
        1 => format!(
            "{}Content-Transfer-Encoding: quoted-printable\r\n\r\n{}PRESS TO ALL\r\ntr=C3=A8s bien, mes amis, c=E2=80=99est une tr=C3=A8s lon=\r\ngue phrase.\r\nENDPRESS\r\n",
            head("=?UTF-8?Q?ordres_pour_l=E2=80=99automne?=", "text/plain; charset=utf-8"),
            crlf(&body)
        )
        .into_bytes(),
        2 => {
            let text = format!("{body}Привет, соседи!\n");
            format!(
                "{}Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
                head("=?UTF-8?B?0L/RgNC40LrQsNC30Ys=?=", "text/plain; charset=UTF-8"),
                base64(text.as_bytes())
            )
            .into_bytes()
        }
        3 => {
            let mut v = format!(
                "{}Content-Transfer-Encoding: 8bit\r\n\r\n{}",
                head("=?ISO-8859-1?Q?Z=FCge?=", "text/plain; charset=ISO-8859-1"),
                crlf(&body)
            )
            .into_bytes();
            v.extend_from_slice(b"Gr\xfc\xdfe aus Wien\r\n");
            v
        }
        4 => format!(
            "{}Content-Transfer-Encoding: quoted-printable\r\nX-Mailer: Microsoft Outlook 16.0\r\n\r\n{}\r\n\
             ________________________________\r\nFrom: Legate Judge <judge@judge.test>\r\n\
             Sent: Monday, November 30, 2026 9:00 AM\r\nSubject: LEGT:{game} - S1901M orders\r\n\r\n\
             {power}: Army Somewhere -> Elsewhere.\r\n",
            head("=?windows-1252?Q?=93orders=94?=", "text/plain; charset=\"windows-1252\""),
            crlf(&body)
        )
        .into_bytes(),
        5 => format!(
            "{}\r\nThis is a multi-part message in MIME format.\r\n--b1_alt\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n{}\r\n\
             --b1_alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div><b>{}</b></div>\r\n\r\n--b1_alt--\r\n",
            head("Orders", "multipart/alternative; boundary=\"b1_alt\""),
            crlf(&body),
            body.replace('\n', "<br>")
        )
        .into_bytes(),
        6 => format!(
            "{}\r\n--mix42\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n--mix42\r\n\
             Content-Type: image/png; name=\"board.png\"\r\nContent-Disposition: attachment; filename=\"board.png\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n\
             iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAIBpLfo\r\n\
             2QAAAABJRU5ErkJggg==\r\n\r\n--mix42--\r\n",
            head("orders and my map", "multipart/mixed; boundary=\"mix42\""),
            crlf(&body)
        )
        .into_bytes(),
        7 => format!(
            "{}In-Reply-To: <r1.legate@judge.test>\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}\r\n\
             On Mon, 30 Nov 2026 at 09:00, Legate Judge <judge@judge.test> wrote:\r\n\
             > :: Judge: LEGT  Game: {game}  Variant: standard\r\n> :: Deadline: S1901M\r\n>\r\n\
             > {power}: Fleet London -> English Channel.\r\n>> older quote\r\n",
            head(&format!("Re: LEGT:{game} - S1901M orders"), "text/plain; charset=utf-8; format=flowed"),
            crlf(&body)
        )
        .into_bytes(),
        _ => format!(
            "{}\r\n{}\r\n-- \r\nA player\r\nA Rom - Ven is my favourite opening\r\n",
            head("orders", "text/plain; charset=utf-8"),
            crlf(&body)
        )
        .into_bytes(),
    };
    out.extend_from_slice(b"\r\n");
    out
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (n, chunk) in bytes.chunks(3).enumerate() {
        if n > 0 && n % 19 == 0 {
            out.push_str("\r\n");
        }
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((v >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn deadlines(db: &Path, sync_each: bool) -> Result<(), String> {
    use crate::game::{Engine, EngineConfig};
    let mut engine = Engine::open(db, EngineConfig::default()).map_err(|e| e.to_string())?;
    if !sync_each {
        engine.store().group_syncs().map_err(|e| e.to_string())?;
    }
    let now = due_at();
    let ids = engine
        .store()
        .transaction(|tx| tx.due_games(now))
        .map_err(|e| e.to_string())?;
    let before = outbox_len(&mut engine)?;
    let files_before = attachment_bytes(&mut engine)?;
    let (started, cpu_before) = (Instant::now(), cpu_seconds());
    let phases = engine.process_due(now).map_err(|e| e.to_string())?;
    let processing = started.elapsed();
    let cpu = cpu_seconds() - cpu_before;
    let peak = peak_rss_mib();
    let queued = outbox_len(&mut engine)? - before;
    let (files, bytes) = attachment_bytes(&mut engine)?;
    println!("due_games {}", ids.len());
    println!("phases_processed {phases}");
    println!("outbox_added {queued}");
    println!("attachment_files_added {}", files - files_before.0);
    println!(
        "attachment_mib_added {:.1}",
        (bytes - files_before.1) as f64 / 1024.0 / 1024.0
    );
    println!("process_s {:.2}", processing.as_secs_f64());
    println!("cpu_s {cpu:.2}");
    println!(
        "pictures_drawn_ahead {}",
        crate::game::pictures::drawn_ahead()
    );
    println!(
        "ms_per_game {:.1}",
        ms(processing) / ids.len().max(1) as f64
    );
    println!("peak_rss_mib {peak:.1}");
    Ok(())
}

/// Distinct attached files stored, and their bytes.
fn attachment_bytes(engine: &mut crate::game::Engine) -> Result<(usize, usize), String> {
    engine
        .store()
        .transaction(|tx| tx.attachment_files_size())
        .map_err(|e| e.to_string())
}
