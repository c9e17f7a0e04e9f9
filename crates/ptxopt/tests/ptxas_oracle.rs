//! ptxas 13.0.88 as the oracle for `ptxopt check`:
//! - every PTX file of test-data (families/, examples/, frontend/, syntax/ok/) is accepted by
//!   ptxas for its `.target`, and `check` reports no error on it;
//! - every file of test-data/rejected/ is rejected by ptxas, and `check` reports
//!   an error on it (the count we catch is printed; a floor guards regressions).
//!
//! Skips when ptxas is absent, unless `PTXOPT_REQUIRE_PTXAS` is set (as CI does).

use std::path::Path;

use ptx_test_support::{arch_for, ptx_files, ptxas, test_data};

/// Runs ptxas on a file; Ok on acceptance, Err(first error line) on rejection.
fn assemble(ptxas: &Path, path: &Path, text: &str) -> Result<(), String> {
    ptx_test_support::run_ptxas(ptxas, path, &arch_for(text))
        .map(|_| ())
        .map_err(|out| {
            out.lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .to_string()
        })
}

fn error_messages(text: &str) -> Vec<String> {
    let parse = ptx_syntax::parse(text);
    ptx_syntax::check::diagnostics(&parse)
        .into_iter()
        .filter(|d| d.severity == ptx_syntax::check::Severity::Error)
        .map(|d| {
            let lc = ptx_syntax::line_index::LineIndex::new(text).line_col(text, d.range.start());
            format!("{}:{}: {}", lc.line, lc.col, d.message)
        })
        .collect()
}

#[test]
fn accepted_files_have_no_errors() {
    let Some(ptxas) = ptxas() else { return };
    let mut problems = Vec::new();
    let mut count = 0;
    for sub in ["families", "examples", "frontend", "syntax/ok"] {
        for path in ptx_files(&test_data().join(sub)) {
            let text = std::fs::read_to_string(&path).unwrap();
            count += 1;
            if let Err(e) = assemble(&ptxas, &path, &text) {
                problems.push(format!("{}: ptxas rejects it: {e}", path.display()));
                continue;
            }
            for msg in error_messages(&text) {
                problems.push(format!("{}:{msg}", path.display()));
            }
        }
    }
    assert!(count >= 30, "only {count} files");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn rejected_files_are_reported() {
    let Some(ptxas) = ptxas() else { return };
    let files = ptx_files(&test_data().join("rejected"));
    let mut caught = 0;
    let mut missed = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(
            assemble(&ptxas, path, &text).is_err(),
            "{}: ptxas accepts it",
            path.display()
        );
        if error_messages(&text).is_empty() {
            let expect = text.lines().next().unwrap_or("").to_string();
            missed.push(format!("{} ({expect})", path.display()));
        } else {
            caught += 1;
        }
    }
    eprintln!(
        "check reports an error on {caught} of {} ptxas-rejected test-data files",
        files.len()
    );
    for m in &missed {
        eprintln!("  missed: {m}");
    }
    assert!(
        caught * 10 >= files.len() * 9,
        "only {caught} of {} caught:\n{}",
        files.len(),
        missed.join("\n")
    );
}

/// Writes `text` to a scratch file and asks ptxas (`-arch` from its
/// `.target`, at least sm_75) whether it accepts it.
fn ptxas_accepts(ptxas: &Path, name: &str, text: &str) -> bool {
    let dir = std::env::temp_dir().join(format!("ptxopt-oracle-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.ptx"));
    std::fs::write(&path, text).unwrap();
    let accepted = assemble(ptxas, &path, text).is_ok();
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&dir);
    accepted
}

