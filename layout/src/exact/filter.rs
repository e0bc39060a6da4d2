//! The `f64` filter in front of the superaccumulator: most floats of a real
//! array are added with one `f64` addition, proved exact as it happens, and
//! only what cannot be added exactly reaches the integer limbs.
//!
//! # Why an `f64` addition is usually exact
//!
//! Every `f32` converts to `f64` exactly, and every sum of `f32`s is an
//! integer number of 2^-149 units. An `f64` holds 53 bits of significand, an
//! `f32` 24: a running sum of floats whose lowest set bits and whose total all
//! lie within a 53-bit window stays exact, addition after addition. Floats
//! drawn from one distribution — a uniform `[0, 1)` with 24-bit resolution,
//! a normal, integers — stay inside such a window for thousands of additions.
//! The integer split ([`Split`]) costs a shift, a sign and a limb index per
//! float and a read-modify-write of that limb; this filter costs one
//! conversion, one addition and the check below.
//!
//! # The check
//!
//! [`is_exact_sum`] decides, after the fact, whether `s = fl(a + b)` is
//! `a + b` exactly, in two subtractions and two comparisons. The proof is the
//! Fast2Sum lemma (Dekker, 1971; Muller et al., *Handbook of Floating-Point
//! Arithmetic*, 2018, §4.3.1): in binary floating point with rounding to
//! nearest, if the exponent of `a` is at least that of `b` (in particular if
//! `|a| ≥ |b|`) and `s = fl(a + b)` does not overflow, then `s − a` is
//! representable, so `fl(s − a) = s − a` exactly. Hence:
//!
//! - If `|a| ≥ |b|`: `fl(s − a) == b` holds exactly when `s − a = b`, that
//!   is when `s = a + b`.
//! - If `|b| > |a|`: the same with the roles swapped, `fl(s − b) == a`.
//! - If `s = a + b` exactly, both differences are representable (they are
//!   `b` and `a`), so both comparisons hold.
//!
//! So the conjunction of the two comparisons is true exactly when the
//! addition was exact, whichever operand is larger, and no comparison of
//! magnitudes is needed. No overflow can occur: sums of fewer than 2^34
//! floats stay below 2^162, far inside `f64`. An infinity or a NaN makes the
//! check fail (`inf − inf` and any comparison with NaN), which is what sends
//! the rare special down the slow path.
//!
//! # What happens when it fails
//!
//! The slow path ([`Filter::add`]) redoes the additions one float at a time.
//! When one is not exact, the running sum — still exact, since every addition
//! before this one was — goes to the limbs ([`Filter::flush`], three
//! [`Split`]s by [`split_f64`]), and the float starts a new running sum. The
//! limbs therefore always hold, with `acc`, the exact sum of every float
//! added, and a normalization every [`ADDS_BETWEEN_NORMALIZATIONS`] limb
//! additions keeps each limb inside 64 bits.

use super::{ADDS_BETWEEN_NORMALIZATIONS, LIMB_BITS, LIMBS, Split, normalize};

/// Whether `s`, the `f64` addition `a + b` rounded to nearest, is the exact
/// sum: `fl(s − a) == b` and `fl(s − b) == a` (the module's proof).
///
/// # Instructions
///
/// Two `sub.f64` and two `setp.eq.f64`, or on the GPU two `DADD` and two
/// `DSETP`; false for any infinity or NaN among `a`, `b`, `s`.
#[inline(always)]
pub fn is_exact_sum(a: f64, b: f64, s: f64) -> bool {
    // `&`, not `&&`: both comparisons are cheap, and a branch between them
    // would split a warp for nothing.
    (s - a == b) & (s - b == a)
}

