//! The shape of a registry entry: what every kernel family records about each
//! of its kernels.

/// Threads per warp on every NVIDIA GPU the lab targets.
pub const WARP_SIZE: u32 = 32;

/// The kernel families, one module of `kernels/src` and one host wrapper each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The sums (`kernels/src/sum/`).
    Sum,
    /// The publication demo (`kernels/src/publish/`).
    Publish,
    /// The histograms (`kernels/src/histogram/`).
    Histogram,
    /// The yardsticks (`kernels/src/empty.rs`).
    Baseline,
    /// The litmus suite (`kernels/src/litmus/`).
    Litmus,
    /// The pages' mistakes beside their fixes (`kernels/src/pitfall/`).
    Pitfall,
    /// The publication between the GPU and a host thread at system scope
    /// (`kernels/src/system/`).
    System,
    /// The scope ladder's round trips and fence loops (`kernels/src/ladder/`).
    Ladder,
}

/// What every kernel has, whatever its family: the facts the PTX tests, the
/// SASS summary and the sanitizer check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The `.entry` name in the PTX: the kernel function's `#[no_mangle]` name.
    pub symbol: &'static str,
    /// Its family.
    pub family: Family,
    /// Its parameters, in the order of its Rust signature: what the host
    /// pushes at launch (`host/src/gpu/`, in this order) and what `tests/ptx.rs`
    /// checks the `.entry`'s `.param` list against.
    pub params: &'static [Param],
    /// PTX instructions the kernel's doc promises: each must appear in its
    /// body.
    pub ptx_has: &'static [&'static str],
    /// PTX text that must not appear in its body (the instructions that would
    /// make it a different kernel).
    pub ptx_lacks: &'static [&'static str],
    /// SASS opcodes (or parts of one) that `cargo xtask sass` must find for
    /// it on sm_90.
    pub sass_has: &'static [&'static str],
    /// SASS opcode parts that must not appear in its sm_90 summary.
    pub sass_lacks: &'static [&'static str],
    /// The PTX module it is compiled into.
    pub module: Module,
}

impl Entry {
    /// An entry of `family`, with its parameters, then its PTX and SASS
    /// promises in that order.
    pub const fn new(
        family: Family,
        symbol: &'static str,
        params: &'static [Param],
        ptx_has: &'static [&'static str],
        ptx_lacks: &'static [&'static str],
        sass_has: &'static [&'static str],
        sass_lacks: &'static [&'static str],
    ) -> Entry {
        Entry { symbol, family, params, ptx_has, ptx_lacks, sass_has, sass_lacks, module: Module::Base }
    }

    /// The same entry, for a kernel of the [`Module::Hopper`] module.
    pub const fn hopper(self) -> Entry {
        Entry { module: Module::Hopper, ..self }
    }
}

/// The PTX modules the kernels are compiled into. Every kernel is in exactly
/// one of them: the host loads the module its entry names, and the tests
/// look for its `.entry` there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    /// `target/ptx/kernels.ptx`, for `sm_70`: every kernel that runs on any
    /// GPU the lab supports.
    Base,
    /// `target/ptx/kernels-sm90.ptx`, for `sm_90`: the kernels that need a
    /// Hopper GPU or later (thread-block clusters, distributed shared memory,
    /// the `.cluster` scope). The kernels crate compiles them only with its
    /// `hopper` feature, and the host loads the module only on a device of
    /// compute capability 9.0 or above.
    Hopper,
}

impl Module {
    /// Both modules, base first.
    pub const ALL: [Module; 2] = [Module::Base, Module::Hopper];

