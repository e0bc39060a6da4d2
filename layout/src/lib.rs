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
//! summary and the sanitizer task read the same tables. A kernel's
//! parameters are written once, with [`param!`] and [`params!`], and its
//! `#[kernel(list)]` attribute checks its signature against them, so a
//! mismatch between kernel and host is a compile error, not a wrong answer.
//!
//! This crate knows nothing of either side: no `std`, no driver, no
//! dependencies.

#![no_std]
#![deny(missing_docs)]

/// Declares one kernel parameter, written once: `param!(INPUT = input: *const
/// f32 => role)` is the registry's `const INPUT: Param` (its name, the
/// [`Type`](entry::Type) of `*const f32`, its role) and the type alias
/// `INPUT` for `*const f32`, one name in the value and the type namespace.
/// [`params!`] puts parameters together into a list.
#[macro_export]
macro_rules! param {
    ($(#[$doc:meta])* $vis:vis $name:ident = $param:ident: $ty:ty => $role:expr) => {
        $(#[$doc])*
        $vis const $name: $crate::Param = $crate::Param::of::<$ty>(stringify!($param), $role);
        $(#[$doc])*
        // The type shares the constant's name, so one name is the parameter.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        $vis type $name = $ty;
    };
}

/// Declares a kernel's parameter list, written once, from [`param!`]s:
/// `params!(pub PARAMS = [INPUT, TOTAL, N])` is the registry's `const
/// PARAMS: [Param; 3]` and the type `PARAMS`, the tuple of their Rust types,
/// which a kernel names in `#[kernel(layout::sum::PARAMS)]`: its signature
/// must then be those types in that order, or it does not compile.
#[macro_export]
macro_rules! params {
    ($(#[$doc:meta])* $vis:vis $name:ident = [$($param:ident),* $(,)?]) => {
        $(#[$doc])*
        $vis const $name: [$crate::Param; <[&str]>::len(&[$(stringify!($param)),*])] = [$($param),*];
        $(#[$doc])*
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        $vis type $name = ($($param,)*);
    };
}

pub mod args;
pub mod baseline;
pub mod entry;
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

pub use entry::{Entry, Family, Grid, Module, Param, ParamRole, ParamType, Pointee, SharedBytes, Type, WARP_SIZE};
pub use registry::entries;
pub use scope::{Placement, Scope};
