//! The superaccumulator: a fixed-point integer wide enough to hold the exact
//! sum of any `f32` array, the way both the GPU's correctly rounded sum and the
//! CPU's exact reference hold it, and the one rounding from it to an `f32`.
//!
//! # Layout
//!
//! Every finite `f32` is an integer multiple of 2^-149, the smallest
//! subnormal, and below 2^128. So is every sum of them. The accumulator holds
//! such a sum as [`LIMBS`] signed 64-bit limbs of weight 2^(32k - 149): its
//! value is `Σ limbs[k] · 2^(32k − 149)`. A float `x` with biased exponent `E`
//! and significand `m` (the hidden bit included, 24 bits) is `m · 2^s` units
//! of 2^-149, with `s = max(E, 1) − 1` from 0 to 253 ([`Split`]). Added as
//! `m << (s mod 32)` to limb `s / 32`, it touches one limb and adds less than
//! 2^56 to it, so a limb can take 127 additions before its 64 bits could
//! overflow. [`normalize`] then moves each limb's bits above 32 into the next
//! limb, after which every limb but the last is below 2^32 in magnitude, and
//! the next 127 additions are safe again. The last limb, 2^139 and up, only
//! receives carries: an exact sum reaches it only past 2^128 · 2^11, which
//! 2^31 floats cannot pass by more than 2^31 of its units.
//!
//! Integer addition is associative, so limbs added in any order, by any
//! number of threads, with atomics or without, give the same bits: the sum is
//! reproducible before it is even rounded.
//!
//! # Rounding
//!
//! [`round`] carries the limbs into one two's-complement integer, takes its
//! magnitude, and rounds to the nearest `f32`, ties to even, once. An exact
//! zero is `+0.0` (the sign of zero is not kept). A sum whose magnitude rounds
//! past the largest finite `f32` is an infinity. Infinities and NaNs in the
//! input are not in the limbs; they are recorded as [`specials`] bits and
//! decide the result as IEEE addition would: any NaN, or both infinities, give
//! NaN; one kind of infinity gives that infinity.

mod filter;

pub use filter::{Filter, Limbs, is_exact_sum, split_f64};

/// Limbs in the accumulator: 2^-149 up to 2^171, 320 bits.
pub const LIMBS: usize = 10;

/// Bits of each limb's weight step: limb `k` weighs 2^(32k − 149).
pub const LIMB_BITS: u32 = 32;

/// Additions of [`Split::addend`] a limb takes safely after [`normalize`]:
/// each adds less than 2^56 to a limb below 2^32, and 2^32 + 127 · 2^56 is
/// below 2^63.
pub const ADDS_BETWEEN_NORMALIZATIONS: u32 = 127;

/// Infinities and NaNs seen, as bits of a `u32` (OR them together).
pub mod specials {
    /// A NaN was seen.
    pub const NAN: u32 = 1;
    /// `+inf` was seen.
    pub const POS_INF: u32 = 2;
    /// `-inf` was seen.
    pub const NEG_INF: u32 = 4;
}

/// One `f32`, as what it adds to the accumulator: `addend` to limb `limb`,
/// and `special` OR-ed into the [`specials`].
///
/// Every float has all three. A finite float has `special` 0; an infinity or
/// a NaN has `addend` 0 (and limb 0). Computing all three for every float,
/// rather than branching on the rare special, keeps the GPU's hot loop free
/// of divergence and convergence barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// Which limb: `s / 32`.
    pub limb: usize,
    /// `±m << (s mod 32)`, below 2^56 in magnitude (0 for a zero, an
    /// infinity or a NaN).
    pub addend: i64,
    /// The [`specials`] bit of an infinity or a NaN, else 0.
    pub special: u32,
}

impl Split {
    /// Where `x` goes. Written without branches on the data: subnormals and
    /// normals, and both signs, mix freely in real arrays, and a mispredicted
    /// or divergent branch per float would cost more than the arithmetic.
    #[inline(always)]
    pub const fn of(x: f32) -> Split {
        let bits = x.to_bits();
        // An infinity or a NaN goes through the finite split too (its
        // exponent field, 255, gives a shift of 254 and a harmless addend);
        // multiplying by `finite` then zeroes what it would add.
        let finite = (bits & 0x7F80_0000 != 0x7F80_0000) as u32;
        let split = Split::of_finite(x);
        // NaN if the fraction is non-zero, else the infinity of the sign.
        let kind = if bits & 0x007F_FFFF != 0 { specials::NAN } else { specials::POS_INF << (bits >> 31) };
        Split { limb: split.limb * finite as usize, addend: split.addend * finite as i64, special: kind * (1 - finite) }
    }
}

