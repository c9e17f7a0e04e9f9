//! Input paths: folders given on the command line are walked for files.

use std::path::{Path, PathBuf};

/// The files under `dir` (recursively) whose extension is one of `exts`,
/// sorted by path; hidden files and folders (`.name`) and `ptxopt build`'s
/// outputs (`*.opt.ptx`) are left out. An error only when `dir` itself cannot
/// be read (an unreadable subfolder is skipped).
pub fn walk_dir(dir: &Path, exts: &[&str]) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut first = true;
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(entries) => entries,
            Err(e) if first => return Err(e),
            Err(_) => continue,
        };
        first = false;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if exts
                .iter()
                .any(|ext| path.extension().is_some_and(|e| e == *ext))
                && !name.ends_with(".opt.ptx")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Expands the folders among `paths` into their `*.ptx` files, each with its
/// path relative to the folder it was found in (`None` for a file given as
/// such); order kept. `Err` names a folder that cannot be read. An empty
/// folder is a warning on stderr.
pub fn expand_ptx(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Option<PathBuf>)>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let files = walk_dir(p, &["ptx"])
                .map_err(|e| format!("cannot read folder `{}`: {e}", p.display()))?;
            if files.is_empty() {
                eprintln!("ptxopt: warning: no `*.ptx` files under `{}`", p.display());
            }
            for f in files {
                let rel = f.strip_prefix(p).map(Path::to_path_buf).ok();
                out.push((f, rel));
            }
        } else {
            out.push((p.clone(), None));
        }
    }
    Ok(out)
}
