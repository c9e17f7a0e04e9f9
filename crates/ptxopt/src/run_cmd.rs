//! `ptxopt run FILE --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`:
//! run one kernel on the CPU emulator (`ptx-emu`).
//!
//! One `--arg` per kernel parameter, in order:
//!
//! - scalars `TYPE:VALUE`: `u8`..`u64`, `s8`..`s64`, `b8`..`b64`, `f32`,
//!   `f64`; integers in decimal or `0x` hex (negative for `s`), floats as
//!   Rust parses them (`1.5`, `-inf`, `nan`) or as PTX bit patterns
//!   (`0f3FC00000`, `0d3FF8000000000000`);
//! - buffers `buf:TYPE:COUNT:INIT` with TYPE one of `u8`..`u64`, `s8`..`s64`
//!   (or `i8`..`i64`), `f32`, `f64` and INIT `zero`, `random` (seeded by
//!   `--seed`; floats in [-1, 1), integers over their whole range), `iota`
//!   (0, 1, 2, ...) or a fill value (`1.0`, `7`); `buf:TYPE:file=PATH` reads
//!   raw little-endian bytes (the element count is the file size over the
//!   element size);
//! - `ptr:VALUE`: a raw address (`ptr:0` is a null pointer).
//!
//! `--out DIR` writes, after a clean run, every buffer argument as
//! `DIR/argN.bin` (N = the parameter's index; raw little-endian bytes), its
//! contents before the launch as `DIR/argN.in.bin`, and `DIR/run.json`
//! describing the launch (kernel, grid, block, dynamic shared memory, each
//! argument) for `scripts/gpu_compare.py`. Every file is written atomically.
//!
//! Exit status: 0 after a clean run; 1 when the file has errors (printed as
//! `check` prints them) or the emulation fails (the error, with function,
//! PTX line and thread, on stderr); 2 on a usage or I/O error (bad `--arg`,
//! wrong number of arguments, unknown kernel, unreadable file).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use ptx_db::RootDatabase;
use ptx_emu::{Buffer, Dim3, ElemType, Emulator, KernelArg, LaunchConfig};
use ptx_ir::ir::Module;

use crate::atomic_write::write_atomically;
use crate::settings::UsageError;

/// Arguments of `ptxopt run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The PTX file.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// The kernel (`.entry`) to run.
    #[arg(long, value_name = "NAME")]
    kernel: String,

    /// Grid dimensions in CTAs: `X`, `X,Y` or `X,Y,Z`.
    #[arg(long, value_name = "X[,Y,Z]", default_value = "1")]
    grid: String,

    /// CTA dimensions in threads: `X`, `X,Y` or `X,Y,Z`.
    #[arg(long, value_name = "X[,Y,Z]")]
    block: String,

    /// Bytes of dynamic shared memory (`.extern .shared` arrays), as a
    /// launch's `sharedMemBytes`; also `--shared-bytes`.
    #[arg(
        long,
        alias = "shared-bytes",
        value_name = "BYTES",
        default_value_t = 0
    )]
    dynamic_smem: u32,

    /// One per kernel parameter, in order: `u32:7`, `s64:-3`, `f32:1.5`,
    /// `buf:f32:1024:random`, `buf:u32:256:zero`, `buf:f32:16:1.0`,
    /// `buf:i32:4:iota`, `buf:u8:file=PATH`, `ptr:0`.
    #[arg(long = "arg", value_name = "SPEC", allow_hyphen_values = true)]
    args: Vec<String>,

    /// Seed of `random` buffers.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Write every buffer after the run to DIR/argN.bin (inputs to
    /// DIR/argN.in.bin, the launch to DIR/run.json).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Limit of thread-instructions.
    #[arg(long, value_name = "N")]
    step_limit: Option<u64>,

    /// Most bytes of buffers (`--arg buf:...`, all together) and dynamic
    /// shared memory the run may allocate: a number of bytes with an
    /// optional K, M, G or T suffix (powers of 1024); 4 GiB by default.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MEMORY, value_parser = parse_bytes)]
    max_memory: u64,
}

/// The default of `--max-memory`, 4 GiB.
pub(crate) const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// Parses `--max-memory`: bytes, with an optional K/M/G/T (1024-based) suffix.
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown unit `{c}` in `{text}` (K, M, G or T)")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a number of bytes (such as 4096, 512M, 4G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` bytes is too large"))
}