impl Split {
    /// [`Split::of`] for a float known to be finite: the same limb and
    /// addend, in fewer operations, for a loop that has checked a whole batch
    /// of floats for infinities and NaNs at once.
    #[inline(always)]
    pub const fn of_finite(x: f32) -> Split {
        let bits = x.to_bits();
        let biased = (bits >> 23) & 0xFF;
        let normal = (biased != 0) as u32;
        let magnitude = (((bits & 0x007F_FFFF) | (normal << 23)) as i64) << ((biased - normal) % LIMB_BITS);
        let sign = (bits >> 31) as i64;
        Split { limb: ((biased - normal) / LIMB_BITS) as usize, addend: (magnitude ^ -sign) + sign, special: 0 }
    }

    /// Whether `x` is an infinity or a NaN.
    #[inline(always)]
    pub const fn is_special(x: f32) -> bool {
        x.to_bits() & 0x7F80_0000 == 0x7F80_0000
    }
}

/// Moves every limb's bits above its low 32 into the next limb, keeping the
/// value: afterwards every limb but the last is in `[0, 2^32)`.
#[inline(always)]
pub fn normalize(limbs: &mut [i64; LIMBS]) {
    let mut k = 0;
    while k + 1 < LIMBS {
        let carry = limbs[k] >> LIMB_BITS;
        limbs[k] -= carry << LIMB_BITS;
        limbs[k + 1] += carry;
        k += 1;
    }
}

/// Words of the carried integer: the limbs' 320 bits, one word of sign and one
/// of padding, so that the magnitude of any sum fits below the top.
const WORDS: usize = LIMBS + 2;

/// The sum that the infinities and NaNs of `specials` decide, as IEEE addition
/// would: NaN for a NaN or for both infinities, else the one infinity seen;
/// `None` when every float was finite.
#[inline(always)]
fn special_sum(specials: u32) -> Option<f32> {
    if specials & specials::NAN != 0 || specials & (specials::POS_INF | specials::NEG_INF) == 6 {
        Some(f32::NAN)
    } else if specials & specials::POS_INF != 0 {
        Some(f32::INFINITY)
    } else if specials & specials::NEG_INF != 0 {
        Some(f32::NEG_INFINITY)
    } else {
        None
    }
}

/// The limbs carried into 32-bit words of one two's-complement integer, and
/// whether it is negative. Each limb is split before its carry is added, so
/// no step can overflow: the low half is below 2^32, the carry below 2^32 in
/// magnitude.
#[inline(always)]
fn carried(limbs: &[i64; LIMBS]) -> ([u32; WORDS], bool) {
    let mut words = [0u32; WORDS];
    let mut carry: i64 = 0;
    let mut k = 0;
    while k < LIMBS {
        let low = (limbs[k] & 0xFFFF_FFFF) + carry;
        words[k] = low as u32;
        carry = (limbs[k] >> LIMB_BITS) + (low >> LIMB_BITS);
        k += 1;
    }
    words[LIMBS] = carry as u32;
    words[LIMBS + 1] = (carry >> 32) as u32;
    (words, carry < 0)
}

