//! Everything the kernels and the host must agree on, written once.
//!
//! A kernel's launch contract used to live twice: in the kernel's `# Launch`
//! doc and in a hand-written copy on the host. Here it lives once, as data:
//! the constants and `#[repr(C)]` types that cross the kernel boundary, and a
//! registry per kernel family ([`sum::KERNELS`], [`publish::VARIANTS`],
//! [`histogram::KERNELS`], [`baseline::KERNELS`], [`litmus::KERNELS`],
//! [`pitfall::KERNELS`], [`system::KERNELS`]) that
//! names each kernel's PTX symbol, parameters, launch shape, shared-memory
//! bytes, grid rule and the instructions its doc promises. The kernels crate compiles against it for
//! nvptx64; the host sizes its launches from it; the PTX tests, the SASS
//! summary and the sanitizer task read the same tables. A mismatch between
//! kernel and host is a compile error, not a wrong answer.
//!
//! This crate knows nothing of either side: no `std`, no driver, no
//! dependencies.

#![no_std]
#![deny(missing_docs)]

pub mod baseline;
pub mod exact;
pub mod histogram;
pub mod ladder;
pub mod litmus;
pub mod pitfall;
pub mod practice;
pub mod publish;
pub mod registry;
pub mod scope;
pub mod sum;
pub mod system;

pub use registry::{Entry, Family, Grid, Module, Param, ParamRole, SharedBytes, Type, WARP_SIZE, entries};
pub use scope::{Placement, Scope};
