//! CUDA-event timing: the GPU's own clock, read around work on one stream.
//!
//! A host clock around a launch measures the launch call, not the kernel: the
//! call returns as soon as the work is queued. Events are timestamps the GPU
//! writes when the stream reaches them, so `stop - start` is the time the
//! stream spent between the two.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaEvent, CudaStream, sys};

use super::Gpu;
use super::driver_error::DriverContext;
use crate::error::LabError;

/// A pair of timing events around one piece of stream work.
pub struct Stopwatch {
    start: CudaEvent,
    stop: CudaEvent,
}

impl Stopwatch {
    /// Creates the two events (with timing enabled). Create them before the
    /// measured loop: event creation is a driver call that should not sit
    /// between a start and a stop.
    pub fn new(context: &Arc<CudaContext>) -> Result<Stopwatch, LabError> {
        let event = || {
            context.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).doing(|| "creating a timing event".to_owned())
        };
        Ok(Stopwatch { start: event()?, stop: event()? })
    }

    /// Records the start event on `stream`.
    pub fn start(&self, stream: &CudaStream) -> Result<(), LabError> {
        self.start.record(stream).doing(|| "recording a start event".to_owned())
    }

    /// Records the stop event on `stream`.
    pub fn stop(&self, stream: &CudaStream) -> Result<(), LabError> {
        self.stop.record(stream).doing(|| "recording a stop event".to_owned())
    }

    /// Milliseconds between start and stop; waits for the stop event.
    pub fn elapsed_ms(&self) -> Result<f32, LabError> {
        self.start.elapsed_ms(&self.stop).doing(|| "reading an event time".to_owned())
    }
}

/// How a measurement repeats its launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Plan {
    /// Untimed launches first (clocks ramp up, code and data get cached).
    pub warmup: usize,
    /// Timed launches.
    pub runs: usize,
    /// Flush the L2 cache before every timed launch ([`Gpu::flush_l2`]), so
    /// an input smaller than L2 is not read at cache speed.
    pub cold: bool,
}

/// Runs `launch(k)` for `k` in `0..warmup + runs` and times the last `runs`
/// calls, each between its own pair of events.
///
/// The timed region holds the launch and nothing else. Every driver call a
/// measurement needs besides the launch (creating events, allocating
/// outputs, asking the occupancy calculator) happens before the loop; the L2
/// flush of a cold plan, then the timing hold ([`Gpu::hold`]), are queued
/// before the start event. Without the hold, a start event queued on an idle
/// stream is stamped at once, and the timed region includes the host's time
/// to queue the launch: several microseconds, more than a small sum takes. `launch` should
/// only enqueue work: a kernel that updates its output in place uses `k` to
/// pick its own zeroed slot (cutting a view is host arithmetic), which is the
/// page's rule that a launch never accumulates into a previous launch's sum.
pub fn time_launches(
    gpu: &Gpu,
    plan: Plan,
    mut launch: impl FnMut(usize) -> Result<(), LabError>,
) -> Result<Vec<f32>, LabError> {
    let stream = gpu.stream();
    let watches = (0..plan.runs).map(|_| Stopwatch::new(gpu.context())).collect::<Result<Vec<_>, _>>()?;
    for k in 0..plan.warmup + plan.runs {
        let watch = k.checked_sub(plan.warmup).map(|timed| &watches[timed]);
        if let Some(w) = watch {
            if plan.cold {
                gpu.flush_l2()?;
            }
            gpu.hold()?;
            w.start(stream)?;
        }
        launch(k)?;
        if let Some(w) = watch {
            w.stop(stream)?;
        }
    }
    watches.iter().map(Stopwatch::elapsed_ms).collect()
}
