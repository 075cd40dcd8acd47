//! Claude Code 2.1.332, modelled from the real binary.
//!
//! Every rule here rests on the client itself: its bundled code (read in the 2.1.332 binary, function
//! names given where they help) and what the binary sends a model endpoint for the probe projects of
//! `tests/fidelity/client_probes.py` (docs/clients-observed.md). The fidelity suite
//! (`tests/fidelity/test_claude_code.py`) compares [`listing_text`] with the binary's own block on every
//! probe project, its expected values taken from the binary at test time.
//!
//! - [`discovery`]: roots, depth, hidden folders, links, order;
//! - [`frontmatter`]: the block, `Bun.YAML` and the quote retry;
//! - [`skill`]: what loads, the listed name, the description and its fallbacks;
//! - [`listing`]: the block's text, the description cut and the budget;
//! - [`builtin`]: the client's own entries (its text, pinned).

pub mod builtin;
pub mod discovery;
pub mod frontmatter;
pub mod listing;
pub mod skill;

use std::path::Path;

pub use discovery::{discover, Discovery};
pub use listing::{Listing, DEFAULT_BUDGET, HEADER};
pub use skill::Skill;

/// The client version this model reproduces.
pub const VERSION: &str = "2.1.332";

/// The block Claude Code sends when started in `project` with `home` as HOME: the header and the
/// project's and user's entries (the client's own too with `client_entries`), every line ended.
pub fn listing_text(
    project: &Path,
    home: Option<&Path>,
    budget: usize,
    client_entries: bool,
) -> (String, Discovery) {
    let discovery = discover(project, home);
    let listing = Listing::new(&discovery.listed(), budget);
    (listing.text(client_entries), discovery)
}
