//! Hostile input in ordinary `cargo test`: deterministic mutations of every rule fixture, plus alias bombs and
//! deep nesting, must not panic, must keep diagnostics inside the file, and fixes must settle. The cargo-fuzz
//! target under fuzz/ explores further; crashing inputs it finds are kept under tests/fixtures/fuzz/.

use std::path::{Path, PathBuf};

use skillforge_core::clients::tenxgraph;
use skillforge_core::lint::context::{FileProbe, SkillFile};
use skillforge_core::lint::fix::fix_until_stable;
use skillforge_core::lint::workspace::{lint_file, place, tenxgraph_loaded, LintOptions};

struct NoFiles;

impl FileProbe for NoFiles {
    fn exists(&self, _skill_dir: &Path, _inside: &Path) -> bool {
        false
    }
}

fn check(bytes: &[u8]) {
    let mut files = vec![SkillFile::from_bytes(
        PathBuf::from("skills/case/SKILL.md"),
        "skills/case/SKILL.md".into(),
        bytes.to_vec(),
    )];
    place(&mut files);
    let options = LintOptions::default();
    let file = &files[0];
    let report = lint_file(file, &options, &NoFiles);
    for diagnostic in &report.diagnostics {
        let range = diagnostic.range;
        assert!(
            range.end() <= file.source.len(),
            "{diagnostic:?} in {:?}",
            file.source
        );
        assert!(
            file.source.is_char_boundary(range.start())
                && file.source.is_char_boundary(range.end())
        );
    }
    let fixed = fix_until_stable(file, &options, &NoFiles, true);
    assert!(fixed.converged, "fixes do not settle for {:?}", file.source);
    let _ = tenxgraph::catalog(&tenxgraph_loaded(&files, &NoFiles));
}

fn seeds() -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|name| name == "SKILL.md")
                // The other targets' inputs sit in folders below, replayed by input_robustness.rs.
                || path.parent().is_some_and(|folder| folder.ends_with("fixtures/fuzz"))
            {
                found.push(std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    found.sort();
    found
}

/// xorshift64: reproducible without a dependency.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

const TOKENS: &[&[u8]] = &[
    b"---\n",
    b": ",
    b" #",
    b"|\n",
    b">-\n",
    b"[",
    b"]",
    b"{",
    b"}",
    b"&a ",
    b"*a",
    b"!!str ",
    b"\"",
    b"'",
    b"\r\n",
    b"\r",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"\t",
    b"\n  - ",
    b"metadata:\n  ",
    b"name: ",
    b"description: ",
    b"](../x)",
    b"[l](",
    b"# skillforge: ignore[SF",
    b"\xf0\x9f\x98\x80",
    b"\n",
    b"- ",
];

#[test]
fn fuzz_regressions_and_mutated_fixtures_never_break_the_linter() {
    let seeds = seeds();
    assert!(!seeds.is_empty());
    // Every seed as is first: this replays the crashing inputs kept from fuzzing.
    for seed in &seeds {
        check(seed);
    }
    let mut random = Random(0x5eed_cafe_f00d_d00d);
    for round in 0..3000 {
        let mut bytes = seeds[round % seeds.len()].clone();
        for _ in 0..1 + random.below(6) {
            let at = random.below(bytes.len() + 1);
            match random.below(4) {
                0 => {
                    let token = TOKENS[random.below(TOKENS.len())];
                    bytes.splice(at..at, token.iter().copied());
                }
                1 if at < bytes.len() => {
                    let end = (at + random.below(16)).min(bytes.len());
                    bytes.drain(at..end);
                }
                2 if at < bytes.len() => bytes[at] = random.next() as u8,
                _ => {
                    let from = random.below(bytes.len());
                    let end = (from + random.below(32)).min(bytes.len());
                    let copy = bytes[from..end].to_vec();
                    bytes.splice(at..at, copy);
                }
            }
        }
        check(&bytes);
    }
}

#[test]
fn alias_bombs_and_deep_nesting_are_bounded() {
    let mut bomb = String::from("---\nname: bomb\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..40 {
        let previous = level - 1;
        bomb.push_str(&format!("a{level}: &a{level} [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"));
    }
    bomb.push_str("description: *a39\n---\n");
    check(bomb.as_bytes());
    check(format!("---\na: {}\n---\n", "[".repeat(100_000)).as_bytes());
    check(format!("---\na: {}\n---\n", "{a: ".repeat(50_000)).as_bytes());
    let mut deep = String::from("---\n");
    for level in 0..5_000 {
        deep.push_str(&" ".repeat(level));
        deep.push_str("k:\n");
    }
    deep.push_str("---\n");
    check(deep.as_bytes());
    check(format!("---\nname: x\n{}---\n", "- a\n".repeat(20_000)).as_bytes());
}

/// A FIFO or a link to an endless device named SKILL.md must neither hang nor stop the others being linted.
#[test]
fn special_files_are_skipped_with_a_reason_never_read() {
    use skillforge_core::lint::config::Config;
    use skillforge_core::lint::workspace::collect_all;

    let Ok(directory) = tempfile::tempdir() else {
        panic!("no temporary directory");
    };
    let root = directory.path();
    for skill in ["fifo", "device", "good"] {
        std::fs::create_dir(root.join(skill)).ok();
    }
    let fifo = root.join("fifo/SKILL.md");
    let made = rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    );
    assert!(made.is_ok(), "mkfifo: {made:?}");
    std::os::unix::fs::symlink("/dev/zero", root.join("device/SKILL.md")).ok();
    std::fs::write(
        root.join("good/SKILL.md"),
        "---\nname: good\ndescription: Fine. Use when fine.\n---\n",
    )
    .ok();
    let collected = match collect_all(&[root.to_path_buf()], &Config::default()) {
        Ok(collected) => collected,
        Err(error) => panic!("collect failed: {error}"),
    };
    let linted: Vec<_> = collected
        .files
        .iter()
        .map(|file| file.dir_name.as_str())
        .collect();
    assert_eq!(linted, ["good"]);
    let skipped: Vec<_> = collected
        .skipped
        .iter()
        .map(|skipped| skipped.path.as_str())
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    let reason_of = |skill: &str| {
        collected
            .skipped
            .iter()
            .find(|skipped| skipped.path.contains(skill))
            .map(|skipped| skipped.reason.clone())
            .unwrap_or_default()
    };
    assert!(
        reason_of("fifo").contains("FIFO (named pipe), not a regular file"),
        "{}",
        reason_of("fifo")
    );
    // A link out of the linted folder is never opened, so `/dev/zero` is not even looked at.
    assert!(
        reason_of("device").contains("a symbolic link to /dev/zero, outside"),
        "{}",
        reason_of("device")
    );
}
