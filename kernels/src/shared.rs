//! The block's dynamic shared memory, sized by the launch.
//!
//! CUDA C++ writes `extern __shared__ float tile[];` and passes the byte count
//! as the third launch parameter. Rust's nvptx backend spells the same thing
//! `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, which the PTX shows
//! as one `.extern .shared .align 16 .b8 ...[]` declaration per module.

/// The start of this block's dynamic shared memory, typed as `T`.
///
/// Emits a `.extern .shared` declaration and a `cvta.shared.u64` to turn its
/// address into a generic pointer, so ordinary loads and stores through it work
/// (`ld`/`st` on generic addresses resolve to shared memory at run time).
///
/// The pointer is the same for every call in a block and is aligned for `T`.
/// How many `T` fit behind it is decided by the host: the launch's
/// shared-memory bytes. Reading past them is undefined.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}
