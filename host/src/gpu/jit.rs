//! The driver's JIT compiler, asked for its words when it refuses PTX.
//!
//! `cuModuleLoadData` of PTX text (cudarc's `load_module`, the lab's one way
//! to load a module) compiles the PTX inside the driver and answers a
//! refusal with an error code alone. [`error_log`] compiles the same PTX
//! again with an error-log buffer (`cuModuleLoadDataEx`), so a broken file
//! is reported with `ptxas`'s own line (`line 4; fatal : Parsing error …`).
//!
//! The driver's JIT linker (`cuLinkCreate` … `cuLinkComplete`) is not used:
//! it compiles PTX as relocatable code, `ptxas -c`'s machine code, which is
//! not the code `cuModuleLoadData` runs and can take more registers than a
//! block of 1,024 threads allows (`results/explore/jit-sass.md` has the
//! comparison). The GPU tests read the machine code that runs from the
//! driver's JIT cache instead.

use std::ffi::{CString, c_void};
use std::sync::Arc;

use cudarc::driver::{CudaContext, sys};

/// Bytes of the error log: `ptxas`'s errors for a whole module fit.
const LOG_BYTES: usize = 64 * 1024;

/// What the driver's JIT compiler says when it compiles `ptx` for
/// `context`'s device, as one line; `None` if it compiles, says nothing, or
/// cannot be asked.
pub fn error_log(context: &Arc<CudaContext>, ptx: &str) -> Option<String> {
    let text = CString::new(ptx).ok()?;
    context.bind_to_thread().ok()?;
    let mut log = vec![0u8; LOG_BYTES];
    let mut options =
        [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
    // The driver reads a size option's value from the pointer's bits.
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `text` is NUL-terminated PTX, alive for the call; two options
    // with their two values (a buffer of `LOG_BYTES` bytes, alive for the
    // call, and its size); `module` is written on success.
    let loaded = unsafe {
        sys::cuModuleLoadDataEx(&mut module, text.as_ptr().cast(), 2, options.as_mut_ptr(), values.as_mut_ptr())
    };
    if loaded == sys::CUresult::CUDA_SUCCESS {
        // SAFETY: `module` was loaded just above and is unloaded once, here.
        let _ = unsafe { sys::cuModuleUnload(module) };
        return None;
    }
    let log = String::from_utf8_lossy(log.split(|&b| b == 0).next().unwrap_or_default()).into_owned();
    let lines: Vec<&str> = log.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}
