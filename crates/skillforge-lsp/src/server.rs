//! The server's state (workspace folders, the lint snapshot, open documents) and the dispatch of
//! requests and notifications.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DocumentLinkOptions, HoverProviderCapability, InitializeParams, PositionEncodingKind,
    PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use serde_json::Value;
use skillforge_core::editor::{BufferLint, EditorBuffer, EditorEdit, LintSession};
use skillforge_core::lint::ProfileId;

use crate::features;
use crate::position::LineIndex;

/// The custom request that answers what the app's catalog preview shows: params `{ "dialect":
/// "codex", "limits": {…}?, "uri": "file:///…/SKILL.md"? }`, result the engine's `CatalogPage`.
pub const CATALOG_PREVIEW: &str = "skillforge/catalogPreview";

/// One document the client has open.
pub struct Document {
    pub buffer: EditorBuffer,
    pub index: LineIndex,
    /// The client's version of the text.
    pub version: i32,
    /// The findings about the current text; `None` for files that are no SKILL.md.
    pub lint: Option<BufferLint>,
}

impl Document {
    pub fn is_skill_file(&self) -> bool {
        is_skill_file(self.buffer.path())
    }
}

pub struct Server {
    /// The workspace folders, canonical.
    pub roots: Vec<PathBuf>,
    /// Chosen by the client; else those of `skillforge.toml`; else every profile.
    requested_profiles: Vec<ProfileId>,
    session: Option<Arc<LintSession>>,
    pub documents: HashMap<Url, Document>,
    /// Notifications to send once the current message is handled.
    outbox: Vec<Message>,
}

/// A request's failure, sent back as its error.
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

impl Refusal {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::InvalidParams,
            message: message.into(),
        }
    }
}

pub fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name == "SKILL.md" || name == "skill.md")
}

