//! ISA2: causality carried through a chain of two flags, each raised by a
//! thread that saw the one before.
//!
//! ```text
//! role 0            role 1              role 2
//! W x = 1           r0 = R y (flag)     r1 = R z (flag)
//! W y = 1 (flag)    W z = 1 (flag)      r2 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 1, r2 = 0`: role 2 sees the flag `z` that
//! role 1 raised after seeing the flag `y`, which role 0 raised after writing
//! `x`, yet role 2 misses `x`. In the release/acquire variants the middle
//! role's load of `y` is an acquire and its store to `z` a release, so the
//! chain is release, acquire, release, acquire: each pair synchronizes, and
//! causality order, being transitive, runs from `W x` to the last `R x`.

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
    let r0 = unsafe {
        let r0 = A::load_flag(y);
        A::fence();
        A::store_flag(z, 1);
        r0
    };
    env.between_roles();
    let (z, x) = (env.at(2, Z), env.at(2, X));
    // SAFETY: as above.
    let (r1, r2) = unsafe {
        let r1 = A::load_flag(z);
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
