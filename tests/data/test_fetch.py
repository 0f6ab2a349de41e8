"""`cardgen fetch URL` (issue 31): a dated snapshot of a card table on the web, against a real
HTTP server on 127.0.0.1 (http.server in a thread): what is written, and every refusal — a body
too large (declared and undeclared), a server too slow (silent, and dripping a byte at a time),
404, an HTML sign-in page (declared and disguised as CSV), redirects to file: and into a private
network, an existing snapshot. Nothing is written by a refused fetch."""
from __future__ import annotations

import ast
import datetime as dt
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.core.errors import CardgenError, UsageError
from cardgen.data import fetch as fetch_mod
from cardgen.data.card_tables import load_table
from cardgen.data.fetch import export_url, fetch_table, safe_stem
from tests.conftest import ROOT, write_xlsx

BASE = ROOT / "tests" / "fixtures" / "bad" / "_base"
CSV = "id,name,number\nc1,月,1\nc2,雀,2\n".encode()
TODAY = dt.date(2026, 12, 1)


class _Handler(BaseHTTPRequestHandler):
    xlsx = b""

    def log_message(self, *args):  # quiet
        pass

    def _send(self, status: int, body: bytes, ctype: str, extra: dict | None = None, length: int | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:  # the client gave up (a timeout test)
            pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        path = self.path
        if path == "/sheet.csv":
            self._send(200, CSV, "text/csv; charset=utf-8")
        elif path == "/named":
            self._send(200, CSV, "text/csv", {"Content-Disposition":
                                              "attachment; filename=\"x.csv\"; filename*=UTF-8''%E6%9C%88%E8%A6%8B%E9%9B%80%20-%20%E4%BA%BA%E7%89%A9.csv"})
        elif path == "/book":
            self._send(200, self.xlsx, "application/octet-stream")
        elif path == "/declared-huge":
            self._send(200, b"id\n", "text/csv", length=10**9)
            self.close_connection = True
        elif path == "/undeclared-huge":  # no Content-Length: the body ends when the connection closes
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            for _ in range(100):
                self.wfile.write(b"c,1\n" * 100)
            self.close_connection = True
        elif path == "/silent":
            time.sleep(3)
            self._send(200, CSV, "text/csv")
        elif path == "/drip":  # a byte every 0.1 s: no single read waits long, the whole takes 20 s
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            try:
                for _ in range(200):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/login":
            self._send(200, b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html; charset=utf-8")
        elif path == "/login-as-csv":
            self._send(200, b"\n  <!doctype html><html><body>Sign in</body></html>", "text/csv")
        elif path == "/to-file":
            self._send(302, b"", "text/plain", {"Location": "file:///etc/passwd"})
        elif path == "/to-private":
            self._send(302, b"", "text/plain", {"Location": f"http://127.0.0.2:{self.server.server_port}/sheet.csv"})
        elif path == "/to-sheet":
            self._send(301, b"", "text/plain", {"Location": "/sheet.csv"})
        elif path == "/loop":
            self._send(302, b"", "text/plain", {"Location": "/loop"})
        elif path == "/image":
            self._send(200, b"\x89PNG\r\n\x1a\n", "image/png")
        else:
            self._send(404, b"not found", "text/plain")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    book = write_xlsx(tmp_path_factory.mktemp("xlsx") / "b.xlsx", {"cards": [["id", "number"], ["c1", 1]]})
    _Handler.xlsx = book.read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def game(tmp_path) -> Path:
    dest = tmp_path / "g"
    shutil.copytree(BASE, dest)
    return dest


def _files(game: Path) -> list[str]:
    folder = game / "cards"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_csv_is_written_as_a_dated_snapshot_the_game_can_read(server, game):
    got = fetch_table(f"{server}/sheet.csv", game, today=TODAY)
    assert got.path == game / "cards" / "sheet-2026-12-01.csv" and got.kind == "csv"
    assert got.path.read_bytes() == CSV and got.size == len(CSV)
    assert got.path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # the outputs' mode, not mkstemp's 0600
    assert [r["name"] for r in load_table(got.path).data] == ["月", "雀"]
    assert _files(game) == ["sheet-2026-12-01.csv"]  # no temporary file left


def _umask() -> int:
    import os
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_servers_file_name_names_the_snapshot(server, game):
    got = fetch_table(f"{server}/named", game, today=TODAY)
    assert got.path.name == "月見雀-人物-2026-12-01.csv"  # RFC 5987 filename*, spaces folded


def test_name_and_redirects_within_http(server, game):
    got = fetch_table(f"{server}/to-sheet", game, name="characters", today=TODAY)
    assert got.path.name == "characters-2026-12-01.csv" and got.final_url == f"{server}/sheet.csv"


def test_a_workbook_keeps_its_kind(server, game):
    got = fetch_table(f"{server}/book", game, name="cards", today=TODAY)
    assert got.path.name == "cards-2026-12-01.xlsx" and got.kind == "xlsx"
    assert load_table(got.path).data[0]["id"] == "c1"


def test_never_written_over_without_force(server, game):
    first = fetch_table(f"{server}/sheet.csv", game, today=TODAY)
    first.path.write_text("mine", encoding="utf-8")
    with pytest.raises(CardgenError) as err:
        fetch_table(f"{server}/sheet.csv", game, today=TODAY)
    [p] = err.value.problems
    assert p.code == "fetch-exists" and p.file.endswith("cards/sheet-2026-12-01.csv") and "--force" in p.hint
    assert first.path.read_text(encoding="utf-8") == "mine"
    fetch_table(f"{server}/sheet.csv", game, force=True, today=TODAY)
    assert first.path.read_bytes() == CSV and _files(game) == ["sheet-2026-12-01.csv"]


@pytest.mark.parametrize("path, code, words, kwargs", [
    ("/declared-huge", "fetch-too-large", "1,000,000,000 bytes", {}),
    ("/undeclared-huge", "fetch-too-large", "more than 1,000 bytes", {"max_bytes": 1000}),
    ("/silent", "fetch-timeout", "within 0.5 s", {"timeout": 0.5}),
    ("/drip", "fetch-timeout", "within 1 s", {"timeout": 1.0}),
    ("/nothing-here.csv", "fetch-status", "answered 404", {}),
    ("/login", "fetch-html", "gave a web page (HTML)", {}),
    ("/login-as-csv", "fetch-html", "gave a web page (HTML)", {}),
    ("/image", "fetch-type", "gave image/png", {}),
    ("/to-file", "fetch-redirect", "'file:///etc/passwd', which is not an http(s) address", {}),
    ("/loop", "fetch-redirect", "more than 5 redirects", {}),
])
def test_refused_and_nothing_written(server, game, path, code, words, kwargs):
    start = time.monotonic()
    with pytest.raises(CardgenError) as err:
        fetch_table(server + path, game, name="x", today=TODAY, **kwargs)
    [p] = err.value.problems
    assert p.code == code and words in p.message, p.message
    assert _files(game) == []
    if path == "/drip":  # the whole download is bounded, not only each read
        assert time.monotonic() - start < 10


def test_a_public_address_redirecting_into_a_private_network_is_refused(server, game, monkeypatch):
    monkeypatch.setattr(fetch_mod, "_is_private", lambda host: host == "127.0.0.2")  # 127.0.0.1 plays the public sheet
    with pytest.raises(CardgenError) as err:
        fetch_table(f"{server}/to-private", game, name="x", today=TODAY)
    assert err.value.problems[0].code == "fetch-redirect" and "private network" in err.value.problems[0].message
    assert _files(game) == []


def test_which_addresses_count_as_private():
    assert fetch_mod._is_private("127.0.0.1") and fetch_mod._is_private("192.168.1.20")
    assert fetch_mod._is_private("169.254.169.254") and fetch_mod._is_private("::1")
    assert not fetch_mod._is_private("8.8.8.8")


def test_only_http_addresses_and_a_game_folder(game, tmp_path):
    for url in ("file:///etc/passwd", "ftp://example.org/x.csv", "cards.csv", "https://"):
        with pytest.raises(UsageError):
            fetch_table(url, game)
    with pytest.raises(UsageError) as err:
        fetch_table("https://example.org/x.csv", tmp_path / "nowhere")
    assert err.value.problems[0].code == "no-game"


def test_google_sheets_addresses_become_their_csv_export():
    edit = "https://docs.google.com/spreadsheets/d/1AbC_x-9/edit#gid=42"
    assert export_url(edit) == "https://docs.google.com/spreadsheets/d/1AbC_x-9/export?format=csv&gid=42"
    assert export_url("https://docs.google.com/spreadsheets/d/1AbC/edit?usp=sharing") == \
        "https://docs.google.com/spreadsheets/d/1AbC/export?format=csv"
    published = "https://docs.google.com/spreadsheets/d/e/2PACX-1/pub?output=csv"
    assert export_url(published) == published and export_url("https://example.org/a.csv") == "https://example.org/a.csv"


def test_safe_stem():
    assert safe_stem("月見雀 - 人物") == "月見雀-人物" and safe_stem("../../etc/passwd") == "etc-passwd"
    assert safe_stem("...") == "sheet" and len(safe_stem("a" * 300)) == 60


def test_the_command(server, game):
    before = dt.date.today().isoformat()
    run = CliRunner().invoke(cli, ["fetch", f"{server}/sheet.csv", str(game)])
    today = _files(game)[0][len("sheet-"):-len(".csv")]
    assert today in (before, dt.date.today().isoformat())  # the run's own date (it may pass midnight)
    assert run.exit_code == 0, run.output
    assert f"sheet-{today}.csv ({len(CSV)} bytes)" in run.output and "2 row(s); columns: id, name, number" in run.output
    assert f"`cards: cards/sheet-{today}.csv`" in run.output
    again = CliRunner().invoke(cli, ["fetch", f"{server}/sheet.csv", str(game)])
    assert again.exit_code == 1 and "exists already" in again.output
    bad = CliRunner().invoke(cli, ["fetch", "file:///etc/passwd", str(game)])
    assert bad.exit_code == 2 and "is not an http(s) address" in bad.output and "Traceback" not in bad.output
    assert bad.output.startswith("URL: error: ")  # named by what is wrong, not "<input>:"
    slow = CliRunner().invoke(cli, ["fetch", f"{server}/silent", str(game), "--timeout", "0.3"])
    assert slow.exit_code == 1 and "within 0.3 s" in slow.output
    assert slow.output.startswith("cardgen fetch: error: ")


def test_a_url_as_a_card_table_points_to_fetch():
    expected = (ROOT / "tests" / "fixtures" / "bad" / "file-cards-url" / "expected.txt").read_text(encoding="utf-8")
    assert "cardgen fetch 'https://docs.google.com/spreadsheets/d/1AbC/edit#gid=0'" in expected


def test_only_the_fetch_command_imports_the_network():
    """No build, validate, watch or serve path can download: the one module that does is imported
    by the fetch command alone."""
    importers = []
    for path in (ROOT / "cardgen").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "cardgen.data.fetch" or n.split(".")[0] in ("urllib3", "requests", "httpx")
                   or n in ("urllib.request", "http.client") for n in names):
                importers.append(path.relative_to(ROOT).as_posix())
    assert sorted(set(importers)) == ["cardgen/cli/project_commands.py", "cardgen/data/fetch.py"]


def test_a_refused_connection_is_not_called_a_timeout(game):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(CardgenError) as err:
        fetch_table(f"http://127.0.0.1:{port}/x.csv", game, name="x", today=TODAY)
    [p] = err.value.problems
    assert p.code == "fetch-network" and "could not reach" in p.message and "Connection refused" in p.message
    assert _files(game) == []
