//! Tests of the registry against the seeds, of settings, of `ptxopt.toml`
//! and of the rendered table.

use std::collections::HashSet;
use std::path::PathBuf;

use expect_test::expect;

use crate::*;

// ---- helpers -------------------------------------------------------------

/// `shared/seeds/`, beside or inside the repository root; `None` where the
/// checkout has no seeds (the seed checks are then skipped).
fn seeds_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    [root.join("shared/seeds"), root.join("../shared/seeds")]
        .into_iter()
        .find(|p| p.join("README.md").is_file())
}

fn seed_text(file: &str) -> Option<String> {
    let dir = seeds_dir()?;
    Some(std::fs::read_to_string(dir.join(file)).expect("seed file readable"))
}

fn k(name: &str) -> &'static KnobDef {
    knob(name).unwrap_or_else(|| panic!("no knob `{name}`"))
}

fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
            'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
            c => c,
        })
        .collect()
}

/// Checks a default as the seed prints it (`"true"`, `"140"`, `"0.25"`,
/// `"unset"`, ...) against the registry: a value must be equal; a word must
/// be matched by a `(seed default: ...)` note, unless the registry's
/// description or default says what the word means.
fn check_seed_default(def: &KnobDef, token: &str) {
    let word = token.trim();
    let number: String = word
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    match word {
        "true" | "on" | "enabled" => {
            assert_eq!(def.default, DefaultValue::Bool(true), "{}", def.name)
        }
        "false" | "off" | "disabled" => {
            assert_eq!(def.default, DefaultValue::Bool(false), "{}", def.name)
        }
        _ if !number.is_empty() && number != "-" => {
            let x: f64 = number.parse().expect("seed number");
            let got = match def.default {
                DefaultValue::Int(i) => i as f64,
                DefaultValue::Float(f) => f,
                other => panic!("{}: seed default {word:?}, registry {other:?}", def.name),
            };
            assert_eq!(got, x, "{}: seed default {word:?}", def.name);
        }
        _ => assert!(
            default_note(def).is_some(),
            "{}: seed default {word:?} is no value, but the description has no note",
            def.name
        ),
    }
}

// ---- the registry itself -------------------------------------------------

#[test]
fn names_unique_nonempty_and_settable() {
    let mut seen = HashSet::new();
    for k in KNOBS {
        assert!(!k.name.is_empty());
        assert!(
            k.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "`{}` cannot be written as NAME=VALUE or a bare TOML key",
            k.name
        );
        assert!(seen.insert(k.name), "duplicate knob `{}`", k.name);
    }
}

#[test]
fn counts() {
    let ptxas = KNOBS.iter().filter(|k| k.tool == "ptxas").count();
    let cicc = KNOBS.iter().filter(|k| k.tool == "cicc").count();
    assert_eq!(ptxas + cicc, KNOBS.len(), "tool is ptxas or cicc");
    assert!(ptxas >= 90, "{ptxas} ptxas knobs");
    assert!(cicc >= 90, "{cicc} cicc knobs");
}

#[test]
fn defaults_have_the_declared_type_and_lie_in_bounds() {
    for k in KNOBS {
        assert_eq!(k.default.to_value().knob_type(), k.ty, "{}", k.name);
        assert_eq!(k.default_value(), k.default.to_value());
        if k.min.is_some() || k.max.is_some() {
            assert!(
                matches!(k.ty, KnobType::Int | KnobType::Float),
                "{}: bounds on a {} knob",
                k.name,
                k.ty
            );
        }
        if let (Some(min), Some(max)) = (k.min, k.max) {
            assert!(min <= max, "{}", k.name);
        }
        assert_eq!(
            check_value(k, k.default.to_value()),
            Ok(k.default.to_value()),
            "{}: default out of bounds",
            k.name
        );
        if let DefaultValue::Float(f) = k.default {
            assert!(f.is_finite(), "{}", k.name);
        }
    }
}

#[test]
fn descriptions_and_passes() {
    for k in KNOBS {
        assert!(
            !k.description.is_empty() && !k.pass.is_empty(),
            "{}",
            k.name
        );
        assert!(k.description.is_ascii(), "{}", k.name);
        assert!(!k.description.contains('\n'), "{}", k.name);
        assert!(k.description.ends_with('.'), "{}", k.name);
        if k.name.starts_with("OcgKnob") {
            assert!(k.description.starts_with("Unnamed in the seed (OCG knob "));
            assert_eq!(
                ocg_knob_id(k).map(|id| id.to_string()).as_deref(),
                Some(&k.name["OcgKnob".len()..])
            );
        }
        if k.tool == "ptxas" && k.pass.starts_with("Ori") {
            assert!(k.pass.contains('(') && k.pass.ends_with(')'), "{}", k.name);
        }
        if k.description.contains("seed default") {
            assert!(default_note(k).is_some(), "{}: unbalanced note", k.name);
        }
    }
}

