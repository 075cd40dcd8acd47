//! Discovery and manifest timings on one tree, for `bench/run.sh`.
//!
//! Usage: bench_discovery ROOT. Prints `key value` lines: the best of several warm runs of the
//! engine's discovery (what a client awaits: the walk and the catalog, as nagents' `discover()`
//! times it), on the default threads and on one thread, and of `find ROOT -name SKILL.md`; and
//! the mean manifest render time. It also prints how many runs and renders it did, so the baselines
//! in `bench/run.sh` repeat the same work as often.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use skillforge_core::clients::nagents::discovery::{
    DirectoryOptions, DirectorySource, SkillSource,
};
use skillforge_core::clients::nagents::{partition, render_skill_manifest};

const RUNS: usize = 5;
const MANIFEST_RENDERS: u32 = 200;

fn best(mut run: impl FnMut()) -> Duration {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: bench_discovery ROOT")?,
    );
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    let options = DirectoryOptions::new(10_000_000, 16)?;
    let source = DirectorySource::new([&root], options);
    let one_thread = DirectorySource::new([&root], options.with_threads(1));
    let mut found = 0;
    let mut failure = None;
    let mut discover = |source: &DirectorySource| match runtime.block_on(source.discover()) {
        Ok(skills) => found = skills.len(),
        Err(error) => failure = Some(error),
    };
    let engine = best(|| discover(&source));
    let engine_one_thread = best(|| discover(&one_thread));
    if let Some(error) = failure {
        return Err(error.into());
    }
    // A `find` that fails would be a bogus fast baseline: any failure ends the benchmark.
    let mut find_failure = None;
    let find = best(|| {
        match Command::new("find")
            .arg(&root)
            .args(["-name", "SKILL.md"])
            .stdout(Stdio::null())
            .status()
        {
            Ok(status) if status.success() => {}
            Ok(status) => find_failure = Some(format!("find exited with {status}")),
            Err(error) => find_failure = Some(format!("cannot run find: {error}")),
        }
    });
    if let Some(failure) = find_failure {
        return Err(failure.into());
    }
    let skills = partition(source.walk().found).skills;
    let renders = MANIFEST_RENDERS;
    let start = Instant::now();
    let mut bytes = 0;
    for _ in 0..renders {
        bytes += render_skill_manifest(&skills).len();
    }
    let manifest = start.elapsed() / renders;
    println!("runs {RUNS}");
    println!("manifest_renders {renders}");
    println!("skills {found}");
    println!(
        "threads {}",
        std::thread::available_parallelism()
            .map_or(1, |threads| threads.get())
            .min(skillforge_core::clients::nagents::discovery::directory::MAX_WALK_THREADS)
    );
    println!("engine_seconds {:.6}", engine.as_secs_f64());
    println!(
        "engine_one_thread_seconds {:.6}",
        engine_one_thread.as_secs_f64()
    );
    println!("find_seconds {:.6}", find.as_secs_f64());
    println!("manifest_seconds {:.9}", manifest.as_secs_f64());
    println!("manifest_bytes {}", bytes / renders as usize);
    Ok(())
}
