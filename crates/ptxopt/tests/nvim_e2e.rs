//! `ptxopt lsp` end to end in a real editor: Neovim, headless, runs
//! `editors/nvim/e2e.lua`, which attaches the server to a PTX file through
//! `editors/nvim/ptxopt.lua` and checks diagnostics (an undeclared register,
//! then its fix through an incremental edit), hover, inlay hints, go to
//! definition, a settings change and the shutdown; it writes a result JSON
//! and exits non-zero on any failure.
//!
//! Skips when `nvim` (or `$PTXOPT_NVIM`) is absent or older than 0.7, unless
//! `PTXOPT_REQUIRE_NVIM` is set (as CI does): then that fails.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The checks `e2e.lua` makes that must all be reported, and passed.
const CHECKS: &[&str] = &[
    "server attached",
    "diagnostic: undeclared register",
    "diagnostics clear after the fix",
    "hover: register",
    "hover: instruction, with the target of the settings",
    "inlay hints: register pressure",
    "definition: the .reg declaration",
    "settings change: hover now on sm_75",
    "server shut down",
];

const TIMEOUT: Duration = Duration::from_secs(180);

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Neovim to run, if there is one recent enough.
fn nvim() -> Option<String> {
    let nvim = std::env::var("PTXOPT_NVIM").unwrap_or_else(|_| "nvim".to_string());
    let why = match Command::new(&nvim).arg("--version").output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            match parse_version(&text) {
                Some(v) if v >= (0, 7) => return Some(nvim),
                Some((major, minor)) => format!("{nvim} is {major}.{minor}, older than 0.7"),
                None => format!("cannot read the version of {nvim}: {text}"),
            }
        }
        Ok(out) => format!("`{nvim} --version` failed: {}", out.status),
        Err(e) => format!("{nvim} not found: {e}"),
    };
    if std::env::var_os("PTXOPT_REQUIRE_NVIM").is_some() {
        panic!("{why}; PTXOPT_REQUIRE_NVIM is set");
    }
    eprintln!("skipping: {why} (set PTXOPT_NVIM, or install neovim)");
    None
}

/// `NVIM v0.9.5` → (0, 9).
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let rest = text.lines().next()?.strip_prefix("NVIM v")?;
    let mut parts = rest.split(['.', '-', ' ']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

#[test]
fn neovim_drives_the_language_server() {
    let Some(nvim) = nvim() else { return };
    let root = repo_root();
    let script = root.join("editors/nvim/e2e.lua");
    let work =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("nvim-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let result = work.join("result.json");

    let mut cmd = Command::new(&nvim);
    cmd.args(["--headless", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg("lua dofile(os.getenv('PTXOPT_E2E_SCRIPT'))")
        .current_dir(&root)
        .env("PTXOPT_E2E_SCRIPT", &script)
        .env("PTXOPT_BIN", env!("CARGO_BIN_EXE_ptxopt"))
        .env("PTXOPT_E2E_RESULT", &result)
        .env("PTXOPT_E2E_DIR", work.join("files"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Keep the user's configuration, state and logs out of it.
    for (var, dir) in [
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CACHE_HOME", "cache"),
    ] {
        cmd.env(var, work.join(dir));
    }
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{nvim}: {e}"));
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = out_reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    let report = std::fs::read_to_string(&result).unwrap_or_default();
    let context = format!(
        "nvim stdout:\n{stdout}\nnvim stderr:\n{stderr}\nresult ({}):\n{report}",
        result.display()
    );

    let Some(status) = status else {
        panic!("nvim did not finish within {TIMEOUT:?}\n{context}");
    };
    assert!(status.success(), "nvim exited with {status}\n{context}");
    assert!(!report.is_empty(), "no result written\n{context}");
    assert!(
        !report.contains("\"ok\":false"),
        "a check failed\n{context}"
    );
    for name in CHECKS {
        assert!(
            report.contains(&format!("\"name\":\"{name}")),
            "check `{name}` not reported\n{context}"
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}