    /// The PTX `.target` it is compiled for.
    pub const fn arch(self) -> &'static str {
        match self {
            Module::Base => "sm_70",
            Module::Hopper => "sm_90",
        }
    }

    /// The lowest compute capability (major, minor) that can load it.
    pub const fn min_compute_capability(self) -> (i32, i32) {
        match self {
            Module::Base => (7, 0),
            Module::Hopper => (9, 0),
        }
    }

    /// The name of the kernels crate's cargo feature that compiles it, if
    /// any.
    pub const fn feature(self) -> Option<&'static str> {
        match self {
            Module::Base => None,
            Module::Hopper => Some("hopper"),
        }
    }

    /// The LLVM target feature that sets its PTX ISA version, if not
    /// LLVM's default for its target: the Hopper module is `.version 8.1`
    /// (the default for `sm_90` is 7.8), for `st.async` and the relaxed
    /// cluster arrive of the correctly rounded sum's cluster route.
    pub const fn ptx_isa_feature(self) -> Option<&'static str> {
        match self {
            Module::Base => None,
            Module::Hopper => Some("ptx81"),
        }
    }

    /// What its files' and folders' names end with, beside the base
    /// module's: `-sm90` (`kernels-sm90.ptx`, `practice-sm90.ptx`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Module::Base => "",
            Module::Hopper => "-sm90",
        }
    }

    /// The file name of its PTX under `target/ptx/`.
    pub const fn file_name(self) -> &'static str {
        match self {
            Module::Base => "kernels.ptx",
            Module::Hopper => "kernels-sm90.ptx",
        }
    }
}

/// The type of one kernel parameter, as the kernel's Rust signature writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `usize`: 64 bits on `nvptx64`.
    Usize,
    /// `f32`.
    F32,
    /// `*const T`, with `T`'s name (`"f32"`, `"Params"`).
    ConstPtr(&'static str),
    /// `*mut T`, with `T`'s name (`"u32"`, `"Handoff"`).
    MutPtr(&'static str),
}

impl Type {
    /// The type rustc gives the parameter in the PTX `.param` list: a pointer
    /// is a `.u64` marked `.ptr`.
    pub const fn ptx(self) -> &'static str {
        match self {
            Type::U32 => ".u32",
            Type::U64 | Type::Usize => ".u64",
            Type::F32 => ".f32",
            Type::ConstPtr(_) | Type::MutPtr(_) => ".u64 .ptr",
        }
    }
}

impl core::fmt::Display for Type {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Type::U32 => f.write_str("u32"),
            Type::U64 => f.write_str("u64"),
            Type::Usize => f.write_str("usize"),
            Type::F32 => f.write_str("f32"),
            Type::ConstPtr(pointee) => write!(f, "*const {pointee}"),
            Type::MutPtr(pointee) => write!(f, "*mut {pointee}"),
        }
    }
}

/// What a parameter is for: one argument kind of the kernel's family, which
/// the family's host wrapper supplies the value of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamRole {
    /// A sum kernel's argument.
    Sum(crate::args::sum::Arg),
    /// A publication kernel's argument.
    Publish(crate::args::publish::Arg),
    /// A histogram kernel's argument.
    Histogram(crate::args::histogram::Arg),
    /// A yardstick's or timing kernel's argument.
    Baseline(crate::args::baseline::Arg),
    /// A litmus kernel's argument.
    Litmus(crate::args::litmus::Arg),
    /// A pitfall kernel's argument.
    Pitfall(crate::args::pitfall::Arg),
    /// A system-scope publication kernel's argument.
    System(crate::args::system::Arg),
    /// A scope-ladder kernel's argument.
    Ladder(crate::args::ladder::Arg),
}

impl ParamRole {
    /// The family whose argument it is.
    pub const fn family(self) -> Family {
        match self {
            ParamRole::Sum(_) => Family::Sum,
            ParamRole::Publish(_) => Family::Publish,
            ParamRole::Histogram(_) => Family::Histogram,
            ParamRole::Baseline(_) => Family::Baseline,
            ParamRole::Litmus(_) => Family::Litmus,
            ParamRole::Pitfall(_) => Family::Pitfall,
            ParamRole::System(_) => Family::System,
            ParamRole::Ladder(_) => Family::Ladder,
        }
    }
}

/// One kernel parameter: its name and type in the kernel's signature, and
/// its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name in the kernel's Rust signature.
    pub name: &'static str,
    /// The type in the kernel's Rust signature.
    pub ty: Type,
    /// What it is for.
    pub role: ParamRole,
}

