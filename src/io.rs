//! Reading input files with clear errors, and writing outputs atomically.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// Largest input file accepted: scenarios and rulesets are a few kB; anything this big is a
/// mistake, refused before reading it whole.
pub const MAX_INPUT_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a UTF-8 text file, refusing empty, huge and non-UTF-8 files with the file's name.
/// The size limit holds for every source: a regular file is refused by its length before it is
/// read, and anything else (a pipe, `/dev/stdin`, a device) is read only up to the limit.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bytes(path, MAX_INPUT_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = crate::error::line_col(
            &String::from_utf8_lossy(&e.as_bytes()[..e.utf8_error().valid_up_to()]),
            usize::MAX,
        );
        Error::Input {
            at: crate::error::Location {
                file: path.to_path_buf(),
                key: String::new(),
                line: Some(line),
                column: Some(col),
            },
            message: "file is not valid UTF-8".into(),
        }
    })?;
    if text.trim().is_empty() {
        return Err(Error::at_key(path, "", "", "file is empty"));
    }
    Ok(text)
}

/// Reads at most `limit` bytes of a file, refusing a folder and anything larger: a regular
/// file by its length before reading, anything else (a pipe, `/dev/stdin`, a device) once
/// `limit` bytes have been read.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let too_big = |what: String| Error::at_key(path, "", "", what);
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Err(Error::at_key(path, "", "", "is a folder, not a file"));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(too_big(format!(
            "file is {} bytes; the limit is {limit} bytes",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(format!(
            "input holds more than {limit} bytes, the limit (is it a device or a stream?)"
        )));
    }
    Ok(bytes)
}

/// Writes a line to stderr, control characters escaped. A stderr that cannot be written (a
/// full disk, a closed pipe) is let go: there is nowhere left to say so, and the exit code
/// still tells.
pub fn tell(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", printable(text));
}

/// Text safe to print to a terminal: control characters (an ANSI escape, a carriage return,
/// a bell) other than newline and tab are shown as `\u{1b}`, so names read from files or
/// `--set` can never drive the terminal.
pub fn printable(text: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if bad(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// The hidden temporary name [`write_atomic`] writes `path` through. It ends in `.tmp-PID`,
/// so [`is_own_temp`] can find leftovers of a killed process.
pub fn temp_name(path: &Path) -> std::path::PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(".{name}.tmp-{}", std::process::id()))
}

/// Whether a file name is one of this program's temporary files (`.NAME.tmp-PID`, or the
/// write probe `.ecw-sim-write-test-PID`): left only by a killed process, safe to remove.
pub fn is_own_temp(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.starts_with('.')
        && (name
            .rsplit_once(".tmp-")
            .is_some_and(|(_, pid)| digits(pid))
            || name
                .strip_prefix(".ecw-sim-write-test-")
                .is_some_and(digits))
}

/// Refuses an output path that holds something other than a file: a folder, or a device, pipe
/// or socket (`/dev/full`, `/dev/null`), which the rename of [`write_atomic`] would replace.
pub fn check_output_file(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(Error::Usage(format!(
            "{} is a folder; the output must be a file",
            path.display()
        ))),
        Ok(m) if !m.is_file() => Err(Error::Usage(format!(
            "{} is a device, pipe or socket, not a file; the output must be a file",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// An existing output file (`flag` names it, as the user gave it) is kept unless `force`.
pub fn refuse_existing(flag: &str, path: &Path, force: bool) -> Result<()> {
    if path.exists() && !force {
        return Err(Error::Usage(format!(
            "{flag} {}: the file exists; choose another name, or pass --force to overwrite",
            path.display()
        )));
    }
    Ok(())
}

/// Writes a file atomically: a temporary file in the same folder, then a rename, so an
/// interrupted run never leaves a truncated file that looks complete.
/// Errors name `path`, the file the user asked for, never the temporary file; the temporary
/// file is removed on any error.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    write_all_atomic(&[(path.to_path_buf(), contents)])
}

/// Writes several files as one: each to its temporary name first, then (all written) each
/// renamed into place, so an error part way (a full disk) leaves none of them, and no
/// temporary file. Errors name the file asked for.
pub fn write_all_atomic(files: &[(std::path::PathBuf, &[u8])]) -> Result<()> {
    for (path, _) in files {
        check_output_file(path)?;
    }
    let remove_temps = |upto: usize| {
        for (path, _) in &files[..upto] {
            let _ = std::fs::remove_file(temp_name(path));
        }
    };
    for (k, (path, contents)) in files.iter().enumerate() {
        if let Err(e) = std::fs::write(temp_name(path), contents) {
            remove_temps(k + 1);
            return Err(Error::io(path, e));
        }
    }
    for (path, _) in files {
        if let Err(e) = std::fs::rename(temp_name(path), path) {
            remove_temps(files.len());
            return Err(Error::io(path, e));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_control_characters_only() {
        assert_eq!(printable("Rupert\nHorse\t1"), "Rupert\nHorse\t1");
        assert_eq!(printable("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(printable("a\rb\u{7}"), "a\\u{d}b\\u{7}");
    }

    #[test]
    fn own_temporary_names_are_recognised() {
        assert!(is_own_temp(".battles.csv.tmp-123"));
        assert!(is_own_temp(".ecw-sim-write-test-9"));
        assert!(!is_own_temp("battles.csv"));
        assert!(!is_own_temp(".notes.tmp-abc"));
        assert!(!is_own_temp("x.tmp-12"));
    }
}

/// An advisory lock (`flock`) on a lock file, held until dropped; the file says who holds it,
/// so a second process can name the first. Removed on drop when `remove` is set.
#[derive(Debug)]
pub struct Lock {
    path: std::path::PathBuf,
    file: std::fs::File,
    remove: bool,
}

impl Lock {
    /// Takes the lock at `path` without waiting. `Ok(Err(holder))` when another process holds
    /// it: `holder` is what that process wrote there (its pid and command line).
    pub fn try_take(
        path: &Path,
        remove: bool,
    ) -> std::io::Result<std::result::Result<Lock, String>> {
        use std::io::{Seek, Write};
        use std::os::unix::fs::MetadataExt;
        use std::os::unix::io::AsRawFd;
        // A holder that removes the file as it ends can leave us locking a name no longer in
        // the folder: lock again until the file locked is the one the path names.
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)?;
            // SAFETY: flock on a descriptor this function owns; no memory is involved.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::WouldBlock {
                    return Err(err);
                }
                let mut holder = String::new();
                let _ = (&file).take(4096).read_to_string(&mut holder);
                return Ok(Err(holder.trim().to_string()));
            }
            let same = match std::fs::metadata(path) {
                Ok(m) => {
                    let f = file.metadata()?;
                    (m.dev(), m.ino()) == (f.dev(), f.ino())
                }
                Err(_) => false,
            };
            if !same {
                continue;
            }
            let me = format!(
                "pid {}: {}",
                std::process::id(),
                std::env::args().collect::<Vec<_>>().join(" ")
            );
            file.set_len(0)?;
            file.rewind()?;
            file.write_all(me.as_bytes())?;
            return Ok(Ok(Lock {
                path: path.to_path_buf(),
                file,
                remove,
            }));
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        if self.remove {
            // Removed while still locked, so no other process can be holding this file.
            let _ = std::fs::remove_file(&self.path);
        }
        let _ = &self.file;
    }
}
