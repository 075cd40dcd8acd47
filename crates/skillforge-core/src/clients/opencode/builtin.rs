//! The client's own skill, which OpenCode 1.18.33 always loads first: its text as the binary sends it
//! (the `<skill>` block of an empty project, `p08` in docs/clients-observed.md), pinned so that
//! `listing --project --with-client-skills` can print it. The fidelity suite compares it with what the
//! binary sends at test time.

/// The built-in skill's name; a user's skill of the same name replaces it.
pub const NAME: &str = "customize-opencode";

/// Its description, verbatim.
pub const DESCRIPTION: &str = "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.";

/// Its location as the client names it (escaped in the listing like any other).
pub const LOCATION: &str = "<built-in>";