/// The three [`Split`]s whose addends add up to `v`, a finite sum of `f32`s:
/// an integer number of 2^-149 units, below 2^162 in magnitude.
///
/// `v`'s 53-bit significand `m` sits at `t` units' shift (`v = ±m · 2^t`
/// units). A `v` below 2^-97 has a negative `t`, and then `m`'s low `−t` bits
/// are zero, since `v` is a whole number of units: shifting them out is exact.
/// `m << (t mod 32)` spans at most 84 bits from limb `t / 32` up: its low 32
/// bits go to that limb, the next 32 to the one above and the rest (below
/// 2^20) to the one above that, each addend below 2^33 in magnitude, so
/// each counts as one addition against [`ADDS_BETWEEN_NORMALIZATIONS`] and
/// a sum of many of them in one limb stays far inside 64 bits. Below 2^162,
/// `v` reaches no higher than bit 310 of the 320, so a third limb past the
/// last (limb `t / 32 + 2` when `t / 32` is 8) would receive 0: it is
/// clamped to the last, where adding 0 changes nothing. Branch-free, like
/// [`Split::of`].
#[inline(always)]
pub fn split_f64(v: f64) -> [Split; 3] {
    const MASK: u64 = 0xFFFF_FFFF;
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    // A zero has biased exponent 0 and an all-zero significand; no `f64`
    // subnormal is a whole number of 2^-149 units, so every other `v` is
    // normal and has the hidden bit.
    let normal = (biased != 0) as u64;
    let mut m = (bits & ((1 << 52) - 1)) | (normal << 52);
    // `v = m · 2^(biased − 1075)`, and 2^-149 is one unit: `t = biased − 926`.
    let t = biased - 926;
    let down = (-t).clamp(0, 63);
    m >>= down;
    let t = (t + down).max(0) as u32;
    let (limb, offset) = ((t / LIMB_BITS) as usize, t % LIMB_BITS);
    // `m << offset` in 64-bit halves: `low << offset` is below 2^64 and
    // `high << offset` below 2^53.
    let (low, high) = ((m & MASK) << offset, (m >> 32) << offset);
    let magnitudes = [low & MASK, (low >> 32) + (high & MASK), high >> 32];
    let sign = (bits >> 63) as i64;
    let piece = |k: usize| Split {
        limb: if limb + k < LIMBS { limb + k } else { LIMBS - 1 },
        addend: (magnitudes[k] as i64 ^ -sign) + sign,
        special: 0,
    };
    [piece(0), piece(1), piece(2)]
}

/// Where a [`Filter`]'s flushed sums go: a superaccumulator's limbs, on the
/// CPU an array, on the GPU a thread's slots in shared memory.
pub trait Limbs {
    /// Adds `split.addend` to limb `split.limb` (its `special` is 0).
    fn add(&mut self, split: Split);
    /// Carries each limb's bits above 32 into the next ([`normalize`]).
    fn normalize(&mut self);
}

impl Limbs for [i64; LIMBS] {
    fn add(&mut self, split: Split) {
        // `get_mut`: an out-of-range limb cannot come from `split_f64` or
        // `Split::of`, and the GPU code path must not carry a panic.
        if let Some(limb) = self.get_mut(split.limb) {
            *limb += split.addend;
        }
    }

    fn normalize(&mut self) {
        normalize(self);
    }
}

/// An exact `f64` running sum in front of a superaccumulator: the correctly
/// rounded sum's per-thread state, on the GPU and in the CPU tests alike.
///
/// Invariant: `acc` plus the value of `limbs` is the exact sum of every
/// finite float added, and `specials` holds the [`specials`](super::specials)
/// of the others.
pub struct Filter<L> {
    /// The running sum, exact.
    pub acc: f64,
    /// Where sums that `acc` could not extend exactly went.
    pub limbs: L,
    /// The [`specials`](super::specials) seen, OR-ed together.
    pub specials: u32,
    /// Limb additions since the last normalization.
    adds: u32,
    /// Whether anything was flushed: if not, the limbs are still zero and
    /// `acc` alone is the sum.
    flushed: bool,
}

impl<L: Limbs> Filter<L> {
    /// A filter of sum zero over `limbs`, which must hold zero.
    #[inline(always)]
    pub fn new(limbs: L) -> Self {
        Filter { acc: 0.0, limbs, specials: 0, adds: 0, flushed: false }
    }

    /// Adds four floats: four checked `f64` additions, and only if one was
    /// not exact on some lane (`any` is the warp's vote on the GPU, the
    /// identity on the CPU) the four again through [`Filter::add`]. The
    /// vote keeps the choice uniform across a warp, so no lane waits on
    /// another's slow path unless it is in it too.
    #[inline(always)]
    pub fn add_quad(&mut self, quad: [f32; 4], any: impl Fn(bool) -> bool) {
        let [a, b, c, d] = quad;
        let (a, b, c, d) = (f64::from(a), f64::from(b), f64::from(c), f64::from(d));
        let s1 = self.acc + a;
        let s2 = s1 + b;
        let s3 = s2 + c;
        let s4 = s3 + d;
        let exact =
            is_exact_sum(self.acc, a, s1) & is_exact_sum(s1, b, s2) & is_exact_sum(s2, c, s3) & is_exact_sum(s3, d, s4);
        if any(!exact) {
            // `acc` is untouched until here: the slow path starts from the
            // same exact sum the fast one did.
            let [a, b, c, d] = quad;
            self.add(a);
            self.add(b);
            self.add(c);
            self.add(d);
        } else {
            self.acc = s4;
        }
    }

