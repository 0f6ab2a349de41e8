"""What the font helper of this command read (:mod:`cardgen.fonts.helper`), taken where the
font name index and the font parse would read their on-disk caches.

The helper records, while it sets up the game's fonts (:func:`recording`):

- every font file's names by path, with the file's stamp (size, modification and change times,
  inode: :func:`cardgen.core.disk_cache.stamp`) taken before they were read (:func:`record_names`);
- every parsed face in :mod:`cardgen.fonts.parsed_cache`'s stored form under its key (real path,
  face index, stamp, reportlab and Python versions), not when the file's stamp changed while it
  was parsed (:func:`record_parsed`).

The process that checks the game takes them once (:func:`take`, waiting for the helper) and uses
an entry exactly where it would use an on-disk cache entry — only when the file's stamp is still
the one the entry was read under (:func:`cardgen.fonts.index.index_files`,
:func:`cardgen.fonts.parsed_cache.load_ttfont`) — and reads or parses everything else itself.
Nothing here outlives the command, and ``--no-cache`` keeps it (the helper then reads and writes
no cache either). Standard library only.
"""
from __future__ import annotations

#: Seconds the check waits for the helper before going on without it (the helper is killed).
WAIT_S = 60.0

_HELPER: list = []  # in the command and its check child: the running helper (a cardgen.core.beside.Beside)
_TAKEN: dict | None = None  # what the helper sent, once read
#: In the helper: what was read, by :func:`record_names` and :func:`record_parsed`.
_RECORD: dict | None = None


def started(helper) -> None:
    """Keep ``helper`` (a :class:`cardgen.core.beside.Beside` whose value is what :func:`recording`
    recorded, :mod:`cardgen.fonts.helper`) as this command's font helper."""
    _HELPER.append(helper)


def running() -> bool:
    """Whether this command has a font helper (running, or done and not yet stopped)."""
    return bool(_HELPER)


def recording() -> dict:
    """In the helper: start recording what is read (:func:`record_names`, :func:`record_parsed`); → the record."""
    global _RECORD
    _RECORD = {"names": {}, "parsed": {}}
    return _RECORD


def record_names(path: str, entry: list) -> None:
    """In the helper: ``entry`` (``[stamp, faces]``, :mod:`cardgen.fonts.index`) is what font file
    ``path`` holds. Elsewhere a no-op."""
    if _RECORD is not None:
        _RECORD["names"][path] = entry


def record_parsed(key: bytes, payload: bytes) -> None:
    """In the helper: ``payload`` is the stored form of the face parsed under ``key``
    (:mod:`cardgen.fonts.parsed_cache`). Elsewhere a no-op."""
    if _RECORD is not None:
        _RECORD["parsed"][key] = payload


def take() -> dict:
    """What the helper read: ``{"names": {path: [stamp, faces]}, "parsed": {key: payload}}``,
    read once (waiting for the helper, at most :data:`WAIT_S` seconds); empty when no helper
    was started, it failed or it took too long."""
    global _TAKEN
    if _TAKEN is None:
        _TAKEN = {}
        if _HELPER:
            try:
                got = _HELPER[0].result(WAIT_S)
            except Exception:  # noqa: BLE001 - the helper failed (BesideFailed among them): the check does it all itself
                got = None  # (the check's own budget stop, memory error or Ctrl-C go on: not the helper's)
            if isinstance(got, dict) and isinstance(got.get("names"), dict) and isinstance(got.get("parsed"), dict):
                _TAKEN = got
    return _TAKEN


def names() -> dict:
    """The font names the helper read, by file path (``[stamp, faces]`` as in the name cache)."""
    return take().get("names", {})


def parsed(key: bytes) -> bytes | None:
    """The stored form of the face the helper parsed under ``key``, or None."""
    return take().get("parsed", {}).get(key)


def stop() -> None:
    """End the helper (killed if it still runs) and forget it and what it sent. Safe to call at any time."""
    global _TAKEN
    _TAKEN = None
    while _HELPER:
        _HELPER.pop().stop()
