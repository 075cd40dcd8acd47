//! `lint --fix` against a program appending to the same SKILL.md: no appended line is ever lost. A run
//! either writes over exactly the text it read, or writes nothing and says so (or, in the rare double
//! race, keeps its copy beside the file and names it).

use std::process::{Command, Stdio};

use super::{crlf_skill_text, skillforge, temporary};

const LINES: usize = 5000;

/// One race; returns how many runs wrote while the appender ran and how many lost to it.
fn one_round(round: usize) -> (usize, usize) {
    let temp = temporary();
    let skill = temp.path.join("skills/busy/SKILL.md");
    super::write(&skill, crlf_skill_text("busy"));
    // Each line ends in CRLF, so every run finds something to fix. A pause every 250 lines lets
    // some runs finish between appends, so writes land while the appender still runs.
    let script = format!(
        "i=0; while [ $i -lt {LINES} ]; do printf 'line %d\\r\\n' $i >> skills/busy/SKILL.md; \
         [ $((i % 250)) -eq 0 ] && sleep 0.1; i=$((i+1)); done"
    );
    let mut appender = match Command::new("sh")
        .args(["-c", &script])
        .current_dir(&temp.path)
        .stdin(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("cannot start the appender: {error}"),
    };
    let (mut written, mut written_racing, mut refused, mut conflicts) = (0, 0, 0, Vec::new());
    let started = std::time::Instant::now();
    loop {
        let finished = match appender.try_wait() {
            Ok(status) => status.is_some(),
            Err(error) => panic!("cannot wait for the appender: {error}"),
        };
        let run = skillforge(&temp.path, &["lint", "--fix", "skills", "--no-config"]);
        match run.code {
            0 | 1 => {
                written += 1;
                if !finished {
                    written_racing += 1;
                }
            }
            2 if run.stderr
                == "error: skills/busy/SKILL.md: changed on disk while fixing; nothing written\n"
                || run
                    .stderr
                    .ends_with("is open for writing in another program; nothing written\n") =>
            {
                refused += 1;
            }
            2 if run.stderr.contains(
                "another program wrote to the rewritten copy too; that copy is kept as ",
            ) =>
            {
                conflicts.push(run.stderr.clone());
            }
            _ => panic!("round {round}: unexpected run: {run:?}"),
        }
        if finished {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "round {round}: the appender did not finish in 120 s"
        );
    }
    let mut text = String::from_utf8_lossy(&super::read(&skill)).into_owned();
    let mut kept = Vec::new();
    if let Ok(entries) = std::fs::read_dir(temp.path.join("skills/busy")) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("SKILL.md.conflict-") {
                kept.push(name);
                text.push_str(&String::from_utf8_lossy(&super::read(&entry.path())));
            }
        }
    }
    assert_eq!(
        kept.len(),
        conflicts.len(),
        "round {round}: copies {kept:?}, said {conflicts:?}"
    );
    for conflict in &conflicts {
        assert!(
            kept.iter().any(|name| conflict.contains(name.as_str())),
            "round {round}: {conflict} names none of {kept:?}"
        );
    }
    let present: std::collections::HashSet<&str> = text
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    let missing: Vec<usize> = (0..LINES)
        .filter(|number| !present.contains(format!("line {number}").as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "round {round}: {} lines lost (first {:?}); {written} runs wrote, {refused} refused",
        missing.len(),
        &missing[..missing.len().min(10)]
    );
    println!(
        "round {round}: {written} runs wrote ({written_racing} while appending), {refused} refused, {} kept a copy",
        conflicts.len()
    );
    // And the file ends fixed once a last run has nothing racing it.
    let run = skillforge(&temp.path, &["lint", "--fix", "skills", "--no-config"]);
    assert!(run.code == 0 || run.code == 1, "round {round}: {run:?}");
    assert!(
        !super::read(&skill).contains(&b'\r'),
        "round {round}: CR left"
    );
    (written_racing, refused + conflicts.len())
}

#[test]
fn fix_racing_an_appender_loses_no_line() {
    let (mut written_racing, mut lost) = (0, 0);
    // At least three rounds, more (up to twelve) until both outcomes were seen: on a loaded machine one
    // side of the race can win three rounds in a row.
    for round in 0..12 {
        let (written, refused) = one_round(round);
        written_racing += written;
        lost += refused;
        if round >= 2 && written_racing > 0 && lost > 0 {
            break;
        }
    }
    // The race really ran: fixes landed while the appender was writing, and some runs lost to it.
    assert!(
        written_racing > 0 && lost > 0,
        "{written_racing} runs wrote while appending, {lost} lost the race"
    );
}

/// Root in a container has no `CAP_LEASE` by default, and a checkout belongs to another user: the
/// writer check must still hold there (it takes the lease as the file's owner), so a program holding
/// the file open for writing keeps it, and `--fix` writes nothing.
#[test]
fn a_writer_holding_the_file_open_is_seen_without_the_lease_capability() {
    if !super::is_root() {
        return; // Only root can give the file away and drop a capability it has.
    }
    let temp = temporary();
    let skill = temp.path.join("skills/busy/SKILL.md");
    super::write(&skill, crlf_skill_text("busy"));
    if let Err(error) = std::os::unix::fs::chown(&skill, Some(1000), Some(1000)) {
        panic!("chown: {error}");
    }
    let writer = match std::fs::OpenOptions::new().append(true).open(&skill) {
        Ok(file) => file,
        Err(error) => panic!("open for writing: {error}"),
    };
    let before = super::read(&skill);
    let mut command = Command::new("setpriv");
    command
        .args(["--inh-caps=-lease", "--bounding-set=-lease", "--"])
        .arg(env!("CARGO_BIN_EXE_skillforge"))
        .args(["lint", "--fix", "skills", "--no-config"])
        .current_dir(&temp.path);
    let run = super::finish(command);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: skills/busy/SKILL.md: is open for writing in another program; nothing written\n",
        "{run:?}"
    );
    assert_eq!(super::read(&skill), before);
    drop(writer);
}
