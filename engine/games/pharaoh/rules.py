"""Pharaoh (Slovak Faraón, Mau-Mau family): classic rules for people and the simplified rules of [Kassak2023].

One game, ``pharaoh``, with option ``rules``:

* ``classic`` (default; 2-5 players, 32 German cards, 5 each or option 4): one card is turned to start the
  discard pile (its effect does not apply: a turned VII or Ace is no penalty, a turned Ober just asks for its
  own suit). A player plays one or several cards of one rank whose *first* card matches the top card's suit
  (or the suit named by an Ober) or its rank; the *last* card played becomes the top. Instead of playing a
  player may always draw one card (the turn ends).
  VII: the next player draws 3 (option ``seven_draw`` = 2) unless they play a VII, which stacks (+3 per VII).
  Ace: the next player misses the turn (move ``skip``) unless they play an Ace (stacks: the skip passes on).
  Ober: playable on any top when no VII/Ace is pending; the player names the next suit (part of the move).
  Unter of leaves = the Pharaoh: playable on anything, even on a pending VII or Ace, which it cancels; after it
  any card may follow. When a draw finds the stock empty, the discard pile except its top card is shuffled
  into a new stock (deterministically from ``shuffle_seed`` stored in the state; observations hide it).
  A player who can neither play nor draw passes (``skip``). Players who empty their hand finish in order; the
  others play on for the places until one is left. Scoring ``penalty``: the hand ends when the first player
  goes out and every other player scores penalty points for the cards left (VII-X face value, Unter 2,
  Ober 3, King 4, Ace 11).
* ``simplified`` ([Kassak2023] definitions 13-15; the earlier option value ``seed`` still reads; 2-6 players;
  ``deck`` = ``small``: 3 suits x VII-Unter = 15 cards, 6 each, or ``full``: 32 cards, 10 each): a k-tuple of
  same-rank cards may be played when they have the top card's rank ("match value", any order) or when the first
  card has the top card's suit ("match suit"); the last card becomes the top. Or draw one card; with an empty
  stock, skip. No special cards, no reshuffle. ``open`` plays it with open hands, as the seed's experiments did
  (then only the stock order is hidden).

**Ending a stuck hand** (kassak2023 section 4.2 "Ties"): the *lock counter* counts consecutive turns on which
the player could only skip; the *draw counter* counts consecutive skips. The hand ends when the lock counter
reaches the number of players still in, or the draw counter three times that. A classic hand also ends after
``MAX_TURNS`` turns (a safety net; random play never gets near it). Unfinished players are then ranked after
the finished ones by fewest cards left; equal counts are ranked in reverse order of play within a round
(counted from the seat that moved first in the hand): the one who plays last in a round ranks best.

**Observations.** Other hands (unless ``open``) and the stock are hidden; the discard pile, every move
(a draw without its card), the card counts and the counters are public. Determinization respects what is
public: after a reshuffle the stock holds only cards of the reshuffled pile, and a seat that had to pass
(classic: nothing to play or draw; simplified: a skip that raised the lock counter) holds no card it could have
started a play with, until it draws again.

**Matches.** ``scoring`` = ``places``: a hand gives n-1 placement points to the winner, n-2 to the second,
..., 0 to the last; the first to ``target`` points (tie at the top: play on) wins; ``target`` 0 = one hand.
``scoring`` = ``penalty``: penalty points add up; the match ends when someone reaches ``penalty_limit``
(default 100) and the lowest total wins.

**Search helpers.** :meth:`PharaohState.canonical_plays` lists the pruned plays of kassak2023 4.4 (whole
same-rank groups, one card order per top card, one Ober naming); :meth:`PharaohState.pruned_rollout` plays
a hand out among them (optionally never drawing while a play exists, stopping at the first player out, or
only among the smallest groups). The package's search knowledge offers them as ISMCTS pruners and
rollouts. ``outcomes()`` gives the winner without building a result.

**Moves** are ints. ``DRAW`` = 0 (draw one card, or take a pending VII penalty), ``SKIP`` = 1 (miss the turn
on a pending Ace, the seed's skip, or a forced pass). A play has low bits ``10``; bits 2-4 hold the named
suit + 1 (0 = none) and from bit 5 each card + 1 in 6 bits, in the order played. Notation: ``draw``, ``skip``
(or ``pass``), ``7L``, ``7L+7H`` (7H becomes the top), ``OL>H`` (Ober of leaves naming hearts).
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any, ClassVar

from engine.cards import GERMAN15, GERMAN32, Deck, NotationError, bits, popcount
from engine.game import Game, GameState, HandResult, IllegalMove, Option, StateFormatError, VariantError
from engine.observation import HiddenSlot, Observation

DRAW = 0
SKIP = 1
PLAY = 2
NAMED_SHIFT = 2
CARDS_SHIFT = 5
HIDDEN = -1
OLD_SIMPLIFIED = "seed"
"""The earlier name of ``rules=simplified``, still accepted (saves and records written by earlier versions)."""
MAX_TURNS = 2000
CACHE_LIMIT = 20_000
"""Entries per move-list cache of a game (cleared when full)."""
_MASK64 = (1 << 64) - 1
"""Safety cap on the turns of a classic hand (ranked like a stuck hand when reached)."""
PENALTY_BY_RANK = {"7": 7, "8": 8, "9": 9, "X": 10, "U": 2, "O": 3, "K": 4, "A": 11}
_PERMS: dict[int, list[tuple[int, ...]]] = {
    k: [p for size in range(1, k + 1) for p in permutations(range(k), size)] for k in range(5)}


def _chunk_size(chunk: tuple[int, list[int]]) -> int:
    return chunk[0]


def encode_play(cards: list[int] | tuple[int, ...], named: int = -1) -> int:
    """The move that plays ``cards`` in this order (the last becomes the top), naming ``named`` (Ober)."""
    move = PLAY | (named + 1) << NAMED_SHIFT
    shift = CARDS_SHIFT
    for c in cards:
        move |= (c + 1) << shift
        shift += 6
    return move


def play_cards(move: int) -> list[int]:
    """The cards of a play move in the order played (empty for draw/skip)."""
    if move & 3 != PLAY:
        return []
    out = []
    move >>= CARDS_SHIFT
    while move:
        out.append((move & 63) - 1)
        move >>= 6
    return out


def named_suit(move: int) -> int:
    """The suit named by an Ober play, or -1."""
    return (move >> NAMED_SHIFT & 7) - 1


class Pharaoh(Game):
    """Pharaoh: classic Faraón (default) or the simplified rules of [Kassak2023]."""

    name = "pharaoh"
    title = "Pharaoh"
    deck: Deck = GERMAN32
    options: ClassVar[tuple[Option, ...]] = (
        Option("rules", "classic", "classic Faraon, or the simplified rules (small or full deck, up to 6 players)",
               choices=("classic", "simplified")),
        Option("players", 4, "number of players (classic 2-5, simplified 2-6)", type=int, min=2, max=6),
        Option("deck", "full", "simplified rules: small (15 cards: 3 suits x VII-Unter) or full (32 cards)",
               choices=("small", "full")),
        Option("hand_size", 0, "cards dealt to each player (0 = the rules' default: classic 5, simplified small 6, "
               "simplified full 10)", type=int, min=0, max=15),
        Option("seven_draw", 3, "classic: cards a VII makes the next player draw", choices=(2, 3)),
        Option("scoring", "places", "places: placement points per hand; penalty: the hand ends when the first "
               "player goes out and the others score their cards left", choices=("places", "penalty")),
        Option("target", 10, "places scoring: placement points that win the match (0 = one hand)",
               type=int, min=0, max=1000),
        Option("penalty_limit", 100, "penalty scoring: the match ends when someone reaches this total",
               type=int, min=1, max=10000),
        Option("open", False, "open hands (the seed's experiments): only the stock order is hidden"),
    )
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"players": 2, "hand_size": 4, "seven_draw": 2, "target": 0},
        {"players": 5, "scoring": "penalty", "penalty_limit": 50},
        {"rules": "simplified", "players": 2, "deck": "small", "open": True},
        {"rules": "simplified", "players": 2, "deck": "full"},
        {"rules": "simplified", "players": 3, "deck": "small", "hand_size": 4, "target": 0},
    )

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        super().__init__(variant)
        v = self.variant
        self.classic: bool = v["rules"] == "classic"
        self.deck = GERMAN32 if self.classic or v["deck"] == "full" else GERMAN15
        d = self.deck
        self.nranks = len(d.ranks)
        self.nsuits = len(d.suits)
        self.hand_size: int = v["hand_size"] or self.default_hand_size(v)
        self.rank_masks = [sum(1 << d.card(s, r) for s in range(self.nsuits)) for r in range(self.nranks)]
        self.suit_masks = [d.suit_mask(s) for s in range(self.nsuits)]
        ri = d.ranks.index
        self.seven = ri("7")
        self.unter = ri("U")
        self.ober = ri("O") if "O" in d.ranks else -1
        self.ace = ri("A") if "A" in d.ranks else -1
        self.pharaoh = d.card(0, self.unter)  # Unter of leaves
        self.penalty = [PENALTY_BY_RANK[d.ranks[c % self.nranks]] for c in range(d.size)]

        self.rank_of = [c % self.nranks for c in range(d.size)]
        self.canonical_cache: dict[int, list[tuple[int, list[int], int, int, int]]] = {}
        self.canonical_moves_cache: dict[int, list[int]] = {}
        self.named_cache: dict[int, int] = {}
        self.plays_cache: dict[int, list[int]] = {}  # (hand, startable) -> plays of legal_moves
        self.canonical_plays_cache: dict[int, list[int]] = {}  # (hand, startable, order) -> canonical plays

    def canonical_entries(self, group: int, startable: int) -> list[tuple[int, list[int], int, int, int]]:
        """The canonical plays of a whole same-rank group (bitmask ``group``) whose cards in ``startable``
        may start the play: one order per possible top (last) card, in increasing order of that card; the
        first card is the lowest startable one other than the top, the others follow in increasing order
        (orders with the same top card lead to the same position: the first card only matters for
        legality). Each entry is ``(move without Ober naming, cards, card mask, top card, effect)`` with
        effect (classic rules only) 1 VII, 2 Ace, 3 Ober (names a suit), 4 the Pharaoh on top, +5 when the
        Pharaoh is inside the group. Cached per (group, startable)."""
        key = group | startable << 32
        cached = self.canonical_cache.get(key)
        if cached is not None:
            return cached
        cards = bits(group)
        orders: list[list[int]] = []
        if len(cards) == 1:
            if startable:
                orders.append(cards)
        else:
            for last in cards:
                firsts = [c for c in cards if c != last and startable >> c & 1]
                if firsts:
                    orders.append([firsts[0]] + [c for c in cards if c not in (firsts[0], last)] + [last])
        out = []
        for order in orders:
            last = order[-1]
            effect = 0
            if self.classic:
                rank = last % self.nranks
                if last == self.pharaoh:
                    effect = 4
                else:
                    effect = 1 if rank == self.seven else 2 if rank == self.ace else 3 if rank == self.ober else 0
                    if self.pharaoh in order:
                        effect += 5
            out.append((encode_play(order), order, group, last, effect))
        self.canonical_cache[key] = out
        return out

    def canonical_group(self, group: int, startable: int) -> list[int]:
        """The moves of :meth:`canonical_entries` (without Ober naming; cached, do not modify)."""
        key = group | startable << 32
        moves = self.canonical_moves_cache.get(key)
        if moves is None:
            moves = self.canonical_moves_cache[key] = [e[0] for e in self.canonical_entries(group, startable)]
        return moves

    def best_named_suit(self, hand_after: int) -> int:
        """The suit an Ober names in the canonical plays: the one most held after the play (lowest on ties)."""
        cache = self.named_cache
        suit = cache.get(hand_after)
        if suit is None:
            best = -1
            suit = 0
            for s, mask in enumerate(self.suit_masks):
                k = (hand_after & mask).bit_count()
                if k > best:
                    best, suit = k, s
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[hand_after] = suit
        return suit

    @classmethod
    def validate_variant(cls, variant: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`Game.validate_variant`; the simplified rules' old option value ``seed`` (in saves and records
        written by earlier versions) reads as ``simplified``."""
        if variant.get("rules") == OLD_SIMPLIFIED:
            variant = {**variant, "rules": "simplified"}
        return super().validate_variant(variant)

    @staticmethod
    def default_hand_size(v: dict[str, Any]) -> int:
        if v["rules"] == "classic":
            return 5
        return 6 if v["deck"] == "small" else 10

    @classmethod
    def check_variant(cls, v: dict[str, Any]) -> None:
        classic = v["rules"] == "classic"
        if classic and v["players"] > 5:
            raise VariantError("classic Pharaoh is for 2-5 players (the simplified rules allow 6)")
        if classic and v["deck"] != "full":
            raise VariantError("classic Pharaoh uses the full 32-card deck (deck=small is for rules=simplified)")
        size = 32 if classic or v["deck"] == "full" else 15
        hand = v["hand_size"] or cls.default_hand_size(v)
        if v["players"] * hand + 1 > size:
            raise VariantError(f"{v['players']} players x {hand} cards + 1 turned card do not fit in the "
                               f"{size}-card deck: lower hand_size")

    def teams(self) -> list[tuple[int, ...]]:
        return [(s,) for s in range(self.num_players)]

    def state_class(self) -> type[PharaohState]:
        return PharaohState

    # --- match ------------------------------------------------------------------------------------
    def lower_is_better(self) -> bool:
        return self.variant["scoring"] == "penalty"

    def match_target(self) -> float | None:
        if self.variant["scoring"] == "penalty":
            return float(self.variant["penalty_limit"])
        return self.variant["target"] or None

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> PharaohState:
        n = self.num_players
        dealer = n - 1 if dealer < 0 else dealer
        if not 0 <= dealer < n:
            raise ValueError(f"dealer seat {dealer} out of range 0..{n - 1}")
        cards = list(range(self.deck.size))
        rng.shuffle(cards)
        hands = [0] * n
        pos = 0
        for i in range(n):
            seat = (dealer + 1 + i) % n
            hands[seat] = sum(1 << c for c in cards[pos:pos + self.hand_size])
            pos += self.hand_size
        top = cards[pos]
        stock = cards[pos + 1:]
        return PharaohState(self, hands, [top], stock, dealer, rng.getrandbits(62))

    def position(self, hands: list[str], discard: str, stock: str = "", current: int = 0,
                 dealer: int = -1) -> PharaohState:
        """A position from card notation (discard pile bottom to top; stock bottom to top)."""
        d = self.deck
        n = self.num_players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        state = PharaohState(self, [d.parse_set(h) for h in hands], d.parse_list(discard), d.parse_list(stock),
                             n - 1 if dealer < 0 else dealer, 1)
        state.current = current
        state.starter = current
        return state

    def card_name(self, card: int) -> str:
        return self.deck.long_name(card)


