//! The edit the warm-edit examples make: the digit before the `;` on a line
//! (bench-analyze prints the line it edits: 4488 on the dealii module).

/// Where that digit is in `text`, and the two digits the examples alternate
/// between (it, and it with the lowest bit flipped). Panics with a message
/// when line `line` has no `;` or no digit before it.
pub fn digit_before_semicolon(text: &str, line: usize) -> (usize, [String; 2]) {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let at = start + text[start..].find(';').expect("a `;` on the line") - 1;
    let digit = text.as_bytes()[at];
    assert!(
        digit.is_ascii_digit(),
        "no digit before the `;` of line {line}"
    );
    let digits = [
        char::from(digit).to_string(),
        char::from(digit ^ 1).to_string(),
    ];
    (at, digits)
}
