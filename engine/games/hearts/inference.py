"""Inference for biased determinization in Hearts (ISMCTS-TI, manzke2025 chapter 5; dipalma2014 5.6).

:func:`hearts_belief` turns one seat's observation into a belief matrix (hidden slots x 52 cards) for
:func:`engine.determinize.sample_assignment`, registered as the Hearts bias ``inference``: use it with
``ismcts:bias=inference`` (ISMCTS-TI = ``ismcts:reward=relative,transpositions=true,dets=1000,bias=inference``).

manzke2025 (ch. 5) reduces a hand to which of the three "special" spades (Q, K, A) each player holds and
reads those features from an abstraction of that player's own plays: chances to get rid of the Q/K/A of
spades without risk that were not taken, the K/A of spades played while the queen could still fall on
them, leads of low spades (flushing the queen out), all of it only while the queen is still in play.
manzke2025 turns such histories into probabilities with counts from 9,000 self-play games; here every
observed signal multiplies the chance that the player holds a card by one likelihood ratio per signal
(:data:`FACTORS`, measured on a much smaller self-play sample), a naive-Bayes simplification closer to the
rule-based card guessing of dipalma2014 5.6. One signal is added for the other cards: a player who follows
suit and overtakes a trick that already holds penalty points probably had no lower card of that suit to
duck with.

The weights are then scaled (iterative proportional fitting) so that every unknown card's column is a
probability distribution over the slots and every row adds up to about the slot's card count; a small
share of the uniform possibility matrix is mixed in (manzke2025 5.4 keeps part of its samples uniform), so
every deal consistent with the rules keeps a non-zero chance. Cards the observer sees, knows or has seen
played get 0 in every row, and so do cards a slot cannot hold (voids, known passes). The function reads
the observation only, so it is as fair as the observation itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np

from engine.cards import FRENCH52
from engine.determinize import sample_assignment
from engine.games.hearts.rules import HEART_MASK, QUEEN_SPADES, SPADES, HeartsState
from engine.games.tricks.core import PASS_FLAG, TrickState
from engine.observation import Observation

__all__ = ["FACTORS", "FEATURE_CARDS", "hearts_belief", "measure_signals", "seat_weights", "uniform_belief"]

KING_SPADES = FRENCH52.parse("KS")
ACE_SPADES = FRENCH52.parse("AS")
POINT_CARDS = HEART_MASK | 1 << QUEEN_SPADES
FEATURE_CARDS = 1 << QUEEN_SPADES | 1 << KING_SPADES | 1 << ACE_SPADES
"""The cards whose holders the inference guesses (manzke2025 5.1: a hand reduced to its special spades)."""

FACTORS: dict[str, float] = {
    # manzke2025 5.2 property 1: a safe chance to shed the Q of spades was not taken.
    "queen_kept_on_discard": 0.24,
    "queen_kept_under_higher_spade": 0.05,
    # manzke2025 5.2 properties 2 and 3: a safe chance to shed the K/A of spades was not taken.
    "high_spade_kept_on_discard": 0.5,
    "king_kept_under_ace": 0.12,
    "high_spade_kept_last_to_play": 0.42,
    # manzke2025 5.2 properties 5 and 6: K/A of spades played while the queen could still fall on it
    # (leading it counts too): the player does not fear the queen, it probably holds it.
    "risky_high_spade": 1.5,
    # manzke2025 5.2 property 9: a low spade led while the queen is out - flushing the queen.
    "low_spade_lead": 0.89,
    # "Who avoided taking points": overtaking a trick with points in it while following suit.
    "no_lower_card_last": 0.34,
    "no_lower_card": 0.16,
}
"""Likelihood ratio applied per observation of each signal. Measured like manzke2025 5.3 but on a small
sample: 40 self-play hands of ``ismcts:iterations=1000,reward=relative`` (no passing), each ratio = times
the seat really held the card / sum of the uniform prior probabilities at those moments, with one
pseudo-count added to both (see docs/results.md, ISMCTS-TI)."""

UNIFORM_SHARE = 0.05
"""Share of the uniform possibility matrix mixed into the beliefs (manzke2025 5.4: 5% random samples)."""

FIT_ROUNDS = 30


def _rank_higher(card: int, other: int) -> bool:
    """Whether ``card`` beats ``other`` of the same suit (suit-major order, 2 low ... A high)."""
    return card % 13 > other % 13


def seat_weights(obs: Observation, events: list[tuple[str, int, int, int]] | None = None) -> np.ndarray:
    """Per seat and card, the product of the likelihood ratios of every signal in that seat's plays.

    Returns an array (4 x 52) of positive floats, 1.0 where nothing was observed. Only play moves are read
    (passes are hidden), and the observer's own plays are skipped. ``events``, if given, receives one
    (signal name, seat, card, index in the history) per signal applied (for calibration and tests).
    """
    state = obs.state
    if not isinstance(state, HeartsState):
        raise TypeError("seat_weights reads Hearts observations only")
    g = state.game
    suit_of = g.suit_of
    size = g.deck.size
    w = np.ones((4, size))
    f = FACTORS
    played = 0  # cards played before the current move
    trick: list[int] = []
    first_trick = True
    at = [0]  # index in the history of the move being read

    def hit(name: str, seat: int, card: int) -> None:
        w[seat, card] *= f[name]
        if events is not None:
            events.append((name, seat, card, at[0]))

    for index, (seat, move) in enumerate(state.history):
        at[0] = index
        if move < 0 or move & PASS_FLAG:
            continue  # a pass (hidden or the observer's own)
        card = move
        bit = 1 << card
        if seat != obs.seat:
            queen_out = not (played >> QUEEN_SPADES & 1)  # the queen is still in the game
            in_trick = 0
            for c in trick:
                in_trick |= 1 << c
            if trick:
                led = suit_of[trick[0]]
                best = max((c for c in trick if suit_of[c] == led), key=lambda c: c % 13)
                if suit_of[card] != led:
                    # A discard (void in the led suit): shedding a dangerous spade here is free.
                    if queen_out and not first_trick:
                        if card != QUEEN_SPADES:
                            hit("queen_kept_on_discard", seat, QUEEN_SPADES)
                        for high in (KING_SPADES, ACE_SPADES):
                            if card != high and not played >> high & 1:
                                hit("high_spade_kept_on_discard", seat, high)
                else:
                    if led == SPADES and queen_out:
                        higher_in_trick = in_trick & (1 << KING_SPADES | 1 << ACE_SPADES)
                        if higher_in_trick and card != QUEEN_SPADES:
                            hit("queen_kept_under_higher_spade", seat, QUEEN_SPADES)
                        if (in_trick >> ACE_SPADES & 1 and card != KING_SPADES
                                and not played >> KING_SPADES & 1):
                            hit("king_kept_under_ace", seat, KING_SPADES)
                        if len(trick) == 3 and not in_trick >> QUEEN_SPADES & 1 and card < QUEEN_SPADES:
                            for high in (KING_SPADES, ACE_SPADES):
                                if not played >> high & 1 and _rank_higher(high, best):
                                    hit("high_spade_kept_last_to_play", seat, high)
                        if (card in (KING_SPADES, ACE_SPADES) and _rank_higher(card, best)
                                and len(trick) < 3 and not in_trick >> QUEEN_SPADES & 1):
                            hit("risky_high_spade", seat, QUEEN_SPADES)
                    if in_trick & POINT_CARDS and _rank_higher(card, best):
                        # Overtook a trick holding points: probably had nothing lower in the suit.
                        name = "no_lower_card_last" if len(trick) == 3 else "no_lower_card"
                        base = led * 13
                        for r in range(best % 13):
                            if not (played | bit) >> (base + r) & 1:
                                hit(name, seat, base + r)
            elif suit_of[card] == SPADES and queen_out:
                if card in (KING_SPADES, ACE_SPADES):
                    hit("risky_high_spade", seat, QUEEN_SPADES)
                elif card != QUEEN_SPADES:
                    hit("low_spade_lead", seat, QUEEN_SPADES)
        played |= bit
        trick.append(card)
        if len(trick) == 4:
            trick = []
            first_trick = False
    return w


def _fit(matrix: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Scale rows to ``counts`` and columns to 1 alternately; ends with exact column sums of 1."""
    m = matrix
    for _ in range(FIT_ROUNDS):
        rows = m.sum(axis=1)
        m = m * np.where(rows > 0, counts / np.where(rows > 0, rows, 1.0), 0.0)[:, None]
        cols = m.sum(axis=0)
        m = m / np.where(cols > 0, cols, 1.0)[None, :]
    return m


