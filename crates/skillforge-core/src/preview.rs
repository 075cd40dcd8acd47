//! The Markdown preview of a skill's body, rendered here so the UI only ever inserts HTML that
//! cannot run anything.
//!
//! Raw HTML in the skill is shown as text, never interpreted. Links never navigate the app's window:
//! links to bundled files are checked against the skill folder (missing ones and ones that escape it
//! are marked), web links carry their address in a data attribute for the UI to open in the system
//! browser after a click, and every other scheme (`javascript:`, `data:`, `file:` …) is shown as text.
//! Images bundled in the skill folder are shown inline, their bytes embedded as a `data:` address (read beneath
//! the skill folder without following links, only known image types, bounded in size); remote images and any
//! other target are never loaded: a placeholder with the alternative text says why.

use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{html, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use serde::Serialize;

use crate::frontmatter::yaml::layout;

/// What a link in the body points at, as the preview marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum LinkStatus {
    /// A file inside the skill that exists.
    Bundled,
    /// A path inside the skill that does not exist.
    Missing,
    /// A path that leaves the skill folder (`..` past its top, or absolute).
    Escapes,
    /// A web or mail address, opened in the system browser only after a click.
    External,
    /// A heading anchor within the same document.
    Anchor,
    /// A scheme that is never followed (`javascript:`, `data:`, `file:` …).
    Blocked,
}

/// One link found in the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewLink {
    pub target: String,
    pub status: LinkStatus,
}

/// The rendered body and the links it contains.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Preview {
    /// Sanitised HTML: safe to insert into the page as is.
    pub html: String,
    pub links: Vec<PreviewLink>,
}

/// Answers whether a path inside the skill exists; the app answers from disk, tests from a list.
pub trait BundledFiles {
    fn exists(&self, relative: &Path) -> bool;
    /// The bytes of a bundled file shown inline (an image), at most `limit` bytes; None when it cannot be read.
    fn read(&self, relative: &Path, limit: u64) -> Option<Vec<u8>> {
        let _ = (relative, limit);
        None
    }
}

/// The largest image the preview embeds.
pub const IMAGE_LIMIT: u64 = 4 * 1024 * 1024;

/// Checks bundled files on disk under a skill folder, without following a link at the last step.
pub struct SkillFolder<'a>(pub &'a Path);

impl BundledFiles for SkillFolder<'_> {
    fn exists(&self, relative: &Path) -> bool {
        std::fs::symlink_metadata(self.0.join(relative)).is_ok()
    }

    fn read(&self, relative: &Path, limit: u64) -> Option<Vec<u8>> {
        use crate::fs::{open, read};
        let mut parts: Vec<&std::ffi::OsStr> = relative
            .components()
            .map(|component| match component {
                Component::Normal(part) => Some(part),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let name = parts.pop()?;
        let folder = open::root_directory(self.0).ok()?;
        let directory = open::directory_beneath(&folder, parts).ok()?;
        let limit = read::Limit::RESOURCE.with_bytes(limit);
        read::regular_at(&directory, name, limit)
            .ok()
            .map(|read| read.bytes)
    }
}

/// Renders the body of a SKILL.md (everything after the frontmatter, or the whole text without one).
pub fn render(source: &str, files: &dyn BundledFiles) -> Preview {
    let body = match layout(source) {
        Ok(parts) => &source[parts.body.start as usize..parts.body.end as usize],
        Err(_) => source.strip_prefix('\u{feff}').unwrap_or(source),
    };
    render_markdown(body, files)
}

/// Renders Markdown with every raw HTML fragment escaped and every link checked.
pub fn render_markdown(markdown: &str, files: &dyn BundledFiles) -> Preview {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut links = Vec::new();
    // Alternative text of the image being read, when inside one, and its target.
    let mut image: Option<String> = None;
    let mut image_target = String::new();
    let mut events = Vec::new();
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => push_text(&mut events, &mut image, raw),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => {
                image = Some(String::new());
                image_target = dest_url.to_string();
                // Images are links to their target too: a missing one is as much a finding.
                let status = classify(&dest_url, link_type, files);
                links.push(PreviewLink {
                    target: image_target.clone(),
                    status,
                });
            }
            Event::End(TagEnd::Image) => {
                let alternative = image.take().unwrap_or_default();
                let status = links.last().map(|link| link.status);
                events.push(Event::Html(
                    image_html(&image_target, &alternative, status, files).into(),
                ));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                let status = classify(&dest_url, link_type, files);
                links.push(PreviewLink {
                    target: dest_url.to_string(),
                    status,
                });
                events.push(Event::Html(opening_tag(&dest_url, status).into()));
            }
            Event::End(TagEnd::Link) => events.push(Event::Html("</a>".into())),
            Event::Text(text) | Event::Code(text) if image.is_some() => {
                push_text(&mut events, &mut image, text)
            }
            other => events.push(other),
        }
    }
    let mut output = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut output, events.into_iter());
    Preview {
        html: output,
        links,
    }
}