impl Param {
    /// The parameter `name: ty`, playing `role`.
    pub const fn new(name: &'static str, ty: Type, role: ParamRole) -> Param {
        Param { name, ty, role }
    }

    /// The parameter `name` of Rust type `T`, playing `role`: its [`Type`]
    /// is `T`'s ([`ParamType`]). [`param!`](crate::param) writes each
    /// parameter this way, so the type the registry records and the type
    /// the kernel is checked against are one.
    pub const fn of<T: ParamType>(name: &'static str, role: ParamRole) -> Param {
        Param { name, ty: T::TYPE, role }
    }
}

/// A Rust type a kernel parameter may have, and the [`Type`] the registry
/// records for it.
pub trait ParamType {
    /// The registry's word for it.
    const TYPE: Type;
}

/// A type a kernel parameter may point to, and the name the registry gives
/// it (`*mut Handoff` is `Type::MutPtr("Handoff")`).
pub trait Pointee {
    /// Its name, as the kernel's signature writes it.
    const NAME: &'static str;
}

impl ParamType for u32 {
    const TYPE: Type = Type::U32;
}
impl ParamType for u64 {
    const TYPE: Type = Type::U64;
}
impl ParamType for usize {
    const TYPE: Type = Type::Usize;
}
impl ParamType for f32 {
    const TYPE: Type = Type::F32;
}
impl<T: Pointee> ParamType for *const T {
    const TYPE: Type = Type::ConstPtr(T::NAME);
}
impl<T: Pointee> ParamType for *mut T {
    const TYPE: Type = Type::MutPtr(T::NAME);
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

impl core::fmt::Display for Param {
    /// As the kernel's signature writes it: `input: *const f32`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.name, self.ty)
    }
}

/// Dynamic shared-memory bytes a kernel asks of its launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedBytes {
    /// A fixed count, whatever the block.
    Fixed(u32),
    /// This many bytes per thread of the block.
    PerThread(u32),
    /// This many bytes per warp of the block.
    PerWarp(u32),
    /// This many bytes per histogram bin.
    PerBin(u32),
    /// This many bytes per thread of the block, then a fixed count after
    /// them.
    PerThreadThen(u32, u32),
}

impl SharedBytes {
    /// The bytes for a block of `threads` (and `bins` histogram bins, which
    /// only [`SharedBytes::PerBin`] reads).
    pub const fn bytes(self, threads: u32, bins: u32) -> u32 {
        match self {
            SharedBytes::Fixed(bytes) => bytes,
            SharedBytes::PerThread(bytes) => threads * bytes,
            SharedBytes::PerWarp(bytes) => threads / WARP_SIZE * bytes,
            SharedBytes::PerBin(bytes) => bins * bytes,
            SharedBytes::PerThreadThen(per_thread, fixed) => threads * per_thread + fixed,
        }
    }
}

/// How many blocks a launch over `n` elements gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Elements each thread covers: the grid is `ceil(n / (elements_per_thread
    /// * block))` blocks, enough for every element.
    pub elements_per_thread: u32,
    /// Whether the grid is also capped at the blocks that fit on the device at
    /// once (the driver's occupancy figure): a grid-stride kernel loops over
    /// the rest instead of launching blocks that would wait for a free SM.
    pub fills_device: bool,
    /// The small route: elements per thread of its one block (0: none). An
    /// input that one block of [`Grid::small_threads`] covers at this many
    /// elements a thread goes to that one block, whatever block was asked
    /// for, so that the kernel's one block holds every partial result and
    /// needs no ticket, no cross-block fence and no second trip through L2.
    /// Kernels whose result does not depend on the block (the reproducible
    /// sums) are the only ones that may set it.
    pub small_per_thread: u32,
}

impl Grid {
    /// One thread per element, as many blocks as that takes.
    pub const ONE_PER_ELEMENT: Grid = Grid { elements_per_thread: 1, fills_device: false, small_per_thread: 0 };

