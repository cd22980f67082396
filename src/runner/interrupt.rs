//! Ctrl-C, SIGTERM and SIGHUP (what Slurm, Kubernetes and a closed terminal send) are handled
//! alike: the first asks the run to stop at the end of the batches in hand, after which the
//! command writes nothing and exits 130; a second one ends the process at once, after removing
//! the staging folders registered here, so no half-written output is left behind.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

static STOP: AtomicBool = AtomicBool::new(false);
static HANDLER: OnceLock<bool> = OnceLock::new();
/// Staging folders and files being written: removed by a second signal before exiting.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The flag a signal sets, with the handler installed (once per process) and the flag cleared.
/// If another handler was installed first, the flag is still returned; it just never gets set.
pub fn ctrl_c_flag() -> &'static AtomicBool {
    HANDLER.get_or_init(|| {
        ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                crate::io::tell("\ninterrupted again: stopping now");
                remove_staged();
                std::process::exit(crate::error::exit::INTERRUPTED);
            }
            crate::io::tell(
                "\ninterrupted: finishing the batches in hand, then stopping (interrupt again to stop at once)",
            );
        })
        .is_ok()
    });
    STOP.store(false, Ordering::SeqCst);
    &STOP
}

/// Whether a signal has asked to stop since the last [`ctrl_c_flag`] (never, if none was
/// installed): for loops that would otherwise carry the flag through every call.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Registers a staging path (folder or file) to remove if a second signal ends the process.
pub fn stage_begun(path: PathBuf) {
    STAGED.lock().unwrap_or_else(|e| e.into_inner()).push(path);
}

/// Unregisters a staging path (renamed into place, or removed).
pub fn stage_ended(path: &std::path::Path) {
    STAGED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|p| p != path);
}

fn remove_staged() {
    // try_lock: never wait on a thread the signal interrupted while it held the list.
    if let Ok(list) = STAGED.try_lock() {
        for p in list.iter() {
            let _ = std::fs::remove_dir_all(p).or_else(|_| std::fs::remove_file(p));
        }
    }
}
