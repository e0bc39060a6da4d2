//! The sum kernels: every one bit for bit against the Kahan reference, the
//! deterministic sum against the CPU model of its documented order, the
//! correctly rounded sum against the exact sum, and the timing plans that
//! measure them.

use host::gpu::sum::{SumKernel, SumKernels, SumMeasurement};
use host::gpu::timing::Plan;
use host::gpu::{Gpu, PtxSource};
use host::input;
use host::launch::Block;
use host::{exact, reference};

use super::BLOCKS;

/// Sizes that are and are not multiples of every block: one element, less
/// than a warp, one past a power of two, a prime-ish million, the largest
/// size the exact-sum rule allows.
const SIZES: [usize; 7] = [1, 31, 32, 4097, 65_536, 1_000_003, reference::MAX_EXACT_N];

/// Every kernel, at every size, twice: each sum equals the Kahan reference
/// bit for bit.
pub(super) fn sums_are_bit_exact(gpu: &Gpu, threads: u32) -> Result<(), String> {
    let block = Block::new(threads).map_err(|e| e.to_string())?;
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for n in SIZES {
        let values = input::exact(n);
        let expected = reference::kahan_sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        for kernel in SumKernel::all() {
            let m = kernels
                .measure(kernel, &device_input, block, Plan { warmup: 2, runs: 0, cold: false })
                .map_err(|e| e.to_string())?;
            for found in m.sums {
                if !reference::bit_exact(found, expected) {
                    wrong.push(format!("  {} n = {n}: expected {expected}, found {found}", kernel.label));
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// A cold plan queues the L2 flush (`evict_l2`) before each timed launch:
/// every kernel still sums exactly, at a size inside L2 and one past it, and
/// every timed launch gives a positive, finite time. (Whether the flush
/// empties L2 is measured with ncu, not here: see the README's section 5.)
pub(super) fn cold_measurements_flush_and_stay_exact(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for n in [4096, 3 * gpu.info.l2_bytes / 4 + 5] {
        let values = input::sparse_exact(n);
        let expected = reference::kahan_sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        for kernel in SumKernel::all().filter(|k| k.label != layout::sum::GLOBAL_ATOMIC.label) {
            let plan = Plan { warmup: 1, runs: 3, cold: true };
            let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
            wrong.extend(timed_problems(&m, plan, expected, &format!("{} n = {n}", kernel.label)));
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// What is wrong with a timed measurement `m` made with `plan`: a time per
/// timed launch, each positive and finite, and every sum equal to `expected`
/// bit for bit. Each problem is one line that starts with `what`.
fn timed_problems(m: &SumMeasurement, plan: Plan, expected: f64, what: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    if m.times_ms.len() != plan.runs || !m.times_ms.iter().all(|t| t.is_finite() && *t > 0.0) {
        wrong.push(format!("  {what}: times {:?}", m.times_ms));
    }
    for &found in &m.sums {
        if !reference::bit_exact(found, expected) {
            wrong.push(format!("  {what}: expected {expected}, found {found}"));
        }
    }
    wrong
}

/// The embedded PTX without `evict_l2` and `hold`, as a file: the kernels
/// under test come from it, and a warm and a cold measurement still run,
/// with the timing kernels taken from the embedded PTX (as `nvcc-compare`
/// needs for nvcc's PTX of the page's kernels).
pub(super) fn ptx_without_the_timing_kernels_is_timed() -> Result<(), String> {
    let mut ptx = host::gpu::EMBEDDED_PTX.to_owned();
    for symbol in [layout::baseline::EVICT_L2.symbol, layout::baseline::HOLD.symbol] {
        // Each function runs from its `// .globl` line to the `}` after its
        // `// -- End function` line (rustc's PTX layout).
        let start = ptx.find(&format!("// .globl\t{symbol} ")).ok_or(format!("no `{symbol}` in the embedded PTX"))?;
        let end_mark = ptx[start..].find("// -- End function").ok_or("no end of function")? + start;
        let end = ptx[end_mark..].find("}\n").ok_or("no closing brace")? + end_mark + 2;
        ptx.replace_range(start..end, "");
    }
    let path = std::env::temp_dir().join(format!("without-timing-{}.ptx", std::process::id()));
    std::fs::write(&path, &ptx).map_err(|e| e.to_string())?;
    let gpu = Gpu::open(&PtxSource::File(path.clone())).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    if gpu.function(layout::baseline::HOLD.symbol).is_ok() {
        return Err("the cut PTX still defines `hold`".to_owned());
    }
    let kernels = SumKernels::load(&gpu).map_err(|e| e.to_string())?;
    let values = input::sparse_exact(100_003);
    let expected = reference::kahan_sum(&values);
    let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for cold in [false, true] {
        let plan = Plan { warmup: 1, runs: 2, cold };
        let kernel = SumKernel::of(&layout::sum::DETERMINISTIC);
        let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
        wrong.extend(timed_problems(&m, plan, expected, &format!("cold = {cold}")));
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The kernels beyond the page at sizes around every boundary they have
/// (warp, block, float4, chunk) and at starts misaligned by 1 to 3 floats,
/// which sends the 128-bit paths to their scalar fallbacks.
pub(super) fn roofline_sums_are_bit_exact(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for threads in [32, 256, 1024] {
        let block = Block::new(threads).map_err(|e| e.to_string())?;
        for n in [1, 2, 3, 5, 31, 4095, 4097, 4099, 65_537, 1_000_003, reference::MAX_EXACT_N] {
            let values = input::exact(n);
            let expected = reference::kahan_sum(&values);
            for offset in [0, 1, 2, 3] {
                let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
                for kernel in SumKernel::all().filter(|k| !k.on_page) {
                    let plan = Plan { warmup: 2, runs: 0, cold: false };
                    let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
                    for found in m.sums {
                        if !reference::bit_exact(found, expected) {
                            wrong.push(format!(
                                "  {} n = {n} block {threads} offset {offset}: expected {expected}, found {found}",
                                kernel.label
                            ));
                        }
                    }
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// On inexact input, where any change of order shows in the last bits, the
/// deterministic kernel returns one bit pattern over repeated launches, every
/// block size, grids sized for 1 to 264 SMs, and misaligned starts.
pub(super) fn deterministic_sum_has_one_value(gpu: &Gpu) -> Result<(), String> {
    use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
    // Half the handoff route's chunks and a last chunk of 3 floats (513
    // chunks): a grid of many blocks takes the handoff route, a grid of one
    // block (where one SM holds only one) the one-block route, and the short last
    // chunk goes to the block mode in both.
    let n = HANDOFF_CHUNKS / 2 * CHUNK + 3;
    let values = input::inexact(n);
    let mut seen = std::collections::BTreeMap::new();
    for sm_count in [1, 7, gpu.info.sm_count, 2 * gpu.info.sm_count] {
        let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count);
        for offset in [0, 1] {
            let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
            for threads in BLOCKS {
                let block = Block::new(threads).map_err(|e| e.to_string())?;
                let plan = Plan { warmup: 3, runs: 0, cold: false };
                let m = kernels
                    .measure(SumKernel::of(&layout::sum::DETERMINISTIC), &device_input, block, plan)
                    .map_err(|e| e.to_string())?;
                for s in m.sums {
                    seen.entry(s.to_bits()).or_insert_with(Vec::new).push((sm_count, offset, threads));
                }
            }
        }
    }
    if seen.len() == 1 { Ok(()) } else { Err(format!("  {} distinct sums: {seen:?}", seen.len())) }
}

/// The deterministic kernel's documented order, on the CPU: chunks of
/// `CHUNK` floats, each summed by 32 lanes (lane `l` adds its quads
/// `l + 32k` in batches of eight `k`, each batch in order from `+0.0`, each
/// quad as `(x + y) + (z + w)`; the eight batch sums joined as `((p0 + p1) +
/// (p2 + p3)) + ((p4 + p5) + (p6 + p7))`), then a butterfly over the lanes;
/// the chunk sums combined the same way in segments of `SEGMENT` (one batch
/// each), and the segment sums once more. Always both phases: the kernel's
/// one-chunk shortcut, its three routes to the combining block, and its
/// warp-per-chunk and block-per-chunk modes, must all give these bits.
fn deterministic_order(values: &[f32]) -> f32 {
    use layout::sum::deterministic::{CHUNK, SEGMENT};
    fn lanes_then_butterfly(list: &[f32], quads: usize) -> f32 {
        let mut lanes = [0f32; 32];
        for (l, lane) in lanes.iter_mut().enumerate() {
            let mut p = [0f32; 8];
            for (b, batch) in p.iter_mut().enumerate().take(quads / 256) {
                for j in 0..8 {
                    let k = l + 32 * (8 * b + j);
                    let q = |i: usize| list.get(4 * k + i).copied().unwrap_or(0.0);
                    *batch += (q(0) + q(1)) + (q(2) + q(3));
                }
            }
            *lane = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
        }
        for mask in [16, 8, 4, 2, 1] {
            let before = lanes;
            for (l, value) in lanes.iter_mut().enumerate() {
                *value = before[l] + before[l ^ mask];
            }
        }
        lanes[0]
    }
    let partials: Vec<f32> = values.chunks(CHUNK).map(|c| lanes_then_butterfly(c, CHUNK / 4)).collect();
    let segments: Vec<f32> = partials.chunks(SEGMENT).map(|s| lanes_then_butterfly(s, SEGMENT / 4)).collect();
    lanes_then_butterfly(&segments, layout::sum::deterministic::MAX_SEGMENTS / 4)
}

/// Every path of the deterministic kernel (one chunk; one block; many
/// blocks through the handoff slots or the finish ticket; a warp or a block
/// per chunk), at sizes on both sides of each switch (a chunk, a block's worth
/// of chunks for each block size, the handoff's limit), aligned and not, on
/// grids sized for one SM and for the device: the bits of the documented
/// order.
pub(super) fn deterministic_sum_follows_its_documented_order(gpu: &Gpu) -> Result<(), String> {
    let kernel = SumKernel::of(&layout::sum::DETERMINISTIC);
    let mut wrong = Vec::new();
    use layout::sum::deterministic::{CHUNK, FEW_CHUNKS, HANDOFF_CHUNKS};
    // Half a chunk (`CHUNK / 2`): the one-chunk route, whose four whole
    // batches the short chunk's reader hands to the 128-bit loads. Around
    // one chunk (`CHUNK - 1` to `CHUNK + 1`): up to `CHUNK` block 0 alone sums
    // the input and stops; past it the chunk sums take a route to the
    // combining block. `2 * CHUNK + 1`: three chunks, the last of one float.
    // `2 * CHUNK` to `FEW_CHUNKS * CHUNK + 1`: at block 256 on the device's
    // grid, a block per chunk, the small entry's launches of 2 to 32 chunks
    // (8 and 9 where its gather filled two quads), and one past them; each on
    // both entries.
    // Around 64 chunks (`64 * CHUNK`, 64 being the most warps an SM holds on
    // sm_90, 2,048 threads): on a one-SM grid, where the kernel starts to sum whole
    // rounds of chunks a warp each and the rest a block each. Around
    // `HANDOFF_CHUNKS` chunks (where the chunk sums stop travelling through
    // the handoff slots and take the finish ticket); and between.
    let handoff = HANDOFF_CHUNKS * CHUNK;
    let mut sizes = vec![
        1,
        2,
        31,
        CHUNK / 2,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK,
        2 * CHUNK + 1,
        5 * CHUNK + 7,
        8 * CHUNK - 1,
        8 * CHUNK,
        8 * CHUNK + 1,
        FEW_CHUNKS * CHUNK - 1,
        FEW_CHUNKS * CHUNK,
        FEW_CHUNKS * CHUNK + 1,
        64 * CHUNK - 1,
        64 * CHUNK + 1,
        1_000_003,
        handoff,
        handoff + 1,
    ];
    for threads in BLOCKS {
        // As many chunks as the block has warps: on a grid of one block, the
        // size from which its warps sum whole chunks a warp each.
        let one_block = (threads / layout::WARP_SIZE) as usize * CHUNK;
        sizes.extend([one_block - 1, one_block, one_block + 1]);
    }
    let few = layout::sum::DETERMINISTIC_FEW.entry.symbol;
    let mut took_few = 0;
    for n in sizes {
        let values = input::inexact(n);
        let expected = deterministic_order(&values);
        let chunks = n.div_ceil(CHUNK);
        // The small entry's launches, and around them, on both entries.
        let small_routes: &[bool] = if chunks <= FEW_CHUNKS + 1 { &[true, false] } else { &[true] };
        for (sm_count, &small_route) in
            [1, gpu.info.sm_count].into_iter().flat_map(|s| small_routes.iter().map(move |r| (s, r)))
        {
            let kernels =
                SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count).with_small_route(small_route);
            for offset in [0, 1] {
                let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
                for threads in BLOCKS {
                    let block = Block::new(threads).map_err(|e| e.to_string())?;
                    // Two launches on one scratch allocation: the second finds
                    // the ticket and the slots as the first left them.
                    let plan = Plan { warmup: 2, runs: 0, cold: false };
                    let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
                    let at =
                        format!("n = {n}, block {threads}, {sm_count} SMs, offset {offset}, small route {small_route}");
                    if m.sums.iter().any(|s| s.to_bits() != expected.to_bits()) {
                        wrong.push(format!("  {at}: {:?}, expected {expected}", m.sums));
                    }
                    // On the device's grid at block 256, 2 to 32 chunks are a
                    // block each, and take the small entry; with the small
                    // routes off, nothing does. (A one-SM grid of a few
                    // blocks may take it too, where its blocks are as many as
                    // the chunks.)
                    let should = small_route
                        && sm_count == gpu.info.sm_count
                        && threads == 256
                        && (2..=FEW_CHUNKS).contains(&chunks);
                    if should && m.entry.as_deref() != Some(few) || !small_route && m.entry.is_some() {
                        wrong.push(format!("  {at}: launched {:?}", m.entry));
                    }
                    took_few += usize::from(m.entry.is_some());
                }
            }
        }
    }
    println!("  {took_few} launch loops of {few}");
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// Every sum kernel's most threads a block on this device, printed (the
/// driver compiles the PTX itself, and its build may need more registers
/// than `ptxas`'s); each small route's block within it, and a launch of each
/// at its reach, asked at block 32 so the asked grid is many blocks, giving
/// the exact sum. A block of more threads than the function takes fails to
/// launch (`CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`), which a small route of a
/// fixed 1024 threads once did.
pub(super) fn sum_small_routes_launch_blocks_their_functions_take(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_small_route(true);
    let mut wrong = Vec::new();
    for kernel in SumKernel::all() {
        let most = kernels.max_threads(kernel).map_err(|e| e.to_string())?;
        let registers = kernels.registers(kernel).map_err(|e| e.to_string())?;
        println!("  {}: {registers} registers a thread, at most {most} threads a block", kernel.symbol());
        if let (Some(small), Some((registers, most))) = (kernel.small_entry, kernels.small_entry_limits(kernel)) {
            println!("  {}: {registers} registers a thread, at most {most} threads a block", small.entry.symbol);
        }
        if kernel.grid.small_per_thread == 0 {
            continue;
        }
        let Some(route) = kernels.small_route_of(kernel) else {
            wrong.push(format!("  {}: no small route at {most} threads a block", kernel.symbol()));
            continue;
        };
        if route.threads > most || route.threads != kernel.grid.small_threads(most) {
            wrong.push(format!("  {}: a block of {} threads for a function of {most}", kernel.symbol(), route.threads));
        }
        let values = input::sparse_exact(route.max_n);
        let expected = exact::sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        let block = Block::new(32).map_err(|e| e.to_string())?;
        let plan = Plan { warmup: 1, runs: 1, cold: false };
        let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
        if m.sums.iter().any(|s| s.to_bits() != expected.to_bits()) {
            wrong.push(format!("  {} at n = {}: {:?}, expected {expected}", kernel.symbol(), route.max_n, m.sums));
        }
        let small = kernel.small_entry.map(|s| s.entry.symbol);
        let cluster = kernels.cluster_route_of(kernel).filter(|r| r.threads(route.max_n).is_some());
        let expected_entry = cluster.map(|r| r.entry.symbol).or(small);
        if m.entry.as_deref() != expected_entry {
            wrong.push(format!(
                "  {} at n = {}: launched {:?}, not {expected_entry:?}",
                kernel.symbol(),
                route.max_n,
                m.entry
            ));
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// Every cluster route runs on a GPU that loads the Hopper module, and
/// there launches one cluster of its blocks at both ends of its reach, each
/// giving the exact sum. Elsewhere it is said, not skipped silently: its
/// kernel's other entries take those sizes.
pub(super) fn sum_cluster_routes_launch_where_the_hopper_module_loads(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_small_route(true);
    let mut wrong = Vec::new();
    for kernel in SumKernel::all() {
        let Some(route) = kernel.cluster_route else { continue };
        // Only a GPU before Hopper may go without the route: on a Hopper
        // GPU a module that does not load is a failure, not a skip.
        if gpu.info.compute_capability < layout::Module::Hopper.min_compute_capability() {
            println!("  {}: not on this GPU; the kernel's other entries take its sizes", route.entry.symbol);
            continue;
        }
        if kernels.cluster_route_of(kernel).is_none() {
            wrong.push(format!("  {}: the Hopper module loads, but the route does not run", route.entry.symbol));
            continue;
        }
        for n in [route.min_n, route.max_n] {
            let values = input::sparse_exact(n);
            let expected = exact::sum(&values);
            let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
            let plan = Plan { warmup: 1, runs: 1, cold: false };
            let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
            if m.sums.iter().any(|s| s.to_bits() != expected.to_bits()) {
                wrong.push(format!("  {} at n = {n}: {:?}, expected {expected}", route.entry.symbol, m.sums));
            }
            if m.entry.as_deref() != Some(route.entry.symbol) {
                wrong.push(format!("  {} at n = {n}: launched {:?}", kernel.symbol(), m.entry));
            }
        }
        println!(
            "  {}: n = {} to {} on one cluster of {} blocks of at most {} threads",
            route.entry.symbol,
            route.min_n,
            route.max_n,
            route.blocks,
            route.max_threads()
        );
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The largest input `kernel`'s small route takes on this device, whose one
/// block there is the most threads the driver's build of the function
/// launches with (up to 1024, in whole granules of eight warps; a smaller
/// input takes fewer granules); printed, so a run says the largest block its
/// small-route launches had.
fn small_route_reach(gpu: &Gpu, kernel: SumKernel) -> Result<usize, String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let most = kernels.max_threads(kernel).map_err(|e| e.to_string())?;
    let route = kernels.small_route_of(kernel).ok_or_else(|| {
        format!("  {}: no small route: its build launches with at most {most} threads a block", kernel.symbol())
    })?;
    println!(
        "  {}: the small route takes n <= {} on one block of at most {} threads (the function launches with at most {most})",
        kernel.symbol(),
        route.max_n,
        route.threads
    );
    Ok(route.max_n)
}

/// The correctly rounded kernel against the CPU's exact sum, bit for bit, on
/// every generated spread and on random finite bit patterns (every exponent,
/// both signs, subnormals: the kind of array a user might bring), at sizes
/// around every boundary of the kernel (a quad, a trip of 8, a block's
/// worth), with starts misaligned for the vector loads and grids sized for 1
/// SM up to twice the device.
pub(super) fn correctly_rounded_sum_is_the_exact_sum(gpu: &Gpu, threads: u32) -> Result<(), String> {
    let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
    let block = Block::new(threads).map_err(|e| e.to_string())?;
    let mut arrays: Vec<(String, Vec<f32>)> = Vec::new();
    // The small route's reach on this device and around it.
    let small = small_route_reach(gpu, kernel)?;
    // 4,097 and 8,193 are the first sizes of the route's blocks of 512 and
    // 768; 16,384 to 131,072 the cluster route's reach, on a Hopper GPU.
    let sizes = [1, 3, 4, 5, 15, 16, 17, 4095, 4097, 8193, small - 1, small, small + 1, 65_537, 131_072, 131_073];
    for n in sizes.into_iter().chain([1_000_003, (1 << 22) + 3]) {
        for spread in input::Spread::ALL {
            arrays.push((format!("{} n = {n}", spread.name()), input::spread(spread, n, 11)));
        }
    }
    for (seed, n) in [2, 1000, 65_536, 1 << 20].into_iter().enumerate() {
        arrays.push((format!("random bits n = {n}"), input::random_finite(n, 5 + seed as u64)));
    }
    // Every thread's quads share one magnitude, so no running sum flushes,
    // but neighbouring lanes (then neighbouring warps) differ by 2^80: the
    // warp's (then the block's) f64 butterfly cannot be exact and the limbs
    // must take over. On a grid of an even number of warps a thread's later
    // quads keep the parity of its first; on any grid the sum must be exact.
    // At 2^16 on many blocks, and at the small route's limit on its one
    // block, which must then leave its own rounding for the limbs.
    for (what, period) in [("lanes", 4), ("warps", 4 * 32)] {
        for len in [1 << 16, small] {
            let values = (0..len).map(|i| if (i / period) % 2 == 0 { 2f32.powi(40) } else { 3.0 * 2f32.powi(-40) });
            arrays.push((format!("{what} 2^80 apart, n = {len}"), values.collect()));
        }
    }
    // Sums past the largest float, exact in `f64`: the one-block route's
    // rounding of its `f64` sum must overflow where the limbs' does, a tie
    // at the top (the largest float plus half its last place) included.
    let half_ulp_of_max = 2f32.powi(103);
    for (what, values) in [
        ("two largest floats", vec![f32::MAX, f32::MAX]),
        ("largest float and half its last place", vec![f32::MAX, half_ulp_of_max]),
        ("largest float and just under half its last place", vec![f32::MAX, half_ulp_of_max, -1.0]),
        ("largest float and half its last place, negated", vec![-f32::MAX, -half_ulp_of_max]),
        ("negative zeros", vec![-0.0; 4099]),
        ("smallest subnormals", vec![f32::from_bits(1); 5003]),
    ] {
        arrays.push((what.to_owned(), values));
    }
    let mut wrong = Vec::new();
    for (name, values) in &arrays {
        let expected = exact::sum(values);
        // The small route on for every grid, and off on the device's (the
        // grids before it), where it could change the launch.
        let mut grids = vec![(gpu.info.sm_count, 0, true), (1, 1, true), (2 * gpu.info.sm_count, 3, true)];
        if values.len() <= 2 * small {
            grids.push((gpu.info.sm_count, 0, false));
        }
        for (sm_count, offset, small_route) in grids {
            let kernels =
                SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count).with_small_route(small_route);
            let device_input = kernels.upload_at(values, offset).map_err(|e| e.to_string())?;
            let plan = Plan { warmup: 2, runs: 0, cold: false };
            let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
            // The cluster route's sizes launch its entry; else the small
            // route's one block launches the small entry; nothing else does
            // with the routes off.
            let cluster = kernels.cluster_route_of(kernel).filter(|r| small_route && r.threads(values.len()).is_some());
            let one_block = small_route && !values.is_empty() && values.len() <= small;
            let launched_wrong = match cluster {
                Some(route) => m.entry.as_deref() != Some(route.entry.symbol),
                None => one_block != m.entry.is_some() && (one_block || !small_route),
            };
            if launched_wrong {
                wrong.push(format!("  {name}, {sm_count} SMs, small route {small_route}: launched {:?}", m.entry));
            }
            for found in m.sums {
                if found.to_bits() != expected.to_bits() {
                    wrong.push(format!(
                        "  {name}, {sm_count} SMs, offset {offset}, small route {small_route}: \
                         expected {expected:e} ({:#010x}), found {found:e} ({:#010x})",
                        expected.to_bits(),
                        found.to_bits()
                    ));
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// NaN and infinities decide the correctly rounded sum as IEEE addition
/// would, and as the CPU reference does.
pub(super) fn correctly_rounded_sum_of_nan_and_infinities(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
    let mut wrong = Vec::new();
    // Returns the entry the launches took (`SumMeasurement::entry`).
    let mut with = |what: &str, at: usize, value: f32, n: usize| -> Result<Option<String>, String> {
        let mut values = input::spread(input::Spread::Normal, n, 1);
        values[at] = value;
        let expected = exact::sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        let plan = Plan { warmup: 2, runs: 0, cold: false };
        let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
        for found in m.sums {
            if !(found.to_bits() == expected.to_bits() || (found.is_nan() && expected.is_nan())) {
                wrong.push(format!("  {what}: expected {expected}, found {found}"));
            }
        }
        Ok(m.entry)
    };
    with("one NaN", 7, f32::NAN, 100_003)?;
    with("one +inf", 99_999, f32::INFINITY, 100_003)?;
    with("one -inf in the tail", 100_002, f32::NEG_INFINITY, 100_003)?;
    with("the largest float beside small ones", 0, f32::MAX, 3)?;
    // On the small route's one block, whose own rounding must step aside.
    let small = small_route_reach(gpu, kernel)?;
    with("one NaN, one block", 7, f32::NAN, small - 1)?;
    // (`small - 1`: 16,384 itself is the cluster route's on a Hopper GPU.)
    with("one -inf, one block", small - 2, f32::NEG_INFINITY, small - 1)?;
    // On the cluster route's one cluster, whose rank 0 must sum alone: on a
    // Hopper GPU the launch must have been the route's.
    let cluster = kernels.cluster_route_of(kernel).map(|r| r.entry.symbol);
    let launched = with("one +inf, one cluster", 40_000, f32::INFINITY, 65_536)?;
    if cluster.is_some() && kernels.small_route() && launched.as_deref() != cluster {
        wrong.push(format!("  one +inf, one cluster: launched {launched:?}, not {cluster:?}"));
    }
    let mut values = vec![f32::MAX; 1000];
    values.push(f32::NEG_INFINITY);
    values.push(f32::INFINITY);
    let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
    let found = kernels.measure(kernel, &device_input, Block::DEFAULT, Plan { warmup: 1, runs: 0, cold: false });
    let found = found.map_err(|e| e.to_string())?.sums[0];
    if !found.is_nan() {
        wrong.push(format!("  +inf and -inf: expected NaN, found {found}"));
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}