/// The exact sum held in `limbs`, with the infinities and NaNs of `specials`,
/// rounded once to the nearest `f32`, ties to even.
///
/// The limbs may be in any state a sum of [`Split::addend`]s leaves them in,
/// normalized or not, as long as no limb overflowed: `|limbs[k]| < 2^63`.
///
/// Every array index below is a constant once the loops unroll, and every
/// choice of a word is a select, not an index: on the GPU, where the last
/// block's one thread runs this, the words stay in registers (an index that
/// depends on the data would put them in local memory, a round trip for each
/// word read).
pub fn round(limbs: &[i64; LIMBS], specials: u32) -> f32 {
    if let Some(special) = special_sum(specials) {
        return special;
    }
    let (mut words, negative) = carried(limbs);
    // The magnitude: invert and add one, without a branch (`flip` is all ones
    // for a negative sum, else zero, and `add` starts at its low bit). The sum
    // is below 2^(320+31), so the top word is the sign's alone and the
    // magnitude fits below it.
    let flip = 0u32.wrapping_sub(negative as u32);
    let mut add = negative as u64;
    let mut w = 0;
    while w < WORDS {
        let v = (words[w] ^ flip) as u64 + add;
        words[w] = v as u32;
        add = v >> 32;
        w += 1;
    }
    let sign = (negative as u32) << 31;

    // From the top down: the highest non-zero word `t`, the 64 bits `head`
    // of words `t` and `t − 1`, and whether any word below those is non-zero.
    // Each step selects; none indexes by a value.
    let (mut found, mut t, mut head, mut sticky) = (false, 0u32, 0u64, false);
    let mut w = WORDS;
    while w > 0 {
        w -= 1;
        let here = words[w];
        let below = if w > 0 { words[w - 1] } else { 0 };
        // Below the head once the head's two words are behind: the head was
        // found at a word above `w + 1`.
        sticky |= found && t > w as u32 + 1 && here != 0;
        let first = !found && here != 0;
        if first {
            t = w as u32;
            head = ((here as u64) << 32) | below as u64;
        }
        found |= first;
    }
    if !found {
        return f32::from_bits(0);
    }

    // The highest set bit, `top`, counted from 2^-149: bit 63 of `head` is bit
    // 32t + 31 of the sum.
    let lead = head.leading_zeros();
    let top = 32 * t + 31 - lead;
    if top < 24 {
        // Below 2^24 units (so `t` is 0 and `head` is word 0 alone): an exact
        // subnormal or the smallest normals, bits `q` at shift 0.
        return f32::from_bits(sign | (head >> 32) as u32);
    }
    // Keep 24 bits from `shift = top − 23` up; round on the bits below. `m`
    // is the head with its top bit at bit 63: the kept bits are its top 24,
    // the guard bit is bit 39, and what lies below (the rest of `m`, and the
    // words under the head) is sticky. An `f32` whose significand is `q`
    // (hidden bit included) and whose lowest bit weighs 2^(shift − 149) has
    // the bit pattern `(shift << 23) + q`: that covers normals and a round-up
    // that carries into the exponent.
    let shift = top - 23;
    let m = head << lead;
    let q = m >> 40;
    let guard = (m >> 39) & 1 == 1;
    let sticky = sticky || m & ((1 << 39) - 1) != 0;
    let round_up = guard && (sticky || q & 1 == 1);
    let magnitude = ((shift as u64) << 23) + q + round_up as u64;
    let magnitude = if magnitude >= 0x7F80_0000 { 0x7F80_0000 } else { magnitude as u32 };
    f32::from_bits(sign | magnitude)
}

/// Independent accumulators [`sum`] rotates through; a group of this many
/// floats is also the unit it checks for infinities and NaNs. Consecutive
/// floats of similar magnitude hit the same limb: with one accumulator every
/// addition would wait for the previous one's store, and eight break that
/// chain.
const LANES: usize = 8;

/// The exact sum of `values`, rounded once to the nearest `f32`, ties to even:
/// the CPU reference (`host::exact`), on one core.
pub fn sum(values: &[f32]) -> f32 {
    let mut limbs = [[0i64; LIMBS]; LANES];
    let mut specials = 0u32;
    // Each lane's limbs take ADDS_BETWEEN_NORMALIZATIONS additions between
    // normalizations; a block gives each lane that many.
    let block = LANES * ADDS_BETWEEN_NORMALIZATIONS as usize;
    for chunk in values.chunks(block) {
        let mut groups = chunk.chunks_exact(LANES);
        for group in &mut groups {
            // Infinities and NaNs are rare: checking the whole group first
            // lets the common, finite case use the shorter split.
            let finite = !group.iter().any(|&x| Split::is_special(x));
            for (lane, &x) in group.iter().enumerate() {
                let split = if finite { Split::of_finite(x) } else { Split::of(x) };
                limbs[lane][split.limb] += split.addend;
                specials |= split.special;
            }
        }
        for &x in groups.remainder() {
            let split = Split::of(x);
            limbs[0][split.limb] += split.addend;
            specials |= split.special;
        }
        for lane in &mut limbs {
            normalize(lane);
        }
    }
    // Normalized lanes hold limbs below 2^32 (the last far below 2^63 / 8),
    // so their sum cannot overflow.
    let mut total = [0i64; LIMBS];
    for lane in &limbs {
        for (t, l) in total.iter_mut().zip(lane) {
            *t += l;
        }
    }
    round(&total, specials)
}

