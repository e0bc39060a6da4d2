//! The histogram kernels and their limits.

use crate::entry::{Entry, Family, Module, ParamRole, SharedBytes};

/// The most bins the privatized kernel can hold: 48 KiB of shared memory, the
/// per-block default on every GPU since Kepler, at 4 bytes a bin.
pub const MAX_BINS: u32 = 48 * 1024 / size_of::<u32>() as u32;

pub use crate::args::histogram::Arg;

param!(INPUT = input: *const u32 => ParamRole::Histogram(Arg::Input));
param!(N = n: usize => ParamRole::Histogram(Arg::N));
param!(BINS = bins: *mut u32 => ParamRole::Histogram(Arg::Bins));
param!(NUM_BINS = num_bins: u32 => ParamRole::Histogram(Arg::BinCount));
params!(
    /// [`GLOBAL_ATOMIC`]'s parameters.
    pub GLOBAL_PARAMS = [INPUT, N, BINS]
);
params!(
    /// [`PRIVATIZED`]'s parameters: [`GLOBAL_PARAMS`], then its bin count.
    pub PRIVATIZED_PARAMS = [INPUT, N, BINS, NUM_BINS]
);

/// One histogram kernel, counting `input[0..n]` (each below the bin count)
/// into `bins`, one thread per value. Its parameters start `(input: *const
/// u32, n: usize, bins: *mut u32)`; a kernel that must know the bin count
/// takes it last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// What every kernel records.
    pub entry: Entry,
    /// The short name in tables.
    pub short: &'static str,
    /// Dynamic shared memory.
    pub shared: SharedBytes,
}

/// One global atomic per value.
pub const GLOBAL_ATOMIC: Histogram = Histogram {
    entry: Entry {
        symbol: "histogram_global_atomic",
        family: Family::Histogram,
        params: &GLOBAL_PARAMS,
        ptx_has: &["red.global.add.u32"],
        ptx_lacks: &["bar.sync", "red.shared"],
        sass_has: &["REDG.E.ADD"],
        sass_lacks: &["ATOMS"],
        module: Module::Base,
    },
    short: "global",
    shared: SharedBytes::Fixed(0),
};

/// Shared-memory bins per block, then one global atomic per bin per block.
pub const PRIVATIZED: Histogram = Histogram {
    entry: Entry {
        symbol: "histogram_privatized",
        family: Family::Histogram,
        params: &PRIVATIZED_PARAMS,
        ptx_has: &["red.shared.add.u32", "bar.sync", "red.global.add.u32"],
        ptx_lacks: &["atom."],
        // Integer shared atomics are native: no compare-and-swap loop.
        sass_has: &["ATOMS."],
        sass_lacks: &[".CAS"],
        module: Module::Base,
    },
    short: "privatized",
    shared: SharedBytes::PerBin(size_of::<u32>() as u32),
};

/// Both, naive first.
pub const KERNELS: [Histogram; 2] = [GLOBAL_ATOMIC, PRIVATIZED];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_histogram_fills_48_kib() {
        assert_eq!(PRIVATIZED.shared.bytes(256, MAX_BINS), 48 * 1024);
        assert_eq!(GLOBAL_ATOMIC.shared.bytes(256, MAX_BINS), 0);
    }
}
