//! The cold-cache flush: read a buffer larger than L2, so that the next
//! kernel finds none of its input there.

use crate::{global, thread};

/// Reads `quads` 16-byte words of a zeroed buffer, so that every line the L2
/// cache held is replaced by a clean line of that buffer.
///
/// A cold measurement wants an L2 that holds none of the kernel's input. A
/// *write* of twice the L2's size (nvbench's `cudaMemsetAsync`) gives that,
/// but leaves the L2 full of dirty lines, which the timed kernel's reads must
/// write back as they evict them: DRAM writes that are not the kernel's, in a
/// measurement of a kernel that only reads. A *read* leaves only clean lines,
/// which an eviction drops without a write, so the timed kernel's DRAM traffic
/// should be its own. Nsight Compute's `dram__bytes_write.sum` on the timed
/// kernel shows which is the case on a given GPU.
///
/// # Launch
///
/// Any grid of any block; no shared memory. `buffer` holds `quads` 16-byte
/// words, all zero; `sink` one `u32`.
///
/// # Thread mapping
///
/// Thread `t` of the grid's `T` reads words `t, t + T, t + 2T, ...`: each
/// warp's load covers 512 consecutive bytes, whole lines.
///
/// # Safety
///
/// `buffer` must be 16-byte aligned and hold `quads` readable, zeroed words
/// that nothing writes during the launch; `sink` must point to a global
/// `u32`.
#[kernel(layout::baseline::EVICT_PARAMS)]
pub unsafe fn evict_l2(buffer: *const f32, quads: usize, sink: *mut u32) {
    let stride = thread::grid_dim_x() as usize * thread::block_dim_x() as usize;
    let mut quad = thread::index_1d();
    // The loaded bits are ORed together and stored only if one is set. The
    // buffer is zero, so nothing is ever stored, but neither the compiler
    // nor ptxas can know that: the loads are not dead code.
    let mut bits = 0u32;
    while quad < quads {
        // SAFETY: `quad < quads`, inside the aligned buffer; read-only.
        let [x, y, z, w] = unsafe { global::load_f32x4(buffer.add(4 * quad)) };
        bits |= x.to_bits() | y.to_bits() | z.to_bits() | w.to_bits();
        quad += stride;
    }
    if bits != 0 {
        // SAFETY: `sink` is a global u32 by the contract.
        unsafe { sink.write(bits) };
    }
}
