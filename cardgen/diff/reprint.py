"""Reprint sheets: print sheets of only some cards of a game — those whose face changed since
another draft (a folder or a git revision), or those named — imposed like the full sheets
(bleed, crop marks, each front page followed by its mirrored back page) on as few sheets as
possible: components of the same trim size share sheets. Every copy of a chosen card is printed
(a reprint replaces the cards in the deck). Written to ``OUT/<game>/reprint-sheets.pdf``; the
page labels name the draft and say "reprint 再印刷".
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardgen.core.errors import CardgenError, Problem, UsageError, rel

REPRINT_PDF = "reprint-sheets.pdf"


@dataclass
class ReprintResult:
    """What a reprint wrote: the files, the chosen cards ``(component, id, copies)``, pages."""

    game: str
    files: list[Path] = field(default_factory=list)
    cards: list[tuple[str, str, int]] = field(default_factory=list)
    pages: int = 0
    notes: list[str] = field(default_factory=list)


def changed_faces(data: dict) -> dict[str, list[str]]:
    """Card ids per component whose face is new or looks different in a diff report
    (:mod:`cardgen.diff.compare`): faces changed (front or back) and cards added."""
    out: dict[str, list[str]] = {}
    for comp in data["components"]:
        ids = [f["id"] for f in comp["faces"]["changed"]] + [r["id"] for r in comp["added"]]
        if ids and comp["status"] != "removed":
            out[comp["id"]] = ids
    return out


def named_cards(game, ids: list[str]) -> dict[str, list[str]]:
    """The named card ids per component (an id in two components is chosen in both).

    Raises:
        CardgenError: ids that no printable component has, naming them and a few that exist.
    """
    from cardgen.data.expand import printable_components  # lazy: +251 ms of imports here (measured)

    out: dict[str, list[str]] = {}
    found = set()
    for cid in printable_components(game):
        have = {r.id for r in game.tables.get(cid, [])}
        chosen = [i for i in ids if i in have]
        found |= set(chosen)
        if chosen:
            out[cid] = chosen
    unknown = [i for i in ids if i not in found]
    if unknown:
        known = [r.id for cid in printable_components(game) for r in game.tables.get(cid, [])]
        raise CardgenError(Problem("--cards", None, "", f"no printed card has the id {', '.join(map(repr, unknown))} "
                                   f"in {game.manifest.game.title} ({rel(game.root)})",
                                   "ids are the `id` column of the card tables, e.g. "
                                   + ", ".join(known[:4]) + (" …" if len(known) > 4 else ""), code="unknown-card"))
    return out


def _chosen_plans(plans: dict, chosen: dict[str, list[str]]) -> list:
    """One ComponentPlans per trim size holding the chosen physical cards (every copy), in
    component order; components of one size share it, so they share sheets."""
    from cardgen.steps.component_plans import ComponentPlans  # lazy: +378 ms of imports here (measured)

    groups: dict[tuple[float, float], ComponentPlans] = {}
    for cid, cp in plans.items():
        want = set(chosen.get(cid, ()))
        idx = [i for i, c in enumerate(cp.cards) if c.row.id in want]
        if not idx:
            continue
        key = (round(cp.size_mm[0], 3), round(cp.size_mm[1], 3))
        g = groups.get(key)
        if g is None:
            g = groups[key] = ComponentPlans(cid, cp.name, [], [], [], cp.size_mm)
        elif cp.name not in g.name.split(" + "):
            g.component, g.name = f"{g.component}+{cid}", f"{g.name} + {cp.name}"
        g.cards += [cp.cards[i] for i in idx]
        g.fronts += [cp.fronts[i] for i in idx]
        g.backs += [cp.backs[i] for i in idx]
        g.findings += [f for f in cp.findings if f.card is not None and f.card.card_id in want]
    return list(groups.values())


def reprint_sheets(game_dir: Path | str, out_root: Path | str, options, since: str | None = None,
                   cards: list[str] | None = None, force: bool = False) -> ReprintResult:
    """Write ``out_root/<game id>/reprint-sheets.pdf`` with the cards whose face changed
    ``since`` (a folder holding the older draft, else a git revision of ``game_dir``), or the
    ``cards`` named by id. ``options``: :class:`cardgen.steps.sheets.SheetOptions`.

    Nothing is written when no card is chosen (a note says so).

    Raises:
        UsageError: neither or both of ``since`` and ``cards``.
        CardgenError: ``since`` is neither a folder nor a revision; unknown card ids; validation
            errors (unless ``force``: the sheets carry the DRAFT mark); layout errors on a chosen
            card (unless ``force``); a draft that cannot be read.
    """
    from cardgen.core.atomic import AtomicOutput  # lazy: +12 ms of imports here (measured)
    from cardgen.diff.sources import game_at_revision, is_revision  # lazy: +21 ms of imports here (measured)
    from cardgen.steps.layout_findings import layout_problems  # lazy: +390 ms of imports here (measured)
    from cardgen.steps.sheets import write_sheets  # lazy: +280 ms of imports here (measured)

    if (since is None) == (not cards):
        raise UsageError(Problem("cardgen sheets", None, "", "--only-changed-since and --cards choose the cards of a "
                                 "reprint: give one of them", "e.g. --only-changed-since HEAD~1, or --cards b3-pon,b4-chi",
                                 code="reprint-usage"))
    with ExitStack() as stack:
        if since is not None:
            from cardgen.diff.compare import diff_games
            if Path(since).is_dir():
                old = Path(since)
            elif is_revision(game_dir, since):
                old = stack.enter_context(game_at_revision(game_dir, since))
            else:
                raise CardgenError(Problem("--only-changed-since", None, "", f"{since!r} is neither a folder nor a git "
                                           f"revision of {rel(Path(game_dir).resolve())}",
                                           "give the older draft's game folder, or a commit such as HEAD~1",
                                           code="bad-rev"))
            gd = diff_games(old, game_dir, str(since), str(game_dir))
            faces, report = gd.new, gd.new_report
            chosen = changed_faces(gd.data)
            note = f"reprint 再印刷 · changed since {since}"
        else:
            from cardgen.diff.compare import load_draft
            faces, chk = load_draft(game_dir, str(game_dir), "new", "so nothing can be reprinted")
            report = chk.report
            chosen = named_cards(faces.game, list(dict.fromkeys(cards or [])))
            note = "reprint 再印刷"
        game = faces.game
        result = ReprintResult(game.id)
        for cid, errs in faces.errors.items():
            if cid in chosen:
                raise CardgenError([Problem(game.manifest_file, None, f"components → {cid}", e, code="layout-failed")
                                    for e in errs])
        if report.errors and not force:
            raise CardgenError(report.errors + [Problem(
                game.manifest_file, None, "", f"validation failed with {len(report.errors)} error(s); nothing was written",
                "fix the errors above, or add --force to print the reprint anyway (marked DRAFT)",
                code="validation-failed")])
        plans = _chosen_plans(faces.plans, chosen)
        errors = [p for p in layout_problems(game, plans) if p.severity == "error"]
        if errors and not force:
            raise CardgenError(errors + [Problem(game.manifest_file, None, "", f"{len(errors)} card layout error(s) on "
                                                 "the chosen cards; nothing was written",
                                                 "fix them, or add --force to print a proof", code="layout-failed")])
        for p in plans:
            for c in p.cards:
                entry = (c.component, c.row.id, c.row.quantity)
                if entry not in result.cards:
                    result.cards.append(entry)
        if not plans:
            result.notes.append(f"no card face changed since {since}; nothing written" if since is not None
                                else "no card chosen; nothing written")
            return result
        if report.errors or errors:  # forced: the same per-card DRAFT mark as a full build
            from cardgen.steps.component_plans import mark_draft
            mark_draft(plans, faces.fonts, game.manifest.print.safe)
        options = replace(options, label_note=note, draft=bool(report.errors or errors))
        out_dir = Path(out_root) / game.id
        with AtomicOutput(out_dir) as out:
            result.pages = write_sheets(game, faces.fonts, plans, options, out.path(REPRINT_PDF))
        result.files.append(out_dir / REPRINT_PDF)
        return result
