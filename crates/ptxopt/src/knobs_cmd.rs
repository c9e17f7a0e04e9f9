//! `ptxopt knobs [--format text|json]`: the knob registry (every knob the seed
//! documents name, with type, default, tool, the pass that reads it, and a
//! description), as printed by `ptx_knobs::render_table`.

use std::process::ExitCode;

/// Arguments of `ptxopt knobs`.
#[derive(clap::Args, Debug)]
pub struct KnobsArgs {
    /// `text`: an aligned table; `json`: an array with one object per knob
    /// (name, type, default, min, max, tool, pass, seed_file, seed_section,
    /// description).
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// Runs `ptxopt knobs`.
pub fn run(args: KnobsArgs) -> ExitCode {
    let format = match args.format {
        Format::Text => ptx_knobs::Format::Text,
        Format::Json => ptx_knobs::Format::Json,
    };
    print!("{}", ptx_knobs::render_table(format));
    ExitCode::SUCCESS
}
