//! CoWR, coherence of a write and a later read by one thread, against a
//! write by another: herd's CoWR (Alglave, Maranget and Tautschnig, "Herding
//! cats", TOPLAS 2014) and GPUHarbor's (`cowr`), with the other thread's
//! store writing 2 so that the outcome tells the stores apart.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W x = 2
//! r0 = R x
//! ```
//!
//! Weak outcome: `r0 = 2` and `x` ends 1. The read sees role 1's store, so
//! that store is not coherence-before role 0's own earlier `W x = 1`; yet `x`
//! ends 1, which puts it there. Coherence forbids it for strong accesses
//! whose scope covers both threads.

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
    // SAFETY: this instance's location, in the global window. The load goes
    // through `again`, so `ptxas` cannot forward the store's 1 to it.
    let r0 = unsafe {
        A::store(x, 1);
        A::load(env.again(x))
    };
    env.between_roles();
    let x = env.at(1, X);
    // SAFETY: as above.
    unsafe { A::store(x, 2) };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe { env.record(0, 0, r0) };
}
