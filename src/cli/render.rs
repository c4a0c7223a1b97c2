//! `legate render`: draws the board of a stored phase (or of a position given
//! as an adjudicate-JSON document) as PNG or SVG.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

use crate::adjudicate_json::read_request;
use crate::docs::{PositionDoc, PowerOrderDoc};
use crate::grammar::parse_order_in;
use crate::judge::{Countries, Edition, Position, Rules};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind};
use crate::report::{GameInfo, Layout, PhaseReport, Replay, png, svg};
use crate::store::Store;

#[derive(clap::Args)]
pub struct Args {
    /// The game whose stored phase to draw.
    #[arg(long, required_unless_present = "position")]
    game: Option<String>,
    /// The phase to draw (`S1901M`); the last one processed if not given.
    #[arg(long)]
    phase: Option<String>,
    /// The database file.
    #[arg(long, default_value = "legate.db")]
    database: PathBuf,
    /// Draw this position instead (an adjudicate-JSON document; its orders, if
    /// any, are adjudicated and drawn as arrows).
    #[arg(long, conflicts_with = "game")]
    position: Option<PathBuf>,
    /// Width of the PNG in pixels.
    #[arg(long, default_value_t = 1000)]
    width: u32,
    /// Where to write the picture: PNG, or SVG if the name ends in `.svg`.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    match draw(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("legate render: {e}");
            ExitCode::FAILURE
        }
    }
}

fn draw(args: &Args) -> Result<(), String> {
    let map = Map::standard();
    let report = match (&args.position, &args.game) {
        (Some(file), _) => from_file(map, file)?,
        (None, Some(game)) => from_store(map, &args.database, game, args.phase.as_deref())?,
        (None, None) => return Err("give --game or --position".into()),
    };
    let picture = svg::render(map, Layout::standard(), &report);
    let is_svg = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let bytes = if is_svg {
        picture.into_bytes()
    } else {
        png::render(&picture, Some(args.width)).map_err(|e| e.to_string())?
    };
    std::fs::write(&args.output, bytes).map_err(|e| format!("{}: {e}", args.output.display()))
}

fn info(game: &str, seq: u32) -> GameInfo {
    GameInfo {
        game: game.to_string(),
        judge: "LEGATE".to_string(),
        variant: "Standard".to_string(),
        seq,
    }
}

fn from_file(map: &Map, file: &Path) -> Result<PhaseReport, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let doc: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not valid JSON: {e}", file.display()))?;
    let request = read_request(map, &doc, &read_order).map_err(|e| e.to_string())?;
    let name = file
        .file_stem()
        .map_or_else(|| "board".to_string(), |s| s.to_string_lossy().into_owned());
    Ok(report_of(
        map,
        &Rules::default(),
        info(&name, 1),
        &request.position,
        &request.orders,
        None,
    ))
}

fn read_order(map: &Map, kind: PhaseKind, text: &str) -> Result<(Option<Power>, Order), String> {
    parse_order_in(map, text, Some(kind))
        .map(|p| (p.power, p.order))
        .map_err(|e| e.detail())
}

/// The report of a phase, adjudicated again from the position and orders.
fn report_of(
    map: &Map,
    rules: &Rules,
    info: GameInfo,
    before: &Position,
    orders: &[PowerOrder],
    after: Option<Position>,
) -> PhaseReport {
    let replay = Replay {
        info,
        allegiance: &Countries,
        before,
        orders,
        after: after.as_ref(),
        deadline: None,
        game_over: false,
    };
    PhaseReport::replay(map, rules, &replay)
}

fn from_store(
    map: &Map,
    database: &Path,
    game: &str,
    phase: Option<&str>,
) -> Result<PhaseReport, String> {
    if !database.exists() {
        return Err(format!("{}: no such database", database.display()));
    }
    let wanted = phase
        .map(|p| p.parse::<Phase>().map_err(|e| e.to_string()))
        .transpose()?;
    let mut store = Store::open(database).map_err(|e| e.to_string())?;
    let (record, preset) = store
        .transaction(|tx| {
            let Some(g) = tx.game_by_name(game)? else {
                return Ok(Err(format!("no game named {game:?}")));
            };
            let phases = tx.phases(g.id)?;
            let found = phases
                .into_iter()
                .filter(|r| !r.rolled_back)
                .rfind(|r| wanted.is_none_or(|w| r.phase.parse::<Phase>().is_ok_and(|p| p == w)));
            Ok::<_, crate::store::StoreError>(match found {
                Some(r) => Ok((r, g.rules_preset)),
                None => Err(match phase {
                    Some(p) => format!("game {game:?} has no processed phase {p}"),
                    None => format!("game {game:?} has no processed phase yet"),
                }),
            })
        })
        .map_err(|e| e.to_string())??;
    let doc = |what: &str, text: &str| -> Result<PositionDoc, String> {
        serde_json::from_str(text).map_err(|e| format!("stored {what} of {}: {e}", record.phase))
    };
    let before = doc("position", &record.position_before)?
        .to_position(map)
        .map_err(|e| e.to_string())?;
    let after = doc("result", &record.position_after)?
        .to_position(map)
        .map_err(|e| e.to_string())?;
    let orders: Vec<PowerOrderDoc> = serde_json::from_str(&record.orders)
        .map_err(|e| format!("stored orders of {}: {e}", record.phase))?;
    let orders = orders
        .iter()
        .map(|o| o.to_power_order(map))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let rules = Rules::preset(preset.parse::<Edition>().unwrap_or_default());
    let seq = u32::try_from(record.seq).unwrap_or(0);
    Ok(report_of(
        map,
        &rules,
        info(game, seq),
        &before,
        &orders,
        Some(after),
    ))
}
