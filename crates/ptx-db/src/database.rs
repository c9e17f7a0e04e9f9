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
use ptx_syntax::{TextRange, TextSize};
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

/// An edit [`RootDatabase::edit_file_text`] rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The range is reversed or ends after the text (`len` bytes).
    OutOfBounds {
        range: std::ops::Range<usize>,
        len: usize,
    },
    /// The offset is inside a character's UTF-8 encoding.
    NotCharBoundary { offset: usize },
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::OutOfBounds { range, len } => write!(
                f,
                "edit range {}..{} is outside the text ({len} bytes)",
                range.start, range.end
            ),
            EditError::NotCharBoundary { offset } => {
                write!(f, "edit offset {offset} is inside a character")
            }
        }
    }
}

impl std::error::Error for EditError {}

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
        let target = Target::builder(0, String::new(), 0)
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
    /// The text is kept as the file's [`Chunk`]s (the file's text is their
    /// concatenation, [`file_text`](crate::file_text)): the old and new texts
    /// are compared (common prefix and suffix, a `memcmp` chunk by chunk), only
    /// the region that changed (widened to whole chunks, and to the chunk
    /// before it) is split again with `ptx_syntax::split`, and only chunks
    /// whose text changed are set. So the cost of an edit is that of the
    /// chunks it touches plus one pass over the text. An editor that knows
    /// what changed calls [`edit_file_text`](Self::edit_file_text) instead,
    /// which skips the pass.
    pub fn set_file_text(
        &mut self,
        path: impl Into<PathBuf>,
        text: impl Into<String>,
    ) -> SourceFile {
        let path = path.into();
        let text = text.into();
        if let Some(&file) = self.files.get(&path) {
            // One pass over the texts finds both whether and where they differ.
            let layout = ChunkLayout::of(self, file);
            let old: Vec<&str> = layout
                .chunks
                .iter()
                .map(|c| c.text(self).as_str())
                .collect();
            let (prefix, suffix) = chunked_affixes(&old, text.as_bytes());
            let old_len = layout.len();
            if prefix == old_len && prefix == text.len() {
                return file;
            }
            // The chunks from the one before the first changed byte up to the
            // first that starts after the change (see `ChunkLayout::region`).
            let (first, k) = layout.region(prefix, old_len - suffix);
            let region_start = layout.starts[first];
            let region_end = layout.starts[k] + text.len() - old_len;
            let region = text[region_start..region_end].to_string();
            self.resplit(file, &layout, first, k, region);
            return file;
        }
        // No setter here: creating inputs does not wait for the clones of the
        // database (an LSP's snapshots) to be dropped, a setter would.
        let chunks = pieces(&text, 0, &ptx_syntax::split::split_points(&text).0)
            .map(|piece| self.new_chunk(&path, piece))
            .collect();
        let file = SourceFile::builder(path.clone(), chunks)
            .durability(Durability::LOW)
            .new(self);
        self.files.insert(path, file);
        file
    }

    /// Replaces the bytes `range` of a file's text with `replacement`, as an
    /// editor's change does: only the chunks around the range are looked at
    /// (no pass over the whole text), so the cost of an edit is that of the
    /// chunks it touches. Records no change when the text stays the same.
    /// Fails, changing nothing, when the range is out of the text or does not
    /// fall on character boundaries.
    pub fn edit_file_text(
        &mut self,
        file: SourceFile,
        range: std::ops::Range<usize>,
        replacement: &str,
    ) -> Result<(), EditError> {
        let layout = ChunkLayout::of(self, file);
        let len = layout.len();
        if range.start > range.end || range.end > len {
            return Err(EditError::OutOfBounds { range, len });
        }
        for at in [range.start, range.end] {
            let i = layout.chunk_at(at);
            if let Some(chunk) = layout.chunks.get(i) {
                if !chunk.text(self).is_char_boundary(at - layout.starts[i]) {
                    return Err(EditError::NotCharBoundary { offset: at });
                }
            }
        }
        let (first, k) = layout.region(range.start, range.end);
        let (start, end) = (layout.starts[first], layout.starts[k]);
        let mut region = String::with_capacity(end - start + replacement.len());
        for chunk in &layout.chunks[first..k] {
            region.push_str(chunk.text(self));
        }
        let old = &region[range.start - start..range.end - start];
        if old == replacement {
            return Ok(());
        }
        region.replace_range(range.start - start..range.end - start, replacement);
        self.resplit(file, &layout, first, k, region);
        Ok(())
    }

    fn new_chunk(&self, path: &Path, text: &str) -> Chunk {
        Chunk::builder(path.to_path_buf(), text.to_string(), None)
            .durability(Durability::LOW)
            .new(self)
    }

    /// Sets a chunk's new text, and its tree when the change is inside one
    /// token that `ptx_syntax::reparse` can replace in the chunk's previous
    /// tree (then `chunk_parse` does not parse the chunk again).
    ///
    /// The previous tree is the memoized `chunk_parse`: after an editor's
    /// change it was computed for that revision's diagnostics. Changes at
    /// most 256 bytes long are tried (a token's).
    fn set_chunk_text(&mut self, chunk: Chunk, new: &str) {
        let old = chunk.text(self).as_str();
        let (mut prefix, mut suffix) = chunked_affixes(&[old], new.as_bytes());
        // The common prefix and suffix are counted in bytes: one may end
        // inside a character both texts share the first bytes of ("к" and
        // "е" both start with 0xD0). Whether a byte starts a character is
        // decided by that byte alone, and the bytes before `prefix` (after
        // `suffix`) are the same in both texts, so moving to a boundary of
        // `old` moves to one of `new` too.
        while !old.is_char_boundary(prefix) {
            prefix -= 1;
        }
        while !old.is_char_boundary(old.len() - suffix) {
            suffix -= 1;
        }
        let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
        let tree = if old_end - prefix <= 256 && new_end - prefix <= 256 {
            let range = TextRange::new(
                TextSize::try_from(prefix).unwrap_or_default(),
                TextSize::try_from(old_end).unwrap_or_default(),
            );
            let replacement = &new[prefix..new_end];
            ptx_syntax::reparse::reparse_token(crate::chunk_parse(self, chunk), range, replacement)
        } else {
            None
        };
        chunk.set_text(self).to(new.to_string());
        if tree.is_some() || chunk.reparsed(self).is_some() {
            chunk.set_reparsed(self).to(tree);
        }
    }

    /// Replaces the old chunks `first..k` of `file` by the chunks of
    /// `region`, their new text: splits it again (taking in the old chunks
    /// after `k`, unchanged, until a split ends at a boundary that was one
    /// before), then keeps the inputs whose text is unchanged at the front
    /// and back, reuses the rest in order (setting their text), and creates or
    /// drops the difference. The list of chunks is set only when its length
    /// changed.
    fn resplit(
        &mut self,
        file: SourceFile,
        layout: &ChunkLayout,
        first: usize,
        mut k: usize,
        mut region: String,
    ) {
        let chunks = &layout.chunks;
        let n = chunks.len();
        let points = loop {
            let (points, ends) = ptx_syntax::split::split_points(&region);
            if k >= n || ends {
                break points;
            }
            region.push_str(chunks[k].text(self));
            k += 1;
        };
        let texts: Vec<&str> = pieces(&region, 0, &points).collect();
        let old_region = &chunks[first..k];
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
        let mut new_region: Vec<Chunk> = old_region[..front].to_vec();
        let middle_old = &old_region[front..old_region.len() - back];
        for (i, piece) in texts[front..texts.len() - back].iter().enumerate() {
            match middle_old.get(i) {
                Some(&chunk) => {
                    if chunk.text(self) != piece {
                        self.set_chunk_text(chunk, piece);
                    }
                    new_region.push(chunk);
                }
                None => new_region.push(self.new_chunk(file.path(self), piece)),
            }
        }
        new_region.extend_from_slice(&old_region[old_region.len() - back..]);
        if new_region.len() != old_region.len() {
            let mut list = chunks[..first].to_vec();
            list.extend(new_region);
            list.extend_from_slice(&chunks[k..]);
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

    /// Sets `--maxrregcount` (`None`: not set). Records a change only when it
    /// differs.
    pub fn set_max_regs(&mut self, max_regs: Option<u32>) {
        let value = max_regs.unwrap_or(0);
        let target = self.target();
        if target.max_regs(self) != value {
            target
                .set_max_regs(self)
                .with_durability(Durability::HIGH)
                .to(value);
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

/// A file's chunks and where each starts: `starts[i]` is the offset of
/// `chunks[i]`, `starts[n]` the length of the text.
struct ChunkLayout {
    chunks: Vec<Chunk>,
    starts: Vec<usize>,
}

impl ChunkLayout {
    fn of(db: &RootDatabase, file: SourceFile) -> ChunkLayout {
        let chunks = file.chunks(db).clone();
        let mut starts = Vec::with_capacity(chunks.len() + 1);
        let mut at = 0;
        for chunk in &chunks {
            starts.push(at);
            at += chunk.text(db).len();
        }
        starts.push(at);
        ChunkLayout { chunks, starts }
    }

    fn len(&self) -> usize {
        self.starts[self.chunks.len()]
    }

    /// The index of the chunk holding byte `at` (the last chunk for the end
    /// of the text; 0 when there is none).
    fn chunk_at(&self, at: usize) -> usize {
        self.starts[..self.chunks.len()]
            .partition_point(|&s| s <= at)
            .saturating_sub(1)
    }

    /// The old chunks to split again after a change of the bytes
    /// `start..end`: from the one before the chunk holding `start` (an edit at
    /// a chunk's very start can change whether it is a boundary) up to, not
    /// including, the first chunk that starts after `end`.
    fn region(&self, start: usize, end: usize) -> (usize, usize) {
        let n = self.chunks.len();
        let first = self.chunk_at(start).saturating_sub(1).min(n);
        let mut k = (first + 1).min(n);
        while k < n && self.starts[k] <= end {
            k += 1;
        }
        (first, k)
    }
}

/// The lengths of the common prefix and suffix (not overlapping) of a text
/// held in pieces, `old` laid end to end, and `new`: compared 4 KiB at a time
/// (one `memcmp` each), then, in the last block, 64 bytes and 1 byte at a
/// time.
fn chunked_affixes(old: &[&str], new: &[u8]) -> (usize, usize) {
    let old_len: usize = old.iter().map(|c| c.len()).sum();
    let mut prefix = 0;
    for piece in old {
        let piece = piece.as_bytes();
        let n = piece.len().min(new.len() - prefix);
        let common = common_prefix(piece, &new[prefix..], n);
        prefix += common;
        if common < piece.len() {
            break;
        }
    }
    let max = old_len.min(new.len()) - prefix;
    let mut suffix = 0;
    for piece in old.iter().rev() {
        let piece = piece.as_bytes();
        let n = piece.len().min(max - suffix);
        let common = common_suffix(piece, &new[..new.len() - suffix], n);
        suffix += common;
        if common < piece.len() {
            break;
        }
    }
    (prefix, suffix)
}

/// The length of the common suffix of `a` and `b`, at most `n`.
fn common_suffix(a: &[u8], b: &[u8], n: usize) -> usize {
    let (ea, eb) = (a.len(), b.len());
    let mut suffix = 0;
    for block in [4096, 64, 1] {
        while suffix + block <= n
            && a[ea - suffix - block..ea - suffix] == b[eb - suffix - block..eb - suffix]
        {
            suffix += block;
        }
    }
    suffix
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
    use super::chunked_affixes;

    /// The prefix and suffix lengths by the definition, a byte at a time.
    fn by_bytes(a: &[u8], b: &[u8]) -> (usize, usize) {
        let n = a.len().min(b.len());
        let prefix = (0..n).take_while(|&i| a[i] == b[i]).count();
        let suffix = (0..n - prefix)
            .take_while(|&i| a[a.len() - 1 - i] == b[b.len() - 1 - i])
            .count();
        (prefix, suffix)
    }

    /// `text` cut into pieces of the given lengths (cycled), as chunks hold it.
    fn cut<'t>(text: &'t str, lengths: &[usize]) -> Vec<&'t str> {
        let mut pieces = Vec::new();
        let mut at = 0;
        for &len in lengths.iter().cycle() {
            if at >= text.len() {
                break;
            }
            let end = (at + len).min(text.len());
            pieces.push(&text[at..end]);
            at = end;
        }
        pieces
    }

    #[test]
    fn chunked_affixes_match_the_definition() {
        let base: String = (0..20_000u32)
            .map(|i| char::from(b'a' + (i * 7 % 26) as u8))
            .collect();
        for lengths in [&[20_000][..], &[1], &[63, 4097, 5], &[4096], &[1, 9000]] {
            for at in [0, 1, 63, 64, 65, 4095, 4096, 4097, 9000, 19_999] {
                for (cut_len, insert) in [(0, "x"), (1, ""), (3, "yz"), (0, "")] {
                    let mut b = base.clone();
                    let end = (at + cut_len).min(b.len());
                    b.replace_range(at..end, insert);
                    let expected = by_bytes(base.as_bytes(), b.as_bytes());
                    let found = chunked_affixes(&cut(&base, lengths), b.as_bytes());
                    assert_eq!(found, expected, "at {at}, pieces {lengths:?}");
                    let expected = by_bytes(b.as_bytes(), base.as_bytes());
                    let found = chunked_affixes(&cut(&b, lengths), base.as_bytes());
                    assert_eq!(found, expected, "at {at}, pieces {lengths:?}, reversed");
                }
            }
        }
        assert_eq!(chunked_affixes(&[], b""), (0, 0));
        assert_eq!(chunked_affixes(&["ab", "c"], b"abc"), (3, 0));
        assert_eq!(chunked_affixes(&["ab", "c"], b""), (0, 0));
        assert_eq!(chunked_affixes(&[], b"abc"), (0, 0));
    }
}
