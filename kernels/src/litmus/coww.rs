//! CoWW, coherence of two writes by one thread to one location.
//!
//! ```text
//! role 0
//! W x = 1
//! W x = 2
//! ```
//!
//! Weak outcome: `x` ends 1, the second store ordered before the first. The
//! two stores are one thread's, so the PTX model counts them morally strong
//! relative to each other whatever their qualifiers, and coherence follows
//! program order: the weak outcome is forbidden in every variant. The one
//! role has no partner, so the placement changes nothing but the stress
//! around it. The outcome is `x`'s final value, which the classifier reads.
//! (herd's and GPUHarbor's CoWW.)

use layout::litmus::Location::X;

use super::access::Access;
use super::env::Env;

/// Role 0 of `env.instance(0)`.
///
/// # Safety
///
/// `env` must come from [`Env::enter`].
#[inline(always)]
pub(super) unsafe fn run<A: Access>(env: &Env) {
    let x = env.at(0, X);
    // SAFETY: this instance's location, in the global window. The second
    // store goes through `again`, the same address as far as the hardware
    // knows but not as far as `ptxas` can prove, so it cannot drop the first
    // store as dead.
    unsafe {
        A::store(x, 1);
        A::store(env.again(x), 2);
    }
}
