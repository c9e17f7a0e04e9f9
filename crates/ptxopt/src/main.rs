//! `ptxopt`: the command-line entry point.
//!
//! Subcommands:
//! - `check FILE...`: parse and check PTX files; print diagnostics rustc-style.
//! - `build FILE...`: check, lower, run the phase pipeline (the `ptx-db`
//!   database), write optimized PTX atomically.
//! - `knobs`: print the knob registry.
//! - `analyze FILE`: loops, register pressure, latency classes per function.
//! - `run FILE --kernel K ...`: run a kernel on the CPU emulator.
//! - `verify FILE`: compare each kernel before and after the pipeline on the
//!   emulator.
//!
//! Exit codes (stable, for scripts): 0 no errors; 1 errors in the input; 2 usage
//! or I/O errors.

mod analyze_cmd;
mod atomic_write;
mod build_cmd;
mod check_cmd;
mod cli;
mod diff_cmd;
mod explain_cmd;
mod inputs;
mod knobs_cmd;
mod phase_list;
mod progress;
mod remarks_fmt;
mod render;
mod report_cmd;
mod run_cmd;
mod settings;
mod verify_cmd;
mod watch_cmd;

use std::process::ExitCode;

/// Syntax trees and IR are allocation-heavy: mimalloc takes ~13% fewer
/// instructions per parse than glibc malloc and frees trees far faster
/// (`cargo xtask bench-parse` uses it too). Built with its `no_thp`
/// feature: where transparent huge pages are `always` on, mimalloc's arenas
/// otherwise fault in 2 MiB pages the kernel zeroes, up to a quarter of a
/// cold build of dealii and 30 MiB more resident memory.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

