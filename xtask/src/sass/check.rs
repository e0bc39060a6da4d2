//! The SASS test's judgement of one litmus kernel: its machine code held to
//! its program, access by access. `tests/ptx.rs` runs it on `ptxas`'s SASS
//! of the embedded PTX, and `tests/gpu/loading.rs` on the cubin the driver compiled
//! of it on the GPU the lab ran on (read from the driver's JIT cache).
//!
//! Addresses are read in the parameter bank of sm_90 and later, where a
//! kernel's parameters start at `c[0x0][0x210]`.

use super::accesses::{Operand, litmus_sass};
use super::dataflow::Roots;
use layout::litmus::Location;

/// Where the kernel parameters start in the constant bank on sm_90.
pub const PARAMETER_BASE: u32 = 0x210;

/// The byte in the constant bank where `entry`'s parameter `name` lies on
/// sm_90: the parameters start at 0x210, each aligned to its size.
pub fn parameter_word(entry: &layout::Entry, name: &str) -> Option<u32> {
    let mut at: u32 = PARAMETER_BASE;
    for param in entry.params {
        let size = if param.ty.ptx().contains("64") { 8 } else { 4 };
        at = at.next_multiple_of(size);
        if param.name == name {
            return Some(at);
        }
        at += size;
    }
    None
}

/// Why `access` cannot be the program's access to `location`, if its
/// address shows that it cannot.
///
/// `x` is the instance times the stride; `y` and `z` are computed from the
/// environment's `location_offset` and `location_multiplier` too (the SASS
/// check does not tell `y` from `z`). The data flow gives two answers
/// (`Operand`): what the address is computed from on some path, which
/// where `ptxas` reuses a register on two paths holds both computations,
/// and on every path, which where the paths compute one location in two
/// ways keeps only what they share. So the check is sound both ways: an
/// access to `y` or `z` must point into the location buffer and use both
/// fields on some path, and an access to `x` must not use either on every
/// path.
fn location_problem(kernel: &layout::litmus::Kernel, access: &Operand, location: Location) -> Option<String> {
    use std::mem::offset_of;
    let entry = &kernel.entry;
    let (Some(params), Some(locations)) = (parameter_word(entry, "params"), parameter_word(entry, "locations")) else {
        return Some("an address the check cannot read: no `params` or `locations` parameter".to_owned());
    };
    let fields = [
        ("location_offset", offset_of!(layout::litmus::Params, location_offset)),
        ("location_multiplier", offset_of!(layout::litmus::Params, location_multiplier)),
    ];
    let uses = |roots: &Roots, offset: usize| roots.loaded.contains(&(params, offset as u64));
    if !access.address.constants.contains(&locations) {
        return Some("an address not computed from the `locations` parameter".to_owned());
    }
    match location {
        Location::X => {
            let used: Vec<&str> =
                fields.iter().filter(|(_, o)| uses(&access.address_on_every_path, *o)).map(|(f, _)| *f).collect();
            (!used.is_empty())
                .then(|| format!("an address computed from {} on every path, so not x", used.join(" and ")))
        }
        Location::Y | Location::Z => {
            let unused: Vec<&str> =
                fields.iter().filter(|(_, o)| !uses(&access.address, *o)).map(|(f, _)| *f).collect();
            (!unused.is_empty())
                .then(|| format!("an address computed without {} on any path, so not y or z", unused.join(" or ")))
        }
    }
}

