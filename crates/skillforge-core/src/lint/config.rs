//! `skillforge.toml`: profiles, rule switches and severities, ignored paths. Found by walking up from the
//! linted path; unknown keys are errors that name their line, so a typo never silently does nothing.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::registry;
use super::{ProfileId, Severity};
use crate::fs::read::{input_text, InputTextError, Limit};

pub const FILE_NAME: &str = "skillforge.toml";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Read as any file the user hands a command: a regular file within [`Limit::INPUT`].
    #[error(transparent)]
    Read(#[from] InputTextError),
    /// A discovered `skillforge.toml` that is a link out of the repository (or the linted folder):
    /// never opened, so nothing outside is read on the strength of a file inside.
    #[error("{}: is a symbolic link to {}, outside {}; not read (pass it with --config to use it)", .path.display(), .target.display(), .boundary.display())]
    Outside {
        path: PathBuf,
        target: PathBuf,
        boundary: PathBuf,
    },
    /// A discovered `skillforge.toml` linked to a file of another name: its text would be shown in
    /// parse errors, so only a configuration is read through a link.
    #[error("{}: is a symbolic link to {}, which is no {FILE_NAME}; not read (pass it with --config to use it)", .path.display(), .target.display())]
    NotAConfig { path: PathBuf, target: PathBuf },
    #[error("{path}:{line}: {message}")]
    Invalid {
        path: String,
        line: usize,
        message: String,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    profiles: Vec<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// The loaded configuration; the default selects nothing and changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// The folder holding the configuration file; ignore patterns are relative to it.
    pub root: Option<PathBuf>,
    pub profiles: Vec<ProfileId>,
    /// Code → `None` (off) or a severity.
    rules: HashMap<String, Option<Severity>>,
    ignore: Vec<String>,
}

impl Config {
    /// Parses configuration text; `path` only labels errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let label = path.display().to_string();
        let line_of = |offset: usize| {
            text.get(..offset)
                .map_or(1, |before| before.matches('\n').count() + 1)
        };
        let raw: RawConfig = toml::from_str(text).map_err(|error| ConfigError::Invalid {
            path: label.clone(),
            line: error.span().map_or(1, |span| line_of(span.start)),
            message: error.message().to_string(),
        })?;
        let mut profiles = Vec::new();
        for profile in raw.profiles {
            let Some(id) = ProfileId::parse(profile.get_ref()) else {
                let known: Vec<&str> = ProfileId::ALL.iter().map(|id| id.as_str()).collect();
                return Err(ConfigError::Invalid {
                    path: label,
                    line: line_of(profile.span().start),
                    message: format!(
                        "unknown profile `{}`; known profiles: {}",
                        profile.get_ref(),
                        known.join(", ")
                    ),
                });
            };
            profiles.push(id);
        }
        let mut rules = HashMap::new();
        for (key, value) in raw.rules {
            let Some((code, _)) = registry::find(key.get_ref()) else {
                return Err(ConfigError::Invalid {
                    path: label,
                    line: line_of(key.span().start),
                    message: format!(
                        "unknown rule `{}` (use a code such as SF203 or a rule name)",
                        key.get_ref()
                    ),
                });
            };
            let setting = match value.get_ref().as_str() {
                "off" => None,
                "info" => Some(Severity::Info),
                "warning" => Some(Severity::Warning),
                "error" => Some(Severity::Error),
                other => {
                    return Err(ConfigError::Invalid {
                        path: label,
                        line: line_of(value.span().start),
                        message: format!(
                            "`{other}` is not a rule setting; use off, info, warning or error"
                        ),
                    })
                }
            };
            rules.insert(code.to_string(), setting);
        }
        Ok(Config {
            root: path.parent().map(Path::to_path_buf),
            profiles,
            rules,
            ignore: raw.ignore,
        })
    }

    /// Finds `skillforge.toml` in `start` (a folder, or the folder of a file) or the nearest folder
    /// above it, up to the repository that holds `start` (the nearest folder with a `.git`) and never
    /// above; outside a repository, only `start`'s own folder is looked at. A stray file in a shared
    /// parent such as `/tmp` is never picked up.
    pub fn discover(start: &Path) -> Result<Option<Config>, ConfigError> {
        let absolute = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
        let folder = if absolute.is_dir() {
            absolute.as_path()
        } else {
            absolute.parent().unwrap_or(Path::new("/"))
        };
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let boundary =
            crate::fs::roots::enclosing_repository(&folder).unwrap_or_else(|| folder.clone());
        for current in folder.ancestors() {
            let candidate = current.join(FILE_NAME);
            if std::fs::symlink_metadata(&candidate).is_ok() {
                return Config::load_beneath(&boundary, current, &candidate).map(Some);
            }
            if current == boundary {
                break;
            }
        }
        Ok(None)
    }

    /// Reads the discovered `candidate` in `folder` the way lint reads a SKILL.md: opened beneath
    /// `boundary` without following links, a link resolved only when its target stays inside.
    fn load_beneath(
        boundary: &Path,
        folder: &Path,
        candidate: &Path,
    ) -> Result<Config, ConfigError> {
        use crate::fs::open;
        use crate::fs::read::{regular_at, InputError, ReadError};
        use std::ffi::OsString;
        let fail = |source: ReadError| {
            ConfigError::Read(InputTextError::Read(InputError {
                path: candidate.to_path_buf(),
                source,
            }))
        };
        let here: Vec<OsString> = folder
            .strip_prefix(boundary)
            .unwrap_or(Path::new(""))
            .components()
            .map(|component| component.as_os_str().to_os_string())
            .collect();
        let root = open::root_directory(boundary).map_err(|errno| fail(ReadError::Io(errno)))?;
        let beneath = |names: &[OsString]| {
            open::directory_beneath(&root, names.iter().map(OsString::as_os_str))
                .map_err(|(errno, _)| fail(ReadError::from_open(errno)))
        };
        let directory = beneath(&here)?;
        let (directory, name) = if open::is_symlink_at(&directory, FILE_NAME) {
            let target = open::link_target_at(&directory, FILE_NAME)
                .map_err(|errno| fail(ReadError::Io(errno)))?;
            let target = PathBuf::from(target);
            let mut names = match crate::fs::walk::resolve_beneath(&root, boundary, &here, &target)
            {
                Ok(names) => names,
                Err(crate::fs::walk::Unresolved::Outside) => {
                    return Err(ConfigError::Outside {
                        path: candidate.to_path_buf(),
                        target,
                        boundary: boundary.to_path_buf(),
                    })
                }
                Err(crate::fs::walk::Unresolved::Io { errno, .. }) => {
                    return Err(fail(ReadError::from_open(errno)))
                }
            };
            let Some(name) = names.pop() else {
                return Err(fail(ReadError::NotRegular(rustix::fs::FileType::Directory)));
            };
            if name != FILE_NAME {
                return Err(ConfigError::NotAConfig {
                    path: candidate.to_path_buf(),
                    target,
                });
            }
            (beneath(&names)?, name)
        } else {
            (directory, OsString::from(FILE_NAME))
        };
        let read = regular_at(&directory, name.as_os_str(), Limit::INPUT).map_err(fail)?;
        let text = String::from_utf8(read.bytes).map_err(|error| {
            ConfigError::Read(InputTextError::NotUtf8 {
                path: candidate.to_path_buf(),
                offset: error.utf8_error().valid_up_to(),
            })
        })?;
        Config::parse(&text, candidate)
    }

    /// Reads and parses one configuration file (a regular file of bounded size).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = input_text(path, Limit::INPUT)?;
        let mut config = Config::parse(&text, path)?;
        // Ignore patterns are matched against canonical paths, so the folder they are relative to is
        // made canonical too (`--config skillforge.toml` has the folder "").
        let folder = path
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty());
        config.root = std::fs::canonicalize(folder.unwrap_or(Path::new("."))).ok();
        Ok(config)
    }

    /// `None`: not configured; `Some(None)`: off; `Some(Some(severity))`: forced severity.
    pub fn rule_setting(&self, code: &str, _name: &str) -> Option<Option<Severity>> {
        self.rules.get(code).copied()
    }

    /// Whether a path matches one of the `ignore` patterns (globs relative to the configuration's folder;
    /// a pattern naming a folder ignores everything below it).
    pub fn is_ignored(&self, path: &Path) -> bool {
        if self.ignore.is_empty() {
            return false;
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = match &self.root {
            Some(root) => {
                let root = std::path::absolute(root).unwrap_or_else(|_| root.clone());
                absolute
                    .strip_prefix(&root)
                    .map(Path::to_path_buf)
                    .unwrap_or(absolute)
            }
            None => absolute,
        };
        let parts: Vec<String> = relative
            .components()
            .map(|component| component.as_os_str().to_string_lossy().into_owned())
            .collect();
        self.ignore.iter().any(|pattern| {
            let pattern: Vec<&str> = pattern.trim_matches('/').split('/').collect();
            matches_a_leading_part(&pattern, &parts)
        })
    }
}

