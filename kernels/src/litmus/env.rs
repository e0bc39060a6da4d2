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

use crate::{atomic, order, thread};

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

/// `address` converted to the global window (`cvta.to.global.u64`).
#[inline(always)]
fn to_global(address: *mut u32) -> *mut u32 {
    let global;
    // `nomem` is right although a pointer goes in: `cvta` computes an
    // address and dereferences nothing, so no memory access may be assumed.
    #[allow(clippy::pointers_in_nomem_asm_block)]
    // SAFETY: the conversion is arithmetic on the address; it reads nothing.
    unsafe {
        asm!("cvta.to.global.u64 {g}, {a};", g = out(reg64) global, a = in(reg64) address, options(pure, nomem, nostack))
    }
    global
}

/// `iterations` of the stress pattern by this thread, on line `line` of
/// `stress`. Plain `.b32` accesses in `asm!`, so none is optimised away.
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
    let word =
        line * STRESS_LINE_STRIDE + rem(u64::from(thread::thread_idx_x()), u64::from(params.stress_line_words)) as u32;
    // SAFETY: `word` is below `stress_lines * STRESS_LINE_STRIDE`, since
    // `stress_line_words` is at most 32.
    let address = to_global(unsafe { stress.add(word as usize) });
    let pattern = params.stress_pattern;
    for i in 0..iterations {
        // SAFETY: `address` is a global word of the stress buffer; each asm is
        // one plain access with no other effect.
        unsafe {
            if pattern == StressPattern::StoreStore as u32 {
                asm!("st.global.b32 [{a}], {v};", "st.global.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) i, options(nostack));
            } else if pattern == StressPattern::StoreLoad as u32 {
                asm!("st.global.b32 [{a}], {v};", "ld.global.b32 {v}, [{a}];", a = in(reg64) address, v = inout(reg32) i => _, options(nostack));
            } else if pattern == StressPattern::LoadStore as u32 {
                asm!("ld.global.b32 {t}, [{a}];", "st.global.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) i, t = out(reg32) _, options(nostack));
            } else {
                asm!("ld.global.b32 {t}, [{a}];", "ld.global.b32 {t}, [{a}];", a = in(reg64) address, t = out(reg32) _, options(nostack));
            }
        }
    }
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
        let shuffled = rem(
            u64::from(hardware_block) * u64::from(params.block_multiplier) + u64::from(args.shift),
            u64::from(params.testing_blocks),
        );
        let env = Env {
            params,
            block: shuffled as u32,
            thread: thread::thread_idx_x(),
            locations: to_global(args.locations),
            results: args.results,
        };
        // SAFETY: as above.
        unsafe { stress(args.stress, &params, params.pre_stress_iterations, warp_line) };
        // SAFETY: the locations are valid for every instance.
        unsafe { env.preload(test) };
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
        let i = self.instance(role);
        let word = match location {
            Location::X => self.params.x(i),
            Location::Y => self.params.y(i),
        };
        // SAFETY: `x` and `y` are below `location_words()`, which the caller
        // of `enter` guaranteed.
        unsafe { self.locations.add(word) }
    }

    /// Reads, with a plain load that allocates in L1, the location each role
    /// of this test would rather see stale, for the instance this thread (or
    /// its neighbour) will observe in that role.
    ///
    /// # Safety
    ///
    /// The location buffer must be valid for every instance.
    #[inline(always)]
    unsafe fn preload(&self, test: Test) {
        let preload = self.params.preload;
        if preload == Preload::None as u32 {
            return;
        }
        let thread =
            if preload == Preload::Neighbour as u32 { self.thread ^ (self.params.threads / 2) } else { self.thread };
        for (role, r) in test.roles().iter().enumerate() {
            if let Some(location) = r.stale {
                let i = self.params.instance(role as u32, self.block, thread);
                let word = match location {
                    Location::X => self.params.x(i),
                    Location::Y => self.params.y(i),
                };
                // SAFETY: a plain load of a valid global word; its value is
                // not used, only the line it leaves in L1.
                unsafe {
                    asm!("ld.global.b32 {t}, [{a}];", t = out(reg32) _, a = in(reg64) self.locations.add(word), options(nostack))
                };
            }
        }
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
        unsafe { atomic::global_fetch_add_u32(control, 1) };
        let everyone = self.params.instances();
        for _ in 0..self.params.sync_polls {
            // SAFETY: as above.
            if unsafe { order::load_relaxed_gpu(control) } >= everyone {
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

    /// Writes register `r` of the instance this thread observed in `role`.
    ///
    /// # Safety
    ///
    /// The results buffer must hold `REGISTERS` words per instance.
    #[inline(always)]
    pub unsafe fn record(&self, role: u32, r: u8, value: u32) {
        let slot = self.instance(role) as usize * REGISTERS + r as usize;
        // SAFETY: `slot` is inside the results buffer. A plain store: the
        // classifying launch reads it after this launch ends.
        unsafe { self.results.add(slot).write(value) }
    }
}