/// An image: inline when it is a bundled image file, else a placeholder that says why it is not shown.
fn image_html(
    target: &str,
    alternative: &str,
    status: Option<LinkStatus>,
    files: &dyn BundledFiles,
) -> String {
    let label = if alternative.is_empty() {
        "image"
    } else {
        alternative
    };
    let placeholder = |why: &str| {
        format!(
            r#"<span class="image-placeholder" title="{}">[{}: {why}]</span>"#,
            escape(target),
            escape(label)
        )
    };
    match status {
        Some(LinkStatus::External) => placeholder("remote image not loaded"),
        Some(LinkStatus::Missing) => placeholder("not found in the skill folder"),
        Some(LinkStatus::Escapes) => placeholder("outside the skill folder, not loaded"),
        Some(LinkStatus::Bundled) => {
            let path = target.trim().split(['#', '?']).next().unwrap_or_default();
            let Some(relative) = bundled_path(path) else {
                return placeholder("outside the skill folder, not loaded");
            };
            let Some(media_type) = image_media_type(&relative) else {
                return placeholder("not an image file");
            };
            match files.read(&relative, IMAGE_LIMIT) {
                Some(bytes) => format!(
                    r#"<img class="bundled-image" src="data:{media_type};base64,{}" alt="{}" title="{}">"#,
                    base64(&bytes),
                    escape(alternative),
                    escape(target)
                ),
                None => placeholder("cannot be read (not a regular file, or larger than 4 MB)"),
            }
        }
        _ => placeholder("not loaded"),
    }
}

/// The media type of an image file by its extension; None for anything else.
fn image_media_type(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        "ico" => "image/x-icon",
        // An SVG shown as an image runs no script and loads nothing.
        "svg" => "image/svg+xml",
        _ => return None,
    })
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let triple = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for index in 0..4 {
            if index <= chunk.len() {
                encoded.push(ALPHABET[(triple >> (18 - 6 * index) & 63) as usize] as char);
            } else {
                encoded.push('=');
            }
        }
    }
    encoded
}

fn push_text<'a>(events: &mut Vec<Event<'a>>, image: &mut Option<String>, text: CowStr<'a>) {
    match image {
        Some(alternative) => alternative.push_str(&text),
        // Text events are escaped by the HTML writer: raw HTML becomes visible, inert text.
        None => events.push(Event::Text(text)),
    }
}

fn opening_tag(target: &str, status: LinkStatus) -> String {
    let target = escape(target);
    let title = match status {
        LinkStatus::Bundled => "Bundled file",
        LinkStatus::Missing => "Missing: no such file in this skill",
        LinkStatus::Escapes => "Leaves the skill folder: clients cannot read it",
        LinkStatus::External => "Opens in your browser",
        LinkStatus::Anchor => "Section of this document",
        LinkStatus::Blocked => "This kind of link is never followed",
    };
    let status = serde_plain(status);
    // `href` is never the target itself, so no click can navigate the app's window.
    format!(
        r##"<a href="#" class="link link-{status}" data-link-status="{status}" data-link-target="{target}" title="{title}">"##
    )
}

fn serde_plain(status: LinkStatus) -> &'static str {
    match status {
        LinkStatus::Bundled => "bundled",
        LinkStatus::Missing => "missing",
        LinkStatus::Escapes => "escapes",
        LinkStatus::External => "external",
        LinkStatus::Anchor => "anchor",
        LinkStatus::Blocked => "blocked",
    }
}

fn classify(target: &str, link_type: LinkType, files: &dyn BundledFiles) -> LinkStatus {
    let trimmed = target.trim();
    let lowered = trimmed.to_ascii_lowercase();
    if matches!(link_type, LinkType::Email) || lowered.starts_with("mailto:") {
        return LinkStatus::External;
    }
    if lowered.starts_with("http://") || lowered.starts_with("https://") {
        return LinkStatus::External;
    }
    if trimmed.starts_with('#') {
        return LinkStatus::Anchor;
    }
    // Any other scheme (`javascript:`, `data:`, `file:`, `vbscript:` …) is blocked. A colon before the
    // first slash marks a scheme; Windows drive letters land here too, which is right: they are absolute.
    if let Some(colon) = trimmed.find(':') {
        if !trimmed[..colon].contains('/') {
            return LinkStatus::Blocked;
        }
    }
    let path = trimmed.split(['#', '?']).next().unwrap_or_default();
    match bundled_path(path) {
        Some(relative) if relative.as_os_str().is_empty() => LinkStatus::Bundled,
        Some(relative) if files.exists(&relative) => LinkStatus::Bundled,
        Some(_) => LinkStatus::Missing,
        None => LinkStatus::Escapes,
    }
}

