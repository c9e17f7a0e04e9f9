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

use crate::inputs::{Chunk, Knob, PhaseSwitch, SourceFile, Target};
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
    /// The input of the file at `path` (files are only ever added, so an
    /// untracked lookup is safe; a [`Chunk`] names its file by path).
    fn source_file(&self, path: &Path) -> Option<SourceFile>;
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

    fn source_file(&self, path: &Path) -> Option<SourceFile> {
        self.files.get(path).copied()
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
    ///
    /// Also keeps the file's [`Chunk`]s: the old and new texts are compared
    /// (common prefix and suffix, a `memcmp`), only the region that changed
    /// (widened to whole chunks, and to the chunk before it) is split again
    /// with `ptx_syntax::split`, and only chunks whose text changed are set. So
    /// the cost of an edit is that of the chunks it touches, not of the file.
    pub fn set_file_text(
        &mut self,
        path: impl Into<PathBuf>,
        text: impl Into<String>,
    ) -> SourceFile {
        let path = path.into();
        let text = text.into();
        if let Some(&file) = self.files.get(&path) {
            // One pass over the texts finds both whether and where they differ.
            let old = file.text(self);
            let (prefix, suffix) = common_affixes(old.as_bytes(), text.as_bytes());
            if prefix == old.len() && prefix == text.len() {
                return file;
            }
            self.update_chunks(file, &text, prefix, suffix);
            file.set_text(self).to(text);
            return file;
        }
        // No setter here: creating inputs does not wait for the clones of the
        // database (an LSP's snapshots) to be dropped, a setter would.
        let chunks = pieces(&text, 0, &ptx_syntax::split::split_points(&text).0)
            .map(|piece| self.new_chunk(&path, piece))
            .collect();
        let file = SourceFile::builder(path.clone(), text, chunks)
            .durability(Durability::LOW)
            .new(self);
        self.files.insert(path, file);
        file
    }

    fn new_chunk(&self, path: &Path, text: &str) -> Chunk {
        Chunk::builder(path.to_path_buf(), text.to_string())
            .durability(Durability::LOW)
            .new(self)
    }

    /// Re-splits the part of `file` that differs in `new` and sets the texts
    /// of the chunks that changed (see [`set_file_text`](Self::set_file_text)).
    /// `prefix` and `suffix` are the lengths of the texts' common prefix and
    /// suffix (not overlapping), as [`common_affixes`] gives them.
    fn update_chunks(&mut self, file: SourceFile, new: &str, prefix: usize, suffix: usize) {
        let old_len = file.text(self).len();
        let chunks: Vec<Chunk> = file.chunks(self).clone();
        let mut starts = Vec::with_capacity(chunks.len() + 1);
        let mut at = 0usize;
        for chunk in &chunks {
            starts.push(at);
            at += chunk.text(self).len();
        }
        starts.push(at);
        debug_assert_eq!(at, old_len);
        let n = chunks.len();
        // The chunk holding the first changed byte, and the one before it (an
        // edit at its very start can change whether it is a boundary).
        let containing = starts[..n]
            .partition_point(|&s| s <= prefix)
            .saturating_sub(1);
        let first = containing.saturating_sub(1);
        let scan_start = starts.get(first).copied().unwrap_or(0).min(prefix);
        let changed_end = old_len - suffix;
        // The first old boundary after the change: the same token in `new`.
        let mut k = first + 1;
        while k < n && starts[k] <= changed_end {
            k += 1;
        }
        let shift = |s: usize| s + new.len() - old_len;
        let (points, region_end) = loop {
            let end = if k >= n { new.len() } else { shift(starts[k]) };
            let (points, ends) = ptx_syntax::split::split_points(&new[scan_start..end]);
            if k >= n || ends {
                break (points, end);
            }
            k += 1;
        };
        let texts: Vec<&str> = pieces(&new[..region_end], scan_start, &points).collect();
        let old_region: Vec<Chunk> = chunks[first.min(n)..k.min(n)].to_vec();
        // Keep inputs whose text is unchanged at the front and back, reuse the
        // rest in order (setting their text), create or drop the difference.
        let mut front = 0;
        while front < texts.len()
            && front < old_region.len()
            && old_region[front].text(self) == texts[front]
        {
            front += 1;
        }
        let mut back = 0;
        while back < texts.len() - front
            && back < old_region.len() - front
            && old_region[old_region.len() - 1 - back].text(self) == texts[texts.len() - 1 - back]
        {
            back += 1;
        }
        let mut region: Vec<Chunk> = old_region[..front].to_vec();
        let middle_old = &old_region[front..old_region.len() - back];
        for (i, piece) in texts[front..texts.len() - back].iter().enumerate() {
            match middle_old.get(i) {
                Some(&chunk) => {
                    if chunk.text(self) != piece {
                        chunk.set_text(self).to(piece.to_string());
                    }
                    region.push(chunk);
                }
                None => region.push(self.new_chunk(file.path(self), piece)),
            }
        }
        region.extend_from_slice(&old_region[old_region.len() - back..]);
        if region.len() != old_region.len() {
            let mut list = chunks[..first.min(n)].to_vec();
            list.extend(region);
            list.extend_from_slice(&chunks[k.min(n)..]);
            file.set_chunks(self).to(list);
        }
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

    /// Sets the target (`sm == 0`: use each file's `.target`; see
    /// [`parse_target`] for names). Records a change only when it differs.
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

/// The pieces of `text[start..]` cut at `points` (offsets relative to
/// `start`), without empty ones.
fn pieces<'t>(text: &'t str, start: usize, points: &[usize]) -> impl Iterator<Item = &'t str> {
    let mut cuts = Vec::with_capacity(points.len() + 2);
    cuts.push(start);
    cuts.extend(points.iter().map(|p| start + p));
    cuts.push(text.len());
    (0..cuts.len() - 1)
        .map(move |i| &text[cuts[i]..cuts[i + 1]])
        .filter(|piece| !piece.is_empty())
}