impl Server {
    pub fn new(params: &InitializeParams) -> Self {
        let mut roots: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|folder| folder.uri.to_file_path().ok())
            .collect();
        #[allow(deprecated)]
        if roots.is_empty() {
            if let Some(path) = params
                .root_uri
                .as_ref()
                .and_then(|uri| uri.to_file_path().ok())
            {
                roots.push(path);
            }
        }
        let roots = roots
            .into_iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .collect();
        let requested_profiles = params
            .initialization_options
            .as_ref()
            .and_then(|options| options.get("profiles"))
            .and_then(|profiles| serde_json::from_value(profiles.clone()).ok())
            .unwrap_or_default();
        Self {
            roots,
            requested_profiles,
            session: None,
            documents: HashMap::new(),
            outbox: Vec::new(),
        }
    }

    pub fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            position_encoding: Some(PositionEncodingKind::UTF16),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..Default::default()
                },
            )),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..Default::default()
            })),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec!["(".into(), "/".into(), ":".into()]),
                ..Default::default()
            }),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            }),
            ..Default::default()
        }
    }

    /// The lint snapshot of the workspace folders, read on first use and after files change.
    pub fn session(&mut self) -> Arc<LintSession> {
        if let Some(session) = &self.session {
            return Arc::clone(session);
        }
        let session = Arc::new(match LintSession::open(&self.roots) {
            Ok(session) => session,
            Err(error) => {
                self.log(&format!(
                    "the workspace could not be read ({error}); each file is checked on its own"
                ));
                LintSession::default()
            }
        });
        self.session = Some(Arc::clone(&session));
        session
    }

    pub fn profiles(&mut self) -> Vec<ProfileId> {
        if !self.requested_profiles.is_empty() {
            return self.requested_profiles.clone();
        }
        self.session().configured_profiles().to_vec()
    }

    /// The path of a document inside the workspace folders, or why it is refused.
    pub fn path_of(&self, uri: &Url) -> Result<PathBuf, Refusal> {
        let path = uri
            .to_file_path()
            .map_err(|()| Refusal::invalid(format!("{uri}: only file: documents are served")))?;
        // The folder is resolved (a document may not exist yet): links cannot carry it outside.
        let resolved = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => std::fs::canonicalize(parent)
                .map(|parent| parent.join(name))
                .unwrap_or_else(|_| path.clone()),
            _ => path.clone(),
        };
        if self.roots.iter().any(|root| resolved.starts_with(root)) {
            Ok(path)
        } else {
            Err(Refusal::invalid(format!(
                "{}: outside the workspace folders; the server reads only files inside them",
                path.display()
            )))
        }
    }

    pub fn document(&self, uri: &Url) -> Result<&Document, Refusal> {
        self.path_of(uri)?;
        self.documents
            .get(uri)
            .ok_or_else(|| Refusal::invalid(format!("{uri}: not open")))
    }

    fn log(&mut self, message: &str) {
        self.outbox.push(Message::Notification(Notification::new(
            note::LogMessage::METHOD.to_string(),
            lsp_types::LogMessageParams {
                typ: lsp_types::MessageType::WARNING,
                message: message.to_string(),
            },
        )));
    }

    /// Lints an open SKILL.md and queues its diagnostics.
    fn relint(&mut self, uri: &Url) {
        let profiles = self.profiles();
        let session = self.session();
        let Some(document) = self.documents.get_mut(uri) else {
            return;
        };
        if !document.is_skill_file() {
            return;
        }
        let lint = session.lint_open_buffer(&mut document.buffer, &profiles);
        let mut diagnostics = features::diagnostics(&lint, &document.index);
        features::relate(&mut diagnostics, document.buffer.placement());
        let version = Some(document.version);
        document.lint = Some(lint);
        self.publish(uri.clone(), diagnostics, version);
    }

    fn publish(&mut self, uri: Url, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        self.outbox.push(Message::Notification(Notification::new(
            note::PublishDiagnostics::METHOD.to_string(),
            PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            },
        )));
    }

    /// Every SKILL.md of the workspace that is not open, linted as on disk: the cross-skill findings
    /// (duplicate names, nesting) reach files the author has not opened.
    fn publish_workspace(&mut self) {
        let profiles = self.profiles();
        let session = self.session();
        let lint = session.lint_workspace(&HashMap::new(), &profiles);
        for file in lint.files {
            let Ok(uri) = Url::from_file_path(&file.path) else {
                continue;
            };
            if self.documents.contains_key(&uri) {
                continue;
            }
            let text = std::fs::read_to_string(&file.path).unwrap_or_default();
            let index = LineIndex::new(&text);
            let buffer = BufferLint {
                diagnostics: file.diagnostics,
                verdicts: file.verdicts,
            };
            let diagnostics = features::diagnostics(&buffer, &index);
            self.publish(uri, diagnostics, None);
        }
    }

    /// The workspace changed on disk: read it again and lint what is open against it.
    fn files_changed(&mut self) {
        self.session = None;
        let open: Vec<Url> = self.documents.keys().cloned().collect();
        for uri in open {
            self.relint(&uri);
        }
        self.publish_workspace();
    }

    fn notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(params) = notification.extract::<lsp_types::DidOpenTextDocumentParams>(
                    note::DidOpenTextDocument::METHOD,
                ) else {
                    return;
                };
                let uri = params.text_document.uri;
                let path = match self.path_of(&uri) {
                    Ok(path) => path,
                    Err(refusal) => return self.log(&refusal.message),
                };
                let text = params.text_document.text;
                self.documents.insert(
                    uri.clone(),
                    Document {
                        index: LineIndex::new(&text),
                        buffer: EditorBuffer::new(path, text),
                        version: params.text_document.version,
                        lint: None,
                    },
                );
                self.relint(&uri);
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(params) = notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    note::DidChangeTextDocument::METHOD,
                ) else {
                    return;
                };
                let uri = params.text_document.uri;
                let Some(document) = self.documents.get_mut(&uri) else {
                    return;
                };
                let mut problem = None;
                for change in params.content_changes {
                    match change.range {
                        Some(range) => {
                            let edit = EditorEdit {
                                from: document.index.offset(range.start),
                                to: document.index.offset(range.end),
                                insert: change.text,
                            };
                            let version = document.buffer.version();
                            if let Err(error) = document.buffer.apply(version, &[edit]) {
                                problem = Some(error.to_string());
                                break;
                            }
                        }
                        None => {
                            let path = document.buffer.path().to_path_buf();
                            document.buffer = EditorBuffer::new(path, change.text);
                        }
                    }
                    document.index = LineIndex::new(document.buffer.text());
                }
                document.version = params.text_document.version;
                if let Some(problem) = problem {
                    self.log(&format!(
                        "{uri}: a change did not fit the text ({problem}); reopen the file"
                    ));
                }
                self.relint(&uri);
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(params) = notification.extract::<lsp_types::DidCloseTextDocumentParams>(
                    note::DidCloseTextDocument::METHOD,
                ) else {
                    return;
                };
                let uri = params.text_document.uri;
                if let Some(document) = self.documents.remove(&uri) {
                    // Unsaved edits are gone: what stands is the file on disk, as for files never opened.
                    let saved = std::fs::read_to_string(document.buffer.path()).ok();
                    let diagnostics = match saved {
                        Some(text) if document.is_skill_file() => {
                            let profiles = self.profiles();
                            let lint = self.session().lint_buffer(
                                document.buffer.path(),
                                &text,
                                &profiles,
                            );
                            features::diagnostics(&lint, &LineIndex::new(&text))
                        }
                        _ => Vec::new(),
                    };
                    self.publish(uri, diagnostics, None);
                }
            }
            note::DidSaveTextDocument::METHOD | note::DidChangeWatchedFiles::METHOD => {
                self.files_changed();
            }
            _ => {}
        }
    }

    fn request(&mut self, request: &Request) -> Result<Value, Refusal> {
        let params = request.params.clone();
        fn parse(what: &'static str) -> impl Fn(serde_json::Error) -> Refusal {
            move |error| Refusal::invalid(format!("{what}: {error}"))
        }
        match request.method.as_str() {
            req::CodeActionRequest::METHOD => {
                let params = serde_json::from_value(params).map_err(parse("codeAction"))?;
                features::code_actions(self, params)
            }
            req::HoverRequest::METHOD => {
                let params = serde_json::from_value(params).map_err(parse("hover"))?;
                features::hover(self, params)
            }
            req::Completion::METHOD => {
                let params = serde_json::from_value(params).map_err(parse("completion"))?;
                features::completion(self, params)
            }
            req::DocumentLinkRequest::METHOD => {
                let params = serde_json::from_value(params).map_err(parse("documentLink"))?;
                features::document_links(self, params)
            }
            CATALOG_PREVIEW => {
                let params = serde_json::from_value(params).map_err(parse(CATALOG_PREVIEW))?;
                features::catalog_preview(self, params)
            }
            method => Err(Refusal {
                code: ErrorCode::MethodNotFound,
                message: format!("{method} is not served"),
            }),
        }
    }

    /// Handles one message; a panic in a handler is answered as an internal error, never a crash.
    fn handle(&mut self, message: Message) -> Vec<Message> {
        let mut replies = Vec::new();
        match message {
            Message::Request(request) => {
                let id: RequestId = request.id.clone();
                let answer = std::panic::catch_unwind(AssertUnwindSafe(|| self.request(&request)));
                replies.push(Message::Response(match answer {
                    Ok(Ok(result)) => Response::new_ok(id, result),
                    Ok(Err(refusal)) => Response::new_err(id, refusal.code as i32, refusal.message),
                    Err(_) => Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        format!("{} failed inside the server", request.method),
                    ),
                }));
            }
            Message::Notification(notification) => {
                let method = notification.method.clone();
                if std::panic::catch_unwind(AssertUnwindSafe(|| self.notification(notification)))
                    .is_err()
                {
                    self.log(&format!("{method} failed inside the server"));
                }
            }
            Message::Response(_) => {}
        }
        replies.append(&mut self.outbox);
        replies
    }
}

/// Runs the protocol on `connection` until the client asks to shut down and exits.
pub fn serve(connection: Connection) -> Result<(), String> {
    let capabilities =
        serde_json::to_value(Server::capabilities()).map_err(|error| error.to_string())?;
    let (id, params) = connection
        .initialize_start()
        .map_err(|error| error.to_string())?;
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|error| format!("initialize: {error}"))?;
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": ServerInfo {
            name: "skillforge".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|error| error.to_string())?;
    let mut server = Server::new(&params);
    // The `initialized` notification was read with the handshake: the workspace's findings go out now.
    server.publish_workspace();
    for reply in server.outbox.drain(..) {
        connection
            .sender
            .send(reply)
            .map_err(|error| error.to_string())?;
    }
    for message in &connection.receiver {
        if let Message::Request(request) = &message {
            if connection
                .handle_shutdown(request)
                .map_err(|error| error.to_string())?
            {
                return Ok(());
            }
        }
        for reply in server.handle(message) {
            connection
                .sender
                .send(reply)
                .map_err(|error| error.to_string())?;
        }
    }
    Ok(())
}
