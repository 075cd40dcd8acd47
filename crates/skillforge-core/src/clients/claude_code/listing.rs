//! The skill listing Claude Code 2.1.332 sends the model, and its budget.
//!
//! Rests on the client's code (`q3n`, `rBn`, `W3n`, `Cdn`, `re` in the 2.1.332 bundle) and on the probe
//! projects run through the binary:
//! - the text part starts `The following skills are available for use with the Skill tool:` and a blank
//!   line, then one `- ` entry a line: the project's and the user's skills, then the client's own;
//! - an entry is `- NAME: DESCRIPTION`, the description cut past 1,536 UTF-16 units to 1,535 + `…`
//!   (`desc-1537`, `desc-astral`);
//! - the budget is `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set, else `floor(window × 4 × 0.01)` with the
//!   default model's numbers: 30,000 (observed with 29,999 and 30,000 on one tree);
//! - the listing is measured as the sum of the entries' terminal widths (`Bun.stringWidth`: a newline is
//!   0, a wide character 2) plus one per line break between entries; over the budget the client's bundled
//!   skills keep their text, every other entry shrinks to `- NAME`, and then, in listing order (every
//!   skill's usage score is 0 with an empty HOME), each whose description still fits the room left is
//!   given it back (`tree-many-long`: the first 33 whole).

use unicode_width::UnicodeWidthStr;

use super::builtin::{Builtin, BUILTINS};
use super::skill::{showable_name, utf16_len, utf16_prefix, Skill, DESCRIPTION_MAX};

/// The listing's first line and the blank line after it.
pub const HEADER: &str = "The following skills are available for use with the Skill tool:\n\n";
/// The budget with the default model and no `SLASH_COMMAND_TOOL_CHAR_BUDGET`.
pub const DEFAULT_BUDGET: usize = 30_000;

/// One line (or, for the client's own `claude-api`, a few lines) of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The command name: the skill's folder, or the client's own name.
    pub name: String,
    /// `- NAME: DESCRIPTION`.
    pub full: String,
    /// `- NAME`, what the entry shrinks to over the budget.
    pub bare: String,
    /// One of the client's own bundled skills: never shortened.
    pub fixed: bool,
    /// One of the client's own entries (not printed unless asked for).
    pub builtin: bool,
}

/// The listing as the client would send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// Every entry in order, as sent (full or bare).
    pub entries: Vec<(Entry, bool)>,
    /// The measured size of the whole listing with every entry full.
    pub measured: usize,
    pub budget: usize,
}

impl Listing {
    /// Builds the listing of `skills` (in the client's order, disabled ones already left out) followed
    /// by the client's own entries.
    pub fn new(skills: &[Skill], budget: usize) -> Listing {
        let mut entries = Vec::new();
        for skill in skills {
            let name = shown(skill, skills);
            let bare = format!("- {name}");
            entries.push(Entry {
                name: skill.folder.clone(),
                full: format!("{bare}: {}", cut(&skill.listing_description())),
                bare,
                fixed: false,
                builtin: false,
            });
        }
        // Commands are made unique by name, the first kept: a skill folder named like one of the
        // client's own entries hides it (inferred from the code's `uniqBy(name)`; not observed).
        for Builtin {
            name,
            entry,
            bundled,
        } in BUILTINS
        {
            if skills.iter().any(|skill| skill.folder == *name) {
                continue;
            }
            entries.push(Entry {
                name: (*name).to_string(),
                full: (*entry).to_string(),
                bare: format!("- {name}"),
                fixed: *bundled,
                builtin: true,
            });
        }
        let measured = entries
            .iter()
            .map(|entry| width(&entry.full))
            .sum::<usize>()
            + entries.len().saturating_sub(1);
        if measured <= budget {
            return Listing {
                entries: entries.into_iter().map(|entry| (entry, true)).collect(),
                measured,
                budget,
            };
        }
        let floor = entries
            .iter()
            .map(|entry| {
                if entry.fixed {
                    width(&entry.full)
                } else {
                    width(&entry.bare)
                }
            })
            .sum::<usize>()
            + entries.len()
            - 1;
        let mut room = budget as i64 - floor as i64;
        let mut whole = vec![false; entries.len()];
        for (index, entry) in entries.iter().enumerate() {
            if entry.fixed {
                whole[index] = true;
                continue;
            }
            let extra = width(&entry.full) as i64 - width(&entry.bare) as i64;
            if extra <= room {
                whole[index] = true;
                room -= extra;
            }
        }
        Listing {
            entries: entries.into_iter().zip(whole).collect(),
            measured,
            budget,
        }
    }

