//! Behaviour of the sources together; byte-level agreement with nagents is checked by the
//! fidelity tests against the real package.

use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::*;

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    std::fs::write(path, text).ok();
}

fn skill_text(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody of {name}.\n")
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Builder::new_current_thread().build() {
        Ok(runtime) => runtime.block_on(future),
        Err(error) => panic!("runtime: {error}"),
    }
}

fn names(skills: &[Skill]) -> Vec<&str> {
    skills.iter().map(|skill| skill.name.as_str()).collect()
}

/// A source whose snapshot a test sets directly.
struct FixedSource {
    skills: Mutex<Result<Vec<Skill>, SourceError>>,
    tag: &'static str,
}

impl FixedSource {
    fn new(tag: &'static str, skills: Vec<Skill>) -> Arc<Self> {
        Arc::new(Self {
            skills: Mutex::new(Ok(skills)),
            tag,
        })
    }

    fn set(&self, result: Result<Vec<Skill>, SourceError>) {
        if let Ok(mut guard) = self.skills.lock() {
            *guard = result;
        }
    }
}

#[async_trait]
impl SkillSource for FixedSource {
    async fn discover(&self) -> Result<Vec<Skill>, SourceError> {
        let found = self
            .skills
            .lock()
            .map_err(|error| SourceError::Interrupted(error.to_string()))?
            .clone()?;
        Ok(crate::clients::nagents::skill_catalog(found)?
            .into_values()
            .collect())
    }

    async fn load(&self, skill: &Skill) -> Result<String, SourceError> {
        Ok(format!("{} from {}", skill.name, self.tag))
    }
}

fn skill(name: &str, location: &str) -> Skill {
    Skill {
        name: name.into(),
        description: format!("{name} description"),
        location: location.into(),
    }
}

#[test]
fn directory_source_skips_links_and_fifos_and_loads_current_text() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    let root = temp.path();
    write(&root.join("real/SKILL.md"), &skill_text("real"));
    std::fs::create_dir_all(root.join("linked-file")).ok();
    std::os::unix::fs::symlink(
        root.join("real/SKILL.md"),
        root.join("linked-file/SKILL.md"),
    )
    .ok();
    std::os::unix::fs::symlink(root.join("real"), root.join("linked-dir")).ok();
    std::fs::create_dir_all(root.join("fifo")).ok();
    let _ = rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("fifo/SKILL.md"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    );
    let source = DirectorySource::new([root], DirectoryOptions::default());
    let skills = block_on(source.discover());
    let Ok(skills) = skills else {
        panic!("{skills:?}")
    };
    assert_eq!(names(&skills), ["real"]);
    let loaded = block_on(source.load(&skills[0]));
    assert_eq!(loaded, Ok(skill_text("real")));

    // An edit that changes the metadata makes the snapshot stale.
    write(&root.join("real/SKILL.md"), &skill_text("renamed"));
    assert_eq!(
        block_on(source.load(&skills[0])).map_err(|error| error.to_string()),
        Err("Skill 'real' changed; refresh discovery and retry".to_string())
    );
    let stranger = skill("stranger", "/elsewhere/SKILL.md");
    assert_eq!(
        block_on(source.load(&stranger)).map_err(|error| error.to_string()),
        Err("Skill 'stranger' is not in this directory catalog; refresh discovery".to_string())
    );
}

#[test]
fn directory_source_entry_limit_publishes_nothing_of_that_directory() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    let root = temp.path();
    write(&root.join("a/SKILL.md"), &skill_text("a"));
    write(&root.join("b/SKILL.md"), &skill_text("b"));
    // Root has 2 entries; a has 1; b has 1: 4 in all.
    let exact = DirectorySource::new([root], DirectoryOptions::new(4, 16).unwrap_or_default());
    assert_eq!(exact.walk().found.len(), 2);
    let short = DirectorySource::new([root], DirectoryOptions::new(3, 16).unwrap_or_default());
    let survey = short.walk();
    assert_eq!(names(&survey.found), ["a"]);
    let root_text = root.display();
    // The budget ran out after `a`, so `b` is never opened.
    assert_eq!(
        survey.diagnostics,
        [format!(
            "{root_text}/b: discovery depth/entry limit reached"
        )]
    );
    // One entry more than the budget in a single directory: nothing of it is published.
    let tiny = DirectorySource::new([root], DirectoryOptions::new(1, 16).unwrap_or_default());
    let survey = tiny.walk();
    assert!(survey.found.is_empty());
    assert_eq!(
        survey.diagnostics,
        [format!(
            "{root_text}: discovery entry limit reached; increase max_entries"
        )]
    );
    assert_eq!(
        DirectoryOptions::new(0, 0).map_err(|error| error.to_string()),
        Err("max_entries must be positive and max_depth nonnegative".to_string())
    );
}

