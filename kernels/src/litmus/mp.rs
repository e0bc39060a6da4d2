//! MP, message passing: the page's publication pattern stripped to its four
//! accesses.
//!
//! ```text
//! role 0            role 1
//! W x = 1           r0 = R y
//! W y = 1 (flag)    r1 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 0`, the flag seen and the data not.

use layout::litmus::Location::{X, Y};

use super::access::Access;
use super::env::Env;

/// One MP instance per role: the writer of `env.instance(0)`, then the
/// reader of `env.instance(1)`.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let (x, y) = (env.at(0, X), env.at(0, Y));
    // SAFETY: `x` and `y` are this instance's locations, in the global window.
    unsafe {
        A::store(x, 1);
        A::fence();
        A::store_flag(y, 1);
    }
    env.between_roles();
    let (x, y) = (env.at(1, X), env.at(1, Y));
    // SAFETY: as above, for the instance this thread reads.
    let (r0, r1) = unsafe {
        let r0 = A::load_flag(y);
        A::fence();
        (r0, A::load(x))
    };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(1, 0, r0);
        env.record(1, 1, r1);
    }
}
