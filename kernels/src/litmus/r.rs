//! R: store buffering where one thread's load is replaced by a store to the
//! other's location.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 2
//! W y = 1           r0 = R x
//! ```
//!
//! Weak outcome: `y` ends 2 and `r0 = 0`: role 1's store to `y` comes after
//! role 0's in coherence order, yet its later load misses role 0's earlier
//! store to `x`. Nothing reads role 0's `W y = 1`, so no release pattern is
//! observed and acq_rel fences synchronize nothing: as in SB, only two
//! `fence.sc` forbid it.

use layout::litmus::Location::{X, Y};

use super::access::Access;
use super::env::Env;

/// Roles 0 and 1, each for its own instance.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let (x, y) = (env.at(0, X), env.at(0, Y));
    // SAFETY: this instance's locations, in the global window.
    unsafe {
        A::store(x, 1);
        A::fence();
        A::store(y, 1);
    }
    env.between_roles();
    let (y, x) = (env.at(1, Y), env.at(1, X));
    // SAFETY: as above.
    let r0 = unsafe {
        A::store(y, 2);
        A::fence();
        A::load(x)
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe { env.record(1, 0, r0) };
}
