//! The litmus suite: classic tests of memory order, each in the
//! variants that teach something, and the parallel testing environment that
//! runs many instances of one test per launch.
//!
//! A litmus test is a few threads, each doing one or two accesses to two
//! locations `x` and `y`, or three with `z` (all 0 at the start, every store
//! writes 1, except that a test with two stores to one location writes 1 with
//! one and 2 with the other), and an
//! *outcome*: the values the loads returned, and for the tests about the
//! order of stores ([`Test::finals`]) the values the locations end with. Every test has one *weak*
//! outcome, the one no interleaving of the threads' instructions can produce.
//! Whether the PTX memory model allows it depends on the accesses' ordering
//! and scope and on where the threads run; whether the H200 ever shows it is
//! a separate question, which `host litmus` counts.
//!
//! This module is the contract between the kernels and the host, one
//! concern a file:
//! - [`suite`]: each test as one file of data, a [`Definition`] (its
//!   [`Role`]s, its weak and sequential outcomes, the model's verdicts), and
//!   the one list that names the tests and their kernels: [`Test`],
//!   [`KERNELS`] and the grid the kernels crate expands
//!   ([`litmus_grid!`](macro@crate::litmus_grid)). `test.rs` answers every
//!   question about a [`Test`] from its definition.
//! - [`Variant`] (`variant.rs`): which PTX instruction each access and fence
//!   becomes, and its SASS.
//! - [`Split`] (`placement.rs`): where the roles of an instance run.
//! - [`Params`] (`params.rs`): the testing environment, one `#[repr(C)]`
//!   block the host writes and every kernel reads, with the maps from a
//!   thread to the instance it works on ([`Params::instance`]) and from an
//!   instance to its locations ([`Params::x`], [`Params::y`],
//!   [`Params::z`]), which kernels and host share.
//! - [`outcome_bin`] and [`final_outcome_bin`] (`outcome.rs`): how one
//!   instance's registers (and final values) become a histogram bin, on the
//!   GPU and in the host's tests alike.
//! - [`Kernel`] and [`CLASSIFY`] (`kernels.rs`): the registry's entries and
//!   the program each kernel's PTX and SASS must hold.

// The suite first: the grid macro its list declares is in scope for the
// files after it (`kernels.rs` builds `KERNELS` from it).
#[macro_use]
pub mod suite;

mod definition;
mod kernels;
mod op;
mod outcome;
mod params;
mod placement;
mod test;
mod variant;

pub use definition::{Definition, Reason, Reasons, Role};
pub use kernels::{Arg, CLASSIFY, CLASSIFY_PARAMS, KERNELS, Kernel, TEST_PARAMS, sass_of, test_step};
pub use op::{Location, Op};
pub use outcome::{
    BINS, FINAL_CODES, FINAL_DIGITS, FIRST_FINAL_BIN, OTHER_BIN, REGISTERS, final_bin, final_digits, final_outcome_bin,
    outcome_bin,
};
pub use params::{Params, Preload, STRESS_LINE_STRIDE, StressPattern, rem};
pub use placement::{
    BLOCK_SPLITS, BlockSplit, PLACEMENT_BLOCKS, PLACEMENT_INTER_CLUSTER, PLACEMENT_INTRA_CLUSTER, PLACEMENT_WARP, Split,
};
pub use suite::Test;
pub use variant::Variant;
