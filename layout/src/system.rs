//! System scope with the host: a publication between a GPU thread and a CPU
//! thread through pinned host memory mapped into the device. The record and
//! flag layouts both sides read, the registry of its six kernels and the
//! eight variants (a kernel with the CPU's ordering) the host runs.
//!
//! # The protocol
//!
//! One launch is one *round* `r` (1, 2, ...) over `slots` slots. Slot `i`
//! is a [`Record`] of [`WORDS`] words and a flag, in two arrays of host
//! memory, so a record and its flag never share a line. The producer of slot
//! `i` writes [`Record::expected`]`(r, i)` with weak accesses (plain `st` on
//! the GPU, `Relaxed` stores on the CPU), then sets flag `i` to `r` with the
//! variant's flag store. The consumer of slot `i` waits until it reads flag
//! `i` as `r` (or its deadline passes: a timeout), then reads the record
//! with weak accesses and compares every word. A record that differs is
//! *stale*: the previous round's words (or zero before round 1), or a mix.
//! Flags carry the round number, so the memory is never reset between
//! launches and each slot is used once per launch.
//!
//! # What the memory model says
//!
//! The PTX ISA's memory consistency model (section 8, "Memory Consistency
//! Model": 8.5 "Scope" and 8.6 "Morally strong operations") defines the
//! `.sys` scope as the set of every thread of the program: every grid on
//! every device, and the threads of the host program itself. Two operations are
//! morally strong only if each is in the other's scope; a release and an
//! acquire synchronize only then. The CPU thread is in no `.gpu` scope, so a
//! `st.release.gpu` read by a host thread, or a host store read by
//! `ld.acquire.gpu`, forms no synchronization: the model promises nothing
//! about the record. `.relaxed` at `.sys` is in scope but orders nothing.
//! On the host's side Rust's (C++20's) `Release` store and `Acquire` load are
//! the two halves of the same release/acquire pattern; `Relaxed` orders
//! nothing. So exactly one combination per direction is guaranteed:
//! `.sys` release/acquire on the GPU and `Release`/`Acquire` on the CPU.

use crate::entry::{Entry, Family, ParamRole};
use crate::publish::Ordering;
use crate::scope::Scope;

/// Words in one record: more than one, so that no single access covers the
/// record, and 16 bytes, so a record is a quarter of a 64-byte host line.
pub const WORDS: usize = 4;

/// One slot's payload, written by the producer with weak accesses.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// The words, each a function of the round and the slot.
    pub words: [u32; WORDS],
}

impl crate::Pointee for Record {
    const NAME: &'static str = "Record";
}

const _: () = assert!(size_of::<Record>() == 16 && align_of::<Record>() == 4);

impl Record {
    /// What the producer of slot `slot` writes in round `round`. Every word
    /// differs from round to round (word 0 is the round itself, word 3 its
    /// complement), so a consumer that reads any word of an older round, or
    /// of the zeroed memory before round 1, sees a record unequal to this.
    pub const fn expected(round: u32, slot: u32) -> Record {
        Record { words: [round, round ^ slot.rotate_left(16), round.wrapping_mul(0x9E37_79B9), !round] }
    }
}

/// Which agent produces and which consumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// GPU threads write, CPU threads read.
    GpuToCpu,
    /// CPU threads write, GPU threads read.
    CpuToGpu,
}

impl Direction {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            Direction::GpuToCpu => "GPU to CPU",
            Direction::CpuToGpu => "CPU to GPU",
        }
    }
}

/// The ordering of the CPU thread's flag operation: Rust's
/// `std::sync::atomic::Ordering`, named here because `layout` has no `std`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuOrdering {
    /// A `Release` store (producer) or an `Acquire` load (consumer).
    ReleaseAcquire,
    /// A `Relaxed` store or load.
    Relaxed,
}

impl CpuOrdering {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            CpuOrdering::ReleaseAcquire => "Release/Acquire",
            CpuOrdering::Relaxed => "Relaxed",
        }
    }
}

pub use crate::args::system::Arg;

