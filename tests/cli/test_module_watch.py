"""cli/module_watch.ModuleWatch: the preloaded daemon's guard against old library code."""
from __future__ import annotations

import os

import pytest

from cardgen.cli.module_watch import ModuleWatch, loaded_files


def _files(tmp_path):
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "b.py").write_text("B = 1\n")
    return [str(tmp_path / "a.py"), str(tmp_path / "b.py")]


@pytest.mark.parametrize("inotify", [True, False])
@pytest.mark.parametrize("how", ["write", "touch", "replace", "remove"])
def test_a_change_to_a_watched_file_is_seen(tmp_path, how, inotify):
    files = _files(tmp_path)
    watch = ModuleWatch(files)
    if not inotify:
        watch.close()  # the stamps are compared instead
    assert (watch.fd >= 0) == inotify
    (tmp_path / "other.txt").write_text("a file beside them\n")
    assert not watch.changed()
    target = tmp_path / "b.py"
    if how == "write":
        with open(target, "a") as f:
            f.write("# edited\n")
    elif how == "touch":
        st = target.stat()
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    elif how == "replace":
        (tmp_path / "b.tmp").write_text("B = 1\n")
        os.replace(tmp_path / "b.tmp", target)
    else:
        target.unlink()
    assert watch.changed()
    assert watch.changed()  # stays true
    watch.close()


def test_loaded_files_are_the_modules_files():
    import json

    files = loaded_files()
    assert json.__file__ in files
    assert files == sorted(set(files))
