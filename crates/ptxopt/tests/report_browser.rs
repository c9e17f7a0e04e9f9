//! `ptxopt report --html` in a real browser: the page of two test-data files
//! is opened in headless Chromium (`#open-all` renders every function's
//! section), its DOM dumped and a screenshot taken. The page must have drawn
//! the plots (an SVG per function with the R and P lines, the peak and the
//! occupancy steps), raised no script error and loaded nothing: the page
//! records errors and `performance` resource entries on `<body>`, its
//! Content-Security-Policy (`default-src 'none'`) would block and log any
//! request, and Chromium runs with every host unresolvable.
//!
//! Skips when Chromium is absent (`chromium`, `chromium-browser`, or
//! `$PTXOPT_CHROMIUM`) unless `PTXOPT_REQUIRE_CHROMIUM` is set, as `.ci/run`
//! does (it installs Debian's `chromium`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<String> {
    let candidates: Vec<String> = match std::env::var("PTXOPT_CHROMIUM") {
        Ok(c) => vec![c],
        Err(_) => vec!["chromium".into(), "chromium-browser".into()],
    };
    for c in &candidates {
        if Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(c.clone());
        }
    }
    let why = format!("no Chromium found (tried {})", candidates.join(", "));
    if std::env::var_os("PTXOPT_REQUIRE_CHROMIUM").is_some() {
        panic!("{why}; PTXOPT_REQUIRE_CHROMIUM is set");
    }
    eprintln!("skipping: {why} (apt-get install chromium, or set PTXOPT_CHROMIUM)");
    None
}

fn headless(chromium: &str, profile: &Path) -> Command {
    let mut c = Command::new(chromium);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1300,1600",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn the_report_renders_in_headless_chromium() {
    let Some(chromium) = chromium() else { return };
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(&root)
        .args([
            "report",
            "test-data/examples/matmul_tiled.ptx",
            "test-data/passes/OriBranchOpt/o0_ladder.ptx",
            "--html",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    // Nothing to fetch: no URL but the SVG namespace.
    for scheme in ["http://", "https://", "//cdn", "src=\"", "@import"] {
        let n = count(&html, scheme)
            - count(&html, "http://www.w3.org/2000/svg") * usize::from(scheme == "http://");
        assert_eq!(n, 0, "the page refers to `{scheme}`");
    }
    let functions = count(&html, "\"kind\":\"");
    assert!(functions >= 2, "{functions} functions in the data");

    let url = format!("file://{}#open-all", page.display());
    let dom = headless(&chromium, &dir.join("profile-dom"))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    let dom_text = String::from_utf8_lossy(&dom.stdout);
    let log = String::from_utf8_lossy(&dom.stderr);
    assert!(dom.status.success(), "chromium failed: {log}");
    let body = dom_text
        .split("<body")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap_or_default();
    assert!(
        body.contains("data-rendered=\"yes\""),
        "the script did not finish: <body{body}>\n{log}"
    );
    assert!(!body.contains("data-errors"), "script errors: <body{body}>");
    assert!(
        body.contains("data-resources=\"0\""),
        "resources were loaded: <body{body}>"
    );
    // Console errors (an uncaught exception, a CSP violation, a failed
    // request) are logged by Chromium as CONSOLE lines.
    for line in log.lines() {
        assert!(
            !(line.contains("CONSOLE")
                || line.contains("Uncaught")
                || line.contains("Content Security Policy")),
            "console: {line}"
        );
    }
    // The plot elements, one set per function.
    assert_eq!(count(&dom_text, "<svg"), functions, "one plot per function");
    assert_eq!(count(&dom_text, "<polyline class=\"r\""), functions);
    assert_eq!(count(&dom_text, "<polyline class=\"p\""), functions);
    assert_eq!(count(&dom_text, "<circle class=\"peak\""), functions);
    assert!(
        count(&dom_text, "<line class=\"occ\"") >= functions,
        "occupancy steps"
    );
    assert!(dom_text.contains("class=\"loopbox\""), "loop sections");
    assert!(
        dom_text.contains("<table class=\"src\""),
        "source with pressure bars"
    );
    assert!(
        dom_text.contains("class=\"b\" style=\"width:"),
        "pressure bars"
    );
    assert!(
        dom_text.contains("<pre class=\"opt\""),
        "optimized beside original"
    );

    let shot = dir.join("report.png");
    let s = headless(&chromium, &dir.join("profile-shot"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    assert!(
        png.len() > 20_000,
        "a blank screenshot? {} bytes",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}
