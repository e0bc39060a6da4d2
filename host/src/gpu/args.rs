//! A kernel's launch arguments, pushed in the order and of the types its
//! registry entry's `params` list ([`layout::Param`]).
//!
//! The list is written once, in `layout`: `tests/ptx.rs` checks it against
//! the kernel's `.entry` (count, order, PTX types) and its Rust signature
//! (names and types), and each family's wrapper walks it, supplying a value
//! per [`layout::ParamRole`], through [`Args`], which checks every value's type
//! against its parameter's and that none is missing. A kernel signature, its
//! registry entry and its launch cannot drift apart unnoticed.

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, CudaView, CudaViewMut, DriverError, LaunchArgs, LaunchConfig, PushKernelArg,
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
/// it stands for and pushes itself. A shared borrow of device memory is a
/// `*const` pointer, a unique borrow a `*mut` one.
pub(super) trait KernelArg<'a> {
    /// The parameter type this value matches.
    fn ty(&self) -> Type;
    /// Adds the value to the launch.
    fn push_to(self, args: &mut LaunchArgs<'a>);
}

impl<'a, T: Pointee> KernelArg<'a> for &'a CudaSlice<T> {
    fn ty(&self) -> Type {
        Type::ConstPtr(T::NAME)
    }
    fn push_to(self, args: &mut LaunchArgs<'a>) {
        args.arg(self);
    }
}

impl<'a, 'b: 'a, T: Pointee> KernelArg<'a> for &'a CudaView<'b, T> {
    fn ty(&self) -> Type {
        Type::ConstPtr(T::NAME)
    }
    fn push_to(self, args: &mut LaunchArgs<'a>) {
        args.arg(self);
    }
}

impl<'a, T: Pointee> KernelArg<'a> for &'a mut CudaSlice<T> {
    fn ty(&self) -> Type {
        Type::MutPtr(T::NAME)
    }
    fn push_to(self, args: &mut LaunchArgs<'a>) {
        args.arg(self);
    }
}

impl<'a, 'b: 'a, T: Pointee> KernelArg<'a> for &'a mut CudaViewMut<'b, T> {
    fn ty(&self) -> Type {
        Type::MutPtr(T::NAME)
    }
    fn push_to(self, args: &mut LaunchArgs<'a>) {
        args.arg(self);
    }
}

/// Implements [`KernelArg`] for a borrowed scalar of each given type.
macro_rules! scalar_args {
    ($($t:ty => $ty:ident),*) => {$(
        impl<'a> KernelArg<'a> for &'a $t {
            fn ty(&self) -> Type {
                Type::$ty
            }
            fn push_to(self, args: &mut LaunchArgs<'a>) {
                args.arg(self);
            }
        }
    )*};
}

scalar_args!(u32 => U32, u64 => U64, usize => Usize, f32 => F32);

/// One launch's arguments, pushed in the order of its kernel's registry
/// entry and checked against it.
pub(super) struct Args<'a> {
    args: LaunchArgs<'a>,
    entry: &'static Entry,
    pushed: usize,
}

impl<'a> Args<'a> {
    /// An empty argument list for `function`, the kernel of `entry`.
    pub(super) fn new(stream: &'a CudaStream, function: &'a CudaFunction, entry: &'static Entry) -> Args<'a> {
        Args { args: stream.launch_builder(function), entry, pushed: 0 }
    }

    /// Pushes `value` as `param`, which must be the entry's next parameter,
    /// and of `value`'s type.
    ///
    /// # Panics
    ///
    /// If `param` is not the next one, or `value` is of another type: a
    /// wrapper that does not follow its entry, which is a bug in the lab.
    pub(super) fn push(&mut self, param: &Param, value: impl KernelArg<'a>) {
        let symbol = self.entry.symbol;
        let next = self.entry.params.get(self.pushed);
        assert_eq!(next, Some(param), "{symbol}: `{param}` pushed as argument {}", self.pushed);
        assert_eq!(value.ty(), param.ty, "{symbol}: `{param}` given a value of another type");
        value.push_to(&mut self.args);
        self.pushed += 1;
    }

    /// Panics unless every parameter of the entry was pushed.
    fn assert_complete(&self) {
        let (symbol, listed) = (self.entry.symbol, self.entry.params.len());
        assert_eq!(self.pushed, listed, "{symbol}: {} of its {listed} arguments pushed", self.pushed);
    }

    /// Launches the kernel with `config`.
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
    pub(super) unsafe fn launch(mut self, config: LaunchConfig) -> Result<(), DriverError> {
        self.assert_complete();
        // SAFETY: the arguments are the entry's parameters, in its order and
        // of its types (checked above and in `push`), and `tests/ptx.rs`
        // checks the entry against the kernel; the rest is the caller's, as
        // this function's contract says.
        unsafe { self.args.launch(config) }.map(|_| ())
    }

    /// Launches the kernel with `config` through the driver's cooperative
    /// launch, which guarantees every block of the grid is resident at once
    /// and refuses (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`) a grid that
    /// cannot be.
    ///
    /// # Panics
    ///
    /// As [`Args::launch`].
    ///
    /// # Safety
    ///
    /// As [`Args::launch`].
    pub(super) unsafe fn launch_cooperative(mut self, config: LaunchConfig) -> Result<(), DriverError> {
        self.assert_complete();
        // SAFETY: as in `launch`: the arguments are the entry's, checked, and
        // the rest is the caller's.
        unsafe { self.args.launch_cooperative(config) }.map(|_| ())
    }
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