    /// The header and the project's and user's entries, each line ended: what `skillforge listing
    /// --dialect claude-code --project DIR` prints. With `client_entries`, the client's own follow.
    pub fn text(&self, client_entries: bool) -> String {
        let lines: Vec<&str> = self
            .entries
            .iter()
            .filter(|(entry, _)| client_entries || !entry.builtin)
            .map(|(entry, whole)| {
                if *whole {
                    entry.full.as_str()
                } else {
                    entry.bare.as_str()
                }
            })
            .collect();
        let mut text = HEADER.to_string();
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// The listed name and cut description of `skill` alone in a listing.
pub fn entry(skill: &Skill) -> (String, String) {
    (
        shown(skill, std::slice::from_ref(skill)),
        cut(&skill.listing_description()),
    )
}

/// `rBn`: the folder, with ` (NAME)` when the frontmatter name differs, may be shown, and is not
/// already another skill's (`$s`: an exact command name first, then the first shown name).
fn shown(skill: &Skill, skills: &[Skill]) -> String {
    let name = &skill.shown_name;
    if *name == skill.folder || skill.folder.ends_with(&format!(":{name}")) || !showable_name(name)
    {
        return skill.folder.clone();
    }
    let owner = skills
        .iter()
        .find(|other| other.folder == *name)
        .map(|other| other.folder.as_str())
        .or_else(|| BUILTINS.iter().find(|b| b.name == name).map(|b| b.name))
        .or_else(|| {
            skills
                .iter()
                .find(|other| other.shown_name == *name)
                .map(|other| other.folder.as_str())
        });
    if owner != Some(skill.folder.as_str()) {
        return skill.folder.clone();
    }
    format!("{} ({name})", skill.folder)
}

/// `W3n`: over 1,536 UTF-16 units, the first 1,535 and `…`.
fn cut(description: &str) -> String {
    if utf16_len(description) > DESCRIPTION_MAX {
        format!("{}\u{2026}", utf16_prefix(description, DESCRIPTION_MAX - 1))
    } else {
        description.to_string()
    }
}

/// `re`: the terminal width `Bun.stringWidth` gives (control characters 0, East Asian wide 2,
/// ambiguous 1). The client's extra cells for some Indic and emoji-modifier clusters are not modelled.
pub fn width(text: &str) -> usize {
    text.split(|c: char| c.is_control())
        .map(UnicodeWidthStr::width)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(folder: &str, name: &str, description: &str) -> Skill {
        Skill {
            folder: folder.into(),
            shown_name: name.into(),
            description: description.into(),
            when_to_use: None,
            model_invocation_disabled: false,
            yaml_failed: false,
        }
    }

    #[test]
    fn a_second_folder_with_the_same_name_is_shown_bare() {
        let skills = [skill("one", "same", "a"), skill("two", "same", "b")];
        let listing = Listing::new(&skills, DEFAULT_BUDGET);
        assert_eq!(
            listing.text(false),
            format!("{HEADER}- one (same): a\n- two: b\n")
        );
    }

    #[test]
    fn over_the_budget_entries_shrink_to_their_names_in_order() {
        let skills: Vec<Skill> = (0..3)
            .map(|i| skill(&format!("s{i}"), &format!("s{i}"), &"d".repeat(100)))
            .collect();
        let fixed: usize = BUILTINS
            .iter()
            .filter(|b| b.bundled)
            .map(|b| width(b.entry))
            .sum::<usize>()
            + BUILTINS
                .iter()
                .filter(|b| !b.bundled)
                .map(|b| b.name.len() + 2)
                .sum::<usize>();
        let bare = 3 * 4 + BUILTINS.len() + 2;
        // Room for exactly one description (`: ` + 100).
        let listing = Listing::new(&skills, fixed + bare + 102);
        let text = listing.text(false);
        assert!(text.contains("- s0: d"), "{text}");
        assert!(text.ends_with("- s1\n- s2\n"), "{text}");
    }

    #[test]
    fn newlines_count_nothing_and_wide_characters_two() {
        assert_eq!(width("a\nb"), 2);
        assert_eq!(width("日本"), 4);
    }
}
