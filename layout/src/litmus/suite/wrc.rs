//! WRC, write-to-read causality: `W x || R x; W y || R y; R x`. Weak: the third
//! thread sees `y` but not the `x` that caused it.
//!
//! ```text
//! role 0      role 1              role 2
//! W x = 1     r0 = R x            r1 = R y (flag)
//!             W y = 1 (flag)      r2 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: forbidden when the middle thread's order reaches the last
//! thread: observation of W x followed by base causality (release/acquire or
//! fences, at a covering scope).

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// WRC, as the module docs describe it.
pub const WRC: Definition = Definition {
    key: "wrc",
    name: "WRC",
    roles: &[
        Role::new(&[Store(X, 1)], 0, None),
        Role::new(&[Load(X, 0), Store(Y, 1)], 0b10, None),
        Role::new(&[Load(Y, 1), Load(X, 2)], 0b01, Some(X)),
    ],
    finals: &[],
    // r0 = 1, r1 = 1, r2 = 0.
    weak: &[1, 1, 0],
    // Each role runs after the store it reads.
    sequential: &[1, 1, 1],
    ptxas_reorders_weak_loads: true,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: Some("volatile is relaxed at .sys: the middle thread's W y carries no order from the W x it read"),
        release_acquire: Some(Forbidden(
            "W x observed by R x, then release → acquire: causality (cumulativity) puts W x before the last R x",
        )),
        sc_fence: None,
        fence: Some(Forbidden(
            "W x observed by R x, then the fences synchronize: W x is in causality order before the last R x",
        )),
        relaxed: Allowed("relaxed: the middle thread's W y carries no order from the W x it read"),
    },
};