def _possible(obs: Observation) -> tuple[np.ndarray, list[int], np.ndarray]:
    """0/1 matrix (slots x unknown cards), the unknown cards, and the slots' card counts."""
    unknown = [c for c in range(obs.state.game.deck.size) if obs.unknown >> c & 1]
    possible = np.zeros((len(obs.slots), len(unknown)))
    for i, slot in enumerate(obs.slots):
        for j, c in enumerate(unknown):
            if slot.allowed >> c & 1:
                possible[i, j] = 1.0
    return possible, unknown, np.array([float(s.count) for s in obs.slots])


def uniform_belief(obs: Observation) -> np.ndarray:
    """The prior without any signal (slots x 52): who may hold each unknown card, fitted to the counts."""
    out = np.zeros((len(obs.slots), obs.state.game.deck.size))
    if obs.slots:
        possible, unknown, counts = _possible(obs)
        out[:, unknown] = _fit(possible, counts)
    return out


def hearts_belief(obs: Observation) -> np.ndarray:
    """Belief matrix (slots x 52) for ``obs``: column = who may hold that unknown card, each column of an
    unknown card sums to 1, every other column is 0, and cells a slot cannot hold are 0."""
    g = obs.state.game
    size = g.deck.size
    slots = obs.slots
    out = np.zeros((len(slots), size))
    if not slots:
        return out
    possible, unknown, counts = _possible(obs)
    weights = seat_weights(obs)
    liked = possible.copy()
    for i, slot in enumerate(slots):
        if slot.name.startswith("hand") and 0 <= slot.owner < 4:
            liked[i] *= weights[slot.owner, unknown]
    belief = (1.0 - UNIFORM_SHARE) * _fit(liked, counts) + UNIFORM_SHARE * _fit(possible, counts)
    cols = belief.sum(axis=0)
    belief = belief / np.where(cols > 0, cols, 1.0)[None, :]
    out[:, unknown] = belief
    return out


