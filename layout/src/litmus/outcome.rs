//! How one instance's registers (and final values) become a histogram bin,
//! on the GPU and in the host's tests alike: [`outcome_bin`] and
//! [`final_outcome_bin`].

/// Registers stored per instance (the most any test has).
pub const REGISTERS: usize = 4;

/// Histogram bins: one per combination of four 0/1 registers, [`OTHER_BIN`]
/// for a register that holds anything else, and after it, from
/// [`FIRST_FINAL_BIN`], one per outcome of a test with final values
/// ([`final_outcome_bin`]).
pub const BINS: usize = FIRST_FINAL_BIN + FINAL_CODES;

/// The first bin of the tests whose outcome includes final values
/// ([`Test::finals`](super::Test::finals)): the bins below it are the register-only tests'
/// (and [`OTHER_BIN`], which every test shares).
pub const FIRST_FINAL_BIN: usize = OTHER_BIN + 1;

/// The most values (registers, then final values) an outcome with final
/// values may have: each is 0, 1 or 2, a digit of a base-3 code.
pub const FINAL_DIGITS: usize = 3;

/// Codes of [`FINAL_DIGITS`] base-3 digits.
pub const FINAL_CODES: usize = 27;

const _: () = assert!(FINAL_CODES == 3usize.pow(FINAL_DIGITS as u32));

/// The bin of an outcome with final values: `digits` are its registers
/// `r0, r1, ...` and then the final values of [`Test::finals`](super::Test::finals) in order, each
/// 0, 1 or 2, and the bin is [`FIRST_FINAL_BIN`] plus their base-3 code,
/// digit `k` weighing `3^k`. A digit above 2, or more than [`FINAL_DIGITS`]
/// of them, gives [`OTHER_BIN`].
pub const fn final_bin(digits: &[u32]) -> u32 {
    if digits.len() > FINAL_DIGITS {
        return OTHER_BIN as u32;
    }
    let mut code = 0;
    let mut weight = 1;
    let mut k = 0;
    while k < digits.len() {
        if digits[k] > 2 {
            return OTHER_BIN as u32;
        }
        code += digits[k] * weight;
        weight *= 3;
        k += 1;
    }
    FIRST_FINAL_BIN as u32 + code
}

/// The digits of an outcome with final values ([`final_bin`]) back from its
/// bin: `None` for a bin below [`FIRST_FINAL_BIN`] or past [`BINS`].
pub const fn final_digits(bin: usize) -> Option<[u32; FINAL_DIGITS]> {
    if bin < FIRST_FINAL_BIN || bin >= BINS {
        return None;
    }
    let mut code = (bin - FIRST_FINAL_BIN) as u32;
    let mut digits = [0; FINAL_DIGITS];
    let mut k = 0;
    while k < FINAL_DIGITS {
        digits[k] = code % 3;
        code /= 3;
        k += 1;
    }
    Some(digits)
}

/// The bin of an instance with a register that is neither 0 nor 1: a value
/// no thread wrote. It can only mean a bug in the lab.
pub const OTHER_BIN: usize = 16;

/// The histogram bin of one instance's registers, for a test whose outcome is
/// its registers alone: register `r`'s value in bit `r`, or [`OTHER_BIN`].
/// Registers a test does not use stay 0.
pub const fn outcome_bin(registers: [u32; REGISTERS]) -> usize {
    let mut bin = 0;
    let mut r = 0;
    while r < REGISTERS {
        if registers[r] > 1 {
            return OTHER_BIN;
        }
        bin |= (registers[r] as usize) << r;
        r += 1;
    }
    bin
}

