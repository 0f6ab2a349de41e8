"""The manifest's ``insight.model``: one round of a draw–discard game described as data, for
``cardgen simulate`` (the vocabulary is documented in docs/insight-model.md; the interpreter is
:mod:`cardgen.insight.model_round`).

Conditions and amounts are small expressions in a fixed vocabulary (``river.sum >= 20 and
chips >= 1``), read by :mod:`cardgen.insight.model_expr` — never run as Python.
"""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class ModelTsumo(_Strict):
    """Winning on one's own turn (ツモ, or the game's own name)."""

    name: str = Field("tsumo", description="What the game calls this win, e.g. `ツモ和了`; reports use it.")
    after: Literal["draw", "play"] = Field("draw", description="When it is tested: `draw` (the drawn card is in the hand, `card` is it) or `play` (`card` is the card being played, not yet in the river; `gain` is already added to `chips`).")
    when: str = Field(description="Condition, e.g. `wins()` (the hand forms a pattern of the yaku table) or `river.sum + card.number >= design.tsumo_threshold and chips >= 1 and not in_river(card.kind)`.")
    points: str = Field("1", description="Points of the win, e.g. `pattern_points()`, `chips`, `card.number`.")
    any_card: bool = Field(False, description="With `after: draw`: the win may be declared with any card of the hand as `card` (the card the player shows, e.g. 天雀牌's 和了牌); greedy declares the one with the most points, random a random one.")


class ModelCall(_Strict):
    """A call on another player's discard (ロン, or the game's own): tested for every other
    player in turn order after each discard; the first who may, calls."""

    name: str = Field("ron", description="What the game calls it, e.g. `ロン和了`; reports use it.")
    holding: str | None = Field(None, description="A card column (true or above 0) the caller must hold a card with, e.g. `ron` (ロンカード); the condition then sees that card as `held` and is tried for each such card.")
    when: str = Field(description="Condition; `discard` is the discarded card, `river`/`chips` the caller's, e.g. `wins() and not discarded(discard.kind)` (the hand plus the discard forms a pattern; not a kind the caller discarded before) or `chips - held.chip_cost >= 1 and discard.number > held.number`.")
    points: str = Field("1", description="Points of the win, e.g. `pattern_points()` or `chips - held.chip_cost`.")
    face_down: bool = Field(False, description="A face-down discard can be called too.")


class ModelTake(_Strict):
    """After a play that no call won: the player who played may take one face-up card (not one
    already taken sideways) from another player's river and lay it sideways at the right end of
    their own river (天雀牌's ポン／チー). Tested for every such card as `target`."""

    name: str = Field("take", description="What the game calls it, e.g. `ポン`; reports use it.")
    when: str = Field(description="Condition; `discard` is the card just played, `down` whether face down, `target` the card in the other river, `chips` the player's, e.g. `not down and discard.pon > 0 and target.number == discard.number and chips >= discard.power`.")
    cost: str = Field("0", description="Chips the player pays, e.g. `discard.power`.")
    in_river: str = Field("true", description="Whether the sideways card counts for `in_river()` as a face-up card does (an expression of `option.X` and `design.X`).")


class ModelMelds(_Strict):
    """The mahjong win test `melds()`: the hand (with the discard, in a call) splits into `sets`
    sets — three of one kind, or three consecutive numbers of one suit above 0 — and one pair."""

    suit: str = Field("suit", description="Column of the suit (0: honours, which form no runs).")
    number: str = Field("number", description="Column of the number within the suit.")
    sets: int = Field(4, ge=0, le=8, description="Sets besides the pair, e.g. 4 (a 14-tile hand).")


