//! ISA2, causality through a chain of two flags: `W x; W y || R y; W z || R z; R x`.
//! Weak: the third thread sees the second flag `z` but not the data `x`.
//!
//! ```text
//! role 0            role 1              role 2
//! W x = 1           r0 = R y (flag)     r1 = R z (flag)
//! W y = 1 (flag)    W z = 1 (flag)      r2 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: two synchronizations in a chain (release/acquire on
//! y, then on z, or the fences around them) put W x before R x in causality
//! order, at a covering scope.

use crate::litmus::Location::{X, Y, Z};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// ISA2, as the module docs describe it.
pub const ISA2: Definition = Definition {
    key: "isa2",
    name: "ISA2",
    roles: &[
        Role::new(&[Store(X, 1), Store(Y, 1)], 0b10, None),
        Role::new(&[Load(Y, 0), Store(Z, 1)], 0b11, None),
        Role::new(&[Load(Z, 1), Load(X, 2)], 0b01, Some(X)),
    ],
    finals: &[],
    // r0 = 1 (y), r1 = 1 (z), r2 = 0 (x).
    weak: &[1, 1, 0],
    // Each role runs after the stores it reads.
    sequential: &[1, 1, 1],
    ptxas_reorders_weak_loads: true,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: Some(Forbidden(
            "release W y → acquire R y, release W z → acquire R z: causality runs from W x to R x, r2 = 0 forbidden",
        )),
        sc_fence: None,
        fence: Some(Forbidden(
            "fence → W y observed by R y → fence → W z observed by R z → fence: W x is in causality order before R x",
        )),
        relaxed: Allowed("relaxed: neither flag carries order, so R x may miss W x"),
    },
};
