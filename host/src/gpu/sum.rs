//! The typed wrapper for the sum kernels: every entry of
//! `layout::sum::KERNELS`, launched the one way their registry entries
//! describe, and the measured launch loop with the page's timing rule.

use cudarc::driver::{CudaFunction, CudaSlice, CudaView, CudaViewMut, LaunchConfig, sys};
use layout::exact::Superaccumulator;
use layout::sum::{Arg, ClusterRoute, Scratch, SmallEntry, Sum, deterministic};
use layout::{Entry, ParamRole};

use super::Gpu;
use super::args::{Args, Launch, max_active_clusters, once};
use super::device_repr::OnDevice;
use super::driver_error::DriverContext;
use super::registry::Kernel;
use super::timing::{self, Plan};
use crate::error::LabError;
use crate::launch::Block;

/// One of the sum kernels: a handle on its `layout::sum` registry entry.
pub type SumKernel = Kernel<Sum>;

impl Kernel<Sum> {
    /// The first page's three, in the page's order.
    pub fn page() -> impl Iterator<Item = SumKernel> {
        SumKernel::all().filter(|k| k.on_page)
    }

    /// The launch configuration over `n` elements at `block`, given that
    /// `resident` blocks fit on the device at once (read only by kernels whose
    /// grid fills the device). `small_route` is `None` with the small route
    /// off, and otherwise the most threads a block the device launches the
    /// function with: a kernel whose grid has a small route launches one
    /// block of no more than that for a small `n`
    /// ([`Grid::shape`](layout::Grid::shape)).
    pub fn config(self, n: usize, block: Block, resident: u32, small_route: Option<u32>) -> LaunchConfig {
        let (blocks, threads) = self.grid.shape(n, block.threads(), resident, small_route);
        LaunchConfig {
            grid_dim: (u32::try_from(blocks).expect("the CLI bounds n so the grid fits in u32"), 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: self.shared.bytes(threads, 0),
        }
    }
}

/// An input array in device memory, starting `offset` floats into its
/// allocation (an offset that is not a multiple of 4 makes it misaligned for
/// 128-bit loads, which the tests use).
pub struct DeviceInput {
    values: CudaSlice<f32>,
    offset: usize,
}

impl DeviceInput {
    /// Elements in the array.
    pub fn len(&self) -> usize {
        self.values.len() - self.offset
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn view(&self) -> CudaView<'_, f32> {
        self.values.slice(self.offset..)
    }
}

/// Device memory a kernel needs besides its input and total, as its
/// registry entry's [`Scratch`] says.
enum ScratchBuffers {
    /// [`Scratch::None`].
    None,
    /// [`Scratch::ChunkPartials`]: one partial sum per chunk, and the ticket
    /// and handoff slots.
    ChunkPartials { partials: CudaSlice<f32>, handoff: CudaSlice<OnDevice<deterministic::Handoff>> },
    /// [`Scratch::Superaccumulator`]: the limbs, specials and ticket.
    Superaccumulator(CudaSlice<OnDevice<Superaccumulator>>),
}

/// A kernel's small route on this device: the largest one block it launches
/// and the largest input that takes it ([`Grid::small_threads`](layout::Grid::small_threads)
/// of the most threads a block both of the kernel's entries launch with).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SmallRoute {
    /// Which kernel.
    pub kernel: SumKernel,
    /// Threads of the largest one block, at [`Self::max_n`]: 1024, or fewer
    /// where the registers of the driver's build of the function leave room
    /// for fewer. A smaller input takes a smaller block
    /// ([`Grid::small_block`](layout::Grid::small_block)).
    pub threads: u32,
    /// The largest `n` that takes the route.
    pub max_n: usize,
}

/// Dynamic shared memory a kernel may use without asking: 48 KiB. Beyond it
/// the function must opt in, up to the device's limit.
const DEFAULT_SHARED_LIMIT: u32 = 48 * 1024;

/// The most blocks of a cluster every GPU with clusters launches: a larger
/// cluster is a non-portable size the function must opt in to.
const PORTABLE_CLUSTER_BLOCKS: u32 = 8;

