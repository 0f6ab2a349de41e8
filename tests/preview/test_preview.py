"""cardgen serve: faces keyed by their inputs (only what a save touches is laid out and drawn
again), the page state (deck math, problems linked to card and box, last good faces kept on an
error), and the server (only its own files, read-only, loopback by default)."""
from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from benchmarks.gen import make_game
from tests.card_rows import edit_row
from tests.conftest import copy_game, replace_in
from tests.shared_project import shared_project
from cardgen.steps.changes import steps_for
from cardgen.preview.live import Preview
from cardgen.preview.server import MAX_HANDLERS, PreviewServer, bind_warning

ROOT = Path(__file__).resolve().parents[2]


def _plain(fn, *args, on_event=None, **kwargs):
    """The rebuild in this process (the budgeted fork is tested through the CLI below); what the
    child would send while it runs (``early``: the faces shown before the check) is handed over
    at once, as the event pipe does."""
    if on_event is not None:
        kwargs["early"] = on_event
    return fn(*args, **kwargs)


def _cards(state) -> dict[str, dict]:
    return {c["id"]: c for comp in state["components"] for c in comp["cards"]}


@pytest.fixture
def game(tmp_path):
    return make_game(tmp_path / "g", 6)


def test_one_cell_lays_out_and_draws_only_that_card(game):
    preview = Preview(game, limited=_plain)
    first = preview.refresh_cards()
    assert (first["laid_out"], first["reused"], first["rasterised"]) == (12, 0, 7)  # 6 fronts, 6 backs; one back drawn
    before = _cards(preview.snapshot())
    old_png = preview.image(before["g00002"]["front"])
    edit_row(game / "characters.csv", "g00002", name="李雀士")
    stats = preview.refresh_cards()
    assert (stats["laid_out"], stats["reused"], stats["rasterised"]) == (2, 10, 1)  # its front and back; one new image
    after = _cards(preview.snapshot())
    changed = {cid for cid in after if after[cid]["front"] != before[cid]["front"]}
    assert changed == {"g00002"}
    assert after["g00002"]["back"] == before["g00002"]["back"]  # the shared back is not drawn again
    old, new = (Image.open(io.BytesIO(png)).convert("RGB") for png in (old_png, preview.image(after["g00002"]["front"])))
    assert new.size == old.size == (407, 555)  # (63 + 6) × (88 + 6) mm at 150 dpi, floor(mm / 25.4 × dpi + 0.5)
    from PIL import ImageChops
    x0, y0, x1, y1 = ImageChops.difference(old, new).getbbox()
    assert y1 < 555 * 19 / 94 * 1.2  # only the name band (the top 19 mm below the bleed) changed
    assert preview.image(before["g00002"]["front"]) is None  # the old face's image is dropped once no card shows it


def test_template_edit_lays_out_every_card_of_that_template_again(game):
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    t = game / "templates" / "cards" / "character.yaml"
    t.write_text(t.read_text(encoding="utf-8").replace('background: "#fbf7ee"', 'background: "#eeeeff"'), encoding="utf-8")
    stats = preview.refresh_cards()
    assert (stats["laid_out"], stats["reused"], stats["rasterised"]) == (6, 6, 6)  # the fronts; backs have their own template


def _fronts(state) -> dict[tuple[str, str], str]:
    return {(comp["id"], c["id"]): c["front"] for comp in state["components"] for c in comp["cards"]}


def test_a_shared_template_edit_redraws_the_fronts_of_its_cards_only(tmp_path, monkeypatch):
    # 天雀牌 names shared/character; its editions (en, ja-en with shared/character_bilingual) lay
    # the same cards out too. The page shows the default edition's faces: an edit of the shared
    # template redraws those, and nothing of the components drawn from other templates.
    game = copy_game(tmp_path)
    monkeypatch.setenv("CARDGEN_PROJECT", str(tmp_path))  # the copy's templates/ are the shared ones read
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    before = _fronts(preview.snapshot())
    old = {k: preview.image(v) for k, v in before.items()}
    replace_in(tmp_path / "templates" / "cards" / "character.yaml", 'background: "#fbf7ee"', 'background: "#3c8f5a"')
    preview.refresh_cards()
    after = _fronts(preview.snapshot())
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {k for k in after if k[0] == "characters"} and len(changed) == 15
    corner = (3, 550)  # in the bottom bleed: the background colour, drawn from the edited file
    for k in changed:
        was, now = (Image.open(io.BytesIO(png)).convert("RGB").getpixel(corner) for png in (old[k], preview.image(after[k])))
        assert max(abs(a - b) for a, b in zip(was, (0xfb, 0xf7, 0xee))) <= 3
        assert max(abs(a - b) for a, b in zip(now, (0x3c, 0x8f, 0x5a))) <= 3


