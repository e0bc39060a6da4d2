//! The lab's kernels, written in `no_std` Rust and compiled to PTX by rustc's
//! own `nvptx64-nvidia-cuda` backend.
//!
//! The kernels are written in the device vocabulary of the `device` crate,
//! the lab's `cuda_std`, re-exported here: [`thread`] (indices, the block
//! barrier, the clock), [`shared`] (dynamic shared memory), [`order`]
//! (`AtomicRef<T, Scope>`, the lab's `cuda::atomic_ref`, with orderings as
//! types: loads, stores and `fence(order, scope)`), [`atomic`] (its
//! read-modify-writes on one address, CUDA's `atomicAdd` family: `add`,
//! `fetch_add`, `exchange`, ...), [`warp`] (shuffles and the warp barrier)
//! and [`global`] (wide loads). Every kernel is declared with `#[kernel]`,
//! as `cuda_std`'s kernels are. The learner's kernels (`practice/`) are
//! written in the same words. Each kernel lives in its own file; the naive and the better
//! versions of one algorithm sit side by side in one folder; the litmus suite
//! ([`litmus`]) writes each test once and exports it per variant.
//!
//! The crate is compiled twice, into two PTX modules (`layout::Module`): the
//! base one for `sm_70`, and with the `hopper` feature the Hopper one for
//! `sm_90`, which holds only the kernels that need thread-block clusters. A
//! kernel is in exactly one of them.
//!
//! This crate knows nothing of the host: no driver, no allocation, no `std`.
//! The host decides grid, block and shared-memory bytes; each kernel's
//! `# Launch` section states the contract the host's typed wrapper enforces.
//!
//! A change meant to leave every kernel's machine code alone (a rename, a
//! new spelling of the vocabulary) is proved byte for byte: `cargo xtask
//! build-ptx` at the commit before it, copy the two files it prints aside,
//! build again after in the same checkout (LLVM's comments in the PTX carry
//! crate hashes that depend on the checkout's path), and `cmp` each pair.
//! Where they differ, `cargo xtask sass` on both sides compares the sm_90
//! SASS, which the reference run measured.

#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch)]
#![cfg_attr(not(feature = "hopper"), feature(core_intrinsics))]
// `#[kernel]` (from `device`) is a `macro_rules!` attribute: the one way to
// declare a kernel, with no proc-macro crate.
#![feature(macro_attr)]
#![allow(internal_features)]
#![deny(unsafe_op_in_unsafe_fn, missing_docs)]
// Every unsafe block states why it is sound; `cargo xtask test` runs clippy
// on this crate for its real target.
#![deny(clippy::undocumented_unsafe_blocks)]

// The device vocabulary, in both modules: the `device` crate, the lab's
// `cuda_std`, re-exported under the names every kernel uses
// (`crate::order::AtomicRef`), with its `#[kernel]` attribute. What only
// Hopper has (cluster indices, the cluster barrier, distributed shared
// memory) is there only with the `hopper` feature, which this crate's
// passes on.
#[macro_use]
extern crate device;
pub use device::{atomic, global, order, shared, thread, warp};

// The base module's kernels (`sm_70`): everything that runs on any GPU the lab
// supports.
#[cfg(not(feature = "hopper"))]
pub mod empty;
#[cfg(not(feature = "hopper"))]
pub mod evict;
#[cfg(not(feature = "hopper"))]
pub mod histogram;
#[cfg(not(feature = "hopper"))]
pub mod hold;
pub mod ladder;
#[cfg(not(feature = "hopper"))]
pub mod pitfall;
#[cfg(not(feature = "hopper"))]
pub mod system;

// The Hopper module's kernels (`sm_90`).
#[cfg(feature = "hopper")]
pub mod cluster_probe;

// The sums are in both: every sum kernel in the base module, and the
// correctly rounded sum's cluster route (`sum_correctly_rounded_cluster`),
// over the same body, in the Hopper one.
pub mod sum;

// The litmus suite is in both: its `.cluster` variants in the Hopper module,
// every other kernel of it (and its classifier) in the base one.
pub mod litmus;

// In both modules: the publication demo's base variants are compiled only
// into the base module, its cluster variants only into the Hopper one
// (`publish/mod.rs`), over one protocol.
pub mod publish;

mod panic;
