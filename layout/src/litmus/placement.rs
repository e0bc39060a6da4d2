//! [`Split`]: where the threads of one litmus instance run, from one warp to
//! a cluster each, and the [`BlockSplit`]s between all together and all
//! apart.

use crate::scope::Placement;

use super::suite::Test;

/// One split of a test's roles over blocks that is neither all together nor
/// all apart: the roles of one part share a block (in different warps), and
/// each part has a block of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockSplit {
    /// Its name: `blocks-` and the parts, separated by `-`, each part its
    /// roles' digits in increasing order, the parts ordered by their first
    /// role (cuda-litmus's `TB_01_2` is `blocks-01-2`).
    pub key: &'static str,
    /// The roles of the tests it applies to.
    pub roles: u32,
    /// Role `r`'s part in bits `4r` to `4r + 3`; parts are numbered in the
    /// order of their first role, so role 0 is always in part 0.
    pub parts: u32,
}

/// Every [`BlockSplit`] of three and of four roles: the set partitions of
/// the roles with more than one part and fewer parts than roles (two roles
/// have none, their only partitions being the intra- and inter-block
/// placements). A unit test holds this table to the enumeration.
pub const BLOCK_SPLITS: [BlockSplit; 16] = [
    BlockSplit { key: "blocks-01-2", roles: 3, parts: 0x0100 },
    BlockSplit { key: "blocks-02-1", roles: 3, parts: 0x0010 },
    BlockSplit { key: "blocks-0-12", roles: 3, parts: 0x0110 },
    BlockSplit { key: "blocks-012-3", roles: 4, parts: 0x1000 },
    BlockSplit { key: "blocks-013-2", roles: 4, parts: 0x0100 },
    BlockSplit { key: "blocks-01-23", roles: 4, parts: 0x1100 },
    BlockSplit { key: "blocks-01-2-3", roles: 4, parts: 0x2100 },
    BlockSplit { key: "blocks-023-1", roles: 4, parts: 0x0010 },
    BlockSplit { key: "blocks-02-13", roles: 4, parts: 0x1010 },
    BlockSplit { key: "blocks-02-1-3", roles: 4, parts: 0x2010 },
    BlockSplit { key: "blocks-03-12", roles: 4, parts: 0x0110 },
    BlockSplit { key: "blocks-0-123", roles: 4, parts: 0x1110 },
    BlockSplit { key: "blocks-0-12-3", roles: 4, parts: 0x2110 },
    BlockSplit { key: "blocks-03-1-2", roles: 4, parts: 0x0210 },
    BlockSplit { key: "blocks-0-13-2", roles: 4, parts: 0x1210 },
    BlockSplit { key: "blocks-0-1-23", roles: 4, parts: 0x2210 },
];

/// Where the threads of one litmus instance run: the litmus suite's
/// placement, richer than [`Placement`] (which the publication demo shares),
/// after cuda-litmus, which runs a test's threads in every split over blocks,
/// and with one more, every role in one warp, and two that need a cluster
/// launch (sm_90): every role in a block of its own, the blocks in one
/// thread-block cluster or each in another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// Distinct lanes of one warp.
    Warp,
    /// Different warps of one block: [`Placement::IntraBlock`].
    IntraBlock,
    /// The roles split over blocks as `BLOCK_SPLITS[i]` says.
    Blocks(u8),
    /// Every role in a block of its own: [`Placement::InterBlock`].
    InterBlock,
    /// Every role in a block of its own, all the blocks in one cluster of a
    /// cluster launch: [`Placement::IntraCluster`].
    IntraCluster,
    /// Every role in a block of its own, each block in another cluster of a
    /// cluster launch: [`Placement::InterCluster`].
    InterCluster,
}

/// [`Params::placement`](super::Params::placement) of [`Split::Warp`].
pub const PLACEMENT_WARP: u32 = 2;
/// [`Params::placement`](super::Params::placement) of [`Split::Blocks`];
/// [`Params::parts`](super::Params::parts) says which.
pub const PLACEMENT_BLOCKS: u32 = 3;
/// [`Params::placement`](super::Params::placement) of [`Split::IntraCluster`].
pub const PLACEMENT_INTRA_CLUSTER: u32 = Placement::IntraCluster as u32;
/// [`Params::placement`](super::Params::placement) of [`Split::InterCluster`].
pub const PLACEMENT_INTER_CLUSTER: u32 = Placement::InterCluster as u32;

const _: () = assert!(PLACEMENT_INTRA_CLUSTER > PLACEMENT_BLOCKS && PLACEMENT_INTER_CLUSTER > PLACEMENT_BLOCKS);

