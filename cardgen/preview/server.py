"""The preview's HTTP server (standard library ``http.server``): read-only, and it serves
nothing from the disk but its own three page files.

Routes (GET and HEAD only; anything else is 405):

- ``/`` → ``static/index.html``; ``/app.js``, ``/style.css`` → the files shipped in this package
  (a fixed table: the request path is never joined to a folder);
- ``/api/state`` → the JSON state (:class:`cardgen.preview.live.Preview`);
- ``/img/<40 hex digits>`` → an image held in memory by its key (JPEG card faces, PNG pages);
- ``/events`` → server-sent events: ``update`` with the state's version after each rebuild.

Every other path, including ``..`` in any encoding and absolute paths, is 404. The server binds
to 127.0.0.1 unless told otherwise (:func:`bind_warning`). Bound to a loopback address, it
answers only requests whose ``Host`` names this machine (``127.0.0.1``, ``localhost``, ``[::1]``)
or the address it is bound to (``--host 127.0.0.2``: the URL it prints): a web page elsewhere that
points a name of its own at 127.0.0.1 (DNS rebinding) gets 403.

Connections (:class:`PreviewServer`): a connection waits in a selector, costing no thread, until
its first bytes arrive; then one of at most :data:`MAX_HANDLERS` handler threads serves it. When
all are busy (long-lived event streams), a new request is answered ``503`` at once and closed.
A connection that sends nothing is closed after :data:`IDLE_S`, and at most :data:`MAX_WAITING`
wait (the oldest is closed first). A client that goes away (a browser resetting a connection,
a broken pipe) ends its connection quietly: no traceback.
"""
from __future__ import annotations

import ipaddress
import queue
import re
import selectors
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
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
#: Most requests served at once (each on its own thread; an open event stream holds one).
MAX_HANDLERS = 16
#: Most connections waiting for their first request (no thread each); past it the oldest is closed.
MAX_WAITING = 256
#: Seconds a connection may stay silent: before its first request, and between two requests.
IDLE_S = 30.0
#: What a client going away raises (a reset connection, a broken pipe): ended quietly.
GONE = (ConnectionError, TimeoutError)


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
    timeout = IDLE_S  #: a request that stalls this long mid-way ends its connection
    #: unbuffered reading: nothing of a next request is held back in a buffer when the connection
    #: goes back to wait between requests (see :meth:`handle`)
    rbufsize = 0
    keep = False  #: after :meth:`handle`: the connection stays open for another request

    def handle(self) -> None:
        """One request; a keep-alive connection then waits for the next without a thread
        (:meth:`PreviewServer._serve` hands it back to the door)."""
        self.close_connection = True
        self.handle_one_request()
        self.keep = not self.close_connection
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
        """On a loopback address, only a ``Host`` naming this machine or the bound address (see the module doc)."""
        if not self.server.loopback:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]", 1)[0] + "]"
        return name in self.server.local_names

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        """Serve one of the routes; 404 for anything else."""
        if not self._host_ok():
            self._send(HTTPStatus.FORBIDDEN, f"this preview answers only to {self.server.url_host} / localhost\n"
                       .encode(), "text/plain; charset=utf-8")
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


