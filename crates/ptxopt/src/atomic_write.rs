//! Writing an output file atomically: readers see the old file or the whole new
//! one, never a part, and a failure leaves no partial file behind.
//!
//! The text goes to a temporary file in the destination's folder (same file
//! system, so the rename is atomic), which is flushed to disk (`fsync`) and
//! renamed over the destination; the folder is then synced so the rename
//! itself survives a crash. On any error the temporary file is removed and the
//! destination is untouched.
//!
//! Two destinations are not replaced: a device, pipe or socket (`-o
//! /dev/null`, `-o /dev/stdout`, a FIFO) is written directly, since renaming a
//! file over it would replace the device itself (as root, `/dev/null` would
//! become a plain file); and a symbolic link is followed, so the file it points
//! to is replaced atomically and the link stays.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` atomically (see the module documentation for
/// devices, pipes and links).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, &|out| out.write_all(bytes))
}

/// [`write_atomically`] of what `write` writes to the file (buffered; a
/// build streams its output in pieces instead of one string).
pub fn write_atomically_with(
    path: &Path,
    write: &dyn Fn(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Ok(meta) = fs::metadata(path) {
        if !meta.is_file() && !meta.is_dir() {
            let mut out = io::BufWriter::new(OpenOptions::new().write(true).open(path)?);
            return write(&mut out).and_then(|()| out.flush());
        }
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        if let Ok(target) = fs::canonicalize(path) {
            return write_atomically_with(&target, write);
        }
    }
    let tmp = temp_path(path)?;
    let result = write_and_rename(&tmp, path, write);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn write_and_rename(
    tmp: &Path,
    path: &Path,
    write: &dyn Fn(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    let mut out = io::BufWriter::with_capacity(1 << 16, file);
    write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, path)?;
    sync_dir(&folder_of(path));
    Ok(())
}

/// `.<name>.ptxopt-<pid>-<n>.tmp` beside `path`: hidden, unique within the
/// process (threads write in parallel) and across processes.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{}` is not a file path", path.display()),
        )
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp_name = format!(
        ".{}.ptxopt-{}-{n}.tmp",
        name.to_string_lossy(),
        std::process::id()
    );
    Ok(folder_of(path).join(tmp_name))
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Makes a rename in `dir` durable. Best effort: not every platform or file
/// system lets a folder be opened and synced.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> ptx_test_support::ScratchDir {
        ptx_test_support::ScratchDir::new(&format!("ptxopt-atomic-{name}"))
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_and_replaces_leaving_no_temp_file() {
        let dir = scratch("replace");
        let out = dir.join("out.ptx");
        write_atomically(&out, b"one").unwrap();
        write_atomically(&out, b"two").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        assert_eq!(entries(&dir), ["out.ptx"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        if !fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
            return;
        }
        write_atomically(null, b"nothing").unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed() {
        let dir = scratch("link");
        let real = dir.join("real.ptx");
        fs::write(&real, b"old").unwrap();
        let link = dir.join("link.ptx");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert_eq!(entries(&dir), ["link.ptx", "real.ptx"]);
    }

    #[test]
    fn failure_leaves_nothing() {
        let dir = scratch("fail");
        // The destination is a folder: the rename fails after the temp file
        // was written; the temp file must be gone.
        let out = dir.join("taken");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("keep"), b"x").unwrap();
        assert!(write_atomically(&out, b"data").is_err());
        assert_eq!(entries(&dir), ["taken"]);
        assert_eq!(entries(&out), ["keep"]);
    }
}
