//! The two pages' pitfalls: every fix holds and every broken version runs to
//! the end.

use host::gpu::Gpu;
use host::pitfalls;

/// Every pitfall at `size`: each fix runs and never goes wrong, and each
/// broken version runs to the end with a denominator (or, for the oversized
/// cooperative launch, is refused by the driver). Whether a broken version
/// shows its mistake depends on the GPU's timing, so that is reported by
/// `host pitfalls`, not asserted here, with two exceptions the harness makes
/// certain: the accumulator never reset holds a wrong sum, and a cooperative
/// launch of four times the resident grid is refused.
pub(super) fn pitfall_fixes_hold(gpu: &Gpu, size: pitfalls::Size) -> Result<(), String> {
    let lab = pitfalls::Lab::load(gpu).map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    for pitfall in layout::pitfall::Pitfall::ALL {
        let finding = pitfalls::run(&lab, pitfall, size).map_err(|e| e.to_string())?;
        for t in &finding.trials {
            if t.fix_failed() {
                problems.push(format!(
                    "{} {}: {} {} in {} ({:?})",
                    pitfall.key(),
                    t.name,
                    t.failures,
                    t.unit,
                    t.out_of,
                    t.refused
                ));
            }
            if t.broken && t.refused.is_none() && t.out_of == 0 {
                problems.push(format!("{} {}: ran nothing", pitfall.key(), t.name));
            }
        }
        let broken: Vec<_> = finding.trials.iter().filter(|t| t.broken).collect();
        match pitfall {
            layout::pitfall::Pitfall::UnresetAccumulator if !broken.iter().all(|t| t.shown()) => {
                problems.push("the accumulator never reset held the right sum".to_owned());
            }
            layout::pitfall::Pitfall::DevicePhase if !broken.iter().any(|t| t.refused.is_some()) => {
                problems.push("the driver launched a cooperative grid four times too large".to_owned());
            }
            _ => {}
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}
