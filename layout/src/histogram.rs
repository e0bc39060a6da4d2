//! The histogram kernels and their limits.

use crate::registry::{Entry, Family, SharedBytes};

/// The most bins the privatized kernel can hold: 48 KiB of shared memory, the
/// per-block default on every GPU since Kepler, at 4 bytes a bin.
pub const MAX_BINS: u32 = 48 * 1024 / size_of::<u32>() as u32;

/// One histogram kernel: `(input: *const u32, n: usize, bins: *mut u32
/// [, num_bins: u32])`, counting `input[0..n]` (each below the bin count)
/// into `bins`, one thread per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// What every kernel records.
    pub entry: Entry,
    /// The short name in tables.
    pub short: &'static str,
    /// Dynamic shared memory.
    pub shared: SharedBytes,
    /// Whether it takes the bin count as a last argument.
    pub takes_bin_count: bool,
}

/// One global atomic per value.
pub const GLOBAL_ATOMIC: Histogram = Histogram {
    entry: Entry {
        symbol: "histogram_global_atomic",
        family: Family::Histogram,
        ptx_has: &["red.global.add.u32"],
        ptx_lacks: &["bar.sync", "red.shared"],
        sass_has: &["REDG.E.ADD"],
        sass_lacks: &["ATOMS"],
    },
    short: "global",
    shared: SharedBytes::Fixed(0),
    takes_bin_count: false,
};

/// Shared-memory bins per block, then one global atomic per bin per block.
pub const PRIVATIZED: Histogram = Histogram {
    entry: Entry {
        symbol: "histogram_privatized",
        family: Family::Histogram,
        ptx_has: &["red.shared.add.u32", "bar.sync", "red.global.add.u32"],
        ptx_lacks: &["atom."],
        // Integer shared atomics are native: no compare-and-swap loop.
        sass_has: &["ATOMS."],
        sass_lacks: &[".CAS"],
    },
    short: "privatized",
    shared: SharedBytes::PerBin(size_of::<u32>() as u32),
    takes_bin_count: true,
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