/// A parsed `--arg`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ArgSpec {
    /// A scalar: its PTX type name and little-endian bytes.
    Scalar {
        ty: String,
        bytes: Vec<u8>,
    },
    Buffer(Buffer),
    Pointer(u64),
}

/// Runs `ptxopt run`.
pub fn run(args: RunArgs) -> ExitCode {
    match run_inner(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Reads and checks a PTX file with `db` (settings already applied): the
/// file's input, its text and its lowered module, or the exit status after
/// printing why not (diagnostics: 1; I/O: 2). The pipeline does not run.
pub(crate) fn load_checked(
    db: &mut RootDatabase,
    path: &Path,
) -> Result<(ptx_db::SourceFile, String, Module), ExitCode> {
    let display = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        eprintln!("ptxopt: error: cannot read `{display}`: {e}");
        ExitCode::from(2)
    })?;
    let text = crate::build_cmd::decode_utf8(&display, bytes).map_err(|rendered| {
        eprint!("{rendered}");
        ExitCode::from(1)
    })?;
    let file = db.set_file_text(path, text.as_str());
    let problems = ptx_db::file_problems(&*db, file);
    let mut out = String::new();
    crate::build_cmd::render_diagnostics(&mut out, &display, &text, &problems, false);
    eprint!("{out}");
    if ptx_db::any_error(&problems) {
        eprintln!("ptxopt: `{display}` has errors");
        return Err(ExitCode::from(1));
    }
    let (module, lower_errors) = ptx_ir::lower_module(ptx_db::parse(&*db, file));
    if let Some(e) = lower_errors.first() {
        eprintln!("ptxopt: `{display}`: {}", e.message);
        return Err(ExitCode::from(1));
    }
    Ok((file, text, module))
}