/// How one launch of a sum kernel runs, decided before any timed region:
/// which function, under which entry's contract, in what shape.
#[derive(Clone, Copy)]
struct Shape<'k> {
    /// The function launched: the kernel's own, its small entry's or its
    /// cluster route's.
    function: &'k CudaFunction,
    /// The registry entry of that function.
    entry: &'static Entry,
    /// Grid, block and shared bytes.
    config: LaunchConfig,
    /// The blocks of the one cluster, on a cluster route.
    cluster: Option<u32>,
}

/// Every launch of one kernel on one input: the time of each timed launch and
/// the sum each launch (warm-ups included) left in its own accumulator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SumMeasurement {
    /// Which kernel.
    pub kernel: SumKernel,
    /// Milliseconds of each timed launch, in launch order.
    pub times_ms: Vec<f32>,
    /// The sum of each launch, warm-ups first.
    pub sums: Vec<f32>,
    /// The symbol of the kernel's small entry
    /// ([`Sum::small_entry`](layout::sum::Sum::small_entry)) or cluster route
    /// ([`Sum::cluster_route`](layout::sum::Sum::cluster_route)) where every
    /// launch was of it, not of the kernel's own entry; absent otherwise, and
    /// in records from before the small entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
}

/// Every sum kernel the loaded PTX defines.
pub struct SumKernels<'gpu> {
    gpu: &'gpu Gpu,
    /// One per registry entry, in registry order: `Err` (the load error) for
    /// a kernel the PTX lacks. A PTX given with `--ptx` may hold only some
    /// (nvcc's build of the page's three); asking for another is an error
    /// then, not at load.
    functions: Vec<Result<CudaFunction, LabError>>,
    /// The most threads a block each function launches with, in registry
    /// order (0 where the function did not load): the driver's
    /// `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`, which the registers of its
    /// build decide. The driver compiles the PTX itself, and its build may
    /// use more registers than `ptxas` reports here: a launch of more
    /// threads fails with `CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`.
    max_threads: Vec<u32>,
    /// One per registry entry, in registry order: its small entry's function
    /// and the most threads a block it launches with, where the kernel has a
    /// small entry and the PTX holds it (a PTX given with `--ptx` may not:
    /// its kernel's own entry then takes every launch).
    small_entries: Vec<Option<(CudaFunction, u32)>>,
    /// One per registry entry, in registry order: its cluster route's
    /// function, where the kernel has one and this device takes it: the
    /// Hopper module is loaded, the kernels under test are the embedded PTX
    /// (whose Hopper module was built from the same source), and the
    /// driver's build runs one cluster of the route's largest blocks.
    cluster_routes: Vec<Option<CudaFunction>>,
    sm_count: u32,
    /// Whether small inputs take their kernel's small route
    /// ([`Grid::small_per_thread`](layout::Grid::small_per_thread)), small
    /// entry ([`Sum::small_entry`](layout::sum::Sum::small_entry)) and
    /// cluster route ([`Sum::cluster_route`](layout::sum::Sum::cluster_route)): on unless
    /// the environment sets [`SMALL_ROUTE_ENV`] to `off`, which gives the
    /// earlier grids and entries, so one binary can time both.
    small_route: bool,
}

/// The environment variable that turns the small routes and entries off
/// (`off`), for timing the launches before them against them.
pub const SMALL_ROUTE_ENV: &str = "LAB_SMALL_ROUTE";

/// Whether the environment leaves the small route on.
pub fn small_route_from_env() -> bool {
    std::env::var(SMALL_ROUTE_ENV).map_or(true, |v| v != "off")
}

