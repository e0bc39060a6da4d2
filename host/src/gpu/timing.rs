//! CUDA-event timing: the GPU's own clock, read around work on one stream.
//!
//! A host clock around a launch measures the launch call, not the kernel: the
//! call returns as soon as the work is queued. Events are timestamps the GPU
//! writes when the stream reaches them, so `stop - start` is the time the
//! stream spent between the two.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaEvent, CudaStream, sys};

use crate::error::{DriverContext, LabError};

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
            context
                .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
                .doing(|| "creating a timing event".to_owned())
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
        self.start
            .elapsed_ms(&self.stop)
            .doing(|| "reading an event time".to_owned())
    }
}
