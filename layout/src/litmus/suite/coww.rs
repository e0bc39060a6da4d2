//! CoWW, coherence of two writes by one thread: `W x=1; W x=2`. Weak: `x` ends 1,
//! the later store ordered before the earlier one.
//!
//! ```text
//! role 0
//! W x = 1
//! W x = 2
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: both stores are one thread's, so morally strong
//! relative to each other whatever their qualifiers (the PTX ISA counts
//! operations related in program order as morally strong); SC-per-Location puts
//! W x=1 before W x=2 in coherence order, and x cannot end 1, not even with
//! weak stores.

use crate::litmus::Location::{X};
use crate::litmus::Op::{Store};
use crate::litmus::definition::Reason::{Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// CoWW, as the module docs describe it.
pub const COWW: Definition = Definition {
    key: "coww",
    name: "CoWW",
    // Every access is to `x`, and a second access to one location by one
    // thread is never a flag: no release/acquire variant, and no load that
    // gains from a stale line.
    roles: &[
        Role::new(&[Store(X, 1), Store(X, 2)], 0, None),
    ],
    finals: &[X],
    // x ends 1.
    weak: &[1],
    // The second store is the last.
    sequential: &[2],
    ptxas_reorders_weak_loads: false,
    // The PTX ISA counts two operations of one thread morally strong relative
    // to each other, whatever their qualifiers: the one test whose accesses
    // are all one thread's is forbidden even weak.
    reasons: Reasons {
        always: Some(
            "coherence: one thread's two stores to x are morally strong relative to each other, so W x=2 stays last",
        ),
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: None,
        fence: None,
        relaxed: Forbidden("coherence: strong accesses to one location follow a single coherence order"),
    },
};
