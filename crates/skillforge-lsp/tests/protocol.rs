//! The server through its protocol, as an editor drives it: initialize, open, change, diagnostics,
//! code actions, hover, completion, links, the catalog preview, refusals and shutdown.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};

const SKILL: &str = "---\nname: pdf-tools\ndescription: Extracts text: from PDF files. Use when the user asks about PDFs.\n---\n\n# PDF\n\nSee [guide](references/guide.md) and [missing](references/nope.md). Then use $other.\n";

struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<Result<skillforge_lsp::Ended, String>>>,
    next_id: i32,
    /// Notifications received while waiting for responses.
    notifications: Vec<Notification>,
}

impl Client {
    fn start(root: &Path, options: Value) -> Client {
        let (server_side, client_side) = Connection::memory();
        let server = std::thread::spawn(move || skillforge_lsp::serve(server_side));
        let mut client = Client {
            connection: client_side,
            server: Some(server),
            next_id: 0,
            notifications: Vec::new(),
        };
        let uri = url(root);
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri,
                "capabilities": {},
                "workspaceFolders": [{"uri": uri, "name": "skills"}],
                "initializationOptions": options,
            }),
        );
        assert_eq!(result["serverInfo"]["name"], "skillforge");
        assert_eq!(result["capabilities"]["textDocumentSync"]["change"], 2);
        client.notify("initialized", json!({}));
        client
    }

    fn send(&self, message: Message) {
        self.connection
            .sender
            .send(message)
            .expect("server is listening");
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
    }

    fn request_raw(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Message::Request(Request::new(
            id.clone(),
            method.into(),
            params,
        )));
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(notification) => self.notifications.push(notification),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(response.error.is_none(), "{method}: {:?}", response.error);
        response.result.unwrap_or(Value::Null)
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers")
    }

    /// The diagnostics published for `uri` at the document `version` (`Value::Null`: not tied to a
    /// version, as for files not open or just closed); others for it are passed over.
    fn diagnostics_at(&mut self, uri: &str, version: Value) -> Value {
        let matches = |n: &Notification| {
            n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
                && n.params.get("version").cloned().unwrap_or(Value::Null) == version
        };
        if let Some(at) = self.notifications.iter().position(matches) {
            return self.notifications.remove(at).params;
        }
        loop {
            if let Message::Notification(notification) = self.receive() {
                if matches(&notification) {
                    return notification.params;
                }
                self.notifications.push(notification);
            }
        }
    }

    fn diagnostics_for(&mut self, uri: &str, version: i32) -> Value {
        self.diagnostics_at(uri, json!(version))
    }

    fn shutdown(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        let served = self.server.take().unwrap().join().expect("server thread");
        assert_eq!(served, Ok(skillforge_lsp::Ended::Exit));
    }
}

fn url(path: &Path) -> String {
    url::Url::from_file_path(path).unwrap().to_string()
}

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("skills");
    std::fs::create_dir_all(root.join("pdf-tools/references")).unwrap();
    std::fs::create_dir_all(root.join("other")).unwrap();
    std::fs::write(root.join("pdf-tools/SKILL.md"), SKILL).unwrap();
    std::fs::write(root.join("pdf-tools/references/guide.md"), "# Guide\n").unwrap();
    std::fs::write(
        root.join("other/SKILL.md"),
        "---\nname: other\ndescription: Another skill. Use when testing.\n---\nbody\n",
    )
    .unwrap();
    (dir, root)
}

fn open(client: &Client, path: &Path, text: &str) -> String {
    let uri = url(path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    );
    uri
}

/// The labels of a completion answer, in order.
fn labels(items: &Value) -> Vec<&str> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect()
}

