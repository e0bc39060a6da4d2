//! Puzzle 8, `histogram-privatized`, a typical wrong answer: every value
//! goes straight to the global histogram. The counts are right; nothing is
//! privatized, and a skewed input hammers one global bin.

use device::order::{AtomicRef, Device, Relaxed};
use device::thread;

/// Counts `input[0..n]` into `bins`, one global atomic per value.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::histogram::PRIVATIZED_PARAMS)]
pub unsafe fn histogram_privatized(input: *const u32, n: usize, bins: *mut u32, num_bins: u32) {
    let _ = num_bins;
    let i = thread::index_1d();
    if i < n {
        // SAFETY: `i < n`, and every value indexes a bin by the contract.
        unsafe { AtomicRef::<u32, Device>::from_global(bins.add(*input.add(i) as usize)).add(1, Relaxed) };
    }
}
