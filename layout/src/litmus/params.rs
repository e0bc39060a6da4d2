//! [`Params`]: the testing environment, one `#[repr(C)]` block the host
//! writes and every kernel reads, with the maps from a thread to the
//! instance it works on and from an instance to its locations; and the
//! environment's choices ([`Preload`], [`StressPattern`]).

use crate::entry::WARP_SIZE;
use crate::scope::Placement;

use super::op::Location;
use super::placement::{PLACEMENT_INTER_CLUSTER, PLACEMENT_INTRA_CLUSTER, PLACEMENT_WARP};

/// What the testing threads read before the test starts, to leave a stale
/// copy of a location in an SM's L1 (which weak and `.cta` loads may hit,
/// and which no other SM's store updates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Preload {
    /// Nothing.
    None = 0,
    /// Each thread reads the [`Role::stale`](super::Role::stale) location of the instance it is
    /// about to observe.
    Observer = 1,
    /// Each thread reads the one its partner in the other half of the block
    /// (thread index xor half the block) is about to observe: the copy sits
    /// in the observer's L1 without the observer having touched it.
    Neighbour = 2,
}

impl Preload {
    /// Every choice.
    pub const ALL: [Preload; 3] = [Preload::None, Preload::Observer, Preload::Neighbour];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        match self {
            Preload::None => "none",
            Preload::Observer => "observer",
            Preload::Neighbour => "neighbour",
        }
    }
}

/// What each stressing thread does per iteration, to its line of the stress
/// buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum StressPattern {
    /// Two stores.
    StoreStore = 0,
    /// A store, then a load.
    StoreLoad = 1,
    /// A load, then a store.
    LoadStore = 2,
    /// Two loads.
    LoadLoad = 3,
}

impl StressPattern {
    /// Every pattern.
    pub const ALL: [StressPattern; 4] =
        [StressPattern::StoreStore, StressPattern::StoreLoad, StressPattern::LoadStore, StressPattern::LoadLoad];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        match self {
            StressPattern::StoreStore => "store-store",
            StressPattern::StoreLoad => "store-load",
            StressPattern::LoadStore => "load-store",
            StressPattern::LoadLoad => "load-load",
        }
    }
}

/// Words between the starts of two lines of the stress buffer: 1 KiB, so two
/// lines never share a 128-byte cache line.
pub const STRESS_LINE_STRIDE: u32 = 256;

