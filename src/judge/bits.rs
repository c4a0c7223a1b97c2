//! Fast iteration over a province bitset: two 64-bit halves, whose trailing-zero
//! counts are single instructions (a 128-bit count is not).

use crate::map::{Province, ProvinceSet};

/// The provinces of `set`, in ascending order.
#[inline]
pub(crate) fn each(set: ProvinceSet) -> Each {
    Each {
        lo: set.0 as u64,
        hi: (set.0 >> 64) as u64,
    }
}

pub(crate) struct Each {
    lo: u64,
    hi: u64,
}

impl Iterator for Each {
    type Item = Province;

    #[inline]
    fn next(&mut self) -> Option<Province> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            Some(Province(i as u8))
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            Some(Province(64 + i as u8))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_walks_both_halves_in_order() {
        let set: ProvinceSet = [3, 0, 63, 64, 127, 90].into_iter().map(Province).collect();
        let got: Vec<u8> = each(set).map(|p| p.0).collect();
        assert_eq!(got, [0, 3, 63, 64, 90, 127]);
        assert_eq!(each(ProvinceSet::EMPTY).count(), 0);
    }
}
