//! A fixed file keeps its owner, group and mode (it is a new file swapped in, so this is not free).

use std::os::unix::fs::{MetadataExt, PermissionsExt};

use super::{crlf_skill_text, skill_text, skillforge, temporary, write};

#[test]
fn fix_keeps_owner_group_and_mode() {
    if !super::is_root() {
        panic!("this test gives a file to nobody:nogroup, which takes root; run the suite as root");
    }
    let temp = temporary();
    let skill = temp.path.join("skills/owned/SKILL.md");
    write(&skill, crlf_skill_text("owned"));
    if let Err(error) = std::os::unix::fs::chown(&skill, Some(65534), Some(65534)) {
        panic!("chown: {error}");
    }
    super::chmod(&skill, 0o640);
    let inode = std::fs::metadata(&skill)
        .map(|metadata| metadata.ino())
        .ok();

    let run = skillforge(&temp.path, &["lint", "--fix", "skills", "--no-config"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("Applied 1 fixes in 1 files."),
        "{run:?}"
    );
    assert_eq!(super::read(&skill), skill_text("owned").as_bytes());
    let metadata = match std::fs::metadata(&skill) {
        Ok(metadata) => metadata,
        Err(error) => panic!("{error}"),
    };
    // A new file took the old one's place, so owner and mode were carried over, not left alone.
    assert_ne!(Some(metadata.ino()), inode);
    assert_eq!((metadata.uid(), metadata.gid()), (65534, 65534));
    assert_eq!(metadata.permissions().mode() & 0o7777, 0o640);
}
