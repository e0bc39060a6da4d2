//! CoRR, coherence of two reads of one location.
//!
//! ```text
//! role 0            role 1
//! W x = 1           r0 = R x
//!                   r1 = R x
//! ```
//!
//! Weak outcome: `r0 = 1, r1 = 0`, a later read returning an older value.
//! Coherence forbids it for strong accesses whose scope covers both threads.

use layout::litmus::Location::X;

use super::access::Access;
use super::env::Env;

/// Role 0 of `env.instance(0)`, then role 1 of `env.instance(1)`.
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
    let x = env.at(1, X);
    // SAFETY: as above; `again` is the same address.
    let (r0, r1) = unsafe { (A::load(x), A::load(env.again(x))) };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe {
        env.record(1, 0, r0);
        env.record(1, 1, r1);
    }
}