fn codes(diagnostics: &Value) -> Vec<String> {
    let mut codes: Vec<String> = diagnostics["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn diagnostics_follow_the_unsaved_text_and_fixes_apply() {
    let (_dir, root) = workspace();
    let mut client = Client::start(&root, json!({"profiles": ["spec"]}));
    let path = root.join("pdf-tools/SKILL.md");
    let uri = open(&client, &path, SKILL);
    let published = client.diagnostics_for(&uri, 1);
    assert_eq!(codes(&published), ["SF106", "SF503"], "{published:#}");
    let colon = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SF106")
        .unwrap()
        .clone();
    assert_eq!(colon["source"], "skillforge");
    assert_eq!(colon["range"]["start"]["line"], 2);
    assert!(colon["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("docs/rules.md#sf106-plain-scalar-colon"));

    // The quick fix for the colon, preferred because it is safe.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": colon["range"], "context": {"diagnostics": [colon]}}),
    );
    // Editors that echo the finding back incompletely get the same actions.
    let echoed = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": colon["range"], "context": {"diagnostics": [{}]}}),
    );
    assert_eq!(echoed, actions);
    let quick = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .expect("a quick fix");
    assert_eq!(quick["isPreferred"], true);
    let edits = quick["edit"]["changes"][&uri].as_array().unwrap();
    let fix_all = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "source.fixAll")
        .expect("fix all");
    assert_eq!(fix_all["title"], "Fix all safe problems");

    // The editor applies the quick fix as incremental changes; the finding goes.
    let content_changes: Vec<Value> = edits
        .iter()
        .rev()
        .map(|edit| json!({"range": edit["range"], "text": edit["newText"]}))
        .collect();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": content_changes}),
    );
    let after = client.diagnostics_for(&uri, 2);
    assert_eq!(codes(&after), ["SF503"], "{after:#}");

    // A keystroke that breaks the name: the finding is about the unsaved text, at its place.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 7}}, "text": "P"}
        ]}),
    );
    let broken = client.diagnostics_for(&uri, 3);
    assert!(codes(&broken).contains(&"SF203".to_string()), "{broken:#}");

    // Closing drops the unsaved edits: the findings are those of the file on disk again.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    client.notifications.clear();
    let on_disk = client.diagnostics_at(&uri, Value::Null);
    assert_eq!(codes(&on_disk), ["SF106", "SF503"], "{on_disk:#}");
    client.shutdown();
}

#[test]
fn hover_completion_and_links() {
    let (_dir, root) = workspace();
    let mut client = Client::start(&root, json!({"profiles": ["spec"]}));
    let path = root.join("pdf-tools/SKILL.md");
    let uri = open(&client, &path, SKILL);
    client.diagnostics_for(&uri, 1);

    // On a finding: its rule's documentation.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 20}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**SF106 plain-scalar-colon**"), "{text}");
    assert!(text.contains("What it does"), "{text}");
    // On a key: the schema's words for it.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}}),
    );
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .starts_with("**name** — Skill name"));
    // On a link: where it leads.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": 15}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("references/guide.md") && text.ends_with("8 bytes"),
        "{text}"
    );
    // On `$other`: the skill's file.
    let line = SKILL.lines().nth(7).unwrap();
    let at = line.find("$other").unwrap() as u32 + 2;
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": at}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains(&root.join("other/SKILL.md").display().to_string()),
        "{text}"
    );

    // Only the links whose targets exist are document links.
    let links = client.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": uri}}),
    );
    let links = links.as_array().unwrap();
    assert_eq!(links.len(), 1, "{links:#?}");
    assert_eq!(
        links[0]["target"],
        url(&root.join("pdf-tools/references/guide.md"))
    );

    // Keys not yet written, on a new frontmatter line.
    let with_line = SKILL.replacen("---\n\n", "l\n---\n\n", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": with_line}]}),
    );
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 1}}),
    );
    let shown = labels(&items);
    assert!(
        shown.contains(&"license") && shown.contains(&"allowed-tools"),
        "{shown:?}"
    );
    assert!(
        !shown.contains(&"name"),
        "a key already written is not offered: {shown:?}"
    );

    // The values the schema lists for a key.
    let with_value = SKILL.replacen("---\n\n", "effort: \n---\n\n", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": with_value}]}),
    );
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 8}}),
    );
    let shown = labels(&items);
    assert_eq!(shown, ["low", "medium", "high", "xhigh", "max"]);

    // Relative link targets inside the skill.
    let with_link = format!("{SKILL}[more](ref");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": with_link}]}),
    );
    let last = with_link.lines().count() as u32 - 1;
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": last, "character": 10}}),
    );
    let shown = labels(&items);
    assert_eq!(shown, ["references/guide.md"]);
    client.shutdown();
}

#[test]
fn cross_skill_findings_reach_files_not_open_and_the_catalog_preview_answers() {
    let (_dir, root) = workspace();
    // A second skill named like the first: both files hear of it without being opened.
    std::fs::create_dir_all(root.join("copy")).unwrap();
    std::fs::write(
        root.join("copy/SKILL.md"),
        "---\nname: other\ndescription: A copy. Use when testing.\n---\nbody\n",
    )
    .unwrap();
    let mut client = Client::start(&root, json!({"profiles": ["nagents"]}));
    let other = client.diagnostics_at(&url(&root.join("other/SKILL.md")), Value::Null);
    assert!(codes(&other).contains(&"SF601".to_string()), "{other:#}");

    // Opened, the finding names the other file as related information.
    let other_path = root.join("other/SKILL.md");
    let text = std::fs::read_to_string(&other_path).unwrap();
    let uri = open(&client, &other_path, &text);
    let published = client.diagnostics_for(&uri, 1);
    let duplicate = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SF601")
        .cloned()
        .expect("SF601 in the open file");
    assert_eq!(
        duplicate["relatedInformation"][0]["location"]["uri"],
        url(&root.join("copy/SKILL.md")),
        "{duplicate:#}"
    );

    let page = client.request(
        "skillforge/catalogPreview",
        json!({"dialect": "codex", "uri": url(&root.join("other/SKILL.md"))}),
    );
    assert!(page.is_object(), "{page:#}");
    let shown = page.to_string();
    assert!(shown.contains("pdf-tools"), "{shown}");
    client.shutdown();
}

