//! Puzzle 4, a typical wrong answer: the counts are right, and the column
//! named is the fastest one instead of the one whose count has no block in
//! it.
//!
//! ```text
//! sum-global-atomic: n
//! sum-shared-atomic: ceil(n / block)
//! sum-tree-atomic: ceil(n / block)
//! barely moves: sum-tree-atomic
//! because: the tree is the fastest kernel at every block size, so its time hardly changes.
//! ```
