"""The preview's HTTP server (standard library ``ThreadingHTTPServer``): read-only, and it serves
nothing from the disk but its own three page files.

Routes (GET and HEAD only; anything else is 405):

- ``/`` → ``static/index.html``; ``/app.js``, ``/style.css`` → the files shipped in this package
  (a fixed table: the request path is never joined to a folder);
- ``/api/state`` → the JSON state (:class:`cardgen.preview.live.Preview`);
- ``/img/<40 hex digits>`` → an image held in memory by its key (JPEG card faces, PNG pages);
- ``/events`` → server-sent events: ``update`` with the state's version after each rebuild.

Every other path, including ``..`` in any encoding and absolute paths, is 404. The server binds
to 127.0.0.1 unless told otherwise (:func:`bind_warning`). Bound to a loopback address, it
answers only requests whose ``Host`` names this machine (``127.0.0.1``, ``localhost``, ``[::1]``):
a web page elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding) gets 403.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.preview.live import Preview

#: The page files, by the only request paths that reach them: path → (file name, content type).
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
_IMAGE = re.compile(r"/img/([0-9a-f]{40})")
#: Host names a loopback-bound preview answers to.
LOCAL_NAMES = {"127.0.0.1", "localhost", "[::1]"}
#: Seconds between keep-alive comments on an idle event stream.
PING_S = 15.0


def static_file(name: str) -> bytes:
    """The bytes of page file ``name`` shipped in ``cardgen/preview/static/``."""
    return resources.files("cardgen.preview").joinpath("static", name).read_bytes()


def bind_warning(host: str) -> str:
    """A warning when ``host`` is not a loopback address (the page would be reachable from other
    machines: it shows the game's cards, rules and file names), else ""."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return ""
    return (f"warning: serving on {host}, not on this machine only: anyone who can reach this address can see the "
            "game's cards, rules and file names (read-only). Use --host 127.0.0.1 unless you mean to share it.")


class Handler(BaseHTTPRequestHandler):
    """One request (see the module doc for the routes)."""

    server: "PreviewServer"
    protocol_version = "HTTP/1.1"
    server_version = "cardgen-preview"
    sys_version = ""

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Quiet: requests are not logged."""

    def _send(self, status: int, body: bytes, ctype: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self'; style-src 'self'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found(self) -> None:
        self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        """As GET, without the body."""
        self.do_GET()

    def _host_ok(self) -> bool:
        """On a loopback address, only a ``Host`` naming this machine (see the module doc)."""
        if not self.server.loopback:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]", 1)[0] + "]"
        return name in LOCAL_NAMES

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        """Serve one of the routes; 404 for anything else."""
        if not self._host_ok():
            self._send(HTTPStatus.FORBIDDEN, b"this preview answers only to 127.0.0.1 / localhost\n",
                       "text/plain; charset=utf-8")
            return
        path = self.path.split("?", 1)[0]
        preview = self.server.preview
        if path in STATIC:
            name, ctype = STATIC[path]
            self._send(HTTPStatus.OK, static_file(name), ctype)
        elif path == "/api/state":
            self._send(HTTPStatus.OK, preview.state_json(), "application/json; charset=utf-8")
        elif (m := _IMAGE.fullmatch(path)) and (img := preview.image(m.group(1))) is not None:
            ctype = "image/jpeg" if img[:2] == b"\xff\xd8" else "image/png"
            self._send(HTTPStatus.OK, img, ctype, cache="max-age=31536000, immutable")
        elif path == "/events" and self.command == "GET":
            self._events(preview)
        else:
            self._not_found()

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"read-only\n", "text/plain; charset=utf-8")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def _events(self, preview: "Preview") -> None:
        """A server-sent event stream: the current version at once, then each newer one."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = -1
        stop = self.server.stopping
        try:
            while not stop.is_set():
                version = preview.wait(seen, timeout=PING_S if seen >= 0 else 0)
                if version > seen:
                    seen = version
                    self.wfile.write(f"event: update\ndata: {version}\n\n".encode())
                else:
                    self.wfile.write(b": ping\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


class PreviewServer(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` holding the :class:`Preview` it shows."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], preview: "Preview"):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.preview = preview
        self.loopback = not bind_warning(address[0])
        self.stopping = threading.Event()

    def shutdown(self) -> None:
        """Stop serving (event streams end within one keep-alive interval)."""
        self.stopping.set()
        super().shutdown()
