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

/// `x`'s place on the line of all floats, in order: the integer whose
/// difference between two floats counts the floats between them. Both zeros
/// are 0; NaN has no place.
fn ordered(x: f32) -> Option<i64> {
    if x.is_nan() {
        return None;
    }
    let bits = x.to_bits();
    let magnitude = i64::from(bits & 0x7FFF_FFFF);
    Some(if bits >> 31 == 1 { -magnitude } else { magnitude })
}

/// The error of `x` in units in the last place of `reference`: how many
/// floats lie between them, counted along the float line, so 0 when they are
/// equal (or both zero) and 1 for neighbours. Infinity counts as one float
/// past the largest finite one. `None` if either is NaN.
pub fn ulps_between(x: f32, reference: f32) -> Option<u64> {
    Some(ordered(x)?.abs_diff(ordered(reference)?))
}

/// `|x − reference| / |reference|`, in `f64`: `None` if either is NaN or
/// infinite, or if the reference is zero and `x` is not.
pub fn relative_error(x: f32, reference: f32) -> Option<f64> {
    if !x.is_finite() || !reference.is_finite() {
        return None;
    }
    let (x, r) = (f64::from(x), f64::from(reference));
    match (r == 0.0, x == r) {
        (_, true) => Some(0.0),
        (true, false) => None,
        (false, false) => Some((x - r).abs() / r.abs()),
    }
}

/// The median of integer samples (the lower middle one for an even count),
/// or `None` when there are none.
pub fn median_u64(samples: &[u64]) -> Option<u64> {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len().saturating_sub(1) / 2).copied()
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
    fn ulps_count_the_floats_between() {
        assert_eq!(ulps_between(1.0, 1.0), Some(0));
        assert_eq!(ulps_between(1.0 + f32::EPSILON, 1.0), Some(1));
        assert_eq!(ulps_between(0.0, -0.0), Some(0));
        assert_eq!(ulps_between(f32::from_bits(1), -f32::from_bits(1)), Some(2), "across zero");
        assert_eq!(ulps_between(f32::INFINITY, f32::MAX), Some(1));
        assert_eq!(ulps_between(f32::NAN, 1.0), None);
    }

    #[test]
    fn relative_errors_and_their_undefined_cases() {
        assert_eq!(relative_error(1.5, 1.0), Some(0.5));
        assert_eq!(relative_error(0.0, 0.0), Some(0.0));
        assert_eq!(relative_error(1.0, 0.0), None);
        assert_eq!(relative_error(f32::INFINITY, 1.0), None);
    }

    #[test]
    fn integer_median() {
        assert_eq!(median_u64(&[5, 1, 3]), Some(3));
        assert_eq!(median_u64(&[4, 1, 3, 2]), Some(2));
        assert_eq!(median_u64(&[]), None);
    }

    #[test]
    fn bandwidth_of_four_megabytes_in_a_millisecond() {
        assert_eq!(gb_per_s(4_000_000, 1.0), 4.0);
    }
}

/// The 95% Wilson score interval for a proportion: `k` successes in `n`
/// trials. Unlike the normal approximation it stays inside `[0, 1]` and is
/// honest at `k = 0`, where its upper end is `z² / (n + z²)`, about
/// `3.84 / n`: two-sided, so wider than the one-sided rule of three
/// ([`rule_of_three`]). `(0, 1)` when `n` is 0.
pub fn wilson_interval_95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (all, none) = (k == n, k == 0);
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let denominator = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / denominator;
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / denominator;
    // At the ends the interval touches 0 or 1 exactly; rounding would leave
    // a crumb there.
    let low = if none { 0.0 } else { (centre - half).max(0.0) };
    let high = if all { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

/// The rule of three: with no event in `n` independent trials, the 95% upper
/// bound on its probability is about `3 / n`.
pub fn rule_of_three(n: u64) -> f64 {
    if n == 0 { 1.0 } else { 3.0 / n as f64 }
}

#[cfg(test)]
mod interval_tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate_and_matches_known_values() {
        // 10 in 100: the textbook interval is about [0.0552, 0.1744].
        let (lo, hi) = wilson_interval_95(10, 100);
        assert!((lo - 0.0552).abs() < 1e-3 && (hi - 0.1744).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson_interval_95(0, 1_000_000);
        assert_eq!(lo, 0.0);
        assert!((hi * 1e6 - 3.8415).abs() < 1e-3 && hi > rule_of_three(1_000_000), "{hi}");
        assert_eq!(wilson_interval_95(5, 5).1, 1.0);
        assert_eq!(wilson_interval_95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn the_rule_of_three() {
        assert_eq!(rule_of_three(300), 0.01);
        assert_eq!(rule_of_three(0), 1.0);
    }
}
