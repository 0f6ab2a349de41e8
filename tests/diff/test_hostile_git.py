"""A game folder that ships its own hostile ``.git/``: ``cardgen diff --rev`` and
``cardgen sheets --only-changed-since`` read the game at a revision without running anything the
repository's configuration, hooks or ``.gitattributes`` name (smudge/clean filter, textconv diff
driver, fsmonitor, hooks, pager); a link in the committed tree that leads out is refused by name."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.commands import cli
from cardgen.data.new_game import new_game
from tests.conftest import git, needs_fonts, replace_in

pytestmark = [needs_fonts, pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")]


def _arm(repo: Path, marker: Path) -> None:
    """Every door git opens to a configured command, each touching ``marker`` (a file named after the door)."""
    def cmd(door: str) -> str:
        script = repo / ".git" / f"door-{door}.sh"
        script.write_text(f"#!/bin/sh\ntouch {marker}-{door}\ncat\n")
        script.chmod(0o755)
        return str(script)
    hooks = repo / ".git" / "evil-hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "pre-commit", "post-index-change", "reference-transaction", "fsmonitor-watchman"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marker}-hook-{hook}\n")
        (hooks / hook).chmod(0o755)
        shutil.copy(hooks / hook, repo / ".git" / "hooks" / hook)
    fsmonitor = repo / ".git" / "fsmonitor.sh"
    fsmonitor.write_text(f"#!/bin/sh\ntouch {marker}-fsmonitor\n")
    fsmonitor.chmod(0o755)
    with (repo / ".git" / "config").open("a") as f:
        f.write(f"[filter \"pwn\"]\n\tsmudge = {cmd('smudge')}\n\tclean = {cmd('clean')}\n\trequired = true\n"
                f"[diff \"pwn\"]\n\ttextconv = {cmd('textconv')}\n\tcommand = {cmd('diffcmd')}\n"
                f"[core]\n\tfsmonitor = {fsmonitor}\n\thooksPath = {hooks}\n\tpager = {cmd('pager')}\n"
                f"\tsshCommand = {cmd('ssh')}\n\talternateRefsCommand = {cmd('altrefs')}\n"
                f"[uploadArchive]\n\tallowUnreachable = true\n[tar \"tar\"]\n\tcommand = {cmd('tarcmd')}\n")


def _hostile_game(tmp_path: Path, where: str) -> tuple[Path, Path]:
    """A game whose folder is its repository (``where="own"``), or a folder sent with the game
    holding the repository and the game in ``g/`` (``"sub"``)."""
    repo = tmp_path / "pack" if where == "sub" else tmp_path / "g"
    game = repo / "g" if where == "sub" else repo
    new_game(game)
    # committed before the filter is defined (an undefined filter is no filter), so both revisions carry it
    (repo / ".gitattributes").write_text("* filter=pwn diff=pwn export-subst\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "draft 1")
    replace_in(game / "cards.csv", "n2,2,4", "n2,5,4")
    git(repo, "commit", "-q", "-am", "n2 is a 5")
    marker = tmp_path / "pwned"
    _arm(repo, marker)
    return game, marker


def _traces(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.glob("pwned-*"))


@pytest.mark.parametrize("where", ["own", "sub"])
def test_diff_rev_and_reprint_run_nothing_the_games_git_configures(tmp_path, monkeypatch, where):
    game, marker = _hostile_game(tmp_path, where)
    monkeypatch.chdir(game.parent)
    # the trap is armed: plain git in this repository runs the configured commands
    subprocess.run(["git", "-c", "core.fsmonitor=false", "archive", "--format=tar", "HEAD"], cwd=game,
                   capture_output=True, env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null"})
    for ext in ("--ext-diff", "--no-ext-diff"):
        subprocess.run(["git", "diff", ext, "HEAD~1", "--", "cards.csv"], cwd=game, capture_output=True,
                       env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null"})
    assert {"pwned-smudge", "pwned-clean", "pwned-fsmonitor", "pwned-diffcmd", "pwned-textconv"} <= set(_traces(tmp_path))
    for p in tmp_path.glob("pwned-*"):
        p.unlink()

    res = CliRunner().invoke(cli, ["diff", "g", "--rev", "HEAD~1", "--format", "json", "--out", "out"])
    assert res.exit_code == 0, res.output
    assert '"number": {\n' in res.stdout and (game.parent / "out" / "g" / "diff.pdf").is_file()
    assert _traces(tmp_path) == []

    replace_in(game / "cards.csv", "n3,3,4", "n3,6,4")  # a change since HEAD to reprint
    res = CliRunner().invoke(cli, ["sheets", "g", "--only-changed-since", "HEAD~1", "--out", "out2", "--force"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("reprint: 8 cards (cards n2 ×4, cards n3 ×4)"), res.stdout
    assert _traces(tmp_path) == []
    assert not marker.exists()


@pytest.mark.parametrize("target", ["../secret.txt", "/abs"])
def test_a_link_in_the_committed_tree_that_leads_out_is_refused_by_name(tmp_path, monkeypatch, target):
    repo = tmp_path / "pack"
    game = repo / "g"
    new_game(game)
    (repo / "secret.txt").write_text("id,copies\nsecret,1\n")
    git(repo, "init", "-q", "-b", "main")
    (game / "cards.csv").rename(game / "cards-real.csv")
    os.symlink(str(repo / "secret.txt") if target == "/abs" else target, game / "cards.csv")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a link")
    monkeypatch.chdir(repo)

    res = CliRunner().invoke(cli, ["diff", "g", "--rev", "HEAD", "--no-pdf"])
    assert res.exit_code == 1, res.output
    assert res.stderr == ("g/cards.csv: error: --rev → the file 'cards.csv' at HEAD is a link leading outside the "
                          "game folder\n    hint: commit the file itself instead of a link (links that leave the "
                          "game folder are refused; docs/security.md)\n")


# --- object stores outside the game folder (issue 28) ------------------------------------------

def _private_repo(tmp_path: Path) -> tuple[Path, str]:
    """A repository outside the game folder (the designer's own, say) whose one commit holds a
    game with a secret card; returns its .git folder and the commit's id."""
    private = tmp_path / "private"
    new_game(private)
    replace_in(private / "cards.csv", "n2,2,4", "secretcard,2,4")
    git(private, "init", "-q", "-b", "main")
    git(private, "add", ".")
    git(private, "commit", "-q", "-m", "private")
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=private, capture_output=True, text=True,
                         check=True).stdout.strip()
    return private / ".git", sha


