"""Inference from the plays in Scopa and Scopone, for biased determinization.

A player who lays a card on the table, or makes a lesser capture, while a card in its hand could have made a
better one, probably does not hold such a card; a player who lays a card a little more often keeps another of
its value. :func:`plays_belief` reads the moves each other seat made since its present cards were dealt (the
cards it holds now were all in its hand then) and gives every unknown card, for every such move, the factor
(:data:`FACTORS`) of what that move says about a card of its value: that it would have made a better capture
(a sweep, taking the settebello, any capture: the kinds of :data:`KINDS`, best last), that it has the value of
the card laid, or of the card that captured. A factor is the odds ratio of the card being in that seat's
hand rather than in the stock, against a card the move says nothing about (naive Bayes: the factors of several
moves multiply), measured by :func:`measure_factors` in self-play. Registered as the bias ``plays`` of both
games (``ismcts:bias=plays``); it reads the observation only.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np

from engine.agent import Agent
from engine.cards import bits, popcount
from engine.games.scopone.rules import CARD_BITS, CARD_MASK, SETTEBELLO, VALUE
from engine.observation import Observation

__all__ = ["FACTORS", "KINDS", "capture_kind", "measure_factors", "play_feature", "plays_belief",
           "tables_before_moves"]

KINDS = ("lay", "capture", "settebello", "sweep")
"""The kinds of move, worst first: the index of a kind is its rank in :func:`capture_kind`."""

FACTORS = {"declined capture": 0.6, "declined settebello": 0.3, "declined sweep": 0.01,
           "same value laid": 1.25, "same value captured": 0.7}
"""Per feature of a card (:func:`play_feature`), the odds ratio of its holder's hand against the stock.
``measure_factors`` in Scopa's self-play gives, for 400 hands of ``pimc`` (seed 5) and 120 of the strong
preset's search (``ismcts:iterations=800,reward=match,c=1.4``, seed 6): declined capture 0.55 and 0.53,
settebello 0.29 and 0.05, sweep 0.026 and 0 (of 3,271 and 994 cases), same value laid 1.23 and 1.26, captured 0.65
and 0.66. The factors round them towards 1 (no evidence), except the sweep's: 0.01, small but above 0, so that
a player who errs may still be dealt such a card. What the bias is worth to the search: docs/results.md."""


def tables_before_moves(state: Any) -> list[int]:
    """The table (a card mask) before each move of ``state.history``, rebuilt backwards from the current one."""
    hist = state.history
    tables = [0] * len(hist)
    t = state.table
    for i in range(len(hist) - 1, -1, -1):
        _, m = hist[i]
        cap = m >> CARD_BITS
        t = t | cap if cap else t & ~(1 << (m & CARD_MASK))
        tables[i] = t
    return tables


def capture_kind(game: Any, table: int, card: int, captured: int, last: bool) -> int:
    """The index in :data:`KINDS` of playing ``card`` taking ``captured`` from ``table`` (``last``: the hand's
    last play, which sweeps no scopa)."""
    if not captured:
        return 0
    if captured == table and not last and not (game.ace_sweep == "assi" and game.is_sweep(card, captured)):
        return 3
    return 2 if captured >> SETTEBELLO & 1 else 1


def _best_kinds(game: Any, table: int, last: bool) -> list[int]:
    """Per card value (index 1-10), the best kind of move a card of that value could make on ``table``."""
    out = [0] * 11
    for card in range(10):  # one card of each value: the captures depend on the value only
        value = VALUE[card]
        out[value] = max((capture_kind(game, table, card, s, last) for s in game.captures(table, card)), default=0)
    return out


def play_feature(kinds: list[int], made: int, played: int, card: int) -> str:
    """What a move says about an unknown ``card``: ``kinds`` are :func:`_best_kinds` of the table the move was
    made on, ``made`` its kind, ``played`` the card played; "" when it says nothing."""
    value = VALUE[card]
    if kinds[value] > made:
        return "declined " + KINDS[kinds[value]]
    if value == VALUE[played]:
        return "same value captured" if made else "same value laid"
    return ""


def _seat_factors(state: Any, tables: list[int], seat: int, candidates: int) -> dict[int, float]:
    """Per card of ``candidates`` (a mask), the product of the factors of the moves ``seat`` made since its
    present cards were dealt (``tables``: :func:`tables_before_moves`); cards no move says anything about are
    left out."""
    game = state.game
    moves_since_deal = game.deal_sizes()[0] - state.hand_counts[seat]
    if moves_since_deal <= 0:
        return {}
    hist = state.history
    out: dict[int, float] = {}
    cards = bits(candidates)
    for i in range(len(hist) - 1, -1, -1):
        if moves_since_deal == 0:
            break
        who, move = hist[i]
        if who != seat:
            continue
        moves_since_deal -= 1
        table, played = tables[i], move & CARD_MASK
        last = i + 1 >= state.total_plays
        made = capture_kind(game, table, played, move >> CARD_BITS, last)
        kinds = _best_kinds(game, table, last)
        for c in cards:
            feature = play_feature(kinds, made, played, c)
            if feature:
                out[c] = out.get(c, 1.0) * FACTORS[feature]
    return out


def plays_belief(obs: Observation) -> np.ndarray:
    """Belief matrix (slots x 40) for ``engine.determinize``: every card starts at 1 in each slot that may hold
    it, and a seat's hand slot multiplies it by the factors of that seat's moves since its deal."""
    state = obs.state
    tables = tables_before_moves(state)
    m = np.zeros((len(obs.slots), 40))
    for i, slot in enumerate(obs.slots):
        allowed = slot.allowed & obs.unknown
        for c in bits(allowed):
            m[i, c] = 1.0
        if 0 <= slot.owner < obs.game.num_players and slot.owner != obs.seat:
            for c, factor in _seat_factors(state, tables, slot.owner, allowed).items():
                m[i, c] = factor
    return m


def measure_factors(game: Any, agents: list[Agent], hands: int, seed: int) -> dict[str, tuple[float, int]]:
    """Per feature of :data:`FACTORS`, (odds ratio, cases) over ``hands`` hands of ``agents`` (one per seat,
    rotated hand by hand): after every move, every card the other seats cannot see (the mover's other cards
    and the stock) is a case of the feature the move gives it, held or not; the odds of being held are compared
    with those of the cards the move says nothing about, stratified by the stock's and the hand's size
    (Mantel-Haenszel)."""
    counts: Counter[tuple[str, bool, int, int]] = Counter()
    rng = random.Random(seed)
    n = game.num_players
    for h in range(hands):
        state = game.new_hand(random.Random(f"plays/{seed}/{h}"))
        while not state.is_terminal():
            seat = state.current_player
            move = agents[(seat + h) % n].choose(state.observation(seat), rng)
            table, played = state.table, move & CARD_MASK
            last = state.plays + 1 >= state.total_plays
            made = capture_kind(game, table, played, move >> CARD_BITS, last)
            kinds = _best_kinds(game, table, last)
            hand = state.hands[seat] & ~(1 << played)
            stratum = (len(state.stock), popcount(hand))
            for c in bits(hand | sum(1 << s for s in state.stock)):
                counts[(play_feature(kinds, made, played, c), bool(hand >> c & 1)) + stratum] += 1
            state.do(move)
    strata = {key[2:] for key in counts}
    out = {}
    for feature in FACTORS:
        num = den = 0.0
        for st in strata:
            a, b = counts[(feature, True) + st], counts[(feature, False) + st]
            c, d = counts[("", True) + st], counts[("", False) + st]
            total = a + b + c + d
            if total:
                num += a * d / total
                den += b * c / total
        cases = sum(v for key, v in counts.items() if key[0] == feature)
        out[feature] = (num / den if den else float("nan"), cases)
    return out