/// Every [`Split`]: from the most together to the most apart, then the two
/// cluster placements.
const fn all_splits() -> [Split; 21] {
    let mut all = [Split::Warp; 21];
    all[1] = Split::IntraBlock;
    let mut i = 0;
    while i < BLOCK_SPLITS.len() {
        all[2 + i] = Split::Blocks(i as u8);
        i += 1;
    }
    all[18] = Split::InterBlock;
    all[19] = Split::IntraCluster;
    all[20] = Split::InterCluster;
    all
}

impl Split {
    /// Every placement: from the most together to the most apart, then the
    /// two that need a cluster launch ([`Split::needs_clusters`]); the
    /// [`Split::Blocks`] ones apply to the tests with their number of roles
    /// only ([`Split::fits`]).
    pub const ALL: [Split; 21] = all_splits();

    /// The placements that need a cluster launch, and so sm_90.
    pub const CLUSTER: [Split; 2] = [Split::IntraCluster, Split::InterCluster];

    /// The placements `host litmus` runs by default: today's two.
    pub const DEFAULT: [Split; 2] = [Split::IntraBlock, Split::InterBlock];

    /// Its name on the command line and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Split::Warp => "warp",
            Split::IntraBlock => Placement::IntraBlock.key(),
            Split::InterBlock => Placement::InterBlock.key(),
            Split::IntraCluster => Placement::IntraCluster.key(),
            Split::InterCluster => Placement::InterCluster.key(),
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].key,
        }
    }

    /// Whether it needs a cluster launch (compute capability 9.0 and the
    /// Hopper module).
    pub const fn needs_clusters(self) -> bool {
        matches!(self, Split::IntraCluster | Split::InterCluster)
    }

    /// Blocks per cluster of its launch for a test of `roles` roles, or
    /// `None` for a launch without clusters: the roles rounded up to a power
    /// of two, at least 2 (so 2 for MP, SB and LB, 4 for WRC and IRIW),
    /// the same for both cluster placements so that the two launch alike
    /// and differ only in where each role's partner sits. Within one
    /// cluster every role then has a block of its own.
    pub const fn cluster_blocks(self, roles: u32) -> Option<u32> {
        match self {
            Split::IntraCluster | Split::InterCluster => Some(if roles <= 2 { 2 } else { roles.next_power_of_two() }),
            _ => None,
        }
    }

    /// The fewest testing blocks an instance of `roles` roles can run on in
    /// this placement: one block per part (a block per role across blocks),
    /// or in the cluster placements one whole cluster (intra-cluster) or a
    /// cluster per role (inter-cluster).
    pub const fn min_testing_blocks(self, roles: u32) -> u32 {
        match (self, self.cluster_blocks(roles)) {
            (Split::IntraCluster, Some(size)) => size,
            (Split::InterCluster, Some(size)) => size * roles,
            _ => self.blocks_for(roles),
        }
    }

    /// The cluster (0, 1, ...) that `role` runs in, relative to role 0's,
    /// as the memory model sees it: a block launched without clusters is a
    /// cluster of its own, so outside the cluster placements this is
    /// [`Split::block_of`].
    pub const fn cluster_of(self, role: u32) -> u32 {
        match self {
            Split::IntraCluster => 0,
            _ => self.block_of(role),
        }
    }

    /// Whether it applies to `test`: every placement but a block split,
    /// which applies to the tests with its number of roles.
    pub const fn fits(self, test: Test) -> bool {
        match self {
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].roles == test.threads(),
            _ => true,
        }
    }

    /// The roles of the tests it applies to, for a block split; `None` for
    /// the placements that fit every test.
    pub const fn roles(self) -> Option<u32> {
        match self {
            Split::Blocks(i) => Some(BLOCK_SPLITS[i as usize].roles),
            _ => None,
        }
    }

    /// The block (0, 1, ...) that `role` runs in, relative to role 0's.
    pub const fn block_of(self, role: u32) -> u32 {
        match self {
            Split::Warp | Split::IntraBlock => 0,
            Split::InterBlock | Split::IntraCluster | Split::InterCluster => role,
            Split::Blocks(i) => (BLOCK_SPLITS[i as usize].parts >> (4 * (role & 7))) & 0xF,
        }
    }

    /// Whether roles `a` and `b` run in one block.
    pub const fn same_block(self, a: u32, b: u32) -> bool {
        self.block_of(a) == self.block_of(b)
    }

    /// Distinct blocks an instance of `test` spans.
    pub const fn blocks(self, test: Test) -> u32 {
        self.blocks_for(test.threads())
    }

    /// Distinct blocks an instance of `roles` roles spans.
    pub const fn blocks_for(self, roles: u32) -> u32 {
        let mut most = 0;
        let mut r = 0;
        while r < roles {
            if self.block_of(r) > most {
                most = self.block_of(r);
            }
            r += 1;
        }
        most + 1
    }

    /// [`Params::placement`](super::Params::placement) for it.
    pub const fn code(self) -> u32 {
        match self {
            Split::Warp => PLACEMENT_WARP,
            Split::IntraBlock => Placement::IntraBlock as u32,
            Split::InterBlock => Placement::InterBlock as u32,
            Split::Blocks(_) => PLACEMENT_BLOCKS,
            Split::IntraCluster => PLACEMENT_INTRA_CLUSTER,
            Split::InterCluster => PLACEMENT_INTER_CLUSTER,
        }
    }

    /// [`Params::parts`](super::Params::parts) for it: the block split's parts, else 0.
    pub const fn parts(self) -> u32 {
        match self {
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].parts,
            _ => 0,
        }
    }
}

