//! What each profile's verdicts rest on: a real client (or peer library) run against them in
//! `make test`, or only documentation. A profile no real client checks says so wherever it is shown
//! (`lint --help`, the text and GitHub reports, the app's profile menu and "How clients see it",
//! docs/profiles.md), so a guess is never presented as a prediction.

use serde::Serialize;

use super::ProfileId;

/// How a profile is known to match its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verification {
    /// The pinned client itself runs in `make test` and every verdict is compared with it.
    Verified {
        /// The client and version the suites run, as a reader knows it ("the Codex 0.171.0 binary").
        client: &'static str,
        /// How the verdicts are reached and compared, for docs/profiles.md.
        method: &'static str,
        /// The fidelity suites that compare them (paths from the repository root); each commits to a
        /// minimum number of cases (`MIN_CASES`), which docs/profiles.md quotes.
        suites: &'static [&'static str],
    },
    /// No real client runs here; the verdicts follow the profile's error-level findings.
    Unverified {
        /// Where the profile's facts come from, and why no client checks them.
        basis: &'static str,
    },
}

impl Verification {
    pub fn is_verified(self) -> bool {
        matches!(self, Verification::Verified { .. })
    }

    /// One short line for menus, `--help` and reports: "verified against the Codex 0.171.0 binary" or
    /// "unverified: from documentation".
    pub fn label(self) -> String {
        match self {
            Verification::Verified { client, .. } => format!("verified against {client}"),
            Verification::Unverified { basis } => format!("unverified: {basis}"),
        }
    }
}

/// A profile's verification as it crosses IPC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProfileStatus {
    pub verified: bool,
    /// [`Verification::label`].
    pub label: String,
}

impl ProfileId {
    pub fn verification(self) -> Verification {
        match self {
            ProfileId::Spec => Verification::Verified {
                client: "skills-ref 0.1.1",
                method: "valid when no error-level `spec` finding remains; rule by rule against skills-ref's \
                         messages",
                suites: &["tests/fidelity/test_lint.py"],
            },
            ProfileId::Nagents => Verification::Verified {
                client: "nagents 0.25.2",
                method: "the engine's copy of nagents' line parser; per skill against nagents' discovery and \
                         catalog on every fixture tree and on thousands of generated frontmatters",
                suites: &[
                    "tests/fidelity/test_lint.py",
                    "tests/fidelity/test_nagents.py",
                    "tests/fidelity/test_yaml_differential.py",
                ],
            },
            ProfileId::Tenxgraph => Verification::Verified {
                client: "10xgraph 0.10.3",
                method: "a replay of 10xGraph's loader with a port of PyYAML's `safe_load`; against 10xgraph on \
                         every fixture tree and on thousands of generated frontmatters",
                suites: &[
                    "tests/fidelity/test_lint.py",
                    "tests/fidelity/test_yaml_differential.py",
                ],
            },
            ProfileId::ClaudeCode => Verification::Verified {
                client: "the Claude Code 2.1.332 binary",
                method: "its model (`clients::claude_code`); every verdict against the listing the binary \
                         sends, and each field finding against what the binary does when the skill runs",
                suites: &[
                    "tests/fidelity/test_claude_code.py",
                    "tests/fidelity/test_claude_code_fields.py",
                ],
            },
            ProfileId::Codex => Verification::Verified {
                client: "the Codex 0.171.0 binary",
                method: "its model (`clients::codex`); every verdict against `codex app-server` `skills/list` \
                         and the block of `codex debug prompt-input`",
                suites: &["tests/fidelity/test_codex.py"],
            },
            ProfileId::Gemini => Verification::Verified {
                client: "the Gemini CLI 0.61.0 client",
                method: "its model (`clients::gemini`); every verdict and the `# Available Agent Skills` \
                         section against what the client sends the model",
                suites: &["tests/fidelity/test_gemini.py"],
            },
            ProfileId::ClaudeUpload => Verification::Unverified {
                // No package carries `quick_validate.py`, and the upload service is online only.
                basis: "from the upload documentation and the published `quick_validate.py`",
            },
            ProfileId::Copilot => Verification::Verified {
                client: "the GitHub Copilot CLI 1.0.102 binary",
                method: "its model (`clients::copilot`); every verdict against `copilot skill list --json` and \
                         its load errors, and the listing against the section of the system message it sends",
                suites: &["tests/fidelity/test_copilot.py"],
            },
            ProfileId::Opencode => Verification::Verified {
                client: "the OpenCode 1.18.33 binary",
                method: "its model (`clients::opencode`); every verdict against `opencode debug skill` and the \
                         listing against the skills section of the system prompt `opencode run` sends",
                suites: &["tests/fidelity/test_opencode.py"],
            },
        }
    }

    pub fn status(self) -> ProfileStatus {
        let verification = self.verification();
        ProfileStatus {
            verified: verification.is_verified(),
            label: verification.label(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verified_profile_names_suites_that_commit_to_a_case_count() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for id in ProfileId::ALL {
            if let Verification::Verified { suites, .. } = id.verification() {
                assert!(!suites.is_empty(), "{id} is verified by no suite");
                for suite in suites {
                    let source = std::fs::read_to_string(repo.join(suite))
                        .unwrap_or_else(|error| panic!("{id}: cannot read {suite}: {error}"));
                    // docs/profiles.md quotes the minimum each suite commits to.
                    assert!(
                        source.lines().any(|line| line.starts_with("MIN_CASES = ")),
                        "{id}: {suite} commits to no MIN_CASES"
                    );
                }
            }
        }
    }

    #[test]
    fn unverified_profiles_say_so_in_their_label() {
        assert!(ProfileId::ClaudeUpload
            .verification()
            .label()
            .starts_with("unverified: "));
        assert!(ProfileId::Codex
            .verification()
            .label()
            .starts_with("verified against"));
    }
}
