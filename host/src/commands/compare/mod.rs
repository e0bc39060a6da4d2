//! `host compare RUN_A RUN_B`: two evidence runs side by side. It opens no
//! GPU. It reads the records that `host evidence` wrote into each directory,
//! through the typed view every other reader uses (`lab_records::host`), so
//! it knows no other command's types,
//! and lays their headline figures side by side with B's time as a ratio of
//! A's: the page's sweep, the bench's kernels, the scope ladder's round
//! trips. It also checks that the sums that promise reproducibility gave
//! the same bits on both GPUs.
//!
//! That check rests on one claim. The deterministic sum fixes its addition
//! order from `n` alone, whatever the grid or the GPU, and the correctly
//! rounded sum returns the one nearest `f32`. So on the same array they must
//! give the same bits on any two GPUs. The accuracy run's arrays come from a
//! seed, so two runs with the same options sum the same arrays. One differing
//! bit fails the comparison (exit 1) and names the sum.

pub mod args;
pub mod comparison;
pub mod report;

pub use args::CompareArgs;
