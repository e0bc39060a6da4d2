//! Loading and launching: a broken PTX file fails in one line, the machine code
//! the driver built keeps the registry's promises, and a cluster launch places
//! its blocks as the PTX ISA defines.

use std::path::Path;
use std::process::Command;

use host::error::LabError;
use host::gpu::{Gpu, PtxSource};

use super::LOAD_ONLY;

/// A PTX file the driver rejects gives an error that names the file and the
/// driver's reason.
pub(super) fn broken_ptx_names_the_file() -> Result<(), String> {
    let path = std::env::temp_dir().join(format!("broken-{}.ptx", std::process::id()));
    std::fs::write(&path, ".version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n")
        .map_err(|e| e.to_string())?;
    match Gpu::open(&PtxSource::File(path.clone())) {
        Err(e @ LabError::PtxLoad { .. }) => {
            let text = e.to_string();
            if text.contains(&path.display().to_string()) && text.contains("CUDA_ERROR") {
                Ok(())
            } else {
                Err(format!("message lacks the file or the driver error: {text}"))
            }
        }
        Err(e) => Err(format!("wrong error: {e}")),
        Ok(_) => Err("the driver accepted broken PTX".to_owned()),
    }
}

/// PTX the driver's JIT compiler rejects fails in one line that names the
/// file, the driver's error and the compiler's own log (which names the line).
pub(super) fn broken_ptx_shows_the_jit_log() -> Result<(), String> {
    let path = std::env::temp_dir().join(format!("broken-jit-{}.ptx", std::process::id()));
    std::fs::write(&path, ".version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n")
        .map_err(|e| e.to_string())?;
    match Gpu::open(&PtxSource::File(path.clone())) {
        Err(e @ LabError::PtxLoad { .. }) => {
            let text = e.to_string();
            let one_line = !text.contains('\n');
            if one_line && text.contains("JIT compiler says") && text.contains("line 4") {
                Ok(())
            } else {
                Err(format!("not one line with the JIT compiler's log: {text}"))
            }
        }
        Err(e) => Err(format!("wrong error: {e}")),
        Ok(_) => Err("the driver accepted broken PTX".to_owned()),
    }
}