/// The testing environment of one launch: what the host writes into global
/// memory once per configuration and every litmus kernel reads. Every field
/// is a `u32` so that the layout is the same on both sides with no padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// [`Split::code`](super::Split::code): [`Placement`] as a `u32` for the intra- and
    /// inter-block placements, [`PLACEMENT_WARP`] or [`PLACEMENT_BLOCKS`](super::PLACEMENT_BLOCKS).
    pub placement: u32,
    /// Blocks that run the test; the grid's other blocks stress memory.
    pub testing_blocks: u32,
    /// Threads per block: a power of two, at least four warps.
    pub threads: u32,
    /// Odd: a thread's partner in role `r` is at lane `lane * multiplier^r`
    /// (mod the warp, intra-block; mod the block, inter-block).
    pub lane_multiplier: u32,
    /// Inter-block: role `r`'s partner block is `r * block_step` blocks
    /// further on, mod the testing blocks.
    pub block_step: u32,
    /// Coprime with `testing_blocks`: the hardware's block `b` plays logical
    /// block `(b * block_multiplier + shift) mod testing_blocks`, `shift`
    /// changing every launch.
    pub block_multiplier: u32,
    /// Words from one instance's `x` to the next instance's.
    pub location_stride: u32,
    /// Words from the start of an instance slot to its `y`: below 32 shares
    /// `x`'s 128-byte line. A slot's `z` is `location_stride / 4` words
    /// further on ([`Params::z`]).
    pub location_offset: u32,
    /// Coprime with the instance count: instance `i`'s `y` sits in the slot
    /// of instance `i * location_multiplier` (1: its own slot), its `z` in
    /// the slot of instance `i * location_multiplier^2` ([`Params::z`]).
    pub location_multiplier: u32,
    /// [`StressPattern`] as a `u32`.
    pub stress_pattern: u32,
    /// Iterations of the pattern by each stressing thread.
    pub stress_iterations: u32,
    /// Words of each stress line the threads touch (1 to 32).
    pub stress_line_words: u32,
    /// Distinct stress lines, spread over the stressing warps.
    pub stress_lines: u32,
    /// Iterations of the stress pattern by each testing thread before its test.
    pub pre_stress_iterations: u32,
    /// The synchronised start: each testing thread counts itself in and
    /// waits for all of them, for at most this many polls (0: no wait).
    pub sync_polls: u32,
    /// [`Preload`] as a `u32`.
    pub preload: u32,
    /// 1: the sequential control (one block or one warp only): a barrier between
    /// roles, so each role of every instance finishes before the next starts.
    pub sequential: u32,
    /// Always 0: an offset the kernels add to the address of a second access
    /// to one location, which `ptxas` cannot see through, so that it keeps
    /// both accesses (it merges two weak loads of one address it can prove
    /// equal).
    pub zero: u32,
    /// The test's [`Test::registers`](super::Test::registers), for the classifier of a test with
    /// final values ([`final_outcome_bin`](super::final_outcome_bin)'s `used`).
    pub outcome_registers: u32,
    /// The test's [`Test::finals_mask`](super::Test::finals_mask): 0 for a test whose outcome is its
    /// registers alone, which the classifier then bins as it always has.
    pub outcome_finals: u32,
    /// The test's roles (threads per instance): one warp's lanes are split
    /// among them ([`Params::instance`], [`PLACEMENT_WARP`]).
    pub roles: u32,
    /// [`Split::parts`](super::Split::parts): with
    /// [`PLACEMENT_BLOCKS`](super::PLACEMENT_BLOCKS), role `r`'s part in bits `4r` to
    /// `4r + 3`; otherwise 0.
    pub parts: u32,
    /// Blocks per cluster of the launch
    /// ([`Split::cluster_blocks`](super::Split::cluster_blocks)) in the cluster
    /// placements, which launch with that cluster size and whose testing blocks are
    /// whole clusters; 1 otherwise (a block launched without clusters is a cluster of
    /// its own).
    pub cluster_blocks: u32,
}

impl crate::Pointee for Params {
    const NAME: &'static str = "Params";
}

const _: () = assert!(size_of::<Params>() == 23 * 4);

/// `a mod b`, or 0 when `b` is 0. Every remainder in the litmus kernels goes
/// through this: a host that passed a zero would get wrong instances, never
/// a trap, and the PTX keeps no panic path.
pub const fn rem(a: u64, b: u64) -> u64 {
    if b == 0 { 0 } else { a % b }
}

impl Params {
    /// Instances per launch: one per testing thread.
    pub const fn instances(&self) -> u32 {
        self.testing_blocks * self.threads
    }

