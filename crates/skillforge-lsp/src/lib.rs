//! `skillforge lsp`: a Language Server on the engine, over stdio. SKILL.md files get the linter's
//! findings as the author types (per the profiles of `skillforge.toml` or the client's
//! `initializationOptions.profiles`), every quick fix and "fix all" as code actions, rule documentation
//! and link targets on hover, completion of frontmatter keys and of relative links, document links, and
//! the catalog preview as the custom request `skillforge/catalogPreview`.
//!
//! The transport is rust-analyzer's `lsp-server`: synchronous, like the engine, so requests are answered
//! in order on one thread with no async runtime. Files outside the workspace folders are refused.

mod features;
mod position;
mod server;

pub use server::{serve, Server, CATALOG_PREVIEW};

/// Serves one client over stdin/stdout until it shuts down.
pub fn stdio() -> Result<(), String> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let served = server::serve(connection);
    io_threads.join().map_err(|error| error.to_string())?;
    served
}
