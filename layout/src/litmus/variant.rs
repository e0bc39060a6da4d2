//! [`Variant`]: which PTX instruction each access and fence of a test
//! becomes, and the SASS that instruction must (and must not) compile to.

use crate::scope::Scope;

use super::op::Op;

/// How a test's accesses are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Plain `ld.global` / `st.global`: not atomic, not morally strong.
    Weak,
    /// Every access `.relaxed.gpu`.
    RelaxedGpu,
    /// Every access `.relaxed.cta`.
    RelaxedCta,
    /// Every access `ld.volatile` / `st.volatile`: what CUDA C++ compiles a
    /// `volatile` access to, the page's "volatile as synchronization"
    /// mistake. The PTX ISA (9.1, section 8.4.2, "volatile Operation"):
    /// "The semantics of volatile operations are equivalent to a relaxed
    /// memory operation with system-scope but with the following extra
    /// implementation-specific constraints": the number of volatile
    /// *instructions* executed is preserved, and volatile instructions are not
    /// reordered around other volatile instructions (though the memory
    /// operations they perform may be). Those constraints bind the compiler,
    /// not the memory model, so the checker models every access as relaxed at
    /// [`Scope::Sys`], which on the lab's one GPU covers what `.gpu` covers:
    /// the verdicts are [`Variant::RelaxedGpu`]'s, placement for placement.
    Volatile,
    /// The flag store `st.release.gpu`, the flag load `ld.acquire.gpu`, every
    /// other access `.relaxed.gpu`.
    ReleaseAcquireGpu,
    /// As [`Variant::ReleaseAcquireGpu`] at `.cta`.
    ReleaseAcquireCta,
    /// Every access `.relaxed.gpu`, with `fence.acq_rel.gpu` between a
    /// thread's two accesses.
    FenceAcqRelGpu,
    /// As [`Variant::FenceAcqRelGpu`] with `fence.acq_rel.cta`.
    FenceAcqRelCta,
    /// Every access `.relaxed.gpu`, with `fence.sc.gpu` between a thread's
    /// two accesses.
    FenceScGpu,
    /// As [`Variant::FenceScGpu`] with `fence.sc.cta`.
    FenceScCta,
    /// Every access `.relaxed.cluster`: strong towards the threads of every
    /// block of this thread's cluster (sm_90; in the Hopper module only).
    RelaxedCluster,
    /// As [`Variant::ReleaseAcquireGpu`] at `.cluster`: the flag
    /// `st.release.cluster` / `ld.acquire.cluster`, the data
    /// `.relaxed.cluster`.
    ReleaseAcquireCluster,
    /// As [`Variant::FenceAcqRelGpu`] with `fence.acq_rel.cluster`.
    FenceAcqRelCluster,
    /// As [`Variant::FenceScGpu`] with `fence.sc.cluster`.
    FenceScCluster,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 14] = [
        Variant::Weak,
        Variant::RelaxedGpu,
        Variant::RelaxedCta,
        Variant::Volatile,
        Variant::ReleaseAcquireGpu,
        Variant::ReleaseAcquireCta,
        Variant::FenceAcqRelGpu,
        Variant::FenceAcqRelCta,
        Variant::FenceScGpu,
        Variant::FenceScCta,
        Variant::RelaxedCluster,
        Variant::ReleaseAcquireCluster,
        Variant::FenceAcqRelCluster,
        Variant::FenceScCluster,
    ];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        self.spec().key
    }

    /// The scope of its ordinary accesses, or `None` for weak ones. A
    /// volatile access names no scope in PTX; the ISA gives it `.sys`'s.
    pub const fn access_scope(self) -> Option<Scope> {
        self.spec().access
    }

    /// Whether the flag accesses are release and acquire.
    pub const fn release_acquire(self) -> bool {
        self.spec().release_acquire
    }

    /// Whether it names the `.cluster` scope, which only sm_90 PTX has: its
    /// kernels are in the Hopper module alone.
    pub const fn needs_hopper(self) -> bool {
        matches!(self.access_scope(), Some(Scope::Cluster)) || matches!(self.fence(), Some((_, Scope::Cluster)))
    }

    /// Its fence, as `(sc, scope)`: `fence.sc` if `sc`, else `fence.acq_rel`.
    pub const fn fence(self) -> Option<(bool, Scope)> {
        self.spec().fence
    }

    /// The PTX of the fence, if any.
    pub const fn fence_ptx(self) -> Option<&'static str> {
        match self.fence() {
            Some((false, Scope::Gpu)) => Some("fence.acq_rel.gpu"),
            Some((false, Scope::Cta)) => Some("fence.acq_rel.cta"),
            Some((true, Scope::Gpu)) => Some("fence.sc.gpu"),
            Some((true, Scope::Cta)) => Some("fence.sc.cta"),
            Some((false, Scope::Cluster)) => Some("fence.acq_rel.cluster"),
            Some((true, Scope::Cluster)) => Some("fence.sc.cluster"),
            Some((false, Scope::Sys)) => Some("fence.acq_rel.sys"),
            Some((true, Scope::Sys)) => Some("fence.sc.sys"),
            None => None,
        }
    }

    /// The PTX instruction (without operands) of `op`, which is the flag
    /// access of its role when `flag`. Test accesses, and only they, use the
    /// `.u32` type: the compiler writes `.b32` for everything else. A
    /// volatile access is written `.volatile`, not `.relaxed.sys`: the lab
    /// runs the instruction CUDA C++ emits for `volatile`, whose memory
    /// semantics the ISA defines as `.relaxed.sys`'s (no variant writes
    /// `.relaxed.sys` itself; its arms are here for completeness).
    pub const fn ptx(self, op: Op, flag: bool) -> &'static str {
        let store = matches!(op, Op::Store(..));
        if let Variant::Volatile = self {
            return if store { "st.volatile.global.u32" } else { "ld.volatile.global.u32" };
        }
        match (self.access_scope(), self.release_acquire() && flag, store) {
            (None, _, true) => "st.global.u32",
            (None, _, false) => "ld.global.u32",
            (Some(Scope::Sys), false, true) => "st.relaxed.sys.global.u32",
            (Some(Scope::Sys), false, false) => "ld.relaxed.sys.global.u32",
            (Some(Scope::Sys), true, true) => "st.release.sys.global.u32",
            (Some(Scope::Sys), true, false) => "ld.acquire.sys.global.u32",
            (Some(Scope::Gpu), false, true) => "st.relaxed.gpu.global.u32",
            (Some(Scope::Gpu), false, false) => "ld.relaxed.gpu.global.u32",
            (Some(Scope::Cta), false, true) => "st.relaxed.cta.global.u32",
            (Some(Scope::Cta), false, false) => "ld.relaxed.cta.global.u32",
            (Some(Scope::Gpu), true, true) => "st.release.gpu.global.u32",
            (Some(Scope::Gpu), true, false) => "ld.acquire.gpu.global.u32",
            (Some(Scope::Cta), true, true) => "st.release.cta.global.u32",
            (Some(Scope::Cta), true, false) => "ld.acquire.cta.global.u32",
            (Some(Scope::Cluster), false, true) => "st.relaxed.cluster.global.u32",
            (Some(Scope::Cluster), false, false) => "ld.relaxed.cluster.global.u32",
            (Some(Scope::Cluster), true, true) => "st.release.cluster.global.u32",
            (Some(Scope::Cluster), true, false) => "ld.acquire.cluster.global.u32",
        }
    }

    /// SASS the kernel must contain on sm_90: the barriers each ordering
    /// becomes. A relaxed access becomes a plain load or store with a
    /// `.STRONG.GPU` or `.STRONG.SM` qualifier and no barrier at all, and a
    /// volatile one the same with `.STRONG.SYS`; a device-scope fence or
    /// acquire also invalidates L1 (`CCTL.IVALL`). `ptxas` 13 compiles
    /// `.cluster` on sm_90 exactly as `.gpu` ([`sass_of`](super::sass_of)),
    /// so a cluster variant promises its device-scope twin's SASS.
    pub const fn sass_has(self) -> &'static [&'static str] {
        self.spec().sass_has
    }

    /// SASS the kernel must not contain on sm_90.
    pub const fn sass_lacks(self) -> &'static [&'static str] {
        self.spec().sass_lacks
    }

    /// What it is, as data: one row per variant.
    const fn spec(self) -> Spec {
        use Scope::{Cluster, Cta, Gpu, Sys};
        // A relaxed access is a plain load or store with no barrier at all;
        // a device-scope release, acquire or fence is a device-scope barrier
        // and invalidates L1; a block-scope one is a block-scope barrier only.
        const NONE: &[&str] = &[];
        const NO_BARRIER: &[&str] = &["MEMBAR", "CCTL", "ERRBAR"];
        const ACQ_REL_GPU: &[&str] = &["MEMBAR.ALL.GPU", "CCTL.IVALL"];
        const NOT_ACQ_REL_GPU: &[&str] = &["MEMBAR.SC", "MEMBAR.ALL.CTA"];
        const ACQ_REL_CTA: &[&str] = &["MEMBAR.ALL.CTA"];
        const NOT_ACQ_REL_CTA: &[&str] = &["MEMBAR.ALL.GPU", "MEMBAR.SC", "CCTL"];
        const SC_GPU: &[&str] = &["MEMBAR.SC.GPU", "CCTL.IVALL"];
        const NOT_SC_GPU: &[&str] = &["MEMBAR.ALL", "MEMBAR.SC.CTA"];
        const SC_CTA: &[&str] = &["MEMBAR.SC.CTA"];
        const NOT_SC_CTA: &[&str] = &["MEMBAR.SC.GPU", "MEMBAR.ALL", "CCTL"];
        const fn row(
            key: &'static str,
            access: Option<Scope>,
            release_acquire: bool,
            fence: Option<(bool, Scope)>,
            sass_has: &'static [&'static str],
            sass_lacks: &'static [&'static str],
        ) -> Spec {
            Spec { key, access, release_acquire, fence, sass_has, sass_lacks }
        }
        match self {
            Variant::Weak => row("weak", None, false, None, NONE, NO_BARRIER),
            Variant::RelaxedGpu => row("relaxed-gpu", Some(Gpu), false, None, NONE, NO_BARRIER),
            Variant::RelaxedCta => row("relaxed-cta", Some(Cta), false, None, NONE, NO_BARRIER),
            Variant::Volatile => row("volatile", Some(Sys), false, None, NONE, NO_BARRIER),
            Variant::ReleaseAcquireGpu => row("rel-acq-gpu", Some(Gpu), true, None, ACQ_REL_GPU, NOT_ACQ_REL_GPU),
            Variant::ReleaseAcquireCta => row("rel-acq-cta", Some(Cta), true, None, ACQ_REL_CTA, NOT_ACQ_REL_CTA),
            Variant::FenceAcqRelGpu => {
                row("fence-acq-rel-gpu", Some(Gpu), false, Some((false, Gpu)), ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceAcqRelCta => {
                row("fence-acq-rel-cta", Some(Gpu), false, Some((false, Cta)), ACQ_REL_CTA, NOT_ACQ_REL_CTA)
            }
            Variant::FenceScGpu => row("fence-sc-gpu", Some(Gpu), false, Some((true, Gpu)), SC_GPU, NOT_SC_GPU),
            Variant::FenceScCta => row("fence-sc-cta", Some(Gpu), false, Some((true, Cta)), SC_CTA, NOT_SC_CTA),
            // `ptxas` 13 compiles `.cluster` on sm_90 exactly as `.gpu`
            // (`sass_of`): each promises its twin's SASS.
            Variant::RelaxedCluster => row("relaxed-cluster", Some(Cluster), false, None, NONE, NO_BARRIER),
            Variant::ReleaseAcquireCluster => {
                row("rel-acq-cluster", Some(Cluster), true, None, ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceAcqRelCluster => {
                row("fence-acq-rel-cluster", Some(Gpu), false, Some((false, Cluster)), ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceScCluster => {
                row("fence-sc-cluster", Some(Gpu), false, Some((true, Cluster)), SC_GPU, NOT_SC_GPU)
            }
        }
    }
}

/// A [`Variant`] as data ([`Variant::spec`]).
#[derive(Clone, Copy)]
struct Spec {
    /// [`Variant::key`].
    key: &'static str,
    /// [`Variant::access_scope`].
    access: Option<Scope>,
    /// [`Variant::release_acquire`].
    release_acquire: bool,
    /// [`Variant::fence`].
    fence: Option<(bool, Scope)>,
    /// [`Variant::sass_has`].
    sass_has: &'static [&'static str],
    /// [`Variant::sass_lacks`].
    sass_lacks: &'static [&'static str],
}