    /// Adds one float of any kind: an infinity or a NaN to the specials, a
    /// finite float to `acc` if that is exact, and otherwise `acc` to the
    /// limbs and the float in its place.
    #[inline(always)]
    pub fn add(&mut self, x: f32) {
        let special = Split::of(x).special;
        self.specials |= special;
        let x = if special == 0 { f64::from(x) } else { 0.0 };
        let s = self.acc + x;
        if is_exact_sum(self.acc, x, s) {
            self.acc = s;
        } else {
            self.flush(self.acc);
            self.acc = x;
        }
    }

    /// Adds `v`, a finite sum of floats, to the limbs: three limb additions,
    /// after a normalization if they would exceed the limbs' budget.
    #[inline(always)]
    pub fn flush(&mut self, v: f64) {
        if self.adds + 3 > ADDS_BETWEEN_NORMALIZATIONS {
            self.limbs.normalize();
            self.adds = 0;
        }
        let [p, q, r] = split_f64(v);
        self.limbs.add(p);
        self.limbs.add(q);
        self.limbs.add(r);
        self.adds += 3;
        self.flushed = true;
    }

    /// Whether any sum went to the limbs: if not, they hold zero and the
    /// filter's sum is `acc` alone.
    #[inline(always)]
    pub fn flushed(&self) -> bool {
        self.flushed
    }

    /// Moves `acc` into the limbs and normalizes them: the limbs then hold
    /// the exact sum, each but the last in `[0, 2^32)`. Returns the limbs and
    /// the specials.
    #[inline(always)]
    pub fn finish(mut self) -> (L, u32) {
        self.flush(self.acc);
        self.limbs.normalize();
        (self.limbs, self.specials)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::super::{round, sum};
    use super::*;

    const MAX: f32 = f32::MAX;
    const TINY: f32 = f32::from_bits(1);

    /// A small generator for the tests (the crate has no dependencies).
    fn lcg(state: &mut u64) -> u32 {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*state >> 32) as u32
    }

    /// The filter's sum of `values`, as a GPU thread adds them: quads, then
    /// the tail one at a time.
    fn filtered(values: &[f32]) -> f32 {
        let mut filter = Filter::new([0i64; LIMBS]);
        let mut quads = values.chunks_exact(4);
        for quad in &mut quads {
            filter.add_quad([quad[0], quad[1], quad[2], quad[3]], |b| b);
        }
        for &x in quads.remainder() {
            filter.add(x);
        }
        let (limbs, specials) = filter.finish();
        round(&limbs, specials)
    }

    /// The exact sum of two floats' `f64`s, by the limbs, against the check.
    fn exact_by_limbs(a: f32, b: f32) -> bool {
        let s = f64::from(a) + f64::from(b);
        let mut by_floats = [0i64; LIMBS];
        by_floats.add(Split::of(a));
        by_floats.add(Split::of(b));
        normalize(&mut by_floats);
        let mut by_sum = [0i64; LIMBS];
        for split in split_f64(s) {
            by_sum.add(split);
        }
        normalize(&mut by_sum);
        by_floats == by_sum
    }

    #[test]
    fn the_check_agrees_with_the_limbs() {
        let mut state = 7;
        let mut inexact = 0;
        for round in 0..200_000 {
            let a = f32::from_bits(lcg(&mut state));
            // Every other pair shares an exponent neighbourhood, so both
            // outcomes are common.
            let b = if round % 2 == 0 {
                f32::from_bits(lcg(&mut state))
            } else {
                f32::from_bits((a.to_bits() & 0xFF80_0000) ^ (lcg(&mut state) & 0x807F_FFFF))
            };
            if !a.is_finite() || !b.is_finite() {
                continue;
            }
            let s = f64::from(a) + f64::from(b);
            let check = is_exact_sum(f64::from(a), f64::from(b), s);
            assert_eq!(check, exact_by_limbs(a, b), "{a:e} + {b:e}");
            inexact += usize::from(!check);
        }
        assert!(inexact > 10_000, "the test reached the inexact case {inexact} times");
        assert!(!is_exact_sum(1.0, f64::INFINITY, f64::INFINITY));
        assert!(!is_exact_sum(1.0, f64::NAN, f64::NAN));
        assert!(is_exact_sum(0.0, -0.0, 0.0));
    }

