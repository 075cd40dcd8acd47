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
    /// Why the server's copy of the text no longer matches the editor's, after a change it could not
    /// apply: nothing is said about the text (no findings, hover or fixes) until it is sent whole again.
    pub lost: Option<String>,
}

impl Document {
    pub fn is_skill_file(&self) -> bool {
        is_skill_file(self.buffer.path())
    }
}

/// A workspace folder: as the editor names it, and where it really is.
pub struct Root {
    pub given: PathBuf,
    pub canonical: PathBuf,
}

pub struct Server {
    pub roots: Vec<Root>,
    /// Chosen by the client; else those of `skillforge.toml`; else every profile.
    requested_profiles: Vec<ProfileId>,
    session: Option<Arc<LintSession>>,
    pub documents: HashMap<Url, Document>,
    /// What was last published for each file not open: a file is published again only when its findings
    /// change (a save in a large workspace would otherwise resend every file's), and cleared when they go.
    published: HashMap<Url, Vec<lsp_types::Diagnostic>>,
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
        let mut given: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|folder| folder.uri.to_file_path().ok())
            .collect();
        #[allow(deprecated)]
        if given.is_empty() {
            if let Some(path) = params
                .root_uri
                .as_ref()
                .and_then(|uri| uri.to_file_path().ok())
            {
                given.push(path);
            }
        }
        let mut server = Self {
            roots: Vec::new(),
            requested_profiles: Vec::new(),
            session: None,
            documents: HashMap::new(),
            published: Default::default(),
            outbox: Vec::new(),
        };
        for path in given {
            match std::fs::canonicalize(&path) {
                Ok(canonical) => server.roots.push(Root {
                    given: path,
                    canonical,
                }),
                Err(error) => server.log(&format!(
                    "workspace folder {}: cannot be opened ({error}); its files are not served",
                    path.display()
                )),
            }
        }
        if server.roots.is_empty() {
            server.log("no workspace folder: open a folder of skills so the server can read them");
        }
        let profiles = params
            .initialization_options
            .as_ref()
            .and_then(|options| options.get("profiles"));
        match profiles {
            None | Some(Value::Null) => {}
            Some(Value::Array(names)) => {
                for name in names {
                    match serde_json::from_value::<ProfileId>(name.clone()) {
                        Ok(profile) if !server.requested_profiles.contains(&profile) => {
                            server.requested_profiles.push(profile)
                        }
                        Ok(_) => {}
                        Err(_) => {
                            let known: Vec<&str> =
                                ProfileId::ALL.iter().map(|profile| profile.as_str()).collect();
                            server.log(&format!(
                                "initializationOptions.profiles: unknown profile {name} (known: {})",
                                known.join(", ")
                            ));
                        }
                    }
                }
            }
            Some(other) => server.log(&format!(
                "initializationOptions.profiles must be a list of profile names, not {other}; the profiles of skillforge.toml apply"
            )),
        }
        server
    }

    /// The workspace folders where they really are.
    pub fn canonical_roots(&self) -> Vec<PathBuf> {
        self.roots
            .iter()
            .map(|root| root.canonical.clone())
            .collect()
    }

    /// A file's URI as the editor names it: under the workspace folder as the editor spelled it.
    fn client_uri(&self, path: &Path) -> Option<Url> {
        let spelled = self
            .roots
            .iter()
            .find_map(|root| {
                path.strip_prefix(&root.canonical)
                    .ok()
                    .map(|rest| root.given.join(rest))
            })
            .unwrap_or_else(|| path.to_path_buf());
        Url::from_file_path(spelled).ok()
    }

    /// Reads a file inside a workspace folder without following links, within the size a client
    /// reads: a FIFO, a device or an endless file is refused at once.
    pub fn read_inside(&self, path: &Path) -> Result<String, String> {
        use skillforge_core::fs::{open, read};
        let root = self
            .roots
            .iter()
            .find(|root| path.starts_with(&root.canonical))
            .ok_or_else(|| format!("{}: outside the workspace folders", path.display()))?;
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Err(format!("{}: not a file", path.display()));
        };
        let below: Vec<&std::ffi::OsStr> = parent
            .strip_prefix(&root.canonical)
            .unwrap_or(Path::new(""))
            .iter()
            .collect();
        let fail = |what: String| format!("{}: {what}", path.display());
        let root_folder = open::root_directory(&root.canonical)
            .map_err(|errno| fail(std::io::Error::from(errno).to_string()))?;
        let folder = open::directory_beneath(&root_folder, below)
            .map_err(|(errno, _)| fail(std::io::Error::from(errno).to_string()))?;
        let read = read::regular_at(&folder, name, read::Limit::SKILL_FILE)
            .map_err(|error| fail(error.to_string()))?;
        Ok(String::from_utf8_lossy(&read.bytes).into_owned())
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
        let session = Arc::new(match LintSession::open(&self.canonical_roots()) {
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

    /// Where a document really is, inside a workspace folder, or why it is refused: a path naming `..`,
    /// a folder that cannot be opened, or a link leading outside.
    pub fn path_of(&self, uri: &Url) -> Result<PathBuf, Refusal> {
        use std::path::Component;
        let path = uri
            .to_file_path()
            .map_err(|()| Refusal::invalid(format!("{uri}: only file: documents are served")))?;
        if path
            .components()
            .any(|part| matches!(part, Component::ParentDir | Component::CurDir))
        {
            return Err(Refusal::invalid(format!(
                "{}: a path through `.` or `..` is not served; name the file directly",
                path.display()
            )));
        }
        let path = self
            .roots
            .iter()
            .find_map(|root| {
                path.strip_prefix(&root.given)
                    .ok()
                    .map(|rest| root.canonical.join(rest))
            })
            .unwrap_or(path);
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Err(Refusal::invalid(format!("{}: not a file", path.display())));
        };
        let parent = std::fs::canonicalize(parent).map_err(|error| {
            Refusal::invalid(format!(
                "{}: its folder cannot be opened ({error})",
                path.display()
            ))
        })?;
        let mut resolved = parent.join(name);
        if std::fs::symlink_metadata(&resolved).is_ok_and(|metadata| metadata.is_symlink()) {
            resolved = std::fs::canonicalize(&resolved).map_err(|error| {
                Refusal::invalid(format!(
                    "{}: a link that cannot be followed ({error})",
                    path.display()
                ))
            })?;
        }
        if self
            .roots
            .iter()
            .any(|root| resolved.starts_with(&root.canonical))
        {
            Ok(resolved)
        } else {
            Err(Refusal::invalid(format!(
                "{}: outside the workspace folders; the server reads only files inside them",
                path.display()
            )))
        }
    }

    pub fn document(&self, uri: &Url) -> Result<&Document, Refusal> {
        self.path_of(uri)?;
        let document = self
            .documents
            .get(uri)
            .ok_or_else(|| Refusal::invalid(format!("{uri}: not open")))?;
        match &document.lost {
            Some(why) => Err(Refusal::invalid(format!(
                "{uri}: the server's copy of the text is out of step with the editor's ({why}); reopen the file"
            ))),
            None => Ok(document),
        }
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
        if let Some(why) = &document.lost {
            // Findings about a text the editor does not have would mislead, and fixes would overwrite it.
            let lost = lsp_types::Diagnostic {
                range: lsp_types::Range::default(),
                severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                source: Some("skillforge".into()),
                message: format!(
                    "skillforge lost track of this file's text ({why}); close and reopen it to see its findings again"
                ),
                ..Default::default()
            };
            document.lint = None;
            let version = Some(document.version);
            self.publish(uri.clone(), vec![lost], version);
            return;
        }
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
    /// (duplicate names, nesting) reach files the author has not opened. Only what changed since the last
    /// time is sent: new findings, changed ones, and an empty list for a file whose findings went (or
    /// which is gone).
    pub fn publish_workspace(&mut self) {
        let profiles = self.profiles();
        let session = self.session();
        let lint = session.lint_workspace(&HashMap::new(), &profiles);
        let mut published = HashMap::new();
        for file in lint.files {
            // A clean file needs no positions, so it is not read again.
            if file.diagnostics.is_empty() {
                continue;
            }
            let path = PathBuf::from(&file.path);
            let Some(uri) = self.client_uri(&path) else {
                continue;
            };
            if self.documents.contains_key(&uri) {
                continue;
            }
            let Ok(text) = self.read_inside(&path) else {
                continue;
            };
            let buffer = BufferLint {
                diagnostics: file.diagnostics,
                verdicts: file.verdicts,
            };
            let diagnostics = features::diagnostics(&buffer, &LineIndex::new(&text));
            published.insert(uri, diagnostics);
        }
        let mut before = std::mem::take(&mut self.published);
        for (uri, diagnostics) in &published {
            if before.remove(uri).as_ref() != Some(diagnostics) {
                self.publish(uri.clone(), diagnostics.clone(), None);
            }
        }
        for uri in before.into_keys() {
            if !self.documents.contains_key(&uri) {
                self.publish(uri, Vec::new(), None);
            }
        }
        self.published = published;
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
                        lost: None,
                    },
                );
                self.relint(&uri);
            }
            note::DidChangeTextDocument::METHOD => {
                let raw_uri = notification
                    .params
                    .pointer("/textDocument/uri")
                    .and_then(Value::as_str)
                    .and_then(|uri| Url::parse(uri).ok());
                let params = match notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    note::DidChangeTextDocument::METHOD,
                ) {
                    Ok(params) => params,
                    Err(error) => {
                        let why = format!("a change that could not be read: {error:?}");
                        match raw_uri.filter(|uri| self.documents.contains_key(uri)) {
                            Some(uri) => {
                                self.log(&format!("{uri}: {why}"));
                                if let Some(document) = self.documents.get_mut(&uri) {
                                    document.lost = Some(why);
                                }
                                self.relint(&uri);
                            }
                            None => self.log(&format!("textDocument/didChange: {why}")),
                        }
                        return;
                    }
                };
                let uri = params.text_document.uri;
                let Some(document) = self.documents.get_mut(&uri) else {
                    return self.log(&format!("{uri}: changed, but it is not open"));
                };
                let mut problem = None;
                for (index, change) in params.content_changes.into_iter().enumerate() {
                    match change.range {
                        // Once lost, only a whole text brings the copy back.
                        Some(_) if document.lost.is_some() => {}
                        Some(range) => {
                            let edit = EditorEdit {
                                from: document.index.offset(range.start),
                                to: document.index.offset(range.end),
                                insert: change.text,
                            };
                            let version = document.buffer.version();
                            if let Err(error) = document.buffer.apply(version, &[edit]) {
                                let why = format!(
                                    "change {index} of version {} ({}:{} to {}:{}) does not fit the text: {error}",
                                    params.text_document.version,
                                    range.start.line,
                                    range.start.character,
                                    range.end.line,
                                    range.end.character
                                );
                                problem = Some(why.clone());
                                document.lost = Some(why);
                            }
                        }
                        None => {
                            let path = document.buffer.path().to_path_buf();
                            document.buffer = EditorBuffer::new(path, change.text);
                            document.lost = None;
                        }
                    }
                    document.index = LineIndex::new(document.buffer.text());
                }
                document.version = params.text_document.version;
                if let Some(problem) = problem {
                    self.log(&format!("{uri}: {problem}; reopen the file"));
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
                    let saved = document
                        .is_skill_file()
                        .then(|| self.read_inside(document.buffer.path()).ok())
                        .flatten();
                    let diagnostics = match saved {
                        Some(text) => {
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

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `shutdown`, then `exit`: as the protocol asks.
    Exit,
    /// `exit` without `shutdown` first (the protocol's exit code 1).
    ExitWithoutShutdown,
    /// The input closed without `exit`.
    InputClosed,
}

fn error(id: RequestId, code: ErrorCode, message: impl Into<String>) -> Message {
    Message::Response(Response::new_err(id, code as i32, message.into()))
}

/// Runs the protocol on `connection` until the client exits or its input closes.
pub fn serve(connection: Connection) -> Result<Ended, String> {
    let send = |message: Message| {
        connection
            .sender
            .send(message)
            .map_err(|_| "the output closed".to_string())
    };
    // The handshake: requests before `initialize` are refused as the protocol says; a malformed
    // `initialize` is answered with what is wrong, and another may follow.
    let params = loop {
        let Ok(message) = connection.receiver.recv() else {
            return Ok(Ended::InputClosed);
        };
        match message {
            Message::Request(request) if request.method == req::Initialize::METHOD => {
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => {
                        let result = serde_json::json!({
                            "capabilities": Server::capabilities(),
                            "serverInfo": ServerInfo {
                                name: "skillforge".into(),
                                version: Some(env!("CARGO_PKG_VERSION").into()),
                            },
                        });
                        send(Message::Response(Response::new_ok(request.id, result)))?;
                        break params;
                    }
                    Err(problem) => send(error(
                        request.id,
                        ErrorCode::InvalidParams,
                        format!("initialize: {problem}"),
                    ))?,
                }
            }
            Message::Request(request) => send(error(
                request.id,
                ErrorCode::ServerNotInitialized,
                format!("{}: the server is not initialized yet", request.method),
            ))?,
            Message::Notification(notification) if notification.method == note::Exit::METHOD => {
                return Ok(Ended::ExitWithoutShutdown)
            }
            _ => {}
        }
    };
    let mut server = Server::new(&params);
    // The workspace's findings go out at once.
    server.publish_workspace();
    for reply in server.outbox.drain(..) {
        send(reply)?;
    }
    let mut shut_down = false;
    for message in &connection.receiver {
        match &message {
            Message::Request(request) if shut_down => {
                send(error(
                    request.id.clone(),
                    ErrorCode::InvalidRequest,
                    format!("{}: the server is shutting down", request.method),
                ))?;
                continue;
            }
            Message::Request(request) if request.method == req::Shutdown::METHOD => {
                shut_down = true;
                send(Message::Response(Response::new_ok(
                    request.id.clone(),
                    Value::Null,
                )))?;
                continue;
            }
            Message::Request(request) if request.method == req::Initialize::METHOD => {
                send(error(
                    request.id.clone(),
                    ErrorCode::InvalidRequest,
                    "initialize: the server is already initialized",
                ))?;
                continue;
            }
            Message::Notification(notification) if notification.method == note::Exit::METHOD => {
                return Ok(if shut_down {
                    Ended::Exit
                } else {
                    Ended::ExitWithoutShutdown
                });
            }
            _ if shut_down => continue,
            _ => {}
        }
        for reply in server.handle(message) {
            send(reply)?;
        }
    }
    Ok(Ended::InputClosed)
}
