//! Offsets ↔ 0-based line and UTF-16 column, the positions editors speak.
//!
//! `ptx_syntax::line_index` counts 1-based characters for `ptxopt check`; an
//! editor (LSP's default position encoding) counts UTF-16 code units from 0.
//! Columns past the end of a line clamp to the line's end.

use std::sync::Arc;

use ptx_syntax::TextSize;

/// The line index of a file's current text: built once per revision, shared
/// by every request on it (the LSP converts each answer's offsets with it).
#[salsa::tracked(returns(ref))]
pub fn file_line_index(db: &dyn ptx_db::Db, file: ptx_db::SourceFile) -> Arc<LineIndex> {
    Arc::new(LineIndex::new(ptx_db::file_text(db, file)))
}

/// The line index of the file at `path`; an empty index for a file never set.
pub(crate) fn line_index_of(db: &ptx_db::RootDatabase, path: &std::path::Path) -> Arc<LineIndex> {
    match db.file(path) {
        Some(file) => file_line_index(db, file).clone(),
        None => Arc::new(LineIndex::new("")),
    }
}

/// A 0-based line and a 0-based column in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The line starts of one text. A column counts UTF-16 code units, which for
/// ASCII text (nearly every PTX file) is the byte distance from the line's
/// start; only a text with other characters is kept, to count them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    len: u32,
    line_starts: Vec<u32>,
    /// The text, when it is not all ASCII.
    non_ascii_text: Option<String>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = Vec::with_capacity(text.len() / 16 + 1);
        line_starts.push(0);
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        LineIndex {
            len: text.len() as u32,
            line_starts,
            non_ascii_text: (!text.is_ascii()).then(|| text.to_string()),
        }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: TextSize) -> LineCol {
        let offset = u32::from(offset).min(self.len);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = match &self.non_ascii_text {
            None => offset - start,
            Some(text) => {
                let mut end = offset as usize;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text[start as usize..end].encode_utf16().count() as u32
            }
        };
        LineCol {
            line: line as u32,
            col,
        }
    }

    /// The byte offset of a position; a line past the end gives the end of
    /// the text, a column past the end of its line the end of the line.
    pub fn offset(&self, pos: LineCol) -> TextSize {
        let Some(&start) = self.line_starts.get(pos.line as usize) else {
            return TextSize::from(self.len);
        };
        let end = self
            .line_starts
            .get(pos.line as usize + 1)
            .map_or(self.len, |&e| e - 1);
        let Some(text) = &self.non_ascii_text else {
            return TextSize::from(start.saturating_add(pos.col).min(end));
        };
        let line = &text[start as usize..end as usize];
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= pos.col {
                return TextSize::from(start + i as u32);
            }
            units += c.len_utf16() as u32;
        }
        TextSize::from(end)
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.line_starts.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_utf16() {
        let idx = LineIndex::new("ab\n// é𝄞x\r\nz");
        for off in [0u32, 1, 2, 3, 5, 6, 8, 12, 13, 15, 16] {
            let lc = idx.line_col(off.into());
            assert_eq!(u32::from(idx.offset(lc)), off, "{lc:?}");
        }
        assert_eq!(idx.line_col(12.into()), LineCol { line: 1, col: 6 });
        assert_eq!(u32::from(idx.offset(LineCol { line: 0, col: 99 })), 2);
        assert_eq!(u32::from(idx.offset(LineCol { line: 9, col: 0 })), 16);
    }

    #[test]
    fn ascii_columns_are_byte_distances() {
        let text = "ab\n\tmov.u32 %r1, 2;\r\n\nz";
        let idx = LineIndex::new(text);
        for off in 0..=text.len() as u32 {
            let lc = idx.line_col(off.into());
            assert_eq!(u32::from(idx.offset(lc)), off, "{lc:?}");
        }
        assert_eq!(idx.line_col(5.into()), LineCol { line: 1, col: 2 });
        assert_eq!(u32::from(idx.offset(LineCol { line: 0, col: 99 })), 2);
        assert_eq!(
            u32::from(idx.offset(LineCol { line: 9, col: 0 })),
            text.len() as u32
        );
        assert_eq!(idx.len(), 4);
    }
}
