//! Pinned host memory mapped into the device: the one place the host and a
//! kernel share memory while the kernel runs.
//!
//! `cuMemHostAlloc` with `CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE`
//! allocates page-locked host memory that every context can use and that the
//! device reaches over the bus through the pointer `cuMemHostGetDevicePointer`
//! gives. The host side is a slice of atomics ([`HostShared`]): CPU threads
//! read and write it while a kernel does, so every CPU access must be an
//! atomic one (a plain access racing the GPU would be a data race in Rust's
//! model), and each access's ordering is the experiment's to choose. The
//! device side is pushed as a kernel argument through [`DevicePtr`], whose
//! parameter type `Args` checks like a `CudaSlice`'s.

use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64};

use cudarc::driver::{CudaContext, CudaStream, sys};
use layout::Type;

use super::Gpu;
use super::args::{KernelArg, Pointee};
use super::driver_error::DriverContext;
use crate::cpu_agent::AtomicRecord;
use crate::error::LabError;

/// An element type of mapped host memory.
///
/// # Safety
///
/// All-zero bits must be a valid value; the type must be mutated only
/// through its own atomic operations (shared references are all the host
/// ever holds, while the device writes the same bytes); and its layout must
/// be that of the kernel parameter's pointee that [`Pointee::NAME`] names.
pub(super) unsafe trait HostShared: Pointee + Sync {}

// SAFETY: an `AtomicU32` is a `u32` in memory (zero is valid) with interior
// mutability through atomic operations only; the kernels' pointee is `u32`.
unsafe impl HostShared for AtomicU32 {}
impl Pointee for AtomicU32 {
    const NAME: &'static str = "u32";
}

// SAFETY: as for `AtomicU32`, with `u64`.
unsafe impl HostShared for AtomicU64 {}
impl Pointee for AtomicU64 {
    const NAME: &'static str = "u64";
}

// SAFETY: `AtomicRecord` is `#[repr(C)]` words of `AtomicU32`, of
// `layout::system::Record`'s size and alignment (asserted beside it); zero
// words are a valid record, and it has no other field.
unsafe impl HostShared for AtomicRecord {}
impl Pointee for AtomicRecord {
    const NAME: &'static str = "Record";
}

/// `len` elements of `T` in pinned host memory, mapped into the device.
/// Freed on drop; the caller must not drop it while a kernel that was given
/// its device pointer may still run (the wrappers synchronize first).
pub(super) struct HostMapped<T: HostShared> {
    context: Arc<CudaContext>,
    host: NonNull<T>,
    len: usize,
    device: sys::CUdeviceptr,
}

// SAFETY: the memory is owned by this value alone, and `T: Sync` is all a
// shared borrow from another thread needs: every access is atomic.
unsafe impl<T: HostShared> Send for HostMapped<T> {}
// SAFETY: as above; `&HostMapped` hands out only `&[T]` and the device
// pointer's value.
unsafe impl<T: HostShared> Sync for HostMapped<T> {}

impl<T: HostShared> HostMapped<T> {
    /// `len` zeroed elements (at least one is allocated, so an empty slice
    /// still has a device pointer).
    pub(super) fn zeroed(gpu: &Gpu, len: usize) -> Result<HostMapped<T>, LabError> {
        let context = gpu.context().clone();
        let doing = || format!("allocating {len} mapped host elements of `{}`", T::NAME);
        context.bind_to_thread().doing(doing)?;
        let bytes = len
            .max(1)
            .checked_mul(size_of::<T>())
            .ok_or_else(|| LabError::Driver { doing: doing(), error: "the size overflows usize".to_owned() })?;
        let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
        let mut host = std::ptr::null_mut::<std::ffi::c_void>();
        // SAFETY: `cuMemHostAlloc` writes one pointer through a valid
        // `*mut *mut c_void`; the context was made current above.
        unsafe { sys::cuMemHostAlloc(&mut host, bytes, flags) }.result().doing(doing)?;
        let host = NonNull::new(host.cast::<T>()).ok_or_else(|| LabError::Driver {
            doing: doing(),
            error: "the driver returned a null pointer".to_owned(),
        })?;
        // From here on the allocation is owned by `mapped`, whose drop frees
        // it on every error path below.
        let mut mapped = HostMapped { context, host, len, device: 0 };
        // SAFETY: the allocation is `bytes` long and page-aligned (so aligned
        // for `T`), and nothing else can see it yet; all-zero bits are a
        // valid `T` (the trait's contract).
        unsafe { std::ptr::write_bytes(host.as_ptr().cast::<u8>(), 0, bytes) };
        let mut device: sys::CUdeviceptr = 0;
        // SAFETY: `host` is a live allocation of `cuMemHostAlloc` with
        // `DEVICEMAP`; the call writes one device pointer. Flags must be 0.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device, host.as_ptr().cast(), 0) }
            .result()
            .doing(|| format!("mapping {len} host elements of `{}` into the device", T::NAME))?;
        mapped.device = device;
        Ok(mapped)
    }

    /// The host's side: every element, as atomics.
    pub(super) fn host(&self) -> &[T] {
        // SAFETY: `host` points to `len` (or, for 0, one) initialised,
        // aligned `T`s that live as long as `self`; only shared borrows are
        // ever made, and `T` mutates only through atomics.
        unsafe { std::slice::from_raw_parts(self.host.as_ptr(), self.len) }
    }

    /// The device pointer as an argument the kernel reads through
    /// (`*const T`).
    pub(super) fn device_read(&self) -> DevicePtr<'_, T> {
        DevicePtr { address: &self.device, writes: false, element: PhantomData }
    }

    /// The device pointer as an argument the kernel writes through
    /// (`*mut T`). A shared borrow is enough: the host side only ever holds
    /// atomics, which the device's writes do not invalidate.
    pub(super) fn device_write(&self) -> DevicePtr<'_, T> {
        DevicePtr { address: &self.device, writes: true, element: PhantomData }
    }
}

impl<T: HostShared> Drop for HostMapped<T> {
    fn drop(&mut self) {
        // A failure here cannot be reported from a drop; the memory is then
        // leaked, which is safe.
        if self.context.bind_to_thread().is_ok() {
            // SAFETY: `host` came from `cuMemHostAlloc` and is freed once; no
            // borrow of it outlives `self`.
            let _ = unsafe { sys::cuMemFreeHost(self.host.as_ptr().cast()) };
        }
    }
}

/// The device pointer of a [`HostMapped`], as one kernel argument of type
/// `*const T` or `*mut T`.
pub(super) struct DevicePtr<'a, T> {
    address: &'a sys::CUdeviceptr,
    writes: bool,
    element: PhantomData<&'a T>,
}

impl<T: HostShared> KernelArg for DevicePtr<'_, T> {
    fn ty(&self) -> Type {
        if self.writes { Type::MutPtr(T::NAME) } else { Type::ConstPtr(T::NAME) }
    }
    fn word(self, _: &CudaStream) -> u64 {
        // The driver takes a pointer argument as its 64-bit value.
        *self.address
    }
}
