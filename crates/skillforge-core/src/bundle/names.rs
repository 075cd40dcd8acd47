//! File names that may go into an export.
//!
//! Every path written into a folder or an archive passes through [`check_relative`]: a name that an
//! unzip tool, Python's `zipfile` or Windows could read as a different place (`..`, an absolute path, a
//! drive letter, a backslash) or that could forge lines in a listing (control characters) is refused,
//! so no exported entry can land outside the folder it is extracted into.

/// Why a file name cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("an empty path or path component")]
    Empty,
    #[error("an absolute path")]
    Absolute,
    #[error("a `.` or `..` component, which could point outside the skill folder")]
    DotComponent,
    #[error("a backslash, which Windows and many unzip tools read as a folder separator")]
    Backslash,
    #[error("a control character (U+{0:04X})")]
    Control(u32),
    #[error("a drive letter or `:`, which Windows reads as another place")]
    Colon,
    #[error("not valid UTF-8, which archives and Python packages cannot name portably")]
    NotUtf8,
}

/// Checks one component of a path as read from a directory listing.
pub fn check_component(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name == "." || name == ".." {
        return Err(NameError::DotComponent);
    }
    for character in name.chars() {
        if character == '\\' {
            return Err(NameError::Backslash);
        }
        if character == '/' {
            // A component never holds a separator; one that does was not read from a listing.
            return Err(NameError::DotComponent);
        }
        if character == ':' {
            return Err(NameError::Colon);
        }
        if character.is_control() {
            return Err(NameError::Control(u32::from(character)));
        }
    }
    Ok(())
}

/// Checks a `/`-separated relative path, component by component.
pub fn check_relative(path: &str) -> Result<(), NameError> {
    if path.starts_with('/') {
        return Err(NameError::Absolute);
    }
    path.split('/').try_for_each(check_component)
}

/// Turns raw listing bytes into a checked component.
pub fn component_from_bytes(bytes: &[u8]) -> Result<&str, NameError> {
    let name = std::str::from_utf8(bytes).map_err(|_| NameError::NotUtf8)?;
    check_component(name)?;
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_names_are_refused() {
        for (path, expected) in [
            ("../evil", NameError::DotComponent),
            ("a/../../evil", NameError::DotComponent),
            ("/etc/passwd", NameError::Absolute),
            ("..\\evil", NameError::Backslash),
            ("a\\..\\..\\evil", NameError::Backslash),
            ("C:/evil", NameError::Colon),
            ("C:evil", NameError::Colon),
            ("line\nbreak", NameError::Control(0x0a)),
            ("esc\u{1b}[31m", NameError::Control(0x1b)),
            ("a//b", NameError::Empty),
            ("", NameError::Empty),
            ("./a", NameError::DotComponent),
        ] {
            assert_eq!(check_relative(path), Err(expected), "{path:?}");
        }
    }

    #[test]
    fn ordinary_names_pass() {
        for path in [
            "SKILL.md",
            "scripts/extract.py",
            "references/résumé notes.md",
            "assets/.hidden",
            "a..b/c...d",
        ] {
            assert_eq!(check_relative(path), Ok(()), "{path:?}");
        }
        assert_eq!(component_from_bytes(b"\xff"), Err(NameError::NotUtf8));
    }
}