/// The lengths of the common prefix and suffix of two texts (not
/// overlapping): compared 4 KiB at a time (one `memcmp` each), then, in the
/// block that differs, 64 bytes and then one byte at a time.
fn common_affixes(a: &[u8], b: &[u8]) -> (usize, usize) {
    let n = a.len().min(b.len());
    let prefix = common_prefix(a, b, n);
    let max = n - prefix;
    // The common suffix is the common prefix of the reversed tails; walk the
    // ends backwards in the same block sizes.
    let (ea, eb) = (a.len(), b.len());
    let mut suffix = 0;
    for block in [4096, 64, 1] {
        while suffix + block <= max
            && a[ea - suffix - block..ea - suffix] == b[eb - suffix - block..eb - suffix]
        {
            suffix += block;
        }
    }
    (prefix, suffix)
}

/// The length of the common prefix of `a[..n]` and `b[..n]`.
fn common_prefix(a: &[u8], b: &[u8], n: usize) -> usize {
    let mut prefix = 0;
    for block in [4096, 64, 1] {
        while prefix + block <= n && a[prefix..prefix + block] == b[prefix..prefix + block] {
            prefix += block;
        }
    }
    prefix
}

/// A target name, `sm_NN` or `compute_NN` with an optional `a` or `f`
/// suffix (`sm_90a`, `compute_100f`), as `(NN, suffix)` for
/// [`RootDatabase::set_target`]; `None` for anything else (or `NN` = 0).
pub fn parse_target(name: &str) -> Option<(u32, &str)> {
    let rest = name
        .strip_prefix("sm_")
        .or_else(|| name.strip_prefix("compute_"))?;
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &rest[digits.len()..];
    let sm: u32 = digits.parse().ok()?;
    (sm != 0 && matches!(suffix, "" | "a" | "f")).then_some((sm, suffix))
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

#[cfg(test)]
mod tests {
    use super::common_affixes;

    /// The prefix and suffix lengths by the definition, a byte at a time.
    fn by_bytes(a: &[u8], b: &[u8]) -> (usize, usize) {
        let n = a.len().min(b.len());
        let prefix = (0..n).take_while(|&i| a[i] == b[i]).count();
        let suffix = (0..n - prefix)
            .take_while(|&i| a[a.len() - 1 - i] == b[b.len() - 1 - i])
            .count();
        (prefix, suffix)
    }

    #[test]
    fn common_affixes_match_the_definition() {
        let base: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for at in [0, 1, 63, 64, 65, 4095, 4096, 4097, 9000, 19_999] {
            for (cut, insert) in [(0, &b"x"[..]), (1, b""), (3, b"yz"), (0, b"")] {
                let mut b = base.clone();
                let end = (at + cut).min(b.len());
                b.splice(at..end, insert.iter().copied());
                assert_eq!(common_affixes(&base, &b), by_bytes(&base, &b), "at {at}");
                assert_eq!(common_affixes(&b, &base), by_bytes(&b, &base), "at {at}");
            }
        }
        assert_eq!(common_affixes(b"", b""), (0, 0));
        assert_eq!(common_affixes(b"abc", b"abc"), (3, 0));
    }
}
