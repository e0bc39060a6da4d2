//! `layout`'s boundary types as the driver sees them: the same bytes, with the
//! marker traits cudarc asks of what it allocates and copies.

use cudarc::driver::{DeviceRepr, ValidAsZeroBits};
use layout::exact::Superaccumulator;
use layout::litmus::Params;
use layout::publish::{Counts, Payload, Slot};
use layout::sum::deterministic::Handoff;

use super::args::Pointee;

/// A `layout` type in device memory. The wrapper exists because the traits
/// are cudarc's and the types are `layout`'s: neither crate can implement one
/// for the other, and `layout` must not depend on a host crate.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default)]
pub struct OnDevice<T>(pub T);

/// Implements both marker traits for `OnDevice<T>`, and names `T` as a
/// kernel parameter's pointee.
macro_rules! plain_bytes {
    ($($t:ty),*) => {$(
        // SAFETY: `$t` is a `#[repr(C)]` struct of 32- and 64-bit integers and
        // floats: plain bytes with the same layout on host and device, for
        // which all-zero bits are a valid value (an empty payload, a slot not
        // yet published, zero counts, an empty accumulator, a handoff with
        // no ticket drawn and no slot full).
        unsafe impl DeviceRepr for OnDevice<$t> {}
        // SAFETY: as above.
        unsafe impl ValidAsZeroBits for OnDevice<$t> {}
        impl Pointee for OnDevice<$t> {
            const NAME: &'static str = stringify!($t);
        }
    )*};
}

plain_bytes!(Slot, Payload, Counts, Superaccumulator, Params, Handoff);
