//! Load budgets, as nagents computes them.
//!
//! A budget of `limit` tokens keeps at most `limit * 4` bytes, whole characters only, so a cut never
//! splits a character and the kept text's estimate ([`crate::text::estimate_skill_tokens`], ceil(UTF-8
//! bytes / 4), not a tokenizer) never exceeds `limit`.

use serde::{Deserialize, Serialize};

use crate::skill::Skill;
use crate::text::{estimate_skill_tokens, BYTES_PER_TOKEN};

/// The per-load budget nagents uses when none is configured.
pub const DEFAULT_SKILL_TOKEN_LIMIT: u32 = 10_000;
/// The largest budget nagents accepts.
pub const MAX_SKILL_TOKEN_LIMIT: u32 = 100_000;

/// A budget outside nagents' range; the message is nagents' own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("skill_token_limit must be an integer between 1 and 100000")]
pub struct InvalidTokenLimit;

/// What a load hands to a model: nagents' `SkillLoadResult`, fields in nagents' order so the
/// serialized JSON matches byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkillLoadResult {
    pub name: String,
    pub location: String,
    pub content: String,
    pub truncated: bool,
    pub estimated_tokens: u32,
    pub token_limit: u32,
}

/// Checks that `limit` lies in 1..=100,000. Wide input so that any parsed number can be checked.
pub fn validate_skill_token_limit(limit: i64) -> Result<u32, InvalidTokenLimit> {
    u32::try_from(limit)
        .ok()
        .filter(|limit| (1..=MAX_SKILL_TOKEN_LIMIT).contains(limit))
        .ok_or(InvalidTokenLimit)
}

/// Keeps the first `limit * 4` bytes of `content`, dropping a character split by the cut.
pub fn budget_skill_content(
    skill: &Skill,
    content: &str,
    limit: u32,
) -> Result<SkillLoadResult, InvalidTokenLimit> {
    let limit = validate_skill_token_limit(i64::from(limit))?;
    let budget = limit as usize * BYTES_PER_TOKEN;
    let truncated = content.len() > budget;
    let mut end = budget.min(content.len());
    // Python decodes the cut bytes with errors="ignore": only the split last character can be
    // incomplete, so backing up to a character boundary gives the same text.
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    let bounded = &content[..end];
    Ok(SkillLoadResult {
        name: skill.name.clone(),
        location: skill.location.clone(),
        content: bounded.to_string(),
        truncated,
        // The kept text is at most `limit * 4` bytes, so its estimate is at most `limit`.
        estimated_tokens: u32::try_from(estimate_skill_tokens(bounded)).unwrap_or(limit),
        token_limit: limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill() -> Skill {
        Skill {
            name: "a".into(),
            description: "d".into(),
            location: "l".into(),
        }
    }

    #[test]
    fn cuts_never_split_characters() {
        // "aé😀": 1 + 2 + 4 bytes; a 4-byte budget keeps "aé" (3 bytes).
        let result = budget_skill_content(&skill(), "aé😀", 1).map_err(|e| e.to_string());
        let result = result.map(|r| (r.content, r.truncated, r.estimated_tokens, r.token_limit));
        assert_eq!(result, Ok(("aé".to_string(), true, 1, 1)));
        let whole = budget_skill_content(&skill(), "abcd", 1).map(|r| (r.content, r.truncated));
        assert_eq!(whole, Ok(("abcd".to_string(), false)));
        let emoji = budget_skill_content(&skill(), "😀😀", 1).map(|r| r.content);
        assert_eq!(emoji, Ok("😀".to_string()));
        let split = budget_skill_content(&skill(), "abc😀", 1).map(|r| r.content);
        assert_eq!(split, Ok("abc".to_string()));
    }

    #[test]
    fn limits_are_checked() {
        assert_eq!(validate_skill_token_limit(0), Err(InvalidTokenLimit));
        assert_eq!(validate_skill_token_limit(-1), Err(InvalidTokenLimit));
        assert_eq!(validate_skill_token_limit(100_001), Err(InvalidTokenLimit));
        assert_eq!(validate_skill_token_limit(i64::MAX), Err(InvalidTokenLimit));
        assert_eq!(validate_skill_token_limit(100_000), Ok(100_000));
        assert_eq!(
            budget_skill_content(&skill(), "", 0),
            Err(InvalidTokenLimit)
        );
        assert_eq!(
            InvalidTokenLimit.to_string(),
            "skill_token_limit must be an integer between 1 and 100000"
        );
    }

    #[test]
    fn result_serializes_in_nagents_field_order() {
        let result = budget_skill_content(&skill(), "x", 7).map(|r| serde_json::to_string(&r).ok());
        assert_eq!(
            result,
            Ok(Some(r#"{"name":"a","location":"l","content":"x","truncated":false,"estimated_tokens":1,"token_limit":7}"#.to_string()))
        );
    }
}
