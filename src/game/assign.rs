//! Power assignment at the start of a game: preference lists, the greatest
//! total satisfaction, and ties broken by lot.
//!
//! A player's cost for a power is the number of powers the list names before
//! the group naming it (0 for a first choice); a power the list does not name
//! costs the number of powers in the game, so an unnamed power is always worse
//! than any named one. The assignment minimises the summed cost. Among equally
//! good assignments, players are taken in order of address and each receives, by
//! lot, one of the powers that still allows an optimal total.

use std::collections::HashMap;

use super::house::AssignBy;
use super::model::GameState;
use crate::lots::{Draw, LotError, LotSecret, draw};

/// One player waiting for a power.
#[derive(Clone, Debug)]
pub struct Applicant {
    pub address: String,
    pub preferences: Vec<Vec<String>>,
}

fn cost(a: &Applicant, power: &str, power_count: usize) -> u32 {
    let mut before = 0;
    for group in &a.preferences {
        if group.iter().any(|p| p.eq_ignore_ascii_case(power)) {
            return before;
        }
        before += group.len() as u32;
    }
    power_count as u32
}

struct Solver<'a> {
    applicants: &'a [Applicant],
    powers: &'a [String],
    memo: HashMap<(usize, u64), u32>,
}

impl Solver<'_> {
    /// Least total cost for applicants `k..` with the powers in `used` taken.
    fn best(&mut self, k: usize, used: u64) -> u32 {
        if k == self.applicants.len() {
            return 0;
        }
        if let Some(&c) = self.memo.get(&(k, used)) {
            return c;
        }
        let mut least = u32::MAX;
        for (i, p) in self.powers.iter().enumerate() {
            if used >> i & 1 == 0 {
                let rest = self.best(k + 1, used | 1 << i);
                if rest != u32::MAX {
                    least = least.min(cost(&self.applicants[k], p, self.powers.len()) + rest);
                }
            }
        }
        self.memo.insert((k, used), least);
        least
    }
}

/// `(address, power)` pairs.
pub type Assignment = Vec<(String, String)>;

/// Powers for the players of a forming game, as its master's setting says
/// (njudge's `PRFLIST`, `PRFRAND`, `PRFBOTH`). Under `PRFBOTH`, the players
/// who asked for any power (`SET PREFERENCE *`) are drawn one by lot first,
/// in order of address ("these assignments are made *before* the Judge looks
/// at other players' preference lists"); the others get theirs by list from
/// the powers left.
pub fn assign_players(
    secret: &LotSecret,
    state: &GameState,
    powers: &[String],
) -> Result<(Assignment, Vec<Draw>), LotError> {
    let rule = state.settings.house.assign;
    let mut any: Vec<String> = Vec::new();
    let mut listed = Vec::new();
    for m in state.players() {
        match rule {
            AssignBy::Both if m.any_power => any.push(m.address.clone()),
            // `PRFRAND`: preference lists are not read.
            AssignBy::Random => listed.push(Applicant {
                address: m.address.clone(),
                preferences: Vec::new(),
            }),
            _ => listed.push(Applicant {
                address: m.address.clone(),
                preferences: m.preferences.clone(),
            }),
        }
    }
    any.sort_by_key(|a| a.to_lowercase());
    let mut left = powers.to_vec();
    let (mut result, mut draws) = (Vec::new(), Vec::new());
    for address in any {
        let chosen = match left.as_slice() {
            [] => break,
            [only] => only.clone(),
            _ => {
                let d = draw(secret, &format!("any power for {address}"), &left)?;
                let w = d.winner().to_string();
                draws.push(d);
                w
            }
        };
        left.retain(|p| *p != chosen);
        result.push((address, chosen));
    }
    let (rest, more) = assign_powers(secret, &listed, &left)?;
    result.extend(rest);
    draws.extend(more);
    Ok((result, draws))
}

/// Assigns one power to each applicant (at most as many applicants as powers,
/// at most 64 powers). Returns `(address, power)` pairs and the draws made.
pub fn assign_powers(
    secret: &LotSecret,
    applicants: &[Applicant],
    powers: &[String],
) -> Result<(Assignment, Vec<Draw>), LotError> {
    let mut sorted = applicants.to_vec();
    sorted.sort_by_key(|a| a.address.to_lowercase());
    sorted.truncate(powers.len().min(64));
    let mut solver = Solver {
        applicants: &sorted,
        powers,
        memo: HashMap::new(),
    };
    let mut used = 0u64;
    let mut total = solver.best(0, 0);
    let mut result = Vec::new();
    let mut draws = Vec::new();
    for (k, a) in sorted.iter().enumerate() {
        let choices: Vec<String> = powers
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                used >> i & 1 == 0 && {
                    let rest = solver.best(k + 1, used | 1 << i);
                    rest != u32::MAX && cost(a, p, powers.len()) + rest == total
                }
            })
            .map(|(_, p)| p.clone())
            .collect();
        let chosen = match choices.as_slice() {
            [] => return Err(LotError::NoCandidates),
            [only] => only.clone(),
            _ => {
                let d = draw(secret, &format!("power for {}", a.address), &choices)?;
                let w = d.winner().to_string();
                draws.push(d);
                w
            }
        };
        let index = powers.iter().position(|p| *p == chosen).unwrap_or(0);
        used |= 1 << index;
        total -= cost(a, &chosen, powers.len());
        result.push((a.address.clone(), chosen));
    }
    Ok((result, draws))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(addr: &str, prefs: &[&[&str]]) -> Applicant {
        Applicant {
            address: addr.to_string(),
            preferences: prefs
                .iter()
                .map(|g| g.iter().map(|s| s.to_string()).collect())
                .collect(),
        }
    }

    fn powers(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn first_choices_win_when_they_do_not_clash() {
        let s = LotSecret([1; 32]);
        let apps = [
            app("a", &[&["France"]]),
            app("b", &[&["England"]]),
            app("c", &[&["Italy"]]),
        ];
        let (got, draws) =
            assign_powers(&s, &apps, &powers(&["England", "France", "Italy"])).unwrap();
        assert_eq!(
            got,
            [
                ("a".into(), "France".into()),
                ("b".into(), "England".into()),
                ("c".into(), "Italy".into())
            ]
        );
        assert!(draws.is_empty());
    }

    #[test]
    fn total_satisfaction_beats_first_come() {
        // a likes France then England; b only wants France. Best: b France, a England.
        let s = LotSecret([2; 32]);
        let apps = [
            app("a", &[&["France"], &["England"]]),
            app("b", &[&["France"]]),
        ];
        let (got, _) =
            assign_powers(&s, &apps, &powers(&["England", "France", "Germany"])).unwrap();
        assert_eq!(
            got,
            [
                ("a".into(), "England".into()),
                ("b".into(), "France".into())
            ]
        );
    }

    #[test]
    fn ties_are_drawn_and_every_power_used_once() {
        let s = LotSecret([3; 32]);
        let apps: Vec<_> = ["a", "b", "c", "d"].iter().map(|a| app(a, &[])).collect();
        let ps = powers(&["Austria", "England", "France", "Germany"]);
        let (got, draws) = assign_powers(&s, &apps, &ps).unwrap();
        let mut given: Vec<_> = got.iter().map(|(_, p)| p.clone()).collect();
        given.sort();
        assert_eq!(given, ps);
        // Three real choices (the last player gets what is left).
        assert_eq!(draws.len(), 3);
    }
}
