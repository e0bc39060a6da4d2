//! [`Variant`]: which PTX instruction each access and fence of a test
//! becomes, and the SASS that instruction must (and must not) compile to.

use crate::scope::Scope;

use super::definition::Op;

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
        match self {
            Variant::Weak => "weak",
            Variant::RelaxedGpu => "relaxed-gpu",
            Variant::RelaxedCta => "relaxed-cta",
            Variant::Volatile => "volatile",
            Variant::ReleaseAcquireGpu => "rel-acq-gpu",
            Variant::ReleaseAcquireCta => "rel-acq-cta",
            Variant::FenceAcqRelGpu => "fence-acq-rel-gpu",
            Variant::FenceAcqRelCta => "fence-acq-rel-cta",
            Variant::FenceScGpu => "fence-sc-gpu",
            Variant::FenceScCta => "fence-sc-cta",
            Variant::RelaxedCluster => "relaxed-cluster",
            Variant::ReleaseAcquireCluster => "rel-acq-cluster",
            Variant::FenceAcqRelCluster => "fence-acq-rel-cluster",
            Variant::FenceScCluster => "fence-sc-cluster",
        }
    }

    /// The scope of its ordinary accesses, or `None` for weak ones. A
    /// volatile access names no scope in PTX; the ISA gives it `.sys`'s.
    pub const fn access_scope(self) -> Option<Scope> {
        match self {
            Variant::Weak => None,
            Variant::RelaxedCta | Variant::ReleaseAcquireCta => Some(Scope::Cta),
            Variant::RelaxedCluster | Variant::ReleaseAcquireCluster => Some(Scope::Cluster),
            Variant::Volatile => Some(Scope::Sys),
            _ => Some(Scope::Gpu),
        }
    }

    /// Whether the flag accesses are release and acquire.
    pub const fn release_acquire(self) -> bool {
        matches!(self, Variant::ReleaseAcquireGpu | Variant::ReleaseAcquireCta | Variant::ReleaseAcquireCluster)
    }

    /// Whether it names the `.cluster` scope, which only sm_90 PTX has: its
    /// kernels are in the Hopper module alone.
    pub const fn needs_hopper(self) -> bool {
        matches!(self.access_scope(), Some(Scope::Cluster)) || matches!(self.fence(), Some((_, Scope::Cluster)))
    }

    /// Its fence, as `(sc, scope)`: `fence.sc` if `sc`, else `fence.acq_rel`.
    pub const fn fence(self) -> Option<(bool, Scope)> {
        match self {
            Variant::FenceAcqRelGpu => Some((false, Scope::Gpu)),
            Variant::FenceAcqRelCta => Some((false, Scope::Cta)),
            Variant::FenceScGpu => Some((true, Scope::Gpu)),
            Variant::FenceScCta => Some((true, Scope::Cta)),
            Variant::FenceAcqRelCluster => Some((false, Scope::Cluster)),
            Variant::FenceScCluster => Some((true, Scope::Cluster)),
            _ => None,
        }
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
    /// `.cluster` on sm_90 exactly as `.gpu` ([`sass_of`](super::sass_of)), so a cluster
    /// variant promises its device-scope twin's SASS.
    pub const fn sass_has(self) -> &'static [&'static str] {
        match self {
            Variant::Weak | Variant::RelaxedGpu | Variant::RelaxedCta | Variant::Volatile | Variant::RelaxedCluster => {
                &[]
            }
            Variant::ReleaseAcquireGpu
            | Variant::FenceAcqRelGpu
            | Variant::ReleaseAcquireCluster
            | Variant::FenceAcqRelCluster => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
            Variant::ReleaseAcquireCta | Variant::FenceAcqRelCta => &["MEMBAR.ALL.CTA"],
            Variant::FenceScGpu | Variant::FenceScCluster => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
            Variant::FenceScCta => &["MEMBAR.SC.CTA"],
        }
    }

    /// SASS the kernel must not contain on sm_90.
    pub const fn sass_lacks(self) -> &'static [&'static str] {
        match self {
            Variant::Weak | Variant::RelaxedGpu | Variant::RelaxedCta | Variant::Volatile | Variant::RelaxedCluster => {
                &["MEMBAR", "CCTL", "ERRBAR"]
            }
            Variant::ReleaseAcquireGpu
            | Variant::FenceAcqRelGpu
            | Variant::ReleaseAcquireCluster
            | Variant::FenceAcqRelCluster => &["MEMBAR.SC", "MEMBAR.ALL.CTA"],
            Variant::ReleaseAcquireCta | Variant::FenceAcqRelCta => &["MEMBAR.ALL.GPU", "MEMBAR.SC", "CCTL"],
            Variant::FenceScGpu | Variant::FenceScCluster => &["MEMBAR.ALL", "MEMBAR.SC.CTA"],
            Variant::FenceScCta => &["MEMBAR.SC.GPU", "MEMBAR.ALL", "CCTL"],
        }
    }
}