class PharaohState(GameState):
    """A Pharaoh hand in progress (mutable; :meth:`clone` is cheap)."""

    __slots__ = ("game", "hands", "counts", "stock", "discard", "active_suit", "pending_draw", "pending_skip",
                 "current", "dealer", "starter", "finished", "finish_turns", "turn", "lock", "skips",
                 "reshuffles", "shuffle_seed", "history", "ended", "pool", "from_pool", "excluded")
    game: Pharaoh

    def __init__(self, game: Pharaoh, hands: list[int], discard: list[int], stock: list[int], dealer: int,
                 shuffle_seed: int) -> None:
        self.game = game
        self.hands = hands
        self.counts = [popcount(h) for h in hands]
        self.stock = stock
        self.discard = discard
        self.active_suit = game.deck.suit_of(discard[-1]) if discard else -1
        self.pending_draw = 0
        self.pending_skip = 0
        self.dealer = dealer
        self.current = (dealer + 1) % len(hands)
        self.starter = self.current
        self.finished: list[int] = []
        self.finish_turns: list[int] = []
        self.turn = 0
        self.lock = 0
        self.skips = 0
        self.reshuffles = 0
        self.shuffle_seed = shuffle_seed
        self.history: list[tuple[int, int]] = []
        self.ended = ""
        self.pool = 0  # public: the cards shuffled into the stock at the last reshuffle (0 = none yet)
        self.from_pool = [0] * len(hands)  # public: cards each seat holds that it drew from that pool
        self.excluded = [0] * len(hands)  # public: cards a seat cannot hold (it had to pass since its last draw)

    # --- basics -----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def current_player(self) -> int:
        return -1 if self.ended else self.current

    def is_terminal(self) -> bool:
        return bool(self.ended)

    def active_seats(self) -> list[int]:
        """Seats still holding cards (not finished), in seat order."""
        return [s for s in range(self.num_players) if s not in self.finished]

    def clone(self) -> PharaohState:
        o = object.__new__(PharaohState)
        o.game = self.game
        o.hands = self.hands[:]
        o.counts = self.counts[:]
        o.stock = self.stock[:]
        o.discard = self.discard[:]
        o.active_suit = self.active_suit
        o.pending_draw = self.pending_draw
        o.pending_skip = self.pending_skip
        o.current = self.current
        o.dealer = self.dealer
        o.starter = self.starter
        o.finished = self.finished[:]
        o.finish_turns = self.finish_turns[:]
        o.turn = self.turn
        o.lock = self.lock
        o.skips = self.skips
        o.reshuffles = self.reshuffles
        o.shuffle_seed = self.shuffle_seed
        o.history = self.history[:]
        o.ended = self.ended
        o.pool = self.pool
        o.from_pool = self.from_pool[:]
        o.excluded = self.excluded[:]
        return o

    # --- rules ------------------------------------------------------------------------------------
    def start_mask(self) -> int:
        """The cards that may be the first card of a play now (a bitmask over the deck)."""
        g = self.game
        nr = g.nranks
        top = self.discard[-1]
        if not g.classic:
            return g.suit_masks[top // nr] | g.rank_masks[top % nr]
        if self.pending_draw:
            return g.rank_masks[g.seven] | 1 << g.pharaoh
        if self.pending_skip:
            return g.rank_masks[g.ace] | 1 << g.pharaoh
        if self.active_suit < 0:
            return g.deck.full_mask
        return g.suit_masks[self.active_suit] | g.rank_masks[top % nr] | g.rank_masks[g.ober] | 1 << g.pharaoh

    def can_start(self, card: int) -> bool:
        """Whether ``card`` may be the first card of a play now."""
        return bool(self.start_mask() >> card & 1)

    def can_draw(self) -> bool:
        """Whether a draw move is available (classic: a pending VII penalty can always be taken)."""
        if not self.game.classic:
            return bool(self.stock)
        return bool(self.stock) or len(self.discard) > 1 or self.pending_draw > 0

    def legal_moves(self) -> list[int]:
        if self.ended:
            return []
        g = self.game
        hand = self.hands[self.current]
        startable = hand & self.start_mask()
        classic = g.classic
        key = hand | startable << 32
        plays = g.plays_cache.get(key)
        if plays is None:
            plays = self._plays(hand, startable)
            if len(g.plays_cache) >= CACHE_LIMIT:
                g.plays_cache.clear()
            g.plays_cache[key] = plays
        out = plays[:]
        if classic:
            if self.pending_skip:
                out.append(SKIP)
            elif self.stock or len(self.discard) > 1 or self.pending_draw:
                out.append(DRAW)
            elif not out:
                out.append(SKIP)
        else:
            out.append(DRAW if self.stock else SKIP)
        return out

    def _plays(self, hand: int, startable: int) -> list[int]:
        """Every play of ``hand`` whose first card is in ``startable`` (the play part of legal_moves)."""
        g = self.game
        out: list[int] = []
        classic = g.classic
        if startable:
            rank_masks = g.rank_masks
            for r in range(g.nranks):
                group_mask = hand & rank_masks[r]
                if not group_mask & startable:
                    continue
                naming = classic and r == g.ober
                if group_mask & (group_mask - 1) == 0:  # a single card
                    base = PLAY | group_mask.bit_length() << CARDS_SHIFT
                    if naming:
                        out.extend(base | (s + 1) << NAMED_SHIFT for s in range(g.nsuits))
                    else:
                        out.append(base)
                    continue
                group = bits(group_mask)
                for p in _PERMS[len(group)]:
                    if not startable >> group[p[0]] & 1:
                        continue
                    base = PLAY
                    shift = CARDS_SHIFT
                    for i in p:
                        base |= (group[i] + 1) << shift
                        shift += 6
                    if naming:
                        out.extend(base | (s + 1) << NAMED_SHIFT for s in range(g.nsuits))
                    else:
                        out.append(base)
        return out

    def canonical_plays(self, order: int = 0) -> list[int]:
        """The pruned plays (kassak2023 4.4 move pruning): whole same-rank groups only, one order per top
        card (:meth:`Pharaoh.canonical_group`) and one Ober naming (:meth:`Pharaoh.best_named_suit`),
        groups in the order of their lowest startable card; ``order`` 1: smallest groups first, -1:
        biggest first (stable). Every one is in :meth:`legal_moves`; empty when the player cannot play."""
        if self.ended:
            return []
        g = self.game
        hand = self.hands[self.current]
        startable = hand & self.start_mask()
        if not startable:
            return []
        key = hand | startable << 32 | (order + 1) << 64
        cached = g.canonical_plays_cache.get(key)
        if cached is None:
            cached = self._canonical_plays(hand, startable, order)
            if len(g.canonical_plays_cache) >= CACHE_LIMIT:
                g.canonical_plays_cache.clear()
            g.canonical_plays_cache[key] = cached
        return cached[:]

    def _canonical_plays(self, hand: int, startable: int, order: int) -> list[int]:
        g = self.game
        out: list[int] = []
        rest = startable
        rank_of = g.rank_of
        rank_masks = g.rank_masks
        cache = g.canonical_moves_cache
        ober = g.ober if g.classic else -1
        sizes = 0  # bit k set: a group of k cards was seen
        chunks: list[tuple[int, list[int]]] = []
        while rest:  # groups in the order of their lowest startable card
            r = rank_of[(rest & -rest).bit_length() - 1]
            group = hand & rank_masks[r]
            rest &= ~group
            moves = cache.get(group | (group & startable) << 32)
            if moves is None:
                moves = g.canonical_group(group, group & startable)
            if r == ober:
                offset = (g.best_named_suit(hand & ~group) + 1) << NAMED_SHIFT
                moves = [m | offset for m in moves]
            if order:
                size = group.bit_count()
                sizes |= 1 << size
                chunks.append((size, moves))
            else:
                out.extend(moves)
        if chunks:
            if sizes & (sizes - 1):  # groups of different sizes: stable sort by size
                chunks.sort(key=_chunk_size, reverse=order < 0)
            for _, moves in chunks:
                out.extend(moves)
        return out

    def do(self, move: int) -> None:
        g = self.game
        seat = self.current
        self.history.append((seat, move))
        self.turn += 1
        kind = move & 3
        if kind == PLAY:
            cards = play_cards(move)
            for c in cards:
                self.hands[seat] &= ~(1 << c)
                if self.pool >> c & 1:
                    self.from_pool[seat] -= 1
            self.counts[seat] -= len(cards)
            self.discard.extend(cards)
            self.lock = self.skips = 0
            if g.classic:
                self._effects(cards, named_suit(move))
            if self.counts[seat] <= 0:
                self.finished.append(seat)
                self.finish_turns.append(self.turn)
                if g.variant["scoring"] == "penalty" or len(self.finished) >= self.num_players - 1:
                    self._end("finished")
                    return
        elif kind == DRAW:
            k = self.pending_draw or 1
            self.pending_draw = 0
            self.excluded[seat] = 0
            for _ in range(k):
                if not self.stock and g.classic:
                    self._reshuffle()
                if not self.stock:
                    break
                c = self.stock.pop()
                if c >= 0:
                    self.hands[seat] |= 1 << c
                self.counts[seat] += 1
                if self.pool:
                    self.from_pool[seat] += 1
            self.lock = self.skips = 0
        else:  # SKIP
            if self.pending_skip:
                self.pending_skip = 0
            else:
                start = self.start_mask()
                forced = not self.hands[seat] & start if not g.classic else True
                if forced:  # everyone sees that this seat holds none of these cards
                    self.excluded[seat] |= start
                self.skips += 1
                self.lock = self.lock + 1 if forced else 0
                active = self.num_players - len(self.finished)
                if self.lock >= active:
                    self._end("locked")
                    return
                if self.skips >= 3 * active:
                    self._end("no progress")
                    return
        if g.classic and self.turn >= MAX_TURNS:
            self._end("turn limit")
            return
        self._advance()

    def random_rollout(self, rng: random.Random) -> None:
        """Play to the end with uniformly random legal moves: the same choices as the generic loop over
        :meth:`legal_moves` / :meth:`do`, with move generation and the common plays and draws inlined."""
        rand = rng.random
        g = self.game
        classic = g.classic
        nr = g.nranks
        rank_masks = g.rank_masks
        suit_masks = g.suit_masks
        full_mask = g.deck.full_mask
        ober = g.ober
        ace = g.ace
        seven = g.seven
        pharaoh = g.pharaoh
        pharaoh_bit = 1 << pharaoh
        seven_start = rank_masks[seven] | pharaoh_bit
        ace_start = rank_masks[ace] | pharaoh_bit if classic else 0
        ober_start = rank_masks[ober] | pharaoh_bit if classic else 0
        seven_draw = g.variant["seven_draw"]
        penalty_scoring = g.variant["scoring"] == "penalty"
        rank_of = [c % nr for c in range(g.deck.size)]
        name_offsets = [(s + 1) << NAMED_SHIFT for s in range(g.nsuits)]
        n = len(self.hands)
        hands = self.hands
        counts = self.counts
        history = self.history
        do = self.do
        while not self.ended:
            seat = self.current
            hand = hands[seat]
            discard = self.discard
            top = discard[-1]
            if not classic:
                start = suit_masks[top // nr] | rank_masks[top % nr]
            elif self.pending_draw:
                start = seven_start
            elif self.pending_skip:
                start = ace_start
            elif self.active_suit < 0:
                start = full_mask
            else:
                start = suit_masks[self.active_suit] | rank_masks[top % nr] | ober_start
            startable = hand & start
            moves: list[int] = []
            if startable:
                ranks = 0  # the ranks of the startable cards, visited in increasing order like legal_moves
                rest = startable
                while rest:
                    low = rest & -rest
                    rest ^= low
                    ranks |= 1 << rank_of[low.bit_length() - 1]
                while ranks:
                    low = ranks & -ranks
                    ranks ^= low
                    r = low.bit_length() - 1
                    group_mask = hand & rank_masks[r]
                    naming = classic and r == ober
                    if group_mask & (group_mask - 1) == 0:
                        base = PLAY | group_mask.bit_length() << CARDS_SHIFT
                        if naming:
                            moves.extend([base | o for o in name_offsets])
                        else:
                            moves.append(base)
                        continue
                    group = []
                    while group_mask:
                        low = group_mask & -group_mask
                        group_mask ^= low
                        group.append(low.bit_length() - 1)
                    for p in _PERMS[len(group)]:
                        if not startable >> group[p[0]] & 1:
                            continue
                        base = PLAY
                        shift = CARDS_SHIFT
                        for i in p:
                            base |= (group[i] + 1) << shift
                            shift += 6
                        if naming:
                            moves.extend([base | o for o in name_offsets])
                        else:
                            moves.append(base)
            stock = self.stock
            if classic:
                if self.pending_skip:
                    moves.append(SKIP)
                elif stock or len(discard) > 1 or self.pending_draw:
                    moves.append(DRAW)
                elif not moves:
                    moves.append(SKIP)
            else:
                moves.append(DRAW if stock else SKIP)
            move = moves[int(rand() * len(moves))]
            kind = move & 3
            if kind == PLAY:
                history.append((seat, move))
                self.turn += 1
                cards = []
                rest = move >> CARDS_SHIFT
                pool = self.pool
                from_pool = self.from_pool  # replaced by each reshuffle: read it afresh
                while rest:
                    c = (rest & 63) - 1
                    rest >>= 6
                    cards.append(c)
                    hand &= ~(1 << c)
                    if pool >> c & 1:
                        from_pool[seat] -= 1
                hands[seat] = hand
                counts[seat] -= len(cards)
                discard.extend(cards)
                self.lock = self.skips = 0
                if classic:
                    last = cards[-1]
                    if pharaoh in cards:
                        self.pending_draw = 0
                        self.pending_skip = 0
                    if last == pharaoh:
                        self.active_suit = -1
                    else:
                        self.active_suit = last // nr
                        rank = last % nr
                        if rank == seven:
                            self.pending_draw += seven_draw * len(cards)
                        elif rank == ace:
                            self.pending_skip = 1
                        elif rank == ober:
                            self.active_suit = (move >> NAMED_SHIFT & 7) - 1
                if counts[seat] <= 0:
                    self.finished.append(seat)
                    self.finish_turns.append(self.turn)
                    if penalty_scoring or len(self.finished) >= n - 1:
                        self.ended = "finished"
                        return
            elif kind == DRAW and len(stock) >= (self.pending_draw or 1):
                history.append((seat, move))
                self.turn += 1
                k = self.pending_draw or 1
                self.pending_draw = 0
                self.excluded[seat] = 0
                pool = self.pool
                from_pool = self.from_pool
                for _ in range(k):
                    c = stock.pop()
                    if c >= 0:
                        hand |= 1 << c
                    if pool:
                        from_pool[seat] += 1
                hands[seat] = hand
                counts[seat] += k
                self.lock = self.skips = 0
            else:  # skips and draws that reshuffle or empty the stock: the full rules
                do(move)
                continue
            if classic and self.turn >= MAX_TURNS:
                self.ended = "turn limit"
                return
            finished = self.finished
            s = seat
            for _ in range(n):
                s = (s + 1) % n
                if s not in finished:
                    self.current = s
                    break

    def pruned_rollout(self, rng: random.Random, draws: bool = True, first_out: bool = False,
                       smallest: bool = False) -> None:
        """Play to the end choosing uniformly among the pruned moves (kassak2023 4.4): the
        :meth:`canonical_plays` plus the non-play legal move (draw or skip) when ``draws``. With
        ``draws=False`` a player draws or skips only when it cannot play. The same choices as a loop over
        ``canonical_plays()`` + the non-play move of ``legal_moves()`` (tested); plays and plain draws are
        inlined, the rest goes through :meth:`do`.

        ``smallest``: only the plays of the smallest whole groups are candidates (the kassak2023 4.3
        ``smallest`` player with random tie-breaks; the same as filtering ``canonical_plays(1)``).

        ``first_out``: stop once a player has gone out (end reason ``"first out"``; the others
        are ranked as in a stuck hand, by cards left). The winner is the one of the full hand, so the
        search's win/loss rewards are exact; later places are only estimated."""
        rand = rng.random
        g = self.game
        classic = g.classic
        nr = g.nranks
        rank_masks = g.rank_masks
        suit_masks = g.suit_masks
        full_mask = g.deck.full_mask
        ober = g.ober
        ace = g.ace
        seven = g.seven
        pharaoh_bit = 1 << g.pharaoh
        seven_start = rank_masks[seven] | pharaoh_bit
        ace_start = rank_masks[ace] | pharaoh_bit if classic else 0
        ober_start = rank_masks[ober] | pharaoh_bit if classic else 0
        seven_draw = g.variant["seven_draw"]
        penalty_scoring = g.variant["scoring"] == "penalty"
        rank_of = g.rank_of
        canon = g.canonical_cache
        entries_of = g.canonical_entries
        best_named_suit = g.best_named_suit
        n = len(self.hands)
        hands = self.hands
        counts = self.counts
        history = self.history
        finished = self.finished
        do = self.do
        if first_out and finished and not self.ended:
            self.ended = "first out"  # the winner is already known
        while not self.ended:
            seat = self.current
            hand = hands[seat]
            discard = self.discard
            if not classic:
                top = discard[-1]
                start = suit_masks[top // nr] | rank_masks[top % nr]
            elif self.pending_draw:
                start = seven_start
            elif self.pending_skip:
                start = ace_start
            elif self.active_suit < 0:
                start = full_mask
            else:
                start = suit_masks[self.active_suit] | rank_masks[discard[-1] % nr] | ober_start
            startable = hand & start
            plays: list[tuple[int, list[int], int, int, int]] = []
            least = 5
            rest = startable
            while rest:  # groups in the order of their lowest startable card (as canonical_plays)
                group = hand & rank_masks[rank_of[(rest & -rest).bit_length() - 1]]
                rest &= ~group
                key = group | (startable & group) << 32
                entries = canon.get(key)
                if entries is None:
                    entries = entries_of(group, startable & group)
                if smallest:
                    size = group.bit_count()
                    if size < least:
                        least = size
                        plays = entries[:]
                        continue
                    if size > least:
                        continue
                plays += entries
            stock = self.stock
            if classic:
                other = SKIP if self.pending_skip else DRAW if stock or len(discard) > 1 or self.pending_draw \
                    else SKIP if not plays else -1
            else:
                other = DRAW if stock else SKIP
            k = len(plays)
            if not draws and k:
                index = int(rand() * k)
            else:
                index = int(rand() * (k + 1 if other >= 0 else k))
            if index < k:
                move, cards, mask, last, effect = plays[index]
                if effect == 3:  # an Ober on top: name the suit held most afterwards
                    move |= (best_named_suit(hand & ~mask) + 1) << NAMED_SHIFT
                history.append((seat, move))
                self.turn += 1
                hand &= ~mask
                hands[seat] = hand
                pool = self.pool
                if pool & mask:
                    self.from_pool[seat] -= (pool & mask).bit_count()
                counts[seat] -= len(cards)
                discard += cards
                self.lock = self.skips = 0
                if classic:
                    if effect == 4:  # the Pharaoh on top
                        self.pending_draw = self.pending_skip = 0
                        self.active_suit = -1
                    else:
                        if effect >= 5:  # the Pharaoh inside the group
                            self.pending_draw = self.pending_skip = 0
                            effect -= 5
                        self.active_suit = last // nr
                        if effect == 1:
                            self.pending_draw += seven_draw * len(cards)
                        elif effect == 2:
                            self.pending_skip = 1
                        elif effect == 3:
                            self.active_suit = (move >> NAMED_SHIFT & 7) - 1
                if counts[seat] <= 0:
                    finished.append(seat)
                    self.finish_turns.append(self.turn)
                    if penalty_scoring or len(finished) >= n - 1:
                        self.ended = "finished"
                        return
                    if first_out:
                        self.ended = "first out"  # the loop ends after the turn passes on, as in do()
            elif other == DRAW and len(stock) >= (self.pending_draw or 1):
                history.append((seat, DRAW))
                self.turn += 1
                k = self.pending_draw or 1
                self.pending_draw = 0
                self.excluded[seat] = 0
                for _ in range(k):
                    c = stock.pop()
                    if c >= 0:
                        hand |= 1 << c
                hands[seat] = hand
                if self.pool:
                    self.from_pool[seat] += k
                counts[seat] += k
                self.lock = self.skips = 0
            else:  # skips and draws that reshuffle or empty the stock: the full rules
                do(other)
                continue
            if classic and self.turn >= MAX_TURNS:
                self.ended = "turn limit"
                return
            s = seat
            for _ in range(n):
                s = (s + 1) % n
                if s not in finished:
                    self.current = s
                    break

    def _effects(self, cards: list[int], named: int) -> None:
        g = self.game
        nr = g.nranks
        last = cards[-1]
        rank = last % nr
        if g.pharaoh in cards:
            self.pending_draw = 0
            self.pending_skip = 0
        if last == g.pharaoh:
            self.active_suit = -1
            return
        self.active_suit = last // nr
        if rank == g.seven:
            self.pending_draw += g.variant["seven_draw"] * len(cards)
        elif rank == g.ace:
            self.pending_skip = 1
        elif rank == g.ober:
            self.active_suit = named

    def _reshuffle(self) -> None:
        """Turn the discard pile except its top into a new stock (deterministic from shuffle_seed)."""
        if len(self.discard) <= 1:
            return
        pile = self.discard[:-1]
        self.discard = self.discard[-1:]
        self.reshuffles += 1
        # Fisher-Yates on a 64-bit LCG seeded from (shuffle_seed, reshuffles): deterministic, and about 4x
        # cheaper than seeding a fresh random.Random per reshuffle (random playouts reshuffle ~9 times).
        x = (self.shuffle_seed * 0x9E3779B97F4A7C15 + self.reshuffles * 0xBF58476D1CE4E5B9 + 1) & _MASK64
        x ^= x >> 31
        x = (x * 0x94D049BB133111EB) & _MASK64
        for i in range(len(pile) - 1, 0, -1):
            x = (x * 6364136223846793005 + 1442695040888963407) & _MASK64
            j = ((x >> 32) * (i + 1)) >> 32
            pile[i], pile[j] = pile[j], pile[i]
        self.stock = pile
        self.pool = sum(1 << c for c in pile)
        self.from_pool = [0] * len(self.hands)

    def _advance(self) -> None:
        n = self.num_players
        s = self.current
        for _ in range(n):
            s = (s + 1) % n
            if s not in self.finished:
                self.current = s
                return

    def _end(self, reason: str) -> None:
        self.ended = reason

    # --- result -----------------------------------------------------------------------------------
    def ranking(self) -> list[int]:
        """Seats from first to last place: finishers in order, then the rest by kassak2023 4.2 "Ties"."""
        n = self.num_players
        rest = [s for s in range(n) if s not in self.finished]
        rest.sort(key=lambda s: (self.counts[s], -((s - self.starter) % n)))
        return self.finished + rest

    def penalties(self) -> list[int]:
        """Each seat's penalty points for the cards it holds (VII-X face value, Unter 2, Ober 3, King 4, Ace 11)."""
        penalty = self.game.penalty
        return [sum(penalty[c] for c in bits(h)) for h in self.hands]

    def reward_points(self) -> tuple[list[float], float, bool]:
        """What the search's score-based rewards read (:meth:`engine.knowledge.Playouts.reward_points`): each
        seat's points of :meth:`result` (places, or penalty points for the cards left), the sum of their
        absolute values (at least 1) and whether lower is better, without building the result."""
        if not self.ended:
            raise ValueError("the hand is not over")
        if self.game.variant["scoring"] == "penalty":
            pts = [float(p) for p in self.penalties()]
            return pts, max(sum(pts), 1.0), True
        n = len(self.hands)
        pts = [0.0] * n
        for i, s in enumerate(self.ranking()):
            pts[s] = float(n - 1 - i)
        return pts, max(n * (n - 1) / 2, 1.0), False

    def outcomes(self) -> list[float]:
        """1 for the hand's winner (first in :meth:`ranking`), 0 for everyone else (lean PWL reward)."""
        if not self.ended:
            raise ValueError("the hand is not over")
        n = len(self.hands)
        if self.finished:
            winner = self.finished[0]
        else:
            counts = self.counts
            starter = self.starter
            winner = min(range(n), key=lambda s: (counts[s], -((s - starter) % n)))
        out = [0.0] * n
        out[winner] = 1.0
        return out

    def result(self) -> HandResult:
        if not self.ended:
            raise ValueError("the hand is not over")
        g = self.game
        n = self.num_players
        order = self.ranking()
        place_of = [0] * n
        for i, s in enumerate(order):
            place_of[s] = i + 1
        penalty = self.penalties()
        lower = g.lower_is_better()
        if lower:
            points = [float(p) for p in penalty]
        else:
            points = [float(n - place_of[s]) for s in range(n)]
        breakdown = {"places": order, "place_of": place_of, "cards_left": list(self.counts),
                     "penalty": penalty, "ended": self.ended, "finished": list(self.finished),
                     "finish_turns": list(self.finish_turns), "turns": self.turn}
        return HandResult(points=points, teams=g.teams(), team_points=list(points), winners=[order[0]],
                          breakdown=breakdown, lower_is_better=lower)

    # --- information ------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        masked = self.clone()
        masked.shuffle_seed = 0
        unknown = 0
        hidden_hands = []
        if not self.game.variant["open"]:
            for s in range(self.num_players):
                if s != seat:
                    masked.hands[s] = 0
                    if self.hands[s]:
                        unknown |= self.hands[s]
                        hidden_hands.append(s)
        if self.stock:
            unknown |= sum(1 << c for c in self.stock if c >= 0)
            masked.stock = [HIDDEN] * len(self.stock)
        # After a reshuffle the stock holds only cards of the (public) pool, and a hand holds exactly
        # ``from_pool`` pool cards: the slots say so, so that every determinization is consistent.
        pool = self.pool if self.pool else unknown
        slots: list[HiddenSlot] = []
        for s in hidden_hands:
            fresh = self.from_pool[s] if self.pool else 0
            old = self.counts[s] - fresh
            allowed = unknown & ~self.excluded[s]
            if old:
                slots.append(HiddenSlot(f"hand{s}", s, old, allowed & ~self.pool if self.pool else allowed))
            if fresh:
                slots.append(HiddenSlot(f"hand{s}pool", s, fresh, allowed & pool))
        if self.stock:
            slots.append(HiddenSlot("stock", -1, len(self.stock), unknown & pool, True))
        return Observation(seat, masked, unknown, slots)

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        for k, (slot, cards) in enumerate(zip(slots, assignment, strict=True)):
            if slot.name == "stock":
                if orders is not None and k in orders:
                    self.stock = orders[k][:]
                    continue
                stock = bits(cards)
                rand = rng.random
                for i in range(len(stock) - 1, 0, -1):  # Fisher-Yates on rng.random(): one C call per card
                    j = int(rand() * (i + 1))
                    stock[i], stock[j] = stock[j], stock[i]
                self.stock = stock
            else:
                self.hands[slot.owner] |= cards
        self.shuffle_seed = rng.getrandbits(62)

    # --- notation ---------------------------------------------------------------------------------
    def move_cards(self, move: int) -> tuple[int, ...]:
        """The played cards in the order played (a draw or a skip: none)."""
        return tuple(play_cards(move))

    def move_text(self, move: int) -> str:
        if move == DRAW:
            return "draw"
        if move == SKIP:
            return "skip"
        d = self.game.deck
        text = "+".join(d.text(c) for c in play_cards(move))
        named = named_suit(move)
        return text + (">" + d.suits[named] if named >= 0 else "")

    def describe_move(self, move: int) -> str:
        d = self.game.deck
        if move == DRAW:
            k = self.pending_draw or 1
            return f"draws {k} card{'s' if k > 1 else ''}"
        if move == SKIP:
            return "misses the turn (Ace)" if self.pending_skip else "skips"
        text = "plays " + ", ".join(d.long_name(c) for c in play_cards(move))
        named = named_suit(move)
        return text + (f" and names {d.suit_names[named]}" if named >= 0 else "")

    def parse_move(self, text: str) -> int:
        return parse_move_text(self.game.deck, text)

    def illegal_move(self, move: int) -> IllegalMove | None:
        if self.ended:
            return IllegalMove("hand_over", "the hand is over")
        if isinstance(move, bool) or not isinstance(move, int):
            return IllegalMove("not_a_move", f"a move must be an int, not {type(move).__name__}")
        legal = self.legal_moves()
        if move in legal:
            return None
        g = self.game
        d = g.deck
        ace = IllegalMove("ace_pending", "an Ace is pending: play an Ace or the Pharaoh, or skip the turn")
        seven = IllegalMove("seven_pending",
                            f"a VII is pending: play a VII or the Pharaoh, or draw {self.pending_draw}",
                            {"n": self.pending_draw})
        if move == DRAW:
            if self.pending_skip:
                return ace
            if not g.classic:
                return IllegalMove("stock_empty_skip", "the stock is empty: skip")
            return IllegalMove("nothing_to_draw", "there is no card left to draw")
        if move == SKIP:
            if not g.classic:
                return IllegalMove("stock_not_empty", "the stock is not empty: play or draw")
            if self.pending_draw:
                return seven
            return IllegalMove("skip_when_stuck", "you may only pass when you can neither play nor draw")
        if move < 0 or move & 3 != PLAY:
            return IllegalMove("not_a_move", f"{move} is not a move", {"move": move})
        cards = play_cards(move)
        if not cards or any(not 0 <= c < d.size for c in cards):
            return IllegalMove("not_a_move", f"{move} is not a move of the {d.name} deck", {"move": move})
        if len(set(cards)) != len(cards):
            return IllegalMove("not_a_move", "a card is listed twice", {"move": move})
        hand = self.hands[self.current]
        for c in cards:
            if not hand >> c & 1:
                return IllegalMove("not_in_hand", f"{d.text(c)} is not in seat {self.current}'s hand",
                                   {"card": c, "seat": self.current})
        nr = g.nranks
        if len({c % nr for c in cards}) > 1:
            return IllegalMove("same_rank", "cards played together must have the same rank")
        named = named_suit(move)
        last = cards[-1]
        if g.classic and last % nr == g.ober and named < 0:
            return IllegalMove("name_a_suit", f"an Ober must name a suit, e.g. {d.text(last)}>{d.suits[0]}",
                               {"card": last})
        if named >= 0 and (not g.classic or last % nr != g.ober):
            return IllegalMove("only_ober_names", "only an Ober (as the last card) names a suit")
        if named >= g.nsuits:
            return IllegalMove("not_a_move", "the named suit does not exist", {"move": move})
        first = cards[0]
        if g.classic and self.pending_draw:
            return seven
        if g.classic and self.pending_skip:
            return ace
        top = self.top
        rank_name = d.rank_names[top % nr]
        article = "an" if rank_name[0] in "AEIOU" else "a"
        if g.classic and self.active_suit >= 0 and self.active_suit != top // nr:
            suit = d.suit_names[self.active_suit]
            return IllegalMove("named_suit", f"the named suit is {suit}: play {suit}, an Ober or the Pharaoh",
                               {"suit": self.active_suit})
        extra = ", an Ober or the Pharaoh" if g.classic else ""
        if not g.classic and first // nr != top // nr and first % nr != top % nr:
            return IllegalMove("follow_top", f"the top card is {d.long_name(top)}: the first card must be "
                               f"{d.suit_names[top // nr]}, or all cards {article} {rank_name}",
                               {"card": top, "suit": top // nr})
        if not self.can_start(first):
            return IllegalMove("follow_top", f"the top card is {d.long_name(top)}: play {d.suit_names[top // nr]} "
                               f"or {article} {rank_name}{extra}", {"card": top, "suit": top // nr})
        return IllegalMove("not_legal", f"{self.move_text(move)} is not legal now", {"move": move})

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = self.game.deck
        return {
            "hands": [d.set_text(h) for h in self.hands], "counts": list(self.counts),
            "stock": ["??" if c < 0 else d.text(c) for c in self.stock],
            "discard": [d.text(c) for c in self.discard],
            "active_suit": self.active_suit, "pending_draw": self.pending_draw, "pending_skip": self.pending_skip,
            "current": self.current, "dealer": self.dealer, "starter": self.starter,
            "finished": list(self.finished), "finish_turns": list(self.finish_turns), "turn": self.turn,
            "lock": self.lock, "skips": self.skips, "reshuffles": self.reshuffles,
            "shuffle_seed": self.shuffle_seed,
            "history": [[s, self.move_text(m)] for s, m in self.history], "ended": self.ended,
            "pool": self.game.deck.set_text(self.pool), "from_pool": list(self.from_pool),
            "excluded": [self.game.deck.set_text(m) for m in self.excluded],
        }

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> PharaohState:
        if not isinstance(game, Pharaoh):
            raise TypeError(f"a Pharaoh state needs its game, not {game!r}")
        deck = game.deck
        s = object.__new__(cls)
        s.game = game
        try:
            s.hands = [deck.parse_set(h) for h in d["hands"]]
            s.counts = [_int(x, "counts") for x in d["counts"]]
            s.stock = [HIDDEN if c == "??" else deck.parse(c) for c in d["stock"]]
            s.discard = [deck.parse(c) for c in d["discard"]]
            for name in ("active_suit", "pending_draw", "pending_skip", "current", "dealer", "starter", "turn",
                         "lock", "skips", "reshuffles", "shuffle_seed"):
                setattr(s, name, _int(d[name], name))
            s.finished = [_int(x, "finished") for x in d["finished"]]
            s.finish_turns = [_int(x, "finish_turns") for x in d["finish_turns"]]
            s.history = [(_int(seat, "history seat"), parse_move_text(deck, str(m))) for seat, m in d["history"]]
            s.ended = str(d["ended"])
            s.pool = deck.parse_set(d["pool"])
            s.from_pool = [_int(x, "from_pool") for x in d["from_pool"]]
            s.excluded = [deck.parse_set(m) for m in d["excluded"]]
        except NotationError as e:
            raise StateFormatError(f"bad card or move in pharaoh state: {e}") from None
        return s

    def validate(self) -> None:
        g = self.game
        n = g.num_players
        if len(self.hands) != n or len(self.counts) != n:
            raise StateFormatError(f"state has {len(self.hands)} hands but the variant has {n} players")
        for name in ("current", "dealer", "starter"):
            if not 0 <= getattr(self, name) < n:
                raise StateFormatError(f"{name} seat out of range 0..{n - 1}")
        if not self.discard:
            raise StateFormatError("the discard pile is empty")
        if not -1 <= self.active_suit < g.nsuits or self.pending_draw < 0 or self.pending_skip not in (0, 1):
            raise StateFormatError("bad suit or pending penalty")
        if len(set(self.finished)) != len(self.finished) or any(not 0 <= s < n for s in self.finished) \
                or len(self.finish_turns) != len(self.finished):
            raise StateFormatError("bad finishing order")
        seen = 0
        for c in [c for c in self.stock if c >= 0] + self.discard:
            if seen >> c & 1:
                raise StateFormatError(f"card {g.deck.text(c)} appears twice")
            seen |= 1 << c
        for h, cnt in zip(self.hands, self.counts, strict=True):
            if seen & h:
                raise StateFormatError("a card appears in two places")
            seen |= h
            if cnt < popcount(h):
                raise StateFormatError("a hand holds more cards than its count")
        if len(self.from_pool) != n or any(not 0 <= f <= c for f, c in zip(self.from_pool, self.counts, strict=True)):
            raise StateFormatError("bad from_pool counts")
        if len(self.excluded) != n or any(h & x for h, x in zip(self.hands, self.excluded, strict=True)):
            raise StateFormatError("a seat holds a card it was seen not to hold")
        if all(c >= 0 for c in self.stock) and sum(self.counts) == sum(map(popcount, self.hands)) \
                and seen != g.deck.full_mask:
            raise StateFormatError(f"cards do not add up to the {g.deck.size}-card deck")
        if self.ended not in ("", "finished", "locked", "no progress", "turn limit", "first out"):
            raise StateFormatError(f"unknown end reason {self.ended!r}")

    def card_total(self) -> int:
        """Cards in hands, stock and discard pile (always the deck size: conservation check)."""
        return sum(self.counts) + len(self.stock) + len(self.discard)

    def __repr__(self) -> str:
        d = self.game.deck
        return f"PharaohState(top={d.text(self.top)}, current={self.current}, counts={self.counts})"

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = frozenset({
        "hand_over", "not_a_move", "not_in_hand", "ace_pending", "seven_pending", "stock_empty_skip",
        "nothing_to_draw", "stock_not_empty", "skip_when_stuck", "same_rank", "name_a_suit", "only_ober_names",
        "named_suit", "follow_top", "not_legal"})

    def named_suit(self, move: int) -> int | None:
        suit = named_suit(move) if move & 3 == PLAY else -1
        return suit if suit >= 0 else None

    def draw_count(self, move: int) -> int:
        """A draw takes the pending VII penalty (else one card), as far as the stock (and, in the classic rules,
        the discard pile under its top card, reshuffled) reaches."""
        if move != DRAW or self.ended:
            return 0
        available = len(self.stock) + (max(0, len(self.discard) - 1) if self.game.classic else 0)
        return min(self.pending_draw or 1, available)

    # --- the table API: seats (engine/game.py) -------------------------------------------------------
    def hand_cards(self, seat: int) -> tuple[int, ...]:
        return tuple(bits(self.hands[seat])) if 0 <= seat < len(self.hands) else ()

    def hand_size(self, seat: int) -> int:
        return self.counts[seat] if 0 <= seat < len(self.hands) else 0

    def dealer_seat(self) -> int | None:
        return self.dealer

    # --- the table API: the centre of the table (engine/game.py) ------------------------------------------
    def stock_count(self) -> int | None:
        return len(self.stock)

    def discard_pile(self) -> tuple[int, ...]:
        return tuple(c for c in self.discard if c >= 0)

    def suit_to_follow(self) -> int | None:
        return self.active_suit if 0 <= self.active_suit < len(self.game.deck.suits) and not self.ended else None

    def penalty_pending(self) -> tuple[int, int]:
        return (0, 0) if self.is_terminal() else (self.pending_draw, self.pending_skip)

    def finishing_order(self) -> tuple[int, ...]:
        return tuple(self.finished)


def parse_move_text(deck: Deck, text: str) -> int:
    """Parse ``draw``, ``skip``/``pass``, ``7L+7H`` or ``OL>H`` into a move int."""
    t = text.strip()
    low = t.lower()
    if low in ("draw", "d"):
        return DRAW
    if low in ("skip", "pass", "s"):
        return SKIP
    if not t:
        raise NotationError("empty move: expected e.g. 'draw', 'skip', '7L', '7L+7H' or 'OL>H'")
    body, sep, suit = t.partition(">")
    named = -1
    if sep:
        sym = suit.strip().upper()
        if sym not in deck.suits:
            raise NotationError(f"bad named suit {suit!r} in {text!r} (suits: {' '.join(deck.suits)})")
        named = deck.suits.index(sym)
    cards = [deck.parse(tok) for tok in body.replace("+", " ").replace(",", " ").split()]
    if not cards:
        raise NotationError(f"bad move {text!r}: no cards")
    if len(cards) > 4:
        raise NotationError(f"bad move {text!r}: at most 4 cards of one rank")
    return encode_play(cards, named)


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise StateFormatError(f"{what} must be an integer, got {x!r}")
    return x
