//! An installable Python package holding skills as resources, and its wheel, built without any Python
//! build backend.
//!
//! A wheel is a zip with a `.dist-info` folder: `METADATA` (name, version, dependencies), `WHEEL` (the
//! format and tags) and `RECORD` (every member with its urlsafe-base64 SHA-256 and size). Writing it
//! here keeps exports deterministic and needs nothing installed; the `pyproject.toml` beside it lets
//! anyone rebuild the same package with a standard backend.

use sha2::{Digest, Sha256};

use super::archive::{self, ArchiveError, Entry};
use super::ExportedSkill;

/// The generated package's `__init__.py`; `@PACKAGE@` becomes the import name.
const INIT_TEMPLATE: &str = include_str!("package_init.py");
/// The nagents release whose `SkillDiscoverer` protocol and parser the generated module uses.
pub const NAGENTS_REQUIREMENT: &str = "nagents>=0.25.2";

/// Why a package name or version cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackageNameError {
    #[error("package name {0:?} is not a valid Python distribution name; use letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit")]
    Distribution(String),
    #[error("package name {name:?} gives the import name {import:?}, which is not a Python identifier; start it with a letter")]
    Import { name: String, import: String },
    #[error("package name {0:?} gives an import name that is a Python keyword; choose another")]
    Keyword(String),
    #[error("package version {0:?} is not a plain release version; use digits and dots such as 0.1.0 (optionally with aN, bN, rcN, .postN or .devN)")]
    Version(String),
}

/// A package's names and version, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageSpec {
    /// As written in `pyproject.toml` and METADATA.
    pub distribution: String,
    /// The top-level import package.
    pub import_name: String,
    pub version: String,
}

const KEYWORDS: &[&str] = &[
    "false", "none", "true", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

impl PackageSpec {
    pub fn new(name: &str, version: &str) -> Result<Self, PackageNameError> {
        let bytes = name.as_bytes();
        let valid_distribution = !bytes.is_empty()
            && bytes
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'))
            && bytes.first().is_some_and(u8::is_ascii_alphanumeric)
            && bytes.last().is_some_and(u8::is_ascii_alphanumeric);
        if !valid_distribution {
            return Err(PackageNameError::Distribution(name.to_string()));
        }
        let import_name: String = name
            .chars()
            .map(|character| match character {
                '-' | '.' => '_',
                other => other.to_ascii_lowercase(),
            })
            .collect();
        if !import_name
            .chars()
            .next()
            .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        {
            return Err(PackageNameError::Import {
                name: name.to_string(),
                import: import_name,
            });
        }
        if KEYWORDS.contains(&import_name.as_str()) {
            return Err(PackageNameError::Keyword(name.to_string()));
        }
        if !is_plain_version(version) {
            return Err(PackageNameError::Version(version.to_string()));
        }
        Ok(Self {
            distribution: name.to_string(),
            import_name,
            version: version.to_string(),
        })
    }

    /// The escaped name used in wheel file names and the `.dist-info` folder (runs of `-_.` become `_`).
    pub fn wheel_name(&self) -> String {
        let mut escaped = String::new();
        let mut previous_separator = false;
        for character in self.distribution.chars() {
            if matches!(character, '-' | '_' | '.') {
                if !previous_separator {
                    escaped.push('_');
                }
                previous_separator = true;
            } else {
                escaped.push(character.to_ascii_lowercase());
                previous_separator = false;
            }
        }
        escaped
    }

    pub fn wheel_file_name(&self) -> String {
        format!("{}-{}-py3-none-any.whl", self.wheel_name(), self.version)
    }

    fn dist_info(&self) -> String {
        format!("{}-{}.dist-info", self.wheel_name(), self.version)
    }

    /// Where a skill's SKILL.md is found, in the form nagents' builtin source uses.
    pub fn location(&self, directory: &str) -> String {
        format!("package:{}/bundled/{directory}/SKILL.md", self.import_name)
    }
}

/// `N(.N)*` with an optional pre-release, post-release and development part, already in the
/// normalised form PEP 440 prints, so the file name and METADATA agree with what pip computes.
fn is_plain_version(version: &str) -> bool {
    let mut rest = version;
    let release_end = rest
        .find(|character: char| !(character.is_ascii_digit() || character == '.'))
        .unwrap_or(rest.len());
    let release = &rest[..release_end];
    if release.is_empty()
        || release
            .split('.')
            .any(|part| part.is_empty() || (part.len() > 1 && part.starts_with('0')))
    {
        return false;
    }
    rest = &rest[release_end..];
    for prefix in ["a", "b", "rc"] {
        if let Some(after) = rest.strip_prefix(prefix) {
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return false;
            }
            rest = &after[digits..];
            break;
        }
    }
    for prefix in [".post", ".dev"] {
        if let Some(after) = rest.strip_prefix(prefix) {
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return false;
            }
            rest = &after[digits..];
        }
    }
    rest.is_empty()
}

