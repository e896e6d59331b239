"""ISMCTS-T information-set abstraction for Hearts (manzke2025 4.1), registered as the Hearts
transposition key of the Hearts search knowledge.

Two information sets share a node when they agree on: the current trick (its leader, how many cards,
which of them is winning it and that card's order among the cards still in play - how many of its suit it
beats -, whether it is the queen of spades, and the trick's penalty points), which seats have taken points
(six cases: nobody, exactly one of the four seats, or several), whether hearts are broken, and the card
abstraction - for every card not yet played, its suit, its relative order among the unplayed cards of its
suit, who may hold it from the observer's point of view, and whether it is the queen of spades.

:func:`hearts_key` is the search's hot path (called at every expansion of ISMCTS-T): it reads the
determinized state directly with bitmasks. :func:`hearts_key_reference` builds the same information set
from a full :class:`~engine.observation.Observation` (slow, kept as the specification); the two give
equal keys for equal information sets, in the passing phase too (tested). A card the observer knows to be
in another seat's hand (a card it passed there, the 2 of clubs about to be led) counts as held by that
seat.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.cards import FRENCH52
from engine.game import GameState
from engine.games.hearts.rules import Hearts, HeartsState

QUEEN_FLAG = 1 << 9
"""Added to a card's holder bits when the card is the queen of spades."""
UNSEEN_SLOT = 1 << 8
"""Holder bit of a hidden slot without an owner (none in Hearts; kept for the reference's generality)."""


def hearts_key(state: GameState, observer: int) -> Hashable:
    """The abstracted information set of ``observer`` in a (determinized) Hearts state (fast path)."""
    if not isinstance(state, HeartsState):
        raise TypeError("hearts_key reads Hearts states only")
    if state.passing:
        return _passing_key(state, observer)
    g = state.game
    void_masks, point_mask, suit_of, strength, card_points, suit_masks, lower = _tables(g)
    hands = state.hands
    mine = hands[observer]
    known = [0, 0, 0, 0]
    pass_offset = state.pass_offset
    if pass_offset:
        target = (observer + pass_offset) % 4
        known[target] = hands[target] & state.passed[observer]
    trick = state.trick
    won = state.won
    if not trick and not any(state.tricks_won):
        cur = state.current
        known[cur] |= hands[cur] & _TWO_CLUBS_BIT
    known[observer] = 0
    voids = state.voids
    excluded = state.excluded
    allowed: list[tuple[int, int]] = []  # (holder bit, cards that seat may hold)
    seats = 0
    unknown = 0
    hidden = [0, 0, 0, 0]
    for s in range(4):
        if s != observer:
            h = hands[s] & ~known[s]
            hidden[s] = h
            unknown |= h
    for s in range(4):
        if hidden[s]:
            allowed.append((1 << s, unknown & ~excluded[s] & ~void_masks[voids[s]]))
            seats |= 1 << s
    known_all = known[0] | known[1] | known[2] | known[3]
    remaining = mine | unknown | known_all
    obit = 1 << observer
    if known_all:  # rare (a passed card, the 2 of clubs to lead): no memo
        suits = tuple(_suit_code(remaining & sm, mine, obit, allowed, known) for sm in suit_masks)
    else:
        n = len(allowed)
        a0 = allowed[0][1] if n else 0
        a1 = allowed[1][1] if n > 1 else 0
        a2 = allowed[2][1] if n > 2 else 0
        space = obit | seats << 4  # which seat observes and which seats may hold cards
        cache = _SUIT_CODES
        codes = []
        for sm in suit_masks:
            rem = remaining & sm
            ident = (space, rem, mine & rem, a0 & rem, a1 & rem, a2 & rem)
            code = cache.get(ident)
            if code is None:
                code = _suit_code(rem, mine, obit, allowed, known)
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[ident] = code
            codes.append(code)
        suits = tuple(codes)
    if trick:
        first = trick[0]
        led = suit_of[first]
        best = first
        winner = 0  # the winning card's position in the trick (the seat: leader + winner)
        points = card_points[first]
        for i in range(1, len(trick)):
            c = trick[i]
            points += card_points[c]
            if suit_of[c] == led and strength[c] > strength[best]:
                best = c
                winner = i
        # The winning card by its order among the cards still in play: how many of them it beats.
        beats = (remaining & lower[best]).bit_count()
        trick_key: tuple[int, ...] = (state.leader, len(trick), led, winner, beats, best == _QUEEN, points)
    else:
        trick_key = (state.leader, 0)
    taken = -1
    for s in range(4):
        if won[s] & point_mask:
            taken = s if taken < 0 else 4
    jack = _jack_key(g, remaining, won, lower) if card_points[_JACK] else None  # no call without the variant
    return (trick_key, taken, bool(state.hearts_broken), suits, False, jack)


