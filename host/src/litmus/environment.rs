//! The parallel testing environment as the host chooses it: the knobs of
//! `layout::litmus::Params` in words, the named presets, and the random
//! draws of `--tune`.

use layout::litmus::{Params, Preload, Split, StressPattern, Test};

use crate::rng::splitmix64;

/// Where an instance's two locations sit relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Distance {
    /// `x` and `y` in one 128-byte line (4 bytes apart).
    SameLine,
    /// `x` and `y` in neighbouring lines of the instance's own 256-byte slot.
    DifferentLines,
    /// `y` in another instance's slot, chosen by a multiplier per run.
    Random,
}

/// Every knob of the testing environment. Printed with the results and
/// stored in the JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Environment {
    /// Threads per block: 128 to 1024, a power of two.
    pub threads: u32,
    /// Blocks per launch, if fewer than fit on the device at once (the
    /// default): with the threads and the testing share, this sets the
    /// instances per launch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<u32>,
    /// Percent of the grid's blocks that run the test; the rest stress.
    pub testing_percent: u32,
    /// Odd: partners are at lane `lane * multiplier^role`, modulo the warp or
    /// the block, which only an odd multiplier permutes. Every source of an
    /// environment keeps it odd: the presets, the random draw, and the CLI,
    /// which refuses an even one.
    pub lane_multiplier: u32,
    /// Shuffle which hardware block plays which logical block, every launch.
    pub shuffle_blocks: bool,
    /// Where `y` sits relative to `x`.
    pub distance: Distance,
    /// Words of the location buffer per instance: 64 (256 bytes, two
    /// 128-byte lines, the default) or 32 give every instance lines of its
    /// own; 16, 8 and 4 pack 2, 4 and 8 instances' slots into each line, as
    /// cuda-litmus's small memory strides do, so that instances share lines.
    #[serde(default = "default_location_stride", skip_serializing_if = "is_default_location_stride")]
    pub location_stride: u32,
    /// The stressing threads' pattern.
    #[serde(with = "super::keys::one")]
    pub stress_pattern: StressPattern,
    /// Iterations of the pattern per stressing thread (0: no stress).
    pub stress_iterations: u32,
    /// Words of each stress line touched, 1 to 32.
    pub stress_line_words: u32,
    /// Stress lines.
    pub stress_lines: u32,
    /// Iterations of the pattern by each testing thread before its test.
    pub pre_stress_iterations: u32,
    /// Wait for every testing thread before the test (a bounded spin).
    pub sync_start: bool,
    /// Leave a stale line in L1 before the test.
    #[serde(with = "super::keys::one")]
    pub preload: Preload,
    /// The seed of the choices the other knobs leave to each row: the
    /// multiplier that places `y` in another instance's slot (`random`
    /// locations), and the block multiplier and per-launch rotations of
    /// shuffled blocks. With one, every row in this environment lays its
    /// instances out the same way each time it runs on a GPU, so a search's
    /// winner runs again as it won. Without one (the presets), each row
    /// draws them from the run's `--seed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_seed: Option<u64>,
}

/// The location stride every preset uses: a 256-byte slot per instance.
pub const DEFAULT_LOCATION_STRIDE: u32 = 64;

/// The location strides an environment may use: powers of two from 4 words
/// (`x`, `y` and `z` need three of a slot's words, `z` a quarter of the slot
/// after `y`) to the default.
pub const LOCATION_STRIDES: [u32; 5] = [4, 8, 16, 32, DEFAULT_LOCATION_STRIDE];

fn default_location_stride() -> u32 {
    DEFAULT_LOCATION_STRIDE
}

fn is_default_location_stride(stride: &u32) -> bool {
    *stride == DEFAULT_LOCATION_STRIDE
}