def test_a_shared_rulebook_design_edit_redraws_the_rulebook_pages(tmp_path, monkeypatch):
    proj, game = shared_project(tmp_path, monkeypatch)
    preview = Preview(game, limited=_plain)
    preview.refresh_pages()
    before = preview.snapshot()["pages"]
    design = proj / "templates" / "rulebook" / "book.yaml"
    replace_in(design, "left: 14,", "left: 34,")
    assert steps_for([design], game, proj) == {"validate", "rulebook"}  # what serve's loop asks for: the pages
    preview.refresh_pages()
    after = preview.snapshot()["pages"]
    assert after["sheets"] == before["sheets"] and len(after["rulebook"]) == len(before["rulebook"]) == 1
    assert after["rulebook"] != before["rulebook"]
    new = Image.open(io.BytesIO(preview.image(after["rulebook"][0])))
    # the columns holding a dark pixel (grey < 128): one conversion, numpy's column minimum
    dark = np.flatnonzero(np.asarray(new.convert("L")).min(axis=0) < 128).tolist()
    assert abs(dark[0] / 72 * 25.4 - 34) < 1.5  # the text starts at the new 34 mm margin (72 dpi)


def test_every_edition_is_checked_as_validate_checks_it(tmp_path, monkeypatch):
    # The preview's face cache lays out the other editions' faces too (their overflow is a
    # warning of the default edition): an English face must not be taken for the Japanese one
    # of the same card (same row values, other words and fonts), before or after an edit.
    from cardgen.steps.game_check import check_game

    game = copy_game(tmp_path)
    monkeypatch.setenv("CARDGEN_PROJECT", str(tmp_path))
    replace_in(game / "game.yaml", "battle_caption: Tenpai speed · hand value",
               "battle_caption: " + "Tenpai speed and hand value " * 12)
    preview = Preview(game, limited=_plain)
    for _ in range(2):  # cold, then warm
        preview.refresh_cards()
        shown = sorted(p["text"] for p in preview.snapshot()["problems"])
        chk = check_game(game, rulebook=False)
        assert shown == sorted(p.format() for p in chk.errors + chk.warnings)
        assert any("edition 'en'" in t and "battle" in t for t in shown)


def test_the_server_holds_the_hyphenation_dictionaries_its_rebuilds_load(tmp_path, monkeypatch):
    # each save's rebuild is a forked child: the English edition's dictionary (pyphen parses it in
    # ≈ 0.1 s) is loaded once in the server, as a watch holds it, so the next child inherits it
    from cardgen.layout import card_text, vertical_text, western

    game = copy_game(tmp_path)
    monkeypatch.setenv("CARDGEN_PROJECT", str(tmp_path))
    for memo in (card_text._FIT_CACHE, card_text._OPS_CACHE, vertical_text._FIT_CACHE, vertical_text._OPS_CACHE):
        memo.clear()  # an earlier test in this process laid the English faces out: the child would replay them
    western._dictionary.cache_clear()
    monkeypatch.setattr(western, "LOADED_LANGUAGES", set())
    Preview(game).refresh_cards()  # run_limited: the forked child lays out the English faces
    assert western._dictionary.cache_info().currsize >= 1 and "en" in western.LOADED_LANGUAGES


