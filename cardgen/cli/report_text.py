"""What ``cardgen validate`` prints, as text, without click: :func:`report_lines` and :func:`clean`
(re-exported by :mod:`cardgen.cli.output`). The validate check's child formats its report with them."""
from __future__ import annotations


def clean(text: str) -> str:
    """``text`` with every control and invisible character shown as ``U+XXXX`` (newlines and tabs
    kept; :func:`cardgen.core.unicode_text.shown`): a manifest's escape codes reach the terminal as
    text, never as commands, and a zero-width space or variation selector in a message is seen."""
    from cardgen.core.unicode_text import shown  # lazy: +5 ms of imports here (measured); not loaded for --help

    return shown(text)


def report_lines(report) -> list[tuple[bool, str]]:
    """What :func:`cardgen.cli.output.print_report` prints, as ``(to_stderr, text)`` pairs already :func:`clean`
    (the validate check's child sends them to the command)."""
    lines = [(True, p.format()) for p in report.errors + report.warnings]
    if report.player_counts:
        lines.append((False, f"{report.title or report.game} {report.version}: deck math"))
        for pc in report.player_counts:
            mark = "ok" if pc.ok else "MISMATCH"
            derived = "; ".join(f"{k} = {v}" for k, v in pc.derived.items())
            lines.append((False, f"  {pc.players} players: " + "; ".join(x for x in (pc.arithmetic, derived) if x)
                          + (f" (declared {pc.declared_turns})" if pc.declared_turns is not None else "")
                          + f"  [{mark}]"))
    lines.append((False, f"{report.game}: {len(report.errors)} error(s), {len(report.warnings)} warning(s)"))
    return [(err, clean(text)) for err, text in lines]