/// The named presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Every block tests, nothing else happens: the bare hardware.
    Quiet,
    /// Permuted partners, shuffled blocks, scattered locations and a
    /// synchronised start: the parallel testing environment with no stress.
    Parallel,
    /// `parallel`, and each observer first reads the location it will
    /// observe, so a stale copy waits in its SM's L1.
    StaleL1,
    /// `stale-l1`, and a quarter of the blocks hammer a few lines with
    /// stores and loads while the rest test.
    Stress,
    /// The winner for MP and SB of one tuning search on an H200 (`host
    /// litmus --tune` runs such a search; its winners differ from GPU to GPU
    /// and from search to search), made before the environment's preload and
    /// stress loads were kept live, so a search today may well find another:
    /// small blocks, half of them testing, scattered locations, a
    /// synchronised start.
    TunedMp,
    /// The winner for WRC `relaxed-gpu` across blocks, per second and per
    /// million, of a search of 300 environments on an H200 (`host litmus
    /// --tune 300 --seconds 0.03 --placement inter-block --test wrc,iriw
    /// --variant relaxed-gpu,relaxed-cta,fence-acq-rel-cta`): blocks of 512
    /// threads, a quarter of them testing and the rest stressing 42 lines
    /// briefly, the observer's preload, no synchronised start.
    TunedWrc,
    /// The winner for IRIW `relaxed-gpu` across blocks of the same search: as
    /// `tuned-wrc`, with longer stores-only stress and a synchronised start.
    TunedIriw,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 7] = [
        Preset::Quiet,
        Preset::Parallel,
        Preset::StaleL1,
        Preset::Stress,
        Preset::TunedMp,
        Preset::TunedWrc,
        Preset::TunedIriw,
    ];

    /// The environment of this preset.
    pub fn environment(self) -> Environment {
        let parallel = Environment {
            threads: 256,
            blocks: None,
            testing_percent: 100,
            lane_multiplier: 13,
            shuffle_blocks: true,
            distance: Distance::Random,
            location_stride: DEFAULT_LOCATION_STRIDE,
            stress_pattern: StressPattern::StoreLoad,
            stress_iterations: 0,
            stress_line_words: 32,
            stress_lines: 8,
            pre_stress_iterations: 0,
            sync_start: true,
            preload: Preload::None,
            layout_seed: None,
        };
        match self {
            Preset::Quiet => Environment {
                lane_multiplier: 1,
                shuffle_blocks: false,
                distance: Distance::DifferentLines,
                sync_start: false,
                ..parallel
            },
            Preset::Parallel => parallel,
            Preset::StaleL1 => Environment { preload: Preload::Observer, ..parallel },
            Preset::Stress => Environment {
                testing_percent: 75,
                stress_iterations: 256,
                pre_stress_iterations: 16,
                preload: Preload::Observer,
                ..parallel
            },
            Preset::TunedMp => Environment {
                threads: 128,
                blocks: None,
                testing_percent: 50,
                lane_multiplier: 3,
                shuffle_blocks: false,
                distance: Distance::Random,
                location_stride: DEFAULT_LOCATION_STRIDE,
                stress_pattern: StressPattern::StoreStore,
                stress_iterations: 0,
                stress_line_words: 13,
                stress_lines: 21,
                pre_stress_iterations: 4,
                sync_start: true,
                preload: Preload::Observer,
                layout_seed: None,
            },
            Preset::TunedWrc => Environment {
                threads: 512,
                blocks: None,
                testing_percent: 25,
                lane_multiplier: 55,
                shuffle_blocks: true,
                distance: Distance::Random,
                location_stride: DEFAULT_LOCATION_STRIDE,
                stress_pattern: StressPattern::StoreLoad,
                stress_iterations: 16,
                stress_line_words: 9,
                stress_lines: 42,
                pre_stress_iterations: 0,
                sync_start: false,
                preload: Preload::Observer,
                layout_seed: None,
            },
            Preset::TunedIriw => Environment {
                threads: 512,
                blocks: None,
                testing_percent: 25,
                lane_multiplier: 117,
                shuffle_blocks: true,
                distance: Distance::Random,
                location_stride: DEFAULT_LOCATION_STRIDE,
                stress_pattern: StressPattern::StoreStore,
                stress_iterations: 64,
                stress_line_words: 17,
                stress_lines: 43,
                pre_stress_iterations: 0,
                sync_start: true,
                preload: Preload::Observer,
                layout_seed: None,
            },
        }
    }
}

