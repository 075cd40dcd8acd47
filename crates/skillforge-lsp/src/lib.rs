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
mod transport;

pub use server::{serve, Ended, Server, CATALOG_PREVIEW};
pub use transport::MAX_MESSAGE_BYTES;

/// Serves one client over stdin/stdout until it exits or its input closes. `Err` names why the session
/// could not go on (headers that cannot be followed, a closed output).
pub fn stdio() -> Result<Ended, String> {
    let (to_server, from_client) = crossbeam_channel::bounded(16);
    let (to_client, from_server) = crossbeam_channel::bounded(16);
    let replies = to_client.clone();
    let reader = std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || transport::read_all(std::io::stdin().lock(), to_server, replies))
        .map_err(|error| error.to_string())?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || transport::write_all(std::io::stdout().lock(), from_server))
        .map_err(|error| error.to_string())?;
    let ended = serve(lsp_server::Connection {
        sender: to_client,
        receiver: from_client,
    });
    // The writer ends once every sender is gone; the reader may still wait on stdin, so it is not joined.
    let written = writer.join();
    if reader.is_finished() {
        if let Ok(Some(lost)) = reader.join() {
            return Err(lost);
        }
    }
    match written {
        Ok(Ok(())) => ended,
        Ok(Err(error)) => Err(format!("writing to the editor: {error}")),
        Err(_) => Err("the output thread failed".into()),
    }
}
