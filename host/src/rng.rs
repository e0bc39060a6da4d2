//! The lab's one random generator, SplitMix64, shared by the generated
//! arrays ([`crate::input`]) and the litmus environment's random draws
//! ([`crate::litmus::environment`]).
//!
//! It is written out here rather than taken from a crate so that every
//! generated array and every drawn environment is defined by this file alone
//! and cannot change with a dependency's version.

/// One step of SplitMix64 (Steele, Lea and Flood, 2014): advances `state` and
/// returns the next 64 random bits.
pub fn splitmix64(state: &mut u64) -> u64 {
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
    fn splitmix64_matches_the_published_sequence() {
        // The first outputs for seed 0, as printed by the reference C code.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
    }
}