#[test]
fn ocg_ids_are_unique() {
    let mut seen = HashSet::new();
    for k in KNOBS {
        if let Some(id) = ocg_knob_id(k) {
            assert_eq!(k.tool, "ptxas", "{}", k.name);
            assert!(seen.insert(id), "OCG knob {id} twice");
        }
    }
    assert_eq!(knob_by_ocg_id(437).map(|k| k.name), Some("LoopUnroll"));
    assert_eq!(
        knob_by_ocg_id(487).map(|k| k.name),
        Some("LoopMakeSingleEntry")
    );
    assert_eq!(
        knob_by_ocg_id(896).map(|k| k.name),
        Some("LoopUnrollFactor")
    );
    assert_eq!(
        knob_by_ocg_id(402).map(|k| k.name),
        Some("EnableGvnCseMode")
    );
    assert_eq!(knob_by_ocg_id(91).map(|k| k.name), Some("OcgKnob91"));
    assert_eq!(knob_by_ocg_id(1), None);
    assert_eq!(ocg_knob_id(k("ForceLateCommoning")), None);
    assert_eq!(ocg_knob_id(k("unroll-count")), None);
}

#[test]
fn default_notes() {
    assert_eq!(default_note(k("LoopUnroll")), None);
    assert_eq!(default_note(k("unroll-count")), Some("unset"));
    assert_eq!(
        default_note(k("HoistLoopInvBudget")),
        Some("22 (early) / 100 (late)")
    );
    assert_eq!(default_note(k("no-mi-remat")), Some("(list)"));
    assert_eq!(default_note(k("enable-mlicm")), Some("opt-level dependent"));
}

/// Figures the seeds give, spot-checked by hand (the seed-table tests below
/// check the rest mechanically).
#[test]
fn seed_figures() {
    use DefaultValue::*;
    let expect = [
        ("LoopUnroll", Bool(true)),
        ("LoopUnrollFactor", Int(0)),
        ("UnrollBudget", Int(140)),
        ("UnrollFlexableFullLimit", Float(0.25)),
        ("UnrollUnknownCount", Int(4)),
        ("UnrollSmallLoopLimit", Int(4)),
        ("LoopUnrollLargePartOfShaderPct", Float(0.4)),
        ("UnrollInstLimit", Float(20.0)),
        ("UnrollPregThreshold", Int(50)),
        ("UnrollExtraInstPerPercentSaving", Int(2)),
        ("UnrollFullInstLimit", Int(200)),
        ("LoopUnrollNumExtraInstBase", Int(46)),
        ("LoopMakeSingleEntry", Bool(true)),
        ("OcgKnob898", Float(0.5)),
        ("OcgKnob474", Float(0.25)),
        ("HoistBudget", Float(10.0)),
        ("HoistConservativeScale", Int(10)),
        ("PerformLoopFusion", Int(0)),
        ("nv-remat-block", Int(14)),
        ("nv-remat-default-max-reg", Int(70)),
        ("usedessa", Int(2)),
        ("pipeliner-max-mii", Int(27)),
        ("pipeliner-ii-search-range", Int(10)),
        ("unroll-threshold", Int(300)),
        ("unroll-partial-threshold", Int(75)),
        ("pragma-unroll-threshold", Int(32768)),
        ("runtime-unroll-threshold", Int(95)),
        ("unroll-runtime", Bool(true)),
        ("unroll-assumed-size", Int(4)),
        ("no-mi-remat", Str("")),
        ("max-reg-kind", Int(0)),
        ("vasp-fix1", Bool(false)),
        ("nv-remat-check-internal-live", Bool(false)),
    ];
    for (name, default) in expect {
        assert_eq!(k(name).default, default, "{name}");
    }
    assert_eq!(
        (k("reg-target-adjust").min, k("reg-target-adjust").max),
        (Some(-10.0), Some(10.0))
    );
    assert_eq!(k("LoopUnroll").pass, "OriLoopUnrolling (22)");
    assert_eq!(k("LoopUnroll").tool, "ptxas");
    assert_eq!(k("unroll-threshold").tool, "cicc");
    assert_eq!(k("OcgKnob427").ty, KnobType::String);
}

// ---- the registry against the seeds --------------------------------------