/// Whether `pattern` (path segments, `**` standing for any number of them) matches `parts[..length]`
/// for some `length` of at least one. One pass over the pattern keeps, for every prefix of `parts`,
/// whether the segments so far match it: time in the product of the sizes, never exponential however
/// many `**` a pattern holds.
fn matches_a_leading_part(pattern: &[&str], parts: &[String]) -> bool {
    // `reached[length]`: the pattern's segments so far match `parts[..length]`.
    let mut reached = vec![false; parts.len() + 1];
    reached[0] = true;
    for segment in pattern {
        if *segment == "**" {
            let mut any_before = false;
            for slot in reached.iter_mut() {
                any_before |= *slot;
                *slot = any_before;
            }
        } else {
            for length in (1..=parts.len()).rev() {
                reached[length] = reached[length - 1]
                    && glob_one(segment.as_bytes(), parts[length - 1].as_bytes());
            }
            reached[0] = false;
        }
    }
    reached[1..].iter().any(|&matched| matched)
}

/// `*` (any bytes) and `?` (one byte) within one path segment. Backtracking only to the latest `*`
/// suffices (whatever an earlier `*` could still absorb, the latest one absorbs as well), so the
/// time is at most the product of the lengths.
fn glob_one(pattern: &[u8], text: &[u8]) -> bool {
    let (mut at_pattern, mut at_text) = (0, 0);
    // After the latest `*`: where the pattern resumes, and the text position it resumed at.
    let mut latest_star: Option<(usize, usize)> = None;
    while at_text < text.len() {
        match pattern.get(at_pattern) {
            Some(b'*') => {
                at_pattern += 1;
                latest_star = Some((at_pattern, at_text));
            }
            Some(&byte) if byte == b'?' || byte == text[at_text] => {
                at_pattern += 1;
                at_text += 1;
            }
            _ => match latest_star {
                Some((resume, absorbed_up_to)) => {
                    // The `*` takes one more byte and the rest is tried again from there.
                    at_pattern = resume;
                    at_text = absorbed_up_to + 1;
                    latest_star = Some((resume, at_text));
                }
                None => return false,
            },
        }
    }
    pattern[at_pattern..].iter().all(|&byte| byte == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_name_their_line() {
        let error = Config::parse(
            "profiles = [\"spec\"]\n\nrulez = {}\n",
            Path::new("skillforge.toml"),
        )
        .err();
        let text = error.map(|error| error.to_string()).unwrap_or_default();
        assert!(text.starts_with("skillforge.toml:3:"), "{text}");
    }

    #[test]
    fn rules_accept_codes_and_names() {
        let config = Config::parse(
            "[rules]\nSF203 = \"off\"\nname-too-long = \"warning\"\n",
            Path::new("x.toml"),
        );
        let config = config.ok().unwrap_or_default();
        assert_eq!(config.rule_setting("SF203", ""), Some(None));
        assert_eq!(
            config.rule_setting("SF202", ""),
            Some(Some(Severity::Warning))
        );
        let bad = Config::parse("[rules]\nSF999 = \"off\"\n", Path::new("x.toml")).err();
        assert!(bad.is_some_and(|error| error.to_string().contains(":2:")));
    }

    #[test]
    fn a_discovered_config_linking_out_of_the_repository_is_never_read() {
        let Ok(temporary) = tempfile::tempdir() else {
            panic!("temporary directory");
        };
        let Ok(top) = std::fs::canonicalize(temporary.path()) else {
            panic!("canonical temporary directory");
        };
        let repository = top.join("repository");
        let skills = repository.join("skills");
        let created = std::fs::create_dir_all(repository.join(".git"))
            .and_then(|()| std::fs::create_dir_all(&skills))
            .and_then(|()| std::fs::write(top.join("secret.toml"), "SECRET_KEY = 1\n"))
            .and_then(|()| std::fs::write(repository.join("real.toml"), "SECRET_KEY = 1\n"))
            .and_then(|()| std::fs::create_dir_all(repository.join("shared")))
            .and_then(|()| {
                std::fs::write(
                    repository.join("shared").join(FILE_NAME),
                    "profiles = [\"spec\"]\n",
                )
            })
            .and_then(|()| {
                std::os::unix::fs::symlink(top.join("secret.toml"), skills.join(FILE_NAME))
            });
        assert!(created.is_ok(), "{created:?}");

        let error = Config::discover(&skills)
            .err()
            .map(|error| error.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                format!(
                    "{}: is a symbolic link to {}, outside {}; not read (pass it with --config to use it)",
                    skills.join(FILE_NAME).display(),
                    top.join("secret.toml").display(),
                    repository.display()
                )
                .as_str()
            )
        );

        // A link inside the repository to a file of another name is not read either: its text would
        // show in parse errors.
        let relinked = std::fs::remove_file(skills.join(FILE_NAME))
            .and_then(|()| std::os::unix::fs::symlink("../real.toml", skills.join(FILE_NAME)));
        assert!(relinked.is_ok(), "{relinked:?}");
        let error = Config::discover(&skills)
            .err()
            .map(|error| error.to_string());
        assert!(
            error
                .as_deref()
                .is_some_and(|error| error.contains("which is no skillforge.toml")
                    && !error.contains("SECRET")),
            "{error:?}"
        );

        // A link to another configuration inside the repository is followed.
        let relinked = std::fs::remove_file(skills.join(FILE_NAME)).and_then(|()| {
            std::os::unix::fs::symlink("../shared/skillforge.toml", skills.join(FILE_NAME))
        });
        assert!(relinked.is_ok(), "{relinked:?}");
        let config = Config::discover(&skills);
        assert!(
            matches!(&config, Ok(Some(config)) if config.profiles == [ProfileId::Spec]),
            "{config:?}"
        );
    }

    #[test]
    fn ignore_patterns_match_folders_and_globs() {
        let config = Config {
            root: Some(PathBuf::from("/w")),
            ignore: vec!["vendor".into(), "**/draft-*".into()],
            ..Config::default()
        };
        assert!(config.is_ignored(Path::new("/w/vendor/a/SKILL.md")));
        assert!(config.is_ignored(Path::new("/w/skills/draft-x/SKILL.md")));
        assert!(!config.is_ignored(Path::new("/w/skills/final/SKILL.md")));
    }

    /// The matcher as first written: plain recursion, exponential on many `*` or `**`, kept as the
    /// reference the iterative one must agree with.
    fn reference_segments(pattern: &[&str], parts: &[&str]) -> bool {
        match pattern.split_first() {
            None => parts.is_empty(),
            Some((&"**", rest)) => {
                (0..=parts.len()).any(|skip| reference_segments(rest, &parts[skip..]))
            }
            Some((first, rest)) => match parts.split_first() {
                Some((part, remaining)) => {
                    reference_one(first.as_bytes(), part.as_bytes())
                        && reference_segments(rest, remaining)
                }
                None => false,
            },
        }
    }

    fn reference_one(pattern: &[u8], text: &[u8]) -> bool {
        match pattern.split_first() {
            None => text.is_empty(),
            Some((b'*', rest)) => (0..=text.len()).any(|skip| reference_one(rest, &text[skip..])),
            Some((b'?', rest)) => !text.is_empty() && reference_one(rest, &text[1..]),
            Some((byte, rest)) => text.first() == Some(byte) && reference_one(rest, &text[1..]),
        }
    }

    /// Every string over `alphabet` up to `longest` bytes long.
    fn all_strings(alphabet: &[u8], longest: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..longest {
            last = last
                .iter()
                .flat_map(|prefix: &Vec<u8>| {
                    alphabet.iter().map(move |&byte| {
                        let mut longer = prefix.clone();
                        longer.push(byte);
                        longer
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn segment_globs_agree_with_the_recursive_definition() {
        let patterns = all_strings(b"a*?", 5);
        let texts = all_strings(b"ab", 5);
        for pattern in &patterns {
            for text in &texts {
                assert_eq!(
                    glob_one(pattern, text),
                    reference_one(pattern, text),
                    "{:?} against {:?}",
                    String::from_utf8_lossy(pattern),
                    String::from_utf8_lossy(text)
                );
            }
        }
    }

    #[test]
    fn path_globs_agree_with_the_recursive_definition() {
        let segments = ["**", "a", "b", "*", "a*"];
        let names = ["a", "b", "ab"];
        let mut patterns: Vec<Vec<&str>> = vec![vec![]];
        for _ in 0..4 {
            let longer: Vec<Vec<&str>> = patterns
                .iter()
                .flat_map(|pattern| {
                    segments.iter().map(move |segment| {
                        let mut longer = pattern.clone();
                        longer.push(*segment);
                        longer
                    })
                })
                .collect();
            patterns.extend(longer);
        }
        patterns.sort();
        patterns.dedup();
        let mut paths: Vec<Vec<&str>> = vec![vec![]];
        for _ in 0..4 {
            let longer: Vec<Vec<&str>> = paths
                .iter()
                .flat_map(|path| {
                    names.iter().map(move |name| {
                        let mut longer = path.clone();
                        longer.push(*name);
                        longer
                    })
                })
                .collect();
            paths.extend(longer);
        }
        paths.sort();
        paths.dedup();
        for pattern in &patterns {
            for path in &paths {
                let owned: Vec<String> = path.iter().map(|part| part.to_string()).collect();
                let expected =
                    (1..=path.len()).any(|length| reference_segments(pattern, &path[..length]));
                assert_eq!(
                    matches_a_leading_part(pattern, &owned),
                    expected,
                    "{pattern:?} against {path:?}"
                );
            }
        }
    }

    /// Both took longer than the fuzzer's ten-second limit with the recursive matcher.
    #[test]
    fn many_stars_and_globstars_stay_fast() {
        let stars = format!("{}*b", "*a".repeat(12));
        let globstars = format!("{}x", "**/".repeat(25));
        let config = Config {
            root: Some(PathBuf::from("/w")),
            ignore: vec![stars, globstars],
            ..Config::default()
        };
        let started = std::time::Instant::now();
        let long_name = format!("/w/{}", "a".repeat(60));
        let deep = format!("/w/{}", vec!["a"; 40].join("/"));
        assert!(!config.is_ignored(Path::new(&long_name)));
        assert!(!config.is_ignored(Path::new(&deep)));
        assert!(config.is_ignored(Path::new(&format!("{deep}/x/SKILL.md"))));
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
