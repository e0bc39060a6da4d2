//! Statistics over repeated measurements: pure functions, tested here. The
//! host (`host::stats`) and `cargo xtask nvcc-compare` both use them.

#![warn(missing_docs)]

use std::collections::HashSet;

/// The median of `samples` (the mean of the middle two for an even count), or
/// `None` when there are none. NaNs sort last, so they cannot hide a median.
pub fn median(samples: &[f32]) -> Option<f32> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f32::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        len if len % 2 == 1 => Some(sorted[mid]),
        _ => Some((sorted[mid - 1] + sorted[mid]) / 2.0),
    }
}

/// The smallest and largest of `samples` in IEEE total order.
pub fn min_max(samples: &[f32]) -> Option<(f32, f32)> {
    let min = samples.iter().copied().min_by(f32::total_cmp)?;
    let max = samples.iter().copied().max_by(f32::total_cmp)?;
    Some((min, max))
}

/// How many bitwise-distinct values `samples` holds: two sums count as the
/// same only if every bit agrees.
pub fn distinct_bits(samples: &[f32]) -> usize {
    samples.iter().map(|v| v.to_bits()).collect::<HashSet<_>>().len()
}

/// Gigabytes per second for `bytes` moved in `ms` milliseconds (10^9 bytes).
pub fn gb_per_s(bytes: u64, ms: f32) -> f64 {
    bytes as f64 / (f64::from(ms) * 1e-3) / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn median_is_not_pulled_by_one_outlier() {
        assert_eq!(median(&[1.0, 1.0, 1.0, 1.0, 500.0]), Some(1.0));
    }

    #[test]
    fn min_max_and_distinct() {
        assert_eq!(min_max(&[2.0, -1.0, 5.0]), Some((-1.0, 5.0)));
        assert_eq!(min_max(&[]), None);
        assert_eq!(distinct_bits(&[1.0, 1.0, 2.0]), 2);
        assert_eq!(distinct_bits(&[0.0, -0.0]), 2, "signed zeros differ in bits");
    }

    #[test]
    fn bandwidth_of_four_megabytes_in_a_millisecond() {
        assert_eq!(gb_per_s(4_000_000, 1.0), 4.0);
    }
}