fn run_inner(args: &RunArgs) -> Result<ExitCode, UsageError> {
    let grid = parse_dim(&args.grid, "--grid")?;
    let block = parse_dim(&args.block, "--block")?;
    // `--max-memory` bounds the buffers and the dynamic shared memory
    // together: each buffer is parsed with what the others left.
    let mut left = args
        .max_memory
        .checked_sub(u64::from(args.dynamic_smem))
        .ok_or_else(|| {
            UsageError(format!(
                "--dynamic-smem {} is more than --max-memory, {} bytes",
                args.dynamic_smem, args.max_memory
            ))
        })?;
    let mut specs = Vec::with_capacity(args.args.len());
    for a in &args.args {
        let spec = parse_arg(a, args.seed, left)?;
        if let ArgSpec::Buffer(b) = &spec {
            left -= b.bytes.len() as u64;
        }
        specs.push(spec);
    }
    let mut db = RootDatabase::new();
    let (text, module) = match load_checked(&mut db, &args.file) {
        Ok((_, text, module)) => (text, module),
        Err(code) => return Ok(code),
    };
    let display = args.file.display();
    let mut emu = match Emulator::with_source(&module, &text) {
        Ok(emu) => emu,
        Err(e) => {
            eprintln!("ptxopt: error: {display}: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(limit) = args.step_limit {
        emu.set_step_limit(limit);
    }
    let kernels: Vec<String> = emu.kernels().iter().map(|s| s.to_string()).collect();
    if !kernels.contains(&args.kernel) {
        return Err(UsageError(format!(
            "no kernel `{}` in `{display}`; kernels: {}",
            args.kernel,
            if kernels.is_empty() {
                "none".to_string()
            } else {
                kernels.join(", ")
            }
        )));
    }
    let prog = emu.program();
    let kf = &prog.funcs[prog.by_name[&args.kernel] as usize];
    let params: Vec<(String, u64)> = kf
        .kparams
        .iter()
        .map(|p| (p.name.clone(), p.size))
        .collect();
    if specs.len() != params.len() {
        let list: Vec<String> = params
            .iter()
            .map(|(n, s)| format!("{n} ({s} bytes)"))
            .collect();
        return Err(UsageError(format!(
            "`{}` takes {} parameter{}, {} --arg given; parameters: {}",
            args.kernel,
            params.len(),
            crate::render::plural(params.len()),
            specs.len(),
            list.join(", ")
        )));
    }
    let ptr_bytes = u64::from(module.header.address_size.unwrap_or(64) / 8);
    let mut kargs = Vec::new();
    for (i, (spec, (name, size))) in specs.iter().zip(&params).enumerate() {
        kargs.push(match spec {
            ArgSpec::Scalar { ty, bytes } => {
                if bytes.len() as u64 != *size {
                    return Err(UsageError(format!(
                        "--arg {} (`{name}`): a {ty} is {} bytes, the parameter {size}",
                        i + 1,
                        bytes.len()
                    )));
                }
                KernelArg::Value(bytes.clone())
            }
            ArgSpec::Buffer(_) | ArgSpec::Pointer(_) if *size < ptr_bytes => {
                return Err(UsageError(format!(
                    "--arg {} (`{name}`): a pointer does not fit a {size}-byte parameter",
                    i + 1
                )));
            }
            ArgSpec::Buffer(b) => KernelArg::Buffer(b.clone()),
            ArgSpec::Pointer(p) => KernelArg::Pointer(*p),
        });
    }
    let inputs = kargs.clone();
    let cfg = LaunchConfig {
        grid,
        block,
        dynamic_smem: args.dynamic_smem,
    };
    let start = Instant::now();
    let result = emu.launch(&args.kernel, cfg, &mut kargs);
    let elapsed = start.elapsed();
    let stats = match result {
        Ok(stats) => stats,
        Err(e) => {
            eprintln!("ptxopt: error: {display}: emulation failed: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(dir) = &args.out {
        write_outputs(dir, args, cfg, &specs, &inputs, &kargs, &params)?;
    }
    eprintln!(
        "ran `{}` grid {} block {}: {} thread-instructions, {} warp-instructions, {:.1} ms",
        args.kernel,
        dim_text(grid),
        dim_text(block),
        stats.thread_instructions,
        stats.warp_instructions,
        elapsed.as_secs_f64() * 1e3
    );
    Ok(ExitCode::SUCCESS)
}

fn dim_text(d: Dim3) -> String {
    format!("{}x{}x{}", d.x, d.y, d.z)
}

fn write_outputs(
    dir: &Path,
    args: &RunArgs,
    cfg: LaunchConfig,
    specs: &[ArgSpec],
    inputs: &[KernelArg],
    outputs: &[KernelArg],
    params: &[(String, u64)],
) -> Result<(), UsageError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| UsageError(format!("cannot create `{}`: {e}", dir.display())))?;
    let write = |name: String, bytes: &[u8]| {
        let path = dir.join(name);
        write_atomically(&path, bytes)
            .map_err(|e| UsageError(format!("cannot write `{}`: {e}", path.display())))
    };
    let mut json = String::new();
    let _ = write!(
        json,
        "{{\n  \"file\": {},\n  \"kernel\": {},\n  \"grid\": [{}, {}, {}],\n  \"block\": [{}, {}, {}],\n  \"dynamic_smem\": {},\n  \"args\": [",
        ptx_knobs::json_string(&args.file.display().to_string()),
        ptx_knobs::json_string(&args.kernel),
        cfg.grid.x,
        cfg.grid.y,
        cfg.grid.z,
        cfg.block.x,
        cfg.block.y,
        cfg.block.z,
        cfg.dynamic_smem
    );
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        let name = ptx_knobs::json_string(&params[i].0);
        match spec {
            ArgSpec::Scalar { ty, bytes } => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                let _ = write!(
                    json,
                    "\n    {{\"index\": {i}, \"name\": {name}, \"kind\": \"scalar\", \"type\": {}, \"bytes_hex\": \"{hex}\"}}",
                    ptx_knobs::json_string(ty)
                );
            }
            ArgSpec::Pointer(p) => {
                let _ = write!(
                    json,
                    "\n    {{\"index\": {i}, \"name\": {name}, \"kind\": \"pointer\", \"value\": {p}}}"
                );
            }
            ArgSpec::Buffer(b) => {
                let (Some(before), Some(after)) = (inputs[i].buffer(), outputs[i].buffer()) else {
                    continue;
                };
                write(format!("arg{i}.in.bin"), &before.bytes)?;
                write(format!("arg{i}.bin"), &after.bytes)?;
                let _ = write!(
                    json,
                    "\n    {{\"index\": {i}, \"name\": {name}, \"kind\": \"buffer\", \"elem\": \"{}\", \"count\": {}, \"input\": \"arg{i}.in.bin\", \"output\": \"arg{i}.bin\"}}",
                    elem_name(b.ty),
                    b.bytes.len() / b.ty.size()
                );
            }
        }
    }
    json.push_str("\n  ]\n}\n");
    write("run.json".to_string(), json.as_bytes())
}

