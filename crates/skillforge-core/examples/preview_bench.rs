//! Catalog preview refresh after a one-buffer change, per dialect: run by bench/preview.sh on the
//! 5,000-skill synthetic tree. Prints p50/p95/max over repeated refreshes; asserts nothing.

use std::path::PathBuf;
use std::time::Instant;

use skillforge_core::catalog::session::{Buffer, CatalogSession};
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits};
use skillforge_core::discovery::DirectoryOptions;

const ROUNDS: usize = 60;

fn main() {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: preview_bench ROOT");
        std::process::exit(2);
    };
    let root = skillforge_core::discovery::directory::absolute_root(&root);
    // The synthetic tree holds more entries than nagents' default walk bound; lift it so every
    // skill is in the catalog.
    let options = DirectoryOptions::new(10_000_000, 64).unwrap_or_default();
    let started = Instant::now();
    let session = CatalogSession::open_with(std::slice::from_ref(&root), options);
    println!(
        "session read once: {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let path = root.join("category-07/skill-00007/SKILL.md");
    let original = std::fs::read_to_string(&path).unwrap_or_default();
    for dialect in CatalogDialect::ALL {
        let mut times = Vec::with_capacity(ROUNDS);
        let mut entries = 0;
        for round in 0..ROUNDS {
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
            entries = preview.entries.len();
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
        println!(
            "{:<12} {entries:>5} skills  p50 {:>6.1} ms  p95 {:>6.1} ms  max {:>6.1} ms",
            dialect.id(),
            at(0.5),
            at(0.95),
            at(1.0)
        );
    }
}
