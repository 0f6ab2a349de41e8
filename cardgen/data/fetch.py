"""`cardgen fetch URL`: a dated local snapshot of a card table kept on the web (a Google Sheets
sheet, or any http(s) address of a CSV / .xlsx / .ods file), written into the game folder.

The one place cardgen uses the network, and only when the designer asks: no build, validate or
watch imports this module (``tests/data/test_fetch.py`` reads every import). What it accepts:

- ``http:`` and ``https:`` addresses only; a redirect may lead to ``http(s)`` only, never from
  https down to http, at most :data:`MAX_REDIRECTS` times.
- A redirect from a public address to a private one (loopback, LAN, link-local, …) is refused:
  an address the designer typed may be a server of their own network, but a public sheet that
  answers "look on 192.168.…" is not what they asked for (the check resolves the host of each
  redirect; it does not defend against DNS rebinding, which a snapshot written into the game
  folder does not need).
- A body of at most :data:`~cardgen.data.file_limits.MAX_CSV_BYTES` (the largest card table
  cardgen reads), within ``timeout`` seconds in all; a web page (HTML: a sign-in or "request
  access" page) or any type but a table is refused. Nothing is written unless the whole body came.
- The file is ``<game>/cards/<name>-YYYY-MM-DD.<csv|xlsx|ods>``, never written over without
  ``force``; ``name`` comes from the server's file name (``Content-Disposition``), else from the
  address.
"""
from __future__ import annotations

import datetime as dt
import io
import ipaddress
import os
import re
import socket
import tempfile
import time
import unicodedata
import zipfile
from dataclasses import dataclass
from email.message import Message
from email.utils import collapse_rfc2231_value
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import urllib3

from cardgen.core.atomic import as_output
from cardgen.core.boundary import confine
from cardgen.core.errors import CardgenError, Problem, UsageError, rel
from cardgen.data.file_limits import MAX_CSV_BYTES

MAX_REDIRECTS = 5
#: Seconds the whole fetch may take (connection, redirects and body) unless told otherwise.
DEFAULT_TIMEOUT = 30.0
#: The folder of the game the snapshot is written to.
FOLDER = "cards"

_CSV_TYPES = {"text/csv", "application/csv", "text/comma-separated-values", "text/plain",
              "text/tab-separated-values", "text/x-csv", "application/vnd.ms-excel"}
_XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
_GOOGLE = re.compile(r"^/spreadsheets/d/([A-Za-z0-9_-]+)(?:/|$)")
_NOT_A_NAME = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|\s]+")


@dataclass(frozen=True)
class Fetched:
    """What :func:`fetch_table` wrote: the file, its size, its kind (csv, xlsx, ods), the
    address it asked (after the Google Sheets export rewrite) and where the body came from."""

    path: Path
    size: int
    kind: str
    url: str
    final_url: str


def export_url(url: str) -> str:
    """The address to download: a Google Sheets editing or sharing address
    (``…/spreadsheets/d/ID/edit#gid=N``) becomes its CSV export of that sheet
    (``…/spreadsheets/d/ID/export?format=csv&gid=N``); a published (``/pub…``) or export address,
    and any other address, is kept."""
    parts = urlsplit(url)
    m = _GOOGLE.match(parts.path)
    if parts.hostname != "docs.google.com" or not m or "/export" in parts.path or "/pub" in parts.path:
        return url
    gid = parse_qs(parts.fragment).get("gid") or parse_qs(parts.query).get("gid") or []
    return (f"https://docs.google.com/spreadsheets/d/{m.group(1)}/export?format=csv"
            + (f"&gid={gid[0]}" if gid and gid[0].isdigit() else ""))


def check_url(url: str) -> None:
    """Refuse (:class:`UsageError`, exit 2) an address that is not ``http(s)://host…``."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise UsageError(Problem("URL", None, "", f"{url[:120]!r} is not an http(s) address",
                                 "give the sheet's web address, e.g. https://docs.google.com/spreadsheets/d/…/edit; "
                                 "a file already on disk needs no fetch: name it in `cards:`", code="fetch-url"))


def _is_private(host: str) -> bool:
    """Whether ``host`` (a name or an address) resolves to any address that is not public."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False  # the request itself will say the host is unknown
    return any(not ipaddress.ip_address(info[4][0].split("%")[0]).is_global for info in infos)


def _fail(message: str, hint: str, code: str) -> CardgenError:
    # named by the command (the message names the address): a fetch has no file of the game to blame
    return CardgenError(Problem("cardgen fetch", None, "", message, hint, code=code))


_SHARE_HINT = ("if this is a Google sheet, share it so that anyone with the link can view it (Share → General "
               "access), or use File → Share → Publish to web → Comma-separated values and fetch that address")


