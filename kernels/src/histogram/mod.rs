//! Counting values into bins: the second page's example of a barrier and an
//! atomic in one algorithm, beside the naive version.
//!
//! | kernel | global atomics | shared atomics | barriers per block |
//! |---|---|---|---|
//! | [`histogram_global_atomic`] | n | 0 | 0 |
//! | [`histogram_privatized`] | bins per block | n | 2 |
//!
//! Integer addition is associative, so unlike the float sums both always give
//! the same counts; what the input decides is how much they contend. All
//! values in one bin make every atomic of the naive kernel hit one address.

mod global_atomic;
mod privatized;

pub use global_atomic::histogram_global_atomic;
pub use privatized::histogram_privatized;