class GameModel(_Strict):
    """One round of the game, as ``cardgen simulate`` plays it: seats in turn order from the
    dealer (seat 1), the hands and dead wall of `setup.player_counts`, then turns of draw, play
    (to the player's river, face up or face down), the own-turn win test and the calls, until a
    win or the end of the wall (or the turn limit)."""

    name: str = Field(description="The model's name, printed in every report (e.g. `NKO麻雀 ver21.6.13: ツモ・ロン`).")
    description: str = Field("", description="What the model leaves out of the rules (skills, carry-over…), printed with the report.")
    deck: list[dict[str, Union[int, str, list[int]]]] = Field(default_factory=list, description="The model's own tiles when the game prints none (馬将's ordinary mahjong set): rows of columns and `count` (copies); a column written `[a, b]` runs from a to b, and several such columns in one row run together (`{kind: [1, 9], suit: 1, number: [1, 9], count: 4}`: nine kinds). Without it the setup deck is dealt.")
    hand: int | None = Field(None, ge=1, le=60, description="With `deck`: cards dealt to each player (else setup.player_counts' `hand`).")
    dead_wall: int = Field(0, ge=0, description="With `deck`: cards set aside, never drawn.")
    kind: str = Field(description="Card column that makes two cards the same kind (`number`, `kana`): patterns, `in_river`, `discarded` compare kinds.")
    value: str | None = Field(None, description="Card column (whole numbers) a face-up card adds to its river (`river.sum`, `river.last`); none: rivers count 0.")
    columns: list[str] = Field(default_factory=list, description="Other card columns the expressions read as `card.X`, `held.X`, `discard.X` (whole numbers or true/false).")
    melds: ModelMelds | None = Field(None, description="The mahjong win test `melds()` (sets and a pair) and the greedy policy's default (keep tiles that pair or run).")
    wins_per_round: str = Field("1", description="Wins before the round ends (an expression of `players`, `option.X`, `design.X`, e.g. `players - 1`). With more than one, the winner's turn goes on: they play a card face down (after a call they first take the discard into their hand), then the next seat plays; `won` counts a player's wins this round.")
    patterns: str | None = Field(None, description="Component id of a yaku table (`tiles` in the tile-pattern notation, `points`, `bonus`): `wins()` is true when the hand forms the tiles of a base (not bonus) yaku, `pattern_points()` the best such yaku's points.")
    turns: str = Field("0", description="Turns per player (an expression of `players`, `option.X`, `design.X`; 0: until the wall runs dry).")
    gain: str = Field("0", description="Chips a play earns, before the card joins the river (e.g. `river.count > 0 and card.number > river.last`).")
    face_down: str = Field("false", description="When a card is played face down (counts 0 in the river), e.g. `option.twos_down and card.number == 2`.")
    choose_face: bool = Field(False, description="The player chooses to play face up or face down (天雀牌): random plays face down with even odds; greedy plays its `greedy` card face up unless `face_down` (read for that card) holds, and then plays the card with the highest `greedy_down` face down. Without it, `face_down` is a rule for every policy.")
    greedy_down: str | None = Field(None, description="With `choose_face`: which card greedy plays face down (the highest value; default: the `greedy` card).")
    tsumo: ModelTsumo | None = Field(None, description="The own-turn win.")
    calls: list[ModelCall] = Field(default_factory=list, description="Calls on a discard, in priority order.")
    takes: list[ModelTake] = Field(default_factory=list, description="Cards taken from other rivers after a play (ポン／チー), in priority order; one a play at most.")
    greedy: str | None = Field(None, description="The greedy policy's choice of play: the hand card with the highest value of this expression (ties: the first). Default: with `patterns`, the card whose loss keeps the hand closest to a pattern; else the highest `value`.")
    priority: list[Union[str, int]] = Field(default_factory=list, description="The `priority` policy: kinds to play first, in this order (kinds not listed come after, as `greedy` chooses).")
    options: dict[str, int] = Field(default_factory=dict, description="The model's open questions as whole numbers (true/false as 1/0) with this build's answer; expressions read `option.X`; `cardgen simulate --option X=N` switches one for a run.")
