//! The arrays the kernels sum.
//!
//! Two kinds, for the page's two questions. [`exact`] makes every partial sum
//! an integer-valued float, so any addition order gives the same bits and the
//! check can be `==`. [`inexact`] makes the last bits of a sum depend on the
//! addition order, so the determinism table can show who keeps a fixed order.

/// The largest value [`exact`] produces.
pub const EXACT_MAX: f32 = 3.0;

/// Elements 0, 1, 2, 3, 0, 1, ...: the page's input. Every partial sum of any
/// subset is an integer no larger than `3 * n`, exact in `f32` while
/// [`crate::reference::fits_exactly`] holds.
pub fn exact(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 4) as f32).collect()
}

/// One element in this many is non-zero in [`sparse_exact`].
pub const SPARSE_STRIDE: usize = 64;

/// The bench's input for sizes past the dense rule: element `i` is
/// `(i / 64) % 4` when `i` is a multiple of 64 and 0 otherwise. Every partial
/// sum is an integer of at most `3 * ceil(n / 64)`, exact in `f32` while
/// [`crate::reference::fits_exactly_sparse`] holds (up to about 3.6 * 10^8
/// elements). The bytes read are the same as for any other values, so the
/// bandwidth measured is the same.
pub fn sparse_exact(n: usize) -> Vec<f32> {
    (0..n).map(|i| if i % SPARSE_STRIDE == 0 { ((i / SPARSE_STRIDE) % 4) as f32 } else { 0.0 }).collect()
}

/// The seed of [`inexact`]. Fixed, so every run and every machine sums the
/// same array.
pub const INEXACT_SEED: u64 = 26;

/// `n` values uniform in `[0, 3)`, each with 24 random significand bits, from
/// SplitMix64 seeded with [`INEXACT_SEED`].
///
/// Most of these values have more significant bits than a running sum in the
/// millions can keep, so every addition rounds and the result depends on the
/// order of the additions. SplitMix64 is written out here rather than taken
/// from a crate so that the array is defined by this file alone and cannot
/// change with a dependency's version.
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

/// One step of SplitMix64 (Steele, Lea and Flood, 2014).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn splitmix64_matches_the_published_sequence() {
        // The first outputs for seed 0, as printed by the reference C code.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
    }
}
