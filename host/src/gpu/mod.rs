//! Everything that talks to the CUDA driver. No other module of the host
//! calls `cudarc`.
//!
//! Layers, bottom up, as in cudarc itself: cudarc's driver calls; a thin
//! `Result` layer (`driver_error`) that names each failure and what the host
//! was doing; [`Gpu`], which owns the context, stream and module; and one
//! typed wrapper per kernel family ([`sum::SumKernels`],
//! [`publish::PublishKernels`], [`histogram::HistogramKernels`],
//! [`baseline::Baselines`]) that launches the kernels of one `layout`
//! registry ([`registry`]), so no caller ever builds a grid by hand and no
//! launch shape is written twice. Each wrapper pushes a launch's arguments
//! by walking its entry's parameter list (`args`), so no argument list is
//! written twice either. [`timing`] holds the event stopwatches and
//! the one timed loop. Modules are loaded from their PTX, which the driver
//! compiles for this device; a refusal carries the JIT compiler's own log
//! (`jit`).

mod args;
pub mod baseline;
mod device_repr;
mod driver_error;
pub mod histogram;
mod host_memory;
mod jit;
pub mod ladder;
pub mod litmus;
pub mod pitfall;
pub mod publish;
pub mod registry;
pub mod sum;
pub mod system;
pub mod timing;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, sys};
use cudarc::nvrtc::Ptx;

use self::driver_error::{DriverContext, describe};
use self::registry::Registry;
use crate::device::DeviceInfo;
use crate::error::LabError;
use layout::practice::Puzzle;
use layout::{Entry, Module};

/// A kernel loaded from a module: the driver's handle, named here so that
/// the engines above (the litmus mutants load their own PTX) hold one
/// without naming the driver's crate.
pub type Function = CudaFunction;

/// The kernels' PTX, built by `host/build.rs` (through the same builder as
/// `cargo xtask build-ptx`) and embedded in the binary, so the binary runs
/// with no file beside it: the base module ([`layout::Module::Base`]).
pub const EMBEDDED_PTX: &str = include_str!(env!("KERNELS_PTX"));

/// The Hopper module's PTX ([`layout::Module::Hopper`], `sm_90`), embedded
/// beside [`EMBEDDED_PTX`] and loaded only on a device that can run it.
pub const EMBEDDED_HOPPER_PTX: &str = include_str!(env!("KERNELS_HOPPER_PTX"));

/// The embedded PTX of `module`.
pub const fn embedded_ptx(module: Module) -> &'static str {
    match module {
        Module::Base => EMBEDDED_PTX,
        Module::Hopper => EMBEDDED_HOPPER_PTX,
    }
}

/// Where the PTX comes from: the embedded build, a file named by `--ptx`,
/// or the embedded build with some kernels taken from the learner's PTX
/// (`--practice FILE --puzzle KEY`).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PtxSource {
    /// [`EMBEDDED_PTX`].
    #[default]
    Embedded,
    /// A PTX file read at run time.
    File(PathBuf),
    /// [`EMBEDDED_PTX`], except that each puzzle's kernel, from the learner's
    /// PTX file, stands in for the lab kernel it stands for
    /// ([`Puzzle::stands_for`]): every runner launches it there, with that
    /// kernel's entry.
    Practice {
        /// The learner's PTX, as `cargo xtask practice` builds it.
        file: PathBuf,
        /// The puzzles whose kernels stand in.
        puzzles: Vec<&'static Puzzle>,
    },
}

impl PtxSource {
    fn name(&self) -> String {
        match self {
            PtxSource::Embedded => "embedded PTX (target/ptx/kernels.ptx at build time)".to_owned(),
            PtxSource::File(path) => path.display().to_string(),
            PtxSource::Practice { file, puzzles } => {
                let keys: Vec<_> = puzzles.iter().map(|p| p.key).collect();
                format!("embedded PTX, with {} from {}", keys.join(", "), file.display())
            }
        }
    }

    fn text(&self) -> Result<String, LabError> {
        match self {
            PtxSource::Embedded | PtxSource::Practice { .. } => Ok(EMBEDDED_PTX.to_owned()),
            PtxSource::File(path) => read_ptx(path),
        }
    }
}

/// A PTX file's text, or the error that names it.
fn read_ptx(path: &Path) -> Result<String, LabError> {
    std::fs::read_to_string(path).map_err(|e| LabError::PtxRead { path: path.to_owned(), reason: e.to_string() })
}

/// The learner's module and the puzzles whose kernels stand in for the
/// lab's ([`PtxSource::Practice`]).
struct Practice {
    module: Arc<CudaModule>,
    name: String,
    puzzles: Vec<&'static Puzzle>,
}