/// The accumulator in global memory that the GPU's correctly rounded sum
/// adds into, with its last-block ticket. Zero before the first launch; each
/// launch leaves it zero.
///
/// Each word lies alone in [`WORD_SPACING`] bytes. Every block of a launch
/// sends its two or three limb atomics and its ticket here at about the same
/// time as the others (not measured). With the words side by side, a
/// block's second atomic cost as much as if it waited behind every block's
/// first; that fits the L2 serving atomics to nearby addresses one after
/// another, a reading the measurements fit but did not test directly.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Superaccumulator {
    /// The limbs, added to with 64-bit integer atomics.
    pub limbs: [SpacedLimb; LIMBS],
    /// The [`specials`] seen, OR-ed in.
    pub specials: SpacedWord,
    /// Blocks that have added their limbs: the one that draws
    /// `gridDim.x − 1` rounds.
    pub ticket: SpacedWord,
}

impl crate::Pointee for Superaccumulator {
    const NAME: &'static str = "Superaccumulator";
}

/// Bytes from one word of a [`Superaccumulator`] to the next. On the H200,
/// two atomics a block to words 128 bytes apart cost a launch of 2^20 floats
/// as much as two to one word, and to words 4 KB apart little more than one
/// (the optimisation history's rows on the end of a launch).
pub const WORD_SPACING: usize = 4096;

/// A word of a [`Superaccumulator`] and the zeros that keep the next word
/// [`WORD_SPACING`] bytes away; explicit, so that the struct has no padding
/// bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spaced<T, const PAD: usize> {
    /// The word.
    pub value: T,
    /// Zero.
    pub pad: [T; PAD],
}

/// A limb of a [`Superaccumulator`], alone in its [`WORD_SPACING`] bytes.
pub type SpacedLimb = Spaced<i64, { WORD_SPACING / 8 - 1 }>;

/// A 32-bit word of a [`Superaccumulator`], alone in its [`WORD_SPACING`] bytes.
pub type SpacedWord = Spaced<u32, { WORD_SPACING / 4 - 1 }>;

impl<T: Copy + Default, const PAD: usize> Default for Spaced<T, PAD> {
    fn default() -> Self {
        Spaced { value: T::default(), pad: [T::default(); PAD] }
    }
}