/// ptxopt: an incremental optimizing compiler and language server for NVIDIA PTX.
#[derive(Parser, Debug)]
#[command(name = "ptxopt", version, about, long_about = None, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXIT_CODES: &str =
    "Exit status: 0 = no errors, 1 = errors in the input, 2 = usage or I/O error.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and check PTX files, printing diagnostics as `path:line:col: error: message`
    /// followed by the source line with a caret.
    ///
    /// Checks: syntax; undeclared registers, labels and symbols; duplicate
    /// declarations; unknown instructions and modifiers; operand count and kind;
    /// register types against the instruction type; features that need a newer
    /// `.target` or `.version`.
    #[command(after_help = EXIT_CODES)]
    Check(check_cmd::CheckArgs),

    /// Optimize PTX files: check them, lower each function to IR, run the
    /// phase pipeline (cicc machine passes, then ptxas phases 3 to 88) and
    /// write the result as PTX.
    ///
    /// A file with errors (what `ptxopt check` reports) is not written, and
    /// an existing output is left as it was; outputs are written atomically
    /// (temporary file, fsync, rename). Files are built in parallel; the
    /// output does not depend on the number of threads.
    ///
    /// Target and knobs come from `ptxopt.toml` beside each input (or
    /// `--config`), overridden by `--arch` and `--knob`:
    ///
    ///     target = "sm_90"
    ///     [knobs]
    ///     LoopUnroll = false
    ///
    /// The implemented phases (the inliner, both loop unrollers, copy
    /// propagation, folding, dead-code elimination, GVN-CSE, LICM, the
    /// pressure passes and schedulers, ...) transform the code and say what
    /// they did in remarks (`--remarks`, `ptxopt explain`); the others pass
    /// their input through. `--list-phases` shows the pipeline, what each
    /// phase does and the knobs each phase reads.
    #[command(after_help = BUILD_AFTER_HELP, verbatim_doc_comment)]
    Build(build_cmd::BuildArgs),

    /// Print every knob: name, type, default, tool (ptxas or cicc), the pass
    /// that reads it, and what it does (from the seed documents).
    #[command(after_help = EXIT_CODES)]
    Knobs(knobs_cmd::KnobsArgs),

    /// Analyze each function of a PTX file: blocks; loops (header line,
    /// depth, latch lines, trip count, ResMII/RecMII of single-block loops);
    /// maximum live R and P registers and the line where each peaks; the
    /// latency-class histogram. `--format json` is stable for scripts.
    #[command(after_help = EXIT_CODES)]
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Explain the loop decisions: for each loop (the source line of its
    /// header), what every loop phase decided and why, with the numbers
    /// (unroll factor or rejection code and reason, body size, budget left,
    /// trip count, texture count). The file is built as `ptxopt build`
    /// would, with the same settings. `--format json` is stable for scripts
    /// (a `version` field).
    #[command(after_help = EXIT_CODES)]
    Explain(explain_cmd::ExplainArgs),
    /// Run the PTX language server over standard input/output (LSP): diagnostics,
    /// hover with latency class and live registers, register-pressure and loop
    /// inlay hints, code lenses with occupancy, navigation, symbols, rename.
    ///
    /// Editors start it themselves: see editors/code (VS Code) and editors/nvim.
    /// Settings come from initializationOptions or workspace configuration:
    /// `{"target": "sm_90", "knobs": {"LoopUnroll": false}}`.
    #[command(after_help = "Exit status: 0 after a clean shutdown, 1 if the connection fails.")]
    Lsp(LspArgs),

    /// Build PTX files, then rebuild each one when it changes, until Ctrl-C.
    ///
    /// PATHs are files or folders (watched recursively: every `*.ptx` file,
    /// not hidden files, not outputs such as `*.opt.ptx` or anything under
    /// `--out-dir`). Build options and output names are those of `build`;
    /// with `--out-dir`, a folder's subfolders are mirrored under it.
    ///
    /// One database lives for the whole session: a rebuild re-runs only
    /// the functions whose code changed and prints one line per file, e.g.
    ///
    ///     rebuilt kernel.ptx: 1 file written, 1 of 3 functions recomputed, 2 reused, 4.1 ms
    ///
    /// Changes are debounced (`--debounce`, 150 ms) and judged by what is on
    /// disk, so saving through a temporary file renamed over the original
    /// works. A file with errors is reported as `build` reports it and its
    /// previous output is kept; a deleted file is forgotten and its output
    /// left in place. A `ptxopt.toml` is read when first needed.
    #[command(
        after_help = "Exit status: 0 after Ctrl-C or SIGTERM; 2 for a usage error. \
                      With --once, as for `build`.",
        verbatim_doc_comment
    )]
    Watch(watch_cmd::WatchArgs),

    /// Run one kernel on the CPU emulator, with one `--arg` per kernel
    /// parameter in order.
    ///
    /// Scalars are `TYPE:VALUE` (`u32:7`, `s64:-3`, `f32:1.5`, `u64:0x10`,
    /// `f32:0f3FC00000`); buffers are `buf:TYPE:COUNT:INIT` with INIT
    /// `zero`, `random` (seeded by `--seed`), `iota` or a fill value
    /// (`buf:f32:1024:random`, `buf:f32:16:1.0`), or `buf:TYPE:file=PATH`
    /// (raw little-endian bytes); `ptr:0` passes a null pointer.
    ///
    /// `--out DIR` writes every buffer after the run to DIR/argN.bin (N =
    /// the parameter's index), its input to DIR/argN.in.bin and the launch
    /// to DIR/run.json (for scripts/gpu_compare.py). A summary line
    /// (thread-instructions, time) goes to stderr.
    #[command(
        after_help = "Example:
  ptxopt run test-data/examples/saxpy.ptx --kernel saxpy --grid 4 --block 256 \\
      --arg u32:1000 --arg f32:2.0 --arg buf:f32:1024:random --arg buf:f32:1024:1.0 --out out/

