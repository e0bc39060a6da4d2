//! A kernel's launch arguments, pushed in the order and of the types its
//! registry entry's `params` list ([`layout::Param`]).
//!
//! The list is written once, in `layout`: `tests/ptx.rs` checks it against
//! the kernel's `.entry` (count, order, PTX types) and its Rust signature
//! (names and types), and each family's wrapper walks it, supplying a value
//! per [`layout::ParamRole`], through [`Args`], which checks every value's type
//! against its parameter's and that none is missing. A kernel signature, its
//! registry entry and its launch cannot drift apart unnoticed.

use std::ffi::c_void;

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtr, DevicePtrMut, DriverError, LaunchConfig, sys,
};
use layout::{Entry, Param, Type};

/// An element type a kernel parameter can point to, named as the parameter's
/// [`Type`] names it.
pub(super) trait Pointee {
    /// The name in the kernel's signature (`"f32"`, `"Slot"`).
    const NAME: &'static str;
}

impl Pointee for f32 {
    const NAME: &'static str = "f32";
}
impl Pointee for u32 {
    const NAME: &'static str = "u32";
}
impl Pointee for u64 {
    const NAME: &'static str = "u64";
}

/// A host value that can be one kernel argument: it knows the parameter type
/// it stands for and the 64-bit word the launch passes. A shared borrow of
/// device memory is a `*const` pointer, a unique borrow a `*mut` one.
///
/// Every parameter the lab's kernels take is a scalar of at most 8 bytes or a
/// pointer, so one `u64` holds any of them: the driver copies the
/// parameter's size from the word's address, which on a little-endian host
/// is the value's own bytes, zero-extended.
pub(super) trait KernelArg {
    /// The parameter type this value matches.
    fn ty(&self) -> Type;
    /// The value as the launch passes it.
    fn word(self, stream: &CudaStream) -> u64;
}

impl<T: Pointee> KernelArg for &CudaSlice<T> {
    fn ty(&self) -> Type {
        Type::ConstPtr(T::NAME)
    }
    fn word(self, stream: &CudaStream) -> u64 {
        self.device_ptr(stream).0
    }
}

impl<T: Pointee> KernelArg for &CudaView<'_, T> {
    fn ty(&self) -> Type {
        Type::ConstPtr(T::NAME)
    }
    fn word(self, stream: &CudaStream) -> u64 {
        self.device_ptr(stream).0
    }
}

impl<T: Pointee> KernelArg for &mut CudaSlice<T> {
    fn ty(&self) -> Type {
        Type::MutPtr(T::NAME)
    }
    fn word(self, stream: &CudaStream) -> u64 {
        self.device_ptr_mut(stream).0
    }
}

impl<T: Pointee> KernelArg for &mut CudaViewMut<'_, T> {
    fn ty(&self) -> Type {
        Type::MutPtr(T::NAME)
    }
    fn word(self, stream: &CudaStream) -> u64 {
        self.device_ptr_mut(stream).0
    }
}

/// Implements [`KernelArg`] for a borrowed scalar of each given type, whose
/// word is its bits.
macro_rules! scalar_args {
    ($($t:ty => $ty:ident, |$v:ident| $word:expr);*) => {$(
        impl KernelArg for &$t {
            fn ty(&self) -> Type {
                Type::$ty
            }
            fn word(self, _: &CudaStream) -> u64 {
                let $v = *self;
                $word
            }
        }
    )*};
}

scalar_args!(
    u32 => U32, |v| u64::from(v);
    u64 => U64, |v| v;
    usize => Usize, |v| v as u64;
    f32 => F32, |v| u64::from(v.to_bits())
);

/// How the driver is asked to run a grid: the one choice every launch of the
/// lab makes, all through `cuLaunchKernelEx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Launch {
    /// An ordinary launch: blocks start as SMs free up, in no promised order.
    Ordinary,
    /// A cooperative launch, which guarantees every block of the grid is
    /// resident at once and refuses (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`)
    /// a grid that cannot be.
    Cooperative,
    /// A launch in thread-block clusters of this many blocks along x (a
    /// Hopper GPU or later): the blocks of one cluster are scheduled together
    /// on one GPU processing cluster, can read each other's shared memory and
    /// meet at `barrier.cluster`. The grid must be a multiple of it.
    Clusters(u32),
}

/// One launch's arguments, pushed in the order of its kernel's registry
/// entry and checked against it.
pub(super) struct Args<'a> {
    stream: &'a CudaStream,
    function: &'a CudaFunction,
    entry: &'static Entry,
    /// One word per parameter pushed, in the entry's order.
    words: Vec<u64>,
}