    #[test]
    fn split_f64_places_every_bit() {
        // Zero, the extremes of f32, and a value whose significand fills all
        // 53 bits at the bottom of the unit grid.
        let full = f64::from_bits((1023 - 96) << 52 | ((1 << 52) - 1)); // (2^53 − 1) · 2^-149
        // Just below 2^162: limb 8, and a third piece that is 0.
        let top = f64::from_bits((1023 + 161) << 52 | ((1 << 52) - 1));
        assert_eq!(split_f64(top)[2], Split { limb: LIMBS - 1, addend: 0, special: 0 });
        for v in
            [0.0, -0.0, f64::from(TINY), f64::from(-MAX), f64::from(MAX) * 2f64.powi(33), full, -full, top, -top, 1.5]
        {
            let mut limbs = [0i64; LIMBS];
            for split in split_f64(v) {
                assert!(split.addend.unsigned_abs() < 1 << 33, "{v:e}: {split:?}");
                limbs.add(split);
            }
            // Rounded to f32 the pieces give what `v` rounds to.
            let rounded = v as f32;
            assert_eq!(round(&limbs, 0).to_bits(), if rounded == 0.0 { 0 } else { rounded.to_bits() }, "{v:e}");
        }
    }

    #[test]
    fn the_filter_is_exact_on_every_kind_of_array() {
        let mut state = 11;
        let mut arrays: Vec<Vec<f32>> = Vec::new();
        // Random finite bit patterns: almost every addition is inexact.
        arrays.push(
            (0..10_000).map(|_| f32::from_bits(lcg(&mut state))).map(|x| if x.is_finite() { x } else { 1.0 }).collect(),
        );
        // 24-bit uniform [0, 1): every addition exact.
        arrays.push((0..10_000).map(|_| (lcg(&mut state) >> 8) as f32 / 16_777_216.0).collect());
        // Cancellation around large magnitudes, with a small remainder.
        let mut cancel: Vec<f32> = (0..5_000).map(|_| f32::from_bits(lcg(&mut state) & 0x7EFF_FFFF)).collect();
        cancel.extend(cancel.clone().iter().map(|x| -x));
        cancel.push(TINY);
        arrays.push(cancel);
        // Subnormals and normals mixed; the largest floats, past f32's range.
        arrays.push(
            (0..10_000).map(|k| if k % 3 == 0 { f32::from_bits(lcg(&mut state) & 0x00FF_FFFF) } else { 0.1 }).collect(),
        );
        arrays.push(vec![MAX; 4001]);
        let mut overflow_and_back = vec![MAX; 2000];
        overflow_and_back.extend([-MAX; 1999]);
        overflow_and_back.push(1.0);
        arrays.push(overflow_and_back);
        for values in &arrays {
            assert_eq!(filtered(values).to_bits(), sum(values).to_bits());
        }
        // The hard cases of the superaccumulator's own tests.
        let half_ulp = f32::from_bits((127 + 103) << 23);
        for values in [
            &[1e30, 1.0, -1e30][..],
            &[MAX, TINY, -MAX],
            &[16_777_216.0, 1.0, TINY],
            &[16_777_218.0, 1.0],
            &[MAX, half_ulp, -TINY],
            &[MAX, MAX],
            &[1.0, -3.0, 0.5, 0.25, TINY],
        ] {
            assert_eq!(filtered(values).to_bits(), sum(values).to_bits(), "{values:?}");
        }
        assert!(filtered(&[1.0, f32::NAN, 2.0, 3.0]).is_nan());
        assert!(filtered(&[f32::INFINITY, 1.0, 2.0, f32::NEG_INFINITY]).is_nan());
        assert_eq!(filtered(&[f32::INFINITY, -MAX, 2.0, 3.0, 4.0]), f32::INFINITY);
    }
}
