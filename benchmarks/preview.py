"""Benchmark of `cardgen serve` (issue 15's speed goals; not a timed test).

    .venv/bin/python benchmarks/preview.py                 # 天雀牌 and the generated 1,000-card deck
    .venv/bin/python benchmarks/preview.py --saves 5 --screenshot docs/preview.png

Goals: save of one CSV cell → the updated card image shown in the page, median ≤ 0.3 s on 天雀牌
and on the generated 1,000-card deck; a template edit touching every card of one component
(the 15 character cards of 天雀牌) ≤ 1 s; first page load of 天雀牌 ≤ 2 s from `cardgen serve` start.

Clocks (a real `cardgen serve` process and Debian's headless chromium, tests/browser.py):
- first load: from starting the `cardgen serve` process (interpreter start-up included) to the
  moment every card image of the page has loaded in the browser (already running; the page is
  opened as soon as the server prints its address). `first_load_server_cpu_s`: the server's CPU
  seconds until then, its rebuild children included.
- cell save: from just before the CSV file is written to the browser's `load` event of the new
  image of that card (both clocks are the machine's wall clock, `time.time()` / `Date.now()`).
  Saves alternate between two values, 2.5 s apart, so each is a separate rebuild.
  `checked_median`: from the same write to the moment the page's state says the check of that
  save is complete (the problem list is this save's: `checking` false), polled every 10 ms.
  `server_cpu_median`: CPU seconds the `cardgen serve` process and its rebuild child (running
  or ended) spent from the save to the new image (what the save costs on a free core; the wall time on a loaded
  machine also waits for a core).
- template edit: from the write of the shared templates/cards/character.yaml the game names
  (`shared/character`), in a copy of the project (templates/, fonts/, card_data/tenjanpai in a
  temporary folder, named the project root with CARDGEN_PROJECT), to the load of the last of the
  15 new character fronts.
Each result records how busy the whole machine was meanwhile (`machine_busy_cores`, /proc/stat:
every process, this benchmark's server and chromium included, of 2 cores) and the 1-minute load
average at the end (`loadavg_1min`: other agents' work shows there). Writes the `preview` key of benchmarks/results.json (others kept).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from run import _busy_ticks  # noqa: E402

from tests.browser import chromium, serving  # noqa: E402
from tests.card_rows import edit_row  # noqa: E402

#: In the page: record when each card image finishes loading (wall clock, ms) by its key.
WATCH_LOADS = """
window.__loads = window.__loads || {};
if (!window.__observer) {
  window.__observer = true;
  document.addEventListener('load', (ev) => {
    const i = ev.target; if (i.tagName === 'IMG' && i.dataset.key) window.__loads[i.id + '|' + i.dataset.key] = Date.now();
  }, true);
}
"""


#: In the page: whether the server's state shows face ``key`` for the card with the check complete.
CHECKED = """
return fetch('/api/state').then(r => r.json()).then(s => !s.checking && (s.components || []).some(c => c.id === arguments[0]
  && c.cards.some(x => x.id === arguments[1] && x.front === arguments[2])));