def _own_repo_game(tmp_path: Path) -> Path:
    game = tmp_path / "g"
    new_game(game)
    git(game, "init", "-q", "-b", "main")
    git(game, "add", ".")
    git(game, "commit", "-q", "-m", "draft 1")
    return game


def _point_out(game: Path, private_git: Path, how: str) -> str:
    """Make the game's own repository reach ``private_git`` in the way ``how``; returns the file
    the message must name (relative to the game's parent)."""
    dotgit = game / ".git"
    if how == "alternates":
        (dotgit / "objects" / "info" / "alternates").write_text(f"{private_git / 'objects'}\n")
        return "g/.git/objects/info/alternates"
    if how == "alternates-relative":
        (dotgit / "objects" / "info" / "alternates").write_text("../../../private/.git/objects\n")
        return "g/.git/objects/info/alternates"
    if how == "alternates-nested":  # an alternate inside the game folder whose own alternates lead out
        inner = game / "store"
        (inner / "info").mkdir(parents=True)
        (inner / "info" / "alternates").write_text(f"# borrowed\n{private_git / 'objects'}\n")
        (dotgit / "objects" / "info" / "alternates").write_text("../../store\n")
        return "g/store/info/alternates"
    if how == "objects-link":
        shutil.rmtree(dotgit / "objects")
        (dotgit / "objects").symlink_to(private_git / "objects")
        return "g/.git/objects"
    if how == "commondir":
        (dotgit / "commondir").write_text("../../private/.git\n")
        return "g/.git/commondir"
    shutil.rmtree(dotgit)
    if how == "gitdir-file":
        dotgit.write_text(f"gitdir: {private_git}\n")
    else:  # "git-link"
        dotgit.symlink_to(private_git)
    return "g/.git"