def test_overflow_is_a_problem_linked_to_its_card_and_box_and_clears(game):
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    edit_row(game / "characters.csv", "g00003", skill_text="山札から引く。" * 40)
    preview.refresh_cards()
    state = preview.snapshot()
    over = [p for p in state["problems"] if p["code"] == "text-overflow"]
    assert len(over) == 1 and over[0]["severity"] == "error"
    assert over[0]["cards"] == [{"component": "characters", "id": "g00003", "face": "front", "field": "skill_text"}]
    assert _cards(state)["g00003"]["marks"]["front"]["skill_text"] == "text-overflow"
    assert not state["ok"]
    edit_row(game / "characters.csv", "g00003", skill_text="山札から1枚引く。")
    preview.refresh_cards()
    state = preview.snapshot()
    assert not [p for p in state["problems"] if p["code"] == "text-overflow"]
    assert _cards(state)["g00003"]["marks"]["front"] == {} and state["ok"]


def test_an_unreadable_save_keeps_the_last_good_faces(game):
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    good = _cards(preview.snapshot())
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("components:", "components: [", 1), encoding="utf-8")
    preview.refresh_cards()
    state = preview.snapshot()
    assert state["stale"] and state["problems"] and state["problems"][0]["file"].endswith("game.yaml")
    assert _cards(state) == good and all(preview.image(c["front"]) for c in good.values())
    manifest.write_text(text, encoding="utf-8")
    preview.refresh_cards()
    assert not preview.snapshot()["stale"]


def test_deck_math_follows_the_card_table(tmp_path):
    game = shutil.copytree(ROOT / "card_data" / "tenjanpai", tmp_path / "tenjanpai")
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    four = next(pc for pc in preview.snapshot()["deck_math"] if pc["players"] == 4)
    assert (four["deck"], four["draw_pile"], four["turns"], four["ok"]) == (42, 24, 6, True)
    edit_row(game / "battle.csv", "b3-none", count="6")  # 4 more cards
    preview.refresh_cards()
    four = next(pc for pc in preview.snapshot()["deck_math"] if pc["players"] == 4)
    assert (four["deck"], four["draw_pile"], four["turns"], four["ok"]) == (46, 28, 7, False)


def test_pages_are_the_rulebook_and_print_sheets(tmp_path, built_games):
    game = shutil.copytree(ROOT / "card_data" / "tenjanpai", tmp_path / "tenjanpai")
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    preview.refresh_pages()
    pages = preview.snapshot()["pages"]
    import pypdfium2 as pdfium
    built = built_games("tenjanpai", steps=("sheets", "rulebook")).out_dir  # the same game, built once per run
    for kind, name in (("rulebook", "rulebook.pdf"), ("sheets", "print-sheets.pdf")):
        assert len(pages[kind]) == len(pdfium.PdfDocument(built / name))
        img = Image.open(io.BytesIO(preview.image(pages[kind][0])))
        assert img.format == "PNG" and min(img.size) > 300


# --- the server -------------------------------------------------------------------------------

@pytest.fixture
def server(game):
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    srv = PreviewServer(("127.0.0.1", 0), preview)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _get(srv, path: str, method: str = "GET") -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=10)
    conn.putrequest(method, path, skip_host=False, skip_accept_encoding=True)  # the path exactly as written
    conn.endheaders()
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body, r.getheader("Content-Type") or ""


def test_server_serves_its_page_state_and_images(server):
    status, body, ctype = _get(server, "/")
    assert status == 200 and ctype.startswith("text/html") and b"/app.js" in body
    assert _get(server, "/app.js")[0] == 200 and _get(server, "/style.css")[0] == 200
    status, body, ctype = _get(server, "/api/state")
    state = json.loads(body)
    assert status == 200 and state["game"] == "bench6"
    key = state["components"][0]["cards"][0]["front"]
    status, body, ctype = _get(server, f"/img/{key}")
    assert status == 200 and ctype == "image/jpeg" and body.startswith(b"\xff\xd8")
    assert Image.open(io.BytesIO(body)).size == (407, 555)
    assert _get(server, f"/img/{key}", "HEAD")[1] == b""
    assert _get(server, f"/img/{key}.png")[0] == 404 and _get(server, f"/img/{key}/../../game.yaml")[0] == 404


SECRET = "the-contents-of-a-file-outside"


