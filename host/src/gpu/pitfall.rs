//! The typed wrapper for the pitfall kernels of `layout::pitfall`: one
//! launch at a time, ordinary or cooperative, with the buffers the runner
//! of each pitfall (`crate::pitfalls`) owns.

use cudarc::driver::{CudaFunction, CudaSlice, CudaView, CudaViewMut, DriverError, LaunchConfig, sys};
use layout::ParamRole;
use layout::pitfall::{Arg, Kernel as Spec};

use super::args::{Args, Launch, once};
use super::driver_error::{DriverContext, describe};
use super::registry::Kernel;
use super::{Functions, Gpu};
use crate::error::LabError;

/// One of the pitfall kernels: a handle on its registry entry.
pub type PitfallKernel = Kernel<Spec>;

/// Words in device memory: a pitfall kernel's input, output or scratch.
pub struct Words(CudaSlice<u32>);

/// Part of [`Words`], for a kernel to read.
pub struct WordsRef<'a>(CudaView<'a, u32>);

/// Part of [`Words`], for a kernel to write.
pub struct WordsMut<'a>(CudaViewMut<'a, u32>);

impl Words {
    /// All of them, to read.
    pub fn whole(&self) -> WordsRef<'_> {
        WordsRef(self.0.as_view())
    }

    /// All of them, to write.
    pub fn whole_mut(&mut self) -> WordsMut<'_> {
        WordsMut(self.0.as_view_mut())
    }

    /// The words of `range`, to read.
    pub fn part(&self, range: std::ops::Range<usize>) -> WordsRef<'_> {
        WordsRef(self.0.slice(range))
    }

    /// The words of `range`, to write.
    pub fn part_mut(&mut self, range: std::ops::Range<usize>) -> WordsMut<'_> {
        WordsMut(self.0.slice_mut(range))
    }
}

/// What one launch reads and writes, by the kernel's argument roles. A
/// field the kernel's entry does not list is ignored; one it lists and this
/// lacks is a bug in the runner, and panics in [`Args`].
#[derive(Default)]
pub struct Buffers<'a> {
    /// `Arg::Input`.
    pub input: Option<WordsRef<'a>>,
    /// `Arg::N`.
    pub n: usize,
    /// `Arg::Out`.
    pub out: Option<WordsMut<'a>>,
    /// `Arg::Scratch`.
    pub scratch: Option<WordsMut<'a>>,
    /// `Arg::Value`.
    pub value: u32,
    /// `Arg::DeadlineNs`.
    pub deadline_ns: u64,
}

/// A launch the driver declined before any block ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// The pitfall kernels, loaded.
pub struct PitfallKernels<'gpu> {
    gpu: &'gpu Gpu,
    /// One per registry entry, in registry order.
    functions: Functions,
}