/// Polls of the synchronised start before a thread gives up waiting.
pub const SYNC_POLLS: u32 = 1 << 14;

/// Whether `a` and `b` share no factor.
fn coprime(a: u64, b: u64) -> bool {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a == 1
}

/// The first number from `start` on (wrapping below `modulus`, never 0)
/// coprime with `modulus`.
fn coprime_from(start: u64, modulus: u64) -> u32 {
    (0..modulus).map(|k| 1 + (start + k) % modulus.max(1)).find(|&m| coprime(m, modulus)).unwrap_or(1) as u32
}

impl Environment {
    /// Testing blocks in a grid of `grid` blocks: at least 4 (the most roles
    /// a test has, so that inter-block instances span distinct blocks).
    pub fn testing_blocks(&self, grid: u32) -> u32 {
        (grid * self.testing_percent / 100).clamp(4.min(grid), grid)
    }

    /// The kernel parameters for `test` in `placement` on a grid of `grid`
    /// blocks (in the cluster placements a multiple of the cluster size,
    /// [`Split::cluster_blocks`]: [`Environment::cluster_grid`]); `seed`
    /// picks the multipliers a random choice leaves open.
    pub fn params(&self, test: Test, placement: impl Into<Split>, grid: u32, sequential: bool, seed: u64) -> Params {
        let placement = placement.into();
        debug_assert!(self.lane_multiplier % 2 == 1, "an even lane multiplier does not permute the lanes");
        let mut state = seed;
        let roles = test.threads();
        // In the cluster placements the testing blocks are whole clusters,
        // and the block step and the shuffle count clusters, not blocks.
        let cluster = placement.cluster_blocks(roles).unwrap_or(1);
        let testing_blocks = match placement.cluster_blocks(roles) {
            Some(size) => {
                (self.testing_blocks(grid) / size * size).clamp(size.min(grid / size * size), grid / size * size)
            }
            None => self.testing_blocks(grid),
        };
        let units = testing_blocks / cluster;
        let instances = u64::from(testing_blocks) * u64::from(self.threads);
        // Role r's block (cluster) is r * step further on: never a multiple
        // of the testing blocks (clusters) for r below the test's thread
        // count.
        let step = (1..units).find(|&d| (1..roles).all(|r| (r * d) % units != 0)).unwrap_or(1);
        // `y` half a slot after its slot's start: the slot's other 128-byte
        // line in a slot of the default 64 words (the only stride with two
        // lines, and so the only one `different-lines` accepts).
        let half = self.location_stride / 2;
        let (offset, multiplier) = match self.distance {
            Distance::SameLine => (1, 1),
            Distance::DifferentLines => (half, 1),
            Distance::Random => (half, coprime_from(splitmix64(&mut state) % instances, instances)),
        };
        let block_multiplier = if self.shuffle_blocks {
            coprime_from(splitmix64(&mut state) % u64::from(units), u64::from(units))
        } else {
            1
        };
        Params {
            placement: placement.code(),
            testing_blocks,
            threads: self.threads,
            lane_multiplier: self.lane_multiplier,
            block_step: step,
            block_multiplier,
            location_stride: self.location_stride,
            location_offset: offset,
            location_multiplier: multiplier,
            stress_pattern: self.stress_pattern as u32,
            stress_iterations: self.stress_iterations,
            stress_line_words: self.stress_line_words.clamp(1, 32),
            stress_lines: self.stress_lines.max(1),
            pre_stress_iterations: self.pre_stress_iterations,
            sync_polls: if self.sync_start { SYNC_POLLS } else { 0 },
            preload: self.preload as u32,
            sequential: u32::from(sequential),
            zero: 0,
            outcome_registers: test.registers(),
            outcome_finals: test.finals_mask(),
            roles,
            parts: placement.parts(),
            cluster_blocks: cluster,
        }
    }

