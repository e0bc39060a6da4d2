//! Puzzle 4, a typical wrong answer: the per-element sum counted per
//! block, as if the block size set how many adds reach the total.
//!
//! ```text
//! sum-global-atomic: n / block
//! sum-shared-atomic: n / block
//! sum-tree-atomic: n / block
//! barely moves: sum-tree-atomic
//! because: the tree is the fastest kernel at every block size.
//! ```