def _get(url: str, timeout: float, max_bytes: int) -> tuple[bytes, str, str, str]:
    """Body, content type, ``Content-Disposition`` and final address of ``url``, following at
    most :data:`MAX_REDIRECTS` redirects as the module says. Raises CardgenError."""
    deadline = time.monotonic() + timeout
    pool = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(connect=timeout, read=timeout))
    first_private = _is_private(urlsplit(url).hostname or "")
    for _hop in range(MAX_REDIRECTS + 1):
        left = deadline - time.monotonic()
        if left <= 0:
            raise _timed_out(url, timeout)
        try:
            resp = pool.request("GET", url, redirect=False, preload_content=False,
                                timeout=urllib3.Timeout(connect=left, read=left),
                                headers={"User-Agent": "cardgen-fetch", "Accept": "text/csv, */*;q=0.5"})
        except urllib3.exceptions.NewConnectionError as exc:  # refused, or no such host (urllib3 files it under timeouts)
            raise _fail(f"could not reach {url}: {_reason(exc)}",
                        "check the address and your network connection", "fetch-network")
        except urllib3.exceptions.TimeoutError:
            raise _timed_out(url, timeout)
        except urllib3.exceptions.HTTPError as exc:
            raise _fail(f"could not reach {url}: {_reason(exc)}",
                        "check the address and your network connection", "fetch-network")
        try:
            if resp.status in (301, 302, 303, 307, 308):
                url = _redirect_target(url, resp.headers.get("Location", ""), first_private)
                continue
            if resp.status != 200:
                raise _fail(f"the server answered {resp.status} {resp.reason or ''}".rstrip() + f" for {url}",
                            _SHARE_HINT if resp.status in (401, 403, 404) else "try again later, or check the address",
                            "fetch-status")
            ctype = resp.headers.get("Content-Type", "")
            if _media(ctype) == "text/html":
                raise _html(url)
            length = resp.headers.get("Content-Length", "")
            if length.isdigit() and int(length) > max_bytes:
                raise _too_large(url, f"{int(length):,}", max_bytes)
            body = _read(resp, url, deadline, timeout, max_bytes)
            return body, ctype, resp.headers.get("Content-Disposition", ""), url
        finally:
            resp.release_conn()
    raise _fail(f"more than {MAX_REDIRECTS} redirects from {url}", "fetch the address the sheet's page gives",
                "fetch-redirect")


def _read(resp, url: str, deadline: float, timeout: float, max_bytes: int) -> bytes:
    """The body, read a piece at a time so that neither the size nor the time limit can be passed."""
    chunks, size = [], 0
    try:
        while True:
            if time.monotonic() > deadline:
                raise _timed_out(url, timeout)
            piece = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not piece:
                return b"".join(chunks)
            size += len(piece)
            if size > max_bytes:
                raise _too_large(url, f"more than {max_bytes:,}", max_bytes)
            chunks.append(piece)
    except urllib3.exceptions.TimeoutError:
        raise _timed_out(url, timeout)
    except urllib3.exceptions.HTTPError as exc:
        raise _fail(f"the download from {url} broke off: {_reason(exc)}", "try again", "fetch-network")


def _redirect_target(url: str, location: str, first_private: bool) -> str:
    target = urljoin(url, location.strip())
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(f"{url} redirects to {target[:120]!r}, which is not an http(s) address",
                    "fetch only leads to web addresses; ask the sheet's owner for a direct link", "fetch-redirect")
    if urlsplit(url).scheme == "https" and parts.scheme == "http":
        raise _fail(f"{url} redirects from https to plain http ({target[:120]})",
                    "fetch the http address yourself if you trust it", "fetch-redirect")
    if not first_private and _is_private(parts.hostname):
        raise _fail(f"{url} redirects to {parts.hostname}, an address of a private network",
                    "a public sheet never leads into your own network; if you meant that server, "
                    "fetch its address directly", "fetch-redirect")
    return target


def _media(ctype: str) -> str:
    return ctype.split(";")[0].strip().lower()


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None) or exc
    return str(reason).split(": ", 1)[-1][:200]


def _timed_out(url: str, timeout: float) -> CardgenError:
    return _fail(f"{url} did not answer in full within {timeout:g} s; nothing was written",
                 "try again, or give more time with --timeout", "fetch-timeout")


def _too_large(url: str, size: str, max_bytes: int) -> CardgenError:
    return _fail(f"the file at {url} is {size} bytes, more than the {max_bytes:,} a card table may have; "
                 "nothing was written", "check that the address is the card table's", "fetch-too-large")


def _html(url: str) -> CardgenError:
    return _fail(f"{url} gave a web page (HTML), not a card table: probably a sign-in or request-access page; "
                 "nothing was written", _SHARE_HINT, "fetch-html")


def _kind(body: bytes, ctype: str, url: str) -> str:
    """``csv``, ``xlsx`` or ``ods`` from the body and its declared type; raises for anything else."""
    media = _media(ctype)
    head = body[:512].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")):
        raise _html(url)
    if body.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(body)) as z:
                names = set(z.namelist())
                if "mimetype" in names and b"opendocument.spreadsheet" in z.read("mimetype")[:100]:
                    return "ods"
                if "xl/workbook.xml" in names:
                    return "xlsx"
        except (zipfile.BadZipFile, KeyError, OSError):
            pass
        raise _fail(f"{url} gave a zip file that is neither an .xlsx nor an .ods workbook",
                    "fetch the sheet as CSV (Google Sheets: File → Download → Comma-separated values)", "fetch-type")
    if media in (_XLSX_TYPE, _ODS_TYPE):
        raise _fail(f"{url} says it is a workbook ({media}) but is not one", "check the address", "fetch-type")
    if media in _CSV_TYPES or media in ("", "application/octet-stream", "binary/octet-stream"):
        if b"\x00" in body[:4096] and not body.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise _fail(f"{url} gave binary data, not a CSV table", "check the address", "fetch-type")
        return "csv"
    raise _fail(f"{url} gave {media}, not a card table (CSV, .xlsx or .ods)", "check the address", "fetch-type")


