//! Helpers shared by the integration tests of every crate (a dev-dependency
//! only): where `test-data/` and the shared corpus are, the ptxas 13.0.88 oracle
//! and how to read its answers; [`mutation`], the text mutations of the
//! property tests.
//!
//! Absent oracles skip: `corpus_dir` and `ptxas` return `None` (and say so on
//! stderr) unless `PTXOPT_REQUIRE_CORPUS` / `PTXOPT_REQUIRE_PTXAS` is set, in
//! which case they panic (CI sets both).

pub mod mutation;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's `test-data` folder.
pub fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data")
}

/// The shared corpus (`$PTXOPT_CORPUS`, default `../shared/corpus` beside the
/// checkout), or `None` (skip) when absent and not required.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PTXOPT_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.is_dir() {
        Some(dir)
    } else if std::env::var_os("PTXOPT_REQUIRE_CORPUS").is_some() {
        panic!("corpus not found at {}", dir.display());
    } else {
        eprintln!("skipping the corpus: not found at {}", dir.display());
        None
    }
}

/// Where the CUDA 13.0.88 tools are: `$PTXOPT_CUDA_HOME`, default
/// `~/.cache/ptxopt/cuda-13.0.88` (whether or not it exists).
pub fn cuda_home() -> Option<PathBuf> {
    std::env::var_os("PTXOPT_CUDA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ptxopt/cuda-13.0.88"))
        })
}

/// ptxas 13.0.88 (`$PTXOPT_CUDA_HOME/bin/ptxas`, default
/// `~/.cache/ptxopt/cuda-13.0.88`), or `None` (skip) when absent, unless
/// `PTXOPT_REQUIRE_PTXAS` is set.
pub fn ptxas() -> Option<PathBuf> {
    let home = cuda_home();
    let ptxas = home.map(|h| h.join("bin/ptxas")).filter(|p| p.exists());
    if ptxas.is_none() {
        if std::env::var_os("PTXOPT_REQUIRE_PTXAS").is_some() {
            panic!("ptxas not found (set PTXOPT_CUDA_HOME); PTXOPT_REQUIRE_PTXAS is set");
        }
        eprintln!("skipping: ptxas not found (set PTXOPT_CUDA_HOME)");
    }
    ptxas
}

/// The `.ptx` files directly in `dir`, sorted.
pub fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    files
}

/// The `.ptx` files under `dir` (recursively), sorted.
pub fn ptx_files_recursive(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ptx") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Names of the zluda files that `spirv_run.json` says ptxas rejects for sm_90.
pub fn zluda_rejected(corpus: &Path) -> Vec<String> {
    let json = std::fs::read_to_string(corpus.join("zluda/spirv_run.json")).unwrap_or_default();
    // A tiny scan instead of a JSON dependency: pairs of "ptx": "X" and "ptxas_sm90": "Y".
    let mut rejected = Vec::new();
    let mut current = None;
    for line in json.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("\"ptx\": \"") {
            current = rest.split('"').next().map(str::to_string);
        }
        if let Some(rest) = line.strip_prefix("\"ptxas_sm90\": \"") {
            if !rest.starts_with("accepted") {
                rejected.extend(current.take());
            }
        }
    }
    rejected
}

/// The `-arch` for a PTX text: its `.target`, at least sm_75 (ptxas 13's floor).
pub fn arch_for(text: &str) -> String {
    let parse = ptx_syntax::parse(text);
    let Some(name) = parse.tree().target().and_then(|t| t.sm_name()) else {
        return "sm_75".into();
    };
    let name = name.text().replace("compute_", "sm_");
    let number: u32 = name[3..]
        .trim_end_matches(|c: char| c.is_alphabetic())
        .parse()
        .unwrap_or(75);
    if number < 75 {
        "sm_75".into()
    } else {
        name
    }
}

/// `ptxas -arch=ARCH -v FILE -o /dev/null`: Ok(its output) when it accepts the
/// file, Err(its output) when it rejects it.
pub fn run_ptxas(ptxas: &Path, file: &Path, arch: &str) -> Result<String, String> {
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(file)
        .args(["-o", "/dev/null"])
        .output()
        .expect("run ptxas");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

/// "Used N registers" per function, from `ptxas -v` output
/// ([`ptx_analysis::report::parse_ptxas_register_counts`]).
pub fn register_counts(output: &str) -> BTreeMap<String, u32> {
    ptx_analysis::report::parse_ptxas_register_counts(output)
}

/// A scratch folder for one test, `temp_dir()/NAME-PID`, made empty when
/// created and removed with everything in it when dropped (a test that
/// fails leaves it behind for a look). Reads as the folder's `Path`.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        ScratchDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for ScratchDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}