impl<'gpu> SumKernels<'gpu> {
    /// Looks every sum kernel, and its small entry, up in the GPU's module
    /// and asks the driver the most threads a block each launches with. A
    /// kernel whose shared memory at the largest block passes 48 KiB opts in
    /// to that much, in both entries.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        let functions: Vec<_> = SumKernel::all().map(|k| gpu.function(k.symbol())).collect();
        let mut max_threads = Vec::with_capacity(functions.len());
        let mut small_entries = Vec::with_capacity(functions.len());
        for (kernel, function) in SumKernel::all().zip(&functions) {
            let Ok(function) = function else {
                max_threads.push(0);
                small_entries.push(None);
                continue;
            };
            max_threads.push(prepare(function, kernel, kernel.symbol())?);
            let small = match kernel.small_entry.map(|s| (s.entry.symbol, gpu.function(s.entry.symbol))) {
                Some((symbol, Ok(function))) => {
                    let most = prepare(&function, kernel, symbol)?;
                    Some((function, most))
                }
                None | Some((_, Err(_))) => None,
            };
            small_entries.push(small);
        }
        let mut cluster_routes = Vec::with_capacity(functions.len());
        for kernel in SumKernel::all() {
            cluster_routes.push(match kernel.cluster_route {
                Some(route) if gpu.runs_embedded_ptx() && gpu.hopper().is_ok() => cluster_function(gpu, route)?,
                _ => None,
            });
        }
        Ok(SumKernels {
            gpu,
            functions,
            max_threads,
            small_entries,
            cluster_routes,
            sm_count: gpu.info.sm_count,
            small_route: small_route_from_env(),
        })
    }

    /// Sizes the grid-filling kernels as if the device had `sm_count` SMs:
    /// the tests use it to show the deterministic sum does not depend on the
    /// grid.
    pub fn with_sm_count(mut self, sm_count: u32) -> Self {
        self.sm_count = sm_count.max(1);
        self
    }

    /// Turns the small route on or off, whatever the environment says: the
    /// tests run every route on both sides of its threshold.
    pub fn with_small_route(mut self, on: bool) -> Self {
        self.small_route = on;
        self
    }

    /// Whether small inputs take their kernel's small route.
    pub fn small_route(&self) -> bool {
        self.small_route
    }

    /// The most threads a block the device launches `kernel` with (the
    /// driver's build of it decides), or the error of loading it.
    pub fn max_threads(&self, kernel: SumKernel) -> Result<u32, LabError> {
        self.function(kernel)?;
        Ok(self.max_threads[kernel.index()])
    }

    /// The registers a thread of `kernel` uses in the driver's build of it
    /// (`CU_FUNC_ATTRIBUTE_NUM_REGS`), which may differ from `ptxas`'s of the
    /// same PTX on another machine.
    pub fn registers(&self, kernel: SumKernel) -> Result<u32, LabError> {
        let regs =
            self.function(kernel)?.num_regs().doing(|| format!("asking the registers of {}", kernel.symbol()))?;
        Ok(u32::try_from(regs).unwrap_or(0))
    }

    /// The registers a thread of `kernel`'s small entry uses and the most
    /// threads a block it launches with, in the driver's build of it; `None`
    /// where the kernel has no small entry or the PTX lacks it.
    pub fn small_entry_limits(&self, kernel: SumKernel) -> Option<(u32, u32)> {
        let (function, most) = self.small_entries[kernel.index()].as_ref()?;
        let registers = function.num_regs().ok()?;
        Some((u32::try_from(registers).unwrap_or(0), *most))
    }

    /// `kernel`'s small route on this device, whether the route is on or
    /// off: `None` for a kernel without one, one the module lacks, or one
    /// whose build cannot launch a block of
    /// [`Grid::SMALL_GRANULE`](layout::Grid::SMALL_GRANULE).
    pub fn small_route_of(&self, kernel: SumKernel) -> Option<SmallRoute> {
        let most = self.small_route_most(kernel).ok()?;
        let threads = kernel.grid.small_threads(most);
        (threads > 0).then(|| SmallRoute { kernel, threads, max_n: kernel.grid.small_max_n(most) })
    }

    /// `kernel`'s cluster route, where this device takes it (the Hopper
    /// module is loaded, the PTX under test is the embedded one, and the
    /// driver launches the route's largest cluster), whether the small routes
    /// are on or off.
    pub fn cluster_route_of(&self, kernel: SumKernel) -> Option<&'static ClusterRoute> {
        self.cluster_routes[kernel.index()].as_ref().and(kernel.cluster_route)
    }

    /// The small routes launches take: every kernel's
    /// ([`Self::small_route_of`]) with the route on, none with it off.
    pub fn small_routes(&self) -> Vec<SmallRoute> {
        if !self.small_route {
            return Vec::new();
        }
        SumKernel::all().filter_map(|k| self.small_route_of(k)).collect()
    }

    /// The launch configuration of `kernel` over `n` elements asked at
    /// `block`: its registry entry's grid, with the small route when it is
    /// on, never a block of more threads than the device launches the
    /// function with. An asked block past that is refused in one line.
    pub fn config(&self, kernel: SumKernel, n: usize, block: Block) -> Result<LaunchConfig, LabError> {
        let most = self.max_threads(kernel)?;
        if block.threads() > most {
            return Err(LabError::Unrunnable(format!(
                "{} launches with at most {most} threads a block on this device (the registers of the \
                 driver's build of it), not {}",
                kernel.symbol(),
                block.threads()
            )));
        }
        let small_most = self.small_route_most(kernel)?;
        let config =
            kernel.config(n, block, self.resident_blocks(kernel, block)?, self.small_route.then_some(small_most));
        debug_assert!(config.block_dim.0 <= most, "the small route's block fits the function");
        Ok(config)
    }

    /// The most threads the small route's one block may have: the most both
    /// of the kernel's entries launch with, where the small entry is loaded,
    /// so that the block launches whichever entry takes it.
    fn small_route_most(&self, kernel: SumKernel) -> Result<u32, LabError> {
        let most = self.max_threads(kernel)?;
        Ok(self.small_entries[kernel.index()].as_ref().map_or(most, |(_, small)| most.min(*small)))
    }

    /// How `kernel` runs over `n` elements asked at `block`: on its cluster
    /// route where the small routes are on and the route takes `n`; else in
    /// [`Self::config`]'s shape, by its small entry where that takes the
    /// launch ([`Self::small_entry_of`]), by its own entry otherwise.
    fn shape(&self, kernel: SumKernel, n: usize, block: Block) -> Result<Shape<'_>, LabError> {
        if self.small_route
            && let (Some(route), Some(function)) = (kernel.cluster_route, &self.cluster_routes[kernel.index()])
            && let Some(threads) = route.threads(n)
        {
            let config = cluster_config(route, threads);
            return Ok(Shape { function, entry: &route.entry, config, cluster: Some(route.blocks) });
        }
        let config = self.config(kernel, n, block)?;
        let (function, entry) = match self.small_entry_of(kernel, n, config) {
            Some((small, function)) => (function, &small.entry),
            None => (self.function(kernel)?, kernel.entry()),
        };
        Ok(Shape { function, entry, config, cluster: None })
    }

    /// The small entry that takes `kernel`'s launch `config` over `n`
    /// elements, and its function, if one does: with the small routes on,
    /// where the PTX holds the entry, the entry takes the launch's shape
    /// ([`SmallEntry::takes`]) and its function launches a block that size.
    fn small_entry_of(
        &self,
        kernel: SumKernel,
        n: usize,
        config: LaunchConfig,
    ) -> Option<(&'static SmallEntry, &CudaFunction)> {
        let (function, most) = self.small_entries[kernel.index()].as_ref()?;
        let entry = kernel.small_entry?;
        let (blocks, threads) = (config.grid_dim.0, config.block_dim.0);
        (self.small_route && threads <= *most && entry.takes(n, blocks, threads)).then_some((entry, function))
    }

    /// Copies `values` to the device.
    pub fn upload(&self, values: &[f32]) -> Result<DeviceInput, LabError> {
        self.upload_at(values, 0)
    }

    /// Copies `values` to the device `offset` floats past the start of an
    /// allocation (which is 256-byte aligned), so the kernels see a pointer
    /// with that misalignment.
    pub fn upload_at(&self, values: &[f32], offset: usize) -> Result<DeviceInput, LabError> {
        let stream = self.gpu.stream();
        let doing = || format!("copying {} floats to the device", values.len());
        let values = if offset == 0 {
            stream.clone_htod(values).doing(doing)?
        } else {
            let padded: Vec<f32> = std::iter::repeat_n(f32::NAN, offset).chain(values.iter().copied()).collect();
            stream.clone_htod(&padded).doing(doing)?
        };
        Ok(DeviceInput { values, offset })
    }

    /// Launches `kernel` `plan.warmup + plan.runs` times on `input`, each
    /// launch adding into its own zeroed accumulator, and times the last
    /// `plan.runs` launches with CUDA events.
    ///
    /// Everything but the launch happens first: the accumulators and scratch
    /// are allocated and the launch configuration (with its occupancy query)
    /// is computed before the first event is recorded, so the timed region
    /// holds the launch and nothing else ([`timing::time_launches`]).
    pub fn measure(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        block: Block,
        plan: Plan,
    ) -> Result<SumMeasurement, LabError> {
        let n = input.len();
        assert!(n <= kernel.max_n, "the CLI bounds n below {} for {}", kernel.max_n, kernel.symbol());
        self.function(kernel)?;
        let stream = self.gpu.stream();
        let launches = plan.warmup + plan.runs;
        let mut totals = stream.alloc_zeros::<f32>(launches).doing(|| format!("allocating {launches} accumulators"))?;
        let mut scratch = self.scratch(kernel, n)?;
        let shape = self.shape(kernel, n, block)?;
        let times_ms = timing::time_launches(self.gpu, plan, |k| {
            let mut total = totals.slice_mut(k..k + 1);
            self.launch(kernel, input, &mut total, shape, &mut scratch)
        })?;
        let sums = stream.clone_dtoh(&totals).doing(|| format!("copying the sums of {} back", kernel.symbol()))?;
        // An empty input, or a plan of no launch, launches nothing.
        let other = shape.entry.symbol != kernel.symbol() && n > 0 && launches > 0;
        let entry = other.then(|| shape.entry.symbol.to_owned());
        Ok(SumMeasurement { kernel, times_ms, sums, entry })
    }

    /// Launches `kernel` `launches` times on `input`, every launch adding
    /// into the same accumulator, zeroed once before the first: the timing
    /// loop page 1 warns about ("ten timed launches into one address leave
    /// you with ten times the answer"), here only so that `host pitfalls`
    /// can show what it leaves. Returns the accumulator after the last
    /// launch. [`Self::measure`] is the loop done right.
    pub fn accumulate_without_reset(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        block: Block,
        launches: usize,
    ) -> Result<f32, LabError> {
        assert!(input.len() <= kernel.max_n, "the CLI bounds n below {} for {}", kernel.max_n, kernel.symbol());
        let stream = self.gpu.stream();
        let mut total = stream.alloc_zeros::<f32>(1).doing(|| "allocating one accumulator".to_owned())?;
        let mut scratch = self.scratch(kernel, input.len())?;
        let shape = self.shape(kernel, input.len(), block)?;
        for _ in 0..launches {
            self.launch(kernel, input, &mut total.as_view_mut(), shape, &mut scratch)?;
        }
        let value = stream.clone_dtoh(&total).doing(|| "copying the accumulator back".to_owned())?;
        Ok(value[0])
    }

    /// The zeroed scratch `kernel`'s registry entry names, for `n` floats.
    fn scratch(&self, kernel: SumKernel, n: usize) -> Result<ScratchBuffers, LabError> {
        let stream = self.gpu.stream();
        Ok(match kernel.scratch() {
            Scratch::None => ScratchBuffers::None,
            Scratch::ChunkPartials => ScratchBuffers::ChunkPartials {
                partials: stream
                    .alloc_zeros::<f32>(n.div_ceil(deterministic::CHUNK).max(1))
                    .doing(|| "allocating partial sums".to_owned())?,
                handoff: stream.alloc_zeros(1).doing(|| "allocating the ticket and handoff slots".to_owned())?,
            },
            Scratch::Superaccumulator => ScratchBuffers::Superaccumulator(
                stream.alloc_zeros(1).doing(|| "allocating the superaccumulator".to_owned())?,
            ),
        })
    }

    /// The loaded `kernel`, or the error of loading it.
    fn function(&self, kernel: SumKernel) -> Result<&CudaFunction, LabError> {
        self.functions[kernel.index()].as_ref().map_err(Clone::clone)
    }

    /// Blocks of `kernel` at `block` threads that fit on the device at once:
    /// the driver's occupancy calculator (registers, shared memory, block
    /// limits) per SM, times the SM count. Only kernels whose grid fills the
    /// device use it; the others get 0.
    pub fn resident_blocks(&self, kernel: SumKernel, block: Block) -> Result<u32, LabError> {
        if !kernel.grid.fills_device {
            return Ok(0);
        }
        let per_sm = self
            .function(kernel)?
            .occupancy_max_active_blocks_per_multiprocessor(
                block.threads(),
                kernel.shared.bytes(block.threads(), 0) as usize,
                None,
            )
            .doing(|| format!("asking the occupancy of {}", kernel.symbol()))?;
        Ok(per_sm.max(1) * self.sm_count)
    }

    /// Enqueues one launch of `kernel` adding `input` into `total[0]`, in the
    /// `shape` [`Self::shape`] chose, and nothing else: no driver query, no
    /// allocation.
    fn launch(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        total: &mut CudaViewMut<'_, f32>,
        shape: Shape<'_>,
        scratch: &mut ScratchBuffers,
    ) -> Result<(), LabError> {
        let n = input.len();
        if n == 0 {
            // An empty grid is not a valid launch; the sum of nothing is the
            // zero the accumulator already holds.
            return Ok(());
        }
        let view = input.view();
        let Shape { function, entry, config, cluster } = shape;
        let mut args = Args::new(self.gpu.stream(), function, entry);
        let (mut total, mut partials, mut handoff, mut acc) = (Some(total), None, None, None);
        match scratch {
            ScratchBuffers::None => {}
            ScratchBuffers::ChunkPartials { partials: p, handoff: h } => (partials, handoff) = (Some(p), Some(h)),
            ScratchBuffers::Superaccumulator(a) => acc = Some(a),
        }
        for param in kernel.entry().params {
            let ParamRole::Sum(arg) = param.role else { panic!("{}: `{param}` is no sum argument", kernel.symbol()) };
            match arg {
                Arg::Input => args.push(param, &view),
                Arg::Total => args.push(param, once(&mut total, param)),
                Arg::N => args.push(param, &n),
                Arg::Partials => args.push(param, once(&mut partials, param)),
                Arg::Handoff => args.push(param, once(&mut handoff, param)),
                Arg::Superaccumulator => args.push(param, once(&mut acc, param)),
            }
        }
        let launched = match cluster {
            // SAFETY: the arguments are the kernel's registry entry's
            // `params`, which its small entry and cluster route share under
            // the same contract (`Args` checks order, count and types), with
            // the buffers its `Scratch` names, which `measure` allocated from
            // the same entry: one partial per chunk in a fresh, 256-byte
            // aligned allocation and a zeroed `Handoff` the kernel leaves
            // zero, or a zeroed `Superaccumulator` it leaves zero. `input`
            // holds `n <= max_n` floats and `total` one; `config` comes from
            // the registry's grid and shared-memory rules, which are the
            // kernel's `# Launch` contract, at a block the function launches
            // with (`Self::config`, and `small_entry_of` for the small entry),
            // and `load` allowed either entry the shared bytes past 48 KiB.
            None => unsafe { args.launch(config) },
            // SAFETY: as above, for the route's entry: `config` is one
            // cluster of the route's blocks (`Self::shape`), each of the
            // threads `ClusterRoute::threads` gives for `n` and the route's
            // shared bytes, which `cluster_function` found the driver runs
            // (the largest such cluster fits, and it allowed the size).
            Some(blocks) => unsafe { args.launch_as(config, Launch::Clusters(blocks)) },
        };
        launched.doing(|| {
            let how = cluster.map_or(String::new(), |b| format!(" as one cluster of {b} blocks"));
            format!("launching {}{how} (n = {n}, block {})", entry.symbol, config.block_dim.0)
        })
    }
}

