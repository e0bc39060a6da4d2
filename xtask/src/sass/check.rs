//! The SASS test's judgement of one litmus kernel: its machine code held to
//! its program, access by access. `tests/ptx.rs` runs it on `ptxas`'s SASS
//! of the embedded PTX, and `tests/gpu.rs` on the cubin the driver's JIT
//! linker made of it on the GPU the lab ran on.
//!
//! Addresses are read in the parameter bank of sm_90 and later, where a
//! kernel's parameters start at `c[0x0][0x210]`.

use super::accesses::{Operand, litmus_sass};
use super::dataflow::Roots;

/// Where the kernel parameters start in the constant bank on sm_90.
pub const PARAMETER_BASE: u32 = 0x210;

/// The byte in the constant bank where `entry`'s parameter `name` lies on
/// sm_90: the parameters start at 0x210, each aligned to its size.
fn parameter_word(entry: &layout::Entry, name: &str) -> Option<u32> {
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

/// Which location an address points at, as far as its computation tells:
/// `x` (instance times stride) is computed without the environment's
/// `location_offset` and `location_multiplier`, `y` and `z` with both (the
/// SASS test does not tell `y` from `z`). `None` for an address that does
/// not point into the location buffer, or not in either of those ways.
fn location_class(kernel: &layout::litmus::Kernel, address: &Roots) -> Option<&'static str> {
    use std::mem::offset_of;
    let entry = &kernel.entry;
    let (params, locations) = (parameter_word(entry, "params")?, parameter_word(entry, "locations")?);
    let field = |offset: usize| address.loaded.contains(&(params, offset as u64));
    if !address.constants.contains(&locations) {
        return None;
    }
    let offset = field(offset_of!(layout::litmus::Params, location_offset));
    let multiplier = field(offset_of!(layout::litmus::Params, location_multiplier));
    match (offset, multiplier) {
        (false, false) => Some("x"),
        (true, true) => Some("y or z"),
        _ => None,
    }
}

/// Whether an address of class `found` may be one of class `want`. Where
/// paths join, the data flow adds every definition that reaches, so an
/// address of `x` can pick up the fields of `y`'s computation from a
/// register `ptxas` used for both on another path, but never lose them:
/// an access the program makes to `y` or `z` must be computed from both
/// fields, and one it makes to `x` may look like any.
fn class_fits(found: Option<&str>, want: &str) -> bool {
    want == "x" || found == Some(want)
}

/// The class [`location_class`] expects of a program location.
fn expected_class(location: layout::litmus::Location) -> &'static str {
    match location {
        layout::litmus::Location::X => "x",
        _ => "y or z",
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
    let program_stores: Vec<(layout::litmus::Location, u32)> =
        ops.iter().filter_map(|op| if let Op::Store(l, v) = *op { Some((l, v)) } else { None }).collect();
    if sass.stores.len() != program_stores.len() {
        broken.push(format!("{name}: {} test stores, the program has {}", sass.stores.len(), program_stores.len()));
    }
    for (n, (store, &(location, value))) in sass.stores.iter().zip(&program_stores).enumerate() {
        let found = location_class(kernel, &store.address);
        let want = expected_class(location);
        if !class_fits(found, want) {
            broken.push(format!(
                "{name}: store {n} ({} at /*{:04x}*/) writes {}, but program store {n} writes {location:?} ({want})",
                store.opcode,
                store.at,
                found.map_or_else(|| "no location of the location buffer".to_owned(), |c| format!("location {c}")),
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
                let (found, want) = (location_class(kernel, &load.address), expected_class(location));
                if !class_fits(found, want) {
                    broken.push(format!(
                        "{name}: the load of r{r} ({} at /*{:04x}*/) reads {found:?}, but r{r} loads {location:?} ({want})",
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