def measure_signals(hands: Iterable[tuple[HeartsState, list[int]]]) -> dict[str, list[float]]:
    """How often each signal is right, from finished hands given as (start state, moves played).

    For every signal a seat gave, and every other seat that could not see the card, adds whether the seat
    really held it and its prior probability (:func:`uniform_belief` of that observer). Returns name ->
    [held, prior, count]; the likelihood ratio of a signal is about held / prior (manzke2025 5.3 in small).
    """
    stats: dict[str, list[float]] = {}
    for start, moves in hands:
        state = start.clone()
        before: list[TrickState] = []
        for move in moves:
            before.append(state.clone())
            state.do(move)
        events: list[tuple[str, int, int, int]] = []
        seat_weights(Observation(-1, state, 0, []), events)
        for name, seat, card, index in events:
            then = before[index]
            for observer in range(4):
                if observer == seat or then.hands[observer] >> card & 1:
                    continue
                obs = then.observation(observer)
                row = next(i for i, slot in enumerate(obs.slots) if slot.owner == seat)
                entry = stats.setdefault(name, [0.0, 0.0, 0.0])
                entry[0] += float(then.hands[seat] >> card & 1)
                entry[1] += float(uniform_belief(obs)[row, card])
                entry[2] += 1.0
    return stats


def feature_accuracy(hands: Iterable[tuple[HeartsState, list[int]]], samples: int,
                     rng: random.Random) -> tuple[float, float, int]:
    """manzke2025 6.3.1 sampling accuracy on finished hands: at every decision with two or more legal moves
    while some of the Q, K, A of spades are hidden from the player, the share of ``samples`` deals whose
    holders of those hidden cards all match the true deal, with :func:`hearts_belief` and uniform.
    Returns (inference rate, uniform rate, decision points)."""
    special = (QUEEN_SPADES, KING_SPADES, ACE_SPADES)
    hits = [0, 0]
    points = 0
    for start, moves in hands:
        state = start.clone()
        for move in moves:
            seat = state.current_player
            obs = state.observation(seat)
            hidden = [c for c in special if obs.unknown >> c & 1]
            if hidden and len(obs.slots) > 1 and len(state.legal_moves()) > 1:
                rows = {c: next(i for i, slot in enumerate(obs.slots) if state.hands[slot.owner] >> c & 1)
                        for c in hidden}
                belief = hearts_belief(obs)
                for k, bias in enumerate((belief, None)):
                    for _ in range(samples):
                        deal = sample_assignment(obs, rng, bias)
                        hits[k] += all(deal[rows[c]] >> c & 1 for c in hidden)
                points += 1
            state.do(move)
    total = max(1, points * samples)
    return hits[0] / total, hits[1] / total, points
