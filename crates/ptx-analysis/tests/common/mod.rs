//! Shared helpers of the integration tests: input files, the corpus, ptxas.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's `test-data` folder.
pub fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data")
}

/// The shared corpus, or `None` (skip) when absent.
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

/// ptxas 13.0.88 (`$PTXOPT_CUDA_HOME/bin/ptxas`, default
/// `~/.cache/ptxopt/cuda-13.0.88`), or `None` (skip) unless
/// `PTXOPT_REQUIRE_PTXAS` is set.
pub fn ptxas() -> Option<PathBuf> {
    let home = std::env::var_os("PTXOPT_CUDA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ptxopt/cuda-13.0.88"))
        });
    let ptxas = home.map(|h| h.join("bin/ptxas")).filter(|p| p.exists());
    if ptxas.is_none() {
        if std::env::var_os("PTXOPT_REQUIRE_PTXAS").is_some() {
            panic!("ptxas not found (set PTXOPT_CUDA_HOME); PTXOPT_REQUIRE_PTXAS is set");
        }
        eprintln!("skipping: ptxas not found (set PTXOPT_CUDA_HOME)");
    }
    ptxas
}

/// The `.ptx` files under `dir` (recursively), sorted.
pub fn ptx_files_recursive(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
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

/// The `-arch` for a module: its `.target`, at least sm_75 (ptxas 13's floor).
pub fn arch_for(module: &ptx_ir::ir::Module) -> String {
    let Some(t) = &module.header.target else {
        return "sm_75".into();
    };
    let name = t.arch.replace("compute_", "sm_");
    if t.sm_number() < 75 {
        "sm_75".into()
    } else {
        name
    }
}

/// `ptxas -arch=ARCH -v FILE -o /dev/null`: Ok(output) when it accepts.
pub fn run_ptxas(ptxas: &Path, file: &Path, arch: &str) -> Result<String, String> {
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(file)
        .arg("-o")
        .arg("/dev/null")
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
