//! FIFOs and devices where a SKILL.md or an input file should be: refused at once by name, exit 2.
//! (A FIFO or device named directly as `--queries` or `script:` is covered by
//! crates/skillforge-cli/tests/cli_inputs.rs; here they sit inside trees or behind links.)

use std::path::Path;

use super::{mkdir, mkfifo, skill_text, skillforge, summary_line, symlink, temporary, write};

fn activation_fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/activation")
}

#[test]
fn a_fifo_named_skill_md_is_reported_and_the_rest_linted() {
    let temp = temporary();
    let root = temp.path.join("root");
    mkdir(&root.join("pipe"));
    mkfifo(&root.join("pipe/SKILL.md"));
    write(&root.join("ok/SKILL.md"), skill_text("ok"));
    // A SKILL.md linking to the FIFO from inside the tree is followed to it, and refused the same way.
    mkdir(&root.join("via"));
    symlink("../pipe/SKILL.md", &root.join("via/SKILL.md"));
    let fifo = "is a FIFO (named pipe), not a regular file; no client reads it; not linted";

    let run = skillforge(&temp.path, &["lint", "root", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("error: root/pipe/SKILL.md: {fifo}\nerror: root/via/SKILL.md: {fifo}\n")
    );
    assert_eq!(
        summary_line(&run.stdout),
        "0 errors, 0 warnings, 0 infos in 1 files; 0 fixable with --fix, 0 more with --unsafe-fixes."
    );

    let run = skillforge(&temp.path, &["lint", "--fix", "root", "--no-config"]);
    assert_eq!(run.code, 2, "--fix: {run:?}");

    for path in ["root/pipe/SKILL.md", "root/via/SKILL.md"] {
        let run = skillforge(&temp.path, &["lint", path, "--no-config"]);
        assert_eq!(run.code, 2, "{path}: {run:?}");
        assert_eq!(
            run.stderr,
            format!(
                "error: {path}: is a FIFO (named pipe), not a SKILL.md or a folder of skills\n"
            )
        );
    }
}

#[test]
fn devices_are_refused_as_paths_and_skill_files() {
    let temp = temporary();
    let run = skillforge(&temp.path, &["lint", "/dev/zero", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: /dev/zero: is a character device, not a SKILL.md or a folder of skills\n"
    );
    // Inside a tree, a SKILL.md linking to a device is a link out of it.
    mkdir(&temp.path.join("root/z"));
    symlink("/dev/zero", &temp.path.join("root/z/SKILL.md"));
    let run = skillforge(&temp.path, &["lint", "root", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: root/z/SKILL.md: is a symbolic link to /dev/zero, outside {}; not linted\n",
            temp.path.join("root").display()
        )
    );
}

#[test]
fn inputs_behind_links_to_devices_and_fifos_are_refused_at_once() {
    let temp = temporary();
    let not_regular = "not a regular file; only regular files are read";
    let fifo = temp.path.join("fifo");
    mkfifo(&fifo);
    let cases = [
        ("/dev/zero", "a character device"),
        ("/dev/urandom", "a character device"),
        ("fifo", "a FIFO (named pipe)"),
    ];
    for (target, what) in cases {
        let link = temp
            .path
            .join(format!("link-{}.json", target.replace('/', "-")));
        symlink(target, &link);
        for path in [Path::new(target).to_path_buf(), link] {
            let path = if path.is_absolute() {
                path
            } else {
                temp.path.join(path)
            };
            let shown = path.display().to_string();
            let expected = format!("error: {shown}: is {what}, {not_regular}\n");
            let run = skillforge(
                &activation_fixtures(),
                &["triggers", "skills", "--queries", &shown],
            );
            assert_eq!(
                (run.code, run.stderr.as_str()),
                (2, expected.as_str()),
                "--queries {shown}"
            );
            let model = format!("--model=script:{shown}");
            let run = skillforge(
                &activation_fixtures(),
                &["simulate", "skills", "--message", "hi", &model],
            );
            assert_eq!(
                (run.code, run.stderr.as_str()),
                (2, expected.as_str()),
                "{model}"
            );
        }
    }
}
