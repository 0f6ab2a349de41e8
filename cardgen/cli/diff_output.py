"""The terminal summary of a draft-to-draft diff (``cardgen diff``), printed with rich from the
report data of :func:`cardgen.diff.compare.diff_games` (never recomputed here).

Long lists are shortened (the JSON report and diff.pdf hold everything): at most
:data:`MAX_CARDS` cards per list and :data:`MAX_PARAGRAPHS` rules paragraphs per section, each
paragraph cut to :data:`MAX_TEXT` characters.
"""
from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

MAX_CARDS = 8
MAX_PARAGRAPHS = 4
MAX_TEXT = 70


def _v(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_v(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_v(v) for v in value) + "]"
    return str(value)


def _cut(text: str | None, n: int = MAX_TEXT) -> str:
    """``text`` escaped for rich markup and cut to ``2 × n`` terminal cells."""
    return escape(fit_cells(text or "", 2 * n))


def fit_cells(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` terminal cells (a CJK character takes two), "…" marking a cut."""
    text = text.replace("\n", " ")
    if cell_len(text) <= cells:
        return text
    out, used = [], 1
    for ch in text:
        w = cell_len(ch)
        if used + w > cells:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def window(old: str, new: str, cells: int = 2 * MAX_TEXT, before: int = 8) -> tuple[str, str]:
    """Two versions of a paragraph, each cut to ``cells`` terminal cells around where they first
    differ (``before`` characters of the shared start kept, the rest shown as "…"), so a change
    late in a long paragraph is visible."""
    k = 0
    while k < min(len(old), len(new)) and old[k] == new[k]:
        k += 1
    start = k - before if k > before else 0
    head = "…" if start else ""
    return (head + fit_cells(old[start:], cells - len(head)), head + fit_cells(new[start:], cells - len(head)))


def _arrow(change: dict) -> str:
    return f"{escape(_v(change['old']))} → {escape(_v(change['new']))}"


def _more(items: list, shown: int) -> str:
    return f" … and {len(items) - shown} more" if len(items) > shown else ""


def _values(values: dict) -> str:
    return ", ".join(f"{k} {_v(v)}" for k, v in values.items() if k != "id")


def print_diff(data: dict[str, Any], console: Console | None = None) -> None:
    """Print the summary of the diff report ``data`` (shape: :mod:`cardgen.diff.compare`)."""
    c = console or Console(highlight=False)
    o, n = data["old"], data["new"]
    c.print(f"[bold]{escape(o['title'])} {escape(o['version'])}[/] ({escape(o['path'])}) → "
            f"[bold]{escape(n['title'])} {escape(n['version'])}[/] ({escape(n['path'])})")
    s = data["summary"]
    faces = f"{s['faces_changed']} face{' looks' if s['faces_changed'] == 1 else 's look'} different"
    c.print(f"cards: {s['added']} added, {s['removed']} removed, {s['renamed']} renamed, {s['changed']} changed; "
            f"{faces} ({s['appearance_only']} with the same data)")
    if data["game"]:
        c.print("\n[bold]Game[/]  " + " · ".join(f"{k} {_arrow(ch)}" for k, ch in data["game"].items()))
    _components(c, data["components"])
    _deck_math(c, data["deck_math"])
    _validation(c, data["validation"])
    _design(c, data["design"], data["choices"])
    _rulebook_text(c, data["rules"])
    for ed in data.get("editions", []):
        _edition(c, ed)


def _edition(c: Console, ed: dict) -> None:
    """One edition's changes (:mod:`cardgen.diff.editions`): its translated texts, coverage, rules."""
    t = ed["texts"]
    cov = ed["coverage"]
    moved = cov["old"] != cov["new"]
    if ed["status"] == "same" and not (t["changed"] or t["added"] or t["removed"] or ed["rules"] or moved):
        c.print(f"\n[bold]Edition {escape(ed['id'])}[/]  no change")
        return
    c.print(f"\n[bold]Edition {escape(ed['id'])}[/] ({escape(ed['language'])}, {ed['status']})  "
            f"{len(t['changed'])} translations changed, {len(t['added'])} added, {len(t['removed'])} removed")
    if moved:
        def counts(x):
            return "—" if x is None else f"{x['missing']} missing, {x['stale']} stale, {x['extra']} extra"
        c.print(f"  coverage: {counts(cov['old'])} → {counts(cov['new'])}")
    for x in t["changed"][:MAX_CARDS]:
        c.print(f"  ~ {escape(x['table'])} {escape(x['id'])} {escape(x['field'])}: {_cut(x['old'], 30)} → {_cut(x['new'], 30)}")
    for sign, key in (("+", "added"), ("−", "removed")):
        for x in t[key][:MAX_CARDS]:
            c.print(f"  {sign} {escape(x['table'])} {escape(x['id'])} {escape(x['field'])}: {_cut(x.get('new') or x.get('old'), 40)}")
    if ed["rules"]:
        _rulebook_text(c, {"changes": ed["rules"], "problems": {}})


def _components(c: Console, components: list) -> None:
    rows = []
    for comp in components:
        k = comp["counts"]
        if comp["status"] == "same" and not (k["added"] or k["removed"] or k["changed"] or k.get("faces_changed")):
            continue
        label = escape(comp["name"]) + ("" if comp["status"] in ("same", "changed") else f" ({comp['status']})")
        rows.append((label, str(k["added"]), str(k["removed"]), str(k["renamed"]), str(k["changed"]),
                     str(k.get("faces_changed", 0)), f"{k['pieces']['old']}→{k['pieces']['new']}"))
    if not rows:
        return
    c.print()
    c.print(_table("Cards per component", ("component", "added", "removed", "renamed", "changed", "new look", "pieces"),
                   rows, left=1))
    for comp in components:
        _component(c, comp)


def _component(c: Console, comp: dict) -> None:
    lines = []
    if comp["settings"]:
        lines.append("settings: " + "; ".join(f"{k} {_arrow(ch)}" for k, ch in comp["settings"].items()))
    cols = comp["columns"]
    if comp["status"] == "changed" and (cols["added"] or cols["removed"]):
        lines.append("columns: " + "; ".join(f"{w} {', '.join(cols[w])}" for w in ("added", "removed") if cols[w]))
    for side, t in comp["templates"].items():
        parts = []
        if t["old"] != t["new"]:
            parts.append(f"{t['old'] or '—'} → {t['new'] or '—'}")
        if t.get("background"):
            parts.append(f"background {_arrow(t['background'])}")
        for w in ("added", "removed"):
            if t[w]:
                parts.append(f"boxes {w} {', '.join(t[w])}")
        if t["changed"]:
            parts.append("changed " + ", ".join(f"{k} ({', '.join(p)})" for k, p in t["changed"].items()))
        lines.append(f"{side} template: " + "; ".join(parts))
    for what in ("added", "removed"):
        rows = comp[what]
        if rows:
            shown = rows[:MAX_CARDS]
            lines.append(f"{what}: " + "; ".join(f"{r['id']} ({escape(_values(r['values']))})" for r in shown)
                         + _more(rows, len(shown)))
    if comp["renamed"]:
        lines.append("renamed: " + ", ".join(f"{r['old']} → {r['new']}" for r in comp["renamed"]))
    shown = comp["changed"][:MAX_CARDS]
    for ch in shown:
        lines.append(f"changed {ch['id']}: " + "; ".join(f"{k} {_cut(_v(f['old']), 30)} → {_cut(_v(f['new']), 30)}"
                                                        for k, f in ch["fields"].items()))
    if len(comp["changed"]) > len(shown):
        lines.append(f"… and {len(comp['changed']) - len(shown)} more changed cards")
    faces = comp["faces"]
    look = faces["appearance_only"]
    if look:
        lines.append(f"look different with the same data: {', '.join(look[:MAX_CARDS])}{_more(look, MAX_CARDS)}")
    backs = [f["id"] for f in faces["changed"] if "back" in f["sides"]]
    if backs:
        lines.append(f"back looks different on {len(backs)} card{'s' if len(backs) > 1 else ''}")
    if faces["data_only"]:
        lines.append(f"data changed, face the same: {', '.join(faces['data_only'])}")
    for which, errs in faces.get("errors", {}).items():
        lines += [f"could not lay out the {which} faces: {escape(e)}" for e in errs]
    if lines:
        c.print(f"\n[bold]{escape(comp['name'])}[/] ({comp['id']})")
        for line in lines:
            c.print("  " + line)


def _deck_math(c: Console, rows: list) -> None:
    if not rows or not any(r["changed"] for r in rows):
        return
    cols = ("deck", "removed", "hand", "dead_wall", "draw_pile", "turns", "declared_turns")
    heads = ("players", "deck", "removed", "hand", "dead wall", "draw pile", "turns", "declared", "adds up")
    cells = []
    for r in rows:
        a, b = r["old"] or {}, r["new"] or {}

        def cell(k):
            x, y = a.get(k), b.get(k)
            return _v(y) if x == y else f"{_v(x)}→[bold]{_v(y)}[/]"
        ok = {True: "yes", False: "[red]no[/]", None: "—"}
        cells.append((str(r["players"]), *(cell(k) for k in cols),
                      ok[b.get("ok")] if a.get("ok") == b.get("ok") else f"{ok[a.get('ok')]}→{ok[b.get('ok')]}"))
    c.print()
    c.print(_table("Deck math per player count (old→new)", heads, cells))


def _table(title: str, heads: tuple, rows: list, left: int = 0) -> Table:
    """A rich table whose cells never wrap (each column at least as wide as its widest cell,
    markup aside); headers may wrap. The first ``left`` columns are left-aligned."""
    t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for i, head in enumerate(heads):
        width = max((Text.from_markup(r[i]).cell_len for r in rows), default=1)
        t.add_column(head, justify="left" if i < left else "right", min_width=width)
    for r in rows:
        t.add_row(*r)
    return t


def _validation(c: Console, v: dict) -> None:
    e, w = v["errors"], v["warnings"]
    c.print(f"\n[bold]Validation[/]  errors {e['old']} → {e['new']}, warnings {w['old']} → {w['new']}")
    for what, mark in (("disappeared", "fixed"), ("appeared", "new")):
        for f in v[what]:
            c.print(f"  {mark} {f['severity']}: {escape(f['path'])} → {_cut(f['message'], 110)}")


def _design(c: Console, design: dict, choices: dict) -> None:
    parts = [f"{k} {_arrow(ch)}" for k, ch in design["changed"].items()]
    parts += [f"+ {k} = {escape(_v(v))}" for k, v in design["added"].items()]
    parts += [f"− {k} (was {escape(_v(v))})" for k, v in design["removed"].items()]
    if parts:
        c.print("\n[bold]Design constants[/]")
        for p in parts:
            c.print("  " + p)
    if any(choices.values()):
        c.print("\n[bold]Open questions[/] (game.choices)")
        for ch in choices["added"]:
            c.print(f"  + {escape(ch['what'])}: {_cut(ch['choice'])}")
        for ch in choices["removed"]:
            c.print(f"  − {escape(ch['what'])}")
        for ch in choices["changed"]:
            c.print(f"  ~ {escape(ch['what'])}: {_cut(ch['new'])}")


def _rulebook_text(c: Console, rules: dict) -> None:
    for which, problems in rules["problems"].items():
        for p in problems:
            c.print(f"  the {which} rules could not be rendered: {escape(p)}")
    changes = rules["changes"]
    if not changes:
        return
    counts = {op: sum(1 for x in changes if x["op"] == op) for op in ("changed", "added", "removed")}
    paragraphs = "paragraph" if counts["changed"] == 1 else "paragraphs"
    c.print(f"\n[bold]Rules text[/]  {counts['changed']} {paragraphs} changed, {counts['added']} added, "
            f"{counts['removed']} removed (as printed, with the data's values)")
    sections: dict[str, list] = {}
    for x in changes:
        sections.setdefault(x["section"], []).append(x)
    for section, items in sections.items():
        c.print(f"  [bold]{escape(section or '(before the first heading)')}[/]")
        for x in items[:MAX_PARAGRAPHS]:
            if x["op"] == "changed":
                old, new = window(x["old"], x["new"], max(20, c.width - 7))
                c.print(f"    [red]- {escape(old)}[/]")
                c.print(f"    [green]+ {escape(new)}[/]")
            elif x["op"] == "added":
                c.print(f"    [green]+ {escape(fit_cells(x['new'], max(20, c.width - 7)))}[/]")
            else:
                c.print(f"    [red]- {escape(fit_cells(x['old'], max(20, c.width - 7)))}[/]")
        if len(items) > MAX_PARAGRAPHS:
            c.print(f"    … and {len(items) - MAX_PARAGRAPHS} more in this section")
