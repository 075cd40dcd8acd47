//! The exit codes every subcommand shares, and the one place that decides which one a run gets.
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | clean: nothing at error level, every client accepts the input |
//! | 1 | findings at error level (lint, export, a misrouted eval query), or input a client refuses: a catalog nagents fails as a whole (a duplicate name, a frontmatter it cannot parse), a skill it cannot load |
//! | 2 | bad usage, or a file or folder that cannot be read or written |

use std::process::ExitCode;

use skillforge_core::agent::AgentError;
use skillforge_core::clients::nagents::discovery::{LoadError, SourceError};

/// What a run came to; the discriminant is the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Nothing to report.
    Clean = 0,
    /// Findings at error level, or a client would refuse the input.
    Findings = 1,
    /// Bad usage, or a file or folder that cannot be read or written.
    Failure = 2,
}

impl Exit {
    /// [`Exit::Findings`] when `found`, else [`Exit::Clean`].
    pub fn findings_if(found: bool) -> Exit {
        if found {
            Exit::Findings
        } else {
            Exit::Clean
        }
    }

    /// The exit of a run that stopped with `error`: a client refusing the skills is a finding (1);
    /// anything else (usage, I/O) is a failure (2).
    pub fn of_error(error: &anyhow::Error) -> Exit {
        for cause in error.chain() {
            if let Some(AgentError::Refresh(source)) = cause.downcast_ref::<AgentError>() {
                return Exit::of_source(source);
            }
            if let Some(load) = cause.downcast_ref::<LoadError>() {
                return Exit::of_load(load);
            }
            if let Some(source) = cause.downcast_ref::<SourceError>() {
                return Exit::of_source(source);
            }
        }
        Exit::Failure
    }

    /// A failed `skill(name)` load: an unknown name is refused by the client, like the catalog.
    pub fn of_load(error: &LoadError) -> Exit {
        match error {
            LoadError::Unknown(_) => Exit::Findings,
            LoadError::Source(source) => Exit::of_source(source),
            LoadError::Limit(_) => Exit::Failure,
        }
    }

    /// A source's failure: what nagents raises about the skills themselves is a refusal; a file
    /// that cannot be read, a walk that did not finish or limits it cannot use are failures.
    pub fn of_source(error: &SourceError) -> Exit {
        match error {
            SourceError::Read(_) | SourceError::Interrupted(_) | SourceError::InvalidLimits => {
                Exit::Failure
            }
            SourceError::Duplicate(_)
            | SourceError::Metadata(_)
            | SourceError::NotInDirectoryCatalog(_)
            | SourceError::NotInBundledCatalog(_)
            | SourceError::NotInCompositeCatalog(_)
            | SourceError::NotInOverlayCatalog(_)
            | SourceError::OutsideRoots
            | SourceError::Changed(_) => Exit::Findings,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}
