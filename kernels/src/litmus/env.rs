//! The parallel testing environment: what every litmus kernel does around
//! its test's few accesses.
//!
//! Each of the grid's first `testing_blocks` blocks runs one instance per
//! thread; each thread plays every role of the test, each for a different
//! instance ([`Params::instance`]), so a launch of `B` blocks of `T` threads
//! runs `B * T` instances. The other blocks stress memory. Before its test a
//! testing thread may stress memory too, read the location it is about to
//! observe (so that a stale copy sits in its SM's L1), and wait for every
//! other testing thread (a synchronised start), all as `Params` says.

use core::arch::asm;

use layout::WARP_SIZE;
use layout::litmus::{Location, Params, Preload, REGISTERS, STRESS_LINE_STRIDE, StressPattern, Test, rem};

use crate::order::{AtomicRef, Device, Relaxed};
use crate::{global, thread};

/// One testing thread's view of its launch.
pub struct Env {
    params: Params,
    /// The logical block: the hardware's block, shuffled.
    block: u32,
    thread: u32,
    /// The location buffer, in the global window.
    locations: *mut u32,
    results: *mut u32,
}

/// The kernel arguments every litmus kernel takes.
#[derive(Clone, Copy)]
pub struct Args {
    /// The environment, in global memory.
    pub params: *const Params,
    /// This launch's block rotation.
    pub shift: u32,
    /// `params.location_words()` zeroed words.
    pub locations: *mut u32,
    /// `REGISTERS` zeroed words per instance.
    pub results: *mut u32,
    /// `params.stress_words()` words.
    pub stress: *mut u32,
    /// One zeroed word: the synchronised start's counter.
    pub control: *mut u32,
}

/// `iterations` of the stress pattern by this thread, on line `line` of
/// `stress`.
///
/// Every access is one plain `.b32` instruction in `asm!`, and each must
/// reach the machine code: iteration `i` touches word `w` and then word
/// `w + 1` of the line (mod the words the environment names), moving on by
/// one word each iteration. The line's traffic is what the environment says,
/// but no two accesses have addresses `ptxas` can prove equal, so it can
/// neither merge two loads, nor forward a store to a load, nor drop the first
/// of two stores, nor hoist a load out of the loop; and every loaded value is
/// folded into one that [`global::keep_live`] keeps, so no load is dead.
///
/// # Safety
///
/// `stress` must hold `params.stress_words()` global words.
#[inline(always)]
unsafe fn stress(stress: *mut u32, params: &Params, iterations: u32, line: u32) {
    if iterations == 0 || params.stress_lines == 0 {
        return;
    }
    let line = rem(u64::from(line), u64::from(params.stress_lines)) as u32;
    let words = params.stress_line_words.max(1);
    // SAFETY: the line starts below `stress_lines * STRESS_LINE_STRIDE`.
    let base = global::to_global(unsafe { stress.add((line * STRESS_LINE_STRIDE) as usize) });
    let mut word = rem(u64::from(thread::thread_idx_x()), u64::from(words)) as u32;
    let pattern = params.stress_pattern;
    let mut seen = 0u32;
    for i in 0..iterations {
        let next = if word + 1 >= words { 0 } else { word + 1 };
        // SAFETY: both words are below `stress_line_words`, at most 32, so
        // inside the line's `STRESS_LINE_STRIDE` words; each asm is one plain
        // access with no other effect.
        unsafe {
            let (a, b) = (base.add(word as usize), base.add(next as usize));
            if pattern == StressPattern::StoreStore as u32 {
                store_b32(a, i);
                store_b32(b, i);
            } else if pattern == StressPattern::StoreLoad as u32 {
                store_b32(a, i);
                seen ^= global::load_b32(b);
            } else if pattern == StressPattern::LoadStore as u32 {
                seen ^= global::load_b32(a);
                store_b32(b, i);
            } else {
                seen ^= global::load_b32(a) ^ global::load_b32(b);
            }
        }
        word = next;
    }
    // SAFETY: `base` is a word of the stress buffer, which no result depends
    // on.
    unsafe { global::keep_live(seen, base) };
}

