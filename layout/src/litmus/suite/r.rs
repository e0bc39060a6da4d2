//! R: `W x=1; W y=1 || W y=2; R x`. Weak: `y` ends 2 and `r0 = 0`: the
//! second thread's store to `y` comes after the first's, yet its load
//! misses `x`.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 2
//! W y = 1           r0 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: as SB, the first thread's W y=1 is observed by no read
//! (the second thread only overwrites it), so acq_rel fences never synchronize;
//! two morally strong fence.sc, ordered either way, forbid it.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// R, as the module docs describe it.
pub const R: Definition = Definition {
    key: "r",
    name: "R",
    // No flag (W y=1 is only overwritten, never read), so no
    // release/acquire variant; the load must miss `x`, which a stale line of
    // `x` helps.
    roles: &[
        Role::new(&[Store(X, 1), Store(Y, 1)], 0, None),
        Role::new(&[Store(Y, 2), Load(X, 0)], 0, Some(X)),
    ],
    finals: &[Y],
    // r0 = 0, y ends 2.
    weak: &[0, 2],
    // Role 1 sees x, and its store to y comes last.
    sequential: &[1, 2],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the two fence.sc are ordered one way: either W x reaches R x, or W y=2 lands before W y=1",
        )),
        fence: Some(Allowed(
            "acq_rel fences need a write after the first fence to be read: R's W y=1 is only overwritten",
        )),
        relaxed: Allowed("relaxed: W y=2 may land after W y=1 while W x stays invisible to R x"),
    },
};