#[test]
fn seed_files_exist_and_sections_occur() {
    let Some(dir) = seeds_dir() else {
        eprintln!("no shared/seeds: skipped");
        return;
    };
    for k in KNOBS {
        let path = dir.join(k.seed.file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {}: {e}", k.name, path.display()));
        assert!(
            text.contains(k.seed.section),
            "{}: section {:?} not in {}",
            k.name,
            k.seed.section,
            k.seed.file
        );
        // The knob itself is named in its seed (an unnamed one by number),
        // except the few that are ptxopt's own (their description says so).
        if PTXOPT_OWN.contains(&k.name) {
            continue;
        }
        let needles = match k.name.strip_prefix("OcgKnob") {
            Some(id) => vec![format!("nob {id}"), format!("knob_enabled({id})")],
            None => vec![k.name.to_string()],
        };
        assert!(
            needles.iter().any(|needle| text.contains(needle)),
            "{}: {needles:?} not in {}",
            k.name,
            k.seed.file
        );
    }
}

/// Knobs that are not ptxas's or cicc's but ptxopt's own, standing for
/// something the seeds describe without a knob: `GeneralOptimizeSubPasses`
/// is how `--named-phases OriCopyProp` selects one sub-pass of the
/// GeneralOptimize bundles (ptxas resolves that name itself);
/// `pipeliner-keep-register-peak`, the rule that keeps a pipelined loop only
/// below the function's register peak (a PTX-level adaptation);
/// `nv-remat-leave-constant-bank`, block remat leaving to ptxas what it
/// rematerializes itself. Or LLVM's own
/// options that cicc has and the seeds do not name: `inline-threshold`, the
/// budget of the inliner that runs before the passes the seeds describe.
const PTXOPT_OWN: &[&str] = &[
    "GeneralOptimizeSubPasses",
    "inline-threshold",
    "pipeliner-keep-register-peak",
    "nv-remat-leave-constant-bank",
];

/// Seed 001's ROT13 column has one slip: "FcrphyngivruBvfg..." decodes to
/// "SpeculatviehOist...", not the printed "SpeculativeHoist...". The printed
/// name is the registry's (it is also the phase's theme, phase 56
/// SpeculativeHoistComInsts).
const ROT13_SLIP: (&str, &str) = ("SpeculativeHoistCommonInsts", "FcrphyngivruBvfgPbzzbaVafgf");

#[test]
fn rot13_slip_is_real() {
    assert_ne!(rot13(ROT13_SLIP.0), ROT13_SLIP.1);
    assert_eq!(rot13(ROT13_SLIP.1), "SpeculatviehOistCommonInsts");
}

/// Seed 000's typed knob tables (`NameTYPEDefaultDescription`): every row
/// names a registry knob of that type and default.
#[test]
fn seed_000_typed_tables() {
    let Some(text) = seed_text("000_ed667d9feced6e07.txt") else {
        return;
    };
    let kinds = [
        ("BOOL", KnobType::Bool),
        ("INT", KnobType::Int),
        ("FLOAT", KnobType::Float),
        ("DOUBLE", KnobType::Float),
        ("DBL", KnobType::Float),
    ];
    let mut rows = 0;
    for line in text.lines() {
        let Some((name, ty, rest)) = kinds.iter().find_map(|(kw, ty)| {
            let p = line.find(kw)?;
            let name = &line[..p];
            let ok = name.len() > 2
                && name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().all(|c| c.is_ascii_alphanumeric());
            ok.then(|| (name, *ty, &line[p + kw.len()..]))
        }) else {
            continue;
        };
        if name == "Knob" {
            continue; // the header row "Knob NameTypeDefault..."
        }
        rows += 1;
        let def = k(name);
        assert_eq!(def.tool, "ptxas", "{name}");
        assert_eq!(def.ty, ty, "{name}");
        let token = rest.split(|c: char| c.is_ascii_uppercase()).next().unwrap();
        check_seed_default(def, token);
    }
    assert_eq!(rows, 26 + 6 + 7 + 19 + 2, "rows of the typed tables");
}

/// Seed 000's untyped phase 18 table and the phase 22 knob-id table.
#[test]
fn seed_000_other_tables() {
    let Some(text) = seed_text("000_ed667d9feced6e07.txt") else {
        return;
    };
    let simplify = text
        .split("Knob NameDefaultDescription\n")
        .nth(1)
        .expect("phase 18 table");
    for line in simplify.lines().take(6) {
        let def = KNOBS
            .iter()
            .filter(|k| line.starts_with(k.name))
            .max_by_key(|k| k.name.len())
            .unwrap_or_else(|| panic!("no knob for {line:?}"));
        let token = line[def.name.len()..]
            .split(|c: char| c.is_ascii_uppercase())
            .next()
            .unwrap();
        check_seed_default(def, token);
    }
    // "437+31464trueLoopUnroll (master enable)"
    let ids = text
        .split("Knob IDProfile OffsetDefaultKnob Name\n")
        .nth(1)
        .expect("knob id table");
    for line in ids.lines().take(8) {
        let id: u32 = line[..3].parse().unwrap();
        let def = knob_by_ocg_id(id).unwrap_or_else(|| panic!("no OCG knob {id}"));
        assert!(line.contains(def.name), "{line:?} vs {}", def.name);
        let after_offset = line[3..].trim_start_matches(|c: char| c == '+' || c.is_ascii_digit());
        let digits_default = &line[3..line.len() - after_offset.len()];
        // The offset and an integer default run together ("+645120"): the
        // offset is five digits.
        let token = if after_offset.starts_with("true") || after_offset.starts_with("false") {
            after_offset
                .split(|c: char| c.is_ascii_uppercase())
                .next()
                .unwrap()
                .to_string()
        } else {
            digits_default[6..].to_string()
        };
        check_seed_default(def, &token);
    }
}

/// Seed 001's "Complete Knob Reference": name, then its ROT13 form (or
/// `--knob N`); all 24 are registry knobs.
#[test]
fn seed_001_complete_knob_reference() {
    let Some(text) = seed_text("001_3e9d45dd172cfaf4.txt") else {
        return;
    };
    let table = text
        .split("KnobROT13AddressControls\n")
        .nth(1)
        .expect("reference table");
    let mut rows = 0;
    for line in table.lines().take_while(|l| !l.is_empty()) {
        let def = KNOBS
            .iter()
            .filter(|k| line.starts_with(k.name))
            .max_by_key(|k| k.name.len())
            .unwrap_or_else(|| panic!("no knob for {line:?}"));
        let name = def.name;
        let rest = &line[name.len()..];
        if name == ROT13_SLIP.0 {
            assert!(rest.starts_with(ROT13_SLIP.1));
        } else {
            assert!(
                rest.starts_with("--knob") || rest.starts_with(&rot13(name)),
                "{line:?}"
            );
        }
        assert_eq!(def.tool, "ptxas");
        if let Some(id) = line[name.len()..].strip_prefix("--knob ") {
            let id: String = id.chars().take_while(char::is_ascii_digit).collect();
            assert_eq!(ocg_knob_id(def).map(|i| i.to_string()), Some(id));
        }
        rows += 1;
    }
    assert_eq!(rows, 24);
}

/// Seed 002's knob tables (`nametypedefaultEffect`).
#[test]
fn seed_002_tables() {
    let Some(text) = seed_text("002_164789385e2e817e.txt") else {
        return;
    };
    let summary = text
        .split("Machine Pass Knobs Summary")
        .nth(1)
        .and_then(|t| t.split("Function Address Map").next())
        .expect("knob summary");
    let mut rows = 0;
    for line in summary.lines() {
        // The first "bool"/"int"/"enum" followed by a default splits the row.
        let split = ["bool", "int", "enum"].iter().find_map(|kw| {
            line.match_indices(kw).find_map(|(p, _)| {
                let rest = &line[p + kw.len()..];
                let default_like = rest.starts_with("true")
                    || rest.starts_with("false")
                    || rest.starts_with('(')
                    || rest.starts_with(|c: char| c.is_ascii_digit());
                let name = &line[..p];
                let name_like = !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                (default_like && name_like).then_some((name, *kw, rest))
            })
        });
        let Some((name, kw, rest)) = split else {
            continue;
        };
        rows += 1;
        let def = k(name);
        assert_eq!(def.tool, "cicc", "{name}");
        let ty = match kw {
            "bool" => KnobType::Bool,
            "int" => KnobType::Int,
            _ => KnobType::String,
        };
        assert_eq!(def.ty, ty, "{name}");
        let token = if rest.starts_with('(') {
            &rest[..=rest.find(')').unwrap()]
        } else {
            rest.split(|c: char| c.is_ascii_uppercase()).next().unwrap()
        };
        // "0Adjust", "14Bitmask": the split at the capital leaves the number.
        check_seed_default(def, token);
    }
    assert_eq!(rows, 9 + 19 + 7 + 12 + 11 + 5, "rows of the knob tables");
}

/// Seed 003's pipeliner table (`name`, global `xword_NNNNNNN`, default).
#[test]
fn seed_003_pipeliner_table() {
    let Some(text) = seed_text("003_5f2fcdae57e69502.txt") else {
        return;
    };
    let table = text
        .split("KnobGlobalDefaultDescription\n")
        .nth(1)
        .expect("pipeliner table");
    let mut rows = 0;
    for line in table.lines().take_while(|l| !l.is_empty()) {
        let Some(p) = ["qword_", "unk_", "dword_"]
            .iter()
            .filter_map(|g| line.find(g))
            .min()
        else {
            continue;
        };
        let def = k(&line[..p]);
        let global_end = line[p..].find('_').unwrap() + p + 1 + 7;
        let token = line[global_end..]
            .split(|c: char| c.is_ascii_uppercase())
            .next()
            .unwrap();
        check_seed_default(def, token);
        rows += 1;
    }
    assert_eq!(rows, 18);
}

/// Seed 004's two markdown knob tables.
#[test]
fn seed_004_tables() {
    let Some(text) = seed_text("004_fa10da99f88b4a9e.txt") else {
        return;
    };
    let mut rows = 0;
    for section in [
        "Standard LLVM Knobs (with NVIDIA defaults)",
        "NVIDIA-Specific Knobs",
    ] {
        let table = text.split(section).nth(1).expect(section);
        // The rows read "name | default | global | effect |".
        for line in table.lines().skip(3).take_while(|l| l.contains(" | ")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let name = cells[0].trim_matches('`');
            let def = k(name);
            assert_eq!(def.seed.section, section, "{name}");
            match cells[1] {
                "From TTI" => assert!(default_note(def).unwrap().starts_with("from TTI")),
                "Unset" => assert_eq!(default_note(def), Some("unset")),
                token => check_seed_default(def, token),
            }
            rows += 1;
        }
    }
    assert_eq!(rows, 17 + 3);
}

// ---- NAME=VALUE settings -------------------------------------------------

#[test]
fn parse_setting_values() {
    let ok = |s: &str| parse_setting(s).map(|(k, v)| (k.name, v)).unwrap();
    assert_eq!(
        ok("LoopUnroll=false"),
        ("LoopUnroll", KnobValue::Bool(false))
    );
    for (text, b) in [
        ("true", true),
        ("1", true),
        ("on", true),
        ("ON", true),
        ("off", false),
        ("0", false),
        ("False", false),
    ] {
        assert_eq!(
            ok(&format!("LoopUnroll={text}")).1,
            KnobValue::Bool(b),
            "{text}"
        );
    }
    assert_eq!(ok("UnrollBudget=96").1, KnobValue::Int(96));
    assert_eq!(ok(" UnrollBudget = 0x60 ").1, KnobValue::Int(96));
    assert_eq!(ok("UnrollBudget=-1").1, KnobValue::Int(-1));
    assert_eq!(ok("reg-target-adjust=-10").1, KnobValue::Int(-10));
    assert_eq!(ok("reg-target-adjust=0xA").1, KnobValue::Int(10));
    assert_eq!(ok("UnrollInstLimit=12.5").1, KnobValue::float(12.5));
    assert_eq!(ok("UnrollInstLimit=3").1, KnobValue::float(3.0));
    assert_eq!(ok("UnrollInstLimit=1e-3").1, KnobValue::float(1e-3));
    assert_eq!(ok("UnrollInstLimit=inf").1, KnobValue::float(f64::INFINITY));
    // Strings are kept as is, "=" included.
    assert_eq!(
        ok("OcgKnob427=-3-+5+= x").1,
        KnobValue::String("-3-+5+= x".into())
    );
    assert_eq!(ok("no-mi-remat=").1, KnobValue::String(String::new()));
}

#[test]
fn parse_setting_errors() {
    let err = |s: &str| parse_setting(s).unwrap_err();
    assert_eq!(
        err("LoopUnroll"),
        KnobError::Malformed {
            text: "LoopUnroll".into()
        }
    );
    assert_eq!(err("=1"), KnobError::Malformed { text: "=1".into() });
    assert_eq!(
        err("LoopUnrol=1"),
        KnobError::UnknownName {
            name: "LoopUnrol".into(),
            suggestions: vec!["LoopUnroll"],
        }
    );
    assert_eq!(
        err("LoopUnroll=yes").to_string(),
        "bad value `yes` for knob `LoopUnroll`: expected a boolean (true/false/1/0/on/off)"
    );
    assert_eq!(
        err("UnrollBudget=1.5").to_string(),
        "bad value `1.5` for knob `UnrollBudget`: expected an integer"
    );
    assert_eq!(
        err("UnrollBudget=99999999999999999999").to_string(),
        "bad value `99999999999999999999` for knob `UnrollBudget`: expected an integer"
    );
    assert_eq!(
        err("reg-target-adjust=11").to_string(),
        "bad value `11` for knob `reg-target-adjust`: expected an integer in -10..=10"
    );
    assert_eq!(
        err("nv-remat-block=-1").to_string(),
        "bad value `-1` for knob `nv-remat-block`: expected an integer in 0..=15"
    );
    assert!(matches!(
        err("UnrollInstLimit=fast"),
        KnobError::BadValue { .. }
    ));
    assert!(matches!(err("UnrollBudget="), KnobError::BadValue { .. }));
    assert_eq!(
        err("unroll_treshold=1").to_string(),
        "unknown knob `unroll_treshold`; did you mean `unroll-threshold`?"
    );
}

#[test]
fn suggestions() {
    assert_eq!(suggest("LoopUnrol")[0], "LoopUnroll");
    assert_eq!(suggest("loopunroll")[0], "LoopUnroll");
    assert_eq!(suggest("LOOP_UNROLL")[0], "LoopUnroll");
    assert_eq!(suggest("unroll_threshold")[0], "unroll-threshold");
    assert_eq!(suggest("UnrollThreshold")[0], "unroll-threshold");
    assert_eq!(suggest("pipeliner-max-mi")[0], "pipeliner-max-mii");
    assert_eq!(suggest("UnrolBudget"), vec!["UnrollBudget"]);
    assert!(suggest("LoopUnroll").len() <= 3);
    assert_eq!(suggest("LoopUnroll")[0], "LoopUnroll");
    assert!(suggest("xyzzy").is_empty());
    assert!(suggest("").is_empty());
    assert!(suggest("--").is_empty());
}

// ---- ptxopt.toml ---------------------------------------------------------

#[test]
fn config_example() {
    let text = r#"target = "sm_90"        # optional
[knobs]
LoopUnroll = false
UnrollBudget = 96
"unroll-threshold" = 300
"#;
    let config = parse_config(text).unwrap();
    assert_eq!(config.target.as_deref(), Some("sm_90"));
    let names: Vec<&str> = config.knobs.iter().map(|(k, _)| k.name).collect();
    assert_eq!(names, ["LoopUnroll", "UnrollBudget", "unroll-threshold"]);
    assert_eq!(config.get("LoopUnroll"), Some(&KnobValue::Bool(false)));
    assert_eq!(config.get("UnrollBudget"), Some(&KnobValue::Int(96)));
    assert_eq!(config.get("unroll-threshold"), Some(&KnobValue::Int(300)));
    assert_eq!(config.get("LoopUnrollFactor"), None);
    assert_eq!(config.value("LoopUnrollFactor"), Some(KnobValue::Int(0)));
    assert_eq!(config.value("UnrollBudget"), Some(KnobValue::Int(96)));
    assert_eq!(config.value("NoSuchKnob"), None);
}

#[test]
fn config_values() {
    let text = r#"
[knobs]
LoopUnroll = 0
UnrollInstLimit = 12          # int for a float knob
HoistTexToInstRatioLow = 0.5
UnrollBudget = "0x40"         # strings parse like NAME=VALUE
LoopUnrollNonInnermost = "off"
"reg-target-adjust" = -3
OcgKnob427 = "-4-"
UnrollPregThreshold = 1_000
"#;
    let config = parse_config(text).unwrap();
    assert_eq!(config.target, None);
    let got: Vec<(&str, KnobValue)> = config
        .knobs
        .iter()
        .map(|(k, v)| (k.name, v.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("LoopUnroll", KnobValue::Bool(false)),
            ("UnrollInstLimit", KnobValue::float(12.0)),
            ("HoistTexToInstRatioLow", KnobValue::float(0.5)),
            ("UnrollBudget", KnobValue::Int(64)),
            ("LoopUnrollNonInnermost", KnobValue::Bool(false)),
            ("reg-target-adjust", KnobValue::Int(-3)),
            ("OcgKnob427", KnobValue::String("-4-".into())),
            ("UnrollPregThreshold", KnobValue::Int(1000)),
        ]
    );
    assert_eq!(parse_config("").unwrap(), Config::default());
    // Dotted keys work too.
    let dotted = parse_config("knobs.LoopUnroll = \"on\"\nknobs.UnrollBudget = 7\n").unwrap();
    assert_eq!(dotted.get("LoopUnroll"), Some(&KnobValue::Bool(true)));
    assert_eq!(dotted.get("UnrollBudget"), Some(&KnobValue::Int(7)));
    assert_eq!(
        parse_config("[knobs]\nUnrollBudget = 0x10\n")
            .unwrap()
            .knobs[0]
            .1,
        KnobValue::Int(16)
    );
}

fn config_err(text: &str) -> (usize, usize, String) {
    let e = parse_config(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("line {}, column {}: {}", e.line, e.column, e.message)
    );
    (e.line, e.column, e.message)
}

#[test]
fn config_errors() {
    let e = parse_config("[knobs]\nLoopUnroll = true\n  LoopUnrol = false\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    assert_eq!(
        e.message,
        "unknown knob `LoopUnrol`; did you mean `LoopUnroll`?"
    );
    assert_eq!(
        e.knob_error,
        Some(KnobError::UnknownName {
            name: "LoopUnrol".into(),
            suggestions: vec!["LoopUnroll"]
        })
    );
    assert_eq!(
        config_err("[knobs]\nUnrollBudget = true\n"),
        (
            2,
            16,
            "bad value `true` for knob `UnrollBudget`: expected an integer".into()
        )
    );
    assert_eq!(
        config_err("[knobs]\nUnrollBudget = 1.5\n").2,
        "bad value `1.5` for knob `UnrollBudget`: expected an integer"
    );
    assert_eq!(
        config_err("[knobs]\nLoopUnroll = 2\n").2,
        "bad value `2` for knob `LoopUnroll`: expected a boolean (true/false/1/0/on/off)"
    );
    assert_eq!(
        config_err("[knobs]\n\"reg-target-adjust\" = 11\n"),
        (
            2,
            23,
            "bad value `11` for knob `reg-target-adjust`: expected an integer in -10..=10".into()
        )
    );
    assert_eq!(
        config_err("[knobs]\nOcgKnob427 = 5\n").2,
        "bad value `5` for knob `OcgKnob427`: expected a string"
    );
    assert_eq!(
        config_err("[knobs]\nLoopUnroll = [true]\n").2,
        "bad value `a array` for knob `LoopUnroll`: expected a boolean (true/false/1/0/on/off)"
    );
    assert_eq!(
        config_err("target = 90\n"),
        (
            1,
            10,
            "`target` must be a string such as \"sm_90\", found integer".into()
        )
    );
    assert_eq!(
        config_err("knobs = 1\n"),
        (1, 9, "`knobs` must be a table, found integer".into())
    );
    assert_eq!(
        config_err("target = \"sm_90\"\ntarget_arch = 1\n"),
        (
            2,
            1,
            "unknown key `target_arch`: expected `target` or a `[knobs]` table".into()
        )
    );
    // TOML syntax errors carry the toml crate's message and position.
    let (line, column, _) = config_err("[knobs]\nLoopUnroll = \n");
    assert_eq!((line, column), (2, 14));
    let (line, _, message) = config_err("[knobs]\nLoopUnroll = true\nLoopUnroll = false\n");
    assert_eq!(line, 3);
    assert!(message.contains("duplicate"), "{message}");
    // Columns count characters, not bytes.
    assert_eq!(config_err("# é\n[knobs]\n\"é\" = 1\n").0, 3);
    assert_eq!(crate::config::line_column("é = x", 3), (1, 3));
}

// ---- rendering -----------------------------------------------------------

fn sample() -> Vec<&'static KnobDef> {
    [
        "LoopUnroll",
        "UnrollFlexableFullLimit",
        "HoistLate",
        "OcgKnob427",
        "reg-target-adjust",
        "unroll-threshold",
    ]
    .into_iter()
    .map(k)
    .collect()
}

