"""Inference from the plays in Sueca: who holds which card, read from how the other seats followed suit.

A player following to a trick chooses among the cards it may play, and what it chose says something about what
it held: a seat that let an opponent's trick full of points go by with a small card probably had no card that
could win it cheaply; a seat that threw a small card on its partner's winning trick probably had nothing better
to add. The belief :func:`plays_belief` (the Sueca bias ``plays``: ``ismcts:bias=plays``) weighs deals by how
likely the plays seen so far are under a simple model of a player, the one-ply greedy rules of
:mod:`engine.games.tricks.greedy`: with probability ``1 - EPSILON`` the model plays the greedy rules' card,
otherwise any card it may play. Leads are not read (a lead depends on plans the model does not have).

The weights come by importance sampling, the policy-based inference of trick-game programs (GIB [Ginsberg2001];
[Long2010] on what perfect-information sampling needs): :data:`SAMPLES` deals consistent with the observation,
each weighted by the product of the model's probabilities of the observed plays given that deal's hands at the
time (its hand now plus what it played since); the belief of a card in a slot is the weighted share of deals that
put it there, mixed with a share :data:`UNIFORM_SHARE` of the uniform chance so that every legal deal stays
possible. The deals come from a generator seeded by the observation's history, so the same observation gives the
same belief. The function reads the observation only, so it is as fair as the observation itself.
"""

from __future__ import annotations

import math
import random
import zlib

import numpy as np

from engine.determinize import assign_uniform
from engine.games.tricks.core import TrickState
from engine.games.tricks.greedy import WORTH_TRUMPING, _tables_for
from engine.observation import Observation

__all__ = ["EPSILON", "SAMPLES", "UNIFORM_SHARE", "follow_events", "play_likelihood", "plays_belief"]

EPSILON = 0.5
"""Share of the model's plays that are any card the seat may play instead of the greedy rules' card."""

SAMPLES = 200
"""Deals weighed per belief."""

UNIFORM_SHARE = 0.1
"""Share of the uniform chance mixed into the belief."""


class FollowEvent:
    """One play to a trick already led, by a seat whose hand the observer does not see."""

    __slots__ = ("seat", "card", "index", "led_suit", "best_key", "partner_wins", "trick_points")

    def __init__(self, seat: int, card: int, index: int, led_suit: int, best_key: int, partner_wins: bool,
                 trick_points: int) -> None:
        self.seat = seat
        self.card = card
        self.index = index
        self.led_suit = led_suit
        self.best_key = best_key
        self.partner_wins = partner_wins
        self.trick_points = trick_points


def follow_events(state: TrickState, observer: int) -> list[FollowEvent]:
    """The plays to tricks already led in ``state``'s history by seats other than ``observer``."""
    game = state.game
    keys = game.winner_keys(state.trump)
    suit_of = game.suit_of
    points = game.card_points
    players = state.num_players
    events: list[FollowEvent] = []
    trick: list[tuple[int, int]] = []
    for index, (seat, card) in enumerate(state.history):
        if card < 0:
            return []  # a hidden move: this model does not read such histories
        if trick:
            led = suit_of[trick[0][1]]
            key = keys[led]
            best_seat, best_card = max(trick, key=lambda sc: key[sc[1]])
            if seat != observer:
                events.append(FollowEvent(seat, card, index, led, key[best_card],
                                          players == 4 and (best_seat - seat) % 2 == 0,
                                          sum(points[c] for _s, c in trick)))
        trick.append((seat, card))
        if len(trick) == players:
            trick = []
    return events


def play_likelihood(state: TrickState, event: FollowEvent, hand: int) -> float:
    """The model's probability of ``event``'s card given that the seat held ``hand`` then."""
    game = state.game
    suit_mask = game.suit_masks[event.led_suit]
    legal = hand & suit_mask or hand
    cards = [c for c in range(game.deck.size) if legal >> c & 1]
    n = len(cards)
    if n <= 1:
        return 1.0
    t = _tables_for(game)
    trump = state.trump
    if event.partner_wins:
        choice = max(cards, key=t.load_key[trump].__getitem__)
    else:
        key = game.winner_keys(trump)[event.led_suit]
        winners = [c for c in cards if key[c] > event.best_key]
        choice = -1
        if winners:
            card = min(winners, key=t.win_key[trump].__getitem__)
            if not t.is_trump[trump][card] or event.trick_points >= WORTH_TRUMPING:
                choice = card
        if choice < 0:
            choice = min(cards, key=t.throw_key[trump].__getitem__)
    return (1.0 - EPSILON) * (choice == event.card) + EPSILON / n


def _seed(state: TrickState) -> int:
    return zlib.crc32(repr(state.history).encode())


def plays_belief(obs: Observation) -> np.ndarray:
    """Belief matrix (slots x deck size) for ``obs``: each unknown card's column is the chance that each slot
    holds it (summing to 1), 0 elsewhere."""
    state = obs.state
    assert isinstance(state, TrickState)
    size = state.game.deck.size
    slots = obs.slots
    out = np.zeros((len(slots), size))
    if not slots:
        return out
    events = follow_events(state, obs.seat)
    rng = random.Random(_seed(state))
    owners = [slot.owner for slot in slots]
    row_of = {owner: i for i, owner in enumerate(owners)}
    # what each seat played from each point of the history on (its hand then = its hand now | this)
    later: list[int] = [0] * len(state.history)
    played = [0] * state.num_players
    for index in range(len(state.history) - 1, -1, -1):
        seat, card = state.history[index]
        if card >= 0:
            played[seat] |= 1 << card
        later[index] = played[seat]
    used = [e for e in events if e.seat in row_of]
    deals: list[list[int]] = []
    logw: list[float] = []
    for _ in range(SAMPLES):
        deal = assign_uniform(obs.unknown, slots, rng)
        total = 0.0
        for e in used:
            hand = deal[row_of[e.seat]] | state.hands[e.seat] | later[e.index]
            total += math.log(play_likelihood(state, e, hand))
        deals.append(deal)
        logw.append(total)
    top = max(logw)
    weights = [math.exp(w - top) for w in logw]
    norm = sum(weights)
    unknown = obs.unknown
    cards = [c for c in range(size) if unknown >> c & 1]
    for deal, w in zip(deals, weights, strict=True):
        share = w / norm
        for i, mask in enumerate(deal):
            for c in cards:
                if mask >> c & 1:
                    out[i, c] += share
    uniform = np.zeros_like(out)
    for deal in deals:
        for i, mask in enumerate(deal):
            for c in cards:
                if mask >> c & 1:
                    uniform[i, c] += 1.0 / len(deals)
    return (1.0 - UNIFORM_SHARE) * out + UNIFORM_SHARE * uniform