@pytest.mark.parametrize("path", [
    "/../../../../etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/%252e%252e/%252e%252e/etc/passwd", "/%25252e%25252e/etc/passwd", "/..\\..\\etc\\passwd",
    "/static/../../../pyproject.toml", "/static/app.js", "/app.js/../../pyproject.toml", "/app.js%00.html",
    "//etc/passwd", "/etc/passwd", "http://127.0.0.1/etc/passwd", "/img/../game.yaml", "/img/..%2fgame.yaml",
    "/img/%2e%2e%2f%2e%2e%2fcharacters.csv", "/characters.csv", "/game.yaml", "/templates/cards/character.yaml",
    "/img/" + "0" * 40, "/img/" + "A" * 40, "/img/" + "0" * 41, "/.%2e/secret.txt", "/%2e%2e%5csecret.txt",
    "/api/state/../../secret.txt", "/events/../secret.txt",
])
def test_server_serves_nothing_else(server, game, path):
    (game.parent / "secret.txt").write_text(SECRET, encoding="utf-8")
    status, body, _ = _get(server, path)
    assert status in (400, 404), (path, status)
    assert SECRET.encode() not in body and b"root:" not in body and b"components" not in body


@pytest.mark.parametrize("host, status", [("127.0.0.1:8000", 200), ("localhost", 200), ("LOCALHOST:1", 200),
                                          ("[::1]:8000", 200), ("evil.example:8000", 403), ("127.0.0.1.evil.example", 403),
                                          ("", 403)])
def test_server_answers_only_to_this_machines_names(server, host, status):
    """DNS rebinding: a page elsewhere pointing its own name at 127.0.0.1 must not read the game."""
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=10)
    conn.putrequest("GET", "/api/state", skip_host=True)
    if host:
        conn.putheader("Host", host)
    conn.endheaders()
    r = conn.getresponse()
    body = r.read()
    conn.close()
    assert r.status == status and (b"components" in body) == (status == 200)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_server_is_read_only(server, method):
    assert _get(server, "/api/state", method)[0] == 405


def test_events_announce_each_new_version(server, game):
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=20)
    conn.request("GET", "/events")
    r = conn.getresponse()
    assert r.getheader("Content-Type").startswith("text/event-stream")

    def version():
        while True:
            line = r.fp.readline()
            if line.startswith(b"data:"):
                return int(line[5:])
    v1 = version()
    edit_row(game / "characters.csv", "g00001", name="新名前")
    server.preview.refresh_cards()
    assert version() > v1
    conn.close()


@pytest.mark.parametrize("host, warned", [("127.0.0.1", False), ("::1", False), ("localhost", False),
                                          ("127.0.0.2", False), ("0.0.0.0", True), ("192.168.1.5", True), ("::", True)])
def test_bind_warning(host, warned):
    assert bool(bind_warning(host)) is warned


def test_cli_serve_refuses_a_folder_without_a_game(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cardgen", "serve", str(tmp_path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 2 and "is not a game folder (no game.yaml)" in r.stderr


def test_cli_serve_warns_when_bound_beyond_loopback_and_builds_under_the_budget(game):
    """The real command: a forked, budgeted child builds the faces; the page answers."""
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", str(game), "--host", "0.0.0.0", "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        err = proc.stderr.readline()
        assert err.startswith("warning: serving on 0.0.0.0, not on this machine only")
        out = proc.stdout.readline()
        assert out.startswith(f"preview of {game} at http://0.0.0.0:")
        port = int(out.rsplit(":", 1)[1].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("GET", "/api/state")
        state = json.loads(conn.getresponse().read())
        assert len(state["components"][0]["cards"]) == 6 and not state["stale"]
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            assert proc.wait(timeout=20) == 130
        finally:
            if proc.poll() is None:
                proc.kill()


def test_cli_serve_names_a_port_in_use(game):

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "cardgen", "serve", str(game), "--port", str(port)],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert f"127.0.0.1:{port}: error: cannot listen there: Address already in use" in r.stderr
    assert "choose another --port (0 picks a free one)" in r.stderr


def test_rebuilds_run_in_budgeted_children_and_only_trusted_fonts_load_here(game):
    """The real path: each rebuild is a forked child under the budget. The server process parses
    the installed fonts once (so later children find them) but never a font file from the game folder."""
    from cardgen.fonts import registration

    src = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")
    if not src.is_file():
        pytest.skip("needs the IPAex Gothic font")
    shutil.copy(src, game / "fonts" / "own.ttf")
    cfg = game / "fonts" / "fonts.yaml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("number: IPAexGothic", "number: {file: own.ttf}"),
                   encoding="utf-8")
    preview = Preview(game)  # run_limited: a forked child per rebuild
    stats = preview.refresh_cards()
    assert stats["laid_out"] == 12 and not preview.snapshot()["stale"]
    loaded = {Path(path).name for path, _index in registration._REGISTERED}
    # the serif role is the installed IPAex Mincho; the other roles name IPAexGothic, which the copy in the game's
    # fonts/ folder now answers to (the game folder is looked in first)
    assert "ipaexm.ttf" in loaded and "own.ttf" not in loaded
    assert str(game.resolve()) not in " ".join(path for path, _index in registration._REGISTERED)