/// One file of the generated project, relative to its folder.
pub type ProjectFile = Entry;

/// The project folder's files: pyproject, README, the package with its bundled skills, and the wheel.
pub fn project_files(
    spec: &PackageSpec,
    skills: &[ExportedSkill],
) -> Result<Vec<ProjectFile>, ArchiveError> {
    let package = package_files(spec, skills);
    let wheel = build_wheel(spec, skills, &package)?;
    let mut files: Vec<ProjectFile> = package
        .into_iter()
        .map(|entry| Entry {
            path: format!("src/{}", entry.path),
            ..entry
        })
        .collect();
    files.push(text_entry("pyproject.toml", pyproject(spec, skills)));
    files.push(text_entry("README.md", readme(spec, skills)));
    files.push(Entry {
        path: format!("dist/{}", spec.wheel_file_name()),
        bytes: wheel,
        executable: false,
    });
    files.sort_by(|left, right| left.path.cmp(&right.path));
    Ok(files)
}

fn text_entry(path: &str, text: String) -> Entry {
    Entry {
        path: path.to_string(),
        bytes: text.into_bytes(),
        executable: false,
    }
}

/// The import package: `__init__.py` and `bundled/<folder>/…`, paths relative to `src/`.
fn package_files(spec: &PackageSpec, skills: &[ExportedSkill]) -> Vec<Entry> {
    let root = &spec.import_name;
    let mut files = vec![text_entry(
        &format!("{root}/__init__.py"),
        INIT_TEMPLATE.replace("@PACKAGE@", root),
    )];
    for skill in skills {
        for file in &skill.files {
            files.push(Entry {
                path: format!("{root}/bundled/{}/{}", skill.directory, file.path),
                bytes: file.bytes.clone(),
                executable: file.executable,
            });
        }
    }
    files.sort_by(|left, right| left.path.cmp(&right.path));
    files
}