    /// The instance that thread `thread` of logical block `block` works on in
    /// `role`. For each role this is a bijection on the instances (every
    /// instance gets exactly one thread per role), and the threads of one
    /// instance sit where [`Params::placement`] says:
    ///
    /// - Intra-block: in different warps of one block, given at least as many
    ///   warps as roles. Role `r` takes the warp `r` further on and lane
    ///   `lane * multiplier^r` of it.
    /// - Inter-block: in different blocks, given `r * block_step` is never a
    ///   multiple of the testing blocks for `0 < r < roles`. Role `r` takes
    ///   the block `r * block_step` further on and thread
    ///   `thread * multiplier^r` of it.
    /// - One warp ([`PLACEMENT_WARP`]): in distinct lanes of one warp. Role
    ///   `r` keeps its warp, and takes lane `((lane + r * s) * multiplier) mod
    ///   32`, with `s = 32 / roles`. Each role's map permutes the lanes (a
    ///   rotation, then a multiplication by an odd number modulo 32), so it is
    ///   a bijection. The thread of role `r` for an instance at lane `L` is at
    ///   lane `(L * multiplier^-1 - r * s) mod 32` (an odd number is
    ///   invertible modulo 32), and two roles `r != r'` below `roles` differ by
    ///   `(r - r') * s`, between `s` and `(roles - 1) * s <= 32 - s` in size:
    ///   never a multiple of 32, so their lanes differ.
    /// - A block split ([`PLACEMENT_BLOCKS`](super::PLACEMENT_BLOCKS)): role `r` of part `p` takes the
    ///   block `p * block_step` further on and, in it, what intra-block takes.
    ///   Each of the three steps (block, warp, lane) is a bijection, so the
    ///   whole is. Two roles of one part share their block and sit in warps
    ///   `r` and `r'` back, distinct given at least as many warps as roles;
    ///   two roles of different parts `p != p'` sit in blocks `(p - p') *
    ///   block_step` apart, never a multiple of the testing blocks, since
    ///   `0 < |p - p'| < roles`.
    ///
    /// - The cluster placements ([`PLACEMENT_INTRA_CLUSTER`],
    ///   [`PLACEMENT_INTER_CLUSTER`]): logical block `b` is rank `b mod C`
    ///   of cluster `b / C`, `C` = [`Params::cluster_blocks`] (the testing
    ///   blocks are whole clusters, and [`Params::logical_block`] keeps each
    ///   hardware cluster's blocks together). Role `r` takes thread
    ///   `thread * multiplier^r` of the block `r` ranks further on in the
    ///   same cluster (intra-cluster), or of the block of the same rank
    ///   `r * block_step` clusters further on (inter-cluster). Each step
    ///   adds a constant modulo its range, so it is a bijection. Two roles
    ///   `r != r'` sit `(r - r') mod C` ranks apart in one cluster, never 0
    ///   since `0 < |r - r'| < roles <= C`; or `(r - r') * block_step`
    ///   clusters apart, never a multiple of the clusters given the step the
    ///   host picks.
    ///
    /// The intra- and inter-block maps are the ones the reference results
    /// were measured with, unchanged.
    pub const fn instance(&self, role: u32, block: u32, thread: u32) -> u32 {
        let mut multiplier = 1u32;
        let mut r = 0;
        while r < role {
            multiplier = multiplier.wrapping_mul(self.lane_multiplier);
            r += 1;
        }
        if self.placement == Placement::IntraBlock as u32 {
            let warps = self.threads / WARP_SIZE;
            let warp = rem((thread / WARP_SIZE + role) as u64, warps as u64) as u32;
            let lane = (thread % WARP_SIZE).wrapping_mul(multiplier) % WARP_SIZE;
            block * self.threads + warp * WARP_SIZE + lane
        } else if self.placement == Placement::InterBlock as u32 {
            let partner_block =
                rem(block as u64 + role as u64 * self.block_step as u64, self.testing_blocks as u64) as u32;
            let lane = thread.wrapping_mul(multiplier) & (self.threads - 1);
            partner_block * self.threads + lane
        } else if self.placement == PLACEMENT_WARP {
            // The same warp of the same block: only the lane moves, and the
            // rotation by `role * stride` keeps the roles' lanes apart.
            let stride = match WARP_SIZE.checked_div(self.roles) {
                Some(stride) => stride,
                None => 0,
            };
            let rotated = (thread % WARP_SIZE).wrapping_add(role.wrapping_mul(stride)) % WARP_SIZE;
            let lane = rotated.wrapping_mul(self.lane_multiplier) % WARP_SIZE;
            block * self.threads + (thread / WARP_SIZE) * WARP_SIZE + lane
        } else if self.placement == PLACEMENT_INTRA_CLUSTER || self.placement == PLACEMENT_INTER_CLUSTER {
            // The partner's cluster and rank, then any thread of its block:
            // the roles are in different blocks, so the lanes need not differ.
            let size = self.cluster_size();
            let clusters = self.testing_blocks / size;
            let (cluster, rank) = (block / size, block % size);
            let (cluster_step, rank_step) =
                if self.placement == PLACEMENT_INTRA_CLUSTER { (0, 1) } else { (self.block_step, 0) };
            let partner_cluster = rem(cluster as u64 + role as u64 * cluster_step as u64, clusters as u64) as u32;
            let partner_rank = rem(rank as u64 + role as u64 * rank_step as u64, size as u64) as u32;
            let lane = thread.wrapping_mul(multiplier) & (self.threads - 1);
            (partner_cluster * size + partner_rank) * self.threads + lane
        } else {
            // The part's block, then the intra-block map inside it.
            let part = self.parts.wrapping_shr(4 * role) & 0xF;
            let partner_block =
                rem(block as u64 + part as u64 * self.block_step as u64, self.testing_blocks as u64) as u32;
            let warps = self.threads / WARP_SIZE;
            let warp = rem((thread / WARP_SIZE + role) as u64, warps as u64) as u32;
            let lane = (thread % WARP_SIZE).wrapping_mul(multiplier) % WARP_SIZE;
            partner_block * self.threads + warp * WARP_SIZE + lane
        }
    }