#[test]
fn bad_requests_are_refused_and_the_server_stays_up() {
    let (dir, root) = workspace();
    let mut client = Client::start(&root, json!({}));
    // Outside the workspace folders: refused, never read.
    let outside = dir.path().join("secret.md");
    std::fs::write(&outside, "---\nname: x\n---\n").unwrap();
    let response = client.request_raw(
        "textDocument/hover",
        json!({"textDocument": {"uri": url(&outside)}, "position": {"line": 0, "character": 0}}),
    );
    let error = response.error.expect("refused");
    assert!(
        error.message.contains("outside the workspace folders"),
        "{}",
        error.message
    );
    // A document that is not open, malformed parameters, an unknown method.
    let response = client.request_raw(
        "textDocument/completion",
        json!({"textDocument": {"uri": url(&root.join("other/SKILL.md"))}, "position": {"line": 0, "character": 0}}),
    );
    assert!(response.error.unwrap().message.contains("not open"));
    let response = client.request_raw("textDocument/hover", json!({"nonsense": true}));
    assert!(response.error.is_some());
    let response = client.request_raw("skillforge/nothing", json!({}));
    assert_eq!(
        response.error.unwrap().code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    // A change far outside the text, and hostile content: diagnostics still come.
    let path = root.join("other/SKILL.md");
    let uri = open(&client, &path, "---\nname: [\n---\n\u{0}\u{85}");
    client.diagnostics_for(&uri, 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 900, "character": 5}, "end": {"line": 901, "character": 0}}, "text": "tail"}
        ]}),
    );
    let published = client.diagnostics_for(&uri, 2);
    assert!(published["diagnostics"]
        .as_array()
        .is_some_and(|found| !found.is_empty()));
    client.shutdown();
}

impl Client {
    /// Waits for a `window/logMessage` that contains `text`.
    fn log_containing(&mut self, text: &str) -> String {
        let matches = |n: &Notification| {
            n.method == "window/logMessage"
                && n.params["message"]
                    .as_str()
                    .is_some_and(|m| m.contains(text))
        };
        if let Some(at) = self.notifications.iter().position(matches) {
            return self.notifications.remove(at).params["message"].to_string();
        }
        loop {
            if let Message::Notification(notification) = self.receive() {
                if matches(&notification) {
                    return notification.params["message"].to_string();
                }
                self.notifications.push(notification);
            }
        }
    }
}

#[test]
fn links_and_spellings_that_lead_outside_are_refused() {
    let (dir, root) = workspace();
    let outside = dir.path().canonicalize().unwrap().join("outside/secret");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("SKILL.md"),
        "---\nname: topsecret-skill\ndescription: Secret. Use never.\n---\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("linked")).unwrap();
    std::os::unix::fs::symlink(outside.join("SKILL.md"), root.join("linked/SKILL.md")).unwrap();
    std::fs::create_dir_all(root.join("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero/SKILL.md")).unwrap();
    // With the finding about such links off, hover describes the link itself.
    std::fs::write(root.join("skillforge.toml"), "[rules]\nSF504 = \"off\"\n").unwrap();
    let mut client = Client::start(&root, json!({"profiles": ["spec"]}));

    for (path, said) in [
        (
            root.join("linked/SKILL.md"),
            "outside the workspace folders",
        ),
        (root.join("zero/SKILL.md"), "outside the workspace folders"),
    ] {
        let uri = open(&client, &path, "---\nname: x\n---\n");
        client.log_containing(said);
        client.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
        let response = client.request_raw(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        );
        assert!(response.error.unwrap().message.contains(said));
    }
    // `..` spelled with encoded slashes through a folder that does not exist.
    let sneaky = format!(
        "{}/nope%2F..%2F..%2Foutside%2Fsecret/SKILL.md",
        url(&root).trim_end_matches('/')
    );
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": sneaky, "languageId": "markdown", "version": 1, "text": "x"}}),
    );
    client.log_containing("`..`");
    // Nothing published ever named the outside skill.
    let response = client.request_raw(
        "textDocument/hover",
        json!({"textDocument": {"uri": sneaky}, "position": {"line": 0, "character": 0}}),
    );
    assert!(response.error.is_some());
    assert!(!client
        .notifications
        .iter()
        .any(|n| n.params.to_string().contains("topsecret")));

    // Hover on a link that leaves the skill folder describes nothing outside it.
    let path = root.join("pdf-tools/SKILL.md");
    let text = format!("{SKILL}[a](/etc/hostname) [b](../other/SKILL.md)\n");
    let uri = open(&client, &path, &text);
    client.diagnostics_for(&uri, 1);
    let last = text.lines().count() as u32 - 1;
    for character in [5, 25] {
        let hover = client.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": last, "character": character}}),
        );
        let said = hover["contents"]["value"].as_str().unwrap();
        assert!(
            said.contains("outside the skill folder; not looked at"),
            "{said}"
        );
    }
    client.shutdown();
}

