//! The two skills Gemini CLI 0.61.0 ships in its bundle (`bundle/builtin/<name>/SKILL.md` of
//! `@google/gemini-cli@0.61.0`) and always lists first: their names and descriptions as the client
//! reads them (folded plain scalars), copied from those files. Their location is the client's
//! install folder, which only the caller knows. The fidelity suite compares the whole section, these
//! entries included, with what the installed client sends.

/// One of the client's own skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    pub name: &'static str,
    pub description: &'static str,
}

/// In the client's order (the bundle's `builtin/` read as a skills root: descending folder names).
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "skill-creator",
        description: "Guide for creating effective skills. This skill should be used when users want to create a new skill (or update an existing skill) that extends Gemini CLI's capabilities with specialized knowledge, workflows, or tool integrations.",
    },
    Builtin {
        name: "antigravity-support",
        description: "Use when the user asks questions, seeks help, or requests instructions related to installing, setting up, or migrating to Antigravity CLI. This skill provides the latest up to date details, requirements, and commands sourced from the official Antigravity CLI documentation.",
    },
];

/// Where a global npm install keeps the bundle, for the builtins' locations when no bundle folder
/// is given.
pub const DEFAULT_BUNDLE: &str = "/usr/local/lib/node_modules/@google/gemini-cli/bundle";