def test_a_template_that_does_not_parse_keeps_its_components_last_good_faces(game):
    """Issue 31: a YAML typo in a card template made that whole component vanish from the page;
    its last good faces stay, with the error shown above them, until the template reads again."""
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    good = _cards(preview.snapshot())
    template = game / "templates" / "cards" / "character.yaml"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("elements:", "elements: [", 1), encoding="utf-8")
    preview.refresh_cards()
    state = preview.snapshot()
    comp = next(c for c in state["components"] if c["id"] == "characters")
    assert comp["stale"] and any("character.yaml" in e for e in comp["error"])
    assert _cards(state) == good and all(preview.image(c["front"]) for c in good.values())
    template.write_text(text, encoding="utf-8")
    preview.refresh_cards()
    comp = next(c for c in preview.snapshot()["components"] if c["id"] == "characters")
    assert "error" not in comp and "stale" not in comp


# --- the server under a careless or hostile client (issue 28) ---------------------------------

def _reset(sock: socket.socket) -> None:
    """Close ``sock`` with a TCP reset (SO_LINGER 0), as a browser does with a connection it drops."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _resets(address) -> None:
    """A connection reset in the middle of its request, one after asking for a card image (the
    server writes into a reset connection), and one reset on an event stream."""
    partial = socket.create_connection(address[:2])
    partial.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    for path in ("/api/state", "/events"):
        s = socket.create_connection(address[:2])
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        s.recv(1)  # the answer has begun
        _reset(s)
    _reset(partial)


def test_the_command_prints_no_traceback_when_a_client_resets_its_connection(game):
    """The real `cardgen serve` (a few seconds: it builds the game's faces in its budgeted child
    first): connections reset mid-request and mid-answer leave stderr empty, and the page still answers."""
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", str(game), "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        out = proc.stdout.readline()
        port = int(out.rsplit(":", 1)[1].split("/")[0])
        for _ in range(3):
            _resets(("127.0.0.1", port))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("GET", "/api/state")
        r = conn.getresponse()
        assert r.status == 200 and b"components" in r.read()
        conn.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            assert proc.wait(timeout=20) == 130
        finally:
            if proc.poll() is None:
                proc.kill()
    err = proc.stderr.read()
    assert "Traceback" not in err and "Exception" not in err and "ConnectionResetError" not in err, err


def test_idle_connections_take_no_thread_and_the_server_still_answers(server):
    """More silent connections than the server has handler threads: no thread is started for
    them, and a real request is served beside them."""
    before = threading.active_count()
    idle = [socket.create_connection(server.server_address[:2]) for _ in range(3 * MAX_HANDLERS)]
    try:
        status, body, _ = _get(server, "/api/state")
        assert status == 200 and b"components" in body
        assert threading.active_count() <= before + MAX_HANDLERS
        names = [t.name for t in threading.enumerate()]
        assert sum(n.startswith("preview-request") for n in names) <= MAX_HANDLERS
    finally:
        for s in idle:
            s.close()


def test_when_every_handler_is_busy_a_request_is_refused_cleanly(server):
    """Event streams hold a handler thread each; with all of them held, the next request gets 503
    at once (not a hang, not a new thread), and once one stream ends the server serves again."""
    streams = []
    for _ in range(MAX_HANDLERS):
        s = socket.create_connection(server.server_address[:2])
        s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(12) == b"HTTP/1.1 200"  # served: it holds its thread
        streams.append(s)
    before = threading.active_count()
    status, body, _ = _get(server, "/api/state")
    assert status == 503 and b"busy" in body
    assert threading.active_count() == before
    _reset(streams.pop())
    for _ in range(200):  # the handler notices the reset stream at its next write: give it a new version to send
        server.preview._publish()
        if _get(server, "/api/state")[0] == 200:
            break
    else:
        raise AssertionError("the server never served again")
    for s in streams:
        s.close()


def test_keep_alive_connections_hand_their_thread_back_between_requests(server):
    """A browser keeps its connections open between requests: each may ask again on the same
    connection, and none holds a handler thread while it is silent."""
    conns = [http.client.HTTPConnection(*server.server_address[:2], timeout=10) for _ in range(2 * MAX_HANDLERS)]
    for _ in range(2):
        for c in conns:
            c.request("GET", "/api/state")
            r = c.getresponse()
            assert r.status == 200 and b"components" in r.read()
    for c in conns:
        c.close()


@pytest.mark.parametrize("host", ["127.0.0.2", "::1"])
def test_the_address_it_prints_answers_and_other_names_still_do_not(game, host):
    """`--host 127.0.0.2` printed http://127.0.0.2:PORT/, which answered 403 (its Host was not
    among this machine's names)."""
    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    try:
        srv = PreviewServer((host, 0), preview)
    except OSError as exc:
        pytest.skip(f"cannot listen on {host}: {exc}")
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        url = srv.url()
        assert url == f"http://{'[::1]' if host == '::1' else host}:{srv.server_address[1]}/"
        with urllib.request.urlopen(url + "api/state", timeout=10) as r:
            assert r.status == 200 and b"components" in r.read()
        conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=10)
        conn.putrequest("GET", "/api/state", skip_host=True)
        conn.putheader("Host", f"evil.example:{srv.server_address[1]}")
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 403 and b"components" not in r.read()
        conn.close()
    finally:
        srv.shutdown()
        srv.server_close()