param!(RECORDS_OUT = records: *mut Record => ParamRole::System(Arg::Records));
param!(FLAGS_OUT = flags: *mut u32 => ParamRole::System(Arg::Flags));
param!(RECORDS_IN = records: *const Record => ParamRole::System(Arg::Records));
param!(FLAGS_IN = flags: *const u32 => ParamRole::System(Arg::Flags));
param!(SLOTS = slots: u32 => ParamRole::System(Arg::Slots));
param!(ROUND = round: u32 => ParamRole::System(Arg::Round));
param!(BUDGET_NS = budget_ns: u64 => ParamRole::System(Arg::BudgetNs));
param!(TOTALS = totals: *mut crate::publish::Counts => ParamRole::System(Arg::Totals));

params!(
    /// A GPU producer's parameters.
    pub PRODUCER_PARAMS = [RECORDS_OUT, FLAGS_OUT, SLOTS, ROUND]
);
params!(
    /// A GPU consumer's parameters.
    pub CONSUMER_PARAMS = [RECORDS_IN, FLAGS_IN, SLOTS, ROUND, BUDGET_NS, TOTALS]
);

/// Threads per block of every system-scope kernel.
pub const THREADS: u32 = 256;
/// Blocks per SM: 1024 threads an SM, few enough that the whole grid is
/// resident at once on any GPU the lab targets (2048 threads an SM from
/// Volta on), so every consumer's deadline runs at the same time and a launch
/// lasts at most about one budget.
pub const BLOCKS_PER_SM: u32 = 4;
/// Slots per launch unless told otherwise: 2^20, 16 MiB of records and
/// 4 MiB of flags.
pub const DEFAULT_SLOTS: u32 = 1 << 20;

/// One GPU kernel of the family: the GPU's half of a direction, with its
/// flag operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// What every kernel records.
    pub entry: Entry,
    /// Which direction it is the GPU's half of.
    pub direction: Direction,
    /// The scope of its flag operation.
    pub scope: Scope,
    /// The ordering of its flag operation.
    pub ordering: Ordering,
}

impl Kernel {
    /// Words for tables: the PTX of its flag operation.
    pub const fn flag_op(self) -> &'static str {
        match (self.direction, self.ordering, self.scope) {
            (Direction::GpuToCpu, Ordering::ReleaseAcquire, Scope::Sys) => "st.release.sys",
            (Direction::GpuToCpu, Ordering::ReleaseAcquire, _) => "st.release.gpu",
            (Direction::GpuToCpu, _, _) => "st.relaxed.sys",
            (Direction::CpuToGpu, Ordering::ReleaseAcquire, Scope::Sys) => "ld.acquire.sys",
            (Direction::CpuToGpu, Ordering::ReleaseAcquire, _) => "ld.acquire.gpu",
            (Direction::CpuToGpu, _, _) => "ld.relaxed.sys",
        }
    }
}

/// The GPU producer with `st.release.sys`: the correct flag store for a host
/// consumer.
pub const GPU_TO_CPU_RELEASE_SYS: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_gpu_to_cpu_release_sys",
        &PRODUCER_PARAMS,
        &["st.release.sys.b32"],
        &[".gpu.b32", ".relaxed", "ld.acquire", "bar.sync"],
        // A system-scope release waits for the earlier writes to reach the
        // whole system: a system-scope memory barrier before the store. (The
        // flag store itself is `STG.E.STRONG.SYS`, which the SASS summary's
        // families do not cover.)
        &["MEMBAR.ALL.SYS"],
        &["MEMBAR.ALL.GPU", "CCTL"],
    ),
    direction: Direction::GpuToCpu,
    scope: Scope::Sys,
    ordering: Ordering::ReleaseAcquire,
};

/// The GPU producer with `st.release.gpu`: the wrong scope for a host
/// consumer.
pub const GPU_TO_CPU_RELEASE_GPU: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_gpu_to_cpu_release_gpu",
        &PRODUCER_PARAMS,
        &["st.release.gpu.b32"],
        &[".sys.b32", ".relaxed", "ld.acquire", "bar.sync"],
        // The barrier waits only for the device: nothing makes the record's
        // stores reach the host before the flag's.
        &["MEMBAR.ALL.GPU"],
        &["MEMBAR.ALL.SYS", "CCTL"],
    ),
    direction: Direction::GpuToCpu,
    scope: Scope::Gpu,
    ordering: Ordering::ReleaseAcquire,
};