/// The path relative to the skill folder, or `None` when it is absolute or climbs out of it.
fn bundled_path(target: &str) -> Option<PathBuf> {
    let decoded = percent_decode(target);
    if decoded.starts_with('/') || decoded.starts_with('\\') {
        return None;
    }
    let mut relative = PathBuf::new();
    for component in Path::new(&decoded).components() {
        match component {
            Component::Normal(part) => relative.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !relative.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(relative)
}

/// Decodes `%20`-style escapes, which Markdown authors use for spaces in file names.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = |offset: usize| {
            bytes
                .get(index + offset)
                .and_then(|byte| (*byte as char).to_digit(16))
        };
        match (bytes[index], hex(1), hex(2)) {
            (b'%', Some(high), Some(low)) => {
                decoded.push((high * 16 + low) as u8);
                index += 3;
            }
            (byte, _, _) => {
                decoded.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Listed(&'static [&'static str]);

    impl BundledFiles for Listed {
        fn exists(&self, relative: &Path) -> bool {
            self.0.iter().any(|file| Path::new(file) == relative)
        }
    }

    const FILES: Listed = Listed(&["references/guide.md", "scripts/run me.py"]);

    fn status_of(markdown: &str) -> Vec<LinkStatus> {
        render_markdown(markdown, &FILES)
            .links
            .into_iter()
            .map(|link| link.status)
            .collect()
    }

    #[test]
    fn renders_only_the_body() {
        let preview = render(
            "---\nname: x\ndescription: y\n---\n# Title\n\nText.\n",
            &FILES,
        );
        assert_eq!(preview.html, "<h1>Title</h1>\n<p>Text.</p>\n");
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let hostile = "<script>window.pwned=1</script>\n\n<img src=x onerror=alert(1)> and <iframe src=\"https://evil\"></iframe>\n\n<svg><script>alert(1)</script></svg>\n";
        let html = render_markdown(hostile, &FILES).html;
        for dangerous in ["<script", "<img", "<iframe", "<svg"] {
            assert!(!html.contains(dangerous), "{dangerous} survived: {html}");
        }
        assert!(
            html.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;"),
            "{html}"
        );
    }

    #[test]
    fn links_never_navigate_and_are_classified() {
        let markdown = "[a](references/guide.md) [b](references/missing.md) [c](../../etc/passwd) [d](/etc/passwd) \
                        [e](https://example.com/x?y=\"z\") [f](javascript:alert(1)) [g](#usage) [h](scripts/run%20me.py) \
                        [i](DATA:text/html,x) <mailto:a@b.c>";
        use LinkStatus::*;
        assert_eq!(
            status_of(markdown),
            vec![
                Bundled, Missing, Escapes, Escapes, External, Blocked, Anchor, Bundled, Blocked,
                External
            ]
        );
        let html = render_markdown(markdown, &FILES).html;
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(!html.contains("href=\"https"), "{html}");
        assert!(
            html.contains(r#"data-link-target="https://example.com/x?y=&quot;z&quot;""#),
            "{html}"
        );
    }

    #[test]
    fn remote_images_are_not_loaded() {
        let html = render_markdown(
            "![a <b>diagram</b>](https://tracker.example/pixel.png)",
            &FILES,
        )
        .html;
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("[a &lt;b&gt;diagram&lt;/b&gt;: remote image not loaded]"),
            "{html}"
        );
    }

    #[test]
    fn bundled_images_are_embedded_and_nothing_outside_the_skill_is_read() {
        let skill = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(skill.path().join("assets")).expect("assets");
        std::fs::write(skill.path().join("assets/logo.png"), b"\x89PNG\r\n").expect("png");
        std::fs::write(skill.path().join("notes.txt"), b"text").expect("text");
        let outside = tempfile::tempdir().expect("outside");
        std::fs::write(outside.path().join("secret.png"), b"secret").expect("secret");
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path(), skill.path().join("linked")).expect("link");
        let folder = SkillFolder(skill.path());
        let html = render_markdown(
            "![logo](assets/logo.png) ![n](notes.txt) ![gone](assets/gone.png) ![up](../secret.png) ![l](linked/secret.png)",
            &folder,
        )
        .html;
        assert!(
            html.contains(r#"<img class="bundled-image" src="data:image/png;base64,iVBORw0K" alt="logo" title="assets/logo.png">"#),
            "{html}"
        );
        assert!(html.contains("[n: not an image file]"), "{html}");
        assert!(
            html.contains("[gone: not found in the skill folder]"),
            "{html}"
        );
        assert!(
            html.contains("[up: outside the skill folder, not loaded]"),
            "{html}"
        );
        // A link inside the skill is not followed out of it.
        assert!(html.contains("[l: cannot be read"), "{html}");
        assert_eq!(html.matches("<img").count(), 1, "{html}");
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn huge_lines_and_deep_nesting_render() {
        let long_line = "x".repeat(2_000_000);
        assert!(render_markdown(&long_line, &FILES).html.len() > 2_000_000);
        let nested = format!("{}deep", "> ".repeat(10_000));
        assert!(render_markdown(&nested, &FILES).html.contains("deep"));
    }
}
