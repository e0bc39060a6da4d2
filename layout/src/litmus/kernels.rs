//! The litmus kernels' registry: their parameters, [`Kernel`] (a test in
//! one variant) with the program its PTX and SASS must hold, and
//! [`CLASSIFY`], and [`KERNELS`], made from the suite's one list through its
//! grid ([`litmus_grid!`](macro@crate::litmus_grid)), so that the suite names
//! no kernel and this file names the suite's tests.

use crate::entry::{Entry, Family, ParamRole};

use super::suite::Test;
use super::variant::Variant;

pub use crate::args::litmus::Arg;

/// [`KERNELS`] from the suite's grid: each test's symbols and variants.
macro_rules! kernels {
    ($($test:ident = $file:ident { $($symbol:ident => $variant:ident,)* })*) => {
        /// Every litmus kernel, test by test in [`Test::ALL`]'s order, each
        /// test's variants in [`Test::variants`]' order.
        pub const KERNELS: [Kernel; [$($(stringify!($symbol),)*)*].len()] =
            [$($(kernel(Test::$test, Variant::$variant, stringify!($symbol)),)*)*];
    };
}

litmus_grid!(kernels);

param!(PARAMS = params: *const super::Params => ParamRole::Litmus(Arg::Params));
param!(SHIFT = shift: u32 => ParamRole::Litmus(Arg::Shift));
param!(LOCATIONS = locations: *mut u32 => ParamRole::Litmus(Arg::Locations));
param!(RESULTS = results: *mut u32 => ParamRole::Litmus(Arg::Results));
param!(STRESS = stress: *mut u32 => ParamRole::Litmus(Arg::Stress));
param!(CONTROL = control: *mut u32 => ParamRole::Litmus(Arg::Control));
param!(HISTOGRAM = histogram: *mut u64 => ParamRole::Litmus(Arg::Histogram));

params!(
    /// Every test kernel's parameters.
    pub TEST_PARAMS = [PARAMS, SHIFT, LOCATIONS, RESULTS, STRESS, CONTROL]
);

params!(
    /// [`CLASSIFY`]'s parameters: the test kernel's buffers, and the histogram.
    pub CLASSIFY_PARAMS = [PARAMS, LOCATIONS, RESULTS, CONTROL, HISTOGRAM]
);

/// One litmus kernel: a test in one variant. Its parameters are
/// [`TEST_PARAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// What every kernel records.
    pub entry: Entry,
    /// The test.
    pub test: Test,
    /// The variant.
    pub variant: Variant,
}

/// The registry entry of `test` in `variant`: in the Hopper module for a
/// `.cluster` variant ([`Variant::needs_hopper`]), in the base module for
/// every other.
pub(super) const fn kernel(test: Test, variant: Variant, symbol: &'static str) -> Kernel {
    let entry = Entry::new(Family::Litmus, symbol, &TEST_PARAMS, &[], &[], variant.sass_has(), variant.sass_lacks());
    Kernel { entry: if variant.needs_hopper() { entry.hopper() } else { entry }, test, variant }
}

/// The kernel that turns each instance's registers into a histogram bin and
/// resets the instance for the next launch: [`CLASSIFY_PARAMS`], any grid,
/// [`BINS`](super::BINS) `u32`s of shared memory.
pub const CLASSIFY: Entry = Entry::new(
    Family::Litmus,
    "litmus_classify",
    &CLASSIFY_PARAMS,
    &["red.shared.add.u32", "red.global.add.u64", "bar.sync"],
    &[".global.u32", "fence", ".acquire", ".release"],
    &["ATOMS", "REDG.E.ADD.64"],
    &["MEMBAR"],
);