    /// The grid of a cluster placement on a device where `resident` blocks
    /// fit at once: [`Environment::grid`] rounded down to whole clusters of
    /// `cluster` blocks (a cluster launch needs a grid that is a multiple
    /// of its cluster size), never below one cluster.
    pub fn cluster_grid(&self, resident: u32, cluster: u32) -> u32 {
        (self.grid(resident) / cluster * cluster).max(cluster)
    }

    /// A random environment for the tuning search, as MC Mutants and
    /// GPUHarbor draw theirs: every knob uniformly over its range, the
    /// location stride excepted, which the search holds at `location_stride`
    /// (one of [`LOCATION_STRIDES`]).
    ///
    /// A smaller stride than the default has one 128-byte line per slot at
    /// most, so the distance is then drawn from the two that fit in it,
    /// `same-line` and `random`. The layout seed is drawn too: the rates a
    /// search measures belong to one layout of the instances, and its
    /// winner keeps that layout.
    pub fn random(state: &mut u64, location_stride: u32) -> Environment {
        let mut pick = |n: u64| splitmix64(state) % n;
        let threads = [128, 256, 512, 1024][pick(4) as usize];
        let testing_percent = [25, 50, 75, 100][pick(4) as usize];
        let lane_multiplier = 1 + 2 * pick(64) as u32;
        let shuffle_blocks = pick(2) == 1;
        let distance = if location_stride == DEFAULT_LOCATION_STRIDE {
            [Distance::SameLine, Distance::DifferentLines, Distance::Random][pick(3) as usize]
        } else {
            [Distance::SameLine, Distance::Random][pick(2) as usize]
        };
        Environment {
            threads,
            blocks: None,
            testing_percent,
            lane_multiplier,
            shuffle_blocks,
            distance,
            location_stride,
            stress_pattern: StressPattern::ALL[pick(4) as usize],
            stress_iterations: [0, 16, 64, 256, 1024][pick(5) as usize],
            stress_line_words: 1 + pick(32) as u32,
            stress_lines: 1 + pick(64) as u32,
            pre_stress_iterations: [0, 4, 16, 64][pick(4) as usize],
            sync_start: pick(2) == 1,
            preload: Preload::ALL[pick(3) as usize],
            layout_seed: Some(splitmix64(state)),
        }
    }

    /// Blocks per launch on a device where `resident` blocks fit at once:
    /// all of them, or `blocks` if that is fewer, and never fewer than 4 (the
    /// most threads an instance has, one block each inter-block).
    pub fn grid(&self, resident: u32) -> u32 {
        self.blocks.map_or(resident, |b| b.min(resident)).max(4.min(resident))
    }

