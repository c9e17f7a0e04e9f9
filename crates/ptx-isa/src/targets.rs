//! The oldest PTX ISA version that may name each `.target`.

use crate::{v, PtxVersion};

/// The oldest `.version` ptxas 13.0.88 accepts with `.target sm_<sm><suffix>`
/// (`suffix` is the `a` of `sm_90a` or the `f` of `sm_100f`), or `None` where
/// not known (then nothing is reported). Found by asking ptxas for every
/// version from 1.0 up: below these it says "PTX .version X does not support
/// .target sm_N".
pub fn target_min_ptx(sm: u32, suffix: Option<char>) -> Option<PtxVersion> {
    let base = match sm {
        10 | 11 => v(1, 0),
        12 | 13 => v(1, 2),
        20 | 21 => v(2, 0),
        30 => v(3, 0),
        35 => v(3, 1),
        32 | 50 => v(4, 0),
        37 | 52 => v(4, 1),
        53 => v(4, 2),
        60..=62 => v(5, 0),
        70 => v(6, 0),
        72 => v(6, 1),
        75 => v(6, 3),
        80 => v(7, 0),
        86 => v(7, 1),
        87 => v(7, 4),
        89 | 90 => v(7, 8),
        100 => v(8, 6),
        103 | 121 => v(8, 8),
        110 => v(9, 0),
        120 => v(8, 7),
        _ => return None,
    };
    match (sm, suffix) {
        (_, None) => Some(base),
        (90, Some('a')) => Some(v(8, 0)),
        (100 | 103 | 120, Some('a')) => Some(base),
        (100, Some('f')) => Some(v(8, 8)),
        _ => None,
    }
}
