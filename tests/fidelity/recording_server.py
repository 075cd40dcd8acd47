"""A model API stand-in on 127.0.0.1 for the real clients: it records every request and answers what
`answer` says. Each client's endpoint (Anthropic's Messages API, OpenAI's chat completions, the Gemini API)
is a subclass that only decides the answers; recording, threading and shutdown live here once."""

from __future__ import annotations

import http.server
import json
import threading


class RecordingServer:
    """A threaded HTTP endpoint on 127.0.0.1 (an ephemeral port) used as a `with` block.

    Every request is kept in `requests`, in arrival order, as a dict: `method`, `path` (with its query),
    `headers` (name to value, names lowercased), `body` (the JSON value sent, or None when there was none or it
    was not JSON) and `raw` (the bytes).
    Read `requests` under `lock` while the server may still be answering."""

    # Headers sent with every answer besides Content-Type and Content-Length.
    headers: dict[str, str] = {}

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                with owner.lock:
                    owner.requests.append(
                        {
                            "method": self.command,
                            "path": self.path,
                            "headers": {name.lower(): value for name, value in self.headers.items()},
                            "body": body,
                            "raw": raw,
                        }
                    )
                status, content_type, payload = owner.answer(self.command, self.path.split("?")[0], body)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in owner.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    try:
                        self.wfile.write(payload)
                    except (BrokenPipeError, ConnectionResetError):
                        # The client was stopped while this answer was held back (a scripted hang).
                        self.close_connection = True

            do_GET = do_POST = do_HEAD = _serve

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        """The status, content type and payload for a request to `path` (without its query)."""
        return 200, "application/json", b"{}"

    def posted(self) -> list[tuple[str, object]]:
        """(path without query, body) of every POST so far, in order."""
        with self.lock:
            return [(request["path"].split("?")[0], request["body"])
                    for request in self.requests if request["method"] == "POST"]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.server.server_close()
