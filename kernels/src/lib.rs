//! The lab's kernels, written in `no_std` Rust and compiled to PTX by rustc's
//! own `nvptx64-nvidia-cuda` backend.
//!
//! The device vocabulary is grouped the way rust-cuda's `cuda_std` groups it:
//! [`thread`] (indices, the block barrier, the clock), [`shared`] (dynamic
//! shared memory), [`atomic`] (read-modify-write on one address) and
//! [`order`] (release, acquire, relaxed and volatile accesses, and fences, at a stated
//! scope), [`warp`] (shuffles and the warp barrier) and [`global`] (wide loads). Each kernel lives in its own file; the naive and the better
//! versions of one algorithm sit side by side in one folder; the litmus suite
//! ([`litmus`]) writes each test once and exports it per variant.
//!
//! This crate knows nothing of the host: no driver, no allocation, no `std`.
//! The host decides grid, block and shared-memory bytes; each kernel's
//! `# Launch` section states the contract the host's typed wrapper enforces.

#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch)]
#![feature(core_intrinsics, gpu_intrinsics, gpu_launch_sized_workgroup_mem)]
#![allow(internal_features)]
#![deny(unsafe_op_in_unsafe_fn, missing_docs)]
// Every unsafe block states why it is sound; `cargo xtask test` runs clippy
// on this crate for its real target.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod atomic;
pub mod empty;
pub mod evict;
pub mod global;
pub mod histogram;
pub mod hold;
pub mod litmus;
pub mod order;
pub mod pitfall;
pub mod publish;
pub mod shared;
pub mod sum;
pub mod system;
pub mod thread;
pub mod warp;

mod panic;
