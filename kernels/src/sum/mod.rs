//! The page's three ways to add up an array, worst first.
//!
//! All three read element `i` in thread `blockIdx.x * blockDim.x + threadIdx.x`
//! (consecutive threads on consecutive addresses, one coalesced pass), and all
//! three add into one global `f32`. Only where the additions land differs:
//!
//! | kernel | global atomics | shared atomics | barriers per block |
//! |---|---|---|---|
//! | [`sum_global_atomic`] | n | 0 | 0 |
//! | [`sum_shared_atomic`] | n / block | n | 2 |
//! | [`sum_tree_atomic`] | n / block | 0 | 1 + log2(block) |

mod global_atomic;
mod shared_atomic;
mod tree_atomic;

pub use global_atomic::sum_global_atomic;
pub use shared_atomic::sum_shared_atomic;
pub use tree_atomic::sum_tree_atomic;
