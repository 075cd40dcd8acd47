//! Checks the fuzz targets share.

/// serde_json counts lines from 1 and columns from 1 (0 before the first character of a line): a
/// reported position must lie inside `text`.
pub fn check_position(line: usize, column: usize, text: &str) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        (1..=lines.len()).contains(&line),
        "line {line} of {}",
        lines.len()
    );
    let length = lines[line - 1].len();
    assert!(
        column <= length + 1,
        "column {column} of a line {length} bytes long"
    );
}
