//! LB, load buffering: each thread loads, then stores the other's location.
//!
//! ```text
//! role 0            role 1
//! r0 = R x          r1 = R y
//! W y = 1           W x = 1
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 1`, each load seeing a store that comes after
//! the other load in its thread.

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
        let r0 = A::load(x);
        A::fence();
        A::store(y, 1);
        r0
    };
    env.between_roles();
    let (x, y) = (env.at(1, X), env.at(1, Y));
    // SAFETY: as above.
    let r1 = unsafe {
        let r1 = A::load(y);
        A::fence();
        A::store(x, 1);
        r1
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(0, 0, r0);
        env.record(1, 1, r1);
    }
}
