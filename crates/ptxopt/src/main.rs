//! `ptxopt`: the command-line entry point.
//!
//! Subcommands:
//! - `check FILE...`: parse and check PTX files; print diagnostics rustc-style.
//!
//! Exit codes (stable, for scripts): 0 no errors; 1 errors in the input; 2 usage
//! or I/O errors.

mod check_cmd;
mod render;

use std::process::ExitCode;

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
}

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
    }
}