/// Everything wrong with one litmus kernel's sm_90 SASS (`body`, its
/// `Function :` section), and its number of stress loads.
///
/// After the synchronised start, the test's accesses and barriers are
/// exactly `Kernel::sass_program`, opcode for opcode; each store writes the
/// location and the value of its program store, in program order; each
/// load is followed to the record of its register, reads the location of
/// the program load of that register, and the loads are issued in program
/// order unless the registry says `ptxas` reorders them. Before the start,
/// the preload is one ordinary caching load (`LDG.E`) of the location
/// buffer per role that has a location to preload, the stress loads are
/// ordinary loads of the stress buffer, and the folds that keep them live
/// are all there.
pub fn litmus_problems(kernel: &layout::litmus::Kernel, body: &str) -> (Vec<String>, usize) {
    use layout::litmus::Op;
    let name = kernel.entry.symbol;
    let mut broken = Vec::new();
    let Some(sass) = litmus_sass(body) else {
        broken.push(format!("{name}: no synchronised-start poll (LD.E.STRONG.GPU) in its SASS"));
        return (broken, 0);
    };
    let expected: Vec<&str> = kernel.sass_program().collect();
    if sass.accesses != expected {
        broken.push(format!("{name}: test accesses {:?}, expected {expected:?}", sass.accesses));
    }
    let ops: Vec<Op> = kernel.test.roles().iter().flat_map(|r| r.ops.iter().copied()).collect();
    let program_stores: Vec<(Location, u32)> =
        ops.iter().filter_map(|op| if let Op::Store(l, v) = *op { Some((l, v)) } else { None }).collect();
    if sass.stores.len() != program_stores.len() {
        broken.push(format!("{name}: {} test stores, the program has {}", sass.stores.len(), program_stores.len()));
    }
    for (n, (store, &(location, value))) in sass.stores.iter().zip(&program_stores).enumerate() {
        if let Some(why) = location_problem(kernel, store, location) {
            broken.push(format!(
                "{name}: store {n} ({} at /*{:04x}*/) writes {why}, but program store {n} writes {location:?}",
                store.opcode, store.at
            ));
        }
        if store.value != Some(value) {
            broken.push(format!(
                "{name}: store {n} ({} at /*{:04x}*/) stores {:?}, but program store {n} stores {value}",
                store.opcode, store.at, store.value
            ));
        }
    }
    let registers = kernel.test.registers() as u8;
    let mut recorded = sass.recorded.clone();
    recorded.sort_unstable();
    if recorded != (0..registers).collect::<Vec<_>>() {
        broken.push(format!("{name}: records registers {:?}, expected each of 0..{registers} once", sass.recorded));
    }
    let order: Option<Vec<u8>> = sass.load_registers.iter().copied().collect();
    match order {
        None => broken.push(format!("{name}: a test load whose value no record stores: {:?}", sass.load_registers)),
        Some(order) => {
            let in_order = order.is_sorted();
            if in_order == kernel.loads_reordered_by_ptxas() {
                broken.push(format!(
                    "{name}: loads issued as registers {order:?}; the registry says reordered = {}",
                    kernel.loads_reordered_by_ptxas()
                ));
            }
            for (load, r) in sass.loads.iter().zip(&order) {
                let program = ops.iter().find_map(|op| match *op {
                    Op::Load(l, reg) if reg == *r => Some(l),
                    _ => None,
                });
                let Some(location) = program else { continue };
                if let Some(why) = location_problem(kernel, load, location) {
                    broken.push(format!(
                        "{name}: the load of r{r} ({} at /*{:04x}*/) reads {why}, but r{r} loads {location:?}",
                        load.opcode, load.at
                    ));
                }
            }
        }
    }
    let folds = 2 + usize::from(kernel.test.roles().iter().any(|r| r.stale.is_some()));
    if sass.kept_live != folds {
        broken.push(format!("{name}: {} environment folds kept live, expected {folds}", sass.kept_live));
    }
    // The environment's own loads: the preload reads the location buffer,
    // the stress loop the stress buffer, each with a plain `ld.global.b32`
    // that must stay an ordinary caching load: the preload's whole point is
    // the line it leaves in L1.
    let (Some(locations), Some(stress)) =
        (parameter_word(&kernel.entry, "locations"), parameter_word(&kernel.entry, "stress"))
    else {
        broken.push(format!("{name}: no `locations` or `stress` parameter in its registry entry"));
        return (broken, 0);
    };
    let preloads: Vec<&Operand> =
        sass.environment_loads.iter().filter(|l| l.address.constants.contains(&locations)).collect();
    let stale_roles = kernel.test.roles().iter().filter(|r| r.stale.is_some()).count();
    if preloads.len() != stale_roles || preloads.iter().any(|l| l.opcode != "LDG.E") {
        let found: Vec<String> = preloads.iter().map(|l| format!("{} at /*{:04x}*/", l.opcode, l.at)).collect();
        broken.push(format!("{name}: preload loads {found:?}, expected {stale_roles} ordinary caching LDG.E"));
    }
    let stress_loads: Vec<&Operand> = sass
        .environment_loads
        .iter()
        .filter(|l| l.address.constants.contains(&stress) && !l.address.constants.contains(&locations))
        .collect();
    // Two stress runs (a stressing block's, a testing thread's before its
    // test), each with the three patterns that load: at least four loads.
    if stress_loads.len() < 8 || stress_loads.iter().any(|l| l.opcode != "LDG.E") {
        let kinds: std::collections::BTreeSet<&str> = stress_loads.iter().map(|l| l.opcode.as_str()).collect();
        broken.push(format!("{name}: {} stress loads {kinds:?}, expected at least 8, each LDG.E", stress_loads.len()));
    }
    (broken, stress_loads.len())
}
