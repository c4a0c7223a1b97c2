//! The rule of blocks checked on any mail, for the property tests and the
//! fuzz target: a refused or lost block header never lets a line of its
//! block act outside it, and changes nothing outside the block.

use crate::map::Map;

use super::body::{Body, Entry, closer, parse_body};
use super::command::Command;
use super::error::GrammarError;

/// Does the line act (an order, or a command other than the end of the mail)?
fn acts(entry: &Entry) -> bool {
    match entry {
        Entry::Orders(_) => true,
        Entry::Error { orders, .. } => !orders.is_empty(),
        Entry::Command(c) => *c != Command::Signoff,
        _ => false,
    }
}

/// The entry without the line numbers it holds (deleting a line moves them).
fn unnumbered(entry: &Entry) -> Entry {
    match entry {
        Entry::Error {
            error,
            orders,
            more,
        } => Entry::Error {
            error: GrammarError {
                line: 0,
                ..error.clone()
            },
            orders: orders.clone(),
            more: more
                .iter()
                .map(|e| GrammarError {
                    line: 0,
                    ..e.clone()
                })
                .collect(),
        },
        Entry::Refused { .. } => Entry::Refused { by: 0 },
        e => e.clone(),
    }
}

/// For every block header of `text`: written with words no header takes, it
/// is refused, every line of its block is refused with it and every other
/// line reads as before; deleted (when its block has a closing line), no
/// line of its block acts and the lines after the block read as before.
/// Mails whose lines are split by `\\` are not checked (lines and entries
/// would not match one to one).
pub fn blocks_hold(map: &Map, text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let body = parse_body(map, text);
    if body.lines.len() != lines.len() {
        return Ok(());
    }
    for h in 0..body.lines.len() {
        let Some(block) = body.block_of(h) else {
            continue;
        };
        if !lines[h].contains("//") {
            let bad = format!("{} 999 xyzzy", lines[h].trim_end_matches('\r'));
            corrupted(map, &lines, &body, h, &bad, block.clone())?;
        }
        let closed = block.clone().last().is_some_and(|last| {
            let l = &body.lines[last];
            match &body.lines[h].entry {
                Entry::Command(Command::If(_)) => l.entry == Entry::Command(Command::EndIf),
                Entry::Command(c) => c.block().is_some_and(|k| closer(k, &l.text).is_some()),
                _ => false,
            }
        });
        if closed {
            deleted(map, &lines, &body, h, block)?;
        }
    }
    Ok(())
}

fn corrupted(
    map: &Map,
    lines: &[&str],
    body: &Body,
    h: usize,
    bad: &str,
    block: std::ops::Range<usize>,
) -> Result<(), String> {
    let mut changed = lines.to_vec();
    changed[h] = bad;
    let after = parse_body(map, &changed.join("\n"));
    if after.lines.len() != body.lines.len() {
        return Err(format!("corrupting line {} changed the line count", h + 1));
    }
    if !matches!(after.lines[h].entry, Entry::Error { .. }) {
        // The header still reads: nothing to check.
        return Ok(());
    }
    for (i, (was, now)) in body.lines.iter().zip(&after.lines).enumerate() {
        if block.contains(&i) {
            if acts(&now.entry) {
                return Err(format!(
                    "line {} acts although its header, line {}, was refused: {:?}",
                    i + 1,
                    h + 1,
                    now.entry
                ));
            }
        } else if i != h && (was.entry != now.entry || was.phase != now.phase) {
            return Err(format!(
                "line {} outside the block of line {} changed: {:?} became {:?}",
                i + 1,
                h + 1,
                was.entry,
                now.entry
            ));
        }
    }
    Ok(())
}

fn deleted(
    map: &Map,
    lines: &[&str],
    body: &Body,
    h: usize,
    block: std::ops::Range<usize>,
) -> Result<(), String> {
    let mut changed = lines.to_vec();
    changed.remove(h);
    let after = parse_body(map, &changed.join("\n"));
    for i in block.clone() {
        if after.lines.get(i - 1).is_some_and(|l| acts(&l.entry)) {
            return Err(format!(
                "line {} acts although its header, line {}, was deleted: {:?}",
                i + 1,
                h + 1,
                after.lines[i - 1].entry
            ));
        }
    }
    for i in block.end..body.lines.len() {
        let (was, now) = (&body.lines[i], after.lines.get(i - 1));
        if now.is_none_or(|n| unnumbered(&n.entry) != unnumbered(&was.entry)) {
            return Err(format!(
                "line {} after the block of deleted line {} changed",
                i + 1,
                h + 1
            ));
        }
    }
    Ok(())
}
