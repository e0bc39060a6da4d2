//! Each family's kernel arguments: what a parameter of one of its kernels
//! is, which the family's host wrapper supplies the value of. They sit apart
//! from the families so that an entry's [`ParamRole`](crate::ParamRole) can
//! name them while each family names the entry's types, with no circle.

/// The sum family's arguments.
pub mod sum {
    /// What each argument of a sum kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The floats to add.
        Input,
        /// The accumulator the sum is added into, zero before the launch.
        Total,
        /// How many floats `input` holds.
        N,
        /// One partial sum per [`deterministic::CHUNK`](crate::sum::deterministic::CHUNK).
        Partials,
        /// The ticket and handoff slots: a [`deterministic::Handoff`](crate::sum::deterministic::Handoff), zero
        /// before the first launch and left zero.
        Handoff,
        /// A [`crate::exact::Superaccumulator`], zero before the first launch and
        /// left zero.
        Superaccumulator,
    }
}

/// The publish family's arguments.
pub mod publish {
    /// What each argument of a publication kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// Across blocks: one [`Slot`](crate::publish::Slot) per pair per round, zeroed before each
        /// launch.
        Slots,
        /// Producer/consumer rounds each pair runs.
        Rounds,
        /// Each consumer's time budget before its waits time out.
        BudgetNs,
        /// Across blocks: slots from a round's payload to its flag (0: the
        /// slot's own `ready`).
        FlagApart,
        /// Across blocks: 1 if the consumer reads the payload once before it
        /// waits.
        Preload,
        /// Across blocks: nanoseconds the producer waits before each round's
        /// publication.
        DelayNs,
        /// One [`Payload`](crate::publish::Payload) per consumer: the last one it read.
        Observed,
        /// One [`Counts`](crate::publish::Counts) for the launch, zeroed before it.
        Totals,
    }
}

/// The histogram family's arguments.
pub mod histogram {
    /// What each argument of a histogram kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The values, each below the bin count.
        Input,
        /// How many values `input` holds.
        N,
        /// The bins, zeroed before the launch.
        Bins,
        /// How many bins `bins` holds.
        BinCount,
    }
}

/// The baseline family's arguments.
pub mod baseline {
    /// What each argument of a baseline kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The flush's zeroed buffer, read and never written.
        Buffer,
        /// Quads (four floats) of `buffer` to read.
        Quads,
        /// One `u32` the flush would store to if the buffer were not zero.
        Sink,
        /// Nanoseconds the hold spins.
        Ns,
        /// The cluster probe's report: [`PROBE_WORDS`](crate::baseline::PROBE_WORDS) words per block.
        Report,
    }
}

/// The litmus family's arguments.
pub mod litmus {
    /// What each argument of a litmus kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The testing environment: one [`Params`](crate::litmus::Params) in global memory.
        Params,
        /// The launch's block rotation.
        Shift,
        /// The locations, [`Params::location_words`](crate::litmus::Params::location_words) words, zero before each
        /// launch.
        Locations,
        /// [`REGISTERS`](crate::litmus::REGISTERS) words per instance, zero before each launch.
        Results,
        /// The stress buffer, [`Params::stress_words`](crate::litmus::Params::stress_words) words.
        Stress,
        /// The synchronised start's counter, one word, zero before each launch.
        Control,
        /// [`BINS`](crate::litmus::BINS) `u64` counters the classifier adds into.
        Histogram,
    }
}

/// The pitfall family's arguments.
pub mod pitfall {
    /// What each argument of a pitfall kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// Read-only input values.
        Input,
        /// How many values `input` holds.
        N,
        /// What the kernel reports: sums, bins or counts, zeroed before the
        /// launch.
        Out,
        /// Working memory the kernel shares between its blocks, zeroed before
        /// the launch.
        Scratch,
        /// A count the kernel is given: bins, rounds or the fill pattern.
        Value,
        /// Nanoseconds a bounded spin may last.
        DeadlineNs,
    }
}

/// The system family's arguments.
pub mod system {
    /// What each argument of a system-scope kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The records, `slots` of them, in mapped host memory.
        Records,
        /// The flags, `slots` of them, in mapped host memory.
        Flags,
        /// How many slots the launch uses.
        Slots,
        /// The round: what the flags are set to, and what the records depend on.
        Round,
        /// GPU consumer: each thread's time budget before its waits time out.
        BudgetNs,
        /// GPU consumer: one [`Counts`](crate::publish::Counts) for the launch,
        /// zeroed before it, in device memory.
        Totals,
    }
}

/// The ladder family's arguments.
pub mod ladder {
    /// What each argument of a ladder kernel is for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Arg {
        /// The two flags in global or mapped host memory: A's at [`PONG_WORD`](crate::ladder::PONG_WORD),
        /// B's at [`PING_WORD`](crate::ladder::PING_WORD), [`FLAG_WORDS`](crate::ladder::FLAG_WORDS) zeroed `u32`s.
        Flags,
        /// Batches of round trips per launch.
        Batches,
        /// Round trips per batch, timed together as one sample.
        PerBatch,
        /// Nanoseconds each spin may last before it counts a timeout.
        BudgetNs,
        /// One `u64` per batch: its nanoseconds on `%globaltimer`.
        Samples,
        /// [`REPORT_WORDS`](crate::ladder::REPORT_WORDS) zeroed `u32`s the kernel reports into.
        Report,
        /// The fence loop's global word, stored to once per iteration.
        Sink,
        /// Fences (loop iterations) per timed loop.
        Iterations,
        /// Timed loops per launch, one sample each.
        Repeats,
    }
}
