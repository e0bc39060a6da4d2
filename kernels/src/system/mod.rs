//! System scope with the host: publishing a record between a GPU thread and
//! a CPU thread through pinned host memory mapped into the device.
//!
//! Each kernel is the GPU's half of one direction, with one flag operation;
//! the host's half is a set of CPU threads (`host/src/cpu_agent.rs`) with
//! Rust's `Release`/`Acquire` or `Relaxed` atomics on the same memory. The
//! protocol, its rounds and what the model says of each combination are
//! `layout::system`'s docs.
//!
//! | kernel | direction | GPU flag operation | a host thread in scope? |
//! |---|---|---|---|
//! | [`system_gpu_to_cpu_release_sys`] | GPU to CPU | `st.release.sys` | yes: correct with an `Acquire` load |
//! | [`system_gpu_to_cpu_release_gpu`] | GPU to CPU | `st.release.gpu` | no: wrong scope |
//! | [`system_gpu_to_cpu_relaxed_sys`] | GPU to CPU | `st.relaxed.sys` | yes, but relaxed orders nothing |
//! | [`system_cpu_to_gpu_acquire_sys`] | CPU to GPU | `ld.acquire.sys` | yes: correct with a `Release` store |
//! | [`system_cpu_to_gpu_acquire_gpu`] | CPU to GPU | `ld.acquire.gpu` | no: wrong scope |
//! | [`system_cpu_to_gpu_relaxed_sys`] | CPU to GPU | `ld.relaxed.sys` | yes, but relaxed orders nothing |

mod cpu_to_gpu_acquire_gpu;
mod cpu_to_gpu_acquire_sys;
mod cpu_to_gpu_relaxed_sys;
mod gpu_to_cpu_relaxed_sys;
mod gpu_to_cpu_release_gpu;
mod gpu_to_cpu_release_sys;
mod protocol;

pub use cpu_to_gpu_acquire_gpu::system_cpu_to_gpu_acquire_gpu;
pub use cpu_to_gpu_acquire_sys::system_cpu_to_gpu_acquire_sys;
pub use cpu_to_gpu_relaxed_sys::system_cpu_to_gpu_relaxed_sys;
pub use gpu_to_cpu_relaxed_sys::system_gpu_to_cpu_relaxed_sys;
pub use gpu_to_cpu_release_gpu::system_gpu_to_cpu_release_gpu;
pub use gpu_to_cpu_release_sys::system_gpu_to_cpu_release_sys;
pub use protocol::{Counts, Record};
