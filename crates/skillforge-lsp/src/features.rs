//! What the server answers: diagnostics, code actions, hover, completion, document links and the
//! catalog preview, each from the engine's findings about the open text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeDescription, CompletionItem,
    CompletionItemKind, CompletionParams, CompletionTextEdit, DiagnosticSeverity, DocumentLink,
    DocumentLinkParams, Hover, HoverContents, HoverParams, MarkupContent, MarkupKind,
    NumberOrString, Range, TextEdit, Url, WorkspaceEdit,
};
use serde::Deserialize;
use serde_json::Value;
use skillforge_core::catalog::session::{Buffer, CatalogSession};
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits};
use skillforge_core::editor::{BufferLint, EditorDiagnostic};
use skillforge_core::lint::context::Placement;
use skillforge_core::lint::rules::body::{local_links_of, percent_decode};
use skillforge_core::lint::{registry, Applicability, Severity};

use crate::position::{byte_offset, utf16_offset, LineIndex};
use crate::server::{Document, Refusal, Server};

/// The source named in every diagnostic.
const SOURCE: &str = "skillforge";
/// How many catalog entries `skillforge/catalogPreview` returns (the current skill's is always among them).
const PREVIEW_ROWS: usize = 300;
/// Link completion lists at most this many files of a skill.
const MAX_LINK_CANDIDATES: usize = 500;

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

fn diagnostic(found: &EditorDiagnostic, index: &LineIndex) -> lsp_types::Diagnostic {
    let href = registry::find(&found.code).and_then(|(code, rule)| {
        Url::parse(&skillforge_core::lint::docs::rule_uri(code, rule)).ok()
    });
    let profiles: Vec<&str> = found
        .profiles
        .iter()
        .map(|profile| profile.as_str())
        .collect();
    let message = if profiles.is_empty() {
        found.message.clone()
    } else {
        format!("{} ({})", found.message, profiles.join(", "))
    };
    lsp_types::Diagnostic {
        range: index.range(found.from, found.to),
        severity: Some(severity(found.severity)),
        code: Some(NumberOrString::String(found.code.clone())),
        code_description: href.map(|href| CodeDescription { href }),
        source: Some(SOURCE.into()),
        message,
        data: Some(Value::String(found.rule.clone())),
        ..Default::default()
    }
}

/// The findings about a text, for `textDocument/publishDiagnostics`.
pub fn diagnostics(lint: &BufferLint, index: &LineIndex) -> Vec<lsp_types::Diagnostic> {
    lint.diagnostics
        .iter()
        .map(|found| diagnostic(found, index))
        .collect()
}

/// `textDocument/codeAction`'s parameters as far as they are used: the findings are the server's own,
/// so the diagnostics an editor echoes back (some send them incomplete) are not read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeActionRequest {
    pub text_document: lsp_types::TextDocumentIdentifier,
    pub range: Range,
    #[serde(default)]
    pub context: CodeActionWanted,
}

#[derive(Deserialize, Default)]
pub struct CodeActionWanted {
    #[serde(default)]
    pub only: Option<Vec<CodeActionKind>>,
}

/// The other files a cross-skill finding is about, as related information: the skills declaring the same
/// name (SF601), the skill this one sits in (SF602), the skill 10xGraph loads instead.
pub fn relate(diagnostics: &mut [lsp_types::Diagnostic], placement: &Placement) {
    let location = |path: &str, message: String| {
        let uri = Url::from_file_path(path).ok()?;
        Some(lsp_types::DiagnosticRelatedInformation {
            location: lsp_types::Location {
                uri,
                range: Range::default(),
            },
            message,
        })
    };
    for diagnostic in diagnostics {
        let code = match &diagnostic.code {
            Some(NumberOrString::String(code)) => code.as_str(),
            _ => continue,
        };
        let related: Vec<_> = match code {
            "SF601" => {
                let mut paths: Vec<&String> = placement.same_name_elsewhere.iter().collect();
                for path in &placement.nagents_same_name {
                    if !paths.contains(&path) {
                        paths.push(path);
                    }
                }
                if let Some(first) = &placement.tenxgraph_shadowed_by {
                    if !paths.contains(&first) {
                        paths.push(first);
                    }
                }
                paths
                    .into_iter()
                    .filter_map(|path| location(path, "declares the same name".into()))
                    .collect()
            }
            "SF602" => placement
                .nested_in
                .iter()
                .filter_map(|folder| {
                    let outer = Path::new(folder).join("SKILL.md");
                    location(
                        &outer.to_string_lossy(),
                        "the skill this one sits in".into(),
                    )
                })
                .collect(),
            _ => continue,
        };
        if !related.is_empty() {
            diagnostic.related_information = Some(related);
        }
    }
}

