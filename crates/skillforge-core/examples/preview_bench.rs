//! Catalog preview refresh after a one-buffer change, per dialect: run by bench/preview.sh on the
//! 5,000-skill synthetic tree, which times the peers over as many rounds of the same edit.
//!
//! Usage: preview_bench ROOT ROUNDS. Prints `rounds N`, `session_ms X` (the one read of the tree) and
//! one `preview DIALECT LISTED BYTES P50 P95 MAX` line per dialect: the skills in the listing and its
//! length after the last round, then milliseconds over ROUNDS refreshes, each with the buffer of
//! ROOT/category-07/skill-00007/SKILL.md edited anew. Asserts nothing.

use std::path::PathBuf;
use std::time::Instant;

use skillforge_core::catalog::session::{Buffer, CatalogSession};
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits};
use skillforge_core::clients::nagents::discovery::DirectoryOptions;

/// The skill whose buffer each round edits; bench/peers_preview.py edits the same one.
const EDITED: &str = "category-07/skill-00007/SKILL.md";

fn main() {
    let mut arguments = std::env::args().skip(1);
    let (Some(root), Some(Ok(rounds))) = (
        arguments.next().map(PathBuf::from),
        arguments.next().map(|rounds| rounds.parse::<usize>()),
    ) else {
        eprintln!("usage: preview_bench ROOT ROUNDS");
        std::process::exit(2);
    };
    if rounds == 0 {
        eprintln!("preview_bench: ROUNDS must be at least 1");
        std::process::exit(2);
    }
    let root = skillforge_core::clients::nagents::discovery::directory::absolute_root(&root);
    // The synthetic tree holds more entries than nagents' default walk bound; lift it so every
    // skill is in the catalog.
    let options = DirectoryOptions::new(10_000_000, 64).unwrap_or_default();
    let started = Instant::now();
    let session = CatalogSession::open_with(std::slice::from_ref(&root), options);
    println!("rounds {rounds}");
    println!("session_ms {:.3}", started.elapsed().as_secs_f64() * 1000.0);
    let path = root.join(EDITED);
    let original = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("preview_bench: cannot read {}: {error}", path.display());
            std::process::exit(1);
        }
    };
    for dialect in CatalogDialect::ALL {
        let mut times = Vec::with_capacity(rounds);
        let (mut listed, mut bytes) = (0, 0);
        for round in 0..rounds {
            // A keystroke: the buffer differs from the file and from the previous round.
            let text =
                original.replacen("description: ", &format!("description: edit {round} "), 1);
            let buffers = [Buffer {
                path: path.display().to_string(),
                text,
            }];
            let started = Instant::now();
            let preview = session.preview(dialect, &CatalogLimits::default(), &buffers);
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            listed = preview.entries.len() - preview.omitted.len();
            bytes = preview.text.len();
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
        println!(
            "preview {} {listed} {bytes} {:.3} {:.3} {:.3}",
            dialect.id(),
            at(0.5),
            at(0.95),
            at(1.0)
        );
    }
}
