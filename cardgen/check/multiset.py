"""Tile multiset patterns: which concrete hands a pattern stands for, and whether a supply holds them.

Used by design rules (e.g. "every yaku can be formed from the tiles"). A tile is one character.
A pattern is a list of parts separated by spaces or ``+``:

- a literal run, each character one tile, a digit repeating the tile before it:
  ``おまんこ`` (four tiles), ``ち2ん2`` (= ``ちちんん``);
- ``[abc]`` one tile of any kind in the set; ``[abc]2`` two *identical* tiles of one kind
  from the set (a pair);
- ``{w1|w2|w3}`` one word (a run of tiles) of the alternatives; ``{…}2`` the *same* word twice;
  ``{…}!2`` two *different* words.

Example: ``おまんこ [おうまちこ]2`` is OMANKO with a pair of any tile but ん, i.e. the five hands
``おまんこおお``, ``おまんこうう``, … Pure functions, no I/O.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from itertools import combinations, product

_PART = re.compile(r"\[(?P<set>[^\]]+)\](?P<setn>\d*)|\{(?P<alts>[^}]+)\}(?P<dist>!?)(?P<altn>\d*)|(?P<lit>[^\s+\[\]{}]+)")


#: Largest hand (tiles) and largest number of hands one pattern may stand for.
MAX_TILES = 1_000
MAX_HANDS = 100_000


def _count(digits: str) -> int:
    """A repeat count of a pattern (``ち2`` → 2), refused above :data:`MAX_TILES` (ValueError)."""
    if len(digits) > 4 or int(digits) > MAX_TILES:
        raise ValueError(f"the repeat count {digits[:12]} is too large (a hand has at most {MAX_TILES:,} tiles)")
    return int(digits)


def _literal(text: str) -> str:
    out: list[str] = []
    for m in re.finditer(r"(\D)(\d*)", text):
        out.append(m.group(1) * (_count(m.group(2)) if m.group(2) else 1))
    return "".join(out)


def _options(part: re.Match) -> list[str]:
    """Every concrete tile run one pattern part can stand for."""
    if part.group("set") is not None:
        n = _count(part.group("setn") or "1")
        return [ch * n for ch in dict.fromkeys(part.group("set"))]
    if part.group("alts") is not None:
        alts = [_literal(a.strip()) for a in part.group("alts").split("|") if a.strip()]
        n = _count(part.group("altn") or "1")
        if part.group("dist"):
            if math.comb(len(alts), n) > MAX_HANDS:
                raise ValueError(f"{{…}}!{n} over {len(alts)} words stands for more than {MAX_HANDS:,} hands")
            return ["".join(c) for c in combinations(alts, n)]
        return [a * n for a in alts]
    return [_literal(part.group("lit"))]


def hands(pattern: str) -> list[str]:
    """Concrete hands (tile strings) of ``pattern``, one per distinct multiset, in pattern order.

    Raises:
        ValueError: the pattern has text that is not a part (e.g. an unclosed ``[``), or stands for
            hands longer than :data:`MAX_TILES` tiles or more than :data:`MAX_HANDS` hands.
    """
    parts = []
    pos = 0
    text = pattern.strip()
    for m in _PART.finditer(text):
        gap = text[pos:m.start()]
        if gap.strip(" +\t"):
            raise ValueError(f"cannot read {gap!r} in the tile pattern {pattern!r}")
        parts.append(_options(m))
        pos = m.end()
    if text[pos:].strip(" +\t"):
        raise ValueError(f"cannot read {text[pos:]!r} in the tile pattern {pattern!r}")
    total, tiles = 1, 0
    for options in parts:
        total *= len(options)
        tiles += max((len(o) for o in options), default=0)
        if total > MAX_HANDS or tiles > MAX_TILES:
            raise ValueError(f"the tile pattern {pattern[:40]!r} stands for too many or too long hands "
                             f"(at most {MAX_HANDS:,} hands of {MAX_TILES:,} tiles)")
    seen: set[tuple] = set()
    out = []
    for combo in product(*parts):
        hand = "".join(combo)
        key = tuple(sorted(Counter(hand).items()))
        if key not in seen:
            seen.add(key)
            out.append(hand)
    return out


def shortfall(hand: str, supply: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Tiles the hand needs more of than the supply has: tile → (needed, available)."""
    return {t: (n, supply.get(t, 0)) for t, n in Counter(hand).items() if n > supply.get(t, 0)}


def unformable(pattern: str, supply: dict[str, int]) -> list[str]:
    """Hands of ``pattern`` the supply cannot form, each described, e.g. ``おまんこおお (お × 3 needed, 2 exist)``."""
    out = []
    for hand in hands(pattern):
        short = shortfall(hand, supply)
        if short:
            why = ", ".join(f"{t} × {n} needed, {have} exist" for t, (n, have) in short.items())
            out.append(f"{hand} ({why})")
    return out


def any_fits(pattern: str, supply: dict[str, int]) -> bool:
    """True when at least one hand of ``pattern`` can be formed from ``supply``."""
    return any(not shortfall(h, supply) for h in hands(pattern))


def _key(hand: str) -> tuple:
    return tuple(sorted(Counter(hand).items()))


def unscored(shapes: dict, yaku: list) -> list[str]:
    """Hands of the listed winning ``shapes`` that no base yaku scores, each with the reason.

    ``shapes``: name → tile pattern (the shapes the rules list as winning, e.g.
    ``{"3文字＋3文字": "{うんち|うんこ} {うんち|うんこ}"}``). ``yaku``: rows with ``name``,
    ``tiles`` (a pattern; empty for a yaku without a shape) and ``bonus`` (a bonus yaku cannot win
    alone). Returns e.g. ``["3文字＋3文字: うんこうんこ — only the bonus yaku Double word fits, and a
    bonus yaku cannot win alone"]``; [] when every hand of every shape scores a base yaku.

    Raises:
        ValueError: a pattern that cannot be read.
    """
    base: set = set()
    bonus: dict = {}
    for y in yaku:
        if not y.get("tiles"):
            continue
        keys = {_key(h) for h in hands(y["tiles"])}
        if y.get("bonus"):
            for k in keys:
                bonus.setdefault(k, []).append(str(y["name"]))
        else:
            base |= keys
    out = []
    for name, pattern in shapes.items():
        for hand in hands(pattern):
            k = _key(hand)
            if k in base:
                continue
            if k in bonus:
                why = f"only the bonus yaku {' / '.join(bonus[k])} fits, and a bonus yaku cannot win alone"
            else:
                why = "no yaku fits"
            out.append(f"{name}: {hand} — {why}")
    return out


def base_yaku_of(hand: str, yaku: list) -> list[str]:
    """Names of the base (not bonus) yaku whose tiles ``hand`` forms exactly, e.g.
    ``base_yaku_of("うんちうんち", rows)`` → ``["CHINCHIN"]`` (ちちんん＋うう); [] when only bonus
    yaku, or none, fit. ``yaku``: rows with ``name``, ``tiles``, ``bonus`` (as :func:`unscored`).

    Raises:
        ValueError: a pattern that cannot be read.
    """
    key = _key(hand)
    return [str(y.get("name")) for y in yaku
            if y.get("tiles") and not y.get("bonus") and key in {_key(h) for h in hands(y["tiles"])}]