/// One GPU, its stream and the lab's loaded PTX module.
pub struct Gpu {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
    /// The Hopper module, loaded at open on a device of compute capability
    /// 9.0 or above; otherwise (or if the driver refused it) why not, which
    /// every request for one of its kernels reports.
    hopper: Result<Arc<CudaModule>, LabError>,
    ptx_name: String,
    /// The PTX text the module was loaded from: what litmus mutants are
    /// made from.
    ptx_text: String,
    /// The module the timing instruments (`evict_l2`, `hold`) come from: the
    /// embedded PTX, whatever `--ptx` loaded for the kernels under test, so
    /// the instrument does not change with them. Loaded on first use when
    /// `--ptx` names a file.
    instruments: RefCell<Option<Arc<CudaModule>>>,
    /// The cold-cache flush, set up on the first cold measurement.
    flush: RefCell<Option<baseline::L2Flush>>,
    /// The timing hold, set up on the first timed launch.
    hold: RefCell<Option<baseline::Hold>>,
    /// Whether the kernels under test are the embedded PTX (no `--ptx`, no
    /// `--practice`).
    embedded: bool,
    /// The learner's kernels that stand in for some of the lab's.
    practice: Option<Practice>,
    /// The device's identity, read once.
    pub info: DeviceInfo,
}

impl Gpu {
    /// Opens device 0 and loads the PTX.
    ///
    /// Fails with [`LabError::NoDevice`] when there is no driver library or no
    /// device, and with [`LabError::PtxRead`] / [`LabError::PtxLoad`] when the
    /// PTX is missing or the driver rejects it.
    pub fn open(ptx: &PtxSource) -> Result<Gpu, LabError> {
        // The PTX is read first, so a missing file is reported the same way on
        // a machine with or without a GPU.
        let ptx_name = ptx.name();
        let text = ptx.text()?;
        let practice_text = match ptx {
            PtxSource::Practice { file, .. } => Some(read_ptx(file)?),
            PtxSource::Embedded | PtxSource::File(_) => None,
        };
        if text.contains('\0') {
            return Err(LabError::PtxLoad {
                source_name: ptx_name,
                reason: "the file contains a NUL byte; PTX is text".to_owned(),
            });
        }
        // SAFETY: this only tries to dlopen the driver library; it calls
        // nothing in it. Without it, the first driver call would panic.
        if !unsafe { sys::is_culib_present() } {
            return Err(LabError::NoDevice(
                "the NVIDIA driver library (libcuda.so) was not found; is a GPU driver installed?".to_owned(),
            ));
        }
        let count = CudaContext::device_count().map_err(|e| LabError::NoDevice(describe(&e)))?;
        if count == 0 {
            return Err(LabError::NoDevice("the driver reports no GPU".to_owned()));
        }
        let context = CudaContext::new(0).map_err(|e| LabError::NoDevice(describe(&e)))?;
        // SAFETY: the lab uses one stream, so cudarc's cross-stream event
        // tracking is not needed; turning it off keeps its bookkeeping events
        // out of the timed regions.
        unsafe { context.disable_event_tracking() };
        let stream = context.default_stream();
        let info = query_info(&context)?;

        let module = load(&context, &text, &ptx_name)?;
        let practice = match (ptx, practice_text) {
            (PtxSource::Practice { file, puzzles }, Some(practice_text)) => {
                // A puzzle of the Hopper build is PTX for `sm_90`, which an
                // older GPU's driver refuses: say why before it does.
                if let Some(puzzle) = puzzles.iter().find(|p| p.module() == Module::Hopper) {
                    hopper_device(info.compute_capability)
                        .map_err(|e| LabError::Unrunnable(format!("puzzle {}: {e}", puzzle.key)))?;
                }
                let name = file.display().to_string();
                let module = load(&context, &practice_text, &name)?;
                Some(Practice { module, name, puzzles: puzzles.clone() })
            }
            _ => None,
        };
        let instruments = RefCell::new((*ptx == PtxSource::Embedded).then(|| module.clone()));
        let hopper = load_hopper(&context, info.compute_capability);
        Ok(Gpu {
            context,
            stream,
            module,
            hopper,
            ptx_name,
            ptx_text: text,
            instruments,
            flush: RefCell::new(None),
            hold: RefCell::new(None),
            embedded: *ptx == PtxSource::Embedded,
            practice,
            info,
        })
    }

    /// The kernel named `symbol` in the loaded PTX: the learner's, where a
    /// puzzle's kernel stands in for it.
    pub fn function(&self, symbol: &str) -> Result<CudaFunction, LabError> {
        self.stand_in(symbol).unwrap_or_else(|| kernel_in(&self.module, &self.ptx_name, symbol))
    }

