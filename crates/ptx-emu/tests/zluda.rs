//! The ZLUDA `spirv_run` kernels of the shared corpus, run as that project
//! runs them on a GPU (see the corpus README): every runnable kernel must
//! produce the listed output bit for bit (any NaN matches a NaN), every
//! `compile_only` kernel must parse, lower and be re-emitted. The 32-bit ABI
//! variants (`32/`) of the `test_ptx_with_32` entries run too.

mod common;

use ptx_emu::{Buffer, Dim3, ElemType, Emulator, KernelArg, LaunchConfig};

use common::{corpus_dir, parse_json, Json};

/// The pass count must not drop below this (the figure when the test was
/// last blessed; raise it when more kernels pass).
const MIN_PASSED: usize = 176;
/// Likewise, counting the kernels that pass with a correction of [`FIXES`].
const MIN_PASSED_CORRECTED: usize = 182;

fn elem(ty: &str) -> (ElemType, usize, bool) {
    match ty {
        "u8" => (ElemType::U8, 1, false),
        "u16" => (ElemType::U16, 2, false),
        "i16" => (ElemType::I16, 2, false),
        "f16" => (ElemType::F16, 2, true),
        "u32" => (ElemType::U32, 4, false),
        "i32" => (ElemType::I32, 4, false),
        "f32" => (ElemType::F32, 4, true),
        "u64" => (ElemType::U64, 8, false),
        "i64" => (ElemType::I64, 8, false),
        "f64" => (ElemType::F64, 8, true),
        other => panic!("element type {other}"),
    }
}

fn is_nan(bits: u64, size: usize) -> bool {
    match size {
        2 => bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0,
        4 => f32::from_bits(bits as u32).is_nan(),
        8 => f64::from_bits(bits).is_nan(),
        _ => false,
    }
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap()
}

/// A correction of how the manifest says to run a test.
struct Fix {
    test: &'static str,
    /// Element types of the input and output arrays, when the manifest's are
    /// wrong.
    input: Option<&'static str>,
    output: Option<&'static str>,
    /// Threads, when the manifest's count makes the kernel overrun buffers.
    threads: Option<u32>,
    reason: &'static str,
}

const UNTYPED: &str = "ZLUDA's test (ptx/src/test/spirv_run/mod.rs) writes the array as untyped \
integer literals, which Rust types as i32; the manifest says u64";
const ONE_WARP: &str = "the kernel is written for one warp: launched with 64 threads as listed, \
threads 32-63 access past the end of the buffers (the GPU does not fault on small overruns of \
its allocations; the emulator does), so it is checked with 32 threads";

const ONE_WARP_UNTYPED: &str = "the kernel is written for one warp (with 64 threads, threads \
32-63 write past the end of the output), and ZLUDA's test writes the output as untyped integer \
literals (i32) where the manifest says u64: checked with 32 threads and u32 elements";

/// The documented corrections.
const FIXES: &[Fix] = &[
    Fix {
        test: "fma_bf16x2",
        input: Some("u32"),
        output: Some("u32"),
        threads: None,
        reason: UNTYPED,
    },
    Fix {
        test: "fma_f16x2",
        input: Some("u32"),
        output: None,
        threads: None,
        reason: UNTYPED,
    },
    Fix {
        test: "vshr_clamp",
        input: None,
        output: Some("u32"),
        threads: None,
        reason: UNTYPED,
    },
    Fix {
        test: "ldmatrix",
        input: None,
        output: None,
        threads: Some(32),
        reason: ONE_WARP,
    },
    Fix {
        test: "ldmatrix_trans",
        input: None,
        output: Some("u32"),
        threads: Some(32),
        reason: ONE_WARP_UNTYPED,
    },
    Fix {
        test: "mma_m16n8k16_f32_bf16_bf16_f32_2x",
        input: None,
        output: None,
        threads: Some(32),
        reason: ONE_WARP,
    },
];

/// Runs one test; Ok(()) when it passes, Err(reason) otherwise.
fn run(text: &str, entry: &Json, fix: Option<&Fix>) -> Result<(), String> {
    let mut emu = Emulator::from_ptx(text).map_err(|e| format!("prepare: {e}"))?;
    let kernel = emu
        .kernels()
        .first()
        .map(|k| k.to_string())
        .ok_or("no kernel")?;
    let out = entry.get("output");
    let out_ty = fix
        .and_then(|f| f.output)
        .unwrap_or_else(|| out.get("type").as_str().unwrap());
    let (oty, osize, ofloat) = elem(out_ty);
    let expected: Vec<u64> = out
        .get("bits")
        .as_arr()
        .iter()
        .map(|b| hex(b.as_str().unwrap()))
        .collect();
    let input = entry.get("input");
    let out_buf = Buffer::zeroed(oty, expected.len());
    let nparams = kernel_params(text);
    let mut args = match input {
        Json::Null => {
            if nparams == 1 {
                vec![KernelArg::Buffer(out_buf)]
            } else {
                vec![KernelArg::BufferOf(1), KernelArg::Buffer(out_buf)]
            }
        }
        _ => {
            let in_ty = fix
                .and_then(|f| f.input)
                .unwrap_or_else(|| input.get("type").as_str().unwrap());
            let (ity, isize, _) = elem(in_ty);
            let mut bytes = Vec::new();
            for b in input.get("bits").as_arr() {
                bytes.extend_from_slice(&hex(b.as_str().unwrap()).to_le_bytes()[..isize]);
            }
            vec![
                KernelArg::Buffer(Buffer::from_bytes(ity, bytes)),
                KernelArg::Buffer(out_buf),
            ]
        }
    };
    let threads = fix
        .and_then(|f| f.threads)
        .unwrap_or(entry.get("threads").as_u64().unwrap_or(1) as u32);
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(threads),
        dynamic_smem: 1024,
    };
    emu.launch(&kernel, cfg, &mut args)
        .map_err(|e| format!("launch: {e}"))?;
    let got = args.last().unwrap().buffer().unwrap();
    let mut mismatches = Vec::new();
    for (i, (&want, chunk)) in expected.iter().zip(got.bytes.chunks(osize)).enumerate() {
        let mut b = [0u8; 8];
        b[..osize].copy_from_slice(chunk);
        let have = u64::from_le_bytes(b);
        let ok = have == want || (ofloat && is_nan(want, osize) && is_nan(have, osize));
        if !ok {
            mismatches.push(format!("[{i}] {have:#x} != {want:#x}"));
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        let n = mismatches.len();
        mismatches.truncate(4);
        Err(format!("{n} mismatches: {}", mismatches.join(", ")))
    }
}

