//! Puzzle 4, `block-size`: the page's exercise. Which column barely moves
//! when the block size changes, and why?
//!
//! Your three sums (puzzles 1 to 3) run at blocks of 64, 256 and 1024, and
//! each column's time is divided by its time at 256: nine ratios. Before you
//! see them, count. For each kernel, write how many atomic adds reach
//! `*total` in one launch, as a function of `n` and `block`; then name the
//! column that barely moves and say why in one sentence, on one line. On a GPU the check
//! runs the sweep with your kernels and prints your nine ratios beside your
//! sentence; the ratios are yours to read, and no limit on them decides.
//!
//! ```text
//! sum-global-atomic: TODO
//! sum-shared-atomic: TODO
//! sum-tree-atomic: TODO
//! barely moves: TODO
//! because: TODO
//! ```
//!
//! Check: `cargo xtask practice check block-size`.
//! Stuck: `cargo xtask practice hint block-size`.
