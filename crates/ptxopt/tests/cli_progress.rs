//! Progress and batch behaviour of `ptxopt build`: under a pseudo-terminal
//! (`script`) the bar advances; under a pipe the output is what it always
//! was (only the summary line); a folder is walked for `*.ptx`, and one
//! unreadable and one broken file are reported while the others build.

use std::path::Path;
use std::process::Command;

fn ptxopt() -> &'static str {
    env!("CARGO_BIN_EXE_ptxopt")
}

/// A fresh folder with `copies` copies of every `test-data/examples` file
/// under `src/sub/`.
fn corpus(tag: &str, copies: usize) -> ptx_test_support::ScratchDir {
    let dir = ptx_test_support::ScratchDir::new(&format!("ptxopt-progress-{tag}"));
    let sub = dir.join("src/sub");
    std::fs::create_dir_all(&sub).unwrap();
    let examples = ptx_test_support::test_data().join("examples");
    for f in ptx_test_support::ptx_files(&examples) {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        for i in 0..copies {
            std::fs::copy(&f, sub.join(format!("{stem}_{i}.ptx"))).unwrap();
        }
    }
    dir
}

fn count_ptx(dir: &Path) -> usize {
    ptx_test_support::ptx_files_recursive(dir).len()
}

#[test]
fn the_bar_advances_under_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipping: `script` (util-linux) not found");
        return;
    }
    let dir = corpus("pty", 6);
    let total = count_ptx(&dir.join("src"));
    let command = format!(
        "{} build {} -j 1 --out-dir {}",
        ptxopt(),
        dir.join("src").display(),
        dir.join("out").display()
    );
    // `script` runs the command on a pseudo-terminal and copies what it
    // prints to its own standard output.
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let counts: std::collections::BTreeSet<usize> = text
        .split("building [")
        .skip(1)
        .filter_map(|frame| {
            let pos = frame.split(']').nth(1)?.trim_start();
            pos.split('/').next()?.parse().ok()
        })
        .collect();
    assert!(
        counts.len() >= 3,
        "the bar did not advance: {counts:?}\n{text:?}"
    );
    assert!(counts.iter().all(|&n| n <= total), "{counts:?}");
    assert!(text.contains(&format!("/{total} files")), "{text:?}");
    assert!(text.contains(" files/s"), "no rate: {text:?}");
    assert!(text.contains(".ptx"), "no current file: {text:?}");
    // The summary comes after the bar is cleared.
    let summary = format!("built {total} files: {total} written, 0 with errors, 0 warnings");
    assert!(text.contains(&summary), "{text:?}");
    assert_eq!(
        count_ptx(&dir.join("out")),
        total,
        "outputs mirror the folder"
    );
    // --quiet: nothing at all on the terminal.
    let quiet = Command::new("script")
        .args(["-q", "-e", "-c", &format!("{command} --quiet"), "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(quiet.status.code(), Some(0));
    assert!(
        quiet.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&quiet.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn under_a_pipe_only_the_summary() {
    let dir = corpus("pipe", 2);
    let total = count_ptx(&dir.join("src"));
    let out = Command::new(ptxopt())
        .arg("build")
        .arg(dir.join("src"))
        .arg("--out-dir")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("built {total} files: {total} written, 0 with errors, 0 warnings\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_unreadable_and_one_broken_file_do_not_stop_the_others() {
    let dir = corpus("broken", 1);
    let src = dir.join("src");
    let good = count_ptx(&src);
    std::fs::write(
        src.join("broken.ptx"),
        ".version 8.0\n.target sm_80\n.entry k() { bogus.op; }\n",
    )
    .unwrap();
    // A link to nothing: listed by the walk, unreadable.
    std::os::unix::fs::symlink(dir.join("missing"), src.join("unreadable.ptx")).unwrap();
    let out = Command::new(ptxopt())
        .arg("build")
        .arg(&src)
        .arg("--out-dir")
        .arg(dir.join("out"))
        .arg("--short")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("broken.ptx:3:"), "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
    assert!(
        stderr.ends_with(&format!(
            "built {} files: {good} written, 1 with errors, 1 unreadable, 0 warnings\n",
            good + 2
        )),
        "{stderr}"
    );
    assert_eq!(count_ptx(&dir.join("out")), good);
    let _ = std::fs::remove_dir_all(&dir);
}