impl<'gpu> PitfallKernels<'gpu> {
    /// Looks the kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(PitfallKernels { gpu, functions: gpu.functions::<Spec>()? })
    }

    /// `len` zeroed words on the device.
    pub fn zeros(&self, len: usize) -> Result<Words, LabError> {
        self.gpu.stream().alloc_zeros(len).map(Words).doing(|| format!("allocating {len} words"))
    }

    /// `values`, copied to the device.
    pub fn upload(&self, values: &[u32]) -> Result<Words, LabError> {
        self.gpu
            .stream()
            .clone_htod(values)
            .map(Words)
            .doing(|| format!("copying {} words to the device", values.len()))
    }

    /// `words`, copied back once every launch queued before has finished.
    pub fn read(&self, words: &Words) -> Result<Vec<u32>, LabError> {
        self.gpu.stream().clone_dtoh(&words.0).doing(|| format!("copying {} words back", words.0.len()))
    }

    /// Blocks of `kernel` at `threads` that fit on the device at once: the
    /// occupancy calculator per SM, times the SMs. A grid of more cannot be
    /// co-resident, and a cooperative launch of it is refused.
    pub fn resident_blocks(&self, kernel: PitfallKernel, threads: u32) -> Result<u32, LabError> {
        let per_sm = self
            .functions
            .get(kernel.index())?
            .occupancy_max_active_blocks_per_multiprocessor(threads, kernel.shared.bytes(threads, 0) as usize, None)
            .doing(|| format!("asking the occupancy of {}", kernel.symbol()))?;
        Ok(per_sm * self.gpu.info.sm_count)
    }

    /// Enqueues one ordinary launch of `kernel`: `grid` blocks of
    /// `threads`, the registry's shared bytes, its arguments from `buffers`.
    ///
    /// # Safety
    ///
    /// `buffers` and the shape must meet the kernel's `# Launch` and
    /// `# Safety` contract: the buffers as large (and the record as aligned)
    /// as it says, zeroed where it says, `threads` of the form it needs, and
    /// a `deadline_ns` short enough that its spin ends. Unlike the other
    /// families' wrappers, which allocate what their kernels need, this one
    /// launches kernels built to misbehave with buffers the runners in
    /// `crate::pitfalls` own, so the contract is the caller's to keep.
    pub unsafe fn launch(
        &self,
        kernel: PitfallKernel,
        grid: u32,
        threads: u32,
        buffers: Buffers<'_>,
    ) -> Result<(), LabError> {
        let function = self.functions.get(kernel.index())?;
        // SAFETY: forwarded from the caller.
        unsafe { self.enqueue(function, kernel, grid, threads, buffers, Launch::Ordinary) }
            .map_err(|e| LabError::Driver { doing: launching(kernel, grid, threads), error: describe(&e) })
    }

    /// Enqueues one cooperative launch of `kernel`, as [`Self::launch`]. A
    /// launch the driver refuses, because the grid cannot be co-resident or
    /// the device has no cooperative launch, comes back as [`Refused`], not
    /// as an error: refusing it is the driver's part of the lesson.
    ///
    /// # Safety
    ///
    /// As [`Self::launch`].
    pub unsafe fn launch_cooperative(
        &self,
        kernel: PitfallKernel,
        grid: u32,
        threads: u32,
        buffers: Buffers<'_>,
    ) -> Result<Result<(), Refused>, LabError> {
        let function = self.functions.get(kernel.index())?;
        // SAFETY: forwarded from the caller.
        match unsafe { self.enqueue(function, kernel, grid, threads, buffers, Launch::Cooperative) } {
            Ok(()) => Ok(Ok(())),
            Err(e)
                if matches!(
                    e.0,
                    sys::CUresult::CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE | sys::CUresult::CUDA_ERROR_NOT_SUPPORTED
                ) =>
            {
                Ok(Err(Refused(describe(&e))))
            }
            Err(e) => Err(LabError::Driver { doing: launching(kernel, grid, threads), error: describe(&e) }),
        }
    }

    /// The one place a pitfall kernel is launched: `function` is `kernel`'s.
    ///
    /// # Safety
    ///
    /// As [`Self::launch`].
    unsafe fn enqueue(
        &self,
        function: &CudaFunction,
        kernel: PitfallKernel,
        grid: u32,
        threads: u32,
        buffers: Buffers<'_>,
        how: Launch,
    ) -> Result<(), DriverError> {
        // Only a kernel whose shared memory is per bin reads `value` as its
        // bin count; the other rules ignore it.
        let config = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: kernel.shared.bytes(threads, buffers.value),
        };
        let Buffers { input, n, out, scratch, value, deadline_ns } = buffers;
        let (mut out, mut scratch) = (out, scratch);
        let (mut input_arg, mut out_arg, mut scratch_arg) =
            (input.as_ref().map(|w| &w.0), out.as_mut().map(|w| &mut w.0), scratch.as_mut().map(|w| &mut w.0));
        let mut args = Args::new(self.gpu.stream(), function, kernel.entry());
        for param in kernel.entry().params {
            let ParamRole::Pitfall(arg) = param.role else {
                panic!("{}: `{param}` is no pitfall argument", kernel.symbol())
            };
            match arg {
                Arg::Input => args.push(param, once(&mut input_arg, param)),
                Arg::N => args.push(param, &n),
                Arg::Out => args.push(param, once(&mut out_arg, param)),
                Arg::Scratch => args.push(param, once(&mut scratch_arg, param)),
                Arg::Value => args.push(param, &value),
                Arg::DeadlineNs => args.push(param, &deadline_ns),
            }
        }
        // SAFETY: the arguments are the kernel's registry entry's `params`
        // (`Args` checks order, count and types), `config` carries the
        // registry's shared bytes, and the buffers and shape meet the kernel's
        // contract, as this function's caller guarantees. The broken kernels
        // misbehave only inside those buffers.
        unsafe { args.launch_as(config, how) }
    }
}

/// What the host was doing, for a driver error.
fn launching(kernel: PitfallKernel, grid: u32, threads: u32) -> String {
    format!("launching {} ({grid} blocks of {threads})", kernel.symbol())
}