/// The functions ptxas resolves itself without `-c` (check's `SYSCALLS`) and
/// some it does not: for each, a module that declares it `.extern` and calls
/// it; `check` reports an error exactly when ptxas rejects the module.
#[test]
fn extern_functions_agree_with_ptxas() {
    let Some(ptxas) = ptxas() else { return };
    let names = [
        // Resolved by ptxas 13.0.88.
        "vprintf",
        "malloc",
        "free",
        "__assertfail",
        "cudaGraphSetConditional",
        "cudaGraphLaunch",
        "cudaGraphKernelNodeSetEnabled",
        "cudaGraphKernelNodeSetGridDim",
        "cudaGraphKernelNodeSetParam",
        "cudaGraphKernelNodeUpdatesApply",
        // Not resolved (libcudadevrt, libc, or nothing).
        "cudaGetParameterBuffer",
        "cudaGetParameterBufferV2",
        "cudaLaunchDeviceV2",
        "cudaDeviceSynchronize",
        "cudaCGGetIntrinsicHandle",
        "__cudaCDP2GetParameterBufferV2",
        "cudaMalloc",
        "memcpy",
        "printf",
        "__assert_fail",
        "__nvvm_reflect",
    ];
    let mut disagree = Vec::new();
    for name in names {
        let text = format!(
            ".version 8.0\n.target sm_75\n.address_size 64\n\
             .extern .func (.param .b32 rv) {name} (.param .b64 a, .param .b64 b);\n\
             .visible .entry k(.param .u64 p)\n{{\n\
             .reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
             {{\n.param .b64 a;\n.param .b64 b;\n.param .b32 rv;\n\
             st.param.b64 [a], %rd1;\nst.param.b64 [b], %rd1;\n\
             call.uni (rv), {name}, (a, b);\nld.param.b32 %r1, [rv];\n}}\n\
             st.global.u32 [%rd1], %r1;\nret;\n}}\n"
        );
        let accepted = ptxas_accepts(&ptxas, name, &text);
        let errors = error_messages(&text);
        if accepted != errors.is_empty() {
            disagree.push(format!(
                "{name}: ptxas accepts: {accepted}, check: {errors:?}"
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

/// 32-bit addressing: modules with and without `.address_size 64`, for sm_75
/// and sm_90, each with one way of forming or using an address; `check`
/// reports an error exactly when ptxas rejects the module.
#[test]
fn addressing_width_agrees_with_ptxas() {
    let Some(ptxas) = ptxas() else { return };
    let cases = [
        ("st_global_r32", "st.global.u32 [%r1+4], %r2;"),
        ("ld_generic_r32", "ld.u32 %r3, [%r1];"),
        ("atom_global_r32", "atom.global.add.u32 %r3, [%r1], 1;"),
        ("red_global_b32", "red.global.add.u32 [%b1], 1;"),
        ("st_global_r64", "st.global.u32 [%rd1+4], %r2;"),
        ("st_shared_r32", "st.shared.u32 [%r1+4], %r2;"),
        ("ld_local_r32", "ld.local.u32 %r3, [%r1];"),
        ("ld_param_r32", "ld.param.u32 %r3, [%r1];"),
        ("cvta_to_global_u32", "cvta.to.global.u32 %r3, %r1;"),
        ("cvta_shared_u32", "cvta.shared.u32 %r3, %r1;"),
        ("cvta_global_u64", "cvta.global.u64 %rd2, %rd1;"),
        ("mov_u32_global_var", "mov.u32 %r3, gvar;"),
        ("mov_u64_global_var", "mov.u64 %rd2, gvar;"),
        ("mov_u32_shared_var", "mov.u32 %r3, svar;"),
        ("isspacep_r32", "isspacep.global %p1, %r1;"),
    ];
    let mut disagree = Vec::new();
    for (target, version) in [("sm_75", "7.0"), ("sm_90", "8.0")] {
        for address_size in ["", ".address_size 64\n"] {
            for (name, inst) in cases {
                let text = format!(
                    ".version {version}\n.target {target}\n{address_size}\
                     .global .u32 gvar;\n.shared .u32 svar;\n\
                     .visible .entry k(.param .u32 p32, .param .u64 p64)\n{{\n\
                     .reg .pred %p<2>;\n.reg .u32 %r<4>;\n.reg .b32 %b<2>;\n.reg .u64 %rd<3>;\n\
                     ld.param.u32 %r1, [p32];\nmov.b32 %b1, %r1;\nld.param.u64 %rd1, [p64];\n\
                     mov.u32 %r2, 7;\n{inst}\nret;\n}}\n"
                );
                let label = format!("{target}_{}_{name}", address_size.len());
                let accepted = ptxas_accepts(&ptxas, &label, &text);
                let errors = error_messages(&text);
                if accepted != errors.is_empty() {
                    disagree.push(format!(
                        "{label}: ptxas accepts: {accepted}, check: {errors:?}"
                    ));
                }
            }
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}