/// Every quick fix of the findings in the range, and "fix all" for the whole file.
pub fn code_actions(server: &mut Server, params: CodeActionRequest) -> Result<Value, Refusal> {
    let uri = params.text_document.uri;
    let wanted = |kind: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|asked| kind.as_str().starts_with(asked.as_str()))
        })
    };
    let mut actions = Vec::new();
    let has_safe_fix;
    {
        let document = server.document(&uri)?;
        let Some(lint) = &document.lint else {
            return Ok(Value::Array(Vec::new()));
        };
        let start = document.index.offset(params.range.start);
        let end = document.index.offset(params.range.end);
        has_safe_fix = lint.diagnostics.iter().any(|found| {
            found
                .fix
                .as_ref()
                .is_some_and(|fix| fix.applicability == Applicability::Safe)
        });
        if wanted(&CodeActionKind::QUICKFIX) {
            for found in &lint.diagnostics {
                let Some(fix) = &found.fix else { continue };
                if found.from > end || found.to < start {
                    continue;
                }
                let title = match fix.applicability {
                    Applicability::Safe => fix.title.clone(),
                    Applicability::Unsafe => format!("{} (unsafe: check the result)", fix.title),
                    // Shown with the finding, never applied.
                    Applicability::DisplayOnly => continue,
                };
                let edits = fix
                    .edits
                    .iter()
                    .map(|edit| TextEdit {
                        range: document.index.range(edit.from, edit.to),
                        new_text: edit.insert.clone(),
                    })
                    .collect();
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic(found, &document.index)]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(uri.clone(), edits)])),
                        ..Default::default()
                    }),
                    is_preferred: Some(fix.applicability == Applicability::Safe),
                    ..Default::default()
                }));
            }
        }
    }
    if has_safe_fix && wanted(&CodeActionKind::SOURCE_FIX_ALL) {
        let profiles = server.profiles();
        let session = server.session();
        if let Some(document) = server.documents.get_mut(&uri) {
            if let Some(fixed) = session.fix_all(&mut document.buffer, &profiles, false) {
                let whole = document.index.range(0, u32::MAX);
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: "Fix all safe problems".into(),
                    kind: Some(CodeActionKind::SOURCE_FIX_ALL),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(
                            uri.clone(),
                            vec![TextEdit {
                                range: whole,
                                new_text: fixed,
                            }],
                        )])),
                        ..Default::default()
                    }),
                    ..Default::default()
                }));
            }
        }
    }
    serde_json::to_value(actions).map_err(|error| Refusal::invalid(error.to_string()))
}

/// A frontmatter key the schema knows: its description and the values it takes, where it names them
/// (`true`/`false` for a boolean, the listed ones for an enumeration).
struct SchemaKey {
    key: String,
    description: String,
    values: Vec<String>,
}

fn schema_keys() -> Vec<SchemaKey> {
    let schema: Value =
        serde_json::from_str(&skillforge_core::frontmatter::schema::frontmatter_schema_json())
            .unwrap_or(Value::Null);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(key, property)| {
            let description = property
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let boolean = match property.get("type") {
                Some(Value::String(kind)) => kind == "boolean",
                Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "boolean"),
                _ => false,
            };
            let values = match property.get("enum").and_then(Value::as_array) {
                Some(listed) => listed
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
                None if boolean => vec!["true".into(), "false".into()],
                None => Vec::new(),
            };
            SchemaKey {
                key: key.clone(),
                description,
                values,
            }
        })
        .collect()
}

/// The frontmatter's YAML byte range, when the file has one.
fn frontmatter_range(text: &str) -> Option<std::ops::Range<usize>> {
    let layout = skillforge_core::frontmatter::yaml::layout(text).ok()?;
    Some(layout.yaml.start()..layout.yaml.end())
}