    /// [`Params::cluster_blocks`], never 0: a host that wrote 0 gets
    /// clusters of one block, never a division by zero.
    pub const fn cluster_size(&self) -> u32 {
        if self.cluster_blocks == 0 { 1 } else { self.cluster_blocks }
    }

    /// The logical block that hardware block `hardware` (below
    /// `testing_blocks`) plays in a launch rotated by `shift`: `(hardware *
    /// block_multiplier + shift) mod testing_blocks`; in the cluster
    /// placements the same shuffle of whole clusters, each block keeping its
    /// rank (`hardware mod C`), so that the blocks of one hardware cluster
    /// stay one logical cluster. A 1-D cluster launch makes blocks `kC` to
    /// `kC + C - 1` cluster `k` (the CUDA programming guide's cluster
    /// index is the block index divided by the cluster's dimension). Either
    /// way a bijection on the testing blocks, given `block_multiplier`
    /// coprime with their number (of clusters, in the cluster placements).
    pub const fn logical_block(&self, hardware: u32, shift: u32) -> u32 {
        let size = self.cluster_size();
        if size == 1 {
            return rem(hardware as u64 * self.block_multiplier as u64 + shift as u64, self.testing_blocks as u64)
                as u32;
        }
        let clusters = self.testing_blocks / size;
        let cluster =
            rem((hardware / size) as u64 * self.block_multiplier as u64 + shift as u64, clusters as u64) as u32;
        cluster * size + hardware % size
    }

    /// The word index of instance `i`'s `x`.
    pub const fn x(&self, i: u32) -> usize {
        i as usize * self.location_stride as usize
    }

    /// The word index of instance `i`'s `y`.
    pub const fn y(&self, i: u32) -> usize {
        let slot = rem(i as u64 * self.location_multiplier as u64, self.instances() as u64);
        slot as usize * self.location_stride as usize + self.location_offset as usize
    }

