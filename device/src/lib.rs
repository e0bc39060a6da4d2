//! The lab's device vocabulary, its `cuda_std`: what a kernel says to the
//! GPU, one documented instruction at a time.
//!
//! The modules are grouped the way rust-cuda's `cuda_std` groups them:
//! [`thread`] (indices, the block barrier, the clock), [`shared`] (dynamic
//! shared memory), [`order`] (`AtomicRef<T, Scope>`, the lab's
//! `cuda::atomic_ref`, with orderings as types: loads, stores and
//! `fence(order, scope)`), [`atomic`] (its read-modify-writes on one address,
//! CUDA's `atomicAdd` family: `add`, `fetch_add`, `exchange`, ...),
//! [`warp`] (shuffles and the warp barrier) and [`global`] (wide loads), and
//! the [`kernel`] attribute that declares a kernel. Every wrapper is one
//! inline-PTX or intrinsic call, `#[inline(always)]`, whose doc names the
//! instruction it emits.
//!
//! Two crates are written in it: `kernels/`, the lab's kernels, and
//! `practice/`, the learner's. It is compiled only for `nvptx64-nvidia-cuda`,
//! as their dependency. With the `hopper` feature it also has the words that
//! exist only on `sm_90` (clusters, distributed shared memory, `.cluster`).
//!
//! This crate knows nothing of the host and holds no kernel: no driver, no
//! allocation, no `std`, no `#[no_mangle]`.

#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch)]
#![feature(core_intrinsics, gpu_intrinsics, gpu_launch_sized_workgroup_mem)]
// `kernel!` is a `macro_rules!` attribute.
#![feature(macro_attr)]
#![cfg_attr(feature = "hopper", feature(link_llvm_intrinsics))]
#![allow(internal_features)]
#![deny(unsafe_op_in_unsafe_fn, missing_docs)]
// Every unsafe block states why it is sound; `cargo xtask test` runs clippy
// on this crate for its real target.
#![deny(clippy::undocumented_unsafe_blocks)]

/// Declares a kernel, as `cuda_std`'s `#[kernel]` and CUDA's `__global__`
/// do: `#[kernel(layout::sum::PARAMS)] pub unsafe fn name(params) { body }`
/// is the PTX entry `.visible .entry name(params)`, exported under its own
/// name (no mangling) for the host to look up, with its parameters in the
/// order written.
///
/// The attribute's argument is the kernel's parameter list in its registry
/// entry (layout's `params!`), the one place the parameters are written: a
/// kernel whose signature is not those types in that order does not compile,
/// and rustc's error shows both signatures. `#[kernel]` with no argument
/// declares a kernel no registry entry launches.
///
/// Every kernel is `unsafe`: its pointers and launch shape are a contract the
/// host's typed wrapper upholds, stated in the kernel's `# Safety` and
/// `# Launch` sections. The attribute adds `#[unsafe(no_mangle)]` and the
/// `extern "ptx-kernel"` ABI, and the check, and changes nothing else. It
/// is a `macro_rules!` attribute (nightly `macro_attr`), so no proc-macro
/// crate; a crate uses it with `#[macro_use] extern crate device;` and the
/// `abi_ptx` and `macro_attr` features.
#[macro_export]
macro_rules! kernel {
    attr() ($(#[$attr:meta])* pub unsafe fn $name:ident($($params:tt)*) $body:block) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name($($params)*) $body
    };
    attr($($list:tt)+) ($(#[$attr:meta])* pub unsafe fn $name:ident($($params:tt)*) $body:block) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name($($params)*) $body
        // The registry's parameter types, in order, are this kernel's.
        const _: <$($list)+ as $crate::Signature>::Kernel = $name;
    };
}

/// A kernel's parameter list as the tuple of its Rust types (what layout's
/// `params!` declares), and the signature of a kernel that takes them:
/// `<(*const f32, *mut f32, usize) as Signature>::Kernel` is `unsafe extern
/// "ptx-kernel" fn(*const f32, *mut f32, usize)`.
pub trait Signature {
    /// The kernel's function-pointer type.
    type Kernel;
}

/// Implements [`Signature`] for tuples of each length up to the longest
/// parameter list the lab has.
macro_rules! signatures {
    ($(($($param:ident),*)),* $(,)?) => {
        $(
            impl<$($param),*> Signature for ($($param,)*) {
                type Kernel = unsafe extern "ptx-kernel" fn($($param),*);
            }
        )*
    };
}

signatures!(
    (),
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
);

pub mod atomic;
pub mod global;
pub mod order;
pub mod shared;
pub mod thread;
pub mod warp;