/// The top-level key written on the line holding `byte`, if the line is `key: …`.
fn key_at_line(text: &str, byte: usize) -> Option<&str> {
    let start = text[..byte].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let end = text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |at| start + at);
    let line = &text[start..end];
    let (key, _) = line.split_once(':')?;
    (!key.starts_with([' ', '\t', '-', '#']) && !key.is_empty()).then_some(key.trim())
}

/// The `$skill-name` word around `byte`, if any.
fn skill_reference_at(text: &str, byte: usize) -> Option<&str> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let start = text[..byte]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name(*c) || *c == '$')
        .last()
        .map_or(byte, |(at, _)| at);
    let word = &text[start..];
    let word = word.strip_prefix('$')?;
    let end = word.find(|c: char| !is_name(c)).unwrap_or(word.len());
    (end > 0).then(|| &word[..end])
}

fn skill_folder(document: &Document) -> PathBuf {
    document
        .buffer
        .path()
        .parent()
        .map_or_else(PathBuf::new, Path::to_path_buf)
}

fn markdown(value: String) -> Value {
    serde_json::to_value(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: None,
    })
    .unwrap_or(Value::Null)
}

/// A finding's rule documentation; a link's target; a `$skill`'s file; a frontmatter key's meaning.
pub fn hover(server: &mut Server, params: HoverParams) -> Result<Value, Refusal> {
    let uri = params.text_document_position_params.text_document.uri;
    let position = params.text_document_position_params.position;
    let (text, offset, folder, findings, is_skill) = {
        let document = server.document(&uri)?;
        let offset = document.index.offset(position);
        let findings: Vec<EditorDiagnostic> = document
            .lint
            .iter()
            .flat_map(|lint| lint.diagnostics.iter())
            .filter(|found| found.from <= offset && offset <= found.to)
            .cloned()
            .collect();
        (
            document.buffer.text().to_string(),
            offset,
            skill_folder(document),
            findings,
            document.is_skill_file(),
        )
    };
    let byte = byte_offset(&text, offset);
    if !findings.is_empty() {
        let mut out = String::new();
        for found in findings {
            out.push_str(&format!(
                "**{} {}** — {}\n\n",
                found.code, found.rule, found.message
            ));
            if let Some((_, rule)) = registry::find(&found.code) {
                out.push_str(rule.docs.trim());
                out.push_str("\n\n");
            }
        }
        return Ok(markdown(out.trim_end().to_string()));
    }
    if is_skill {
        for link in local_links_of(&text) {
            if link.range.start() <= byte && byte <= link.range.end() {
                return Ok(markdown(link_target(&folder, &link.target)));
            }
        }
    }
    if let Some(name) = skill_reference_at(&text, byte) {
        let session = server.session();
        return Ok(markdown(match session.skill_named(name) {
            Some(path) => format!("`${name}` — {}", path.display()),
            None => format!("`${name}` — no skill of that name in the workspace folders"),
        }));
    }
    if frontmatter_range(&text).is_some_and(|range| range.contains(&byte)) {
        if let Some(key) = key_at_line(&text, byte) {
            if let Some(known) = schema_keys().into_iter().find(|known| known.key == key) {
                let mut text = format!("**{}** — {}", known.key, known.description);
                if !known.values.is_empty() {
                    text.push_str(&format!("\n\nValues: `{}`", known.values.join("`, `")));
                }
                return Ok(markdown(text));
            }
        }
    }
    Ok(Value::Null)
}

/// What a relative link leads to, looked at only inside the skill folder: nothing outside it is
/// opened or described.
fn link_target(folder: &Path, target: &str) -> String {
    use std::path::Component;
    let decoded = percent_decode(target);
    let relative = Path::new(&decoded);
    let escapes = relative.is_absolute()
        || relative
            .components()
            .any(|part| matches!(part, Component::ParentDir | Component::Prefix(_)));
    if escapes {
        return format!("`{target}` — outside the skill folder; not looked at");
    }
    let path = folder.join(relative);
    let inside = std::fs::canonicalize(&path)
        .ok()
        .zip(std::fs::canonicalize(folder).ok());
    let what = match inside {
        Some((resolved, folder)) if !resolved.starts_with(&folder) => {
            return format!("`{target}` — a link leading outside the skill folder; not looked at")
        }
        _ => match std::fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.is_file() => format!("{} bytes", metadata.len()),
            Ok(metadata) if metadata.is_dir() => "a folder".to_string(),
            Ok(metadata) if metadata.is_symlink() => "a link".to_string(),
            Ok(_) => "not a regular file".to_string(),
            Err(_) => "does not exist".to_string(),
        },
    };
    format!("`{}` — {what}", path.display())
}

