//! The protocol's framing over stdin/stdout: `Content-Length` headers and JSON bodies. A body that is not
//! a JSON-RPC message, or one larger than [`MAX_MESSAGE_BYTES`], is passed over and reported to the
//! editor (`window/logMessage`, naming the message's number and what was wrong); the stream goes on. Only
//! headers that leave no way to find the next message end the session, with the reason on stderr.

use std::io::{BufRead, Read, Write};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification};
use lsp_types::notification::{LogMessage, Notification as _};

/// The largest message read: a SKILL.md is refused by every client beyond a few megabytes.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// One frame as read: a message, a body that was passed over (and why), or the end.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    Skipped(String),
    End,
}

/// Reads the next frame; `Err` when the headers cannot be followed (the stream is lost).
pub fn read_frame(input: &mut impl BufRead) -> Result<Frame, String> {
    let mut length: Option<usize> = None;
    let mut line = Vec::new();
    let mut seen_header = false;
    loop {
        line.clear();
        let read = input
            .by_ref()
            .take(8 * 1024)
            .read_until(b'\n', &mut line)
            .map_err(|error| format!("reading a header: {error}"))?;
        if read == 0 {
            return if seen_header {
                Err("the input ended inside a message's headers".into())
            } else {
                Ok(Frame::End)
            };
        }
        if !line.ends_with(b"\n") {
            return Err("a header line longer than 8 KiB".into());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if seen_header {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        seen_header = true;
        let Some((name, value)) = text.split_once(':') else {
            return Err(format!("a header without `:`: {text:?}"));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("Content-Length {value:?} is not a byte count"))?,
            );
        }
    }
    let length = length.ok_or("a message without Content-Length")?;
    if length > MAX_MESSAGE_BYTES {
        // Read past it so the next message is found.
        let skipped = std::io::copy(
            &mut input.by_ref().take(length as u64),
            &mut std::io::sink(),
        )
        .map_err(|error| format!("reading a message body: {error}"))?;
        if (skipped as usize) < length {
            return Err("the input ended inside a message".into());
        }
        return Ok(Frame::Skipped(format!(
            "a message of {length} bytes, more than the {MAX_MESSAGE_BYTES} the server reads"
        )));
    }
    let mut body = vec![0; length];
    input
        .read_exact(&mut body)
        .map_err(|error| format!("the input ended inside a message ({error})"))?;
    let value = match serde_json::from_slice::<serde_json::Value>(&body) {
        Ok(value @ serde_json::Value::Object(_)) => value,
        Ok(_) => {
            return Ok(Frame::Skipped(
                "not a JSON-RPC message (not a JSON object)".into(),
            ))
        }
        Err(error) => return Ok(Frame::Skipped(format!("not a JSON-RPC message ({error})"))),
    };
    Ok(match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(error) => Frame::Skipped(format!("not a JSON-RPC message ({error})")),
    })
}

/// Frames from `input` become messages on `sender`; passed-over bodies become log messages on
/// `replies`. Returns why reading stopped (`None`: the input ended).
pub fn read_all(
    mut input: impl BufRead,
    sender: Sender<Message>,
    replies: Sender<Message>,
) -> Option<String> {
    let mut number = 0u64;
    loop {
        number += 1;
        match read_frame(&mut input) {
            Ok(Frame::Message(message)) => {
                if sender.send(message).is_err() {
                    return None;
                }
            }
            Ok(Frame::Skipped(why)) => {
                let _ = replies.send(log(&format!("message {number} was passed over: {why}")));
            }
            Ok(Frame::End) => return None,
            Err(why) => return Some(format!("message {number}: {why}; the session ends")),
        }
    }
}

/// Writes every message from `receiver` to `output` until the channel closes.
pub fn write_all(mut output: impl Write, receiver: Receiver<Message>) -> std::io::Result<()> {
    for message in receiver {
        message.write(&mut output)?;
    }
    output.flush()
}

/// A `window/logMessage` warning.
pub fn log(message: &str) -> Message {
    Message::Notification(Notification::new(
        LogMessage::METHOD.to_string(),
        lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::WARNING,
            message: message.to_string(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<String, String>> {
        let mut reader = std::io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader) {
                Ok(Frame::Message(message)) => out.push(Ok(format!("{message:?}"))),
                Ok(Frame::Skipped(why)) => out.push(Err(why)),
                Ok(Frame::End) => return out,
                Err(why) => {
                    out.push(Err(format!("lost: {why}")));
                    return out;
                }
            }
        }
    }

    #[test]
    fn bad_bodies_are_passed_over_and_the_stream_goes_on() {
        let good = br#"{"jsonrpc":"2.0","method":"x","params":null}"#;
        let mut input = Vec::new();
        for body in [&b"{not json"[..], &b"[1,2]"[..], &[0xff, 0xfe][..], good] {
            input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            input.extend_from_slice(body);
        }
        // A bare `\n` ends headers too.
        input.extend_from_slice(format!("Content-Length: {}\n\n", good.len()).as_bytes());
        input.extend_from_slice(good);
        let read = frames(&input);
        assert_eq!(read.len(), 5, "{read:?}");
        assert!(read[..3].iter().all(|frame| frame
            .as_ref()
            .is_err_and(|why| why.starts_with("not a JSON-RPC message"))));
        assert!(read[3].is_ok() && read[4].is_ok(), "{read:?}");
    }

    #[test]
    fn an_oversized_message_is_skipped_without_being_held() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE_BYTES + 1).into_bytes();
        input.resize(input.len() + MAX_MESSAGE_BYTES + 1, b' ');
        let good = br#"{"jsonrpc":"2.0","method":"x"}"#;
        input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", good.len()).as_bytes());
        input.extend_from_slice(good);
        let read = frames(&input);
        assert!(read[0].as_ref().is_err_and(|why| why.contains("more than")));
        assert!(read[1].is_ok());
    }

    #[test]
    fn headers_that_cannot_be_followed_end_the_stream_with_the_reason() {
        for (input, expected) in [
            (&b"Content-Length: -5\r\n\r\n"[..], "is not a byte count"),
            (
                &b"Content-Length: 99999999999999999999999\r\n\r\n"[..],
                "is not a byte count",
            ),
            (&b"Content-Type: x\r\n\r\n{}"[..], "without Content-Length"),
            (&b"garbage\r\n\r\n"[..], "without `:`"),
            (
                &b"Content-Length: 10\r\n\r\n{}"[..],
                "ended inside a message",
            ),
        ] {
            let read = frames(input);
            let last = read.last().unwrap().as_ref().unwrap_err();
            assert!(
                last.starts_with("lost:") && last.contains(expected),
                "{last}"
            );
        }
        // A huge declared length that is not there: skipped reading fails cleanly, nothing allocated.
        let read = frames(b"Content-Length: 99999999999999\r\n\r\n");
        assert!(read[0]
            .as_ref()
            .unwrap_err()
            .contains("ended inside a message"));
    }
}
