//! WRC, write-to-read causality: a store seen by one thread, which then
//! raises a flag for a third.
//!
//! ```text
//! role 0      role 1              role 2
//! W x = 1     r0 = R x            r1 = R y (flag)
//!             W y = 1 (flag)      r2 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 1, r2 = 0`: role 2 sees the flag that role 1
//! raised after seeing `x`, but not `x` itself.

use layout::litmus::Location::{X, Y};

use super::access::Access;
use super::env::Env;

/// Roles 0, 1 and 2, each for its own instance.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let x = env.at(0, X);
    // SAFETY: this instance's location, in the global window.
    unsafe { A::store(x, 1) };
    env.between_roles();
    let (x, y) = (env.at(1, X), env.at(1, Y));
    // SAFETY: as above.
    let r0 = unsafe {
        let r0 = A::load(x);
        A::fence();
        A::store_flag(y, 1);
        r0
    };
    env.between_roles();
    let (x, y) = (env.at(2, X), env.at(2, Y));
    // SAFETY: as above.
    let (r1, r2) = unsafe {
        let r1 = A::load_flag(y);
        A::fence();
        (r1, A::load(x))
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(1, 0, r0);
        env.record(2, 1, r1);
        env.record(2, 2, r2);
    }
}