/// The GPU producer with `st.relaxed.sys`: in scope, unordered.
pub const GPU_TO_CPU_RELAXED_SYS: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_gpu_to_cpu_relaxed_sys",
        &PRODUCER_PARAMS,
        &["st.relaxed.sys.b32"],
        &[".release", ".acquire", ".gpu.b32", "fence", "membar", "bar.sync"],
        &[],
        // Relaxed is no barrier at all.
        &["MEMBAR", "ERRBAR", "CCTL"],
    ),
    direction: Direction::GpuToCpu,
    scope: Scope::Sys,
    ordering: Ordering::Relaxed,
};

/// The GPU consumer with `ld.acquire.sys`: the correct flag load for a host
/// producer.
pub const CPU_TO_GPU_ACQUIRE_SYS: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_cpu_to_gpu_acquire_sys",
        &CONSUMER_PARAMS,
        &["ld.acquire.sys.b32", "%globaltimer"],
        &[".gpu.b32", ".relaxed", "st.release", "bar.sync"],
        // An acquire is the strong load (`LDG.E.STRONG.SYS`, outside the
        // summary's families) and then the invalidation of L1, so the
        // record's weak loads cannot hit a line older than the flag.
        &["CCTL.IVALL"],
        &["MEMBAR"],
    ),
    direction: Direction::CpuToGpu,
    scope: Scope::Sys,
    ordering: Ordering::ReleaseAcquire,
};

/// The GPU consumer with `ld.acquire.gpu`: the wrong scope for a host
/// producer.
pub const CPU_TO_GPU_ACQUIRE_GPU: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_cpu_to_gpu_acquire_gpu",
        &CONSUMER_PARAMS,
        &["ld.acquire.gpu.b32", "%globaltimer"],
        &[".sys.b32", ".relaxed", "st.release", "bar.sync"],
        // The same SASS as at `.sys` but for the flag load's scope
        // (`LDG.E.STRONG.GPU`), which the summary's families do not cover;
        // the PTX promises tell the two apart.
        &["CCTL.IVALL"],
        &["MEMBAR"],
    ),
    direction: Direction::CpuToGpu,
    scope: Scope::Gpu,
    ordering: Ordering::ReleaseAcquire,
};

/// The GPU consumer with `ld.relaxed.sys`: in scope, unordered.
pub const CPU_TO_GPU_RELAXED_SYS: Kernel = Kernel {
    entry: Entry::new(
        Family::System,
        "system_cpu_to_gpu_relaxed_sys",
        &CONSUMER_PARAMS,
        &["ld.relaxed.sys.b32", "%globaltimer"],
        &[".release", ".acquire", ".gpu.b32", "fence", "membar", "bar.sync"],
        &[],
        // Relaxed is no barrier and no L1 invalidation.
        &["MEMBAR", "CCTL"],
    ),
    direction: Direction::CpuToGpu,
    scope: Scope::Sys,
    ordering: Ordering::Relaxed,
};

/// Every kernel of the family, producers first.
pub const KERNELS: [Kernel; 6] = [
    GPU_TO_CPU_RELEASE_SYS,
    GPU_TO_CPU_RELEASE_GPU,
    GPU_TO_CPU_RELAXED_SYS,
    CPU_TO_GPU_ACQUIRE_SYS,
    CPU_TO_GPU_ACQUIRE_GPU,
    CPU_TO_GPU_RELAXED_SYS,
];

/// One variant: a GPU kernel and the ordering of the CPU thread on the other
/// side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The name on the command line and in tables.
    pub name: &'static str,
    /// The GPU's half.
    pub kernel: Kernel,
    /// The CPU's half.
    pub cpu: CpuOrdering,
    /// Whether the memory model guarantees every record: release/acquire at
    /// `.sys` on the GPU and `Release`/`Acquire` on the CPU.
    pub guaranteed: bool,
    /// Why, in one sentence, for the report.
    pub reason: &'static str,
}

impl Variant {
    /// Whether `guaranteed` is what the model's rules give: both halves
    /// release/acquire, and the GPU's scope the system's.
    pub const fn follows_the_model(self) -> bool {
        let gpu = matches!(self.kernel.ordering, Ordering::ReleaseAcquire) && matches!(self.kernel.scope, Scope::Sys);
        let cpu = matches!(self.cpu, CpuOrdering::ReleaseAcquire);
        self.guaranteed == (gpu && cpu)
    }
}