fn skill_names(skills: &[ExportedSkill]) -> String {
    skills
        .iter()
        .map(|skill| skill.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn summary(skills: &[ExportedSkill]) -> String {
    format!("Agent Skills as package resources: {}", skill_names(skills))
}

fn pyproject(spec: &PackageSpec, skills: &[ExportedSkill]) -> String {
    // Names, versions and skill names are restricted to characters that need no TOML escaping.
    format!(
        r#"# A package of Agent Skills; dist/ holds the wheel built from exactly these files.
[build-system]
requires = ["hatchling>=1.18"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "{version}"
description = "{summary}"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["{nagents}"]

[tool.hatch.build.targets.wheel]
packages = ["src/{import_name}"]
"#,
        name = spec.distribution,
        version = spec.version,
        summary = summary(skills),
        nagents = NAGENTS_REQUIREMENT,
        import_name = spec.import_name,
    )
}

fn readme(spec: &PackageSpec, skills: &[ExportedSkill]) -> String {
    let mut text = format!(
        "# {name}\n\nAgent Skills shipped as Python package resources.\n\n\
         ```python\nfrom {import_name} import BundledSkillDiscoverer, bundled_folder\n\n\
         agent = Agent(provider, sessions, skill_discoverer=BundledSkillDiscoverer())  # nagents\n\
         registry.discover([bundled_folder()])  # clients that read skill folders\n```\n\n## Skills\n\n",
        name = spec.distribution,
        import_name = spec.import_name,
    );
    for skill in skills {
        text.push_str(&format!(
            "- `{}` — `{}`\n",
            skill.name,
            spec.location(&skill.directory)
        ));
    }
    text
}

fn metadata(spec: &PackageSpec, skills: &[ExportedSkill]) -> String {
    format!(
        "Metadata-Version: 2.1\nName: {}\nVersion: {}\nSummary: {}\nRequires-Python: >=3.11\nRequires-Dist: {}\n",
        spec.distribution,
        spec.version,
        summary(skills),
        NAGENTS_REQUIREMENT
    )
}

fn wheel_file() -> String {
    format!(
        "Wheel-Version: 1.0\nGenerator: skillforge {}\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// `sha256=` and the unpadded urlsafe base64 of the digest, as RECORD wants it.
pub fn record_hash(bytes: &[u8]) -> String {
    format!("sha256={}", urlsafe_base64(&Sha256::digest(bytes)))
}

fn urlsafe_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let value = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let characters = chunk.len() + 1;
        for index in 0..characters {
            let sextet = (value >> (18 - 6 * index)) & 0x3f;
            out.push(char::from(ALPHABET[sextet as usize]));
        }
    }
    out
}

/// One CSV field, quoted the way Python's csv module quotes when it must.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn build_wheel(
    spec: &PackageSpec,
    skills: &[ExportedSkill],
    package: &[Entry],
) -> Result<Vec<u8>, ArchiveError> {
    let dist_info = spec.dist_info();
    let mut members: Vec<Entry> = package.to_vec();
    members.push(text_entry(
        &format!("{dist_info}/METADATA"),
        metadata(spec, skills),
    ));
    members.push(text_entry(&format!("{dist_info}/WHEEL"), wheel_file()));
    members.sort_by(|left, right| left.path.cmp(&right.path));
    let record_path = format!("{dist_info}/RECORD");
    let mut record = String::new();
    for member in &members {
        record.push_str(&format!(
            "{},{},{}\n",
            csv_field(&member.path),
            record_hash(&member.bytes),
            member.bytes.len()
        ));
    }
    record.push_str(&format!("{},,\n", csv_field(&record_path)));
    // Installers read RECORD last by convention; the package comes first, then the metadata.
    members.push(text_entry(&record_path, record));
    archive::build_in_order(&members)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_versions() {
        let Ok(spec) = PackageSpec::new("Acme.Skills-Pack", "1.2.0rc1.post2") else {
            panic!("valid spec refused");
        };
        assert_eq!(spec.import_name, "acme_skills_pack");
        assert_eq!(spec.wheel_name(), "acme_skills_pack");
        assert_eq!(
            spec.wheel_file_name(),
            "acme_skills_pack-1.2.0rc1.post2-py3-none-any.whl"
        );
        assert_eq!(
            spec.location("pdf"),
            "package:acme_skills_pack/bundled/pdf/SKILL.md"
        );
        for bad in ["", "-x", "x-", "a b", "a/b", "ü"] {
            assert!(PackageSpec::new(bad, "1.0").is_err(), "{bad:?}");
        }
        assert!(matches!(
            PackageSpec::new("9lives", "1.0"),
            Err(PackageNameError::Import { .. })
        ));
        assert!(matches!(
            PackageSpec::new("class", "1.0"),
            Err(PackageNameError::Keyword(_))
        ));
        for bad in ["", "1.", "01", "1.0-beta", "v1", "1.0a", "1.0+local"] {
            assert!(
                matches!(
                    PackageSpec::new("ok", bad),
                    Err(PackageNameError::Version(_))
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn record_hashes_match_pythons_encoding() {
        // hashlib.sha256(b"").digest() through base64.urlsafe_b64encode, padding removed.
        assert_eq!(
            record_hash(b""),
            "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"
        );
        assert_eq!(urlsafe_base64(b"\xfb\xff"), "-_8");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
