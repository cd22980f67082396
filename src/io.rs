//! Reading input files with clear errors, and writing outputs atomically.

use std::path::Path;

use crate::error::{Error, Result};

/// Largest input file accepted: scenarios and rulesets are a few kB; anything this big is a
/// mistake, refused before reading it whole.
pub const MAX_INPUT_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a UTF-8 text file, refusing empty, huge and non-UTF-8 files with the file's name.
pub fn read_text(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.len() > MAX_INPUT_BYTES {
        return Err(Error::at_key(
            path,
            "",
            "",
            format!(
                "file is {} bytes; the limit is {} bytes",
                meta.len(),
                MAX_INPUT_BYTES
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
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

/// Writes a file atomically: a temporary file in the same folder, then a rename, so an
/// interrupted run never leaves a truncated file that looks complete.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, contents).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}