/// The histogram bin of one instance of a test with final values
/// ([`Test::finals`](super::Test::finals)): its first `used` registers, then the final values of
/// the locations in `finals_mask` (bit `l` for location `l`, `x`, `y`, `z`
/// in that order) among `finals`, as [`final_bin`]'s digits. A register past
/// `used` that is not 0 (no load wrote it), a value above 2 (no thread
/// stored it), or more digits than [`FINAL_DIGITS`] gives [`OTHER_BIN`].
/// With an empty `finals_mask` it is [`outcome_bin`], so the classifier can
/// call it for every test.
pub const fn final_outcome_bin(registers: [u32; REGISTERS], used: u32, finals: [u32; 3], finals_mask: u32) -> usize {
    if finals_mask == 0 {
        return outcome_bin(registers);
    }
    let mut code = 0;
    let mut weight = 1;
    let mut digits = 0;
    let mut r = 0;
    while r < REGISTERS {
        if (r as u32) < used {
            if registers[r] > 2 {
                return OTHER_BIN;
            }
            code += registers[r] as usize * weight;
            weight *= 3;
            digits += 1;
        } else if registers[r] != 0 {
            return OTHER_BIN;
        }
        r += 1;
    }
    let mut l = 0;
    while l < 3 {
        if finals_mask & (1 << l) != 0 {
            if finals[l] > 2 {
                return OTHER_BIN;
            }
            code += finals[l] as usize * weight;
            weight *= 3;
            digits += 1;
        }
        l += 1;
    }
    if digits > FINAL_DIGITS {
        return OTHER_BIN;
    }
    FIRST_FINAL_BIN + code
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::litmus::Test;

    #[test]
    fn bins_are_register_bits_and_anything_else_is_other() {
        assert_eq!(outcome_bin([1, 0, 0, 0]), 0b01);
        assert_eq!(outcome_bin([1, 0, 1, 0]), 0b0101);
        assert_eq!(outcome_bin([1, 1, 1, 1]), 15);
        assert_eq!(outcome_bin([0, 2, 0, 0]), OTHER_BIN);
        assert_eq!(outcome_bin([u32::MAX, 0, 0, 0]), OTHER_BIN);
    }

    #[test]
    fn final_bins_follow_the_register_bins_and_anything_else_is_other() {
        let none = [0; 3];
        // A register-only test bins as it always has.
        assert_eq!(final_outcome_bin([1, 0, 0, 0], 2, none, 0), 0b01);
        // CoWR: r0, then x's final value.
        assert_eq!(final_outcome_bin([2, 0, 0, 0], 1, [1, 0, 0], 0b001), Test::Cowr.weak() as usize);
        assert_eq!(final_outcome_bin([1, 0, 0, 0], 1, [2, 0, 0], 0b001), Test::Cowr.sequential() as usize);
        // 2+2W: x, then y.
        assert_eq!(final_outcome_bin([0; 4], 0, [1, 1, 0], 0b011), Test::TwoPlusTwoW.weak() as usize);
        // R: r0, then y (x is not part of it, whatever it holds).
        assert_eq!(final_outcome_bin([0, 0, 0, 0], 1, [1, 2, 0], 0b010), Test::R.weak() as usize);
        // A value no thread stored, or a register no load wrote.
        assert_eq!(final_outcome_bin([3, 0, 0, 0], 1, [1, 0, 0], 0b001), OTHER_BIN);
        assert_eq!(final_outcome_bin([0, 0, 0, 0], 1, [7, 0, 0], 0b001), OTHER_BIN);
        assert_eq!(final_outcome_bin([0, 1, 0, 0], 1, [1, 0, 0], 0b001), OTHER_BIN);
        for test in Test::ALL {
            let (weak, sequential) = (test.weak() as usize, test.sequential() as usize);
            assert!(weak < test.bins() && sequential < test.bins() && weak != sequential, "{}", test.name());
            assert!(weak != OTHER_BIN && sequential != OTHER_BIN);
            assert_eq!(test.finals().is_empty(), weak < FIRST_FINAL_BIN, "{}", test.name());
            if !test.finals().is_empty() {
                assert!(test.registers() as usize + test.finals().len() <= FINAL_DIGITS);
                assert_eq!(final_bin(&final_digits(weak).unwrap()), weak as u32, "round trip");
            }
        }
    }
}
