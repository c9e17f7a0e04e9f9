//! `ptxopt watch` as a user runs it: a real process watching a temporary
//! folder while the test edits, renames over, deletes, re-creates and breaks
//! files, reading the watcher's lines with timeouts.
//!
//! Every wait is bounded (`WAIT`), and the child is killed when a test ends,
//! whatever happened (`Session`'s `Drop`), so a failure cannot hang the run.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest one step waits for its line (generous for a loaded machine;
/// a step normally takes well under a second).
const WAIT: Duration = Duration::from_secs(20);

fn ptxopt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> ptx_test_support::ScratchDir {
    ptx_test_support::ScratchDir::new(&format!("ptxopt-watch-{name}"))
}

/// Three kernels; the tests edit one at a time.
const THREE: &str = r#".version 8.3
.target sm_80
.address_size 64

.visible .entry a(
	.param .u64 a_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1;
	st.global.u32 [%rd2], %r2;
	ret;
}

.visible .entry b(
	.param .u64 b_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [b_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	st.global.u32 [%rd2], %r1;
	ret;
}

.visible .entry c(
	.param .u64 c_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [c_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ntid.x;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

/// One kernel.
const ONE: &str = r#".version 8.3
.target sm_80
.address_size 64

.visible .entry one(
	.param .u64 one_p
)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [one_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %laneid;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

/// A running `ptxopt watch`, its stdout lines arriving on a channel and its
/// stderr gathered.
struct Session {
    child: Child,
    lines: Receiver<String>,
    /// Every stdout line so far.
    seen: Vec<String>,
    stderr: Arc<Mutex<String>>,
}

impl Session {
    fn start(dir: &Path, args: &[&str]) -> Session {
        let mut child = ptxopt()
            .arg("watch")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ptxopt starts");
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let err = child.stderr.take().unwrap();
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                let mut s = sink.lock().unwrap();
                s.push_str(&line);
                s.push('\n');
            }
        });
        Session {
            child,
            lines,
            seen: Vec::new(),
            stderr,
        }
    }

    /// The next stdout line starting with `prefix`, skipping others; panics
    /// after `WAIT`.
    fn expect_line(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return line;
                    }
                }
                Err(e) => panic!(
                    "no line starting with `{prefix}` ({e:?}); stdout so far:\n{}\nstderr:\n{}",
                    self.seen.join("\n"),
                    self.stderr()
                ),
            }
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until stderr contains `text`; panics after `WAIT`.
    fn expect_stderr(&self, text: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.stderr().contains(text) {
            assert!(
                Instant::now() < deadline,
                "stderr never showed `{text}`:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Sends a signal (by `kill`, so the test needs no FFI) and waits for the
    /// exit, at most `WAIT`.
    #[cfg(unix)]
    fn signal(&mut self, name: &str) -> ExitStatus {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "no exit after SIG{name}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Edits, save by rename, deletion, re-creation, an error and its fix, a new
/// folder; one long-lived watcher; then Ctrl-C.
#[test]
fn watch_session() {
    let dir = scratch("session");
    std::fs::write(dir.join("three.ptx"), THREE).unwrap();
    std::fs::write(dir.join("one.ptx"), ONE).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/deep.ptx"), ONE).unwrap();
    std::fs::write(dir.join("notes.txt"), "not PTX").unwrap();

    let mut s = Session::start(&dir, &[".", "--debounce", "100"]);
    let built = s.expect_line("built ");
    assert!(
        built.starts_with("built 3 files: 3 written, 0 with errors, 5 functions"),
        "{built}"
    );
    s.expect_line("watching");
    assert!(read(&dir.join("three.opt.ptx")).contains("%ctaid.x"));
    assert!(dir.join("one.opt.ptx").is_file());
    assert!(dir.join("sub/deep.opt.ptx").is_file());

    // An edit in one kernel: only it is recomputed.
    let edited = THREE.replace("%ctaid.x", "%ctaid.y");
    std::fs::write(dir.join("three.ptx"), &edited).unwrap();
    let line = s.expect_line("rebuilt three.ptx");
    assert!(
        line.starts_with(
            "rebuilt three.ptx: 1 file written, 1 of 3 functions recomputed, 2 reused, "
        ),
        "{line}"
    );
    assert!(read(&dir.join("three.opt.ptx")).contains("%ctaid.y"));

    // Save by rename: a hidden temporary file renamed over the original.
    let renamed = edited.replace("%ntid.x", "%ntid.y");
    std::fs::write(dir.join(".three.ptx.swp"), &renamed).unwrap();
    std::fs::rename(dir.join(".three.ptx.swp"), dir.join("three.ptx")).unwrap();
    let line = s.expect_line("rebuilt three.ptx");
    assert!(
        line.starts_with(
            "rebuilt three.ptx: 1 file written, 1 of 3 functions recomputed, 2 reused, "
        ),
        "{line}"
    );
    let good_output = read(&dir.join("three.opt.ptx"));
    assert!(good_output.contains("%ntid.y") && good_output.contains("%ctaid.y"));

    // Deletion: forgotten, output left in place.
    std::fs::remove_file(dir.join("one.ptx")).unwrap();
    let line = s.expect_line("removed one.ptx");
    assert_eq!(line, "removed one.ptx: output one.opt.ptx left in place");
    assert!(dir.join("one.opt.ptx").is_file());

    // Re-creation, with a change.
    std::fs::write(dir.join("one.ptx"), ONE.replace("%laneid", "%warpid")).unwrap();
    let line = s.expect_line("rebuilt one.ptx");
    assert!(
        line.starts_with("rebuilt one.ptx: 1 file written, 1 of 1 function recomputed, 0 reused"),
        "{line}"
    );
    assert!(read(&dir.join("one.opt.ptx")).contains("%warpid"));

    // An error: reported, the old output kept, the watcher goes on.
    let broken = renamed.replace("add.s32 %r2, %r1, 1;", "add.s32 %r2, %r9, 1;");
    std::fs::write(dir.join("three.ptx"), &broken).unwrap();
    let line = s.expect_line("rebuilt three.ptx");
    assert!(
        line.starts_with("rebuilt three.ptx: 1 error, output not written"),
        "{line}"
    );
    s.expect_stderr("ptxopt: `three.ptx` has errors; its output was not written");
    let stderr = s.stderr();
    assert!(stderr.contains("three.ptx:14:"), "{stderr}");
    assert!(stderr.contains("%r9"), "{stderr}");
    assert_eq!(read(&dir.join("three.opt.ptx")), good_output);
    assert!(s.alive());

    // The fix.
    let fixed = renamed.replace("add.s32 %r2, %r1, 1;", "add.s32 %r2, %r1, 2;");
    std::fs::write(dir.join("three.ptx"), &fixed).unwrap();
    let line = s.expect_line("rebuilt three.ptx");
    assert!(
        line.starts_with(
            "rebuilt three.ptx: 1 file written, 1 of 3 functions recomputed, 2 reused, "
        ),
        "{line}"
    );
    let output = read(&dir.join("three.opt.ptx"));
    assert!(
        output.contains("%r1, 2;") && output.contains("%ctaid.y"),
        "{output}"
    );

    // A new folder with a file in it.
    std::fs::create_dir(dir.join("new")).unwrap();
    std::fs::write(dir.join("new/fresh.ptx"), ONE).unwrap();
    let line = s.expect_line("rebuilt new/fresh.ptx");
    assert!(line.contains(": 1 file written"), "{line}");
    assert!(dir.join("new/fresh.opt.ptx").is_file());

    // Outputs and other files never trigger a build.
    assert!(
        s.seen
            .iter()
            .all(|l| !l.starts_with("rebuilt") || !l.contains(".opt.ptx")),
        "{:?}",
        s.seen
    );
    assert!(!s.seen.iter().any(|l| l.contains("notes.txt")));

    #[cfg(unix)]
    {
        let status = s.signal("INT");
        assert!(status.success(), "{status:?}\n{}", s.stderr());
    }
}

/// `--out-dir` inside the watched folder: subfolders mirrored, outputs not
/// watched; SIGTERM exits with status 0.
#[test]
fn watch_out_dir_and_sigterm() {
    let dir = scratch("outdir");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/k.ptx"), ONE).unwrap();

    let mut s = Session::start(&dir, &[".", "--out-dir", "out", "--debounce", "100"]);
    let built = s.expect_line("built ");
    assert!(built.starts_with("built 1 file: 1 written"), "{built}");
    s.expect_line("watching");
    assert!(read(&dir.join("out/sub/k.ptx")).contains("%laneid"));

    std::fs::write(dir.join("sub/k.ptx"), ONE.replace("%laneid", "%warpid")).unwrap();
    let line = s.expect_line("rebuilt ");
    assert!(
        line.starts_with("rebuilt sub/k.ptx: 1 file written"),
        "{line}"
    );
    assert!(read(&dir.join("out/sub/k.ptx")).contains("%warpid"));
    assert!(!s.seen.iter().any(|l| l.contains("out/")), "{:?}", s.seen);

    #[cfg(unix)]
    {
        let status = s.signal("TERM");
        assert!(status.success(), "{status:?}\n{}", s.stderr());
    }
}

/// `--once` builds and exits with `build`'s status; a file with errors is not
/// written.
#[test]
fn once_builds_and_exits() {
    let dir = scratch("once");
    std::fs::write(dir.join("good.ptx"), ONE).unwrap();
    std::fs::write(
        dir.join("bad.ptx"),
        ONE.replace("mov.u32 %r1, %laneid;", "mov.u32 %r7, %laneid;"),
    )
    .unwrap();
    let out = ptxopt()
        .args(["watch", "--once", "."])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("built 2 files: 1 written, 1 with errors"),
        "{stdout}"
    );
    assert!(stderr.contains("bad.ptx:"), "{stderr}");
    assert!(dir.join("good.opt.ptx").is_file());
    assert!(!dir.join("bad.opt.ptx").exists());

    std::fs::remove_file(dir.join("bad.ptx")).unwrap();
    let out = ptxopt()
        .args(["watch", "--once", "good.ptx", "-o", "custom.ptx"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(dir.join("custom.ptx").is_file());
}

/// Usage errors exit with status 2 before anything is built.
#[test]
fn usage_errors() {
    let dir = scratch("usage");
    std::fs::write(dir.join("k.ptx"), ONE).unwrap();
    for args in [
        vec!["watch", "missing.ptx"],
        vec!["watch", ".", "-o", "x.ptx"],
        vec!["watch", "-"],
        vec!["watch", ".", "--knob", "NoSuchKnob=1"],
        vec!["watch", ".", "--arch", "gfx90a"],
    ] {
        let out = ptxopt().args(&args).current_dir(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error"),
            "{args:?}: {out:?}"
        );
    }
    assert!(!dir.join("k.opt.ptx").exists());
}