/// The machine code that ran. The lab loads its modules from PTX
/// (`cuModuleLoadData`), which the driver compiles itself and keeps in its
/// JIT cache. A child of this test binary opens the GPU with the cache
/// pointed at an empty folder, so the driver writes the cubin of each module
/// it compiled there; each is disassembled with `cuobjdump` (which runs
/// `nvdisasm`) and held to every registry entry's SASS promise and every
/// litmus kernel's accesses, as `tests/ptx.rs` holds `ptxas`'s SASS of the
/// same PTX. Without the disassemblers it says so in one line and passes;
/// the checks read sm_90's parameter bank, so a GPU before Hopper is told
/// so too.
pub(super) fn driver_sass_is_checked(gpu: &Gpu) -> Result<(), String> {
    let root = xtask::paths::workspace_root();
    let tools = (xtask::ptxas::find_tool(&root, "cuobjdump"), xtask::ptxas::find_tool(&root, "nvdisasm"));
    let (Some(cuobjdump), Some(_)) = tools else {
        println!("skipped: no nvdisasm/cuobjdump on PATH");
        return Ok(());
    };
    if gpu.info.compute_capability.0 < 9 {
        println!("skipped: the SASS checks read sm_90 machine code; this GPU is {:?}", gpu.info.compute_capability);
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("lab-jit-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let status = Command::new(exe)
        .env(LOAD_ONLY, "1")
        .env("CUDA_CACHE_PATH", &dir)
        .env("CUDA_CACHE_MAXSIZE", "4294967296")
        .env_remove("CUDA_CACHE_DISABLE")
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the child that loads the modules failed: {status}"));
    }
    let cubins = cached_cubins(&dir)?;
    if cubins.is_empty() {
        return Err(format!("the driver left no cubin in its JIT cache at {}", dir.display()));
    }
    let mut text = String::new();
    for path in &cubins {
        text += &xtask::sass::disassemble_cubin(&cuobjdump, path).map_err(|e| e.to_string())?;
    }
    let _ = std::fs::remove_dir_all(&dir);
    let loaded: Vec<layout::Module> =
        layout::Module::ALL.into_iter().filter(|&m| m == layout::Module::Base || gpu.hopper().is_ok()).collect();
    let functions = xtask::sass::split_functions(&text);
    let summaries = xtask::sass::summarize(&text);
    let mut broken = Vec::new();
    let mut checked = 0;
    for entry in layout::entries().filter(|e| loaded.contains(&e.module)) {
        match summaries.iter().find(|s| s.kernel == entry.symbol) {
            None => broken.push(format!("{}: not in the driver's cubins", entry.symbol)),
            Some(summary) => {
                checked += 1;
                for promise in summary.broken_promises(entry) {
                    broken.push(format!("{}: {promise} ({})", entry.symbol, summary.line()));
                }
            }
        }
    }
    let mut stress_loads = std::collections::BTreeSet::new();
    for kernel in layout::litmus::KERNELS.iter().filter(|k| loaded.contains(&k.entry.module)) {
        let Some((_, body)) = functions.iter().find(|(f, _)| f == kernel.entry.symbol) else { continue };
        let (problems, stress) = xtask::sass::litmus_problems(kernel, body);
        broken.extend(problems);
        stress_loads.insert(stress);
    }
    if stress_loads.len() > 1 {
        broken.push(format!("the litmus kernels have different numbers of stress loads: {stress_loads:?}"));
    }
    println!(
        "  checked the SASS the driver compiled ({} cubins from its JIT cache) of {checked} kernels with {}",
        cubins.len(),
        cuobjdump.display()
    );
    if broken.is_empty() { Ok(()) } else { Err(broken.join("\n")) }
}

/// The cubins in the JIT cache at `dir`, each copied beside its entry as
/// `ENTRY.cubin`. An entry is the driver's header, the PTX it compiled,
/// then the cubin to the end of the file (whose section headers need not
/// come last, so the ELF header does not give its end).
fn cached_cubins(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for item in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = item.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_some_and(|e| e == "cubin") {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(start) = bytes.windows(4).position(|w| w == b"\x7fELF") {
                let cubin = path.with_extension("cubin");
                std::fs::write(&cubin, &bytes[start..]).map_err(|e| format!("{}: {e}", cubin.display()))?;
                found.push(cubin);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// A launch in clusters (`cuLaunchKernelEx`, Hopper module) gives every
/// block the rank, cluster size and cluster index the PTX ISA defines for a
/// one-dimensional grid, and distributed shared memory reads the next rank's
/// block's own word. On a GPU before Hopper it says so and checks that the
/// request fails with the one-line error.
pub(super) fn cluster_launch_places_blocks_as_documented(gpu: &Gpu) -> Result<(), String> {
    use host::gpu::baseline::{ProbeReport, cluster_probe, probe_max_active_clusters};
    if let Err(why) = gpu.hopper() {
        let refused = cluster_probe(gpu, 1, 2, 32).err().map(|e| e.to_string());
        println!("cluster launch: not run on this GPU ({why}); the probe was refused with: {refused:?}");
        return if refused.is_some() { Ok(()) } else { Err("a cluster probe ran without the Hopper module".into()) };
    }
    let mut problems = Vec::new();
    for cluster in [1, 2, 4, 8] {
        for threads in [32, 128, 1024] {
            let fits = probe_max_active_clusters(gpu, cluster, threads).map_err(|e| e.to_string())?;
            if fits == 0 {
                problems.push(format!("clusters of {cluster} blocks of {threads}: none fits"));
                continue;
            }
            // More clusters than fit at once, so some wait for others to end.
            let clusters = 2 * fits + 1;
            let reports = cluster_probe(gpu, clusters, cluster, threads).map_err(|e| e.to_string())?;
            for (block, report) in reports.iter().enumerate() {
                let block = block as u32;
                let (index, rank) = (block / cluster, block % cluster);
                let expected = ProbeReport {
                    rank,
                    size: cluster,
                    cluster: index,
                    neighbour_block: index * cluster + (rank + 1) % cluster,
                };
                if *report != expected {
                    problems.push(format!("{cluster}x{threads}, block {block}: {report:?}, expected {expected:?}"));
                }
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}
