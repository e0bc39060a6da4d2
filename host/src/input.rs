//! The arrays the kernels sum.
//!
//! Two kinds, for the page's two questions. [`exact`] makes every partial sum
//! an integer-valued float, so any addition order gives the same bits and the
//! check can be `==`. [`inexact`] makes the last bits of a sum depend on the
//! addition order, so the determinism table can show who keeps a fixed order.

use crate::reference::fits_exactly;
use crate::rng::splitmix64;

/// Elements 0, 1, 2, 3, 0, 1, ...: the page's input. Every partial sum of any
/// subset is an integer no larger than `3 * n`, exact in `f32` while
/// [`crate::reference::fits_exactly`] holds.
pub fn exact(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 4) as f32).collect()
}

/// One element in this many, at least, is non-zero in [`sparse_exact`].
pub const SPARSE_STRIDE: usize = 64;

/// The stride of [`sparse_exact`] for `n` elements: [`SPARSE_STRIDE`], doubled
/// until the largest possible sum, `3 * ceil(n / stride)`, is below 2^24. It is
/// 64 up to about 3.6 * 10^8 elements, 256 at 2^30 and 512 at 2^31.
pub const fn sparse_stride(n: usize) -> usize {
    let mut stride = SPARSE_STRIDE;
    while !fits_exactly(n.div_ceil(stride)) {
        stride *= 2;
    }
    stride
}

/// Whether every partial sum of [`sparse_exact`] of `n`
/// elements is an integer below 2^24: always, since its stride grows with
/// `n`; the guard states the rule the bench relies on.
pub const fn fits_exactly_sparse(n: usize) -> bool {
    fits_exactly(n.div_ceil(sparse_stride(n)))
}

/// The largest `n` whose sparse input keeps the first stride, 64.
pub const MAX_SPARSE_N: usize = crate::reference::MAX_EXACT_N * SPARSE_STRIDE;

/// The bench's input for sizes past the dense rule: with `s` the
/// [`sparse_stride`] of `n`, element `i` is `(i / s) % 4` when `i` is a
/// multiple of `s` and 0 otherwise. Every partial sum is an integer of at most
/// `3 * ceil(n / s)`, below 2^24 and so exact in `f32` in any order. The bytes
/// read are the same as for any other values, so the bandwidth measured is the
/// same.
pub fn sparse_exact(n: usize) -> Vec<f32> {
    let stride = sparse_stride(n);
    (0..n).map(|i| if i % stride == 0 { ((i / stride) % 4) as f32 } else { 0.0 }).collect()
}

/// The seed of [`inexact`]. Fixed, so every run and every machine sums the
/// same array.
pub const INEXACT_SEED: u64 = 26;

/// `n` values uniform in `[0, 3)`, each with 24 random significand bits, from
/// SplitMix64 seeded with [`INEXACT_SEED`].
///
/// Most of these values have more significant bits than a running sum in the
/// millions can keep, so every addition rounds and the result depends on the
/// order of the additions. SplitMix64 ([`splitmix64`]) is the lab's own, so
/// the array cannot change with a dependency's version.
pub fn inexact(n: usize) -> Vec<f32> {
    let mut state = INEXACT_SEED;
    (0..n)
        .map(|_| {
            let bits = splitmix64(&mut state) >> 40; // the top 24 bits
            3.0 * (bits as f32 / (1u32 << 24) as f32)
        })
        .collect()
}

/// How histogram input values spread over the bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Distribution {
    /// Values uniform over all bins: contention spread thin.
    Uniform,
    /// Every value in bin 0: every atomic hits one address.
    OneBin,
}

impl Distribution {
    /// The name used on the command line and in tables.
    pub const fn name(self) -> &'static str {
        match self {
            Distribution::Uniform => "uniform",
            Distribution::OneBin => "one-bin",
        }
    }
}

/// `n` bin indices below `bins`, spread as `distribution` says (uniform
/// values from SplitMix64 seeded with [`INEXACT_SEED`]).
pub fn bin_indices(n: usize, bins: u32, distribution: Distribution) -> Vec<u32> {
    match distribution {
        Distribution::OneBin => vec![0; n],
        Distribution::Uniform => {
            let mut state = INEXACT_SEED;
            (0..n).map(|_| (((splitmix64(&mut state) >> 32) * u64::from(bins)) >> 32) as u32).collect()
        }
    }
}

