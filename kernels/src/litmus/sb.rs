//! SB, store buffering: each thread stores, then loads the other's location.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 1
//! r0 = R y          r1 = R x
//! ```
//!
//! Weak outcome: `r0 = 0, r1 = 0`, as if each store waited in a buffer while
//! the load went ahead. Only `fence.sc` forbids it.

use layout::litmus::Location::{X, Y};

use super::access::Access;
use super::env::Env;

/// Role 0 of `env.instance(0)`, then role 1 of `env.instance(1)`.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let (x, y) = (env.at(0, X), env.at(0, Y));
    // SAFETY: this instance's locations, in the global window.
    let r0 = unsafe {
        A::store(x, 1);
        A::fence();
        A::load(y)
    };
    env.between_roles();
    let (x, y) = (env.at(1, X), env.at(1, Y));
    // SAFETY: as above.
    let r1 = unsafe {
        A::store(y, 1);
        A::fence();
        A::load(x)
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(0, 0, r0);
        env.record(1, 1, r1);
    }
}
