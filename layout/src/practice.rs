//! The learner's puzzles (`practice/`), as far as a launch is concerned:
//! which kernel of the learner's PTX stands in for which kernel of the lab.
//!
//! A puzzle's kernel has its lab kernel's parameters and launch, so the
//! host runs it with that kernel's registry entry and runner: `host
//! --practice FILE --puzzle KEY <command>` launches the learner's kernel
//! wherever the command would launch the lab's. What the puzzle teaches,
//! its checks and hints are the checker's (`xtask/src/practice/`).

use crate::{Entry, histogram, pitfall, publish, sum, system};

/// One puzzle: its name, its file, its kernel, and the lab kernel it
/// stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puzzle {
    /// Its name on the command line: `sum-global-atomic`.
    pub key: &'static str,
    /// Its file under `practice/src/` (and `practice/solutions/`).
    pub file: &'static str,
    /// Its kernel's symbol in the learner's PTX.
    pub symbol: &'static str,
    /// The lab kernel it stands for: its parameters, its launch, the runner
    /// that launches it.
    pub stands_for: &'static Entry,
}

/// Every puzzle, in the lessons' order.
pub const PUZZLES: [Puzzle; 14] = [
    Puzzle {
        key: "sum-global-atomic",
        file: "sum_global_atomic.rs",
        symbol: "sum_global_atomic",
        stands_for: &sum::GLOBAL_ATOMIC.entry,
    },
    Puzzle {
        key: "sum-shared-atomic",
        file: "sum_shared_atomic.rs",
        symbol: "sum_shared_atomic",
        stands_for: &sum::SHARED_ATOMIC.entry,
    },
    Puzzle {
        key: "sum-tree-atomic",
        file: "sum_tree_atomic.rs",
        symbol: "sum_tree_atomic",
        stands_for: &sum::TREE_ATOMIC.entry,
    },
    Puzzle {
        key: "histogram-privatized",
        file: "histogram_privatized.rs",
        symbol: "histogram_privatized",
        stands_for: &histogram::PRIVATIZED.entry,
    },
    Puzzle {
        key: "producer-consumer",
        file: "producer_consumer.rs",
        symbol: "producer_consumer_demo",
        stands_for: &pitfall::PAGE_DEMO.entry,
    },
    Puzzle {
        key: "relaxed-twin",
        file: "relaxed_twin.rs",
        symbol: "producer_consumer_relaxed",
        stands_for: &pitfall::PAGE_DEMO_RELAXED.entry,
    },
    Puzzle {
        key: "barrier-every-thread",
        file: "barrier_every_thread.rs",
        symbol: "barrier_every_thread",
        stands_for: &pitfall::BARRIER_EVERY_THREAD.entry,
    },
    Puzzle {
        key: "block-barrier",
        file: "block_barrier.rs",
        symbol: "block_barrier",
        stands_for: &pitfall::BLOCK_SYNC_OTHER_WARP.entry,
    },
    Puzzle {
        key: "publish-across-blocks",
        file: "publish_across_blocks.rs",
        symbol: "publish_across_blocks",
        stands_for: &publish::GRID_RELEASE_ACQUIRE.entry,
    },
    Puzzle {
        key: "publish-to-host",
        file: "publish_to_host.rs",
        symbol: "publish_to_host",
        stands_for: &system::GPU_TO_CPU_RELEASE_SYS.entry,
    },
    Puzzle {
        key: "fence-across-blocks",
        file: "fence_across_blocks.rs",
        symbol: "fence_across_blocks",
        stands_for: &publish::GRID_RELEASE_ACQUIRE.entry,
    },
    Puzzle {
        key: "sum-warp-shuffle",
        file: "sum_warp_shuffle.rs",
        symbol: "sum_warp_shuffle",
        stands_for: &sum::WARP_SHUFFLE.entry,
    },
    Puzzle {
        key: "record-one-word",
        file: "record_one_word.rs",
        symbol: "record_one_word",
        stands_for: &pitfall::RECORD_ONE_WORD.entry,
    },
    Puzzle { key: "last-block", file: "last_block.rs", symbol: "last_block", stands_for: &pitfall::PHASE_TICKET.entry },
];

/// The puzzle called `key`.
pub fn find(key: &str) -> Option<&'static Puzzle> {
    PUZZLES.iter().find(|p| p.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_puzzle_has_its_own_key_file_symbol_and_lab_kernel() {
        for (k, a) in PUZZLES.iter().enumerate() {
            for b in &PUZZLES[k + 1..] {
                assert!(a.key != b.key && a.file != b.file && a.symbol != b.symbol, "{a:?} and {b:?}");
                assert!(a.stands_for.symbol != b.stands_for.symbol, "{a:?} and {b:?}");
            }
            assert_eq!(find(a.key), Some(a));
        }
    }
}