/// Asks the driver the most threads a block `function` (an entry of
/// `kernel`, named `symbol`) launches with, and opts it in to `kernel`'s
/// shared memory at the largest block where that passes 48 KiB.
fn prepare(function: &CudaFunction, kernel: SumKernel, symbol: &str) -> Result<u32, LabError> {
    let threads = function.max_threads_per_block().doing(|| format!("asking the most threads a block of {symbol}"))?;
    let most = kernel.shared.bytes(Block::MAX, 0);
    if most > DEFAULT_SHARED_LIMIT {
        function
            .set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, most as i32)
            .doing(|| format!("allowing {symbol} {most} bytes of shared memory"))?;
    }
    Ok(u32::try_from(threads).unwrap_or(0))
}

/// The launch of `route`'s one cluster with blocks of `threads`: the grid is
/// the cluster, and each block has the route's shared bytes for its size.
fn cluster_config(route: &ClusterRoute, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (route.blocks, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: route.shared.bytes(threads, 0),
    }
}

/// `route`'s kernel from the Hopper module, allowed the route's cluster
/// size and shared memory, or `None` where the driver's build of it cannot
/// run the route's largest cluster (too few threads a block, a refused
/// attribute, or no such cluster fits the device, as on a GPU partition):
/// then the kernel's other entries take every launch. A kernel the module lacks is an error: the module was built from
/// the same source.
fn cluster_function(gpu: &Gpu, route: &ClusterRoute) -> Result<Option<CudaFunction>, LabError> {
    let symbol = route.entry.symbol;
    let function = gpu.function_of(&route.entry)?;
    let threads = route.max_threads();
    let most = function.max_threads_per_block().doing(|| format!("asking the most threads a block of {symbol}"))?;
    if u32::try_from(most).unwrap_or(0) < threads {
        return Ok(None);
    }
    // A device that refuses the route's shared memory, its cluster size or
    // the occupancy query runs the sum's other entries: the route is a
    // faster way, not something the sum needs.
    use sys::CUfunction_attribute::{
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as SHARED,
        CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED as NON_PORTABLE,
    };
    let config = cluster_config(route, threads);
    let shared = config.shared_mem_bytes;
    if shared > DEFAULT_SHARED_LIMIT && function.set_attribute(SHARED, shared as i32).is_err() {
        return Ok(None);
    }
    if route.blocks > PORTABLE_CLUSTER_BLOCKS && function.set_attribute(NON_PORTABLE, 1).is_err() {
        return Ok(None);
    }
    let clusters = max_active_clusters(gpu.stream(), &function, config, route.blocks).unwrap_or(0);
    Ok((clusters >= 1).then_some(function))
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::sum;

    fn block(threads: u32) -> Block {
        Block::new(threads).unwrap()
    }

    #[test]
    fn configs_follow_the_registry() {
        let c = SumKernel::of(&sum::TREE_ATOMIC).config(1000, block(256), 132, Some(1024));
        assert_eq!((c.grid_dim.0, c.block_dim.0, c.shared_mem_bytes), (4, 256, 1024));
        let big = 1 << 28;
        assert_eq!(SumKernel::of(&sum::BANDWIDTH).config(big, block(256), 528, Some(1024)).grid_dim.0, 528);
        assert_eq!(SumKernel::of(&sum::DETERMINISTIC).config(big, block(1024), 132, Some(1024)).grid_dim.0, 132);
        assert_eq!(SumKernel::of(&sum::WARP_SHUFFLE).config(big, block(256), 528, Some(1024)).grid_dim.0, 1 << 20);
    }

    #[test]
    fn small_inputs_of_the_correctly_rounded_sum_take_one_block_the_function_launches() {
        let kernel = &sum::CORRECTLY_ROUNDED;
        let k = SumKernel::of(kernel);
        // A build with room for 1024 threads, then one whose registers leave
        // room for 896 (the driver's JIT can use more registers than `ptxas`
        // here): the block and the threshold follow the function.
        for (most, threads) in [(1024, 1024), (896, 768)] {
            let n = kernel.grid.small_max_n(most);
            assert_eq!(n, kernel.grid.small_per_thread as usize * threads as usize);
            let c = k.config(n, block(256), 528, Some(most));
            assert_eq!((c.grid_dim.0, c.block_dim.0, c.shared_mem_bytes), (1, threads, k.shared.bytes(threads, 0)));
            // A quarter of the reach, 4,096 floats or fewer: one granule of
            // eight warps gives each thread no more than its share.
            let quarter = k.config(n / 4, block(256), 528, Some(most));
            assert_eq!((quarter.grid_dim.0, quarter.block_dim.0), (1, layout::Grid::SMALL_GRANULE));
            let old = k.config(n, block(256), 528, None);
            assert!(old.grid_dim.0 > 1 && old.block_dim.0 == 256);
            let above = k.config(n + 1, block(256), 528, Some(most));
            assert!(above.grid_dim.0 > 1 && above.block_dim.0 == 256);
        }
        let deterministic = SumKernel::of(&sum::DETERMINISTIC).config(32_768, block(256), 528, Some(1024));
        assert_eq!((deterministic.grid_dim.0, deterministic.block_dim.0), (4, 256), "no small route");
        let bandwidth = SumKernel::of(&sum::BANDWIDTH).config(16384, block(256), 528, Some(1024));
        assert_eq!((bandwidth.grid_dim.0, bandwidth.block_dim.0), (16, 256), "no small route");
    }

    #[test]
    fn the_page_kernels_are_the_first_three() {
        let page: Vec<&str> = SumKernel::page().map(|k| k.short).collect();
        assert_eq!(page, ["global", "shared", "tree"]);
    }
}
