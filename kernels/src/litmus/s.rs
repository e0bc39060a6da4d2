//! S: message passing whose reader writes the data instead of reading it.
//!
//! ```text
//! role 0            role 1
//! W x = 2           r0 = R y (flag)
//! W y = 1 (flag)    W x = 1
//! ```
//!
//! Weak outcome: `r0 = 1` and `x` ends 2: role 1 sees the flag, so its store
//! to `x` should come after role 0's, yet `x` ends with role 0's value. A
//! release pattern on `y` observed by an acquire pattern puts `W x = 2` in
//! causality order before `W x = 1`, and coherence must follow it.

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
        A::store(x, 2);
        A::fence();
        A::store_flag(y, 1);
    }
    env.between_roles();
    let (y, x) = (env.at(1, Y), env.at(1, X));
    // SAFETY: as above.
    let r0 = unsafe {
        let r0 = A::load_flag(y);
        A::fence();
        A::store(x, 1);
        r0
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe { env.record(1, 0, r0) };
}
