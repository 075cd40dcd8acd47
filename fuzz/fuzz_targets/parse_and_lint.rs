//! Any bytes as a SKILL.md: parsing, every rule, verdicts, fixes and the 10xGraph catalog must neither
//! panic nor hang, every diagnostic must point inside the file on character boundaries, and fixes must
//! settle.
#![no_main]

use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use skillforge_core::clients::tenxgraph;
use skillforge_core::lint::context::{FileProbe, SkillFile};
use skillforge_core::lint::fix::fix_until_stable;
use skillforge_core::lint::workspace::{lint_file, place, tenxgraph_loaded, LintOptions};

/// No filesystem: link checks see nothing, so runs are reproducible.
struct NoFiles;

impl FileProbe for NoFiles {
    fn exists(&self, _skill_dir: &Path, _inside: &Path) -> bool {
        false
    }
}

fuzz_target!(|data: &[u8]| {
    let mut files = vec![SkillFile::from_bytes(
        PathBuf::from("skills/fuzz-skill/SKILL.md"),
        "skills/fuzz-skill/SKILL.md".to_string(),
        data.to_vec(),
    )];
    place(&mut files);
    let options = LintOptions::default();
    for file in &files {
        let report = lint_file(file, &options, &NoFiles);
        for diagnostic in &report.diagnostics {
            let range = diagnostic.range;
            assert!(range.start <= range.end && range.end() <= file.source.len(), "{diagnostic:?}");
            assert!(file.source.is_char_boundary(range.start()) && file.source.is_char_boundary(range.end()));
            if let Some(fix) = &diagnostic.fix {
                for edit in &fix.edits {
                    assert!(edit.range.end() <= file.source.len(), "{diagnostic:?}");
                }
            }
        }
        let fixed = fix_until_stable(file, &options, &NoFiles, true);
        assert!(fixed.converged, "fixes did not converge");
    }
    let _ = tenxgraph::catalog(&tenxgraph_loaded(&files, &NoFiles));
});