def _jack_key(g: Hearts, remaining: int, won: list[int], lower: tuple[int, ...]) -> tuple[int, int] | None:
    """With the jack of diamonds variant, where its -10 points are: its order among the diamonds still in
    play (or -1) and the seat that took it (or -1; both -1: it is in the current trick). ``None`` without."""
    if not g.card_points[_JACK]:
        return None
    if remaining & _JACK_BIT:
        return ((remaining & lower[_JACK]).bit_count(), -1)
    for s in range(4):
        if won[s] & _JACK_BIT:
            return (-1, s)
    return (-1, -1)


_Tables = tuple[tuple[int, ...], int, list[int], list[int], list[int], list[int], tuple[int, ...]]
"""What :func:`_tables` returns: void masks, point mask, suit, strength, points, suit masks, cards beaten."""
_TABLES: dict[int, tuple[Hearts, _Tables]] = {}


def _tables(g: Hearts) -> _Tables:
    """Per game (cached, checked by identity): the cards of each set of void suits (index = void bits),
    the point cards' mask, the game's suit, strength, point and suit-mask tables, and per card the cards
    of its suit that it beats."""
    entry = _TABLES.get(id(g))
    if entry is None or entry[0] is not g:
        suit_masks = g.suit_masks
        voids = tuple(sum(suit_masks[s] for s in range(4) if v >> s & 1) for v in range(16))
        suit_of, strength = g.suit_of, g.strength
        lower = tuple(sum(1 << o for o in range(g.deck.size) if suit_of[o] == suit_of[c] and strength[o] < strength[c])
                      for c in range(g.deck.size))
        entry = (g, (voids, _point_mask(g), suit_of, strength, g.card_points, suit_masks, lower))
        _TABLES[id(g)] = entry
    return entry[1]


def _passing_key(state: HeartsState, observer: int) -> Hashable:
    """The key during the passing phase: whose turn it is and how many cards have been passed; the
    observer's own cards, the cards it passed (held by their receiver) and any other card with any other
    seat (in its hand or among its passes)."""
    g = state.game
    mine = state.hands[observer]
    passed = state.passed[observer]
    obit = 1 << observer
    target = (observer + state.pass_offset) % 4
    others = 0b1111 ^ obit
    known = [0, 0, 0, 0]
    known[target] = passed
    cache = _SUIT_CODES  # its 5-tuple keys never meet the play phase's 6-tuples
    codes = []
    for sm in g.suit_masks:
        ident = (obit, target, sm, mine & sm, passed & sm)
        code = cache.get(ident)
        if code is None:
            code = _suit_code(sm, mine, obit, [(others, sm & ~mine & ~passed)], known)
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[ident] = code
        codes.append(code)
    lower = _tables(g)[-1]
    return (("pass", state.current, state.passes_done), -1, False, tuple(codes), True,
            _jack_key(g, g.deck.full_mask, [0, 0, 0, 0], lower))


def _suit_code(rem: int, mine: int, obit: int, allowed: list[tuple[int, int]], known: list[int]) -> tuple[int, ...]:
    """Holder bits (plus the queen flag) of the cards in ``rem`` (one suit), lowest card first."""
    items = []
    m = rem
    while m:
        b = m & -m
        m ^= b
        if b & mine:
            v = obit
        else:
            v = 0
            for bit_s, a in allowed:
                if a & b:
                    v |= bit_s
            if not v:
                for s in range(4):
                    if known[s] & b:
                        v = 1 << s
        if b == _QUEEN_BIT:
            v |= QUEEN_FLAG
        items.append(v)
    return tuple(items)