    /// The learner's kernel that stands in for the lab's `symbol`, if a
    /// puzzle of `--practice` does.
    fn stand_in(&self, symbol: &str) -> Option<Result<CudaFunction, LabError>> {
        let practice = self.practice.as_ref()?;
        let puzzle = practice.puzzles.iter().find(|p| p.stands_for.lab().is_some_and(|e| e.symbol == symbol))?;
        Some(kernel_in(&practice.module, &practice.name, puzzle.symbol))
    }

    /// The kernel named `symbol` in `ptx`, a module made at run time (a
    /// litmus mutant: one kernel's PTX with one instruction changed), loaded
    /// beside the lab's own. `source_name` names it in messages.
    pub fn function_in(&self, source_name: &str, ptx: &str, symbol: &str) -> Result<CudaFunction, LabError> {
        let module = load(&self.context, ptx, source_name)?;
        kernel_in(&module, source_name, symbol)
    }

    /// The timing instrument named `symbol` ([`layout::baseline`]), from the
    /// embedded PTX even when the kernels under test came from `--ptx`.
    fn instrument(&self, symbol: &str) -> Result<CudaFunction, LabError> {
        let mut slot = self.instruments.borrow_mut();
        if slot.is_none() {
            let module = load(&self.context, EMBEDDED_PTX, &PtxSource::Embedded.name())?;
            *slot = Some(module);
        }
        kernel_in(slot.as_ref().expect("loaded above"), &PtxSource::Embedded.name(), symbol)
    }

    /// The kernel of `entry`, from the module its entry names: the loaded
    /// PTX for the base module, the embedded Hopper PTX for the other (or,
    /// for either, the learner's kernel that stands in for it). On a device
    /// that cannot load the Hopper module, an [`LabError::Unrunnable`] that
    /// says so in one line.
    pub fn function_of(&self, entry: &Entry) -> Result<CudaFunction, LabError> {
        match entry.module {
            Module::Base => self.function(entry.symbol),
            Module::Hopper => {
                let module = self.hopper.as_ref().map_err(Clone::clone)?;
                self.stand_in(entry.symbol).unwrap_or_else(|| kernel_in(module, HOPPER_NAME, entry.symbol))
            }
        }
    }

    /// Whether the kernels under test are the embedded PTX, built from the
    /// same source as the Hopper module beside it, rather than a file given
    /// with `--ptx`.
    pub fn runs_embedded_ptx(&self) -> bool {
        self.embedded
    }

    /// Whether the Hopper module is loaded, and if not, why not.
    pub fn hopper(&self) -> Result<(), LabError> {
        self.hopper.as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// Every kernel of family `F`, in registry order. A missing base-module
    /// kernel fails here; a Hopper kernel on a device without the Hopper
    /// module fails only when it is asked for ([`Functions::get`]), so the
    /// family's other kernels still run.
    pub fn functions<F: Registry>(&self) -> Result<Functions, LabError> {
        let functions = F::ALL
            .iter()
            .map(|k| match self.function_of(k.entry()) {
                Err(e) if k.entry().module == Module::Base => Err(e),
                found => Ok(found),
            })
            .collect::<Result<_, _>>()?;
        Ok(Functions(functions))
    }

    /// The loaded PTX's text.
    pub fn ptx_text(&self) -> &str {
        &self.ptx_text
    }

    /// Where the loaded PTX came from, for messages and records.
    pub fn ptx_name(&self) -> &str {
        &self.ptx_name
    }

    /// The stream every launch and copy of the lab goes to.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The context, for creating events.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.context
    }

    /// Queues a read of twice the L2 cache's size (`evict_l2`), which evicts
    /// whatever a previous launch left there and leaves no dirty line behind.
    ///
    /// nvbench flushes with a write of that size instead; the write evicts
    /// just as well, but leaves dirty lines the timed kernel's reads would
    /// have to write back (see `evict_l2`'s documentation).
    pub fn flush_l2(&self) -> Result<(), LabError> {
        let mut slot = self.flush.borrow_mut();
        if slot.is_none() {
            *slot = Some(baseline::L2Flush::new(self)?);
        }
        slot.as_mut().expect("set up above").queue(self)
    }

    /// Queues the timing hold (`hold`): the stream stays busy for
    /// [`layout::baseline::HOLD_NS`] while the host queues what comes next,
    /// so a start event queued after it is stamped when the timed work can
    /// start, not when the host began queueing it.
    pub fn hold(&self) -> Result<(), LabError> {
        let mut slot = self.hold.borrow_mut();
        if slot.is_none() {
            *slot = Some(baseline::Hold::new(self)?);
        }
        slot.as_ref().expect("set up above").queue(self)
    }
}

