//! The sums the commands share: the page's sweep (the three sums at each
//! size, timed and checked against the Kahan reference), which `sweep` and
//! `exercise` run and `bench` extends, and which sum kernels run at a size.
//! Below the commands, so none of them imports another.

pub mod tables;

use layout::sum::GlobalAtomics;

use crate::error::LabError;
use crate::gpu::sum::{SumKernel, SumKernels, SumMeasurement};
use crate::gpu::timing::Plan;
use crate::launch::Block;
use crate::progress::Progress;
use crate::{input, reference};

/// What one sweep measures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SweepOptions {
    /// Threads per block for every kernel.
    pub block: Block,
    /// Timed launches per kernel and size.
    pub runs: usize,
    /// Untimed launches before them.
    pub warmup: usize,
    /// Array sizes, each within [`reference::fits_exactly`].
    pub sizes: Vec<usize>,
}

/// One size of the sweep: the reference and the three measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepRow {
    /// Elements summed.
    pub n: usize,
    /// The Kahan `f64` reference of the exact input.
    pub reference: f64,
    /// One measurement per kernel of the page, in registry order.
    pub measurements: Vec<SumMeasurement>,
}

/// A finished sweep, ready for an exporter.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepReport {
    /// The options it ran with.
    pub options: SweepOptions,
    /// One row per size, in the order given.
    pub rows: Vec<SweepRow>,
}

/// A sum that is not bit-for-bit the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Which kernel.
    pub kernel: SumKernel,
    /// The array size.
    pub n: usize,
    /// The block size.
    pub block: Block,
    /// Which launch (0-based, warm-ups first).
    pub launch: usize,
    /// The reference.
    pub expected: f64,
    /// What the kernel returned.
    pub found: f32,
}

impl SweepOptions {
    /// The timing plan: warm always, as on the page.
    pub fn plan(&self) -> Plan {
        Plan { warmup: self.warmup, runs: self.runs, cold: false }
    }
}

impl SweepRow {
    /// Every sum of this row that differs from its reference, for a run at
    /// `block`.
    pub fn mismatches(&self, block: Block) -> Vec<Mismatch> {
        self.measurements
            .iter()
            .flat_map(|m| {
                m.sums.iter().enumerate().filter(|(_, s)| !reference::bit_exact(**s, self.reference)).map(
                    move |(launch, &found)| Mismatch {
                        kernel: m.kernel,
                        n: self.n,
                        block,
                        launch,
                        expected: self.reference,
                        found,
                    },
                )
            })
            .collect()
    }
}

impl SweepReport {
    /// Every sum that differs from its reference, in table order.
    pub fn mismatches(&self) -> Vec<Mismatch> {
        self.rows.iter().flat_map(|row| row.mismatches(self.options.block)).collect()
    }
}

/// Runs the sweep. Sizes must already satisfy the exact-sum rule; a size that
/// does not is a programming error here, since the CLI refuses it first.
/// `progress` advances once per kernel and size; its length is the caller's.
pub fn run(kernels: &SumKernels<'_>, options: &SweepOptions, progress: &Progress) -> Result<SweepReport, LabError> {
    let rows = options
        .sizes
        .iter()
        .map(|&n| {
            assert!(reference::fits_exactly(n), "the CLI refuses n = {n}");
            let values = input::exact(n);
            let reference = reference::kahan_sum(&values);
            let device_input = kernels.upload(&values)?;
            let measurements = SumKernel::page()
                .map(|k| {
                    progress.message(format!("block {}, n = {n}: {}", options.block, k.label));
                    let m = kernels.measure(k, &device_input, options.block, options.plan());
                    progress.step();
                    m
                })
                .collect::<Result<_, _>>()?;
            Ok(SweepRow { n, reference, measurements })
        })
        .collect::<Result<_, LabError>>()?;
    Ok(SweepReport { options: options.clone(), rows })
}

/// A kernel with one global atomic per element (the page's naive kernel) is
/// left out above this size: its `n` atomics on one address run one after
/// another, so past 2^24 its launches would take most of the bench's time
/// and show nothing the smaller sizes do not.
pub const PER_ELEMENT_ATOMICS_MAX_N: usize = 1 << 24;

/// The kernels benched at `n`.
pub fn kernels_at(n: usize) -> Vec<SumKernel> {
    SumKernel::all()
        .filter(|k| k.global_atomics != GlobalAtomics::PerElement || n <= PER_ELEMENT_ATOMICS_MAX_N)
        .collect()
}