/// One plain store, `st.global.b32`, of the environment's own (not a test
/// access: those are `.u32`).
///
/// # Safety
///
/// `address` must be a writable global word, in the global window.
#[inline(always)]
unsafe fn store_b32(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("st.global.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

impl Env {
    /// Sets up one thread of a litmus launch: a stressing block stresses and
    /// gets `None`; a testing thread pre-stresses, preloads and waits for the
    /// start as `params` says, and gets its `Env`.
    ///
    /// # Safety
    ///
    /// `args` must satisfy the litmus kernels' contract (`layout::litmus`):
    /// `params` valid, the buffers as large as it says, the grid at least
    /// `testing_blocks` blocks of `params.threads` threads, all resident.
    #[inline(always)]
    pub unsafe fn enter(test: Test, args: Args) -> Option<Env> {
        // SAFETY: the caller guarantees `params` points to a `Params`.
        let params = unsafe { *args.params };
        let hardware_block = thread::block_idx_x();
        let warp_line = hardware_block * (params.threads / WARP_SIZE) + thread::thread_idx_x() / WARP_SIZE;
        if hardware_block >= params.testing_blocks {
            // SAFETY: the caller guarantees the stress buffer's size.
            unsafe { stress(args.stress, &params, params.stress_iterations, warp_line) };
            return None;
        }
        // In the cluster placements the testing blocks are whole clusters and
        // the shuffle moves whole clusters, so that the blocks of one
        // hardware cluster stay one logical cluster.
        let env = Env {
            params,
            block: params.logical_block(hardware_block, args.shift),
            thread: thread::thread_idx_x(),
            locations: global::to_global(args.locations),
            results: args.results,
        };
        // SAFETY: as above.
        unsafe { stress(args.stress, &params, params.pre_stress_iterations, warp_line) };
        // SAFETY: the locations are valid for every instance, and the stress
        // buffer's first word is one no result depends on.
        unsafe { env.preload(test, global::to_global(args.stress)) };
        // SAFETY: `control` is one global word, zeroed before the launch.
        unsafe { env.start(args.control) };
        Some(env)
    }

    /// The instance this thread works on in `role`.
    #[inline(always)]
    pub fn instance(&self, role: u32) -> u32 {
        self.params.instance(role, self.block, self.thread)
    }

    /// `location` of the instance this thread works on in `role`, in the
    /// global window.
    #[inline(always)]
    pub fn at(&self, role: u32, location: Location) -> *mut u32 {
        let word = self.params.word(location, self.instance(role));
        // SAFETY: `x`, `y` and `z` are below `location_words()`, which the
        // caller of `enter` guaranteed.
        unsafe { self.locations.add(word) }
    }

    /// Reads, with a plain load that allocates in L1, the location each role
    /// of this test would rather see stale, for the instance this thread (or
    /// its neighbour) will observe in that role. The values are folded into
    /// one that [`global::keep_live`] keeps with `sink`: a preload whose value
    /// is dead is deleted by `ptxas`, and leaves nothing in L1.
    ///
    /// # Safety
    ///
    /// The location buffer must be valid for every instance, and `sink` a
    /// global word that no result depends on.
    #[inline(always)]
    unsafe fn preload(&self, test: Test, sink: *mut u32) {
        let preload = self.params.preload;
        if preload == Preload::None as u32 {
            return;
        }
        let thread =
            if preload == Preload::Neighbour as u32 { self.thread ^ (self.params.threads / 2) } else { self.thread };
        let mut seen = 0;
        for (role, r) in test.roles().iter().enumerate() {
            if let Some(location) = r.stale {
                let i = self.params.instance(role as u32, self.block, thread);
                let word = self.params.word(location, i);
                // SAFETY: a plain load of a valid global word; what matters
                // is the line it leaves in L1.
                seen ^= unsafe { global::load_b32(self.locations.add(word)) };
            }
        }
        // SAFETY: the caller guarantees `sink`.
        unsafe { global::keep_live(seen, sink) };
    }

    /// The synchronised start: count this thread in, then poll until every
    /// testing thread has, or `sync_polls` polls have passed (so the kernel
    /// ends even if some testing block is not resident).
    ///
    /// # Safety
    ///
    /// `control` must be a zeroed global word.
    #[inline(always)]
    unsafe fn start(&self, control: *mut u32) {
        if self.params.sync_polls == 0 {
            return;
        }
        // SAFETY: the caller guarantees `control`.
        let count = unsafe { AtomicRef::<u32, Device>::from_global(control) };
        // The arrival's old value is not read: it is an `atom`, not a `red`,
        // because that is the machine code every litmus run so far measured.
        let _ = count.fetch_add(1, Relaxed);
        // SAFETY: as above.
        let arrived = unsafe { AtomicRef::<u32, Device>::from_ptr(control) };
        let everyone = self.params.instances();
        for _ in 0..self.params.sync_polls {
            if arrived.load(Relaxed) >= everyone {
                break;
            }
        }
    }

    /// Between two roles: nothing, or in the sequential control a barrier,
    /// so that every thread of the block finishes this role first. One
    /// predicated `bar.sync`, so the test's accesses stay in one straight
    /// line of PTX.
    #[inline(always)]
    pub fn between_roles(&self) {
        // SAFETY: `sequential` is the same for every thread of the launch,
        // so either every thread of the block reaches the barrier or none
        // does.
        unsafe {
            asm!(
                "{{ .reg .pred %p; setp.ne.u32 %p, {s}, 0; @%p bar.sync 0; }}",
                s = in(reg32) self.params.sequential,
                options(nostack),
            )
        }
    }

    /// Writes register `r` of the instance this thread observed in `role`,
    /// with `st.global.cs.b32`: a plain store (the classifying launch reads
    /// it after this launch ends) whose evict-first hint makes it
    /// `STG.E.EF` in SASS, so that the SASS test tells it from a test's
    /// weak store.
    ///
    /// # Safety
    ///
    /// The results buffer must hold `REGISTERS` words per instance.
    #[inline(always)]
    pub unsafe fn record(&self, role: u32, r: u8, value: u32) {
        let slot = self.instance(role) as usize * REGISTERS + r as usize;
        // SAFETY: `slot` is inside the results buffer.
        let address = global::to_global(unsafe { self.results.add(slot) });
        // SAFETY: a global word of the results buffer.
        unsafe { asm!("st.global.cs.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
    }

    /// `address` as the address of a second access to the same location by
    /// this thread: offset by [`Params::zero`], which is always 0 but which
    /// `ptxas` cannot see. Without it, `ptxas` merges two weak loads of one
    /// address into one (so CoRR's weak outcome could not happen), forwards
    /// a store to a later load, or drops the first of two stores.
    #[inline(always)]
    pub fn again(&self, address: *mut u32) -> *mut u32 {
        address.wrapping_add(self.params.zero as usize)
    }
}