# --- a save's faces before its check ------------------------------------------------------------

def _state(srv) -> dict:
    status, body, _ = _get(srv, "/api/state")
    assert status == 200
    return json.loads(body)


def _texts(problems) -> list[str]:
    return sorted(p["text"] if isinstance(p, dict) else p.format() for p in problems)


def test_a_saved_cells_face_is_served_before_the_check_completes_then_the_problems_are_validates(tmp_path, monkeypatch):
    # A real server over real budgeted children; the child's check waits on a pipe this test
    # writes to, so the order is seen without any clock: the new face is in the state and served
    # while the check of this save has not finished, the problems shown meanwhile are the last
    # check's (marked checking), and once it finishes they are exactly validate's.
    import select

    from cardgen.api import validate_game
    from cardgen.preview import snapshot

    game = copy_game(tmp_path)
    monkeypatch.setenv("CARDGEN_PROJECT", str(tmp_path))
    go_r, go_w = os.pipe()
    check = snapshot.check_game

    def held(*args, **kwargs):  # runs in the forked child: waits until the test lets it go on
        if select.select([go_r], [], [], 120)[0]:  # (a bound, so a failing test cannot hang for ever)
            os.read(go_r, 1)
        return check(*args, **kwargs)

    monkeypatch.setattr(snapshot, "check_game", held)
    preview = Preview(game)
    os.write(go_w, b"x")
    preview.refresh_cards()
    srv = PreviewServer(("127.0.0.1", 0), preview)
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        before = _state(srv)
        old = _cards(before)["b3-none"]
        assert not before["checking"] and _texts(before["problems"]) == _texts(validate_game(game).errors
                                                                               + validate_game(game).warnings)
        edit_row(game / "battle.csv", "b3-none", number="4", count="6")  # a new face, and a deck that no longer adds up
        save = threading.Thread(target=preview.refresh_cards)
        save.start()
        version = before["version"]
        while True:  # each version the save publishes, until its faces are in
            version = preview.wait(version, timeout=120)
            during = _state(srv)
            if _cards(during)["b3-none"]["front"] != old["front"]:
                break
            assert save.is_alive(), "the save finished without showing a new face"
        assert save.is_alive() and during["checking"]  # the check has not been let go on yet
        status, body, ctype = _get(srv, "/img/" + _cards(during)["b3-none"]["front"])
        assert status == 200 and ctype == "image/jpeg" and Image.open(io.BytesIO(body)).size == (407, 555)  # 150 dpi
        assert body != _get(srv, "/img/" + old["front"])[1]  # (the old face is still held: it may come back)
        assert during["problems"] == before["problems"] and during["deck_math"] == before["deck_math"]  # no new verdict yet
        others = {k: v for k, v in _cards(during).items() if k != "b3-none"}
        assert others == {k: v for k, v in _cards(before).items() if k != "b3-none"}
        os.write(go_w, b"x")
        save.join(timeout=120)
        after = _state(srv)
        assert not after["checking"] and _cards(after)["b3-none"]["front"] == _cards(during)["b3-none"]["front"]
        report = validate_game(game)
        assert _texts(after["problems"]) == _texts(report.errors + report.warnings) != _texts(before["problems"])
        assert any("deck" in t.lower() or "draw" in t.lower() for t in _texts(after["problems"]))
    finally:
        srv.shutdown()
        srv.server_close()
        os.close(go_r)
        os.close(go_w)


