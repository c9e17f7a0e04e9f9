//! Byte offset to line/column conversion for diagnostics.

use rowan::TextSize;

/// Maps byte offsets of a text to 1-based line and column numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset at which each line starts.
    line_starts: Vec<u32>,
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { line_starts }
    }

    /// The 1-based line and column of `offset` in `text` (the text this index was
    /// built from).
    pub fn line_col(&self, text: &str, offset: TextSize) -> LineCol {
        let offset = u32::from(offset).min(text.len() as u32);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let col = text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            col,
        }
    }

    /// The text of 1-based `line`, without its line terminator.
    pub fn line_text<'t>(&self, text: &'t str, line: u32) -> &'t str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map_or(text.len(), |&e| e as usize);
        text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.line_starts.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}
