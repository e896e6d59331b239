"""Shared core of the trick-taking games (Sueca, Bisca/Briscola, Hearts, Moss Side Whist).

A :class:`TrickState` holds hands as card bitmasks, the current trick, captured cards, known voids and
the public history. Games subclass it and override the small hooks (legal moves, trick end, scoring,
what other seats know). Moves are card indexes; a game may add flag bits for special moves
(:data:`PASS_FLAG` marks a Hearts pass or a Moss Side Whist discard).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cached_property
from typing import Any, ClassVar

from engine.cards import Deck, NotationError, bits, popcount
from engine.game import Game, GameState, IllegalMove, StateFormatError
from engine.observation import HiddenSlot, Observation

CARD_BITS = (1 << 8) - 1
"""The card index bits of a trick-game move."""
PASS_FLAG = 1 << 8
"""Flag bit on a move that passes/discards a card instead of playing it to a trick."""
HIDDEN_MOVE = -1
"""A move another seat made face down (recorded in observations without its card)."""


def _kth_card(tables: CardTables) -> Callable[[int, int], int]:
    """``kth(cards, k)``: the ``k``-th lowest card of a set (with the tables' flag): for a four-suit deck,
    which half of the suits, which suit, then one table lookup (the hot paths' way to pick a random card)."""
    if tables.num_suits != 4:
        def kth_any(cards: int, k: int) -> int:
            for table, shift in zip(tables.suit_cards, tables.shift, strict=True):
                sub = table[cards >> shift & tables.rank_mask]
                if k < len(sub):
                    return sub[k]
                k -= len(sub)
            raise IndexError("k is not below the number of cards")
        return kth_any
    suit0, suit1, suit2, suit3 = tables.suit_cards
    ranks, rank_mask = tables.ranks, tables.rank_mask
    ranks2, low_half = 2 * ranks, (1 << 2 * ranks) - 1

    def kth(cards: int, k: int) -> int:
        half = cards & low_half
        n_low = half.bit_count()
        if k < n_low:
            sub = suit0[half & rank_mask]
            return sub[k] if k < len(sub) else suit1[half >> ranks][k - len(sub)]
        k -= n_low
        half = cards >> ranks2
        sub = suit2[half & rank_mask]
        return sub[k] if k < len(sub) else suit3[half >> ranks][k - len(sub)]

    return kth


class CardTables:
    """Lookup tables of a deck for the search hot paths (built once per deck, shared).

    ``suit_cards[s][sub]`` is the ascending tuple of the cards of suit ``s`` whose rank bits are ``sub``
    (``sub = mask >> shift[s] & rank_mask``), so a suit's cards of a hand are one shift, one mask and one
    index away, in the same order as :func:`engine.cards.bits`. With ``flag`` every card is or-ed with it
    (move lists such as ``PASS_FLAG | card``).
    """

    __slots__ = ("deck", "flag", "ranks", "rank_mask", "shift", "suit_cards", "num_suits", "kth")

    def __init__(self, deck: Deck, flag: int = 0) -> None:
        self.deck = deck
        self.flag = flag
        r = len(deck.ranks)
        self.ranks = r
        self.rank_mask = (1 << r) - 1
        self.num_suits = len(deck.suits)
        self.shift = [s * r for s in range(self.num_suits)]
        self.suit_cards: list[list[tuple[int, ...]]] = []
        for s in range(self.num_suits):
            table: list[tuple[int, ...]] = [()] * (1 << r)
            base = s * r | flag
            for sub in range(1, 1 << r):
                high = sub.bit_length() - 1
                table[sub] = table[sub ^ (1 << high)] + (base + high,)
            self.suit_cards.append(table)
        self.kth: Callable[[int, int], int] = _kth_card(self)

    def __reduce__(self) -> tuple[Any, tuple[Deck, int]]:
        return card_tables, (self.deck, self.flag)  # pickled as a reference: rebuilt (or shared) on loading

    def cards(self, mask: int) -> list[int]:
        """The cards of ``mask`` in increasing order (as :func:`engine.cards.bits`, by table lookups)."""
        r, m, t = self.ranks, self.rank_mask, self.suit_cards
        if self.num_suits == 4:
            return [*t[0][mask & m], *t[1][mask >> r & m], *t[2][mask >> 2 * r & m], *t[3][mask >> 3 * r & m]]
        out: list[int] = []
        for s in range(self.num_suits):
            out += t[s][mask >> s * r & m]
        return out


_TABLES: dict[tuple[str, int], CardTables] = {}


def card_tables(deck: Deck, flag: int = 0) -> CardTables:
    """The shared :class:`CardTables` of ``deck`` (cards or-ed with ``flag``)."""
    tables = _TABLES.get((deck.name, flag))
    if tables is None:
        tables = _TABLES[(deck.name, flag)] = CardTables(deck, flag)
    return tables


def trick_so_far(trick: list[int], seats: tuple[int, ...], key: Any) -> tuple[int, int, int]:
    """A trick in progress for the inlined rollouts: the seat winning it so far, that card's winner key and the
    bitmask of the trick's cards (``seats`` play the trick in order from its leader; ``key`` maps a card to its
    winner key for the led suit, as ``TrickGame.winner_keys(trump)[led]``)."""
    best, best_v, mask = seats[0], -2, 0
    for seat, c in zip(seats, trick, strict=False):
        mask |= 1 << c
        if key[c] > best_v:
            best, best_v = seat, key[c]
    return best, best_v, mask


def exchange_or_pick(hand: int, count: int, xcard: int, stock: list[int],
                     rand: Callable[[], float]) -> tuple[int, int, bool]:
    """A random move of a hand of ``count`` cards holding the exchange card ``xcard`` while stock remains
    (Bisca's trump exchange: the last of the legal moves, after which the same seat plays a card), for the
    scoring playouts: returns the hand, the index of the card to play in it, and whether the exchange is
    still possible. An exchange swaps ``xcard`` for the face-up trump ``stock[0]``."""
    k = int(rand() * (count + 1))
    if k < count:
        return hand, k, True
    hand ^= 1 << xcard | 1 << stock[0]
    stock[0] = xcard
    return hand, int(rand() * count), False


def trick_to_finish(state: Any, keys: list[list[int]]) -> tuple[int, tuple[int, ...], int, list[int], int, int,
                                                                  int, int]:
    """Where an inlined playout of ``state`` starts: ``(trick leader, seats still to play, led suit, its row of
    ``keys``, winning seat, winning key, winning card, bitmask of the cards on the table)`` for a trick in
    progress; with none, ``(the seat to lead, (), -1, [], -1, -1, -1, 0)``."""
    trick = state.trick
    if not trick:
        return state.current, (), -1, [], -1, -1, -1, 0
    leader = state.leader
    followers = state.game.followers
    led = state.game.suit_of[trick[0]]
    key = keys[led]
    best, best_v, w = trick_so_far(trick, (leader,) + followers[leader], key)
    best_card = trick[(best - leader) % len(state.hands)]
    return leader, followers[leader][len(trick) - 1:], led, key, best, best_v, best_card, w


_RANK_BITS = (1 << 13) - 1


def equivalent_cards(game: TrickGame, legal: int, in_play: int) -> dict[int, int]:
    """``{card: stand-in}`` for each card of ``legal`` that plays exactly like a lower card of ``legal``: the
    same suit and card points, and no card of ``in_play`` (the cards in hands or on the table) between them.
    Whichever of the two is played, the rest of the hand can go the same way with the other one."""
    points = game.card_points
    suit_masks = game.suit_masks
    same: dict[int, int] = {}
    for s, order in enumerate(game.suit_by_strength):
        if not legal & suit_masks[s]:
            continue
        stand_in = -1  # the lowest card of the current run of legal cards
        for c in order:
            if not in_play >> c & 1:
                continue
            if legal >> c & 1:
                if stand_in >= 0 and points[c] == points[stand_in]:
                    same[c] = stand_in
                else:
                    stand_in = c
            else:
                stand_in = -1
    return same


def lowest_rank_card(mask: int) -> int:
    """In a 52-card deck laid out suit by suit, 13 ranks each from the weakest: the card of lowest rank in
    a non-empty ``mask`` (ties: the lowest suit). For the greedy playouts."""
    best, best_rank = -1, 13
    for base in (0, 13, 26, 39):
        suit = mask >> base & _RANK_BITS
        if suit:
            rank = (suit & -suit).bit_length() - 1
            if rank < best_rank:
                best, best_rank = base + rank, rank
    return best


def highest_rank_card(mask: int) -> int:
    """:func:`lowest_rank_card`'s counterpart: the card of highest rank (ties: the lowest suit)."""
    best, best_rank = -1, -1
    for base in (0, 13, 26, 39):
        suit = mask >> base & _RANK_BITS
        if suit:
            rank = suit.bit_length() - 1
            if rank > best_rank:
                best, best_rank = base + rank, rank
    return best


def solo_outcomes(points: list[int], best: int) -> list[float]:
    """Outcomes of an every-seat-for-itself hand: 1 for the only seat with ``best`` points, 0.5 for each of
    several (a shared win, or a draw when every seat has it), 0 for the others."""
    if points.count(best) == 1:
        return [1.0 if p == best else 0.0 for p in points]
    return [0.5 if p == best else 0.0 for p in points]


def side_outcomes(lead: int, num_players: int) -> list[float]:
    """Outcomes when side 0 (seat 0, or seats 0 and 2) has ``lead`` more card points than side 1."""
    if lead > 0:
        return [1.0, 0.0, 1.0, 0.0] if num_players == 4 else [1.0, 0.0]
    if lead < 0:
        return [0.0, 1.0, 0.0, 1.0] if num_players == 4 else [0.0, 1.0]
    return [0.5] * num_players


class TrickGame(Game):
    """Common setup of trick-taking games: deck tables, strength/points per card."""

    deck: Deck
    strength_order: ClassVar[str] = ""  # rank symbols from weakest to strongest
    card_points_by_rank: ClassVar[dict[str, int]] = {}
    follow_after_stock: ClassVar[bool] = True
    """Whether a follower must follow suit once no stock is left (always, in a game without a stock)."""
    points_decide: ClassVar[bool] = False
    """Whether the hand's outcome (``outcomes()``) is "the side (seat or partnership of ``seat % 2``) with more
    card points wins": then a playout may stop once a side holds more than half of the points."""

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        super().__init__(variant)
        d = self.deck
        n = len(d.ranks)
        order = self.strength_order.split()
        self.suit_of: list[int] = [c // n for c in range(d.size)]
        self.strength: list[int] = [order.index(d.ranks[c % n]) for c in range(d.size)]
        self.card_points: list[int] = [self.card_points_by_rank.get(d.ranks[c % n], 0) for c in range(d.size)]
        self.suit_masks: list[int] = [d.suit_mask(s) for s in range(len(d.suits))]
        self.suit_by_strength: list[tuple[int, ...]] = [
            tuple(sorted(range(s * n, (s + 1) * n), key=self.strength.__getitem__)) for s in range(len(d.suits))]
        """Each suit's cards from the weakest to the strongest (for :meth:`TrickState.solver_moves`)."""
        n_players = self.num_players
        self.followers: list[tuple[int, ...]] = [tuple((lead + i) % n_players for i in range(1, n_players))
                                                 for lead in range(n_players)]  # the others after a leader
        self._winner_keys: dict[int, list[list[int]]] = {}

    @cached_property
    def tables(self) -> CardTables:
        """The deck's shared :class:`CardTables` (built on first use)."""
        return card_tables(self.deck)

    @cached_property
    def rank_points(self) -> list[int]:
        """``rank_points[sub]``: the card points of one suit's cards whose rank bits are ``sub`` (card points
        depend on the rank only), for summing a set's points with one lookup per suit (four suits)."""
        d = self.deck
        assert len(d.suits) == 4, "rank_points sums assume a four-suit deck"
        values = [self.card_points_by_rank.get(r, 0) for r in d.ranks]
        table = [0] * (1 << len(values))
        for sub in range(1, len(table)):
            high = sub.bit_length() - 1
            table[sub] = table[sub ^ (1 << high)] + values[high]
        return table

    def points_of(self, cards: int) -> int:
        """Card points of a card set: one :attr:`rank_points` lookup per suit."""
        rp, r, m = self.rank_points, self.tables.ranks, self.tables.rank_mask
        return rp[cards & m] + rp[cards >> r & m] + rp[cards >> 2 * r & m] + rp[cards >> 3 * r]

    @cached_property
    def total_points(self) -> int:
        """The card points of the whole deck."""
        return sum(self.card_points)

    @cached_property
    def winning_points(self) -> int:
        """With :attr:`points_decide`: more card points than this (half of the deck's) win the hand; else 0."""
        return sum(self.card_points) // 2 if self.points_decide else 0

    @cached_property
    def pass_tables(self) -> CardTables:
        """:class:`CardTables` whose cards carry :data:`PASS_FLAG` (pass/discard move lists)."""
        return card_tables(self.deck, PASS_FLAG)

    def playout_tables(self, trump: int) -> tuple[Any, ...]:
        """The lookups of the inlined playouts, in one tuple: ``(suit_cards, shift, rank_mask, kth,
        winner_keys(trump), followers, suit_of)`` (see :class:`CardTables` and :meth:`winner_keys`)."""
        t = self.tables
        return t.suit_cards, t.shift, t.rank_mask, t.kth, self.winner_keys(trump), self.followers, self.suit_of

    def winner_keys(self, trump: int) -> list[list[int]]:
        """``keys[led][card]``: a card wins a trick led in suit ``led`` over every card with a lower key
        (trumps above the led suit, off-suit cards -1; ``trump`` -1 = no trump). Cached per trump suit."""
        keys = self._winner_keys.get(trump)
        if keys is None:
            n = len(self.deck.ranks)
            keys = [[self.strength[c] + 2 * n if self.suit_of[c] == trump else
                     self.strength[c] if self.suit_of[c] == led else -1 for c in range(self.deck.size)]
                    for led in range(len(self.deck.suits))]
            self._winner_keys[trump] = keys
        return keys

    def deal(self, rng: random.Random) -> list[int]:
        """A shuffled list of every card of the deck."""
        cards = list(range(self.deck.size))
        rng.shuffle(cards)
        return cards


_PLAIN_RULES = ("legal_moves", "legal_mask", "do", "is_terminal", "_finish_trick", "trick_winner_index",
                "after_trick")
"""Methods a subclass keeps when :meth:`TrickState.play_out_tricks` may replace its generic rollout."""


class TrickState(GameState):
    """A trick-taking hand in progress (mutable; :meth:`clone` is cheap)."""

    __slots__ = ("game", "hands", "current", "leader", "trick", "trump", "won", "tricks_won", "voids",
                 "history", "dealer", "num_players")

    game: TrickGame
    _plain_tricks: ClassVar[bool] = True  # see __init_subclass__
    _solver_ignores: ClassVar[tuple[str, ...]] = ()
    """Fields a game adds that never change how the rest of the hand plays out or scores (what is publicly
    known of hands): :meth:`solver_key` leaves them out."""
    _solver_slots: ClassVar[tuple[str, ...]] = ()  # the other added fields, set by __init_subclass__

    def __init__(self, game: TrickGame, hands: list[int], leader: int, trump: int, dealer: int) -> None:
        self.game = game
        self.num_players = len(hands)
        self.hands = hands
        self.current = leader
        self.leader = leader
        self.trick: list[int] = []
        self.trump = trump
        self.won = [0] * self.num_players
        self.tricks_won = [0] * self.num_players
        self.voids = [0] * self.num_players  # suit bitmask per seat (public knowledge)
        self.history: list[tuple[int, int]] = []  # (seat, move); HIDDEN_MOVE in observations
        self.dealer = dealer

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The table-driven legal_moves below follows this class's legal_mask; a subclass that changes
        # only legal_mask gets the mask-based version.
        if "legal_mask" in cls.__dict__ and cls.legal_moves is TrickState.legal_moves:
            cls.legal_moves = TrickState.legal_moves_from_mask  # type: ignore[method-assign]
        cls._plain_tricks = all(getattr(cls, name) is getattr(TrickState, name) for name in _PLAIN_RULES)
        extra: list[str] = []
        for klass in reversed(cls.__mro__[:cls.__mro__.index(TrickState)]):
            extra.extend(n for n in klass.__dict__.get("__slots__", ()) if n not in cls._solver_ignores)
        cls._solver_slots = tuple(extra)

    # --- copying ----------------------------------------------------------------------------------
    def clone(self) -> TrickState:
        other = object.__new__(type(self))
        other.game = self.game
        other.num_players = self.num_players
        other.hands = self.hands[:]
        other.current = self.current
        other.leader = self.leader
        other.trick = self.trick[:]
        other.trump = self.trump
        other.won = self.won[:]
        other.tricks_won = self.tricks_won[:]
        other.voids = self.voids[:]
        other.history = self.history[:]
        other.dealer = self.dealer
        self._copy_extra(other)
        return other

    def solver_equivalence_applies(self) -> bool:
        """Whether :meth:`solver_equivalents` may merge cards in this state (games with hidden stock order
        or card-specific rules override)."""
        return True

    def score_key(self) -> Any:
        """What of the captured cards the rest of the hand's result depends on (default: every seat's cards;
        games whose hands are decided by card points alone use the points)."""
        if self.game.points_decide:
            points_of = self.game.points_of
            return tuple([points_of(w) for w in self.won])
        return tuple(self.won)

    def _copy_extra(self, other: TrickState) -> None:
        """Copy the fields a game adds to the trick state into a clone (games override; default: none)."""

    # --- rules ------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.current if self.trick or any(self.hands) else -1

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.num_players

    def is_terminal(self) -> bool:
        return not self.trick and not any(self.hands)

    def legal_mask(self) -> int:
        """Playable cards of the current player as a bitmask (follow suit if able)."""
        hand = self.hands[self.current]
        if self.trick:
            follow = hand & self.game.suit_masks[self.game.suit_of[self.trick[0]]]
            if follow:
                return follow
        return hand

    def legal_moves(self) -> list[int]:
        # A terminal state's current hand is empty, so no separate terminal check is needed.
        hand = self.hands[self.current]
        trick = self.trick
        tables = self.game.tables
        if trick:
            led = self.game.suit_of[trick[0]]
            follow = tables.suit_cards[led][hand >> tables.shift[led] & tables.rank_mask]
            if follow:
                return list(follow)
        return tables.cards(hand)

    def legal_moves_from_mask(self) -> list[int]:
        """The cards of :meth:`legal_mask` (empty when the hand is over)."""
        if self.is_terminal():
            return []
        return self.game.tables.cards(self.legal_mask())

    def trick_winner_index(self) -> int:
        """Index in ``self.trick`` of the card currently winning the trick."""
        trick = self.trick
        key = self.game.winner_keys(self.trump)[self.game.suit_of[trick[0]]]
        best = 0
        best_v = key[trick[0]]
        for i in range(1, len(trick)):
            v = key[trick[i]]
            if v > best_v:
                best, best_v = i, v
        return best

    def do(self, move: int) -> None:
        seat = self.current
        self.hands[seat] &= ~(1 << move)
        trick = self.trick
        if trick:
            suit_of = self.game.suit_of
            led = suit_of[trick[0]]
            if suit_of[move] != led:
                self.voids[seat] |= 1 << led
        trick.append(move)
        self.history.append((seat, move))
        if len(trick) == self.num_players:
            self._finish_trick()
        else:
            self.current = (seat + 1) % self.num_players

    def side_points(self) -> list[int]:
        """Card points captured so far by each side: seats 0, 2 and seats 1, 3 (or seat 0 and seat 1)."""
        won = self.won
        points_of = self.game.points_of
        if len(won) == 4:
            return [points_of(won[0] | won[2]), points_of(won[1] | won[3])]
        return [points_of(won[0]), points_of(won[1])]

    def play_out_tricks(self, rng: random.Random, record: bool = True) -> None:
        """Play the remaining tricks (follow suit if able, ``self.trump`` wins) with uniformly random legal
        cards: exactly the choices, voids, history and final state of the generic loop
        ``do(legal_moves()[int(rng.random() * len(moves))])`` of this class's rules, one trick at a time
        with table lookups (a followed suit's cards, trick-winner keys) instead of move lists. ``record`` False
        skips the history and the voids (the search's scoring playouts: same choices, tricks and piles)."""
        g = self.game
        suit_cards, shifts, rank_mask, kth, keys, followers, suit_of = g.playout_tables(self.trump)
        hands, voids, won, tricks_won = self.hands, self.voids, self.won, self.tricks_won
        append = self.history.append
        rand = rng.random
        trick = self.trick
        leader = self.leader
        if trick:  # finish the trick in progress
            led = suit_of[trick[0]]
            key = keys[led]
            best, best_v, w = trick_so_far(trick, (leader,) + followers[leader], key)
            seats: tuple[int, ...] = followers[leader][len(trick) - 1:]
        else:
            leader = self.current
            if not hands[leader]:
                return
            seats = ()
        while True:
            if not seats:  # lead a new trick with any card
                hand = hands[leader]
                if not hand:
                    break
                card = kth(hand, int(rand() * hand.bit_count()))
                w = 1 << card
                hands[leader] = hand ^ w
                if record:
                    append((leader, card))
                led = suit_of[card]
                key = keys[led]
                best, best_v = leader, key[card]
                seats = followers[leader]
            table = suit_cards[led]
            shift = shifts[led]
            for seat in seats:
                hand = hands[seat]
                follow = table[hand >> shift & rank_mask]
                if follow:
                    card = follow[int(rand() * len(follow))]
                    bit = 1 << card
                else:
                    if record:
                        voids[seat] |= 1 << led
                    card = kth(hand, int(rand() * hand.bit_count()))
                    bit = 1 << card
                hands[seat] = hand ^ bit
                w |= bit
                if key[card] > best_v:
                    best, best_v = seat, key[card]
                if record:
                    append((seat, card))
            won[best] |= w
            tricks_won[best] += 1
            leader = best
            seats = ()
        trick.clear()
        self.leader = self.current = leader

    def _finish_trick(self) -> None:
        idx = self.trick_winner_index()
        winner = (self.leader + idx) % self.num_players
        for c in self.trick:
            self.won[winner] |= 1 << c
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = winner
        self.current = winner
        self.after_trick(winner)

    def after_trick(self, winner: int) -> None:
        """Hook after a trick is gathered (Bisca draws from the stock here)."""

    # --- what the table shows ------------------------------------------------------------------------
    def move_cards(self, move: int) -> tuple[int, ...]:
        """A play or a pass/discard: its card; a special move (Bisca's trump exchange) or a hidden one: ()."""
        if move < 0 or move & ~(CARD_BITS | PASS_FLAG):
            return ()
        return (move & CARD_BITS,)

    def is_pass_move(self, move: int) -> bool:
        return move >= 0 and bool(move & PASS_FLAG)

    def last_trick(self) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """The last completed trick: its winner (who leads the trick after it) and its ``(seat, card)`` plays,
        read from the history (passes, discards and special moves are not plays)."""
        plays = [(seat, move) for seat, move in self.history if 0 <= move <= CARD_BITS]
        done = len(plays) - len(self.trick)
        if done < self.num_players:
            return None
        return self.leader, tuple(plays[done - self.num_players:done])

    def trump_suit(self) -> int | None:
        return self.trump if 0 <= self.trump < len(self.game.suit_masks) else None

    # --- information ------------------------------------------------------------------------------
    def trick_seats(self) -> list[int]:
        """Seat of each card in the current trick."""
        return [(self.leader + i) % self.num_players for i in range(len(self.trick))]

    def points_of(self, seat: int) -> int:
        """Card points in ``seat``'s captured cards."""
        return self.points_in(self.won[seat])

    def points_in(self, cards: int) -> int:
        """Card points of a card set."""
        return self.game.points_of(cards)

    def known_to(self, seat: int, observer: int) -> int:
        """Cards of ``seat``'s hand that ``observer`` knows are there (default: own hand only)."""
        return self.hands[seat] if seat == observer else 0

    def hidden_allowed(self, seat: int, observer: int) -> int:
        """Cards ``seat`` may hold from ``observer``'s point of view (voids removed)."""
        allowed = self.game.deck.full_mask
        for s in range(len(self.game.suit_masks)):
            if self.voids[seat] >> s & 1:
                allowed &= ~self.game.suit_masks[s]
        return allowed

    def extra_slots(self, observer: int, masked: TrickState) -> list[tuple[HiddenSlot, int]]:
        """Hook: hidden slots beyond the other hands (a stock, hidden discards) and their true contents."""
        return []

    def mask_history(self, observer: int) -> list[tuple[int, int]]:
        """The history as ``observer`` saw it (hidden moves replaced by HIDDEN_MOVE)."""
        return self.history[:]

    def observation(self, seat: int) -> Observation:
        masked = self.clone()
        masked.history = self.mask_history(seat)
        unknown = 0
        slots: list[HiddenSlot] = []
        for s in range(self.num_players):
            known = self.known_to(s, seat)
            hidden = self.hands[s] & ~known
            masked.hands[s] = known
            if hidden:
                unknown |= hidden
                slots.append(HiddenSlot(f"hand{s}", s, popcount(hidden), self.hidden_allowed(s, seat)))
        for slot, contents in self.extra_slots(seat, masked):
            unknown |= contents
            slots.append(slot)
        if slots:
            allowed_unknown = unknown
            slots = [HiddenSlot(sl.name, sl.owner, sl.count, sl.allowed & allowed_unknown, sl.ordered)
                     for sl in slots]
        self.mask_private(seat, masked)
        return Observation(seat, masked, unknown, slots)

    def mask_private(self, observer: int, masked: TrickState) -> None:
        """Hook: erase other private data (e.g. what was passed) from the masked copy."""

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        """Default: every slot is a hand; games with a stock or hidden discards extend this."""
        hands = self.hands
        for slot, cards in zip(slots, assignment, strict=True):
            if not slot.name.startswith("hand"):
                raise ValueError(f"{type(self).__name__} has non-hand slots: override fill_hidden")
            hands[slot.owner] |= cards

    def fill_hands(self, slots: list[HiddenSlot], assignment: list[int]) -> list[int]:
        """Add the hand slots' cards to hands; returns the leftover (non-hand) assignments."""
        rest = []
        for slot, cards in zip(slots, assignment, strict=True):
            if slot.name.startswith("hand"):
                self.hands[slot.owner] |= cards
            else:
                rest.append(cards)
        return rest

    # --- notation ---------------------------------------------------------------------------------
    def move_text(self, move: int) -> str:
        if move & PASS_FLAG:
            return f"{self.pass_word()} {self.game.deck.text(move & ~PASS_FLAG)}"
        return self.game.deck.text(move)

    def pass_word(self) -> str:
        return "pass"

    def parse_move(self, text: str) -> int:
        t = text.strip()
        flag = 0
        low = t.lower()
        for word in ("pass", "discard"):
            if low.startswith(word):
                flag = PASS_FLAG
                t = t[len(word):].strip()
                break
        return self.game.deck.parse(t) | flag

    def illegal_move(self, move: int) -> IllegalMove | None:
        if self.is_terminal():
            return IllegalMove("hand_over", "the hand is over")
        if not isinstance(move, int) or isinstance(move, bool):
            return IllegalMove("not_a_move", f"a move must be an int, not {type(move).__name__}")
        if move in self.legal_moves():
            return None
        return self.explain(move)

    def explain(self, move: int) -> IllegalMove:
        """Reason why a (card) move is not legal; games extend with their own rules."""
        d = self.game.deck
        if move & PASS_FLAG:
            return IllegalMove("no_pass_now", "this is not the time to pass or discard a card")
        if not 0 <= move < d.size:
            return IllegalMove("not_a_move", f"{move} is not a card of the {d.name} deck", {"move": move})
        seat = self.current
        if not self.hands[seat] >> move & 1:
            return IllegalMove("not_in_hand", f"{d.text(move)} is not in seat {seat}'s hand",
                               {"card": move, "seat": seat})
        if self.trick:
            led = self.game.suit_of[self.trick[0]]
            if self.game.suit_of[move] != led and self.hands[seat] & self.game.suit_masks[led]:
                return IllegalMove("must_follow_suit", f"must follow suit: {d.suit_names[led]} was led", {"suit": led})
        return IllegalMove("not_now", f"{d.text(move)} may not be played now", {"card": move})

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = self.game.deck
        return {
            "hands": [d.set_text(h) for h in self.hands],
            "current": self.current, "leader": self.leader,
            "trick": [d.text(c) for c in self.trick],
            "trump": self.trump,
            "won": [d.set_text(w) for w in self.won],
            "tricks_won": list(self.tricks_won),
            "voids": list(self.voids),
            "history": [[s, m] for s, m in self.history],
            "dealer": self.dealer,
        }

    def _load_common(self, d: dict[str, Any]) -> None:
        deck = self.game.deck
        try:
            self.hands = [deck.parse_set(h) for h in d["hands"]]
            self.num_players = len(self.hands)
            self.current = _int(d["current"], "current")
            self.leader = _int(d["leader"], "leader")
            self.trick = [deck.parse(c) for c in d["trick"]]
            self.trump = _int(d["trump"], "trump")
            self.won = [deck.parse_set(w) for w in d["won"]]
            self.tricks_won = [_int(x, "tricks_won") for x in d["tricks_won"]]
            self.voids = [_int(x, "voids") for x in d["voids"]]
            self.history = [(_int(s, "history seat"), _int(m, "history move")) for s, m in d["history"]]
            self.dealer = _int(d["dealer"], "dealer")
        except NotationError as e:
            raise StateFormatError(f"bad card in state: {e}") from None

    def validate(self) -> None:
        n = self.num_players
        if n != self.game.num_players:
            raise StateFormatError(f"state has {n} hands but the variant has {self.game.num_players} players")
        for name, v in (("current", self.current), ("leader", self.leader), ("dealer", self.dealer)):
            if not 0 <= v < n:
                raise StateFormatError(f"{name} seat {v} out of range 0..{n - 1}")
        if len(self.won) != n or len(self.tricks_won) != n or len(self.voids) != n:
            raise StateFormatError("per-seat lists have the wrong length")
        seen = 0
        for m in self.hands + self.won + [sum(1 << c for c in self.trick)] + self.extra_card_sets():
            if seen & m:
                raise StateFormatError("a card appears in two places")
            seen |= m
        if len(self.trick) >= n:
            raise StateFormatError("the current trick is too long")

    def extra_card_sets(self) -> list[int]:
        """Card sets outside hands/won/trick (stock, discards) for the duplicate check."""
        return []

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = frozenset(
        {"hand_over", "not_a_move", "no_pass_now", "not_in_hand", "must_follow_suit", "not_now"})

    def trick_plays(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.trick_seats(), self.trick, strict=True))

    def running_points(self) -> list[float] | None:
        """Card points won so far, each seat's side's total; None in games without card points."""
        if not self.game.total_points:
            return None
        points = [0.0] * self.num_players
        for team in self.game.teams():
            total = float(sum(self.points_of(s) for s in team))
            for s in team:
                points[s] = total
        return points

    # --- the table API: seats (engine/game.py) -------------------------------------------------------
    def hand_cards(self, seat: int) -> tuple[int, ...]:
        return tuple(bits(self.hands[seat])) if 0 <= seat < self.num_players else ()

    def tricks_taken(self, seat: int) -> int | None:
        return self.tricks_won[seat] if 0 <= seat < self.num_players else None

    def dealer_seat(self) -> int | None:
        return self.dealer


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise StateFormatError(f"{what} must be an integer, got {x!r}")
    return x

