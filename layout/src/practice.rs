//! The learner's puzzles (`practice/`), as far as a launch is concerned:
//! which kernel of the learner's PTX stands in for which kernel of the lab.
//!
//! A puzzle's kernel has its lab kernel's parameters and launch, so the
//! host runs it with that kernel's registry entry and runner: `host
//! --practice FILE --puzzle KEY <command>` launches the learner's kernel
//! wherever the command would launch the lab's. A puzzle whose only judge
//! is the memory model stands for no lab kernel and is never launched. What
//! the puzzle teaches, its checks and hints are the checker's
//! (`xtask/src/practice/`).

use crate::pitfall::Arg;
use crate::{Entry, Module, Param, ParamRole, histogram, pitfall, publish, sum, system};

param!(FLAGS = flags: *mut u32 => ParamRole::Pitfall(Arg::Scratch));
param!(ENTERED = entered: *mut u32 => ParamRole::Pitfall(Arg::Out));
params!(
    /// The parameters of store buffering's kernel, which the model reads
    /// and nothing launches: the two flags, and whether each thread entered.
    pub STORE_BUFFERING_PARAMS = [FLAGS, ENTERED]
);

/// One puzzle: its name, its file, its kernel, and the lab kernel it
/// stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puzzle {
    /// Its name on the command line: `sum-global-atomic`.
    pub key: &'static str,
    /// Its file under `practice/src/` (and `practice/solutions/`).
    pub file: &'static str,
    /// Its kernel's symbol in the learner's PTX; empty for a written
    /// answer, which has no kernel.
    pub symbol: &'static str,
    /// The lab kernel it stands for, if any.
    pub stands_for: StandsFor,
}

/// What a puzzle's kernel stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StandsFor {
    /// A lab kernel: its parameters, its launch, the runner that launches
    /// it, and so the learner's.
    Lab(&'static Entry),
    /// Nothing the lab launches: the memory model is the puzzle's only
    /// judge, and these are its kernel's parameters.
    Nothing(&'static [Param]),
    /// No kernel at all: a written answer about the kernels of the puzzles
    /// named here (page 1's exercise), which its GPU run launches.
    Written(&'static [&'static str]),
}

impl StandsFor {
    /// The parameters the puzzle's kernel must take.
    pub const fn params(self) -> &'static [Param] {
        match self {
            StandsFor::Lab(entry) => entry.params,
            StandsFor::Nothing(params) => params,
            StandsFor::Written(_) => &[],
        }
    }

    /// The lab kernel, if there is one.
    pub const fn lab(self) -> Option<&'static Entry> {
        match self {
            StandsFor::Lab(entry) => Some(entry),
            StandsFor::Nothing(_) | StandsFor::Written(_) => None,
        }
    }
}