fn elem_name(ty: ElemType) -> &'static str {
    match ty {
        ElemType::U8 => "u8",
        ElemType::U16 => "u16",
        ElemType::U32 => "u32",
        ElemType::U64 => "u64",
        ElemType::I8 => "s8",
        ElemType::I16 => "s16",
        ElemType::I32 => "s32",
        ElemType::I64 => "s64",
        ElemType::F16 => "f16",
        ElemType::BF16 => "bf16",
        ElemType::F32 => "f32",
        ElemType::F64 => "f64",
        ElemType::Bytes => "b8",
    }
}

/// `X`, `X,Y` or `X,Y,Z`, each at least 1.
pub(crate) fn parse_dim(text: &str, option: &str) -> Result<Dim3, UsageError> {
    let bad = || {
        UsageError(format!(
            "{option} {text}: expected `X`, `X,Y` or `X,Y,Z` with positive integers"
        ))
    };
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if parts.is_empty() || parts.len() > 3 || parts.contains(&0) {
        return Err(bad());
    }
    let get = |i: usize| parts.get(i).copied().unwrap_or(1);
    Ok(Dim3::new(get(0), get(1), get(2)))
}

/// Element type of a buffer type name, and whether it is a float.
fn elem_type(name: &str) -> Option<ElemType> {
    Some(match name {
        "u8" | "b8" => ElemType::U8,
        "u16" | "b16" => ElemType::U16,
        "u32" | "b32" => ElemType::U32,
        "u64" | "b64" => ElemType::U64,
        "s8" | "i8" => ElemType::I8,
        "s16" | "i16" => ElemType::I16,
        "s32" | "i32" => ElemType::I32,
        "s64" | "i64" => ElemType::I64,
        "f32" => ElemType::F32,
        "f64" => ElemType::F64,
        _ => return None,
    })
}

const TYPES: &str = "u8, u16, u32, u64, s8, s16, s32, s64, b8..b64, f32, f64";

/// Little-endian bytes of `value` as an element of `ty`.
fn scalar_bytes(ty: ElemType, value: &str) -> Option<Vec<u8>> {
    let size = ty.size();
    match ty {
        ElemType::F32 => {
            let bits = match value
                .strip_prefix("0f")
                .or_else(|| value.strip_prefix("0F"))
            {
                Some(hex) if hex.len() == 8 => u32::from_str_radix(hex, 16).ok()?,
                _ => value.parse::<f32>().ok()?.to_bits(),
            };
            Some(bits.to_le_bytes().to_vec())
        }
        ElemType::F64 => {
            let bits = match value
                .strip_prefix("0d")
                .or_else(|| value.strip_prefix("0D"))
            {
                Some(hex) if hex.len() == 16 => u64::from_str_radix(hex, 16).ok()?,
                _ => value.parse::<f64>().ok()?.to_bits(),
            };
            Some(bits.to_le_bytes().to_vec())
        }
        _ => {
            let signed = matches!(
                ty,
                ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64
            );
            let (neg, digits) = match value.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, value),
            };
            let magnitude: u128 = match digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                Some(hex) => u128::from_str_radix(hex, 16).ok()?,
                None => digits.parse().ok()?,
            };
            let bits = size as u32 * 8;
            let v: i128 = if neg {
                if !signed {
                    return None;
                }
                -(magnitude as i128)
            } else {
                magnitude as i128
            };
            let (min, max) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < min || v > max {
                return None;
            }
            Some(v.to_le_bytes()[..size].to_vec())
        }
    }
}