    /// One line for a table heading.
    pub fn summary(&self) -> String {
        let stress = if self.stress_iterations == 0 || self.testing_percent == 100 {
            "no stress".to_owned()
        } else {
            format!(
                "{}% of blocks stress ({:?}, {} iterations, {} words x {} lines)",
                100 - self.testing_percent,
                self.stress_pattern,
                self.stress_iterations,
                self.stress_line_words,
                self.stress_lines
            )
        };
        let blocks = self.blocks.map_or(String::new(), |b| format!(" (at most {b} blocks)"));
        let stride = if self.location_stride == DEFAULT_LOCATION_STRIDE {
            String::new()
        } else {
            format!(" in {}-word slots", self.location_stride)
        };
        let layout = self.layout_seed.map_or(String::new(), |seed| format!(", layout seed {seed}"));
        format!(
            "{} threads/block{blocks}, lane x{}, {}shuffled blocks, locations {:?}{stride}, {stress}, pre-stress {}, {}, preload {:?}{layout}",
            self.threads,
            self.lane_multiplier,
            if self.shuffle_blocks { "" } else { "un" },
            self.distance,
            self.pre_stress_iterations,
            if self.sync_start { "synchronised start" } else { "free start" },
            self.preload,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::litmus::Location;

    #[test]
    fn a_search_at_a_small_stride_keeps_it_and_draws_only_the_distances_that_fit() {
        let mut state = 7;
        for &stride in &LOCATION_STRIDES[..LOCATION_STRIDES.len() - 1] {
            let drawn: Vec<Distance> = (0..64).map(|_| Environment::random(&mut state, stride).distance).collect();
            assert!(drawn.iter().all(|&d| d != Distance::DifferentLines), "{stride}: {drawn:?}");
            assert!(drawn.contains(&Distance::SameLine) && drawn.contains(&Distance::Random), "{stride}");
            assert_eq!(Environment::random(&mut state, stride).location_stride, stride);
        }
        let drawn: Vec<Distance> =
            (0..64).map(|_| Environment::random(&mut state, DEFAULT_LOCATION_STRIDE).distance).collect();
        assert!(drawn.contains(&Distance::DifferentLines));
    }

    #[test]
    fn parameters_keep_the_layout_contract() {
        let mut state = 1;
        for k in 0..200 {
            // Every stride, each with the distances a search draws at it.
            let env = match Preset::ALL.get(k) {
                Some(preset) => preset.environment(),
                None => Environment::random(&mut state, LOCATION_STRIDES[k % LOCATION_STRIDES.len()]),
            };
            for test in Test::ALL {
                for placement in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                    for grid in [4, 5, 132, 264, 1056] {
                        let cluster = placement.cluster_blocks(test.threads()).unwrap_or(1);
                        let grid = if cluster > 1 { env.cluster_grid(grid, cluster) } else { grid };
                        let p = env.params(test, placement, grid, false, k as u64);
                        assert!(p.testing_blocks >= 4 && p.testing_blocks <= grid);
                        assert!(p.threads.is_power_of_two() && p.threads >= 128);
                        assert_eq!(p.lane_multiplier % 2, 1);
                        // Whole clusters, shuffled and stepped as clusters.
                        assert_eq!((p.cluster_blocks, p.testing_blocks % cluster), (cluster, 0));
                        let units = p.testing_blocks / cluster;
                        assert!(coprime(u64::from(p.block_multiplier), u64::from(units)));
                        assert!(coprime(u64::from(p.location_multiplier), u64::from(p.instances())));
                        assert!(p.location_offset < p.location_stride);
                        // `z` needs a word of its own in each slot (`Params::z`).
                        assert!(p.location_offset > 0 && p.location_offset + p.location_stride / 4 < p.location_stride);
                        // Intra-cluster the roles move by rank, not by the step.
                        if placement != Split::IntraCluster
                            && p.testing_blocks >= placement.min_testing_blocks(test.threads())
                        {
                            for r in 1..test.threads() {
                                assert_ne!((r * p.block_step) % units, 0, "{grid} {r}");
                            }
                        }
                        assert_eq!(
                            (p.placement, p.parts, p.roles),
                            (placement.code(), placement.parts(), test.threads())
                        );
                        if grid == 4 && placement == Split::InterBlock {
                            // No two locations of any instances share a word,
                            // and every one lies inside the buffer (the
                            // layout does not depend on the placement).
                            let mut words = std::collections::HashSet::new();
                            for i in 0..p.instances() {
                                for location in [Location::X, Location::Y, Location::Z] {
                                    let word = p.word(location, i);
                                    assert!(word < p.location_words() && words.insert(word), "{env:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_grid_is_the_resident_blocks_or_fewer_but_never_below_four() {
        let mut e = Preset::Parallel.environment();
        assert_eq!(e.grid(1056), 1056);
        e.blocks = Some(8);
        assert_eq!(e.grid(1056), 8);
        e.blocks = Some(5000);
        assert_eq!(e.grid(1056), 1056);
        e.blocks = Some(1);
        assert_eq!(e.grid(1056), 4);
        e.blocks = Some(7);
        assert_eq!((e.cluster_grid(1056, 2), e.cluster_grid(1056, 4)), (6, 4));
        assert_eq!(e.cluster_grid(3, 4), 4);
    }

    #[test]
    fn coprime_search_finds_one() {
        assert_eq!(coprime_from(0, 12), 1);
        assert_eq!(coprime_from(3, 12), 5);
        assert!(coprime(u64::from(coprime_from(7, 1056)), 1056));
    }
}