@pytest.mark.parametrize("how", ["alternates", "alternates-relative", "alternates-nested", "objects-link",
                                 "commondir", "gitdir-file", "git-link"])
def test_a_repository_reading_objects_from_outside_the_game_is_refused(tmp_path, monkeypatch, how):
    """A game's own repository that reaches another repository's objects (dulwich follows
    alternates, gitdir:, commondir and links as git does): on main `diff --rev <id>` read the other
    repository's commit and showed its secret card; now refused by name, nothing read."""
    private_git, sha = _private_repo(tmp_path)
    game = _own_repo_game(tmp_path)
    named = _point_out(game, private_git, how)
    monkeypatch.chdir(tmp_path)

    res = CliRunner().invoke(cli, ["diff", "g", "--rev", sha, "--format", "json", "--no-pdf"])
    assert res.exit_code == 1, res.output
    assert "secretcard" not in res.output
    assert res.stderr.startswith(f"{named}: error: --rev → "), res.stderr
    assert "outside the game folder" in res.stderr and "hint: " in res.stderr and "Traceback" not in res.stderr

    res = CliRunner().invoke(cli, ["sheets", "g", "--only-changed-since", sha, "--out", "out", "--force"])
    assert res.exit_code == 1 and res.stderr.startswith(f"{named}: error: --rev → "), res.output
    assert not (tmp_path / "out").exists()


def test_alternates_message_in_full(tmp_path, monkeypatch):
    private_git, sha = _private_repo(tmp_path)
    game = _own_repo_game(tmp_path)
    _point_out(game, private_git, "alternates-relative")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["diff", "g", "--rev", sha, "--no-pdf"])
    assert res.stderr == ("g/.git/objects/info/alternates: error: --rev → the repository's alternates borrow objects "
                          "from '../../../private/.git/objects', outside the game folder\n    hint: a game's history is "
                          "read only from inside its folder: in your own repository, `git repack -a -d` copies the "
                          "borrowed objects in; then delete this file (docs/security.md)\n")


def test_http_alternates_are_not_read(tmp_path, monkeypatch):
    """objects/info/http-alternates is read only by a dumb-HTTP client: naming the private store
    there reaches nothing (the commit is simply not in this repository). Passes on main too: a pin."""
    private_git, sha = _private_repo(tmp_path)
    game = _own_repo_game(tmp_path)
    (game / ".git" / "objects" / "info" / "http-alternates").write_text(f"file://{private_git / 'objects'}\n"
                                                                         f"{private_git / 'objects'}\n")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["diff", "g", "--rev", sha, "--no-pdf"])
    assert res.exit_code == 1 and "secretcard" not in res.output
    assert f"the revision {sha!r} does not exist in g" in res.stderr


def test_alternates_inside_the_game_folder_are_followed(tmp_path, monkeypatch):
    """Borrowing from a store inside the game folder is fine (git clone --shared within the folder)."""
    game = _own_repo_game(tmp_path)
    shutil.copytree(game / ".git" / "objects", game / "store")
    shutil.rmtree(game / ".git" / "objects")
    (game / ".git" / "objects" / "info").mkdir(parents=True)
    (game / ".git" / "objects" / "pack").mkdir()
    (game / ".git" / "objects" / "info" / "alternates").write_text(f"{game / 'store'}\n")
    replace_in(game / "cards.csv", "n2,2,4", "n2,5,4")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["diff", "g", "--rev", "HEAD", "--format", "json", "--no-pdf"])
    assert res.exit_code == 0, res.output
    assert '"number": {\n' in res.stdout
