"""天雀牌 draft 3: one round, turn by turn, as the rulebook (card_data/tenjanpai/rules/02_play.md)
states it — numba-compiled, every number from the manifest and the card table.

Setup: the dealt deck is shuffled; each player gets ``hand`` cards, then ``dead_wall`` cards
are set aside; the rest is the draw pile. Seat 0 is the dealer (起家); turns go round in seat
order until the draw pile is empty. Each turn:

1. ツモ: draw the top card.
2. 和了判定: with 聴牌速度 (sum of the river: face-up and sideways cards count their number,
   face-down cards 0) ≥ ``design.tsumo_threshold`` and a 和了牌 in hand (a number not yet in the
   player's river), the player declares tsumo and scores the card's number.
3. 打牌: one card to the river, face up or face down (0). If it is higher than the rightmost
   card of the river (sideways cards included, face-down = 0), the player gains 1 power.
4. ロン判定: another player holding two or more cards of the discard's number declares ron
   (the nearest in turn order first) and scores the discard's number.
5. ポン／チー: if the discard has a pon / chi icon and the player can pay its ``cost`` in power,
   the player may take one card that is not sideways from another river — the same number (pon)
   or ±1 (chi) — and put it sideways at the right end of their river (it counts for 聴牌速度).

A win adds the power bonus: 1 point per power up to ``design.power_bonus_cap``, else
``design.power_bonus_flat``. Draw pile empty: 流局. Each round starts from 0 power (no carry-over,
no skills or ougi: the characters are draft placeholders).

Open questions (options; the default is what the build's rulebook implies):

- ``facedown_calls`` (false): a face-down discard shows no icons, so it cannot call.
- ``sideways_blocks_agari`` (true): a sideways (called) card's number counts as "already in the
  river" for the 和了牌 test, like a face-up card; face-down cards never do.

Policies (both always declare a win when they can):

- ``random``: a uniformly random card, face up or down with even odds; a uniformly random
  choice among "no call" and every affordable call; a random 和了牌.
- ``greedy``: goes for 聴牌速度. Once at the threshold, it plays face down its least useful card
  (a number already in its river first, then not part of a pair, then the lowest). Below it,
  each card's face-up gain is its number plus the number it could take with a call it can
  afford; it keeps pairs (ron chances), and, when the play would reach the threshold, keeps a
  和了牌 in hand; among the rest the highest gain is played — face up when it raises 聴牌速度
  toward the threshold, i.e. while the threshold can still be reached in the turns left
  (at the deck's highest number per turn), otherwise face down. It calls whenever it can afford
  to, taking the highest number on offer (ties: from the player with the highest 聴牌速度,
  pon before chi). Ties between cards: the first in hand.
"""
from __future__ import annotations

import numpy as np

from cardgen.insight.games import procedure
from cardgen.insight.games.tenjanpai_round import (N_PARAMS, P_CAP, P_DEAD, P_FD_CALLS, P_FLAT, P_HAND, P_MAXNUM,
                                                   P_PLAYERS, P_SW_BLOCKS, P_THRESHOLD, play_many, play_round)


@procedure("tenjanpai-draft3")
class TenjanpaiDraft3:
    """天雀牌 draft 3 (seed 001, as card_data/tenjanpai/rules states it); see the module docstring."""

    game = "tenjanpai"  #: the game id whose rules this is; no other game is played with them
    columns = {"number": "the card's number (聴牌速度 and points)", "pon": "pon icons (> 0: can pon)",
               "chi": "chi icons (> 0: can chi)", "cost": "power paid to call with this card"}
    design = {"tsumo_threshold": "聴牌速度 needed to declare tsumo",
              "power_bonus_cap": "1 point per power up to this many", "power_bonus_flat": "points above the cap"}
    options = {"facedown_calls": (False, "a face-down discard can call (its icons count)"),
               "sideways_blocks_agari": (True, "a sideways card's number counts as already in the river for the 和了牌")}
    policies = ("greedy", "random")
    play_round = staticmethod(play_round)
    play_many = staticmethod(play_many)

    def params(self, deck, design: dict, options: dict, num: np.ndarray) -> np.ndarray:
        """The int64 parameter vector of :func:`play_round` for one dealt deck (``num``: the
        number of each physical card)."""
        prm = np.zeros(N_PARAMS, dtype=np.int64)
        prm[P_PLAYERS], prm[P_HAND], prm[P_DEAD] = deck.players, deck.hand, deck.dead_wall
        prm[P_THRESHOLD] = int(design["tsumo_threshold"])
        prm[P_CAP], prm[P_FLAT] = int(design["power_bonus_cap"]), int(design["power_bonus_flat"])
        prm[P_FD_CALLS] = int(bool(options["facedown_calls"]))
        prm[P_SW_BLOCKS] = int(bool(options["sideways_blocks_agari"]))
        prm[P_MAXNUM] = int(num.max())
        return prm