#[test]
fn special_files_never_stop_the_server() {
    let (_dir, root) = workspace();
    let fifo = root.join("pdf-tools/notes.md");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::create_dir_all(root.join("piped")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(root.join("piped/SKILL.md"))
        .status()
        .unwrap();
    assert!(made.success());
    let mut client = Client::start(&root, json!({"profiles": ["spec"]}));
    let uri = open(&client, &fifo, "hello");
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let uri = open(
        &client,
        &root.join("piped/SKILL.md"),
        "---\nname: piped\n---\n",
    );
    client.diagnostics_for(&uri, 1);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    // Still answering.
    let page = client.request("skillforge/catalogPreview", json!({"dialect": "nagents"}));
    assert!(page.is_object());
    client.shutdown();
}

#[test]
fn a_change_that_does_not_fit_is_never_guessed_at() {
    let (_dir, root) = workspace();
    let mut client = Client::start(&root, json!({"profiles": ["spec"]}));
    let path = root.join("pdf-tools/SKILL.md");
    let uri = open(&client, &path, SKILL);
    client.diagnostics_for(&uri, 1);
    // A column that is no number: the change cannot be applied.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": -1}, "end": {"line": 0, "character": 0}}, "text": "x"}
        ]}),
    );
    let lost = client.diagnostics_for(&uri, 1);
    let said = lost["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        said.starts_with("skillforge lost track of this file's text"),
        "{said}"
    );
    assert_eq!(lost["diagnostics"].as_array().unwrap().len(), 1);
    // No fix is offered on a text the server does not have.
    let response = client.request_raw(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}, "context": {"diagnostics": []}}),
    );
    assert!(response.error.unwrap().message.contains("out of step"));
    // Later edits by range are not applied to the wrong text; the whole text brings it back.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": "y"}
        ]}),
    );
    let still = client.diagnostics_for(&uri, 3);
    assert!(still["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("skillforge lost track"));
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": SKILL}]}),
    );
    assert_eq!(codes(&client.diagnostics_for(&uri, 4)), ["SF106", "SF503"]);
    // A range splitting a character's two UTF-16 halves is refused the same way.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": "---\nname: a😀b\n---\n"}]}),
    );
    client.diagnostics_for(&uri, 5);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 6}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 8}}, "text": "z"}
        ]}),
    );
    let split = client.diagnostics_for(&uri, 6);
    assert!(
        split["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("two halves"),
        "{split:#}"
    );
    // A column at the type's limit lands at the line's end, not on another line.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 7}, "contentChanges": [{"text": "---\nname: ab\n---\n"}]}),
    );
    client.diagnostics_for(&uri, 7);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 8}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 4294967295u32}, "end": {"line": 1, "character": 4294967295u32}}, "text": "c"}
        ]}),
    );
    client.diagnostics_for(&uri, 8);
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}}),
    );
    assert!(hover.is_object(), "the text is in step: {hover}");
    client.shutdown();
}

#[test]
fn settings_and_limits_the_server_does_not_know_are_said_so() {
    let (_dir, root) = workspace();
    let mut client = Client::start(&root, json!({"profiles": ["bogus", "spec"]}));
    client.log_containing("unknown profile \"bogus\"");
    let path = root.join("pdf-tools/SKILL.md");
    let uri = open(&client, &path, SKILL);
    let published = client.diagnostics_for(&uri, 1);
    assert!(published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["message"].as_str().unwrap().ends_with("(spec)")));
    let response = client.request_raw(
        "skillforge/catalogPreview",
        json!({"dialect": "nagents", "limits": {"manifestTokens": 5}}),
    );
    assert!(response.error.unwrap().message.contains("manifestTokens"));
    let response = client.request_raw(
        "skillforge/catalogPreview",
        json!({"dialect": "copilot", "limits": {"skill_char_budget": 0}}),
    );
    assert!(response.error.unwrap().message.contains("at least 1"));
    client.shutdown();
}