    /// The most threads the small route's one block has: the largest block
    /// CUDA allows.
    pub const SMALL_THREADS: u32 = 1024;

    /// The small route's block is a whole number of these: eight warps.
    pub const SMALL_GRANULE: u32 = 8 * crate::WARP_SIZE;

    /// The largest block the small route launches for a function the device
    /// launches with at most `max_threads` threads a block (the driver's
    /// `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`, which the registers its
    /// build uses decide): [`Grid::SMALL_THREADS`], or as many whole
    /// [`Grid::SMALL_GRANULE`]s as fit under `max_threads`. 0, no small
    /// route, for a grid without one or a function that cannot take one
    /// granule.
    pub const fn small_threads(self, max_threads: u32) -> u32 {
        if self.small_per_thread == 0 {
            return 0;
        }
        let most = if max_threads < Self::SMALL_THREADS { max_threads } else { Self::SMALL_THREADS };
        most - most % Self::SMALL_GRANULE
    }

    /// The largest input the small route takes, for a function launched with
    /// at most `max_threads` threads a block: what its largest block covers
    /// at [`Grid::small_per_thread`] elements a thread (0: no small route).
    pub const fn small_max_n(self, max_threads: u32) -> usize {
        self.small_per_thread as usize * self.small_threads(max_threads) as usize
    }

    /// The small route's block for `n` elements: the fewest whole
    /// [`Grid::SMALL_GRANULE`]s that give no thread more than
    /// [`Grid::small_per_thread`] elements. Fewer threads, each with more
    /// elements, finish sooner while every thread's loads still go out at
    /// once (`results/explore/small-route.md` compares this block with
    /// a fixed 1,024). Only meaningful for `n` up to [`Grid::small_max_n`].
    pub const fn small_block(self, n: usize) -> u32 {
        let granule = Self::SMALL_GRANULE as usize;
        let threads = n.div_ceil(self.small_per_thread as usize).div_ceil(granule) * granule;
        (if threads == 0 { granule } else { threads }) as u32
    }

    /// The launch shape for `n` elements asked at blocks of `threads`:
    /// `(blocks, threads)`. `small_route` is `None` with the route off, and
    /// otherwise the most threads a block the device launches the function
    /// with. On the small route (`n` at most [`Grid::small_max_n`] and the
    /// asked block would need more than one) one block of
    /// [`Grid::small_block`]; else [`Grid::blocks`] of `threads`.
    pub const fn shape(self, n: usize, threads: u32, resident: u32, small_route: Option<u32>) -> (usize, u32) {
        let blocks = self.blocks(n, threads, resident);
        if let Some(max_threads) = small_route {
            let most = self.small_threads(max_threads);
            if most > 0 && n <= self.small_max_n(max_threads) && blocks > 1 {
                return (1, self.small_block(n));
            }
        }
        (blocks, threads)
    }

