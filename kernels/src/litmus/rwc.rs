//! RWC, read-to-write causality: a reader that sees `x` and then misses `y`,
//! and a writer of `y` that then misses `x`.
//!
//! ```text
//! role 0      role 1              role 2
//! W x = 1     r0 = R x            W y = 1
//!             r1 = R y            r2 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 0, r2 = 0`. Role 1 reads `y` before role 2's
//! store reaches it, yet role 2's load of `x`, after that store, misses the
//! `x` that role 1 had already seen: the threads disagree about whether `W x`
//! came first. Like SB it needs `fence.sc` in both two-access roles; an
//! acquire-release fence orders nothing here, because no thread reads a
//! store that a fence released.

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
    let (r0, r1) = unsafe {
        let r0 = A::load(x);
        A::fence();
        (r0, A::load(y))
    };
    env.between_roles();
    let (x, y) = (env.at(2, X), env.at(2, Y));
    // SAFETY: as above.
    let r2 = unsafe {
        A::store(y, 1);
        A::fence();
        A::load(x)
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(1, 0, r0);
        env.record(1, 1, r1);
        env.record(2, 2, r2);
    }
}