Exit status: 0 = clean run, 1 = errors in the input or an emulation error (function, PTX line, thread), 2 = usage or I/O error.",
        verbatim_doc_comment
    )]
    Run(run_cmd::RunArgs),

    /// Check that the optimized code computes what the input computes: build
    /// the file as `ptxopt build` would (same settings), then run every
    /// kernel (or `--kernel`) of the input and of the output on the CPU
    /// emulator with the same generated inputs, over several launch shapes,
    /// and compare every buffer bit for bit (NaN matches NaN; f32 results of
    /// kernels with `.approx` instructions within `--approx-ulps`).
    ///
    /// Pointer parameters (64-bit integer parameters used as address bases)
    /// get buffers of random values mixed with edge values (0, -0, NaN, ±Inf,
    /// denormals, INT_MIN/MAX); other parameters get scalars. One line per
    /// kernel and launch shape; the first difference names the buffer, the
    /// word index and both values. Kernels the emulator cannot run are
    /// reported as skipped.
    #[command(
        after_help = "Exit status: 0 = no kernel differs or fails, 1 = a difference, an emulation error or errors in the input, 2 = usage or I/O error."
    )]
    Verify(verify_cmd::VerifyArgs),

    /// Compare two builds per kernel: registers (ptxas -v with --ptxas, else
    /// the optimizer's estimate when the reports carry it, else the maximum
    /// live R), spill bytes, static instructions, loops and their unroll
    /// decisions, occupancy; added, removed and renamed kernels.
    ///
    /// OLD and NEW are two PTX files, two folders (files paired by relative
    /// path) or two saved `ptxopt analyze --format json` reports. Output as
    /// text, a GitHub markdown table (for a pull-request comment) or JSON.
    #[command(
        after_help = "Examples:
  ptxopt diff old/ new/ --format markdown --fail-on regs+4,spills
  ptxopt analyze k.ptx --format json > base.json;  ptxopt diff base.json k.ptx --fail-on regs+5%

Exit status: 0 = no regression named by --fail-on, 1 = regressions (listed), 2 = bad input (unreadable file, PTX with errors, JSON of another format version).",
        verbatim_doc_comment
    )]
    Diff(diff_cmd::DiffArgs),

    /// Write one self-contained HTML page (no network needed: inline CSS,
    /// SVG and script) about PTX files or folders: per function, a plot of
    /// live R and P registers along the source lines with the peak and the
    /// target's occupancy steps; the source with a pressure bar per line and
    /// the phases' remarks; each loop with its trip count, the loop phases'
    /// decisions and the registers live at its peak; the optimized code
    /// beside the original when the phases changed it. Function sections are
    /// rendered when opened, so large modules stay usable.
    #[command(after_help = "Example:
  ptxopt report kernels/ --html report.html

Exit status: 0 = written, 1 = written but some file has errors or cannot be read, 2 = usage error or the page cannot be written.")]
    Report(report_cmd::ReportArgs),
}

/// Arguments of `ptxopt lsp`.
#[derive(clap::Args, Debug)]
struct LspArgs {
    /// Talk over standard input/output (the only transport, and the default;
    /// accepted because clients such as VS Code's language client pass it).
    #[arg(long)]
    stdio: bool,
}

const BUILD_AFTER_HELP: &str = "Examples:
  ptxopt build kernel.ptx                      writes kernel.opt.ptx
  ptxopt build a.ptx b.ptx --out-dir out/      writes out/a.ptx and out/b.ptx
  ptxopt build k.ptx -o - --knob LoopUnroll=0  prints the output
  ptxopt build k.ptx --dump-after 22 -o -      the code after OriLoopUnrolling
  ptxopt build --list-phases

Exit status: 0 = no errors, 1 = errors in the input, 2 = usage or I/O error.";

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    match cli.command {
        Command::Check(args) => check_cmd::run(args),
        Command::Build(args) => build_cmd::run(args),
        Command::Knobs(args) => knobs_cmd::run(args),
        Command::Analyze(args) => analyze_cmd::run(args),
        Command::Explain(args) => explain_cmd::run(args),
        Command::Watch(args) => watch_cmd::run(args),
        Command::Run(args) => run_cmd::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Diff(args) => diff_cmd::run(args),
        Command::Report(args) => report_cmd::run(args),
        Command::Lsp(LspArgs { stdio: _ }) => match ptx_lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ptxopt lsp: {e}");
                ExitCode::from(1)
            }
        },
    }
}