    /// The word index of instance `i`'s `z`: in the slot of instance
    /// `i * location_multiplier^2` (its own slot when the multiplier is 1),
    /// `location_stride / 4` words after where `y` sits in a slot. So `z` keeps
    /// `y`'s relation to `x`: on `x`'s line when `y` is (the same-line
    /// distance puts `x`, `y` and `z` at words 0, 1 and 17 of one slot), on
    /// the other line of the slot when `y` is (words 0, 32 and 48). Like `x`
    /// and `y`, it is a bijection from instances to slots, and its word in a
    /// slot is neither `x`'s (0) nor `y`'s (`location_offset`), given
    /// `0 < location_offset` and `location_offset + location_stride / 4 <
    /// location_stride`: no two locations of any instances share a word.
    pub const fn z(&self, i: u32) -> usize {
        let n = self.instances() as u64;
        let m = self.location_multiplier as u64;
        let slot = rem(rem(i as u64 * m, n) * m, n);
        slot as usize * self.location_stride as usize
            + self.location_offset as usize
            + self.location_stride as usize / 4
    }

    /// The word index of `location` of instance `i`.
    pub const fn word(&self, location: Location, i: u32) -> usize {
        match location {
            Location::X => self.x(i),
            Location::Y => self.y(i),
            Location::Z => self.z(i),
        }
    }

    /// Words the location buffer needs: one slot of `location_stride` words
    /// per instance, which holds an `x`, a `y` and a `z` (of three instances,
    /// in general).
    pub const fn location_words(&self) -> usize {
        self.instances() as usize * self.location_stride as usize
    }