_SUIT_CODES: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Memo of :func:`_suit_code` by its inputs restricted to one suit (the search meets the same suits often);
the passing phase's entries have shorter keys."""
_CACHE_LIMIT = 50_000

_QUEEN = FRENCH52.parse("QS")
_QUEEN_BIT = 1 << _QUEEN
_JACK = FRENCH52.parse("JD")
_JACK_BIT = 1 << _JACK
_TWO_CLUBS_BIT = 1 << FRENCH52.parse("2C")
_POINT_MASKS: dict[int, tuple[list[int], int]] = {}


def _point_mask(g: Hearts) -> int:
    """Cards that carry penalty points in ``g`` (the hearts and the queen of spades: who took them decides
    who can still shoot the moon; the jack of diamonds' -10 does not count), cached per card-points table."""
    points = g.card_points
    entry = _POINT_MASKS.get(id(points))
    if entry is None or entry[0] is not points:
        mask = 0
        for c, p in enumerate(points):
            if p > 0:
                mask |= 1 << c
        entry = (points, mask)
        _POINT_MASKS[id(points)] = entry
    return entry[1]


def hearts_key_reference(state: GameState, observer: int) -> Hashable:
    """The same abstraction built from ``state.observation(observer)`` (the specification; slow)."""
    obs = state.observation(observer)
    view = obs.state
    if not isinstance(view, HeartsState):
        raise TypeError("hearts_key_reference reads Hearts states only")
    g = view.game
    suit_of, strength = g.suit_of, g.strength
    mine = view.hands[observer]
    holders: dict[int, int] = {}
    for c in range(g.deck.size):
        if mine >> c & 1:
            holders[c] = 1 << observer
    for s in range(4):
        if s != observer:
            for c in range(g.deck.size):
                if view.hands[s] >> c & 1:  # a card the observer knows to be there
                    holders[c] = 1 << s
    for slot in obs.slots:
        for c in range(g.deck.size):
            if obs.unknown >> c & 1 and slot.allowed >> c & 1:
                holders[c] = holders.get(c, 0) | (UNSEEN_SLOT if slot.owner < 0 else 1 << slot.owner)
    passing = bool(getattr(view, "passing", False))
    if passing:  # the observer's passes go to their receiver
        for c in range(g.deck.size):
            if view.passed[observer] >> c & 1:
                holders[c] = 1 << ((observer + view.pass_offset) % 4)
    queen = g.deck.parse("QS")
    suits = []
    for s in range(4):
        remaining = sorted((c for c in holders if suit_of[c] == s), key=lambda c: strength[c])
        suits.append(tuple(holders[c] | (QUEEN_FLAG if c == queen else 0) for c in remaining))
    trick = view.trick
    points = g.card_points
    trick_key: tuple[object, ...]
    if trick:
        led = suit_of[trick[0]]
        winner = max((i for i, c in enumerate(trick) if suit_of[c] == led), key=lambda i: strength[trick[i]])
        best = trick[winner]
        beats = sum(1 for c in holders if suit_of[c] == led and strength[c] < strength[best])
        trick_key = (view.leader, len(trick), led, winner, beats, best == queen, sum(points[c] for c in trick))
    elif passing:
        trick_key = ("pass", view.current, view.passes_done)
    else:
        trick_key = (view.leader, 0)
    takers = [s for s in range(4) if any(points[c] > 0 for c in range(g.deck.size) if view.won[s] >> c & 1)]
    taken = -1 if not takers else takers[0] if len(takers) == 1 else 4
    jack_key = None
    if points[_JACK]:
        diamonds_below = sum(1 for c in holders if suit_of[c] == suit_of[_JACK] and strength[c] < strength[_JACK])
        taker = next((s for s in range(4) if view.won[s] & _JACK_BIT), -1)
        jack_key = (diamonds_below, -1) if _JACK in holders else (-1, taker)
    return (trick_key, taken, bool(getattr(view, "hearts_broken", False)), tuple(suits), passing, jack_key)

