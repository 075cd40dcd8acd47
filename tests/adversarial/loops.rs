//! Link loops end with a message, never a hang (every run is killed after the suite's timeout).

use super::{mkdir, skill_text, skillforge, summary_line, symlink, temporary, write};

#[test]
fn link_loops_and_links_to_a_parent_end_with_a_message() {
    let temp = temporary();
    let root = temp.path.join("root");
    write(&root.join("s/SKILL.md"), skill_text("s"));
    mkdir(&root.join("loop"));
    symlink("b", &root.join("loop/a"));
    symlink("a", &root.join("loop/b"));
    // A skill folder linking to its parent, and the root linking to itself.
    symlink("..", &root.join("s/up"));
    symlink(".", &root.join("here"));
    // A SKILL.md that is a loop of its own.
    mkdir(&root.join("self"));
    symlink("SKILL.md", &root.join("self/SKILL.md"));
    // Two SKILL.md linking to each other.
    mkdir(&root.join("pair/x"));
    mkdir(&root.join("pair/y"));
    symlink("../y/SKILL.md", &root.join("pair/x/SKILL.md"));
    symlink("../x/SKILL.md", &root.join("pair/y/SKILL.md"));

    let run = skillforge(&temp.path, &["lint", "root", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    // Links are followed as the kernel would, so every loop is the kernel's ELOOP, named per link.
    let round = "which goes round in a loop of links";
    assert_eq!(
        run.stderr,
        format!(
            "error: root/pair/x/SKILL.md: is a symbolic link to ../y/SKILL.md, {round}; not linted\n\
             error: root/pair/y/SKILL.md: is a symbolic link to ../x/SKILL.md, {round}; not linted\n\
             error: root/self/SKILL.md: is a symbolic link to SKILL.md, {round}; not linted\n\
             note: root/loop/a: is a symbolic link to b, {round}; not followed\n\
             note: root/loop/b: is a symbolic link to a, {round}; not followed\n"
        )
    );
    // The one real skill is linted once: neither `up` nor `here` brings it back a second time.
    assert_eq!(
        summary_line(&run.stdout),
        "0 errors, 0 warnings, 0 infos in 1 files; 0 fixable with --fix, 0 more with --unsafe-fixes."
    );

    for (path, what) in [
        ("root/loop/a", "root/loop/a"),
        ("root/self/SKILL.md", "root/self/SKILL.md"),
    ] {
        let run = skillforge(&temp.path, &["lint", path, "--no-config"]);
        assert_eq!(run.code, 2, "{path}: {run:?}");
        assert_eq!(
            run.stderr,
            format!("error: {what}: Too many levels of symbolic links (os error 40)\n"),
            "{path}"
        );
    }
}
