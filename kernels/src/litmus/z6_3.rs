//! Z6.3: a store's place in coherence order is not an observation, so it
//! carries no order to a thread that reads the next flag.
//!
//! ```text
//! role 0            role 1              role 2
//! W x = 1           W y = 2             r0 = R z (flag)
//! W y = 1 (flag)    W z = 1 (flag)      r1 = R x
//! ```
//!
//! Weak outcome: `y` ends 2, `r0 = 1` and `r1 = 0`. Role 1's store to `y`
//! lands after role 0's, and role 2 sees role 1's flag `z`, yet misses `x`.
//! A chain of release/acquire (as in ISA2) would forbid it, but here the link
//! from role 0 to role 1 is coherence order only: no load of role 1 reads
//! anything of role 0, so nothing synchronizes the two, and only `fence.sc`
//! in all three, totally ordered, forbids the outcome (herd's catalogue and
//! cuda-litmus name this shape Z6.3).

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
        A::store(x, 1);
        A::fence();
        A::store_flag(y, 1);
    }
    env.between_roles();
    let (y, z) = (env.at(1, Y), env.at(1, Z));
    // SAFETY: as above.
    unsafe {
        A::store(y, 2);
        A::fence();
        A::store_flag(z, 1);
    }
    env.between_roles();
    let (z, x) = (env.at(2, Z), env.at(2, X));
    // SAFETY: as above.
    let (r0, r1) = unsafe {
        let r0 = A::load_flag(z);
        A::fence();
        (r0, A::load(x))
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(2, 0, r0);
        env.record(2, 1, r1);
    }
}
