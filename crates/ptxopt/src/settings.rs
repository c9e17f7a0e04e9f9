//! The settings a build runs with: target and knobs from `ptxopt.toml` and the
//! command line, and the phase selection.
//!
//! Precedence, lowest first: knob defaults (the registry); the configuration
//! file (`--config FILE`, otherwise a `ptxopt.toml` in the input file's folder);
//! `--arch` and `--knob NAME=VALUE` on the command line. Inputs in different
//! folders may have different `ptxopt.toml`s; `build` groups them by the file
//! that applies. Every problem here is a usage error (exit status 2).

use std::path::{Path, PathBuf};

use ptx_db::{PhaseId, RootDatabase};
use ptx_knobs::{KnobDef, KnobValue};

/// A usage error, already worded for the user.
#[derive(Debug)]
pub struct UsageError(pub String);

/// Settings from the command line, checked.
#[derive(Clone, Debug, Default)]
pub struct CliSettings {
    pub arch: Option<Arch>,
    pub knobs: Vec<(&'static KnobDef, KnobValue)>,
    /// `--named-phases`: `None` runs every phase.
    pub phases: Option<Vec<PhaseId>>,
    /// `--maxrregcount N` (ptxas's flag): the register count the register
    /// estimate caps at and the pressure passes aim under.
    pub max_regs: Option<u32>,
}

/// `sm_90a`: 90 and `"a"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arch {
    pub sm: u32,
    pub suffix: String,
}

/// Parses `sm_90`, `sm_90a`, `sm_100f`, `compute_80`.
pub fn parse_arch(text: &str) -> Result<Arch, UsageError> {
    let bad = || {
        UsageError(format!(
            "bad target `{text}`: expected `sm_` followed by a number and an optional \
             `a` or `f`, such as `sm_80` or `sm_90a`"
        ))
    };
    let (sm, suffix) = ptx_db::parse_target(text).ok_or_else(bad)?;
    Ok(Arch {
        sm,
        suffix: suffix.to_string(),
    })
}

/// Checks `--arch`, `--knob` and `--named-phases`.
pub fn from_cli(
    arch: Option<&str>,
    knobs: &[String],
    named_phases: Option<&[String]>,
) -> Result<CliSettings, UsageError> {
    let arch = arch.map(parse_arch).transpose()?;
    let mut knobs = knobs
        .iter()
        .map(|text| {
            ptx_knobs::parse_setting(text).map_err(|e| UsageError(format!("--knob {text}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // `--named-phases OriCopyProp` names a sub-pass of the GeneralOptimize
    // bundles (the table's alias selects the bundles): they then run it
    // alone.
    if named_phases.is_some_and(|words| {
        words
            .iter()
            .any(|w| w.trim().eq_ignore_ascii_case("OriCopyProp"))
    }) {
        if let Ok(setting) = ptx_knobs::parse_setting("GeneralOptimizeSubPasses=OriCopyProp") {
            knobs.push(setting);
        }
    }
    let phases = named_phases
        .map(|words| {
            let mut ids = Vec::new();
            for word in words.iter().filter(|w| !w.trim().is_empty()) {
                let found = ptx_db::find_phases(word);
                if found.is_empty() {
                    return Err(unknown_phase("--named-phases", word));
                }
                ids.extend(found.iter().map(|p| p.id));
            }
            Ok(ids)
        })
        .transpose()?;
    Ok(CliSettings {
        arch,
        knobs,
        phases,
        max_regs: None,
    })
}

/// "unknown phase `X`; did you mean ...", for `--named-phases` and
/// `--dump-after`.
pub fn unknown_phase(option: &str, word: &str) -> UsageError {
    let mut message = format!("{option}: unknown phase `{word}`");
    let suggestions = ptx_db::suggest_phases(word);
    if !suggestions.is_empty() {
        let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
        message.push_str(&format!("; did you mean {}?", list.join(", ")));
    }
    message.push_str(" (`ptxopt build --list-phases` lists them)");
    UsageError(message)
}

/// The configuration file that applies to `input`: `explicit` if given,
/// otherwise `ptxopt.toml` in the input's folder if there is one.
pub fn config_path_for(input: &Path, explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = explicit {
        return Some(path.to_path_buf());
    }
    if input.as_os_str() == "-" {
        return None;
    }
    let candidate = input.with_file_name("ptxopt.toml");
    candidate.is_file().then_some(candidate)
}

/// Reads and parses a configuration file.
pub fn load_config(path: &Path) -> Result<ptx_knobs::Config, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("cannot read `{}`: {e}", path.display())))?;
    ptx_knobs::parse_config(&text).map_err(|e| {
        UsageError(format!(
            "{}:{}:{}: {}",
            path.display(),
            e.line,
            e.column,
            e.message
        ))
    })
}

/// Reads the configuration file at `config` (if any) and applies it, then the
/// command line, to a database.
pub fn load_and_apply(
    db: &mut RootDatabase,
    config: Option<&Path>,
    cli: &CliSettings,
) -> Result<(), UsageError> {
    let loaded = config.map(load_config).transpose()?;
    apply(db, config.zip(loaded.as_ref()), cli)
}

/// Applies a configuration file and then the command line to a database.
pub fn apply(
    db: &mut RootDatabase,
    config: Option<(&Path, &ptx_knobs::Config)>,
    cli: &CliSettings,
) -> Result<(), UsageError> {
    let mut arch = None;
    if let Some((path, config)) = config {
        if let Some(target) = &config.target {
            arch = Some(
                parse_arch(target)
                    .map_err(|e| UsageError(format!("{}: `target`: {}", path.display(), e.0)))?,
            );
        }
        for (def, value) in &config.knobs {
            set_knob(db, def, value.clone())?;
        }
    }
    if let Some(a) = &cli.arch {
        arch = Some(a.clone());
    }
    for (def, value) in &cli.knobs {
        set_knob(db, def, value.clone())?;
    }
    match arch {
        Some(a) => db.set_target(a.sm, &a.suffix),
        None => db.set_target(0, ""),
    }
    db.set_phase_selection(cli.phases.as_deref());
    db.set_max_regs(cli.max_regs);
    Ok(())
}

fn set_knob(db: &mut RootDatabase, def: &KnobDef, value: KnobValue) -> Result<(), UsageError> {
    db.set_knob(def.name, value)
        .map_err(|e| UsageError(format!("knob `{}`: {e}", def.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_forms() {
        assert_eq!(
            parse_arch("sm_90a").unwrap(),
            Arch {
                sm: 90,
                suffix: "a".into()
            }
        );
        assert_eq!(parse_arch("sm_80").unwrap().sm, 80);
        assert_eq!(parse_arch("compute_100f").unwrap().suffix, "f");
        for bad in ["90", "sm_", "sm_x", "sm_90b", "sm_0", "gfx90a"] {
            assert!(parse_arch(bad).is_err(), "{bad}");
        }
    }
}
