//! The database: the [`Db`] trait that queries take, and [`RootDatabase`], the
//! one implementation, which owns the salsa storage and the handles of the
//! inputs (files by path, knobs by name, the target, one switch per phase).
//!
//! Cloning a [`RootDatabase`] is cheap and gives a handle on the same memoized
//! results; use one clone per worker thread. A setter (`&mut self`) waits until
//! every clone is dropped, and cancels queries running on them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ptx_knobs::{KnobDef, KnobValue, KNOBS};
use rustc_hash::FxHashMap;
use salsa::{Durability, Setter};

use crate::inputs::{Knob, PhaseSwitch, SourceFile, Target};
use crate::phases::{PhaseId, PHASES};

/// What queries need from the database beyond salsa: the input handles.
/// Looking a handle up is not a tracked read (the maps never change after the
/// database is built); reading the input's value through it is.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The input of the knob `name`, `None` if the registry has no such knob.
    fn knob(&self, name: &str) -> Option<Knob>;
    /// The target input.
    fn target(&self) -> Target;
    /// The switch of one phase.
    fn phase_switch(&self, phase: PhaseId) -> PhaseSwitch;
}

/// A callback receiving every salsa event (see [`crate::EventLog`]).
pub type EventCallback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;

/// The database of ptxopt.
#[salsa::db]
#[derive(Clone)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    files: BTreeMap<PathBuf, SourceFile>,
    knobs: Arc<FxHashMap<&'static str, Knob>>,
    phases: Arc<Vec<PhaseSwitch>>,
    target: Option<Target>,
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {
    fn knob(&self, name: &str) -> Option<Knob> {
        self.knobs.get(name).copied()
    }

    fn target(&self) -> Target {
        self.target.expect("created in RootDatabase::build")
    }

    fn phase_switch(&self, phase: PhaseId) -> PhaseSwitch {
        self.phases[phase as usize]
    }
}

impl Default for RootDatabase {
    fn default() -> Self {
        Self::new()
    }
}

/// A knob setting the database rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetKnobError {
    /// No knob of that name in the registry.
    Unknown(String),
    /// The value's type is not the knob's.
    WrongType {
        name: &'static str,
        expected: ptx_knobs::KnobType,
        found: ptx_knobs::KnobType,
    },
}

impl std::fmt::Display for SetKnobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetKnobError::Unknown(name) => write!(f, "unknown knob `{name}`"),
            SetKnobError::WrongType {
                name,
                expected,
                found,
            } => write!(f, "knob `{name}` is {expected:?}, not {found:?}"),
        }
    }
}

impl std::error::Error for SetKnobError {}

impl RootDatabase {
    /// A database with every knob at its default, no target set, every phase on.
    pub fn new() -> RootDatabase {
        Self::build(None)
    }

    /// Like [`new`](Self::new), with a callback that sees every salsa event.
    pub fn with_event_callback(callback: EventCallback) -> RootDatabase {
        Self::build(Some(callback))
    }

    fn build(callback: Option<EventCallback>) -> RootDatabase {
        let mut db = RootDatabase {
            storage: salsa::Storage::new(callback),
            files: BTreeMap::new(),
            knobs: Arc::default(),
            phases: Arc::default(),
            target: None,
        };
        let knobs: FxHashMap<&'static str, Knob> = KNOBS
            .iter()
            .map(|def| {
                let knob = Knob::builder(def.name, def.default.to_value())
                    .durability(Durability::MEDIUM)
                    .new(&db);
                (def.name, knob)
            })
            .collect();
        let phases: Vec<PhaseSwitch> = PHASES
            .iter()
            .map(|_| {
                PhaseSwitch::builder(true)
                    .durability(Durability::MEDIUM)
                    .new(&db)
            })
            .collect();
        let target = Target::builder(0, String::new())
            .durability(Durability::HIGH)
            .new(&db);
        db.knobs = Arc::new(knobs);
        db.phases = Arc::new(phases);
        db.target = Some(target);
        db
    }

    /// Sets a file's text, creating the input on first use. Records a change
    /// only when the text differs. Returns the file's input.
    pub fn set_file_text(
        &mut self,
        path: impl Into<PathBuf>,
        text: impl Into<String>,
    ) -> SourceFile {
        let path = path.into();
        let text = text.into();
        if let Some(&file) = self.files.get(&path) {
            if *file.text(self) != text {
                file.set_text(self).to(text);
            }
            return file;
        }
        let file = SourceFile::builder(path.clone(), text)
            .durability(Durability::LOW)
            .new(self);
        self.files.insert(path, file);
        file
    }

    /// The input of a file set before.
    pub fn file(&self, path: &Path) -> Option<SourceFile> {
        self.files.get(path).copied()
    }

    /// Every file set so far, by path.
    pub fn files(&self) -> impl Iterator<Item = SourceFile> + '_ {
        self.files.values().copied()
    }

    /// Sets a knob. Records a change only when the value differs.
    pub fn set_knob(&mut self, name: &str, value: KnobValue) -> Result<(), SetKnobError> {
        let def = ptx_knobs::knob(name).ok_or_else(|| SetKnobError::Unknown(name.to_string()))?;
        let knob = self
            .knob(name)
            .ok_or_else(|| SetKnobError::Unknown(name.to_string()))?;
        let value = coerce(def, value)?;
        if *knob.value(self) != value {
            knob.set_value(self)
                .with_durability(Durability::MEDIUM)
                .to(value);
        }
        Ok(())
    }

    /// The current value of a knob (`None` if the registry has no such knob).
    pub fn knob_value(&self, name: &str) -> Option<KnobValue> {
        self.knob(name).map(|k| k.value(self).clone())
    }

    /// Sets the target (`sm == 0`: use each file's `.target`). Records a change
    /// only when it differs.
    pub fn set_target(&mut self, sm: u32, suffix: &str) {
        let target = self.target();
        if target.sm(self) != sm {
            target.set_sm(self).with_durability(Durability::HIGH).to(sm);
        }
        if target.suffix(self) != suffix {
            target
                .set_suffix(self)
                .with_durability(Durability::HIGH)
                .to(suffix.to_string());
        }
    }

    /// Switches one phase on or off.
    pub fn set_phase_enabled(&mut self, phase: PhaseId, enabled: bool) {
        let switch = self.phase_switch(phase);
        if switch.enabled(self) != enabled {
            switch
                .set_enabled(self)
                .with_durability(Durability::MEDIUM)
                .to(enabled);
        }
    }

    /// Runs only the given phases (`--named-phases`); `None` runs all.
    pub fn set_phase_selection(&mut self, selection: Option<&[PhaseId]>) {
        for info in PHASES {
            let on = selection.is_none_or(|s| s.contains(&info.id));
            self.set_phase_enabled(info.id, on);
        }
    }
}

/// Checks a value against the knob's type; an Int is accepted for a Float knob.
fn coerce(def: &'static KnobDef, value: KnobValue) -> Result<KnobValue, SetKnobError> {
    use ptx_knobs::KnobType;
    match (def.ty, &value) {
        (KnobType::Float, KnobValue::Int(i)) => Ok(KnobValue::float(*i as f64)),
        (ty, v) if v.knob_type() == ty => Ok(value),
        (ty, v) => Err(SetKnobError::WrongType {
            name: def.name,
            expected: ty,
            found: v.knob_type(),
        }),
    }
}
