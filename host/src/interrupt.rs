//! Ctrl-C during a long run (`litmus`, `bench`, `accuracy`). The first one
//! asks the run to stop at its next check, between two launches or two rows
//! and never inside a timed region; the run then prints what it measured,
//! marked partial, and exits with [`EXIT_INTERRUPTED`]. A second one ends the
//! process at once, with the same code.
//!
//! Every other command keeps Ctrl-C's default effect, ending at once: they
//! have no check to stop at.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Once};

use signal_hook::consts::SIGINT;

use crate::error::EXIT_INTERRUPTED;

/// Set by the first Ctrl-C after [`catch`].
static REQUESTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Catches Ctrl-C from now on, for the rest of the process. If the handlers
/// cannot be registered, Ctrl-C keeps its default effect, and the run goes on
/// without the partial table.
pub fn catch() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let flag = &*REQUESTED;
        // The shutdown is registered first, so it runs first: it ends the
        // process only when an earlier Ctrl-C has set the flag already.
        let Ok(shutdown) =
            signal_hook::flag::register_conditional_shutdown(SIGINT, EXIT_INTERRUPTED.into(), Arc::clone(flag))
        else {
            return;
        };
        if signal_hook::flag::register(SIGINT, Arc::clone(flag)).is_err() {
            // Alone, the shutdown would swallow the first Ctrl-C: take it
            // back, and Ctrl-C ends the process as it did before.
            signal_hook::low_level::unregister(shutdown);
        }
    });
}

/// Whether Ctrl-C was pressed since [`catch`]: a runner stops at its next
/// check when it was.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The line on standard error after the results of an interrupted run.
pub const NOTE: &str = "interrupted (Ctrl-C): the results hold only what was measured before it, marked partial";

#[cfg(test)]
mod tests {
    use super::*;

    /// Set in the copy of this test binary that the test starts.
    const CHILD: &str = "LAB_INTERRUPT_TEST_CHILD";

    #[test]
    fn the_first_ctrl_c_raises_the_flag_and_the_second_ends_the_process_with_130() {
        if std::env::var_os(CHILD).is_some() {
            // In the child: Ctrl-C is caught, so the first one only sets the
            // flag; the second must end the process before the last line.
            catch();
            assert!(!requested());
            signal_hook::low_level::raise(SIGINT).unwrap();
            assert!(requested(), "the first Ctrl-C sets the flag and the process goes on");
            signal_hook::low_level::raise(SIGINT).unwrap();
            unreachable!("the second Ctrl-C did not end the process");
        }
        // The handlers stay for the rest of a process, so they are tried in
        // a copy of this test binary that runs this test alone.
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "interrupt::tests::the_first_ctrl_c_raises_the_flag_and_the_second_ends_the_process_with_130",
            ])
            .env(CHILD, "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(i32::from(EXIT_INTERRUPTED)));
    }
}