impl From<Placement> for Split {
    fn from(placement: Placement) -> Split {
        match placement {
            Placement::IntraBlock => Split::IntraBlock,
            Placement::InterBlock => Split::InterBlock,
            Placement::IntraCluster => Split::IntraCluster,
            Placement::InterCluster => Split::InterCluster,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of block splits is every set partition of three and four
    /// roles but the two with one part or one role per part, each once,
    /// canonical (parts numbered by their first role), named by its parts.
    #[test]
    fn the_block_splits_are_the_set_partitions() {
        for roles in [3u32, 4] {
            // Restricted growth strings: part[r] <= max(part[..r]) + 1.
            let mut count = 0;
            for code in 0..(1u32 << (4 * roles)) {
                let part = |r: u32| (code >> (4 * r)) & 0xF;
                let mut most = 0;
                let mut canonical = part(0) == 0;
                for r in 1..roles {
                    canonical &= part(r) <= most + 1;
                    most = most.max(part(r));
                }
                if !canonical || most == 0 || most == roles - 1 {
                    continue;
                }
                count += 1;
                let mut found = BLOCK_SPLITS.iter().filter(|s| s.roles == roles && s.parts == code);
                let split = found.next().expect("every split is in the table");
                assert!(found.next().is_none(), "{roles} roles, parts {code:#x} twice");
                let mut key = [0u8; 16];
                key[..6].copy_from_slice(b"blocks");
                let mut len = 6;
                for p in 0..=most {
                    key[len] = b'-';
                    len += 1;
                    for r in (0..roles).filter(|&r| part(r) == p) {
                        key[len] = b'0' + r as u8;
                        len += 1;
                    }
                }
                assert_eq!(split.key.as_bytes(), &key[..len]);
            }
            assert_eq!(count, BLOCK_SPLITS.iter().filter(|s| s.roles == roles).count());
        }
        assert_eq!(BLOCK_SPLITS.iter().filter(|s| s.roles == 3).count(), 3);
        assert_eq!(BLOCK_SPLITS.iter().filter(|s| s.roles == 4).count(), 13);
    }

    #[test]
    fn placements_have_distinct_keys_and_fit_their_tests() {
        for (i, a) in Split::ALL.iter().enumerate() {
            for b in &Split::ALL[..i] {
                assert_ne!(a.key(), b.key());
            }
        }
        assert_eq!(Split::from(Placement::IntraBlock).key(), "intra-block");
        assert_eq!(Split::from(Placement::InterBlock).key(), "inter-block");
        assert_eq!(Split::from(Placement::InterBlock).code(), Placement::InterBlock as u32);
        for test in Test::ALL {
            let fitting = Split::ALL.iter().filter(|s| s.fits(test)).count();
            assert_eq!(fitting, [0, 5, 5, 8, 18][test.threads() as usize], "{}", test.name());
        }
        let wrc = Split::ALL.iter().find(|s| s.key() == "blocks-0-12").unwrap();
        assert_eq!([0, 1, 2].map(|r| wrc.block_of(r)), [0, 1, 1]);
        assert_eq!(wrc.blocks(Test::Wrc), 2);
        assert_eq!(Split::InterBlock.blocks(Test::Iriw), 4);
        assert_eq!(Split::Warp.blocks(Test::Iriw), 1);
        assert_eq!(Split::from(Placement::IntraCluster).key(), "intra-cluster");
        assert_eq!(Split::from(Placement::InterCluster).key(), "inter-cluster");
        assert_eq!(Split::ALL.iter().filter(|s| s.needs_clusters()).count(), 2);
        // Clusters of 2 for two roles, of 4 for three and four.
        assert_eq!(
            [Test::Mp, Test::Wrc, Test::Iriw].map(|t| Split::IntraCluster.cluster_blocks(t.threads())),
            [Some(2), Some(4), Some(4)]
        );
        assert_eq!(Split::InterBlock.cluster_blocks(2), None);
        assert_eq!([0, 1, 2, 3].map(|r| Split::IntraCluster.cluster_of(r)), [0, 0, 0, 0]);
        assert_eq!([0, 1, 2, 3].map(|r| Split::InterCluster.cluster_of(r)), [0, 1, 2, 3]);
    }
}