    /// Blocks of `threads` for `n` elements, given that `resident` blocks fit
    /// on the device at once (read only when [`Grid::fills_device`]). Never 0.
    pub const fn blocks(self, n: usize, threads: u32, resident: u32) -> usize {
        let per_block = self.elements_per_thread as usize * threads as usize;
        let needed = n.div_ceil(per_block);
        let blocks = if self.fills_device && (resident as usize) < needed { resident as usize } else { needed };
        if blocks == 0 { 1 } else { blocks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_bytes_by_rule() {
        assert_eq!(SharedBytes::Fixed(4).bytes(1024, 9), 4);
        assert_eq!(SharedBytes::PerThread(4).bytes(256, 9), 1024);
        assert_eq!(SharedBytes::PerWarp(4).bytes(1024, 9), 128);
        assert_eq!(SharedBytes::PerBin(4).bytes(64, 256), 1024);
        assert_eq!(SharedBytes::PerThreadThen(80, 136).bytes(64, 9), 5256);
    }

    #[test]
    fn a_grid_covers_the_work_and_a_device_filling_grid_stops_at_the_resident_blocks() {
        assert_eq!(Grid::ONE_PER_ELEMENT.blocks(1000, 256, 0), 4);
        assert_eq!(Grid::ONE_PER_ELEMENT.blocks(1 << 28, 256, 528), 1 << 20);
        let quads = Grid { elements_per_thread: 4, fills_device: true, small_per_thread: 0 };
        assert_eq!(quads.blocks(1 << 28, 256, 528), 528);
        assert_eq!(quads.blocks(4096, 256, 528), 4);
        assert_eq!(quads.blocks(1, 256, 528), 1, "never an empty grid");
        assert_eq!(quads.shape(4096, 256, 528, Some(1024)), (4, 256), "no small route on this grid");
    }

    #[test]
    fn the_small_route_takes_one_block_that_the_function_can_launch() {
        let grid = Grid { elements_per_thread: 4, fills_device: true, small_per_thread: 16 };
        // A build that takes the full block: one block up to 16 * 1024, of
        // the fewest 256-thread granules that give each thread 16 or fewer.
        assert_eq!(grid.small_max_n(1024), 16384);
        assert_eq!(grid.shape(16384, 256, 528, Some(1024)), (1, Grid::SMALL_THREADS));
        assert_eq!(grid.shape(4096, 256, 528, Some(1024)), (1, 256));
        assert_eq!(grid.shape(4097, 256, 528, Some(1024)), (1, 512));
        assert_eq!(grid.shape(8192, 64, 528, Some(1024)), (1, 512), "whatever block was asked");
        assert_eq!(grid.shape(12288, 256, 528, Some(1024)), (1, 768));
        assert_eq!(grid.shape(16384, 256, 528, None), (16, 256), "route off: the asked grid");
        assert_eq!(grid.shape(16385, 256, 528, Some(1024)), (17, 256));
        assert_eq!(grid.shape(1024, 256, 528, Some(1024)), (1, 256), "already one block: the asked block");
        assert_eq!(grid.small_block(1), 256);
        // A build whose registers leave room for 896 threads a block (72
        // registers a thread): whole granules under it, and the reach
        // follows the block, so the route never asks what cannot launch.
        assert_eq!(grid.small_threads(896), 768);
        assert_eq!(grid.small_max_n(896), 16 * 768);
        assert_eq!(grid.shape(16 * 768, 256, 528, Some(896)), (1, 768));
        assert_eq!(grid.shape(16 * 768 + 1, 256, 528, Some(896)), (13, 256));
        assert_eq!(grid.shape(16384, 256, 528, Some(896)), (16, 256));
        // A limit past CUDA's block is still at most one block of 1024.
        assert_eq!(grid.small_threads(u32::MAX), Grid::SMALL_THREADS);
        // A function that cannot take one granule has no small route.
        assert_eq!(grid.small_threads(255), 0);
        assert_eq!(grid.small_max_n(255), 0);
        assert_eq!(grid.shape(4096, 256, 528, Some(255)), (4, 256));
        assert_eq!(grid.shape(1, 256, 528, Some(255)), (1, 256));
    }

    #[test]
    fn parameter_types_as_rust_and_ptx_write_them() {
        let input = Param::new("input", Type::ConstPtr("f32"), ParamRole::Sum(crate::args::sum::Arg::Input));
        let mut text = [0u8; 32];
        let mut w = Buffer(&mut text, 0);
        core::fmt::write(&mut w, format_args!("{input}")).unwrap();
        let len = w.1;
        assert_eq!(&text[..len], b"input: *const f32");
        assert_eq!(input.ty.ptx(), ".u64 .ptr");
        assert_eq!((Type::Usize.ptx(), Type::U32.ptx(), Type::F32.ptx()), (".u64", ".u32", ".f32"));
    }

    /// A `core::fmt::Write` into a fixed buffer: the crate has no `String`.
    struct Buffer<'a>(&'a mut [u8], usize);

    impl core::fmt::Write for Buffer<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.1 + s.len();
            self.0.get_mut(self.1..end).ok_or(core::fmt::Error)?.copy_from_slice(s.as_bytes());
            self.1 = end;
            Ok(())
        }
    }
}