def _name_from(disposition: str, url: str) -> str:
    """A file stem from the server's file name, else from the address; ``sheet`` when neither names one."""
    name = ""
    if disposition:  # RFC 6266: filename*=UTF-8''… (RFC 5987) over the plain filename=
        msg = Message()
        msg["Content-Disposition"] = disposition
        given = [v for k, v in msg.get_params(header="content-disposition") or [] if k == "filename"]
        given.sort(key=lambda v: not isinstance(v, tuple))
        name = collapse_rfc2231_value(given[0]) if given else ""
    if not name:
        parts = urlsplit(url)
        last = Path(parts.path).name
        name = last if last not in ("", "export", "edit", "pub", "download") else ""
        if not name and _GOOGLE.match(parts.path):
            name = "sheet-" + _GOOGLE.match(parts.path).group(1)[:8]
    return safe_stem(Path(name).stem if Path(name).suffix.lower() in (".csv", ".tsv", ".xlsx", ".ods", ".txt")
                     else name)


def safe_stem(name: str) -> str:
    """``name`` as a file stem that works on every system: NFC, no separators, control
    characters, quotes or spaces (runs of them and of ``-`` become one ``-``), at most 60 characters; ``sheet``
    when nothing is left."""
    stem = re.sub(r"-{2,}", "-", _NOT_A_NAME.sub("-", unicodedata.normalize("NFC", name))).strip("-.")[:60].strip("-.")
    return stem or "sheet"


def snapshot_path(game_dir: Path, stem: str, kind: str, today: dt.date) -> Path:
    """``game_dir/cards/<stem>-YYYY-MM-DD.<kind>``."""
    return game_dir / FOLDER / f"{safe_stem(stem)}-{today.isoformat()}.{kind}"


def fetch_table(url: str, game_dir: Path | str, name: str | None = None, force: bool = False,
                timeout: float = DEFAULT_TIMEOUT, today: dt.date | None = None,
                max_bytes: int = MAX_CSV_BYTES) -> Fetched:
    """Download ``url`` (:func:`export_url`) and write it as a dated snapshot into the game
    folder ``game_dir`` (:func:`snapshot_path`; ``name``: the stem, else the server's file name).

    Raises:
        UsageError: not an http(s) address, no game folder, a bad ``timeout``.
        CardgenError: the download failed, was too large or slow, was not a table, or the file
            exists (without ``force``); nothing is written then.
    """
    check_url(url)
    game = Path(game_dir)
    if not (game / "game.yaml").is_file():
        raise UsageError(Problem(str(game), None, "", f"{rel(game)} is not a game folder (no game.yaml)",
                                 "run fetch inside the game folder, or name it: cardgen fetch URL GAME_DIR",
                                 code="no-game"))
    if not 0 < timeout <= 600:
        raise UsageError(Problem("--timeout", None, "", f"--timeout {timeout:g} is out of range (more than 0, "
                                 "at most 600 seconds)", code="bad-option"))
    asked = export_url(url.strip())
    today = today or dt.date.today()
    if name is not None:
        _refuse_existing([snapshot_path(game, name, k, today) for k in ("csv", "xlsx", "ods")], force)
    body, ctype, disposition, final = _get(asked, timeout, max_bytes)
    kind = _kind(body, ctype, final)
    dest = snapshot_path(game, name if name is not None else _name_from(disposition, final), kind, today)
    confine(dest.parent, [game.resolve()], "", None, "fetch", what="the folder", regular=False)
    dest.parent.mkdir(exist_ok=True)
    _refuse_existing([dest], force)
    _write(dest, body, force)
    return Fetched(dest, len(body), kind, asked, final)


def _refuse_existing(paths: list[Path], force: bool) -> None:
    for path in paths:
        if path.exists() and not force:
            raise CardgenError(Problem(rel(path), None, "", "the file exists already (a snapshot of today); "
                                       "nothing was written",
                                       "give another --name, or --force to replace it", code="fetch-exists"))


def _write(dest: Path, body: bytes, force: bool) -> None:
    """``body`` into ``dest`` whole (a temporary file renamed into place, the outputs' file mode);
    without ``force`` the name is taken by a hard link, which fails if something appeared there."""
    fd, tmp = tempfile.mkstemp(prefix=".fetch-", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
        as_output(tmp)
        if force:
            os.replace(tmp, dest)
        else:
            try:
                os.link(tmp, dest)
            except FileExistsError:
                _refuse_existing([dest], False)
            except OSError:  # a file system without hard links (FAT, some network shares)
                _refuse_existing([dest], False)
                os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