/// Frontmatter keys and boolean values; relative link targets inside the skill folder.
pub fn completion(server: &mut Server, params: CompletionParams) -> Result<Value, Refusal> {
    let uri = params.text_document_position.text_document.uri;
    let document = server.document(&uri)?;
    let offset = document
        .index
        .offset(params.text_document_position.position);
    let text = document.buffer.text();
    let byte = byte_offset(text, offset);
    let line_start = text[..byte].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let before = &text[line_start..byte];
    let mut items = Vec::new();
    let in_frontmatter = frontmatter_range(text)
        .is_some_and(|range| range.start <= byte && (byte <= range.end || range.is_empty()));
    if in_frontmatter {
        let keys = schema_keys();
        match before.split_once(':') {
            None if !before.starts_with([' ', '\t']) => {
                let present: Vec<&str> = frontmatter_range(text)
                    .map(|range| &text[range])
                    .unwrap_or("")
                    .lines()
                    .filter_map(|line| line.split_once(':').map(|(key, _)| key))
                    .collect();
                for known in keys {
                    if present.contains(&known.key.as_str()) {
                        continue;
                    }
                    items.push(CompletionItem {
                        insert_text: Some(format!("{}: ", known.key)),
                        label: known.key,
                        kind: Some(CompletionItemKind::PROPERTY),
                        detail: Some("frontmatter key".into()),
                        documentation: Some(lsp_types::Documentation::String(known.description)),
                        ..Default::default()
                    });
                }
            }
            Some((key, value)) if value.trim().is_empty() => {
                let values = keys
                    .into_iter()
                    .find(|known| known.key == key.trim())
                    .map(|known| known.values)
                    .unwrap_or_default();
                for value in values {
                    items.push(CompletionItem {
                        label: value,
                        kind: Some(CompletionItemKind::VALUE),
                        ..Default::default()
                    });
                }
            }
            _ => {}
        }
    } else if document.is_skill_file() {
        if let Some(open) = before.rfind("](") {
            let partial = &before[open + 2..];
            if !partial.contains([')', ' ']) {
                let from = utf16_offset(text, line_start + open + 2);
                let range: Range = document.index.range(from, offset);
                for file in skill_files(&skill_folder(document)) {
                    if !file.starts_with(partial) || file == "SKILL.md" {
                        continue;
                    }
                    items.push(CompletionItem {
                        label: file.clone(),
                        kind: Some(CompletionItemKind::FILE),
                        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                            range,
                            new_text: file,
                        })),
                        ..Default::default()
                    });
                }
            }
        }
    }
    serde_json::to_value(items).map_err(|error| Refusal::invalid(error.to_string()))
}

