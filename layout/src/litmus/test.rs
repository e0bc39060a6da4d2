//! What the host, the kernels and the checker ask of a [`Test`], each answer
//! read from its [`Definition`](super::Definition).

use super::definition::Role;
use super::op::{Location, Op};
use super::outcome::{BINS, OTHER_BIN, final_bin};
use super::suite::Test;

impl Test {
    /// Its name on the command line and in symbols.
    pub const fn key(self) -> &'static str {
        self.definition().key
    }

    /// Its name in tables.
    pub const fn name(self) -> &'static str {
        self.definition().name
    }

    /// The threads' programs, role by role. Always inlined: the kernels
    /// read it with a constant test, and must get constants
    /// ([`Test::definition`]).
    #[inline(always)]
    pub const fn roles(self) -> &'static [Role] {
        self.definition().roles
    }

    /// Threads per instance.
    pub const fn threads(self) -> u32 {
        self.roles().len() as u32
    }

    /// Registers per instance: the loads.
    pub const fn registers(self) -> u32 {
        let roles = self.roles();
        let mut loads = 0;
        let mut r = 0;
        while r < roles.len() {
            let mut i = 0;
            while i < roles[r].ops.len() {
                if let Op::Load(..) = roles[r].ops[i] {
                    loads += 1;
                }
                i += 1;
            }
            r += 1;
        }
        loads
    }

    /// The locations whose final values are part of the outcome, in
    /// [`Location`]'s order: empty for the tests about loads, whose outcome is
    /// their registers alone; the locations stored twice for the tests about
    /// the order of stores.
    pub const fn finals(self) -> &'static [Location] {
        self.definition().finals
    }

    /// [`Test::finals`] as a bit set, bit `l` for location `l` (`x` = 0).
    pub const fn finals_mask(self) -> u32 {
        let finals = self.finals();
        let mut mask = 0;
        let mut k = 0;
        while k < finals.len() {
            mask |= 1 << finals[k] as u32;
            k += 1;
        }
        mask
    }

    /// Histogram bins this test's outcomes can fall in: the first
    /// [`OTHER_BIN`]` + 1` for a test whose outcome is its registers (so its
    /// recorded histograms keep their 17 bins), all [`BINS`] for one with
    /// final values.
    pub const fn bins(self) -> usize {
        if self.finals().is_empty() { OTHER_BIN + 1 } else { BINS }
    }

    /// The weak outcome, as a histogram bin: register `r`'s value in bit `r`,
    /// or for a test with final values ([`Test::finals`]) the
    /// [`final_bin`] of its registers and final values.
    pub const fn weak(self) -> u32 {
        self.bin(self.definition().weak)
    }

    /// The one outcome a sequential run gives: every role of an instance runs
    /// to its end, in role order, before the next role starts.
    pub const fn sequential(self) -> u32 {
        self.bin(self.definition().sequential)
    }

    /// The bin of an outcome written as a [`Definition`](super::Definition)
    /// writes it: registers, then final values.
    const fn bin(self, values: &[u32]) -> u32 {
        if !self.finals().is_empty() {
            return final_bin(values);
        }
        let mut bin = 0;
        let mut r = 0;
        while r < values.len() {
            bin |= values[r] << r;
            r += 1;
        }
        bin
    }

    /// Whether the test uses `y` at all (CoRR and the three coherence tests of
    /// stores do not).
    pub const fn uses_y(self) -> bool {
        self.uses(Location::Y)
    }

    /// Whether the test uses `z` at all (ISA2, Z6.3 and 3.2W do).
    pub const fn uses_z(self) -> bool {
        self.uses(Location::Z)
    }

    /// Whether some role accesses `location`.
    const fn uses(self, location: Location) -> bool {
        let roles = self.roles();
        let mut r = 0;
        while r < roles.len() {
            let mut i = 0;
            while i < roles[r].ops.len() {
                if roles[r].ops[i].location() as u32 == location as u32 {
                    return true;
                }
                i += 1;
            }
            r += 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_has_one_or_two_accesses_and_flags_point_at_them() {
        for test in Test::ALL {
            for role in test.roles() {
                assert!(!role.ops.is_empty() && role.ops.len() <= 2);
                assert!(u32::from(role.flags) >> role.ops.len() == 0);
            }
        }
    }

    /// The loads of a test write its registers `r0, r1, ...` once each, and
    /// its outcomes give a value to each register (and final value).
    #[test]
    fn the_loads_number_the_registers_and_the_outcomes_fill_them() {
        for test in Test::ALL {
            let mut written = 0u32;
            for role in test.roles() {
                for op in role.ops {
                    if let Op::Load(_, r) = *op {
                        assert_eq!(written & 1 << r, 0, "{}: r{r} loaded twice", test.name());
                        written |= 1 << r;
                    }
                }
            }
            assert_eq!(written, (1 << test.registers()) - 1, "{}", test.name());
            let values = test.registers() as usize + test.finals().len();
            let definition = test.definition();
            assert_eq!(definition.weak.len(), values, "{}", test.name());
            assert_eq!(definition.sequential.len(), values, "{}", test.name());
            assert!(definition.weak.iter().chain(definition.sequential).all(|&v| v <= 2), "{}", test.name());
        }
    }

    #[test]
    fn every_store_writes_1_or_2_and_2_only_where_an_outcome_can_tell() {
        for test in Test::ALL {
            for role in test.roles() {
                for op in role.ops {
                    if let Op::Store(location, value) = *op {
                        assert!(value == 1 || (value == 2 && test.finals().contains(&location)));
                    }
                }
            }
        }
    }

    /// Every test's key and name are its own.
    #[test]
    fn keys_and_names_are_distinct() {
        for (i, a) in Test::ALL.iter().enumerate() {
            for b in &Test::ALL[..i] {
                assert!(a.key() != b.key() && a.name() != b.name(), "{a:?} {b:?}");
            }
        }
    }
}
