//! Ctrl-C: the first asks the run to stop at the end of the batches in hand; a second one
//! ends the process at once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static HANDLER: OnceLock<bool> = OnceLock::new();

/// The flag a Ctrl-C sets, with the handler installed (once per process) and the flag cleared.
/// If another handler was installed first, the flag is still returned; it just never gets set.
pub fn ctrl_c_flag() -> &'static AtomicBool {
    HANDLER.get_or_init(|| {
        ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted again: stopping now");
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing the batches in hand, then stopping (Ctrl-C again to stop at once)");
        })
        .is_ok()
    });
    STOP.store(false, Ordering::SeqCst);
    &STOP
}
