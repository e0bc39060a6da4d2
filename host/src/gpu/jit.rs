//! The driver's JIT linker: PTX in, the cubin this device runs out.
//!
//! `cuModuleLoadData` of PTX compiles it inside the driver and keeps the
//! machine code to itself. Linking the same PTX with `cuLinkCreate`,
//! `cuLinkAddData` and `cuLinkComplete` compiles it the same way (for the
//! current context's device) and hands the cubin back, so the lab loads
//! that cubin and keeps its bytes: the SASS a test reads is the SASS that
//! ran (`tests/gpu.rs`), not `ptxas`'s of the same PTX on another machine.
//!
//! Layers, as in the rest of `gpu/`: the raw `sys` calls, each turned into
//! a `Result` at once; [`link`], the one safe function, which owns the link
//! state and frees it on every path.

use std::ffi::{CString, c_void};
use std::sync::Arc;

use cudarc::driver::{CudaContext, DriverError, sys};

use super::driver_error::describe;
use crate::error::LabError;

/// Bytes of the JIT's error log: ptxas's errors for a whole module fit.
const LOG_BYTES: usize = 64 * 1024;

/// A link in progress, destroyed when dropped.
struct LinkState(sys::CUlinkState);

impl Drop for LinkState {
    fn drop(&mut self) {
        // SAFETY: the state came from a successful `cuLinkCreate_v2` and is
        // destroyed once, here; the cubin it owned was copied out before.
        let _ = unsafe { sys::cuLinkDestroy(self.0) };
    }
}

/// The cubin the driver's JIT linker makes of `ptx` for `context`'s device.
///
/// A failure is a [`LabError::PtxLoad`] naming `source_name`, the driver's
/// error and the JIT's error log, in one line.
pub fn link(context: &Arc<CudaContext>, ptx: &str, source_name: &str) -> Result<Vec<u8>, LabError> {
    let fail = |step: &str, error: DriverError, log: &[u8]| {
        let log = String::from_utf8_lossy(log.split(|&b| b == 0).next().unwrap_or_default());
        let log: Vec<&str> = log.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let log = if log.is_empty() { "no log".to_owned() } else { log.join("; ") };
        LabError::PtxLoad {
            source_name: source_name.to_owned(),
            reason: format!("the driver's JIT linker failed at {step} ({}): {log}", describe(&error)),
        }
    };
    let text = CString::new(ptx).map_err(|_| LabError::PtxLoad {
        source_name: source_name.to_owned(),
        reason: "the PTX contains a NUL byte; PTX is text".to_owned(),
    })?;
    context.bind_to_thread().map_err(|e| fail("binding the context", e, &[]))?;
    let mut log = vec![0u8; LOG_BYTES];
    let mut options =
        [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
    // The driver reads a size option's value from the pointer's bits.
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
    let mut state: sys::CUlinkState = std::ptr::null_mut();
    // SAFETY: two options with their two values (a buffer of `LOG_BYTES`
    // bytes that outlives the link state, and its size); `state` is written
    // on success.
    unsafe { sys::cuLinkCreate_v2(2, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) }
        .result()
        .map_err(|e| fail("cuLinkCreate", e, &log))?;
    let state = LinkState(state);
    let name = CString::new(source_name.replace('\0', " ")).unwrap_or_default();
    let bytes = text.as_bytes_with_nul();
    // SAFETY: `bytes` is the NUL-terminated PTX, alive for the call, which
    // only reads it (the driver's signature asks for a mutable pointer);
    // `name` is a C string; no per-input options.
    unsafe {
        sys::cuLinkAddData_v2(
            state.0,
            sys::CUjitInputType::CU_JIT_INPUT_PTX,
            bytes.as_ptr() as *mut c_void,
            bytes.len(),
            name.as_ptr(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    }
    .result()
    .map_err(|e| fail("cuLinkAddData", e, &log))?;
    let mut cubin: *mut c_void = std::ptr::null_mut();
    let mut size = 0usize;
    // SAFETY: `state` holds the PTX added above; the driver writes the
    // cubin's address and size, and keeps the cubin until `state` drops.
    unsafe { sys::cuLinkComplete(state.0, &mut cubin, &mut size) }
        .result()
        .map_err(|e| fail("cuLinkComplete", e, &log))?;
    if cubin.is_null() || size == 0 {
        return Err(LabError::PtxLoad {
            source_name: source_name.to_owned(),
            reason: "the driver's JIT linker returned an empty cubin".to_owned(),
        });
    }
    // SAFETY: `cubin` points to `size` bytes the link state owns, alive
    // until `state` drops at the end of this function; they are copied out.
    let image = unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) }.to_vec();
    drop(state);
    Ok(image)
}