/// Number of parameters of the (only) kernel.
fn kernel_params(text: &str) -> usize {
    let parse = ptx_syntax::parse(text);
    let (module, _) = ptx_ir::lower_module(&parse);
    module
        .functions
        .iter()
        .find(|f| f.sig.kind == ptx_ir::ir::FunctionKind::Entry)
        .map_or(0, |f| f.sig.params.len())
}

fn compile_only(text: &str) -> Result<(), String> {
    let parse = ptx_syntax::parse(text);
    if let Some(e) = parse.errors().first() {
        return Err(format!("syntax error {e:?}"));
    }
    let (module, errors) = ptx_ir::lower_module(&parse);
    if let Some(e) = errors.first() {
        return Err(format!("lowering: {e}"));
    }
    let emitted = ptx_ir::emit_module(&module);
    Emulator::new(&module).map_err(|e| format!("prepare: {e}"))?;
    if !ptx_syntax::parse(&emitted).errors().is_empty() {
        return Err("the re-emitted text does not parse".into());
    }
    Ok(())
}

#[test]
fn zluda_spirv_run() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    let dir = corpus.join("zluda/spirv_run");
    let manifest =
        parse_json(&std::fs::read_to_string(corpus.join("zluda/spirv_run.json")).unwrap());
    let (mut passed, mut fixed, mut compiled, mut passed32) = (0, 0, 0, 0);
    let mut exceptions = Vec::new();
    for entry in manifest.as_arr() {
        let name = entry.get("test").as_str().unwrap().to_string();
        let file = entry.get("ptx").as_str().unwrap();
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        if entry.get("compile_only").is_true() {
            match compile_only(&text) {
                Ok(()) => compiled += 1,
                Err(e) => exceptions.push(format!("{name} (compile only): {e}")),
            }
            continue;
        }
        match run(&text, entry, None) {
            Ok(()) => passed += 1,
            Err(e) => match FIXES.iter().find(|f| f.test == name) {
                Some(fix) => match run(&text, entry, Some(fix)) {
                    Ok(()) => {
                        fixed += 1;
                        exceptions.push(format!(
                            "{name}: passes once corrected: {}. As listed: {e}",
                            fix.reason
                        ));
                    }
                    Err(e2) => {
                        exceptions.push(format!("{name}: {e2} (corrected); {e} (as listed)"))
                    }
                },
                None => exceptions.push(format!("{name}: {e}")),
            },
        }
        if entry.get("macro").as_str() == Some("test_ptx_with_32") {
            let path = dir.join("32").join(file);
            if let Ok(text32) = std::fs::read_to_string(&path) {
                match run(&text32, entry, None) {
                    Ok(()) => passed32 += 1,
                    Err(e) => exceptions.push(format!("32/{name}: {e}")),
                }
            }
        }
    }
    let runnable = manifest
        .as_arr()
        .iter()
        .filter(|e| !e.get("compile_only").is_true())
        .count();
    eprintln!(
        "zluda spirv_run: {passed} of {runnable} runnable kernels pass as listed, {fixed} more with a documented correction of the manifest; {compiled} compile-only kernels prepare; {passed32} 32-bit variants pass"
    );
    for e in &exceptions {
        eprintln!("  exception: {e}");
    }
    assert!(
        passed >= MIN_PASSED && passed + fixed >= MIN_PASSED_CORRECTED,
        "{passed} kernels pass ({fixed} more corrected), fewer than the {MIN_PASSED} ({MIN_PASSED_CORRECTED}) of the last blessing"
    );
}

/// Every module of the corpus (the zluda files, the 32-bit ones, the large
/// deal.II module) prepares: layout and decoding never fail, and the deal.II
/// module has no instruction the emulator lacks.
#[test]
fn corpus_modules_prepare() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["zluda/spirv_run", "zluda/spirv_run/32", "dealii"] {
        for e in std::fs::read_dir(corpus.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                files.push(p);
            }
        }
    }
    files.sort();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        let emu = Emulator::with_source(&module, &text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if path.to_string_lossy().contains("dealii") {
            let unsupported: Vec<String> = emu
                .program()
                .funcs
                .iter()
                .flat_map(|f| &f.code)
                .filter_map(|i| match &i.op {
                    ptx_emu::op::Op::Unsupported(m) => Some(m.to_string()),
                    _ => None,
                })
                .collect();
            assert!(unsupported.is_empty(), "{unsupported:?}");
            assert_eq!(emu.kernels().len(), 50);
        }
    }
    assert!(files.len() > 190);
}