def test_a_check_that_fails_after_the_faces_were_shown_puts_the_last_good_faces_back(game, monkeypatch):
    from cardgen.core.errors import CardgenError, Problem
    from cardgen.preview import snapshot

    preview = Preview(game, limited=_plain)
    preview.refresh_cards()
    good = _cards(preview.snapshot())
    versions = []
    real = preview._faces_shown
    monkeypatch.setattr(preview, "_faces_shown", lambda faces: (real(faces), versions.append(preview.snapshot())))

    def fails(*_args, **_kwargs):
        raise CardgenError(Problem(str(game), None, "", "the build used more than 60 seconds of CPU time", "",
                                   code="cpu-limit"))

    monkeypatch.setattr(snapshot, "check_game", fails)
    edit_row(game / "characters.csv", "g00002", name="李雀士")
    assert preview.refresh_cards() is None
    assert versions and versions[0]["checking"] and _cards(versions[0])["g00002"]["front"] != good["g00002"]["front"]
    state = preview.snapshot()
    assert state["stale"] and not state["checking"] and state["problems"][0]["code"] == "cpu-limit"
    assert _cards(state) == good and all(preview.image(c["front"]) for c in good.values())  # shown, and still served


SERVER_IMPORTS = """
import json, sys
from pathlib import Path
from cardgen.preview.live import Preview
from tests.card_rows import edit_row
game = Path(sys.argv[1])
preview = Preview(game)
imported = []
real = preview._limited
preview._limited = lambda fn, *a, **k: (got := real(fn, *a, **k), imported.append(got["modules"]))[0]
preview.refresh_cards()
edit_row(game / "battle.csv", "b3-none", number="4")
preview.refresh_cards()
print(json.dumps(imported))
"""


def test_the_server_holds_the_modules_its_rebuilds_import(tmp_path):
    # each save's child is forked from the server: what a child imports (preflight, pypdfium2,
    # …) is imported in the server once, so the next child does not import it again (a
    # server of its own: this test process has imported everything already; the trusted fonts'
    # tables: tests/fonts/test_parsed_cache.py, read_all)
    game = copy_game(tmp_path)
    run = subprocess.run([sys.executable, "-c", SERVER_IMPORTS, str(game)], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "CARDGEN_PROJECT": str(tmp_path), "PYTHONPATH": str(ROOT)}, timeout=300)
    assert run.returncode == 0, run.stderr
    first, second = json.loads(run.stdout.splitlines()[-1])
    assert "cardgen.check.preflight" in first  # the check's preflight, imported by the first child
    assert "numpy" not in first  # the simulator model is checked without numpy (insight/model_check.py)
    assert second == []  # the second save's child imported nothing the server lacked
