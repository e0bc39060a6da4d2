//! Where threads run and which of them a memory operation's order reaches:
//! the two words every family that synchronizes uses, written once. The
//! publication demo and the litmus suite both name a [`Placement`] and a
//! [`Scope`] with these types.

/// The scope of an access, a fence or a flag operation: which threads its
/// ordering covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `.cta`: the threads of one block.
    Cta,
    /// `.cluster`: the threads of every block of one thread-block cluster
    /// (sm_90 and later). A block launched without clusters is a cluster of
    /// its own, so there `.cluster` covers what `.cta` covers.
    Cluster,
    /// `.gpu`: every thread of the device.
    Gpu,
    /// `.sys`: every thread of the program, on every device and on the host.
    /// It is also the scope the PTX ISA gives volatile accesses (`ld.volatile`
    /// and `st.volatile` are relaxed at `.sys`). Between two GPU threads it
    /// covers what `.gpu` covers (the lab runs on one GPU); the system family
    /// (`crate::system`) and the scope ladder's `.sys` rung are where a host
    /// thread takes part, through mapped host memory.
    Sys,
}

impl Scope {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            Scope::Cta => "block (.cta)",
            Scope::Cluster => "cluster (.cluster)",
            Scope::Gpu => "device (.gpu)",
            Scope::Sys => "system (.sys)",
        }
    }

    /// Whether it covers two threads that run with `placement`, the scopes
    /// nesting as `.cta` ⊂ `.cluster` ⊂ `.gpu` ⊂ `.sys`: `.gpu` and `.sys`
    /// always (the lab runs on one GPU), `.cluster` within one block or
    /// between blocks of one cluster, `.cta` only within one block. Across
    /// blocks launched without clusters each block is a cluster of its own,
    /// so `.cluster` leaves the other block out, as `.cta` does.
    pub const fn covers(self, placement: Placement) -> bool {
        match self {
            Scope::Gpu | Scope::Sys => true,
            Scope::Cluster => matches!(placement, Placement::IntraBlock | Placement::IntraCluster),
            Scope::Cta => matches!(placement, Placement::IntraBlock),
        }
    }
}

/// Where the threads that communicate run: a producer and its consumer, or
/// the threads of one litmus instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum Placement {
    /// In different warps of one block.
    IntraBlock = 0,
    /// In different blocks, launched without clusters (so each block is a
    /// cluster of its own).
    InterBlock = 1,
    /// In different blocks of one thread-block cluster (sm_90 and later: a
    /// cluster launch).
    IntraCluster = 4,
    /// In blocks of different thread-block clusters of one cluster launch
    /// (sm_90 and later).
    InterCluster = 5,
}

impl Placement {
    /// The two placements every GPU runs, and the defaults of `host
    /// litmus` and `host publish`. The cluster placements are
    /// [`Placement::CLUSTER`].
    pub const ALL: [Placement; 2] = [Placement::IntraBlock, Placement::InterBlock];

    /// The placements that need a cluster launch, and so compute capability
    /// 9.0: opt-in, never part of a default run.
    pub const CLUSTER: [Placement; 2] = [Placement::IntraCluster, Placement::InterCluster];

    /// Whether it needs a cluster launch (compute capability 9.0 or above).
    pub const fn needs_clusters(self) -> bool {
        matches!(self, Placement::IntraCluster | Placement::InterCluster)
    }

    /// Its name on the command line and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Placement::IntraBlock => "intra-block",
            Placement::InterBlock => "inter-block",
            Placement::IntraCluster => "intra-cluster",
            Placement::InterCluster => "inter-cluster",
        }
    }

    /// Words for the publication demo's tables, where a pair runs in one
    /// block or in two.
    pub const fn text(self) -> &'static str {
        match self {
            Placement::IntraBlock => "same block",
            Placement::InterBlock => "two blocks",
            Placement::IntraCluster => "two blocks of one cluster",
            Placement::InterCluster => "two clusters",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCOPES: [Scope; 4] = [Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys];
    const PLACEMENTS: [Placement; 4] =
        [Placement::IntraBlock, Placement::IntraCluster, Placement::InterBlock, Placement::InterCluster];

    /// `.cta` ⊂ `.cluster` ⊂ `.gpu` ⊂ `.sys`: a scope covers every placement
    /// a narrower one covers, and each covers exactly the placements listed.
    #[test]
    fn scopes_nest_and_cover_what_they_should() {
        for (i, wide) in SCOPES.iter().enumerate() {
            for narrow in &SCOPES[..i] {
                for p in PLACEMENTS {
                    assert!(!narrow.covers(p) || wide.covers(p), "{narrow:?} covers {p:?} but {wide:?} does not");
                }
            }
        }
        let covered = |s: Scope| PLACEMENTS.iter().filter(|&&p| s.covers(p)).count();
        assert_eq!(SCOPES.map(covered), [1, 2, 4, 4]);
        assert!(Scope::Cluster.covers(Placement::IntraCluster));
        assert!(!Scope::Cluster.covers(Placement::InterCluster));
        assert!(!Scope::Cluster.covers(Placement::InterBlock));
        assert!(!Scope::Cta.covers(Placement::IntraCluster));
    }

    #[test]
    fn placement_keys_are_distinct_and_only_the_cluster_ones_need_clusters() {
        for (i, a) in PLACEMENTS.iter().enumerate() {
            for b in &PLACEMENTS[..i] {
                assert_ne!(a.key(), b.key());
                assert_ne!(*a as u32, *b as u32);
            }
        }
        assert!(Placement::ALL.iter().all(|p| !p.needs_clusters()));
        assert!(Placement::CLUSTER.iter().all(|p| p.needs_clusters()));
    }
}