"""


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid``, of its children it has waited for, and of
    its children still running (a rebuild child goes on checking after it sent the new faces),
    from /proc/<pid>/stat."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # a child that ended meanwhile: counted in its parent's figures once waited for
        return 0.0
    own = sum(int(v) for v in f[11:15]) / os.sysconf("SC_CLK_TCK")
    children = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children.update(int(c) for c in task.read_text().split())
        except OSError:
            pass
    return own + sum(_cpu_s(c) for c in children)


def _key(driver, img_id: str):
    return driver.execute_script("const i = document.getElementById(arguments[0]); return i && i.complete && "
                                 "i.naturalWidth > 0 ? i.dataset.key : null", img_id)


def _all_loaded(driver) -> bool:
    return driver.execute_script("const imgs = [...document.querySelectorAll('#components img')].filter(i => i.dataset.key);"
                                 "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0)")


def _wait(cond, timeout: float = 60.0, step: float = 0.01):
    end = time.time() + timeout
    while time.time() < end:
        got = cond()
        if got:
            return got
        time.sleep(step)
    raise TimeoutError("the page did not update in time")


def _load_time(driver, img_id: str, key: str) -> float:
    return _wait(lambda: driver.execute_script("return window.__loads[arguments[0]]", f"{img_id}|{key}")) / 1000


def measure_game(game: Path, card: tuple[str, str, str, tuple[str, str]], saves: int,
                 template: tuple[str, Path] | None = None, screenshot: Path | None = None) -> dict:
    """First load, cell saves (``card``: csv file, card id, column, two values) and a template edit
    (``template``: the component and the template file its fronts are drawn from)."""
    csv_name, card_id, column, values = card
    comp = None
    out: dict = {}
    busy0, t0 = _busy_ticks(), time.time()
    with chromium() as driver, serving(game) as (url, ready_s, pid):  # the browser is up before the clock starts
        start = time.time() - ready_s
        driver.get(url)
        _wait(lambda: _all_loaded(driver))
        out["first_load_s"] = round(time.time() - start, 3)
        out["first_load_server_cpu_s"] = round(_cpu_s(pid), 3)
        out["server_ready_s"] = round(ready_s, 3)
        out["cards_on_page"] = driver.execute_script("return document.querySelectorAll('#components .card').length")
        if screenshot is not None:  # the page as it first comes up, once the rulebook pages are in too
            _wait(lambda: driver.execute_script("return document.querySelectorAll('#rulebook-pages img').length > 0"))
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(screenshot))
        driver.execute_script(WATCH_LOADS)
        state = driver.execute_script("return fetch('/api/state').then(r => r.json())")
        comp = next(c["id"] for c in state["components"] if any(x["id"] == card_id for x in c["cards"]))
        img_id = f"img-{comp}-{card_id}-front"
        times, cpu, checked = [], [], []
        for i in range(saves):
            old = _key(driver, img_id)
            cpu0 = _cpu_s(pid)
            before = time.time()
            edit_row(game / csv_name, card_id, **{column: values[(i + 1) % 2]})  # values[0] is the one on disk first
            new = _wait(lambda: (k := _key(driver, img_id)) != old and k)
            times.append(_load_time(driver, img_id, new) - before)
            cpu.append(_cpu_s(pid) - cpu0)  # the server's and its rebuild's CPU up to the new image
            _wait(lambda: driver.execute_script(CHECKED, comp, card_id, new))
            checked.append(time.time() - before)
            time.sleep(2.5)  # the pages follow after a quiet moment: let them finish before the next save
        out["cell_save_s"] = {"median": round(statistics.median(times), 3), "min": round(min(times), 3),
                              "max": round(max(times), 3), "runs": [round(t, 3) for t in times],
                              "server_cpu_median": round(statistics.median(cpu), 3),
                              "checked_median": round(statistics.median(checked), 3)}
        if template:
            template_component, tfile = template
            state = driver.execute_script("return fetch('/api/state').then(r => r.json())")
            cards = next(c for c in state["components"] if c["id"] == template_component)["cards"]
            ids = [f"img-{template_component}-{c['id']}-front" for c in cards]
            olds = {i: _key(driver, i) for i in ids}
            text = tfile.read_text(encoding="utf-8")
            assert 'background: "#fbf7ee"' in text, f"the edit would change nothing in {tfile}"
            before = time.time()
            tfile.write_text(text.replace('background: "#fbf7ee"', 'background: "#f4efe2"'), encoding="utf-8")
            try:
                news = {i: _wait(lambda i=i: (k := _key(driver, i)) != olds[i] and k) for i in ids}
            except TimeoutError:  # recorded, so the figures of the cell saves above are not lost with it
                unchanged = [i for i in ids if _key(driver, i) == olds[i]]
                out["template_edit_s"] = f"{len(unchanged)} of {len(ids)} fronts not redrawn within 60 s"
            else:
                out["template_edit_s"] = round(max(_load_time(driver, i, k) for i, k in news.items()) - before, 3)
            out["template_edit_cards"] = len(ids)
            tfile.write_text(text, encoding="utf-8")
            time.sleep(2)
    wall = time.time() - t0
    out["machine_busy_cores"] = round(max(0.0, (_busy_ticks() - busy0) / os.sysconf("SC_CLK_TCK") / wall), 2)
    out["loadavg_1min"] = round(os.getloadavg()[0], 2)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--saves", type=int, default=9, help="CSV saves per game (median reported)")
    ap.add_argument("--size", type=int, default=1000, help="cards in the generated deck")
    ap.add_argument("--screenshot", type=Path, default=None, help="save a screenshot of the 天雀牌 page here (PNG)")
    ap.add_argument("--bundled-only", action="store_true", help="天雀牌 only (no generated deck)")
    ap.add_argument("--no-save", action="store_true", help="print only, do not write benchmarks/results.json")
    args = ap.parse_args(argv)
    from gen import make_game

    res: dict = {"command": "python benchmarks/preview.py " + " ".join(argv if argv is not None else sys.argv[1:])}
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-preview-") as tmp:
        proj = Path(tmp) / "project"  # a copy of the project, so the shared template's edit stays in tmp
        for sub in ("templates", "fonts"):
            shutil.copytree(ROOT / sub, proj / sub)
        tj = shutil.copytree(ROOT / "card_data" / "tenjanpai", proj / "card_data" / "tenjanpai")
        os.environ["CARDGEN_PROJECT"] = str(proj)  # the server's project root: the game's shared/NAME is read there
        try:
            res["tenjanpai"] = measure_game(tj, ("battle.csv", "b3-none", "number", ("3", "4")), args.saves,
                                            ("characters", proj / "templates" / "cards" / "character.yaml"),
                                            args.screenshot)
        finally:
            del os.environ["CARDGEN_PROJECT"]
        print("天雀牌:", json.dumps(res["tenjanpai"], ensure_ascii=False), flush=True)
        if args.bundled_only:
            return _save(res, args)
        gen = make_game(Path(tmp) / f"g{args.size}", args.size)
        res[f"generated-{args.size}"] = measure_game(gen, ("characters.csv", "g00500", "name", ("李紅蓮", "楊雪蘭")),
                                                    args.saves)
        print(f"generated-{args.size}:", json.dumps(res[f"generated-{args.size}"], ensure_ascii=False), flush=True)
    return _save(res, args)


def _save(res: dict, args) -> int:
    """Write ``res`` as the ``preview`` key of benchmarks/results.json (unless ``--no-save``)."""
    if not args.no_save:
        path = HERE / "results.json"
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        data["preview"] = res
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
