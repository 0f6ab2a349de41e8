"""The manifest's ``insight.model``: one round of a draw–discard game described as data, for
``cardgen simulate`` (the vocabulary is documented in docs/insight-model.md; the interpreter is
:mod:`cardgen.insight.model_round`).

Conditions and amounts are small expressions in a fixed vocabulary (``river.sum >= 20 and
chips >= 1``), read by :mod:`cardgen.insight.model_expr` — never run as Python.
"""
# Annotations are objects, not strings (no `from __future__ import annotations`): pydantic would
# evaluate each string at class creation (the manifest's models: 5-13 ms of every command that reads a game, measured).

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
    wall_down: str = Field("false", description="With `wins_per_round` above 1: when this holds after the call's win (read as `when` is), the discard stays in the discarder's river and the winner lays the top card of the wall face down in their own river, their hand unchanged (馬将's 栄和 that completes the 将, `melds_pair()`); otherwise the winner takes the discard into their hand and plays a card face down.")


class ModelTake(_Strict):
    """After a play that no call won: the player who played may take one face-up card (not one
    already taken sideways) from another player's river and lay it sideways at the right end of
    their own river (天雀牌's ポン／チー). Tested for every such card as `target`."""

    name: str = Field("take", description="What the game calls it, e.g. `ポン`; reports use it.")
    when: str = Field(description="Condition; `discard` is the card just played, `down` whether face down, `target` the card in the other river, `chips` the player's, e.g. `not down and discard.pon > 0 and target.number == discard.number and chips >= discard.power`.")
    cost: str = Field("0", description="Chips the player pays, e.g. `discard.power`.")
    in_river: str = Field("true", description="Whether the sideways card counts for `in_river()` as a face-up card does (an expression of `option.X` and `design.X`).")


class ModelClaim(_Strict):
    """A call on another player's discard that does not win (ポン, or the game's own): after a
    play no call won, every other player in turn order may claim the card just played; the first
    who may and will takes it, plays a card from their hand without drawing, and play goes on
    from them (the seats in between are skipped)."""

    name: str = Field("claim", min_length=1, description="What the game calls it, e.g. `かすめ`; reports use it.")
    when: str = Field(description="Condition for the caller; `discard` is the card played, `down` whether face down, and, as in a call, the hand is read with the discard in it, e.g. `discard.suit > 0 and in_hand(discard.kind) >= 3` (two of its kind besides the discard).")
    greedy: str = Field("true", description="Whether a greedy (or priority) player claims when `when` holds (read as `when` is), e.g. `melds() or in_hand(discard.kind) >= 3`; a random player claims with even odds.")
    to: Literal["hand", "river"] = Field("hand", description="Where the claimed card goes: `hand` (the caller's hand, which then keeps its size after the caller plays), or `river` (laid sideways at the right end of the caller's river, a meld shown to all: it counts in `river.sum`, `river.last` and `in_river()`; the hand is one card smaller after the play).")
    face_down: bool = Field(False, description="A face-down discard can be claimed too (it stays face down in a river).")


class ModelMelds(_Strict):
    """The mahjong win test `melds()`: the hand (with the discard, in a call) splits into `sets`
    sets — three of one kind, or three consecutive numbers of one suit above 0 — and one pair."""

    suit: str = Field("suit", description="Column of the suit (0: honours, which form no runs).")
    number: str = Field("number", description="Column of the number within the suit.")
    sets: int = Field(4, ge=0, le=8, description="Sets besides the pair, e.g. 4 (a 14-tile hand).")


class ModelCounter(_Strict):
    """A number each player keeps from round to round (points, 脱衣…)."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="Its name in the game's expressions, e.g. `score`, `undress`.")
    label: str = Field("", description="What the game calls it, e.g. `脱衣`; reports use it.")
    start: str = Field("0", description="Its value when the game starts (an expression of `players`, `option.X`, `design.X`), e.g. `30000`.")
    after: str = Field(description="Its value after each round, per player (the round's names, docs/insight-model.md), e.g. `score + points` or `undress + (1 if (tsumo and not winner) or (call and loser) else 0)`; every counter is worked out from the values before the round.")


class ModelEnd(_Strict):
    """A way the game ends: after a round, when `when` holds for any player."""

    name: str = Field(description="What the reports call it, e.g. `3回目の脱衣`.")
    when: str = Field(description="Condition, per player, after the counters are updated, e.g. `undress >= 3`, `round >= 4`, `moves >= 2 * players`.")


class ModelGame(_Strict):
    """The whole game: rounds played one after another, what a player keeps between them, how the
    dealer moves, when the game ends and who wins (docs/insight-model.md, "The game")."""

    name: str = Field("game", description="What the game calls a whole game, printed in the reports.")
    counters: list[ModelCounter] = Field(default_factory=list, max_length=8, description="Numbers each player keeps between rounds, updated after every round.")
    carry: str = Field("0", description="Chips a player starts the next round with (per player, at the round's end), e.g. `chips if dry and top_river else 0` (流局: the highest 聴牌速度 keeps this round's power). Without it every round starts at 0.")
    pot: str = Field("0", description="What a player pays into the pot at the round's end (per player), e.g. `1000 if dry and not ready() else 0` (ノーテン罰符). The round's first winner takes the pot as it stood before the round (`pot_won`); a round without a win keeps it for the next.")
    dealer_stays: str = Field("false", description="When the dealer stays dealer for the next round (read for the dealer), e.g. `winner` (連荘); otherwise the dealer moves one seat in turn order and `moves` counts one more.")
    ends: list[ModelEnd] = Field(min_length=1, max_length=8, description="How the game ends, tested in order after every round.")
    out: str = Field("false", description="A player who loses whatever the ranking says (per player, at the game's end), e.g. `undress >= 3`.")
    rank: list[str] = Field(min_length=1, max_length=4, description="Who wins: the player (not `out`) with the highest value of the first expression, ties broken by the next (e.g. `[score, -undress]`); still tied: a draw.")
    max_rounds: int = Field(100, ge=1, le=1000, description="A game still going after this many rounds is stopped and reported as such (the simulator's limit, not a rule).")


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
    claims: list[ModelClaim] = Field(default_factory=list, max_length=4, description="Calls on a discard that do not win (ポン, or the game's own), in priority order, tested after the calls and before the takes: the caller takes the card just played, plays without drawing, and the turn passes on from them.")
    greedy: str | None = Field(None, description="The greedy policy's choice of play: the hand card with the highest value of this expression (ties: the first). Default: with `patterns`, the card whose loss keeps the hand closest to a pattern; else the highest `value`.")
    priority: list[Union[str, int]] = Field(default_factory=list, description="The `priority` policy: kinds to play first, in this order (kinds not listed come after, as `greedy` chooses).")
    game: ModelGame | None = Field(None, description="The whole game of several rounds: what carries over, the dealer, the end and the winner (docs/insight-model.md). Without it only single rounds are played.")
    options: dict[str, int] = Field(default_factory=dict, description="The model's open questions as whole numbers (true/false as 1/0) with this build's answer; expressions read `option.X`; `cardgen simulate --option X=N` switches one for a run.")
