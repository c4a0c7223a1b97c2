//! Every player's map must differ from every other (rule 2). Two maps are the
//! same when they give exactly the same army and fleet borders: drawn
//! differently or not, they allow the same moves.

use crate::map::Map;

use super::error::DesignError;

/// Do the two maps give the same borders?
pub fn same_borders(a: &Map, b: &Map) -> bool {
    let army = |m: &Map| {
        let mut v = m.army_borders();
        v.sort();
        v
    };
    let fleet = |m: &Map| {
        let mut v: Vec<_> = m
            .fleet_borders()
            .into_iter()
            .map(|(x, y)| if x <= y { (x, y) } else { (y, x) })
            .collect();
        v.sort();
        v
    };
    army(a) == army(b) && fleet(a) == fleet(b)
}

/// Checks a map against the other players' maps. The error does not say
/// whose map it matches: no map is ever disclosed (rule 4.3).
pub fn distinct(candidate: &Map, others: &[&Map]) -> Result<(), DesignError> {
    if others.iter().any(|o| same_borders(candidate, o)) {
        return Err(DesignError::NotDistinct);
    }
    Ok(())
}