impl Kernel {
    /// The test accesses and fences of this kernel's PTX, in program order:
    /// each role's accesses, with the variant's fence between two accesses of
    /// one role. The PTX test finds exactly this sequence in the kernel body.
    pub fn program(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.test.roles().iter().flat_map(move |role| {
            role.ops.iter().enumerate().flat_map(move |(i, &op)| {
                let fence = if i > 0 { self.variant.fence_ptx() } else { None };
                fence.into_iter().chain(core::iter::once(self.variant.ptx(op, role.is_flag(i))))
            })
        })
    }
}

/// The instruction of a line of a litmus kernel's PTX body (such as
/// `st.release.gpu.global.u32`), if the line is one of the test's steps: a
/// fence, or a `.u32` load or store, the type only test accesses use. The
/// steps of a kernel's body, in order, are exactly [`Kernel::program`]; the
/// PTX tests hold them to it, and mutants are made by editing them.
pub fn test_step(line: &str) -> Option<&str> {
    let l = line.trim_start();
    let step = l.starts_with("fence.") || ((l.starts_with("ld.") || l.starts_with("st.")) && l.contains(".u32 "));
    if step { l.split([' ', '\t', ';']).next() } else { None }
}

/// What one test access or fence of [`Kernel::program`] becomes in sm_90
/// SASS, as `ptxas` 13 writes it: a relaxed access is a load or store with
/// its scope's `.STRONG` qualifier (`.GPU`, or `.SM` for `.cta`, whose point
/// of coherence is the SM's L1) and nothing else; a volatile access is the
/// same with `.STRONG.SYS`, exactly what `ptxas` makes of `.relaxed.sys`
/// (no barrier, no invalidation: volatile orders nothing); a release is a memory
/// barrier of its scope before the store; a device-scope acquire invalidates
/// L1 after the load (`CCTL.IVALL`), a block-scope one need not, L1 being
/// the block's point of coherence; a fence is the memory barrier of its kind
/// and scope, and at device scope the invalidation too.
pub fn sass_of(ptx: &str) -> &'static [&'static str] {
    match ptx {
        "st.global.u32" => &["STG.E"],
        "ld.global.u32" => &["LDG.E"],
        "st.relaxed.gpu.global.u32" => &["STG.E.STRONG.GPU"],
        "ld.relaxed.gpu.global.u32" => &["LDG.E.STRONG.GPU"],
        "st.relaxed.cta.global.u32" => &["STG.E.STRONG.SM"],
        "ld.relaxed.cta.global.u32" => &["LDG.E.STRONG.SM"],
        "st.release.gpu.global.u32" => &["MEMBAR.ALL.GPU", "STG.E.STRONG.GPU"],
        "ld.acquire.gpu.global.u32" => &["LDG.E.STRONG.GPU", "CCTL.IVALL"],
        "st.release.cta.global.u32" => &["MEMBAR.ALL.CTA", "STG.E.STRONG.SM"],
        "ld.acquire.cta.global.u32" => &["LDG.E.STRONG.SM"],
        "st.volatile.global.u32" => &["STG.E.STRONG.SYS"],
        "ld.volatile.global.u32" => &["LDG.E.STRONG.SYS"],
        "fence.acq_rel.gpu" => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        "fence.acq_rel.cta" => &["MEMBAR.ALL.CTA"],
        "fence.sc.gpu" => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
        "fence.sc.cta" => &["MEMBAR.SC.CTA"],
        // `ptxas` 13 gives `.cluster` on sm_90 the SASS of `.gpu`, barrier
        // for barrier: the cluster's blocks may sit on different SMs, whose
        // common point of coherence is L2, as it is for the whole device.
        "st.relaxed.cluster.global.u32" => &["STG.E.STRONG.GPU"],
        "ld.relaxed.cluster.global.u32" => &["LDG.E.STRONG.GPU"],
        "st.release.cluster.global.u32" => &["MEMBAR.ALL.GPU", "STG.E.STRONG.GPU"],
        "ld.acquire.cluster.global.u32" => &["LDG.E.STRONG.GPU", "CCTL.IVALL"],
        "fence.acq_rel.cluster" => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        "fence.sc.cluster" => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
        _ => &["(no SASS known for this PTX)"],
    }
}

