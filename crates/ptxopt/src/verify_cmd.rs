//! `ptxopt verify FILE`: build the file through the `ptxopt build` pipeline
//! (same settings: `ptxopt.toml`, `--config`, `--arch`, `--knob`,
//! `--named-phases`), then run each kernel of the input and of the output on
//! the CPU emulator with the same generated inputs and compare every buffer
//! ([`ptx_emu::diff`] documents the inputs, launch shapes and comparison).
//!
//! Prints on stdout, per kernel, its static instruction count before and
//! after, then one line per launch shape with the dynamic thread-instruction
//! count (instructions executed, summed over the threads) before and after:
//!
//! ```text
//! saxpy.ptx: saxpy: 20 -> 20 instructions
//! saxpy.ptx: saxpy grid 1x1x1 block 32x1x1 (saxpy_param_0=32 saxpy_param_1=1.5): equal (640 -> 640 thread-instructions)
//! ```
//!
//! and a summary on stderr. Exit status: 0 when no kernel differs or fails
//! (kernels the emulator cannot run are reported as `skipped`, not as equal);
//! 1 on a difference, an emulation error or a file with errors; 2 on a usage
//! or I/O error (bad setting, no kernel of that name).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ptx_db::RootDatabase;
use ptx_emu::diff::{self, Outcome, Side, Verdict, VerifyOptions};
use ptx_ir::ir::FunctionKind;

use crate::settings::{self, UsageError};

/// Arguments of `ptxopt verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The PTX file.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Check only this kernel (default: every `.entry` with a body).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,

    #[command(flatten)]
    settings: crate::cli::SettingsArgs,

    /// Seed of the input generator.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// 32-bit words per buffer (default: max(total threads * 4, 4096)).
    #[arg(long, value_name = "N")]
    elements: Option<usize>,

    /// Bytes of dynamic shared memory per CTA (default: the target's
    /// maximum per block less the kernel's static shared memory).
    #[arg(long, value_name = "BYTES")]
    shared_bytes: Option<u32>,

    /// ULP tolerance for f32 results of kernels with `.approx` instructions.
    #[arg(long, value_name = "N", default_value_t = 2)]
    approx_ulps: u32,

    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `ptxopt verify`.
pub fn run(args: VerifyArgs) -> ExitCode {
    match verify(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn verify(args: &VerifyArgs) -> Result<ExitCode, UsageError> {
    let cli = args.settings.cli_settings()?;
    let config_path = settings::config_path_for(&args.file, args.settings.config.as_deref());
    let mut db = RootDatabase::new();
    settings::load_and_apply(&mut db, config_path.as_deref(), &cli)?;
    let (file, text, original) = match crate::run_cmd::load_checked(&mut db, &args.file) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let optimized_text = ptx_db::file_ptx(&db, file).clone();
    let display = args.file.display().to_string();
    let (optimized, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&optimized_text));
    if let Some(e) = errors.first() {
        eprintln!(
            "ptxopt: `{display}`: the optimized PTX does not lower: {}",
            e.message
        );
        return Ok(ExitCode::from(1));
    }
    let kernels: Vec<String> = original
        .functions
        .iter()
        .filter(|f| f.sig.kind == FunctionKind::Entry && !f.layout.is_empty())
        .map(|f| f.sig.name.clone())
        .collect();
    let selected: Vec<String> = match &args.kernel {
        Some(k) if kernels.contains(k) => vec![k.clone()],
        Some(k) => {
            return Err(UsageError(format!(
                "no kernel `{k}` in `{display}`; kernels: {}",
                if kernels.is_empty() {
                    "none".to_string()
                } else {
                    kernels.join(", ")
                }
            )))
        }
        None => kernels,
    };
    let opts = VerifyOptions {
        seed: args.seed,
        elements: args.elements,
        approx_ulps: args.approx_ulps,
        shared_bytes: args.shared_bytes,
        ..VerifyOptions::default()
    };
    let (mut equal, mut different, mut skipped, mut failed) = (0, 0, 0, 0);
    let (mut launches, mut stopped) = (0, 0);
    let progress = crate::progress::Progress::new(
        "verifying",
        "kernels",
        selected.len(),
        args.quiet.quiet,
        false,
    );
    for kernel in &selected {
        progress.start(kernel);
        let mut lines = String::new();
        let report = diff::verify_sources(
            Side {
                module: &original,
                text: Some(&text),
            },
            Side {
                module: &optimized,
                text: Some(&optimized_text),
            },
            kernel,
            &opts,
        );
        if let Some(problem) = &report.problem {
            let _ = writeln!(lines, "{display}: {kernel}: error: {problem}");
        } else {
            let _ = writeln!(
                lines,
                "{display}: {kernel}: {} -> {} instructions",
                static_count(&original, kernel),
                static_count(&optimized, kernel)
            );
        }
        for run in &report.runs {
            let shape = format!(
                "grid {}x{}x{} block {}x{}x{}",
                run.grid.x, run.grid.y, run.grid.z, run.block.x, run.block.y, run.block.z
            );
            let what = match &run.outcome {
                Outcome::Equal {
                    original,
                    optimized,
                } => format!("equal ({original} -> {optimized} thread-instructions)"),
                Outcome::BothStopped { error } => {
                    stopped += 1;
                    format!("equal (both stop at {error})")
                }
                Outcome::Different(d) => format!("DIFFERENT: {d}"),
                Outcome::OutputDifferent {
                    original,
                    optimized,
                } => format!(
                    "DIFFERENT: printf output: original `{original}`, optimized `{optimized}`"
                ),
                Outcome::Skipped(why) => format!("skipped ({why})"),
                Outcome::Error { which, error } => {
                    format!("DIFFERENT: the {which} kernel stops, the other not there: {error}")
                }
            };
            launches += 1;
            let scalars = if run.scalars.is_empty() {
                String::new()
            } else {
                format!(" ({})", run.scalars)
            };
            let _ = writeln!(lines, "{display}: {kernel} {shape}{scalars}: {what}");
        }
        progress.suspend(|| print!("{lines}"));
        progress.tick();
        match report.verdict() {
            Verdict::Equal => equal += 1,
            Verdict::Skipped => skipped += 1,
            Verdict::Different => different += 1,
            Verdict::Error => failed += 1,
        }
    }
    progress.finish();
    eprintln!(
        "verified {} kernel{}: {equal} equal, {different} different, {skipped} skipped, {failed} with errors",
        selected.len(),
        crate::render::plural(selected.len())
    );
    if stopped > 0 {
        eprintln!(
            "{stopped} of {launches} launch{} equal because both kernels stop at the same point",
            if launches == 1 { "" } else { "es" }
        );
    }
    Ok(if different + failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Instructions in the body of `kernel` (0 when there is none).
fn static_count(module: &ptx_ir::ir::Module, kernel: &str) -> usize {
    module
        .functions
        .iter()
        .find(|f| f.sig.name == kernel)
        .map_or(0, |f| f.insts_in_order().count())
}
