//! The cheapest kernel there is: the yardstick for launch overhead.

/// Does nothing. Timing it measures what every launch costs before any
/// kernel does work: the `bench` command's floor for small inputs.
///
/// # Launch
///
/// Any grid and block; no shared memory; no arguments.
///
/// # Thread mapping
///
/// None.
///
/// # Safety
///
/// None needed; it is `unsafe` only because every kernel entry is.
#[kernel(layout::baseline::EMPTY_PARAMS)]
pub unsafe fn empty() {}
