//! CoRR, coherence of two reads: `W x || R x; R x`. Weak: the second read older than the first.
//!
//! ```text
//! role 0            role 1
//! W x = 1           r0 = R x
//!                   r1 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: SC-per-Location forbids it whenever the store and the
//! loads are morally strong (relaxed at a scope that covers both threads);
//! fences do not matter, and neither does release/acquire, which CoRR has no
//! flag for. (CoRR has no fence kernels; the host's hand rule of the time
//! called its .cta-fence variants allowed across blocks, but their accesses are
//! .relaxed.gpu, so SC-per-Location forbids the weak outcome.)

use crate::litmus::Location::{X};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// CoRR, as the module docs describe it.
pub const CORR: Definition = Definition {
    key: "corr",
    name: "CoRR",
    roles: &[
        Role::new(&[Store(X, 1)], 0, None),
        Role::new(&[Load(X, 0), Load(X, 1)], 0, Some(X)),
    ],
    finals: &[],
    // r0 = 1, then r1 = 0.
    weak: &[1, 0],
    // The reader runs after the store.
    sequential: &[1, 1],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: Some("coherence: two strong reads of one location cannot go back in its coherence order"),
        volatile: None,
        release_acquire: None,
        sc_fence: None,
        fence: None,
        relaxed: Forbidden("coherence: strong accesses to one location follow a single coherence order"),
    },
};