/// The generated inputs of `host accuracy`: each teaches one way a float sum
/// goes wrong. Every one is made by SplitMix64 from a seed, so a seed names
/// the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spread {
    /// Uniform in `[0, 1)`, 24 random bits each: every addition rounds once
    /// the running sum passes 1, and the error grows with n.
    Uniform,
    /// Standard normal (Box-Muller in `f64`, then rounded): mixed signs, a
    /// true sum near zero relative to the terms.
    Normal,
    /// Random signs, magnitudes `2^e · (1 + f)` with `e` uniform in
    /// `[-60, 60]`: the large terms swallow the small ones.
    Wide,
    /// Pairs `b` and `-b` with `|b|` in `[2^20, 2^30)`, placed mirror-wise so
    /// the running sum climbs and falls back, and one element in 32 uniform
    /// in `[0, 1)`: the true sum is those small values, the partial sums are
    /// large.
    Cancel,
    /// Positive values below 2^-124, subnormals included: a kernel that
    /// flushes subnormals to zero loses them.
    Tiny,
}

impl Spread {
    /// Every spread, in the order above.
    pub const ALL: [Spread; 5] = [Spread::Uniform, Spread::Normal, Spread::Wide, Spread::Cancel, Spread::Tiny];

    /// The name used on the command line and in tables.
    pub const fn name(self) -> &'static str {
        match self {
            Spread::Uniform => "uniform",
            Spread::Normal => "normal",
            Spread::Wide => "wide",
            Spread::Cancel => "cancel",
            Spread::Tiny => "tiny",
        }
    }
}

