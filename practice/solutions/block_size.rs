//! Puzzle 4, `block-size`: a solution.
//!
//! ```text
//! sum-global-atomic: n
//! sum-shared-atomic: ceil(n / block)
//! sum-tree-atomic: ceil(n / block)
//! barely moves: sum-global-atomic
//! because: its n adds all meet at one address whatever the block size, while the others add once a block.
//! ```
