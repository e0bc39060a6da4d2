//! 2+2W: `W x=1; W y=2 || W y=1; W x=2`. Weak: `x` and `y` both end 1,
//! each thread's second store ordered before the other's first.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 1
//! W y = 2           W x = 2
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by
//! hand from the axioms of ptx.als: no load, so nothing is observed and neither
//! release/acquire (2+2W has no flag) nor acq_rel fences synchronize; only two
//! morally strong fence.sc, ordered one way, put one thread's first store
//! before the other's second in coherence order.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// 2+2W, as the module docs describe it.
pub const TWO_PLUS_TWO_W: Definition = Definition {
    key: "2plus2w",
    name: "2+2W",
    // No load, so no flag (a flag is a store and the load that reads it):
    // no release/acquire variant, and nothing to gain from a stale line.
    roles: &[
        Role::new(&[Store(X, 1), Store(Y, 2)], 0, None),
        Role::new(&[Store(Y, 1), Store(X, 2)], 0, None),
    ],
    finals: &[X, Y],
    // x ends 1, y ends 1.
    weak: &[1, 1],
    // Role 1's stores come last.
    sequential: &[2, 1],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the two fence.sc are ordered one way: the later thread's second store lands after the other's first",
        )),
        fence: Some(Allowed("acq_rel fences synchronize only through a load that observes a store: 2+2W has no load")),
        relaxed: Allowed("relaxed: nothing orders a thread's two stores to different locations"),
    },
};