/// Every variant: per direction the correct one, the GPU's wrong scope, the
/// GPU's relaxed flag and the CPU's relaxed flag.
pub const VARIANTS: [Variant; 8] = [
    Variant {
        name: "gpu-cpu-release-sys",
        kernel: GPU_TO_CPU_RELEASE_SYS,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: true,
        reason: "st.release.sys and an Acquire load synchronize: the host is in .sys",
    },
    Variant {
        name: "gpu-cpu-release-gpu",
        kernel: GPU_TO_CPU_RELEASE_GPU,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: false,
        reason: "wrong scope: the host thread is outside .gpu, so the release orders nothing for it",
    },
    Variant {
        name: "gpu-cpu-relaxed-sys",
        kernel: GPU_TO_CPU_RELAXED_SYS,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: false,
        reason: "the GPU's flag store is relaxed: in scope, but it orders nothing",
    },
    Variant {
        name: "gpu-cpu-host-relaxed",
        kernel: GPU_TO_CPU_RELEASE_SYS,
        cpu: CpuOrdering::Relaxed,
        guaranteed: false,
        reason: "the CPU's flag load is Relaxed: it does not acquire",
    },
    Variant {
        name: "cpu-gpu-acquire-sys",
        kernel: CPU_TO_GPU_ACQUIRE_SYS,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: true,
        reason: "a Release store and ld.acquire.sys synchronize: the host is in .sys",
    },
    Variant {
        name: "cpu-gpu-acquire-gpu",
        kernel: CPU_TO_GPU_ACQUIRE_GPU,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: false,
        reason: "wrong scope: the host thread is outside .gpu, so the acquire orders nothing after its store",
    },
    Variant {
        name: "cpu-gpu-relaxed-sys",
        kernel: CPU_TO_GPU_RELAXED_SYS,
        cpu: CpuOrdering::ReleaseAcquire,
        guaranteed: false,
        reason: "the GPU's flag load is relaxed: in scope, but it orders nothing",
    },
    Variant {
        name: "cpu-gpu-host-relaxed",
        kernel: CPU_TO_GPU_ACQUIRE_SYS,
        cpu: CpuOrdering::Relaxed,
        guaranteed: false,
        reason: "the CPU's flag store is Relaxed: it does not release",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_guaranteed_exactly_when_both_halves_are_release_acquire_at_the_system_scope() {
        for v in VARIANTS {
            assert!(v.follows_the_model(), "{}", v.name);
        }
        assert_eq!(VARIANTS.iter().filter(|v| v.guaranteed).count(), 2);
    }

    #[test]
    fn each_direction_has_one_correct_variant_and_each_kernel_a_variant() {
        for d in [Direction::GpuToCpu, Direction::CpuToGpu] {
            assert_eq!(VARIANTS.iter().filter(|v| v.guaranteed && v.kernel.direction == d).count(), 1);
        }
        for k in KERNELS {
            assert!(VARIANTS.iter().any(|v| v.kernel == k), "{}", k.entry.symbol);
        }
    }

    #[test]
    fn a_kernels_parameters_are_its_directions() {
        for k in KERNELS {
            let params: &[crate::Param] = match k.direction {
                Direction::GpuToCpu => &PRODUCER_PARAMS,
                Direction::CpuToGpu => &CONSUMER_PARAMS,
            };
            assert_eq!(k.entry.params, params, "{}", k.entry.symbol);
        }
    }

    #[test]
    fn a_kernels_flag_operation_is_in_its_ptx_promises() {
        for k in KERNELS {
            let op = k.flag_op();
            assert!(k.entry.ptx_has.iter().any(|p| p.starts_with(op)), "{}: {op}", k.entry.symbol);
        }
    }

    #[test]
    fn no_older_round_and_no_zeroed_memory_matches_a_rounds_record() {
        for slot in [0, 1, 31, 1 << 20, u32::MAX] {
            for round in [1, 2, 3, 1000, u32::MAX] {
                let record = Record::expected(round, slot);
                assert_ne!(record, Record::default());
                for older in [round - 1, round / 2] {
                    if older != round {
                        let stale = Record::expected(older, slot);
                        assert!(record.words.iter().zip(stale.words).all(|(a, b)| *a != b), "{round} {older}");
                    }
                }
            }
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in VARIANTS.iter().enumerate() {
            assert!(VARIANTS[i + 1..].iter().all(|b| b.name != a.name), "{}", a.name);
        }
    }
}
