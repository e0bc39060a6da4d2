//! S: `W x=2; W y=1 || R y; W x=1`. Weak: `r0 = 1` and `x` ends 2: the
//! second thread sees the flag, yet its store to `x` is ordered before
//! the first thread's.
//!
//! ```text
//! role 0            role 1
//! W x = 2           r0 = R y (flag)
//! W y = 1 (flag)    W x = 1
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: as MP, a release pattern on y observed by a morally
//! strong acquire pattern puts W x=2 in causality order before W x=1, so
//! coherence orders them that way and x cannot end 2.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// S, as the module docs describe it.
pub const S: Definition = Definition {
    key: "s",
    name: "S",
    // S is message passing whose reader writes instead of reading: `y` is
    // the flag, released by the writer and acquired by the reader.
    roles: &[
        Role::new(&[Store(X, 2), Store(Y, 1)], 0b10, None),
        Role::new(&[Load(Y, 0), Store(X, 1)], 0b01, None),
    ],
    finals: &[X],
    // r0 = 1, x ends 2.
    weak: &[1, 2],
    // Role 1 sees the flag, and its store to x comes last.
    sequential: &[1, 1],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: Some(Forbidden(
            "the acquire that reads the release's flag puts W x=2 before W x=1 in causality, so coherence",
        )),
        sc_fence: None,
        fence: Some(Forbidden(
            "fence → W y observed by R y → fence synchronizes: W x=2 is in causality order before W x=1",
        )),
        relaxed: Allowed("relaxed: nothing orders W x=2 before W y, or R y before W x=1"),
    },
};