def url_host(address: str) -> str:
    """``address`` as the host part of a URL (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address


class PreviewServer(HTTPServer):
    """The HTTP server holding the :class:`Preview` it shows: connections wait in a selector
    until they send something, then a fixed pool of :data:`MAX_HANDLERS` threads serves them
    (see the module doc). ``url()`` is the address it prints, and answers to."""

    #: The listen backlog: connections the kernel holds until the server accepts them.
    #: socketserver's default, 5, is less than the connections a page opens at once (its images,
    #: its event stream): a connection past the backlog was dropped and its client tried again
    #: 1 s later, then 3 s (48 connections opened together took 7 s to connect, 0.1 s with this).
    request_queue_size = MAX_WAITING

    def __init__(self, address: tuple[str, int], preview: "Preview"):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.stopping = threading.Event()
        super().__init__(address, Handler)
        self.preview = preview
        self.loopback = not bind_warning(address[0])
        self.url_host = url_host(self.server_address[0])
        #: the Host names answered on a loopback address: this machine's, the address as given and as bound
        self.local_names = LOCAL_NAMES | {url_host(address[0].lower()), self.url_host.lower()}
        self._pool = ThreadPoolExecutor(MAX_HANDLERS, thread_name_prefix="preview-request")
        self._free = threading.BoundedSemaphore(MAX_HANDLERS)
        self._arrived: queue.SimpleQueue = queue.SimpleQueue()  # accepted connections, for the door
        self._wake_r, self._wake_w = socket.socketpair()
        self._door = threading.Thread(target=self._watch_waiting, name="preview-door", daemon=True)
        self._door.start()

    def url(self) -> str:
        """The page's address: ``http://HOST:PORT/`` as bound."""
        return f"http://{self.url_host}:{self.server_address[1]}/"

    def process_request(self, request, client_address) -> None:
        """A new connection: handed to the door thread, where it waits without a thread of its own."""
        self._arrived.put((request, client_address))
        try:
            self._wake_w.send(b"\0")
        except OSError:  # closing
            self.shutdown_request(request)

    def _watch_waiting(self) -> None:
        """The door (the only thread touching its selector): each connection waits here until it
        has sent something, then goes to a handler thread; one silent past :data:`IDLE_S` is
        closed, and past :data:`MAX_WAITING` waiting the oldest is."""
        waiting: dict = {}  # connection → (client address, deadline), oldest first
        with selectors.DefaultSelector() as sel:
            sel.register(self._wake_r, selectors.EVENT_READ)

            def drop(conn) -> None:
                del waiting[conn]
                sel.unregister(conn)
                self.shutdown_request(conn)

            while not self.stopping.is_set():
                events = sel.select(timeout=1.0)
                for key, _mask in events:
                    if key.fileobj is self._wake_r:
                        self._wake_r.recv(4096)
                    elif key.fileobj in waiting:
                        addr, _deadline = waiting.pop(key.fileobj)
                        sel.unregister(key.fileobj)
                        self._hand_over(key.fileobj, addr)
                while not self._arrived.empty():
                    conn, addr = self._arrived.get()
                    if len(waiting) >= MAX_WAITING:
                        drop(next(iter(waiting)))
                    waiting[conn] = (addr, time.monotonic() + IDLE_S)
                    sel.register(conn, selectors.EVENT_READ)
                now = time.monotonic()
                for conn in [c for c, (_a, deadline) in waiting.items() if deadline < now]:
                    drop(conn)
            for conn in list(waiting):
                drop(conn)
        while not self._arrived.empty():
            self.shutdown_request(self._arrived.get()[0])

    def _hand_over(self, conn, addr) -> None:
        """Serve ``conn`` on a free handler thread, or answer 503 when none is free."""
        if not self._free.acquire(blocking=False):
            self._busy(conn)
            return
        try:
            self._pool.submit(self._serve, conn, addr)
        except RuntimeError:  # the pool is shut down: the server is stopping
            self._free.release()
            self.shutdown_request(conn)

    def _busy(self, conn) -> None:
        """Refuse ``conn`` cleanly: every handler thread is taken."""
        body = b"the preview is busy (too many open connections); try again\n"
        try:
            conn.setblocking(False)
            try:  # what the request sent so far is read, so closing sends the answer, not a reset
                conn.recv(65536)
            except BlockingIOError:
                pass
            conn.settimeout(1.0)
            conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                         b"Retry-After: 1\r\nConnection: close\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n" + body)
        except OSError:
            pass
        self.shutdown_request(conn)

    def _serve(self, conn, addr) -> None:
        """One request of ``conn`` on this handler thread; a keep-alive connection goes back to the door."""
        keep = False
        try:
            keep = self.RequestHandlerClass(conn, addr, self).keep and not self.stopping.is_set()
        except GONE:  # the client went away: nothing to tell anyone
            pass
        except Exception:
            self.handle_error(conn, addr)
        finally:
            self._free.release()
            if keep:
                self.process_request(conn, addr)
            else:
                self.shutdown_request(conn)

    def handle_error(self, request, client_address) -> None:
        """A client that went away is no error; anything else is reported as the standard library does."""
        if isinstance(sys.exc_info()[1], GONE):
            return
        super().handle_error(request, client_address)

    def shutdown(self) -> None:
        """Stop serving (event streams end within one keep-alive interval)."""
        self.stopping.set()
        super().shutdown()

    def server_close(self) -> None:
        """Close the listening socket, every waiting connection and the handler pool."""
        self.stopping.set()
        super().server_close()
        if not hasattr(self, "_door"):  # the address could not be bound: nothing else was started
            return
        try:
            self._wake_w.send(b"\0")
        except OSError:
            pass
        self._door.join(timeout=5)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._wake_r.close()
        self._wake_w.close()