#[test]
fn render_text_snapshot() {
    expect![[r#"
        NAME                     TYPE    DEFAULT               TOOL   PASS                               DESCRIPTION
        LoopUnroll               bool    true                  ptxas  OriLoopUnrolling (22)              Master enable of loop unrolling (OCG knob 437).
        UnrollFlexableFullLimit  float   0.25                  ptxas  OriLoopUnrolling (22)              Flexible full-unroll limit, adjusted by loop characteristics (context field ctx+172).
        HoistLate                int     0 (per-block policy)  ptxas  OriHoistInvariants (35/66/79/88)   Per-block hoisting policy: 0 = always, 1 = inner loops only, 3 = never (OCG knob 381).
        OcgKnob427               string  "" (unset)            ptxas  OriLoopUnrolling (22)              Unnamed in the seed (OCG knob 427): per-block LoopUnrollFactor override string: "-N-" skips block N, "+N+" force-unrolls block N, "-" skips all, "+" forces all.
        reg-target-adjust        int     0                     cicc   RP target (MRPA/scheduling/remat)  Adjust the register pressure target (-10 to +10).
        unroll-threshold         int     300 (from TTI)        cicc   LoopUnroll (computeUnrollCount)    Base cost budget for full unrolling, multiplied by the local-array factor (1-6x); 300 is the NVPTX TTI value.
    "#]]
    .assert_eq(&render_knobs(&sample(), Format::Text));
}

#[test]
fn render_json_snapshot() {
    expect![[r#"
        [
          {"name": "LoopUnroll", "type": "bool", "default": true, "min": null, "max": null, "tool": "ptxas", "pass": "OriLoopUnrolling (22)", "seed_file": "000_ed667d9feced6e07.txt", "seed_section": "Heuristic Thresholds (Knobs)", "description": "Master enable of loop unrolling (OCG knob 437)."},
          {"name": "UnrollFlexableFullLimit", "type": "float", "default": 0.25, "min": null, "max": null, "tool": "ptxas", "pass": "OriLoopUnrolling (22)", "seed_file": "000_ed667d9feced6e07.txt", "seed_section": "Heuristic Thresholds (Knobs)", "description": "Flexible full-unroll limit, adjusted by loop characteristics (context field ctx+172)."},
          {"name": "HoistLate", "type": "int", "default": 0, "min": 0, "max": 3, "tool": "ptxas", "pass": "OriHoistInvariants (35/66/79/88)", "seed_file": "000_ed667d9feced6e07.txt", "seed_section": "Hoisting Knobs", "description": "Per-block hoisting policy: 0 = always, 1 = inner loops only, 3 = never (OCG knob 381) (seed default: per-block policy)."},
          {"name": "OcgKnob427", "type": "string", "default": "", "min": null, "max": null, "tool": "ptxas", "pass": "OriLoopUnrolling (22)", "seed_file": "000_ed667d9feced6e07.txt", "seed_section": "Context Initialization and Knob Defaults (sub_1389AF0)", "description": "Unnamed in the seed (OCG knob 427): per-block LoopUnrollFactor override string: \"-N-\" skips block N, \"+N+\" force-unrolls block N, \"-\" skips all, \"+\" forces all (seed default: unset)."},
          {"name": "reg-target-adjust", "type": "int", "default": 0, "min": -10, "max": 10, "tool": "cicc", "pass": "RP target (MRPA/scheduling/remat)", "seed_file": "002_164789385e2e817e.txt", "seed_section": "Register Pressure Target Knobs", "description": "Adjust the register pressure target (-10 to +10)."},
          {"name": "unroll-threshold", "type": "int", "default": 300, "min": null, "max": null, "tool": "cicc", "pass": "LoopUnroll (computeUnrollCount)", "seed_file": "004_fa10da99f88b4a9e.txt", "seed_section": "Standard LLVM Knobs (with NVIDIA defaults)", "description": "Base cost budget for full unrolling, multiplied by the local-array factor (1-6x); 300 is the NVPTX TTI value (seed default: from TTI)."}
        ]
    "#]]
    .assert_eq(&render_knobs(&sample(), Format::Json));
}

#[test]
fn render_whole_table() {
    let text = render_table(Format::Text);
    assert_eq!(text.lines().count(), KNOBS.len() + 1);
    let json = render_table(Format::Json);
    assert_eq!(json.lines().count(), KNOBS.len() + 2);
    assert!(json.starts_with("[\n  {\"name\": \"LoopMakeSingleEntry\""));
    assert!(json.ends_with("}\n]\n"));
    // Every line but the last object's ends in a comma.
    let objects: Vec<&str> = json.lines().skip(1).take(KNOBS.len()).collect();
    assert!(objects[..objects.len() - 1]
        .iter()
        .all(|l| l.ends_with("},")));
    assert_eq!("json".parse::<Format>(), Ok(Format::Json));
    assert_eq!("text".parse::<Format>(), Ok(Format::Text));
    assert!("yaml".parse::<Format>().is_err());
}

#[test]
fn json_escaping() {
    assert_eq!(
        json_string("a\"b\\c\nd\te\u{1}é"),
        r#""a\"b\\c\nd\te\u0001é""#
    );
}

#[test]
fn ids_are_generated_from_the_registry() {
    expect_test::expect_file!["ids.rs"].assert_eq(&crate::typed::render_ids());
}

#[test]
fn typed_constants_name_their_knobs() {
    assert_eq!(knobs::LoopUnroll.name(), "LoopUnroll");
    assert!(knobs::LoopUnroll.default_value());
    assert_eq!(knobs::unroll_threshold.name(), "unroll-threshold");
    assert!(
        !knobs::LoopUnroll.get(&KnobValue::Bool(false)),
        "a stored value wins over the default"
    );
    for (i, k) in KNOBS.iter().enumerate() {
        let id = KnobId::from_name(k.name).expect("every knob has an id");
        assert_eq!(id.index(), i);
        assert_eq!(
            crate::typed::ident(k.name).replace('_', "-").len(),
            k.name.len()
        );
    }
}

#[test]
fn typed_constants_have_the_registry_types() {
    // What `default_value` relies on: each generated constant's wrapper
    // matches its knob's registry type.
    let text = crate::typed::render_ids();
    for k in KNOBS {
        let wrapper = match k.ty {
            KnobType::Bool => "BoolKnob",
            KnobType::Int => "IntKnob",
            KnobType::Float => "FloatKnob",
            KnobType::String => "StrKnob",
        };
        let line = format!("pub const {}: {wrapper} =", crate::typed::ident(k.name));
        assert!(text.contains(&line), "{}", k.name);
    }
}