/// Every puzzle, in the lessons' order.
pub const PUZZLES: [Puzzle; 19] = [
    Puzzle {
        key: "sum-global-atomic",
        file: "sum_global_atomic.rs",
        symbol: "sum_global_atomic",
        stands_for: StandsFor::Lab(&sum::GLOBAL_ATOMIC.entry),
    },
    Puzzle {
        key: "sum-shared-atomic",
        file: "sum_shared_atomic.rs",
        symbol: "sum_shared_atomic",
        stands_for: StandsFor::Lab(&sum::SHARED_ATOMIC.entry),
    },
    Puzzle {
        key: "sum-tree-atomic",
        file: "sum_tree_atomic.rs",
        symbol: "sum_tree_atomic",
        stands_for: StandsFor::Lab(&sum::TREE_ATOMIC.entry),
    },
    Puzzle {
        key: "block-size",
        file: "block_size.rs",
        symbol: "",
        stands_for: StandsFor::Written(&["sum-global-atomic", "sum-shared-atomic", "sum-tree-atomic"]),
    },
    Puzzle {
        key: "sum-warp-shuffle",
        file: "sum_warp_shuffle.rs",
        symbol: "sum_warp_shuffle",
        stands_for: StandsFor::Lab(&sum::WARP_SHUFFLE.entry),
    },
    Puzzle {
        key: "deterministic-sum",
        file: "deterministic_sum.rs",
        symbol: "deterministic_sum",
        stands_for: StandsFor::Lab(&sum::DETERMINISTIC.entry),
    },
    Puzzle {
        key: "histogram-global-atomic",
        file: "histogram_global_atomic.rs",
        symbol: "histogram_global_atomic",
        stands_for: StandsFor::Lab(&histogram::GLOBAL_ATOMIC.entry),
    },
    Puzzle {
        key: "histogram-privatized",
        file: "histogram_privatized.rs",
        symbol: "histogram_privatized",
        stands_for: StandsFor::Lab(&histogram::PRIVATIZED.entry),
    },
    Puzzle {
        key: "barrier-every-thread",
        file: "barrier_every_thread.rs",
        symbol: "barrier_every_thread",
        stands_for: StandsFor::Lab(&pitfall::BARRIER_EVERY_THREAD.entry),
    },
    Puzzle {
        key: "block-barrier",
        file: "block_barrier.rs",
        symbol: "block_barrier",
        stands_for: StandsFor::Lab(&pitfall::BLOCK_SYNC_OTHER_WARP.entry),
    },
    Puzzle {
        key: "last-block",
        file: "last_block.rs",
        symbol: "last_block",
        stands_for: StandsFor::Lab(&pitfall::PHASE_TICKET.entry),
    },
    Puzzle {
        key: "producer-consumer",
        file: "producer_consumer.rs",
        symbol: "producer_consumer_demo",
        stands_for: StandsFor::Lab(&pitfall::PAGE_DEMO.entry),
    },
    Puzzle {
        key: "relaxed-twin",
        file: "relaxed_twin.rs",
        symbol: "producer_consumer_relaxed",
        stands_for: StandsFor::Lab(&pitfall::PAGE_DEMO_RELAXED.entry),
    },
    Puzzle {
        key: "record-one-word",
        file: "record_one_word.rs",
        symbol: "record_one_word",
        stands_for: StandsFor::Lab(&pitfall::RECORD_ONE_WORD.entry),
    },
    Puzzle {
        key: "publish-across-blocks",
        file: "publish_across_blocks.rs",
        symbol: "publish_across_blocks",
        stands_for: StandsFor::Lab(&publish::GRID_RELEASE_ACQUIRE.entry),
    },
    Puzzle {
        key: "fence-across-blocks",
        file: "fence_across_blocks.rs",
        symbol: "fence_across_blocks",
        stands_for: StandsFor::Lab(&publish::GRID_RELEASE_ACQUIRE.entry),
    },
    Puzzle {
        key: "store-buffering",
        file: "store_buffering.rs",
        symbol: "store_buffering",
        stands_for: StandsFor::Nothing(&STORE_BUFFERING_PARAMS),
    },
    Puzzle {
        key: "publish-to-host",
        file: "publish_to_host.rs",
        symbol: "publish_to_host",
        stands_for: StandsFor::Lab(&system::GPU_TO_CPU_RELEASE_SYS.entry),
    },
    Puzzle {
        key: "publish-in-cluster",
        file: "publish_in_cluster.rs",
        symbol: "publish_in_cluster",
        stands_for: StandsFor::Lab(&publish::CLUSTER_GLOBAL_RELEASE_ACQUIRE.entry),
    },
];

impl Puzzle {
    /// The module its kernel is built into: its lab kernel's. A puzzle of
    /// the Hopper module is in the learner's Hopper build alone (its file
    /// behind the `hopper` feature), and its PTX loads only on a GPU of
    /// compute capability 9.0 or above.
    pub const fn module(&self) -> Module {
        match self.stands_for.lab() {
            Some(entry) => entry.module,
            None => Module::Base,
        }
    }
}

/// The puzzle called `key`.
pub fn find(key: &str) -> Option<&'static Puzzle> {
    PUZZLES.iter().find(|p| p.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_puzzle_has_its_own_key_file_and_symbol() {
        for (k, a) in PUZZLES.iter().enumerate() {
            for b in &PUZZLES[k + 1..] {
                assert!(a.key != b.key && a.file != b.file && a.symbol != b.symbol, "{a:?} and {b:?}");
            }
            assert_eq!(find(a.key), Some(a));
            // A written answer has no kernel, and the puzzles it runs have one.
            if let StandsFor::Written(runs) = a.stands_for {
                assert!(a.symbol.is_empty());
                assert!(runs.iter().all(|k| find(k).is_some_and(|p| p.stands_for.lab().is_some())), "{a:?}");
            }
        }
    }
}
