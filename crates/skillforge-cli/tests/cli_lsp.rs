//! `skillforge lsp` over its real stdin/stdout: framing errors are reported and passed over, and the
//! exit code follows the protocol.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn read_message(output: &mut impl BufRead) -> serde_json::Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        assert!(
            output.read_line(&mut line).unwrap() > 0,
            "the server closed its output"
        );
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    output.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

fn session(input: &[u8]) -> (Vec<serde_json::Value>, Option<i32>) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_skillforge"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    server.stdin.take().unwrap().write_all(input).unwrap();
    let mut output = BufReader::new(server.stdout.take().unwrap());
    let mut messages = Vec::new();
    let mut rest = Vec::new();
    output.read_to_end(&mut rest).unwrap();
    let mut cursor = std::io::Cursor::new(rest);
    while (cursor.position() as usize) < cursor.get_ref().len() {
        messages.push(read_message(&mut cursor));
    }
    (messages, server.wait().unwrap().code())
}

#[test]
fn a_garbled_message_is_reported_and_the_session_goes_on() {
    let root = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", root.path().display());
    let mut input = frame("{this is not json");
    input.extend(frame(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"processId":null,"capabilities":{{}},"rootUri":"{uri}"}}}}"#
    )));
    input.extend(frame(
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    input.extend(frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.extend(frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (messages, code) = session(&input);
    let logged = messages
        .iter()
        .find(|m| m["method"] == "window/logMessage")
        .expect("the garbled message is reported");
    assert!(
        logged["params"]["message"]
            .as_str()
            .unwrap()
            .starts_with("message 1 was passed over: not a JSON-RPC message"),
        "{logged}"
    );
    assert!(messages
        .iter()
        .any(|m| m["id"] == 1 && m["result"]["serverInfo"]["name"] == "skillforge"));
    assert!(messages
        .iter()
        .any(|m| m["id"] == 2 && m["result"].is_null()));
    assert_eq!(code, Some(0));
}

#[test]
fn exit_codes_follow_the_protocol() {
    // `exit` without `shutdown`: 1.
    let (_, code) = session(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    assert_eq!(code, Some(1));
    // Headers that cannot be followed: 2, the reason on stderr.
    let (_, code) = session(b"Content-Length: -3\r\n\r\n");
    assert_eq!(code, Some(2));
}