#[test]
fn findings_of_vanished_files_are_cleared_and_a_linked_root_keeps_its_spelling() {
    let (dir, root) = workspace();
    std::fs::create_dir_all(root.join("copy")).unwrap();
    std::fs::write(
        root.join("copy/SKILL.md"),
        "---\nname: other\ndescription: A copy. Use when testing.\n---\nbody\n",
    )
    .unwrap();
    // The editor names the workspace through a link (as /tmp is on some systems).
    let alias = dir.path().join("alias");
    std::os::unix::fs::symlink(&root, &alias).unwrap();
    let mut client = Client::start(&alias, json!({"profiles": ["nagents"]}));
    let copy = url(&alias.join("copy/SKILL.md"));
    let before = client.diagnostics_at(&copy, Value::Null);
    assert!(codes(&before).contains(&"SF601".to_string()), "{before:#}");
    // Opened through the alias, the file still hears of its duplicate.
    let other = alias.join("other/SKILL.md");
    let uri = open(&client, &other, &std::fs::read_to_string(&other).unwrap());
    assert!(codes(&client.diagnostics_for(&uri, 1)).contains(&"SF601".to_string()));
    // A save that changes nothing resends nothing about files not open.
    client.notifications.clear();
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    client.request("skillforge/catalogPreview", json!({"dialect": "nagents"}));
    let resent: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == copy)
        .map(|n| &n.params)
        .collect();
    assert!(resent.is_empty(), "{resent:#?}");
    // The copy is deleted: its findings go.
    std::fs::remove_dir_all(root.join("copy")).unwrap();
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    let cleared = client.diagnostics_at(&copy, Value::Null);
    assert_eq!(cleared["diagnostics"], json!([]));
    assert!(!client.notifications.iter().any(|n| n.params["uri"]
        .as_str()
        .is_some_and(|u| u.contains(&root.display().to_string()))));
    client.shutdown();
}

#[test]
fn the_handshake_and_the_shutdown_follow_the_protocol() {
    let (_dir, root) = workspace();
    let (server_side, client_side) = Connection::memory();
    let server = std::thread::spawn(move || skillforge_lsp::serve(server_side));
    let ask = |id: i32, method: &str, params: Value| {
        client_side
            .sender
            .send(Message::Request(Request::new(
                id.into(),
                method.into(),
                params,
            )))
            .unwrap();
        loop {
            match client_side
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .unwrap()
            {
                Message::Response(response) if response.id == id.into() => return response,
                _ => {}
            }
        }
    };
    // Before initialize: refused as not initialized; a malformed initialize is answered.
    assert_eq!(
        ask(1, "textDocument/hover", json!({})).error.unwrap().code,
        -32002
    );
    let bad = ask(2, "initialize", json!({"processId": "x"}));
    assert!(bad.error.unwrap().message.starts_with("initialize:"));
    let good = ask(
        3,
        "initialize",
        json!({"processId": null, "capabilities": {}, "rootUri": url(&root)}),
    );
    assert!(good.error.is_none());
    assert!(ask(
        4,
        "initialize",
        json!({"processId": null, "capabilities": {}})
    )
    .error
    .unwrap()
    .message
    .contains("already initialized"));
    assert!(ask(5, "shutdown", Value::Null).error.is_none());
    let after = ask(6, "textDocument/hover", json!({}));
    assert_eq!(
        after.error.unwrap().code,
        lsp_server::ErrorCode::InvalidRequest as i32
    );
    client_side
        .sender
        .send(Message::Notification(Notification::new(
            "exit".into(),
            Value::Null,
        )))
        .unwrap();
    assert_eq!(server.join().unwrap(), Ok(skillforge_lsp::Ended::Exit));

    // `exit` without `shutdown` is told apart (the protocol's exit code 1).
    let (server_side, client_side) = Connection::memory();
    let server = std::thread::spawn(move || skillforge_lsp::serve(server_side));
    client_side
        .sender
        .send(Message::Notification(Notification::new(
            "exit".into(),
            Value::Null,
        )))
        .unwrap();
    assert_eq!(
        server.join().unwrap(),
        Ok(skillforge_lsp::Ended::ExitWithoutShutdown)
    );
}