#[test]
fn directory_source_counts_links_and_special_files_toward_the_entry_limit() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    let root = temp.path();
    write(&root.join("a/SKILL.md"), &skill_text("a"));
    std::os::unix::fs::symlink(root.join("a"), root.join("link")).ok();
    let _ = rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("pipe"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    );
    // Root lists a, link and pipe (3 entries, as nagents counts them); a lists SKILL.md: 4.
    let exact = DirectorySource::new([root], DirectoryOptions::new(4, 16).unwrap_or_default());
    let survey = exact.walk();
    assert_eq!(names(&survey.found), ["a"]);
    assert!(survey.diagnostics.is_empty(), "{:?}", survey.diagnostics);
    // With 3 the root's listing uses the whole budget, so `a` is never opened.
    let short = DirectorySource::new([root], DirectoryOptions::new(3, 16).unwrap_or_default());
    let survey = short.walk();
    assert!(survey.found.is_empty());
    assert_eq!(
        survey.diagnostics,
        [format!(
            "{}/a: discovery depth/entry limit reached",
            root.display()
        )]
    );
}

#[test]
fn nested_roots_walk_each_directory_once() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    let outer = temp.path().join("outer");
    let inner = outer.join("inner");
    write(&outer.join("top/SKILL.md"), &skill_text("top"));
    write(&inner.join("SKILL.md"), &skill_text("inner"));
    let locations = |survey: &Survey| -> Vec<String> {
        survey
            .found
            .iter()
            .map(|skill| skill.location.clone())
            .collect()
    };
    let both = [
        format!("{}/SKILL.md", inner.display()),
        format!("{}/top/SKILL.md", outer.display()),
    ];
    // Results checked against nagents 0.25.2 on the same tree.
    // The inner root was walked as part of the outer one: nagents skips it.
    let survey = DirectorySource::new([&outer, &inner], DirectoryOptions::default()).walk();
    assert_eq!(locations(&survey), both);
    // The inner root first: the outer walk skips the directory it already walked.
    let survey = DirectorySource::new([&inner, &outer], DirectoryOptions::default()).walk();
    assert_eq!(locations(&survey), both);
    // The same root twice is walked once.
    let survey = DirectorySource::new([&outer, &outer], DirectoryOptions::default()).walk();
    assert_eq!(locations(&survey), both);
    // Too deep below the outer root, the inner directory is not walked there, so its own root
    // walks it.
    let shallow = DirectoryOptions::new(10_000, 0).unwrap_or_default();
    let survey = DirectorySource::new([&outer, &inner], shallow).walk();
    assert_eq!(locations(&survey), both[..1]);
    assert_eq!(
        survey.diagnostics,
        [
            format!("{}: discovery depth/entry limit reached", inner.display()),
            format!(
                "{}/top: discovery depth/entry limit reached",
                outer.display()
            ),
        ]
    );
}

#[test]
fn duplicates_fail_discovery_but_survey_keeps_them() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    write(&temp.path().join("a/SKILL.md"), &skill_text("same"));
    write(&temp.path().join("b/SKILL.md"), &skill_text("same"));
    let source = DirectorySource::new([temp.path()], DirectoryOptions::default());
    let error = block_on(source.discover()).map_err(|error| error.to_string());
    let location = temp.path().join("b/SKILL.md");
    assert_eq!(
        error,
        Err(format!(
            "Duplicate skill name 'same' at {}",
            location.display()
        ))
    );
    assert_eq!(block_on(source.survey()).map(|s| s.found.len()), Ok(2));
}

