//! CoRW2, coherence of a read and a later write by one thread, against a
//! write by another: GPUHarbor's two-thread CoRW2 (Levine et al., "MC
//! Mutants", ASPLOS 2023; `shaders/corw2` of the webgpu-litmus suite), the
//! `CoRW2` of herd's coherence family. (CoRW1 is one thread's `R x; W x`,
//! reading its own later store.)
//!
//! ```text
//! role 0            role 1
//! r0 = R x          W x = 2
//! W x = 1
//! ```
//!
//! Weak outcome: `r0 = 2` and `x` ends 2. The read sees role 1's store, so
//! role 0's later `W x = 1` must come after it in coherence order and be the
//! final value; `x` ending 2 puts it before. Coherence forbids it for strong
//! accesses whose scope covers both threads.

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
    // SAFETY: this instance's location, in the global window; the store goes
    // through `again`, as every second access to one location does.
    let r0 = unsafe {
        let r0 = A::load(x);
        A::store(env.again(x), 1);
        r0
    };
    env.between_roles();
    let x = env.at(1, X);
    // SAFETY: as above.
    unsafe { A::store(x, 2) };
    // SAFETY: the results buffer holds every instance's registers.
    unsafe { env.record(0, 0, r0) };
}
