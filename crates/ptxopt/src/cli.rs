//! Command-line options shared by several commands, declared once and
//! flattened into each command's arguments (`#[command(flatten)]`), so a
//! flag means the same everywhere and its help is written once.

use std::path::PathBuf;

use crate::settings::{self, Arch, CliSettings, UsageError};

/// `--arch`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ArchArg {
    /// The GPU to optimize for (the profile for latencies, occupancy and
    /// ResMII), such as `sm_80` or `sm_90a`. Default: the `target` of
    /// ptxopt.toml where read, else each file's own `.target`.
    #[arg(long, value_name = "sm_XX")]
    pub arch: Option<String>,
}

impl ArchArg {
    /// The checked `--arch`.
    pub fn parse(&self) -> Result<Option<Arch>, UsageError> {
        self.arch.as_deref().map(settings::parse_arch).transpose()
    }
}

/// The settings of a build: `--arch`, `--knob`, `--config`, `--named-phases`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SettingsArgs {
    #[command(flatten)]
    pub arch: ArchArg,

    /// Set a knob, such as `--knob LoopUnroll=false` or
    /// `--knob unroll-threshold=150`; repeatable; overrides ptxopt.toml.
    /// `ptxopt knobs` lists every knob with its type and default.
    #[arg(long = "knob", value_name = "NAME=VALUE")]
    pub knobs: Vec<String>,

    /// Read target and knobs from this file instead of the `ptxopt.toml`
    /// beside each input. Format: `target = "sm_90"` and a `[knobs]` table.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Run only these phases (comma-separated numbers or names); the others
    /// pass their input through.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub named_phases: Option<Vec<String>>,
}

impl SettingsArgs {
    /// Checks `--arch`, `--knob` and `--named-phases`.
    pub fn cli_settings(&self) -> Result<CliSettings, UsageError> {
        settings::from_cli(
            self.arch.arch.as_deref(),
            &self.knobs,
            self.named_phases.as_deref(),
        )
    }
}

/// `--maxrregcount`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MaxRegArg {
    /// ptxas's `--maxrregcount N`: the register count the pressure passes
    /// aim under and the cap the register estimate and occupancy assume.
    /// Stored in the database beside the target: changing it re-runs only
    /// what reads it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=255))]
    pub maxrregcount: Option<u32>,
}

/// `--quiet`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct QuietArg {
    /// No progress bar (and, for `build`, no summary line). The bar is shown
    /// on standard error only when it is a terminal.
    #[arg(short, long)]
    pub quiet: bool,
}
