use crate::{shared, thread};

/// Fills the block's dynamic shared memory with `pattern`.
///
/// Shared memory is not cleared between kernels: a block starts with
/// whatever the previous block on its SM left there. This kernel makes that
/// leftover likely to be a known value (where the next kernel's blocks land
/// is the hardware's choice), so a kernel run after it that reads a shared
/// word it never wrote reads `pattern`, not a lucky zero.
///
/// # Launch
///
/// Any grid (enough blocks to visit every SM) of any block, with
/// `layout::pitfall::FILL_BYTES` bytes of dynamic shared memory.
///
/// # Thread mapping
///
/// Thread `t` writes words `t, t + block, ...` of the block's shared memory.
///
/// # Safety
///
/// The launch must provide `FILL_BYTES` bytes of shared memory.
#[kernel(layout::pitfall::PATTERN_PARAMS)]
pub unsafe fn pitfall_fill_shared(pattern: u32) {
    let local = shared::dynamic_shared::<u32>();
    let mut w = thread::thread_idx_x();
    while w < layout::pitfall::FILL_BYTES / 4 {
        // SAFETY: `w < FILL_BYTES / 4`, inside the shared bytes the launch
        // provides. A volatile store, because nothing reads the words in this
        // kernel and the compiler would otherwise delete a dead store.
        unsafe { local.add(w as usize).write_volatile(pattern) };
        w += thread::block_dim_x();
    }
}