impl<'a> Args<'a> {
    /// An empty argument list for `function`, the kernel of `entry`.
    pub(super) fn new(stream: &'a CudaStream, function: &'a CudaFunction, entry: &'static Entry) -> Args<'a> {
        Args { stream, function, entry, words: Vec::with_capacity(entry.params.len()) }
    }

    /// Pushes `value` as `param`, which must be the entry's next parameter,
    /// and of `value`'s type.
    ///
    /// # Panics
    ///
    /// If `param` is not the next one, or `value` is of another type: a
    /// wrapper that does not follow its entry, which is a bug in the lab.
    pub(super) fn push(&mut self, param: &Param, value: impl KernelArg) {
        let (symbol, pushed) = (self.entry.symbol, self.words.len());
        let next = self.entry.params.get(pushed);
        assert_eq!(next, Some(param), "{symbol}: `{param}` pushed as argument {pushed}");
        assert_eq!(value.ty(), param.ty, "{symbol}: `{param}` given a value of another type");
        self.words.push(value.word(self.stream));
    }

    /// Launches the kernel with `config`, ordinarily.
    ///
    /// # Panics
    ///
    /// If fewer arguments were pushed than the entry lists.
    ///
    /// # Safety
    ///
    /// The values pushed must meet the kernel's `# Safety` contract (sizes,
    /// zeroing, what the kernel leaves for the next launch), and `config` its
    /// `# Launch` one. The arguments' order, count and types are this type's
    /// to check, not the caller's.
    pub(super) unsafe fn launch(self, config: LaunchConfig) -> Result<(), DriverError> {
        // SAFETY: the caller's contract is this function's.
        unsafe { self.launch_as(config, Launch::Ordinary) }
    }

    /// Launches the kernel with `config`, run as `how` asks: the one call
    /// into the driver that starts a kernel of the lab.
    ///
    /// # Panics
    ///
    /// As [`Args::launch`].
    ///
    /// # Safety
    ///
    /// As [`Args::launch`]; for [`Launch::Clusters`], also the kernel's
    /// cluster contract (its `# Launch` section).
    pub(super) unsafe fn launch_as(mut self, config: LaunchConfig, how: Launch) -> Result<(), DriverError> {
        let (symbol, listed) = (self.entry.symbol, self.entry.params.len());
        assert_eq!(self.words.len(), listed, "{symbol}: {} of its {listed} arguments pushed", self.words.len());
        let mut attribute = attribute(how);
        let launch = driver_config(config, how, self.stream, &mut attribute);
        // The driver reads each parameter through its own pointer; `words`
        // is not touched again until the call returns, so they stay valid.
        let mut params: Vec<*mut c_void> = self.words.iter_mut().map(|w| (w as *mut u64).cast()).collect();
        self.stream.context().bind_to_thread()?;
        // SAFETY: the arguments are the entry's parameters, in its order and
        // of its types (checked above and in `push`), each behind a pointer
        // that lives through the call; `tests/ptx.rs` checks the entry against
        // the kernel; the configuration and attribute outlive the call; the
        // rest is the caller's, as this function's contract says.
        unsafe {
            sys::cuLaunchKernelEx(&launch, self.function.cu_function(), params.as_mut_ptr(), std::ptr::null_mut())
        }
        .result()
    }
}

/// The launch attribute that asks for `how` (ignored for an ordinary launch).
fn attribute(how: Launch) -> sys::CUlaunchAttribute {
    // SAFETY: an all-zero launch attribute is a valid value of the C struct
    // (id 0 is `CU_LAUNCH_ATTRIBUTE_IGNORE`); the fields that matter are set
    // below.
    let mut attribute: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    match how {
        Launch::Ordinary => {}
        Launch::Cooperative => {
            attribute.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            attribute.value.cooperative = 1;
        }
        Launch::Clusters(blocks) => {
            attribute.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attribute.value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 { x: blocks, y: 1, z: 1 };
        }
    }
    attribute
}

/// The driver's form of `config` run as `how`, on `stream`, pointing at
/// `attribute`, which must outlive its use.
fn driver_config(
    config: LaunchConfig,
    how: Launch,
    stream: &CudaStream,
    attribute: &mut sys::CUlaunchAttribute,
) -> sys::CUlaunchConfig {
    sys::CUlaunchConfig {
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: attribute,
        numAttrs: u32::from(how != Launch::Ordinary),
    }
}

/// How many clusters of `cluster` blocks of `function`, each block shaped
/// as `config` says, the device can hold at once
/// (`cuOccupancyMaxActiveClusters`): the most a launch can count on being
/// resident together, which a kernel whose blocks wait for each other across
/// clusters needs.
pub(super) fn max_active_clusters(
    stream: &CudaStream,
    function: &CudaFunction,
    config: LaunchConfig,
    cluster: u32,
) -> Result<u32, DriverError> {
    let how = Launch::Clusters(cluster);
    let mut attribute = attribute(how);
    let query = driver_config(config, how, stream, &mut attribute);
    let mut clusters = 0;
    stream.context().bind_to_thread()?;
    // SAFETY: the driver writes one int through a valid pointer and reads the
    // configuration and its attribute, which live through the call.
    unsafe { sys::cuOccupancyMaxActiveClusters(&mut clusters, function.cu_function(), &query) }.result()?;
    Ok(clusters.max(0) as u32)
}

/// The value a wrapper holds for `param`, taken: each is pushed once.
///
/// # Panics
///
/// If there is none (left), which means the entry lists a parameter the
/// wrapper has no value for, or lists one twice: a bug in the lab.
pub(super) fn once<T>(value: &mut Option<T>, param: &Param) -> T {
    value.take().unwrap_or_else(|| panic!("no value (or a second one) for `{param}`"))
}
