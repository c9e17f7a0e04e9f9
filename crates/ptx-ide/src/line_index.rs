//! Offsets ↔ 0-based line and UTF-16 column, the positions editors speak.
//!
//! `ptx_syntax::line_index` counts 1-based characters for `ptxopt check`; an
//! editor (LSP's default position encoding) counts UTF-16 code units from 0.
//! Columns past the end of a line clamp to the line's end.

use ptx_syntax::TextSize;

/// A 0-based line and a 0-based column in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The line starts of one text, with the text itself (for UTF-16 counting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    text: String,
    line_starts: Vec<u32>,
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
        LineIndex {
            text: text.to_string(),
            line_starts,
        }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: TextSize) -> LineCol {
        let offset = u32::from(offset).min(self.text.len() as u32);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].encode_utf16().count() as u32;
        LineCol {
            line: line as u32,
            col,
        }
    }

    /// The byte offset of a position; a line past the end gives the end of
    /// the text, a column past the end of its line the end of the line.
    pub fn offset(&self, pos: LineCol) -> TextSize {
        let Some(&start) = self.line_starts.get(pos.line as usize) else {
            return TextSize::of(self.text.as_str());
        };
        let end = self
            .line_starts
            .get(pos.line as usize + 1)
            .map_or(self.text.len(), |&e| e as usize - 1);
        let line = &self.text[start as usize..end];
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= pos.col {
                return TextSize::from(start + i as u32);
            }
            units += c.len_utf16() as u32;
        }
        TextSize::from(end as u32)
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
}