#[test]
fn composite_prefers_the_first_source_and_loads_from_the_owner() {
    let first = FixedSource::new(
        "first",
        vec![skill("shared", "one"), skill("only-first", "one")],
    );
    let second = FixedSource::new(
        "second",
        vec![skill("shared", "two"), skill("only-second", "two")],
    );
    let composite = CompositeSource::new([first.clone() as Arc<dyn SkillSource>, second.clone()]);
    let skills = block_on(composite.discover()).unwrap_or_default();
    assert_eq!(names(&skills), ["only-first", "only-second", "shared"]);
    let shared = skills.iter().find(|s| s.name == "shared").cloned();
    let Some(shared) = shared else {
        panic!("shared missing")
    };
    assert_eq!(shared.location, "one");
    assert_eq!(
        block_on(composite.load(&shared)),
        Ok("shared from first".to_string())
    );
    let Some(second_only) = skills.iter().find(|s| s.name == "only-second").cloned() else {
        panic!("only-second missing")
    };
    assert_eq!(
        block_on(composite.load(&second_only)),
        Ok("only-second from second".to_string())
    );
    // A duplicate inside one source fails the whole composite.
    second.set(Ok(vec![skill("x", "a"), skill("x", "b")]));
    assert!(matches!(
        block_on(composite.discover()),
        Err(SourceError::Duplicate(_))
    ));
    assert_eq!(
        block_on(composite.load(&skill("ghost", "g"))).map_err(|e| e.to_string()),
        Err("Skill 'ghost' is not in this composite catalog; refresh discovery".to_string())
    );
}

#[test]
fn overlay_previews_unsaved_text() {
    let Ok(temp) = tempfile::tempdir() else {
        return;
    };
    let path = temp.path().join("pdf/SKILL.md");
    write(&path, &skill_text("pdf"));
    write(&temp.path().join("other/SKILL.md"), &skill_text("other"));
    let inner = Arc::new(DirectorySource::new(
        [temp.path()],
        DirectoryOptions::default(),
    ));
    let overlay = OverlaySource::new(inner);
    let location = path.display().to_string();
    let unsaved = "---\nname: pdf\ndescription: Edited, not saved.\n---\nNew body.\n";
    overlay.set(location.clone(), unsaved);
    let skills = block_on(overlay.discover()).unwrap_or_default();
    let Some(pdf) = skills.iter().find(|s| s.name == "pdf").cloned() else {
        panic!("pdf missing: {skills:?}")
    };
    assert_eq!(pdf.description, "Edited, not saved.");
    assert_eq!(block_on(overlay.load(&pdf)), Ok(unsaved.to_string()));
    let Some(other) = skills.iter().find(|s| s.name == "other").cloned() else {
        panic!("other missing")
    };
    assert_eq!(block_on(overlay.load(&other)), Ok(skill_text("other")));
    overlay.clear(&location);
    let skills = block_on(overlay.discover()).unwrap_or_default();
    assert!(skills.iter().any(|s| s.description == "The pdf skill."));
}

#[test]
fn holder_keeps_the_last_good_snapshot() {
    let source = FixedSource::new("fixed", vec![skill("a", "l")]);
    let holder = CatalogHolder::new(source.clone());
    assert!(block_on(holder.refresh()).is_ok());
    assert_eq!(holder.snapshot().generation, 1);
    source.set(Err(SourceError::OutsideRoots));
    assert!(block_on(holder.refresh()).is_err());
    let snapshot = holder.snapshot();
    assert_eq!(snapshot.skills.len(), 1);
    assert_eq!(snapshot.generation, 1);
    assert_eq!(
        snapshot.refresh_error.as_deref(),
        Some("Skill location is outside the configured roots")
    );
    source.set(Ok(vec![skill("a", "l")]));
    let loaded = block_on(holder.load("a", 1)).map(|result| result.content);
    assert_eq!(loaded, Ok("a fr".to_string()));
    assert_eq!(
        block_on(holder.load("it's", 1)).map_err(|e| e.to_string()),
        Err("Unknown skill \"it's\"; refresh the available skills catalog".to_string())
    );
    assert!(holder
        .manifest()
        .contains("<skill name=\"a\" location=\"l\">"));
}

#[test]
fn builtin_skills_parse() {
    let source = BuiltinSource::default();
    let skills = block_on(source.discover());
    let Ok(skills) = skills else {
        panic!("{skills:?}")
    };
    for skill in &skills {
        assert!(skill.location.starts_with("package:skillforge/skills/"));
        assert!(block_on(source.load(skill)).is_ok());
    }
}
