//! The Markdown body (SF5xx).

pub mod body_too_long;
pub mod body_too_many_tokens;
pub mod link_escapes_skill;
pub mod link_target_missing;

use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::lint::SkillContext;
use crate::text::TextRange;

/// A relative link or image target in the body.
#[derive(Debug, Clone)]
pub struct LocalLink {
    /// The target as written, without `#fragment` or `?query`.
    pub target: String,
    pub range: TextRange,
}

/// Link and image destinations that name local files (no scheme, not a pure `#anchor`).
pub fn local_links(context: &SkillContext<'_>) -> Vec<LocalLink> {
    links_in_body(context.body(), context.body_range())
}

/// [`local_links`] of a whole SKILL.md text, for an editor that holds no lint context.
pub fn local_links_of(source: &str) -> Vec<LocalLink> {
    let body_range = match crate::frontmatter::yaml::layout(source) {
        Ok(layout) => layout.body,
        Err(_) => TextRange::new(0, source.len()),
    };
    links_in_body(body_range.slice(source), body_range)
}

fn links_in_body(body: &str, body_range: TextRange) -> Vec<LocalLink> {
    // Without extensions, every link or image comes from a `[…]` construct (which needs `]`) or an
    // autolink (which needs `<`): a body with neither has none, and Markdown parsing is the dearest step.
    if !body.contains(']') && !body.contains('<') {
        return Vec::new();
    }
    let mut links = Vec::new();
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        let destination = match &event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                dest_url.to_string()
            }
            _ => continue,
        };
        let target = destination
            .split(['#', '?'])
            .next()
            .unwrap_or("")
            .to_string();
        if target.is_empty() || has_scheme(&target) {
            continue;
        }
        let written = body.get(range.clone()).unwrap_or("");
        let local = written
            .rfind(destination.as_str())
            .map_or(range.clone(), |at| {
                range.start + at..range.start + at + destination.len()
            });
        links.push(LocalLink {
            target,
            range: TextRange::new(local.start, local.end).shifted(body_range.start()),
        });
    }
    links
}

fn has_scheme(target: &str) -> bool {
    match target.find(':') {
        // `C:` alone is a Windows drive, not a scheme.
        Some(colon) if colon > 1 => target[..colon]
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.')),
        _ => target.starts_with("//"),
    }
}

/// Decodes `%20`-style escapes, keeping malformed ones as written.
pub fn percent_decode(text: &str) -> String {
    // Most targets hold no escape at all.
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok());
            if let Some(byte) = hex {
                out.push(byte);
                index += 3;
                continue;
            }
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where a link leads, relative to the skill folder: `Ok(path)` inside it, `Err(reason)` when it leaves it.
pub fn resolve_inside(target: &str) -> Result<PathBuf, &'static str> {
    let decoded = percent_decode(target);
    let looks_absolute = decoded.starts_with('/')
        || decoded.starts_with('\\')
        || decoded.as_bytes().get(1) == Some(&b':')
            && decoded
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphabetic);
    if looks_absolute {
        return Err("is an absolute path");
    }
    let mut inside = PathBuf::new();
    let mut depth = 0usize;
    let slashed = if decoded.contains('\\') {
        decoded.replace('\\', "/")
    } else {
        decoded
    };
    for component in Path::new(&slashed).components() {
        match component {
            Component::ParentDir => {
                if depth == 0 {
                    return Err("leaves the skill folder with `..`");
                }
                depth -= 1;
                inside.pop();
            }
            Component::Normal(part) => {
                depth += 1;
                inside.push(part);
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Err("is an absolute path"),
        }
    }
    Ok(inside)
}
