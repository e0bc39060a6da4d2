//! IRIW, independent reads of independent writes: do two readers agree on
//! the order of two stores by two other threads?
//!
//! ```text
//! role 0      role 1      role 2        role 3
//! W x = 1     W y = 1     r0 = R x      r2 = R y
//!                         r1 = R y      r3 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 0, r2 = 1, r3 = 0`: role 2 saw `x` before
//! `y`, role 3 `y` before `x`. Only `fence.sc` between the reads forbids it.

use layout::litmus::Location::{X, Y};

use super::access::Access;
use super::env::Env;

/// Roles 0 to 3, each for its own instance.
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
    let y = env.at(1, Y);
    // SAFETY: as above.
    unsafe { A::store(y, 1) };
    env.between_roles();
    let (x, y) = (env.at(2, X), env.at(2, Y));
    // SAFETY: as above.
    let (r0, r1) = unsafe {
        let r0 = A::load(x);
        A::fence();
        (r0, A::load(y))
    };
    env.between_roles();
    let (x, y) = (env.at(3, X), env.at(3, Y));
    // SAFETY: as above.
    let (r2, r3) = unsafe {
        let r2 = A::load(y);
        A::fence();
        (r2, A::load(x))
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(2, 0, r0);
        env.record(2, 1, r1);
        env.record(3, 2, r2);
        env.record(3, 3, r3);
    }
}
