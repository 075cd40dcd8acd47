//! Lint timings for `bench/lint.sh`.
//!
//! Usage: lint_bench TREE LARGE. Prints `key value` lines: linting one synthetic 300 KB SKILL.md (goal
//! under 5 ms; the file is also written to LARGE/SKILL.md so skills-ref can validate the very same
//! text), and collecting plus linting every skill under TREE with all profiles next to the engine's own
//! discovery walk of the same tree (goal: at most twice the discovery time). Each figure is the best of
//! a fixed number of warm runs, printed too so that `bench/lint.sh` gives skills-ref as many. Any error
//! (a tree that cannot be collected, a walk with diagnostics, counts that disagree) ends the benchmark
//! with a failure instead of printing the time of work that was not done.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skillforge_core::clients::nagents::discovery::{DirectoryOptions, DirectorySource};
use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::{RealFiles, SkillFile};
use skillforge_core::lint::workspace::{collect, lint_file, lint_files, LintOptions};

/// Runs of the 300 KB lint and of the tree lint; skills-ref gets as many of each.
const SINGLE_RUNS: usize = 20;
const TREE_RUNS: usize = 3;

type Failure = Box<dyn std::error::Error>;

/// The best time of `runs` runs; the first error ends the measurement.
fn best(runs: usize, mut run: impl FnMut() -> Result<(), Failure>) -> Result<Duration, Failure> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        run()?;
        best = best.min(start.elapsed());
    }
    Ok(best)
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

fn main() -> Result<(), Failure> {
    let mut arguments = std::env::args().skip(1);
    let (Some(tree), Some(large)) = (arguments.next(), arguments.next()) else {
        return Err("usage: lint_bench TREE LARGE".into());
    };
    let tree = PathBuf::from(tree);
    let options = LintOptions::default();

    let text = large_skill();
    std::fs::create_dir_all(&large)?;
    std::fs::write(Path::new(&large).join("SKILL.md"), &text)?;
    let file = SkillFile::from_bytes(
        PathBuf::from("large/SKILL.md"),
        "large/SKILL.md".into(),
        text.into_bytes(),
    );
    let single = best(SINGLE_RUNS, || {
        std::hint::black_box(lint_file(&file, &options, &RealFiles));
        Ok(())
    })?;

    let source = DirectorySource::new([&tree], DirectoryOptions::new(10_000_000, 16)?);
    let mut discovered = 0;
    let discovery = best(TREE_RUNS, || {
        let survey = source.walk();
        if let Some(diagnostic) = survey.diagnostics.first() {
            return Err(format!("discovery of {}: {diagnostic}", tree.display()).into());
        }
        discovered = survey.found.len();
        Ok(())
    })?;
    let mut count = 0;
    let workspace = best(TREE_RUNS, || {
        let files = collect(std::slice::from_ref(&tree), &Config::default())?;
        count = lint_files(&files, &options).len();
        Ok(())
    })?;
    if count == 0 || count != discovered {
        return Err(format!("linted {count} skills but discovery found {discovered}").into());
    }
    println!("single_runs {SINGLE_RUNS}");
    println!("tree_runs {TREE_RUNS}");
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
