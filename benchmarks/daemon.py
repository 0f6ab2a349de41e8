"""A ``cardgen daemon`` for one benchmark (run.py's ``small_deck`` row, validate.py's ``*_daemon``
cases): started in its own temporary ``XDG_RUNTIME_DIR`` (never the user's), stopped after.

The command's own work runs in the daemon's forked child, not in the timed process: the CPU of
a run with the daemon is the client's (``os.wait4``) plus what the daemon and its children used
meanwhile (``/proc/<pid>/stat``: the daemon's utime + stime + cutime + cstime, the children
counted once the daemon has reaped them; the kernel counts in 10 ms ticks).
"""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


class Daemon:
    """``with Daemon(command, env, folder) as d:`` — ``command`` runs cardgen (``[python, -m,
    cardgen]`` or the console script), ``env`` is the environment every timed run uses (the key
    is computed from it); ``d.env`` adds the daemon's ``XDG_RUNTIME_DIR``."""

    def __init__(self, command: list[str], env: dict, folder: Path, cwd: Path):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.command, self.cwd = command, cwd
        self.env = {**env, "XDG_RUNTIME_DIR": str(folder)}
        self.env.pop("CARDGEN_NO_DAEMON", None)
        self.pid = 0

    def __enter__(self) -> Daemon:
        res = subprocess.run([*self.command, "daemon", "start", "--idle", "10"], cwd=self.cwd, env=self.env,
                             capture_output=True, text=True, check=True)
        self.pid = int(next(line.split(":")[1] for line in res.stdout.splitlines() if line.strip().startswith("pid:")))
        return self

    def __exit__(self, *_exc) -> None:
        subprocess.run([*self.command, "daemon", "stop"], cwd=self.cwd, env=self.env, capture_output=True)

    def cpu_s(self) -> float:
        """CPU seconds the daemon and its reaped children have used so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    def served(self) -> int:
        res = subprocess.run([*self.command, "daemon", "status"], cwd=self.cwd, env=self.env, capture_output=True,
                             text=True)
        return int(next(line.split(":")[1].split()[0] for line in res.stdout.splitlines() if "requests served" in line))

    def run(self, args: list[str], cwd: Path | None = None, ok=(0,)) -> tuple[float, float]:
        """One command through the daemon: (wall s, CPU s of the client, the daemon and its child)."""
        cpu0 = self.cpu_s()
        t = time.perf_counter()
        p = subprocess.Popen([*self.command, *args], cwd=cwd or self.cwd, env=self.env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) not in ok:
            raise SystemExit(f"{' '.join(args)} through the daemon failed: status {status}")
        return wall, usage.ru_utime + usage.ru_stime + self.cpu_s() - cpu0
