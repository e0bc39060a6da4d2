//! 2+2W: two threads each writing both locations, in opposite orders.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 1
//! W y = 2           W x = 2
//! ```
//!
//! Weak outcome: `x` and `y` both end 1: each thread's second store is
//! coherence-before the other thread's first, so on each location the
//! stores land in the order opposite to some thread's program order. No
//! load observes anything, so acq_rel fences synchronize nothing; only two
//! `fence.sc`, which are totally ordered, forbid it.

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
        A::store(y, 2);
    }
    env.between_roles();
    let (x, y) = (env.at(1, X), env.at(1, Y));
    // SAFETY: as above.
    unsafe {
        A::store(y, 1);
        A::fence();
        A::store(x, 2);
    }
}
