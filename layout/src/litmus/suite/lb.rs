//! LB, load buffering: `R x; W y || R y; W x`. Weak: each load sees the other's later store.
//!
//! ```text
//! role 0            role 1
//! r0 = R x          r1 = R y
//! W y = 1           W x = 1
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: without a dependency nothing forbids it; with fences each
//! fence synchronizes with the other, a cycle in causality order.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// LB, as the module docs describe it.
pub const LB: Definition = Definition {
    key: "lb",
    name: "LB",
    roles: &[
        Role::new(&[Load(X, 0), Store(Y, 1)], 0, None),
        Role::new(&[Load(Y, 1), Store(X, 1)], 0, None),
    ],
    finals: &[],
    // r0 = 1, r1 = 1.
    weak: &[1, 1],
    // Role 0 loads x before role 1 stores it; role 1 then sees y.
    sequential: &[0, 1],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: Some("volatile is relaxed at .sys: with no dependency and no synchronization nothing forbids it"),
        release_acquire: None,
        sc_fence: None,
        fence: Some(Forbidden(
            "fence → W y observed by R y → fence synchronizes: R x would read a write in its own future",
        )),
        relaxed: Allowed("relaxed with no dependency: no_thin_air needs a dependency, causality a synchronization"),
    },
};