/// `n` values of `spread`, from SplitMix64 seeded with `seed`.
pub fn spread(spread: Spread, n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    let mut bits = || splitmix64(&mut state);
    // A uniform in [0, 1) with 53 random bits.
    let unit = |r: u64| (r >> 11) as f64 / (1u64 << 53) as f64;
    match spread {
        Spread::Uniform => (0..n).map(|_| (bits() >> 40) as f32 / (1u32 << 24) as f32).collect(),
        Spread::Normal => (0..n)
            .map(|_| {
                let (u, v) = (unit(bits()), unit(bits()));
                ((-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
            })
            .collect(),
        Spread::Wide => (0..n)
            .map(|_| {
                let r = bits();
                let exponent = (r % 121) as i32 - 60;
                let fraction = ((r >> 8) & 0x7F_FFFF) as u32;
                let magnitude = f32::from_bits(((127 + exponent) as u32) << 23 | fraction);
                if r >> 63 == 1 { -magnitude } else { magnitude }
            })
            .collect(),
        Spread::Cancel => {
            let small = |r: u64| (r >> 40) as f32 / (1u32 << 24) as f32;
            let mut values = vec![0.0f32; n];
            let big: Vec<usize> = (0..n).filter(|i| i % 32 != 31).collect();
            for (k, &i) in big.iter().enumerate().take(big.len() / 2) {
                let r = bits();
                let magnitude = f32::from_bits(((127 + 20 + (r % 10) as u32) << 23) | ((r >> 8) & 0x7F_FFFF) as u32);
                let b = if r >> 63 == 1 { -magnitude } else { magnitude };
                values[i] = b;
                values[big[big.len() - 1 - k]] = -b;
            }
            if big.len() % 2 == 1 {
                values[big[big.len() / 2]] = small(bits());
            }
            for i in (31..n).step_by(32) {
                values[i] = small(bits());
            }
            values
        }
        // 24 random bits and one: the subnormals and the lowest binade of normals.
        Spread::Tiny => (0..n).map(|_| f32::from_bits(1 + (bits() >> 40) as u32)).collect(),
    }
}

/// `n` floats with random bits, from SplitMix64 seeded with `seed`: every
/// finite `f32` equally likely (infinities and NaNs are drawn again), so every
/// exponent, both signs and the subnormals appear, and sums overflow often. The
/// kind of array no generator of nice data makes.
pub fn random_finite(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            loop {
                let x = f32::from_bits(splitmix64(&mut state) as u32);
                if x.is_finite() {
                    break x;
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sparse_stride_grows_past_the_exact_limit() {
        assert_eq!(sparse_stride(1 << 28), 64);
        assert_eq!(sparse_stride(MAX_SPARSE_N), 64);
        assert_eq!(sparse_stride(MAX_SPARSE_N + 1), 128);
        assert_eq!(sparse_stride(1 << 30), 256);
        assert_eq!(sparse_stride(1 << 31), 512);
    }

    #[test]
    fn sparse_exact_is_zero_except_every_64th() {
        let v = sparse_exact(200);
        assert_eq!((v[0], v[64], v[128], v[192]), (0.0, 1.0, 2.0, 3.0));
        assert_eq!(v.iter().filter(|&&x| x != 0.0).count(), 3);
    }

    #[test]
    fn exact_cycles_through_zero_to_three() {
        assert_eq!(exact(6), [0.0, 1.0, 2.0, 3.0, 0.0, 1.0]);
    }

    #[test]
    fn inexact_is_seeded_in_range_and_not_integer_valued() {
        let a = inexact(10_000);
        assert_eq!(a, inexact(10_000), "same seed, same array");
        assert!(a.iter().all(|&x| (0.0..3.0).contains(&x)));
        let fractional = a.iter().filter(|x| x.fract() != 0.0).count();
        assert!(fractional > 9_900, "only {fractional} of 10000 have a fraction");
    }

    #[test]
    fn bin_indices_stay_below_the_bin_count_and_cover_it() {
        let v = bin_indices(100_000, 7, Distribution::Uniform);
        assert!(v.iter().all(|&b| b < 7));
        assert!((0..7).all(|b| v.contains(&b)));
        assert_eq!(bin_indices(5, 7, Distribution::OneBin), [0; 5]);
    }

    #[test]
    fn spreads_are_seeded_and_shaped_as_documented() {
        for s in Spread::ALL {
            let a = spread(s, 1000, 5);
            assert_eq!(a, spread(s, 1000, 5), "{s:?} is a function of its seed");
            assert_ne!(a, spread(s, 1000, 6), "{s:?} changes with the seed");
            assert!(a.iter().all(|x| x.is_finite()), "{s:?}");
        }
        assert!(spread(Spread::Uniform, 1000, 1).iter().all(|&x| (0.0..1.0).contains(&x)));
        let normal = spread(Spread::Normal, 1000, 1);
        assert!(normal.iter().any(|&x| x < -1.0) && normal.iter().any(|&x| x > 1.0));
        let wide = spread(Spread::Wide, 1000, 1);
        assert!(wide.iter().any(|x| x.abs() < 1e-15) && wide.iter().any(|x| x.abs() > 1e15));
        let tiny = spread(Spread::Tiny, 1000, 1);
        assert!(tiny.iter().all(|&x| x > 0.0 && x < 2f32.powi(-124)));
        assert!(tiny.iter().any(|x| x.is_subnormal()) && tiny.iter().any(|x| x.is_normal()));
        // Cancel: the big terms cancel in pairs, so the exact sum is that of
        // the 32 (at most) small ones, in [0, 32], while the terms reach 2^20.
        let cancel = spread(Spread::Cancel, 1000, 1);
        let exact: f64 = cancel.iter().map(|&x| f64::from(x)).sum();
        assert!(cancel.iter().filter(|x| x.abs() >= 1048576.0).count() > 900);
        assert!((0.0..=32.0).contains(&exact), "{exact}");
    }

    #[test]
    fn random_finite_draws_every_kind_of_float() {
        let values = random_finite(10_000, 4);
        assert!(values.iter().all(|x| x.is_finite()));
        assert!(values.iter().any(|x| x.is_subnormal()) || values.iter().any(|&x| x.abs() < 1e-30));
        assert!(values.iter().any(|&x| x < -1e30) && values.iter().any(|&x| x > 1e30));
        assert_eq!(values, random_finite(10_000, 4));
    }
}