impl Kernel {
    /// [`Kernel::program`] as sm_90 SASS ([`sass_of`]): the test's accesses
    /// and the barriers they become, in program order. The SASS test finds
    /// exactly this after the synchronised start.
    pub fn sass_program(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.program().flat_map(|ptx| sass_of(ptx).iter().copied())
    }

    /// Whether `ptxas` issues this kernel's test loads in another order than
    /// the program's, as the SASS test finds on sm_90 (and holds to the
    /// definition's `ptxas_reorders_weak_loads`, so a new `ptxas` that changes it is noticed). Only weak loads
    /// may be reordered: the compiler owes weak accesses no order, and for
    /// these kernels a weak outcome counted on the GPU may be the
    /// compiler's reordering as much as the hardware's.
    pub const fn loads_reordered_by_ptxas(&self) -> bool {
        matches!(self.variant, Variant::Weak) && self.test.definition().ptxas_reorders_weak_loads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::litmus::KERNELS;

    #[test]
    fn the_registry_has_every_variant_of_every_test_once_in_order() {
        let mut k = KERNELS.iter();
        for test in Test::ALL {
            for &variant in test.variants() {
                let kernel = k.next().unwrap();
                assert_eq!((kernel.test, kernel.variant), (test, variant));
                let mut expected = [0u8; 64];
                let mut len = 0;
                for part in ["litmus_", test.key(), "_", variant.key()] {
                    for &b in part.as_bytes() {
                        expected[len] = if b == b'-' { b'_' } else { b };
                        len += 1;
                    }
                }
                assert_eq!(kernel.entry.symbol.as_bytes(), &expected[..len]);
            }
        }
        assert!(k.next().is_none());
    }

    #[test]
    fn the_program_of_mp_with_sc_fences() {
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_mp_fence_sc_gpu").unwrap();
        let mut p = k.program();
        for expected in [
            "st.relaxed.gpu.global.u32",
            "fence.sc.gpu",
            "st.relaxed.gpu.global.u32",
            "ld.relaxed.gpu.global.u32",
            "fence.sc.gpu",
            "ld.relaxed.gpu.global.u32",
        ] {
            assert_eq!(p.next(), Some(expected));
        }
        assert_eq!(p.next(), None);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_wrc_rel_acq_cta").unwrap();
        let mut p = k.program().skip(2);
        assert_eq!(p.next(), Some("st.release.cta.global.u32"));
        assert_eq!(p.next(), Some("ld.acquire.cta.global.u32"));
    }

    #[test]
    fn the_cluster_variants_name_cluster_scope_and_need_the_hopper_module() {
        for variant in Variant::ALL {
            let cluster = variant.key().ends_with("-cluster");
            assert_eq!(variant.needs_hopper(), cluster, "{variant:?}");
        }
        for k in &KERNELS {
            let module = if k.variant.needs_hopper() { crate::Module::Hopper } else { crate::Module::Base };
            assert_eq!(k.entry.module, module, "{}", k.entry.symbol);
        }
        assert_eq!(CLASSIFY.module, crate::Module::Base);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_mp_rel_acq_cluster").unwrap();
        let mut program = k.program();
        for expected in [
            "st.relaxed.cluster.global.u32",
            "st.release.cluster.global.u32",
            "ld.acquire.cluster.global.u32",
            "ld.relaxed.cluster.global.u32",
        ] {
            assert_eq!(program.next(), Some(expected));
        }
        assert_eq!(program.next(), None);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_sb_fence_sc_cluster").unwrap();
        assert_eq!(k.program().nth(1), Some("fence.sc.cluster"));
        // Every step of every kernel has its SASS in the table.
        for k in &KERNELS {
            assert!(k.sass_program().all(|sass| !sass.starts_with('(')), "{}", k.entry.symbol);
        }
    }
}
