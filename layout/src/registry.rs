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
}

/// What every kernel has, whatever its family: the facts the PTX tests, the
/// SASS summary and the sanitizer check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The `.entry` name in the PTX: the kernel function's `#[no_mangle]` name.
    pub symbol: &'static str,
    /// Its family.
    pub family: Family,
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
}

impl Entry {
    /// An entry of `family`, with its PTX and SASS promises in that order.
    pub const fn new(
        family: Family,
        symbol: &'static str,
        ptx_has: &'static [&'static str],
        ptx_lacks: &'static [&'static str],
        sass_has: &'static [&'static str],
        sass_lacks: &'static [&'static str],
    ) -> Entry {
        Entry { symbol, family, ptx_has, ptx_lacks, sass_has, sass_lacks }
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
}

impl Grid {
    /// One thread per element, as many blocks as that takes.
    pub const ONE_PER_ELEMENT: Grid = Grid { elements_per_thread: 1, fills_device: false };

    /// Blocks of `threads` for `n` elements, given that `resident` blocks fit
    /// on the device at once (read only when [`Grid::fills_device`]). Never 0.
    pub const fn blocks(self, n: usize, threads: u32, resident: u32) -> usize {
        let per_block = self.elements_per_thread as usize * threads as usize;
        let needed = n.div_ceil(per_block);
        let blocks = if self.fills_device && (resident as usize) < needed { resident as usize } else { needed };
        if blocks == 0 { 1 } else { blocks }
    }
}

/// Every kernel of every family, in family order: what the PTX must contain.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    let sums = crate::sum::KERNELS.iter().map(|k| &k.entry);
    let publish = crate::publish::VARIANTS.iter().map(|v| &v.entry);
    let histograms = crate::histogram::KERNELS.iter().map(|k| &k.entry);
    let litmus = crate::litmus::KERNELS.iter().map(|k| &k.entry).chain(core::iter::once(&crate::litmus::CLASSIFY));
    sums.chain(publish).chain(histograms).chain(crate::baseline::KERNELS.iter()).chain(litmus)
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
    }

    #[test]
    fn a_grid_covers_the_work_and_a_device_filling_grid_stops_at_the_resident_blocks() {
        assert_eq!(Grid::ONE_PER_ELEMENT.blocks(1000, 256, 0), 4);
        assert_eq!(Grid::ONE_PER_ELEMENT.blocks(1 << 28, 256, 528), 1 << 20);
        let quads = Grid { elements_per_thread: 4, fills_device: true };
        assert_eq!(quads.blocks(1 << 28, 256, 528), 528);
        assert_eq!(quads.blocks(4096, 256, 528), 4);
        assert_eq!(quads.blocks(1, 256, 528), 1, "never an empty grid");
    }

    #[test]
    fn symbols_are_unique() {
        let symbols: [&str; 96] = core::array::from_fn(|i| entries().nth(i).map_or("", |e| e.symbol));
        let count = entries().count();
        assert!(count < symbols.len());
        for i in 0..count {
            for j in 0..i {
                assert_ne!(symbols[i], symbols[j]);
            }
        }
    }
}
