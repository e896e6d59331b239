"""Inference for biased determinization in classic Pharaoh: a player who draws holds nothing to play.

Drawing is always allowed, but a player draws instead of playing almost only when no card in hand can start a
play (the rule-based players never do otherwise, and people rarely do). So after a free draw (not a VII's
penalty) the cards the player held then probably did not include any card that could start a play on that top.
The cards it received since (the draw itself and any later draws) may be anything. With ``k`` cards received
since the last free draw and ``n`` cards in hand now, at most ``min(k, n)`` of them can be such cards; if the
other cards were dealt uniformly, each such card is held ``min(k, n) / n`` as often as a uniform deal would
have it: that is the likelihood ratio :func:`pharaoh_draw_belief` gives those cards in the player's hand, never
below :data:`FLOOR` (a player may hold back on purpose).

The signal is read from the public history only (the plays, the draws without their cards, the skips), so the
belief is as fair as the observation: two states that differ only in hidden cards give the same matrix. A
forced pass is already a hard rule of the observation (``excluded``); this adds the soft evidence of draws.
Registered as the Pharaoh bias ``draws`` (``ismcts:bias=draws``; ``pimc`` uses it by default).
"""

from __future__ import annotations

import numpy as np

from engine.games.pharaoh.rules import DRAW, PLAY, SKIP, PharaohState, named_suit, play_cards, play_effects, start_cards
from engine.observation import Observation

__all__ = ["FLOOR", "declined_starts", "pharaoh_draw_belief"]

FLOOR = 0.1
"""The lowest likelihood ratio given to a card that could have started a play at a seat's last free draw."""


def declined_starts(state: PharaohState) -> dict[int, tuple[int, int]]:
    """Per seat whose last free draw is known: (the cards that could have started a play then, the cards the
    seat received from that draw on). Classic rules only (the simplified rules' skips are already exact).
    A draw whose top is unknown (before the first play of a hand whose discard pile was reshuffled) or that
    came after the Pharaoh (anything could be played) says nothing and is left out."""
    g = state.game
    if not g.classic:
        return {}
    known = state.reshuffles == 0 and bool(state.discard)
    top = state.discard[0] if known else -1
    active = g.deck.suit_of(top) if known else -1
    pending_draw = pending_skip = 0
    out: dict[int, tuple[int, int]] = {}
    for seat, move in state.history:
        kind = move & 3
        if kind == PLAY:
            cards = play_cards(move)
            active, pending_draw, pending_skip = play_effects(g, cards, named_suit(move), pending_draw,
                                                              pending_skip)
            top = cards[-1]
            known = True
        elif move == DRAW:
            if pending_draw:
                if seat in out:
                    starts, received = out[seat]
                    out[seat] = (starts, received + pending_draw)
                pending_draw = 0
            elif known and active >= 0:
                out[seat] = (start_cards(g, top, active, 0, 0), 1)
            elif seat in out:
                starts, received = out[seat]
                out[seat] = (starts, received + 1)
        elif move == SKIP:
            pending_skip = 0
    return out


def pharaoh_draw_belief(obs: Observation) -> np.ndarray:
    """Belief matrix (slots x deck size) for ``obs``: 1 everywhere except, in the row of each hidden hand's
    cards from before the last reshuffle, the cards that could have started a play at its last free draw,
    which get the ratio min(k, n) / n (at least :data:`FLOOR`) of the module docstring."""
    state = obs.state
    if not isinstance(state, PharaohState):
        raise TypeError("pharaoh_draw_belief reads Pharaoh observations only")
    out = np.ones((len(obs.slots), state.game.deck.size))
    signals = declined_starts(state)
    for row, slot in enumerate(obs.slots):
        if slot.owner < 0 or slot.name != f"hand{slot.owner}" or slot.owner not in signals:
            continue
        starts, received = signals[slot.owner]
        held = state.counts[slot.owner]
        ratio = max(FLOOR, min(received, held) / held) if held else 1.0
        if ratio >= 1.0:
            continue
        for card in range(state.game.deck.size):
            if starts >> card & 1:
                out[row, card] = ratio
    return out
