//! The builtin skills, embedded from the repository's `skills/` folder at compile time.

use include_dir::{include_dir, Dir};

/// The repository's `skills/` folder, as it was when the engine was compiled.
pub static BUILTIN_SKILLS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../skills");