const _: () = assert!(size_of::<Superaccumulator>() == (LIMBS + 2) * WORD_SPACING);
const _: () = assert!(core::mem::offset_of!(Superaccumulator, ticket) == (LIMBS + 1) * WORD_SPACING);

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounding as it was first written, reading the carried words by
    /// computed index: a second model for [`round`] on limb states that no
    /// array of floats reaches quickly.
    mod words_model {
        use super::super::{LIMBS, WORDS, carried, special_sum};

        /// [`super::super::round`], with every word read by computed index;
        /// `WORDS` leaves a 24-bit window starting anywhere below the top room.
        pub(super) fn round_by_words(limbs: &[i64; LIMBS], specials: u32) -> f32 {
            // The specials and the carry are `round`'s own; the model differs
            // from here on, where it reads words by computed index.
            if let Some(special) = special_sum(specials) {
                return special;
            }
            let (mut words, negative) = carried(limbs);
            if negative {
                // The magnitude: invert and add one. The sum is below 2^(320+31), so
                // the top word is the sign's alone and the magnitude fits below it.
                let mut add = 1u64;
                let mut w = 0;
                while w < WORDS {
                    let v = (!words[w]) as u64 + add;
                    words[w] = v as u32;
                    add = v >> 32;
                    w += 1;
                }
            }
            let sign = if negative { 1u32 << 31 } else { 0 };

            // The highest set bit, `top`, counted from 2^-149.
            let mut w = WORDS;
            while w > 0 && word(&words, w - 1) == 0 {
                w -= 1;
            }
            if w == 0 {
                return f32::from_bits(0);
            }
            let top = 32 * (w as u32 - 1) + (31 - word(&words, w - 1).leading_zeros());

            // Keep 24 bits from `shift` up; round on the bits below. An `f32` whose
            // significand is `q` (hidden bit included) and whose lowest bit weighs
            // 2^(shift − 149) has the bit pattern `(shift << 23) + q`: that covers
            // subnormals (shift 0), normals, and a round-up that carries into the
            // exponent.
            let shift = top.saturating_sub(23);
            let q = window(&words, shift) & 0x00FF_FFFF;
            let round_up = if shift == 0 {
                false
            } else {
                let guard = bit(&words, shift - 1);
                let sticky = any_below(&words, shift - 1);
                guard && (sticky || q & 1 == 1)
            };
            let magnitude = ((shift as u64) << 23) + q as u64 + round_up as u64;
            let magnitude = if magnitude >= 0x7F80_0000 { 0x7F80_0000 } else { magnitude as u32 };
            f32::from_bits(sign | magnitude)
        }

        /// Word `w` of `words`, 0 past the end. Reading through this rather than
        /// indexing keeps a bounds check's panic path out of the GPU code, where the
        /// same function rounds the kernel's result.
        fn word(words: &[u32; WORDS], w: usize) -> u32 {
            words.get(w).copied().unwrap_or(0)
        }

        /// The 32 bits of `words` from bit `from` up.
        fn window(words: &[u32; WORDS], from: u32) -> u32 {
            let w = (from / 32) as usize;
            let pair = ((word(words, w + 1) as u64) << 32) | word(words, w) as u64;
            (pair >> (from % 32)) as u32
        }

        /// Bit `at` of `words`.
        fn bit(words: &[u32; WORDS], at: u32) -> bool {
            (word(words, (at / 32) as usize) >> (at % 32)) & 1 == 1
        }

        /// Whether any bit of `words` below bit `at` is set.
        fn any_below(words: &[u32; WORDS], at: u32) -> bool {
            let (w, offset) = ((at / 32) as usize, at % 32);
            if word(words, w) & ((1u32 << offset) - 1) != 0 {
                return true;
            }
            let mut below = 0;
            while below < w {
                if word(words, below) != 0 {
                    return true;
                }
                below += 1;
            }
            false
        }
    }

    const MAX: f32 = f32::MAX;
    const TINY: f32 = f32::from_bits(1);

    #[test]
    fn round_agrees_with_the_word_model_on_every_kind_of_limb_state() {
        // Limb states no float array reaches quickly: unnormalized limbs up to
        // 2^62 of either sign, sparse limbs (one or two non-zero, so the top
        // word, the guard and the sticky bits fall everywhere), ties built on
        // purpose, sums near the largest float and in the subnormals.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for case in 0..400_000u32 {
            let mut limbs = [0i64; LIMBS];
            match case % 6 {
                0 => limbs.iter_mut().for_each(|l| *l = (next() as i64) >> 2),
                1 => limbs.iter_mut().for_each(|l| *l = (next() as i64) >> (2 + next() % 62)),
                2 => {
                    let k = (next() % LIMBS as u64) as usize;
                    limbs[k] = (next() as i64) >> (1 + next() % 63);
                }
                3 => {
                    let (a, b) = ((next() % LIMBS as u64) as usize, (next() % LIMBS as u64) as usize);
                    limbs[a] = (next() as i64) >> (1 + next() % 63);
                    limbs[b] += (next() as i64) >> (1 + next() % 63);
                }
                4 => {
                    // A tie or its neighbours: 24 bits, then a guard bit, then
                    // zeros or one low bit, anywhere.
                    let at = next() % 280;
                    let q = (next() & 0xFF_FFFF) | 0x80_0000;
                    let bit = |b: u64| -> [i64; LIMBS] {
                        let mut l = [0i64; LIMBS];
                        l[(b / 32) as usize] = 1i64 << (b % 32);
                        l
                    };
                    for i in 0..24 {
                        if q >> i & 1 == 1 {
                            let b = bit(at + 1 + i);
                            limbs.iter_mut().zip(b).for_each(|(l, b)| *l += b);
                        }
                    }
                    let b = bit(at);
                    limbs.iter_mut().zip(b).for_each(|(l, b)| *l += b);
                    if next() % 2 == 0 && at > 0 {
                        let b = bit(next() % at);
                        limbs.iter_mut().zip(b).for_each(|(l, b)| *l += b);
                    }
                    if next() % 2 == 0 {
                        limbs.iter_mut().for_each(|l| *l = -*l);
                    }
                }
                _ => {
                    // Around 2^128 (limb 8 holds 2^107 and up) and in the
                    // subnormals (limb 0 below 2^24).
                    if next() % 2 == 0 {
                        limbs[8] = (0xFFFF_FF00_0000_0000u64 >> (next() % 24)) as i64 >> 22;
                        limbs[7] = (next() as i64) >> (next() % 63);
                    } else {
                        limbs[0] = (next() % (1 << 25)) as i64 * if next() % 2 == 0 { 1 } else { -1 };
                    }
                }
            }
            let specials = if case % 97 == 0 { (next() % 8) as u32 } else { 0 };
            let (fast, slow) = (round(&limbs, specials), words_model::round_by_words(&limbs, specials));
            assert_eq!(fast.to_bits(), slow.to_bits(), "{limbs:?} {specials}: {fast:e} vs {slow:e}");
        }
    }

    #[test]
    fn split_places_the_significand_by_exponent() {
        let finite = |limb, addend| Split { limb, addend, special: 0 };
        assert_eq!(Split::of(0.0), finite(0, 0));
        assert_eq!(Split::of(-0.0), finite(0, 0));
        assert_eq!(Split::of(TINY), finite(0, 1));
        // 1.0 = 2^23 · 2^-23 = 2^23 · 2^126 units: s = 126, limb 3, offset 30.
        assert_eq!(Split::of(1.0), finite(3, (1 << 23) << 30));
        assert_eq!(Split::of(-1.0), finite(3, -((1 << 23) << 30)));
        let special = |special| Split { limb: 0, addend: 0, special };
        assert_eq!(Split::of(f32::INFINITY), special(specials::POS_INF));
        assert_eq!(Split::of(f32::NEG_INFINITY), special(specials::NEG_INF));
        assert_eq!(Split::of(f32::NAN), special(specials::NAN));
        assert_eq!(Split::of(-f32::NAN), special(specials::NAN));
    }

    #[test]
    fn the_finite_split_agrees_with_the_general_one() {
        let mut state = 3u32;
        for _ in 0..100_000 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let x = f32::from_bits(state);
            if Split::is_special(x) {
                assert!(!x.is_finite());
            } else {
                assert_eq!(Split::of_finite(x), Split::of(x), "{x:e}");
            }
        }
    }

    #[test]
    fn one_value_rounds_to_itself() {
        for x in [1.0f32, -1.0, 3.5, TINY, -TINY, f32::MIN_POSITIVE, MAX, -MAX, 1e-40, 6.0e23, 0.1] {
            assert_eq!(sum(&[x]).to_bits(), x.to_bits(), "{x}");
        }
        assert_eq!(sum(&[0.0]).to_bits(), 0);
        assert_eq!(sum(&[-0.0]).to_bits(), 0, "an exact zero is +0.0");
    }

    #[test]
    fn hard_cases() {
        // Cancellation leaves the small term exactly.
        assert_eq!(sum(&[1e30, 1.0, -1e30]), 1.0);
        assert_eq!(sum(&[MAX, TINY, -MAX]), TINY);
        // 2^24 + 1 is a tie: to even, 2^24. 2^24 + 1 + tiny is past it.
        assert_eq!(sum(&[16_777_216.0, 1.0]), 16_777_216.0);
        assert_eq!(sum(&[16_777_216.0, 1.0, TINY]), 16_777_218.0);
        assert_eq!(sum(&[16_777_218.0, 1.0]), 16_777_220.0, "a tie rounds to the even significand");
        // Subnormals add exactly and cross into the normals.
        assert_eq!(sum(&[f32::from_bits(0x007F_FFFF), TINY]), f32::MIN_POSITIVE);
        // The largest values: MAX + MAX overflows; MAX + half an ulp is a tie
        // that rounds up, to infinity; just below it stays MAX.
        assert_eq!(sum(&[MAX, MAX]), f32::INFINITY);
        assert_eq!(sum(&[-MAX, -MAX]), f32::NEG_INFINITY);
        let half_ulp = f32::from_bits((127 + 103) << 23); // 2^103
        assert_eq!(sum(&[MAX, half_ulp]), f32::INFINITY);
        assert_eq!(sum(&[MAX, half_ulp, -TINY]), MAX);
        // Mixed signs, sum negative.
        assert_eq!(sum(&[1.0, -3.0, 0.5]), -1.5);
        // Specials decide the result as IEEE addition does.
        assert!(sum(&[1.0, f32::NAN]).is_nan());
        assert!(sum(&[f32::INFINITY, f32::NEG_INFINITY]).is_nan());
        assert_eq!(sum(&[f32::INFINITY, -MAX]), f32::INFINITY);
        assert_eq!(sum(&[]), 0.0);
    }

    #[test]
    fn many_additions_do_not_overflow_a_limb() {
        // A thousand of the largest float add about 2^63 to one limb: only
        // the normalizations between them keep it from overflowing.
        let mut values = [MAX; 2000];
        values[1000..1999].fill(-MAX);
        values[1999] = 1.0;
        assert_eq!(sum(&values), MAX, "MAX + 1 rounds to MAX");
    }
}