    /// Words the stress buffer needs.
    pub const fn stress_words(&self) -> usize {
        self.stress_lines as usize * STRESS_LINE_STRIDE as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::litmus::placement::{BLOCK_SPLITS, Split};

    fn params(placement: impl Into<Split>, testing_blocks: u32, threads: u32) -> Params {
        let split = placement.into();
        Params {
            placement: split.code(),
            testing_blocks,
            threads,
            lane_multiplier: 5,
            block_step: 3,
            block_multiplier: 1,
            location_stride: 64,
            location_offset: 32,
            location_multiplier: 7,
            stress_pattern: 0,
            stress_iterations: 0,
            stress_line_words: 1,
            stress_lines: 1,
            pre_stress_iterations: 0,
            sync_polls: 0,
            preload: 0,
            sequential: 0,
            zero: 0,
            outcome_registers: 0,
            outcome_finals: 0,
            roles: 4,
            parts: split.parts(),
            cluster_blocks: split.cluster_blocks(4).unwrap_or(1),
        }
    }

    #[test]
    fn each_role_is_a_bijection_and_an_instance_spans_distinct_warps_or_blocks() {
        // Every placement, with every number of roles it applies to, on 3
        // and on 5 testing blocks (block step 3 suits 5; with 3 blocks only
        // the placements in one block can run, inter-block needing step 1).
        for split in Split::ALL {
            for roles in 2..=4u32 {
                if let Split::Blocks(i) = split
                    && BLOCK_SPLITS[i as usize].roles != roles
                {
                    continue;
                }
                if let Some(size) = split.cluster_blocks(roles) {
                    // Whole clusters: one (intra-cluster), or at least one per
                    // role, `block_step` clusters apart (3 suits 5 clusters).
                    for clusters in [1, 5] {
                        if split == Split::InterCluster && clusters == 1 {
                            continue;
                        }
                        let mut p = params(split, clusters * size, 128);
                        (p.roles, p.cluster_blocks) = (roles, size);
                        check_instances(split, &p, roles);
                    }
                    continue;
                }
                let one_block = split.blocks_for(roles) == 1;
                for blocks in [3, 5] {
                    if !one_block && blocks == 3 {
                        continue;
                    }
                    let mut p = params(split, blocks, 128);
                    p.roles = roles;
                    check_instances(split, &p, roles);
                }
            }
        }
    }

    /// Each of `roles` roles maps the threads onto the instances one to one,
    /// and the roles of each instance sit where `split` says: in one warp at
    /// distinct lanes, in one block in distinct warps, or in distinct blocks
    /// (of one cluster, or of distinct clusters, in the cluster placements).
    fn check_instances(split: Split, p: &Params, roles: u32) {
        let n = p.instances() as usize;
        // owner[role][instance] = (block, thread)
        let mut owner = [[(u32::MAX, 0u32); 2560]; 4];
        for role in 0..roles {
            for block in 0..p.testing_blocks {
                for thread in 0..p.threads {
                    let i = p.instance(role, block, thread) as usize;
                    assert!(i < n);
                    assert_eq!(owner[role as usize][i].0, u32::MAX, "{split:?}: role {role} maps two threads to {i}");
                    owner[role as usize][i] = (block, thread);
                }
            }
        }
        for i in 0..n {
            let threads = owner.map(|role| role[i]);
            for a in 0..roles {
                for b in 0..a {
                    let (x, y) = (threads[a as usize], threads[b as usize]);
                    let cluster = |block: u32| block / p.cluster_size();
                    let placed = if split == Split::IntraCluster {
                        x.0 != y.0 && cluster(x.0) == cluster(y.0)
                    } else if split == Split::InterCluster {
                        cluster(x.0) != cluster(y.0)
                    } else if !split.same_block(a, b) {
                        x.0 != y.0
                    } else if split == Split::Warp {
                        x.0 == y.0 && x.1 / 32 == y.1 / 32 && x.1 != y.1
                    } else {
                        x.0 == y.0 && x.1 / 32 != y.1 / 32
                    };
                    assert!(placed, "{split:?} with {roles} roles, instance {i}, roles {a} and {b}: {x:?} {y:?}");
                }
            }
        }
    }

    /// The intra- and inter-block maps are the ones the reference results
    /// were measured with: the formulas as they were before the other
    /// placements, written out again here.
    #[test]
    fn the_two_original_placements_keep_their_map() {
        for (placement, blocks) in [(Placement::IntraBlock, 3), (Placement::InterBlock, 5)] {
            let p = params(placement, blocks, 128);
            for role in 0..4u32 {
                let multiplier = 5u32.pow(role);
                for block in 0..blocks {
                    for thread in 0..128 {
                        let expected = if placement == Placement::IntraBlock {
                            block * 128 + (thread / 32 + role) % 4 * 32 + (thread % 32) * multiplier % 32
                        } else {
                            (block + role * 3) % blocks * 128 + thread * multiplier % 128
                        };
                        assert_eq!(p.instance(role, block, thread), expected);
                    }
                }
            }
        }
    }

    /// The logical block is a bijection on the testing blocks for every
    /// shift, and in the cluster placements it keeps each hardware
    /// cluster's blocks in one logical cluster, at their own ranks; without
    /// clusters it is the shuffle the reference results ran with.
    #[test]
    fn the_block_shuffle_keeps_clusters_whole() {
        for split in [Split::InterBlock, Split::IntraCluster, Split::InterCluster] {
            let size = split.cluster_blocks(2).unwrap_or(1);
            let mut p = params(split, 6 * size, 128);
            (p.block_multiplier, p.cluster_blocks) = (5, size);
            for shift in 0..7 {
                let mut seen = [false; 12];
                for hardware in 0..p.testing_blocks {
                    let logical = p.logical_block(hardware, shift);
                    assert!(!seen[logical as usize], "{split:?} shift {shift}: {logical} twice");
                    seen[logical as usize] = true;
                    assert_eq!(logical % size, hardware % size);
                    if size == 1 {
                        assert_eq!(logical, (hardware * 5 + shift) % p.testing_blocks);
                    }
                    // The cluster's first block decides where the rest go.
                    let first = p.logical_block(hardware - hardware % size, shift);
                    assert_eq!(logical / size, first / size);
                }
            }
        }
    }

    #[test]
    fn locations_never_collide() {
        let p = params(Placement::InterBlock, 5, 128);
        let mut used = [false; 640 * 64];
        for i in 0..p.instances() {
            for w in [p.x(i), p.y(i), p.z(i)] {
                assert!(w < p.location_words() && !used[w]);
                used[w] = true;
            }
        }
    }
}
