//! Lint timings for `bench/lint.sh`.
//!
//! Usage: lint_bench TREE. Prints `key seconds` lines: linting one synthetic 300 KB SKILL.md (goal under
//! 5 ms), and collecting plus linting every skill under TREE with all profiles next to the engine's own
//! discovery walk of the same tree (goal: at most twice the discovery time). Best of several warm runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use skillforge_core::discovery::{DirectoryOptions, DirectorySource};
use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::{RealFiles, SkillFile};
use skillforge_core::lint::workspace::{collect, lint_file, lint_files, LintOptions};

fn best(runs: usize, mut run: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn large_skill() -> String {
    let mut text = String::from(
        "---\nname: large\ndescription: A large skill. Use when benchmarking the linter.\nmetadata:\n  author: bench\n---\n",
    );
    let mut line = 0;
    while text.len() < 300 * 1024 {
        line += 1;
        text.push_str(&format!(
            "Step {line}: read [the guide](references/guide-{}.md) and run `scripts/run.py --item {line}` carefully.\n",
            line % 12
        ));
        if line % 20 == 0 {
            text.push_str(&format!("\n## Section {line}\n\n"));
        }
    }
    text
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tree = PathBuf::from(std::env::args().nth(1).ok_or("usage: lint_bench TREE")?);
    let options = LintOptions::default();

    let file = SkillFile::from_bytes(
        PathBuf::from("large/SKILL.md"),
        "large/SKILL.md".into(),
        large_skill().into_bytes(),
    );
    let single = best(20, || {
        let _ = lint_file(&file, &options, &RealFiles);
    });

    let source = DirectorySource::new([&tree], DirectoryOptions::new(10_000_000, 16)?);
    let discovery = best(3, || {
        let _ = source.walk();
    });
    let mut count = 0;
    let workspace = best(3, || {
        if let Ok(files) = collect(std::slice::from_ref(&tree), &Config::default()) {
            count = lint_files(&files, &options).len();
        }
    });
    println!("lint_300kb_seconds {:.6}", single.as_secs_f64());
    println!("skills {count}");
    println!("discovery_seconds {:.6}", discovery.as_secs_f64());
    println!("lint_tree_seconds {:.6}", workspace.as_secs_f64());
    println!(
        "lint_to_discovery_ratio {:.2}",
        workspace.as_secs_f64() / discovery.as_secs_f64().max(f64::EPSILON)
    );
    Ok(())
}
