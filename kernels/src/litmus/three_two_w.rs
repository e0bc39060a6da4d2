//! 3.2W: three threads, each writing two locations, whose stores chain into
//! a cycle.
//!
//! ```text
//! role 0            role 1            role 2
//! W x = 2           W y = 2           W z = 2
//! W y = 1           W z = 1           W x = 1
//! ```
//!
//! Weak outcome: `x`, `y` and `z` all end 2. On each location the store of
//! value 1 comes second in its thread but lands first in coherence order, so
//! coherence and program order together form a cycle through all three
//! threads. As in 2+2W no load observes anything: acq_rel fences synchronize
//! nothing, and only `fence.sc` in every thread forbids it.

use layout::litmus::Location::{X, Y, Z};

use super::access::Access;
use super::env::Env;

/// Roles 0, 1 and 2, each for its own instance.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let (x, y) = (env.at(0, X), env.at(0, Y));
    // SAFETY: this instance's locations, in the global window.
    unsafe {
        A::store(x, 2);
        A::fence();
        A::store(y, 1);
    }
    env.between_roles();
    let (y, z) = (env.at(1, Y), env.at(1, Z));
    // SAFETY: as above.
    unsafe {
        A::store(y, 2);
        A::fence();
        A::store(z, 1);
    }
    env.between_roles();
    let (z, x) = (env.at(2, Z), env.at(2, X));
    // SAFETY: as above.
    unsafe {
        A::store(z, 2);
        A::fence();
        A::store(x, 1);
    }
}