/// The files of a skill folder, relative and `/`-separated, hidden and dependency folders left out,
/// never through a link, at most [`MAX_LINK_CANDIDATES`].
fn skill_files(folder: &Path) -> Vec<String> {
    use skillforge_core::fs::walk;
    let Ok(root) = skillforge_core::fs::open::root_directory(folder) else {
        return Vec::new();
    };
    let options = walk::Options {
        max_depth: 6,
        skip: |name| name.starts_with(b".") || name == b"node_modules" || name == b"__pycache__",
        parallel: false,
    };
    let walked = walk::walk(&root, folder, &options, &|below, out: &mut Vec<String>| {
        for entry in below.entries {
            if entry.kind == rustix::fs::FileType::RegularFile
                && !entry.name_bytes().starts_with(b".")
            {
                let path = below.path_of(&entry.name);
                if let Ok(relative) = path.strip_prefix(folder) {
                    out.push(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        out.len() < MAX_LINK_CANDIDATES
    });
    let mut files = walked.found;
    files.truncate(MAX_LINK_CANDIDATES);
    files.sort();
    files
}

/// Relative links whose targets exist inside the skill folder.
pub fn document_links(server: &mut Server, params: DocumentLinkParams) -> Result<Value, Refusal> {
    let uri = params.text_document.uri;
    let document = server.document(&uri)?;
    if !document.is_skill_file() {
        return Ok(Value::Array(Vec::new()));
    }
    let text = document.buffer.text();
    let folder = skill_folder(document);
    let canonical_folder = std::fs::canonicalize(&folder).unwrap_or_else(|_| folder.clone());
    let mut links = Vec::new();
    for link in local_links_of(text) {
        let target = folder.join(percent_decode(&link.target));
        let Ok(resolved) = std::fs::canonicalize(&target) else {
            continue;
        };
        if !resolved.starts_with(&canonical_folder) {
            continue;
        }
        let Ok(target_uri) = Url::from_file_path(&resolved) else {
            continue;
        };
        let from = utf16_offset(text, link.range.start());
        let to = utf16_offset(text, link.range.end());
        links.push(DocumentLink {
            range: document.index.range(from, to),
            target: Some(target_uri),
            tooltip: Some(link.target.clone()),
            data: None,
        });
    }
    serde_json::to_value(links).map_err(|error| Refusal::invalid(error.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogPreviewParams {
    pub dialect: CatalogDialect,
    #[serde(default)]
    pub limits: PreviewLimits,
    /// The document whose entry the page must hold.
    #[serde(default)]
    pub uri: Option<Url>,
}

/// The budgets of a preview: each at least 1; a name the engine does not know is refused, not ignored.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PreviewLimits {
    #[serde(default)]
    pub manifest_tokens: Option<u32>,
    #[serde(default)]
    pub context_window: Option<u32>,
    #[serde(default)]
    pub skill_char_budget: Option<u32>,
}

/// What the app's catalog preview shows for the workspace folders, open SKILL.md files in place of
/// their saved text.
pub fn catalog_preview(
    server: &mut Server,
    params: CatalogPreviewParams,
) -> Result<Value, Refusal> {
    let limits = params.limits;
    if [
        limits.manifest_tokens,
        limits.context_window,
        limits.skill_char_budget,
    ]
    .contains(&Some(0))
    {
        return Err(Refusal::invalid(
            "budgets must be positive: manifest_tokens, context_window and skill_char_budget are at least 1",
        ));
    }
    let limits = CatalogLimits {
        manifest_tokens: limits.manifest_tokens,
        context_window: limits.context_window,
        skill_char_budget: limits.skill_char_budget,
    };
    let current = match &params.uri {
        Some(uri) => Some(server.path_of(uri)?.display().to_string()),
        None => None,
    };
    let buffers: Vec<Buffer> = server
        .documents
        .values()
        .filter(|document| document.is_skill_file())
        .map(|document| Buffer {
            path: document.buffer.path().display().to_string(),
            text: document.buffer.text().to_string(),
        })
        .collect();
    let catalog = CatalogSession::open(&server.canonical_roots());
    let page = catalog.preview(params.dialect, &limits, &buffers).page(
        PREVIEW_ROWS,
        current.as_deref(),
        None,
    );
    serde_json::to_value(page).map_err(|error| Refusal::invalid(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_reference_is_read_around_the_cursor() {
        let text = "Use $pdf-tools then stop.";
        assert_eq!(skill_reference_at(text, 6), Some("pdf-tools"));
        assert_eq!(skill_reference_at(text, 4), Some("pdf-tools"));
        assert_eq!(skill_reference_at(text, 1), None);
    }

    #[test]
    fn a_key_is_read_from_its_line_only_at_the_top_level() {
        let text = "name: a\n  nested: b\ndescription: c";
        assert_eq!(key_at_line(text, 2), Some("name"));
        assert_eq!(key_at_line(text, 12), None);
        assert_eq!(key_at_line(text, 25), Some("description"));
    }

    #[test]
    fn the_schema_gives_keys_with_descriptions_and_known_values() {
        let keys = schema_keys();
        let find = |wanted: &str| keys.iter().find(|known| known.key == wanted).unwrap();
        assert!(!find("name").description.is_empty());
        assert!(find("name").values.is_empty());
        assert_eq!(find("disable-model-invocation").values, ["true", "false"]);
        assert_eq!(
            find("effort").values,
            skillforge_core::clients::claude_code::fields::EFFORT_LEVELS
        );
    }
}