/// `4294967296` → `4 GiB`, `1536` → `1.5 KiB`.
pub(crate) fn human_bytes(n: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} bytes")
    } else if v.fract() == 0.0 {
        format!("{v} {}", units[u])
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// Parses one `--arg`. `seed` seeds `random` buffers (mixed with the text, so
/// that two random buffers differ).
/// `max_memory` bounds a buffer's bytes (`--max-memory`): a larger one is an
/// error naming its size and the limit, not an allocation failure.
pub(crate) fn parse_arg(text: &str, seed: u64, max_memory: u64) -> Result<ArgSpec, UsageError> {
    let bad = |why: String| UsageError(format!("--arg {text}: {why}"));
    let too_big = |what: String, bytes: u128| {
        bad(format!(
            "{what} is {bytes} bytes ({}), more than --max-memory allows, {max_memory} bytes ({}); \
             raise --max-memory or use a smaller buffer",
            human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX)),
            human_bytes(max_memory)
        ))
    };
    if let Some(rest) = text.strip_prefix("ptr:") {
        let bytes = scalar_bytes(ElemType::U64, rest)
            .ok_or_else(|| bad("expected an address such as `ptr:0`".into()))?;
        return Ok(ArgSpec::Pointer(u64::from_le_bytes(
            bytes.try_into().expect("8 bytes"),
        )));
    }
    if let Some(rest) = text.strip_prefix("buf:") {
        let (ty_name, rest) = rest
            .split_once(':')
            .ok_or_else(|| bad("expected `buf:TYPE:COUNT:INIT` or `buf:TYPE:file=PATH`".into()))?;
        let ty = elem_type(ty_name)
            .ok_or_else(|| bad(format!("unknown element type `{ty_name}` ({TYPES})")))?;
        if let Some(path) = rest.strip_prefix("file=") {
            if let Ok(meta) = std::fs::metadata(path) {
                if meta.len() > max_memory {
                    return Err(too_big(format!("`{path}`"), meta.len().into()));
                }
            }
            let bytes =
                std::fs::read(path).map_err(|e| bad(format!("cannot read `{path}`: {e}")))?;
            if bytes.len() % ty.size() != 0 {
                return Err(bad(format!(
                    "{} bytes is not a whole number of {ty_name} elements",
                    bytes.len()
                )));
            }
            return Ok(ArgSpec::Buffer(Buffer::from_bytes(ty, bytes)));
        }
        let (count, init) = rest
            .split_once(':')
            .ok_or_else(|| bad("expected `buf:TYPE:COUNT:INIT`".into()))?;
        let count: usize = count
            .parse()
            .map_err(|_| bad(format!("bad element count `{count}`")))?;
        let size = ty.size();
        let total = match count.checked_mul(size) {
            Some(total) if total as u64 <= max_memory => total,
            _ => {
                return Err(too_big(
                    format!("a buffer of {count} {ty_name}"),
                    count as u128 * size as u128,
                ))
            }
        };
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(total).map_err(|_| {
            bad(format!(
                "cannot allocate {total} bytes ({}) for the buffer",
                human_bytes(total as u64)
            ))
        })?;
        match init {
            "zero" => bytes.resize(total, 0),
            "iota" => {
                for i in 0..count {
                    let v = match ty {
                        ElemType::F32 => (i as f32).to_bits() as u64,
                        ElemType::F64 => (i as f64).to_bits(),
                        _ => i as u64,
                    };
                    bytes.extend_from_slice(&v.to_le_bytes()[..size]);
                }
            }
            "random" => {
                let mut h = seed;
                for b in text.bytes() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
                let mut rng = ptx_emu::diff::Rng(h);
                for _ in 0..count {
                    let r = rng.next_u64();
                    let v = match ty {
                        ElemType::F32 => {
                            (((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0).to_bits() as u64
                        }
                        ElemType::F64 => {
                            (((r >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0).to_bits()
                        }
                        _ => r,
                    };
                    bytes.extend_from_slice(&v.to_le_bytes()[..size]);
                }
            }
            value => {
                let one = scalar_bytes(ty, value).ok_or_else(|| {
                    bad(format!(
                        "INIT must be `zero`, `random`, `iota` or a {ty_name} value, not `{value}`"
                    ))
                })?;
                for _ in 0..count {
                    bytes.extend_from_slice(&one);
                }
            }
        }
        return Ok(ArgSpec::Buffer(Buffer::from_bytes(ty, bytes)));
    }
    let (ty_name, value) = text
        .split_once(':')
        .ok_or_else(|| bad("expected `TYPE:VALUE`, `buf:...` or `ptr:ADDRESS`".into()))?;
    let ty =
        elem_type(ty_name).ok_or_else(|| bad(format!("unknown type `{ty_name}` ({TYPES})")))?;
    let bytes =
        scalar_bytes(ty, value).ok_or_else(|| bad(format!("bad {ty_name} value `{value}`")))?;
    Ok(ArgSpec::Scalar {
        ty: ty_name.to_string(),
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(text: &str) -> Vec<u8> {
        match parse_arg(text, 1, DEFAULT_MAX_MEMORY).unwrap() {
            ArgSpec::Scalar { bytes, .. } => bytes,
            other => panic!("{other:?}"),
        }
    }

    fn buffer(text: &str) -> Buffer {
        match parse_arg(text, 1, DEFAULT_MAX_MEMORY).unwrap() {
            ArgSpec::Buffer(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(scalar("u32:7"), 7u32.to_le_bytes());
        assert_eq!(scalar("s64:-3"), (-3i64).to_le_bytes());
        assert_eq!(scalar("u64:0x10"), 16u64.to_le_bytes());
        assert_eq!(scalar("f32:1.5"), 1.5f32.to_le_bytes());
        assert_eq!(scalar("f32:0f3FC00000"), 1.5f32.to_le_bytes());
        assert_eq!(scalar("f64:-0.25"), (-0.25f64).to_le_bytes());
        assert_eq!(scalar("s8:-128"), [0x80]);
        for bad in [
            "u32:-1", "u8:256", "s8:128", "x32:1", "u32", "f32:abc", "u32:",
        ] {
            assert!(parse_arg(bad, 1, DEFAULT_MAX_MEMORY).is_err(), "{bad}");
        }
    }

    #[test]
    fn buffers() {
        assert_eq!(buffer("buf:u32:3:zero").bytes, vec![0; 12]);
        assert_eq!(buffer("buf:i32:4:iota").to_vec::<i32>(), vec![0, 1, 2, 3]);
        assert_eq!(buffer("buf:f32:2:1.0").to_vec::<f32>(), vec![1.0, 1.0]);
        let r = buffer("buf:f32:64:random").to_vec::<f32>();
        assert!(r.iter().all(|v| (-1.0..1.0).contains(v)));
        assert_eq!(r, buffer("buf:f32:64:random").to_vec::<f32>());
        for bad in [
            "buf:f32",
            "buf:q32:4:zero",
            "buf:u32:x:zero",
            "buf:u32:4:what",
        ] {
            assert!(parse_arg(bad, 1, DEFAULT_MAX_MEMORY).is_err(), "{bad}");
        }
        assert!(matches!(
            parse_arg("ptr:0", 1, DEFAULT_MAX_MEMORY),
            Ok(ArgSpec::Pointer(0))
        ));
    }

    #[test]
    fn buffers_beyond_the_memory_limit_are_errors() {
        // 99999999999999 f32 elements: 400 TB, well past the default limit.
        let Err(UsageError(e)) = parse_arg("buf:f32:99999999999999:zero", 1, DEFAULT_MAX_MEMORY)
        else {
            panic!("accepted");
        };
        assert_eq!(
            e,
            "--arg buf:f32:99999999999999:zero: a buffer of 99999999999999 f32 is \
             399999999999996 bytes (363.8 TiB), more than --max-memory allows, 4294967296 \
             bytes (4 GiB); raise --max-memory or use a smaller buffer"
        );
        // count * size overflows usize: still the same error, no panic.
        let e = parse_arg("buf:f64:18446744073709551615:iota", 1, DEFAULT_MAX_MEMORY);
        assert!(matches!(e, Err(UsageError(m)) if m.contains("147573952589676412920")));
        assert!(parse_arg("buf:u8:1025:zero", 1, 1024).is_err());
        assert_eq!(buffer("buf:u8:1024:zero").bytes.len(), 1024);
        assert!(parse_arg("buf:u8:1024:zero", 1, 1024).is_ok());
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("4G"), Ok(DEFAULT_MAX_MEMORY));
        assert_eq!(parse_bytes("2t"), Ok(2 << 40));
        for bad in ["", "G", "4X", "-1", "99999999999T"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(100), "100 bytes");
    }

    #[test]
    fn dims() {
        assert_eq!(parse_dim("4", "--grid").unwrap(), Dim3::x(4));
        assert_eq!(parse_dim("4,2", "--grid").unwrap(), Dim3::xy(4, 2));
        assert_eq!(parse_dim("1,2,3", "--grid").unwrap(), Dim3::new(1, 2, 3));
        for bad in ["", "0", "1,2,3,4", "a", "-1"] {
            assert!(parse_dim(bad, "--grid").is_err(), "{bad}");
        }
    }
}