/// One family's kernels, looked up once, in registry order.
pub struct Functions(Vec<Result<CudaFunction, LabError>>);

impl Functions {
    /// The kernel at `index` of its registry, or why this device cannot run
    /// it.
    pub fn get(&self, index: usize) -> Result<&CudaFunction, LabError> {
        self.0[index].as_ref().map_err(Clone::clone)
    }
}

/// How messages name the Hopper module.
const HOPPER_NAME: &str = "embedded Hopper PTX (target/ptx/kernels-sm90.ptx at build time)";

/// Loads the Hopper module if a device of `compute_capability` can run it.
fn load_hopper(context: &Arc<CudaContext>, compute_capability: (i32, i32)) -> Result<Arc<CudaModule>, LabError> {
    hopper_device(compute_capability).map_err(LabError::Unrunnable)?;
    load(context, EMBEDDED_HOPPER_PTX, HOPPER_NAME)
}

/// Whether a device of `compute_capability` runs the Hopper module's
/// kernels, or why not, in words.
fn hopper_device(compute_capability: (i32, i32)) -> Result<(), String> {
    let needed = Module::Hopper.min_compute_capability();
    if compute_capability < needed {
        return Err(format!(
            "this needs a GPU of compute capability {}.{} or later (thread-block clusters, the Hopper module); \
             this one is {}.{}",
            needed.0, needed.1, compute_capability.0, compute_capability.1
        ));
    }
    Ok(())
}

/// `ptx` loaded as a module (`cuModuleLoadData` of the PTX text, which the
/// driver compiles for `context`'s device). A refusal names the driver's
/// error and, where the JIT compiler gives one, its log, in one line.
fn load(context: &Arc<CudaContext>, ptx: &str, source_name: &str) -> Result<Arc<CudaModule>, LabError> {
    context.load_module(Ptx::from_src(ptx)).map_err(|e| {
        let reason = match jit::error_log(context, ptx) {
            Some(log) => format!("{}; the JIT compiler says: {log}", describe(&e)),
            None => describe(&e),
        };
        LabError::PtxLoad { source_name: source_name.to_owned(), reason }
    })
}

/// The kernel named `symbol` in `module`, loaded from `source_name`; its
/// absence is a PTX error that names both.
fn kernel_in(module: &Arc<CudaModule>, source_name: &str, symbol: &str) -> Result<CudaFunction, LabError> {
    module.load_function(symbol).map_err(|e| LabError::PtxLoad {
        source_name: source_name.to_owned(),
        reason: format!("no kernel `{symbol}` ({})", describe(&e)),
    })
}

fn query_info(context: &Arc<CudaContext>) -> Result<DeviceInfo, LabError> {
    let name = context.name().doing(|| "reading the device name".to_owned())?;
    let compute_capability = context.compute_capability().doing(|| "reading the compute capability".to_owned())?;
    let sm_count = context
        .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .doing(|| "reading the SM count".to_owned())?;
    let l2_bytes = context
        .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
        .doing(|| "reading the L2 size".to_owned())?;
    // A driver may not report the memory's clock or width (0, or an error):
    // then the bench has no limit column rather than a wrong one.
    let optional = |attribute| context.attribute(attribute).ok().filter(|&v| v > 0).map(|v| v as u32);
    let memory_clock_khz = optional(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    let memory_bus_bits = optional(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    let mut version = 0;
    // SAFETY: `cuDriverGetVersion` writes one int through a valid pointer.
    unsafe { sys::cuDriverGetVersion(&mut version) }.result().doing(|| "reading the driver version".to_owned())?;
    Ok(DeviceInfo {
        name,
        compute_capability,
        sm_count: sm_count as u32,
        driver_cuda_version: (version / 1000, (version % 1000) / 10),
        l2_bytes: l2_bytes as usize,
        memory_clock_khz,
        memory_bus_bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_bandwidth_from_the_memory_clock_and_bus() {
        // An H100 SXM's figures: 2619 MHz, 5120 bits: 3.35 TB/s, as published.
        let info = |khz, bits| DeviceInfo {
            name: "GPU".to_owned(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_cuda_version: (13, 0),
            l2_bytes: 0,
            memory_clock_khz: khz,
            memory_bus_bits: bits,
        };
        let peak = info(Some(2_619_000), Some(5120)).peak_dram_gb_per_s().unwrap();
        assert!((peak - 3352.3).abs() < 0.1, "{peak}");
        assert_eq!(info(None, Some(5120)).peak_dram_gb_per_s(), None);
    }
}
