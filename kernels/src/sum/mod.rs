//! Ways to add up an array: the page's three, worst first, then the ones
//! that go further. Each kernel's launch contract is an entry of
//! [`layout::sum::KERNELS`], which the host reads to launch it.
//!
//! The page's three read element `i` in thread `blockIdx.x * blockDim.x +
//! threadIdx.x` (consecutive threads on consecutive addresses, one coalesced
//! pass), and all put their result in one global `f32`. Where the
//! additions land differs:
//!
//! | kernel | global atomics | shared atomics | barriers per block |
//! |---|---|---|---|
//! | [`sum_global_atomic`] | n | 0 | 0 |
//! | [`sum_shared_atomic`] | n / block | n | 2 |
//! | [`sum_tree_atomic`] | n / block | 0 | 1 + log2(block) |
//! | [`sum_warp_shuffle`] | n / block | 0 | 1 |
//! | [`sum_bandwidth`] | grid (a few per SM) | 0 | 1 |
//! | [`sum_deterministic`] | 0 (one ticket per block) | 0 | 2, 4 in the last block |
//! | [`sum_correctly_rounded`] | 0 float; 3 integer per block (up to 10 per warp on its slow path) | 0 | 1 |
//! | [`sum_deterministic_few`], on its path | 0 (one ticket per block) | 0 | 1 |
//! | [`sum_correctly_rounded_small`], on its path | 0 | 0 | 1 |
//! | `sum_correctly_rounded_cluster`, on its path | 0 | 0 | 1, and one cluster barrier |
//!
//! The first three are the page's; the next three are the roofline work: a
//! hierarchical combine, then a bandwidth-bound read, then the same read with
//! an addition order that never changes. The last lets no addition round: it
//! adds in `f64` only where each addition is proved exact, in integers where
//! it is not, and rounds once, so its result is the true sum's nearest `f32`,
//! not just a repeatable one.
//!
//! The last two each have a second entry for small launches,
//! [`sum_deterministic_few`] and [`sum_correctly_rounded_small`]: the same
//! parameters, contract and result, with a straight path for those launches
//! in front of the kernel's own body ([`layout::sum::SmallEntry`]). The
//! correctly rounded sum has a third, the Hopper module's one sum kernel:
//! `sum_correctly_rounded_cluster`, for middle sizes, whose 16 blocks meet
//! in one block's shared memory ([`layout::sum::ClusterRoute`]).

#[cfg(not(feature = "hopper"))]
mod bandwidth;
#[cfg(not(feature = "hopper"))]
mod block;
mod correctly_rounded;
#[cfg(not(feature = "hopper"))]
mod deterministic;
#[cfg(not(feature = "hopper"))]
mod global_atomic;
#[cfg(not(feature = "hopper"))]
mod shared_atomic;
#[cfg(not(feature = "hopper"))]
mod tree_atomic;
#[cfg(not(feature = "hopper"))]
mod warp_shuffle;

#[cfg(not(feature = "hopper"))]
pub use bandwidth::sum_bandwidth;
#[cfg(feature = "hopper")]
pub use correctly_rounded::sum_correctly_rounded_cluster;
#[cfg(not(feature = "hopper"))]
pub use correctly_rounded::{sum_correctly_rounded, sum_correctly_rounded_small};
#[cfg(not(feature = "hopper"))]
pub use deterministic::{sum_deterministic, sum_deterministic_few};
#[cfg(not(feature = "hopper"))]
pub use global_atomic::sum_global_atomic;
#[cfg(not(feature = "hopper"))]
pub use shared_atomic::sum_shared_atomic;
#[cfg(not(feature = "hopper"))]
pub use tree_atomic::sum_tree_atomic;
#[cfg(not(feature = "hopper"))]
pub use warp_shuffle::sum_warp_shuffle;
