"""Bisca (Portuguese, 40 French-suited cards) and Briscola (Italian deck): trick-taking with a stock.

Rules: ``assets/rules/en/bisca.md`` and ``briscola.md``; background fernandes2016 section 3.3. Each player is dealt
``hand_size`` cards; the next card is turned face up as trump and lies under the stock, so it is the
last card drawn. The non-dealer leads; after each trick the winner draws first, then the others in
play order. While the stock lasts any card may be played; once it is empty Bisca requires following
suit (Briscola never does). 120 card points per hand: 61+ wins, 60-60 is a draw.

Moves are card indexes; the trump exchange variant adds ``SWAP_FLAG | card`` (notation ``swap 2H``):
the holder of the exchange card (the 2 or 7 of trumps) swaps it for the face-up trump while stock
remains; the move does not end the turn.

Internally the stock is a list whose *last* element is the top (drawn next) and whose first element is
the face-up trump. In JSON it is written top first. An observation's masked state keeps only the
face-up card in the stock; the other stock cards form the ordered hidden slot ``stock``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, cast

from engine.cards import ITALIAN40, PORTUGUESE40, NotationError, popcount
from engine.game import Game, HandResult, IllegalMove, Option, StateFormatError, VariantError
from engine.games.tricks.core import TrickGame, TrickState
from engine.games.tricks.sueca import game_points
from engine.observation import HiddenSlot

SWAP_FLAG = 1 << 9
"""Flag bit on a trump-exchange move (``SWAP_FLAG | exchange card``)."""


MATCH_TARGETS: dict[str, int | None] = {"single": None, "best3": 2, "best5": 3, "points4": 4}


def _options(default_hand: int) -> tuple[Option, ...]:
    return (
        Option("players", 2, "2 players, or 4 in two partnerships (seats 0+2 vs 1+3, 3 cards each)",
               choices=(2, 4), type=int),
        Option("hand_size", default_hand, "cards dealt to each player (4 players: 3)", choices=(3, 7, 9),
               type=int),
        Option("match", "single", "single hand (more card points wins), best of 3 or 5 hands, or first to "
               "4 game points on Sueca's 1/2/4 scale", choices=tuple(MATCH_TARGETS)),
        Option("trump_exchange", "none", "the holder of this card of trumps may swap it for the face-up "
               "trump while stock remains ('none' = no exchange)", choices=("none", "2", "7")),
    )


class Bisca(TrickGame):
    """Portuguese Bisca: Sueca's cards and points; must follow suit once the stock is empty."""

    name = "bisca"
    title = "Bisca"
    deck = PORTUGUESE40
    strength_order = "2 3 4 5 6 Q J K 7 A"
    card_points_by_rank: ClassVar[dict[str, int]] = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
    follow_after_stock: ClassVar[bool] = True
    points_decide: ClassVar[bool] = True
    options = _options(9)
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"hand_size": 3, "trump_exchange": "2"}, {"hand_size": 7, "match": "best3"},
        {"players": 4, "hand_size": 3, "match": "points4", "trump_exchange": "7"}, {"match": "best5"})

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        super().__init__(variant)
        rank = self.variant["trump_exchange"]
        self.exchange_rank: int = -1 if rank == "none" else self.deck.ranks.index(rank)

    @classmethod
    def validate_variant(cls, variant: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`Game.validate_variant`; 4 players without an explicit ``hand_size`` get 3 cards each."""
        if "hand_size" not in variant and str(variant.get("players", "")).strip() == "4":
            variant = {**variant, "hand_size": 3}
        return super().validate_variant(variant)

    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        if variant["players"] == 4 and variant["hand_size"] != 3:
            raise VariantError(f"{cls.name} with 4 players deals 3 cards each: set hand_size=3 "
                               f"(got {variant['hand_size']})")

    @property
    def num_players(self) -> int:
        return int(self.variant["players"])

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)] if self.num_players == 4 else [(0,), (1,)]

    def state_class(self) -> type[BiscaState]:
        return BiscaState

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> BiscaState:
        n = self.num_players
        dealer = n - 1 if dealer < 0 else dealer
        size = self.variant["hand_size"]
        cards = self.deal(rng)
        leader = (dealer + 1) % n
        hands = [0] * n
        for i in range(n):  # the non-dealer side is served first; block dealing is equivalent after a shuffle
            seat = (leader + i) % n
            for c in cards[i * size:(i + 1) * size]:
                hands[seat] |= 1 << c
        trump_card = cards[n * size]
        rest = cards[n * size + 1:]  # top first
        stock = [trump_card] + rest[::-1]  # internal: face-up trump first, top last
        return BiscaState(self, hands, leader, self.suit_of[trump_card], dealer, trump_card, stock)

    # --- match rules -------------------------------------------------------------------------------
    def match_target(self) -> float | None:
        return MATCH_TARGETS[self.variant["match"]]

    def match_points(self, result: HandResult) -> list[float]:
        mode = self.variant["match"]
        if mode == "single":
            return list(result.team_points)
        if mode == "points4":
            return [float(g) for g in result.breakdown["game_points"]]
        teams = self.teams()
        return [1.0 if result.winners and teams[t][0] in result.winners else 0.0 for t in range(len(teams))]


class Briscola(Bisca):
    """Italian Briscola: Italian deck and ranking, 3 cards, never an obligation to follow suit."""

    name = "briscola"
    title = "Briscola"
    deck = ITALIAN40
    strength_order = "2 4 5 6 7 J H K 3 A"
    card_points_by_rank: ClassVar[dict[str, int]] = {"A": 11, "3": 10, "K": 4, "H": 3, "J": 2}
    follow_after_stock: ClassVar[bool] = False
    options = _options(3)
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"hand_size": 9, "trump_exchange": "2", "match": "best3"},
        {"players": 4, "match": "points4", "trump_exchange": "7"}, {"hand_size": 7, "match": "best5"})


class BiscaState(TrickState):
    """A Bisca/Briscola hand: the TrickState plus the stock, the turned card and publicly known cards."""

    __slots__ = ("stock", "trump_card", "revealed", "exchange_card")
    _solver_ignores = ("revealed",)
    game: Bisca
    hidden_stock: int = 0
    """Stock cards an observation's masked state leaves out (0 in a full state); see :attr:`stock_size`."""

    def __init__(self, game: Bisca, hands: list[int], leader: int, trump: int, dealer: int,
                 trump_card: int, stock: list[int]) -> None:
        super().__init__(game, hands, leader, trump, dealer)
        self.trump_card = trump_card  # the card turned up at the deal (for display and the result)
        self.stock = stock  # stock[0] = face-up trump (drawn last), stock[-1] = top
        self.revealed = 0  # cards in hands that every seat knows (the drawn face-up trump, exchanges)
        self.exchange_card = self._exchange_card()

    def _exchange_card(self) -> int:
        rank = self.game.exchange_rank
        return -1 if rank < 0 else self.game.deck.card(self.trump, rank)

    def _copy_extra(self, other: TrickState) -> None:
        other.trump_card = self.trump_card  # type: ignore[attr-defined]
        other.stock = self.stock[:]  # type: ignore[attr-defined]
        other.revealed = self.revealed  # type: ignore[attr-defined]
        other.exchange_card = self.exchange_card  # type: ignore[attr-defined]
        if self.hidden_stock:
            other.hidden_stock = self.hidden_stock  # type: ignore[attr-defined]

    # --- rules ------------------------------------------------------------------------------------
    @property
    def face_up(self) -> int:
        """The face-up trump lying under the stock, or -1 once it has been drawn."""
        return self.stock[0] if self.stock else -1

    def turned_trump(self) -> int | None:
        """The trump lying face up under the stock (after an exchange, the card swapped in) until it is drawn."""
        return self.stock[0] if self.stock else None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, the face-up trump included (also right in a masked observation)."""
        return len(self.stock) + self.hidden_stock

    def must_follow(self) -> bool:
        """Whether the follow-suit rule applies now (Bisca after the stock is exhausted)."""
        return self.game.follow_after_stock and not self.stock

    def legal_mask(self) -> int:
        hand = self.hands[self.current]
        if self.trick and self.game.follow_after_stock and not self.stock:
            follow = hand & self.game.suit_masks[self.game.suit_of[self.trick[0]]]
            if follow:
                return follow
        return hand

    def solver_equivalence_applies(self) -> bool:
        """Only once the stock is gone: before, which card is drawn and the exchange still tell cards apart."""
        return not self.stock

    def can_exchange(self) -> bool:
        """Whether the current player may swap the exchange card for the face-up trump now."""
        x = self.exchange_card
        return x >= 0 and len(self.stock) > 0 and bool(self.hands[self.current] >> x & 1)

    def legal_moves(self) -> list[int]:
        # A terminal state's current hand is empty, so no separate terminal check is needed.
        hand = self.hands[self.current]
        tables = self.game.tables
        if self.stock:
            moves = tables.cards(hand)
            x = self.exchange_card
            if x >= 0 and hand >> x & 1:
                moves.append(SWAP_FLAG | x)
            return moves
        trick = self.trick
        if trick and self.game.follow_after_stock:
            led = self.game.suit_of[trick[0]]
            follow = tables.suit_cards[led][hand >> tables.shift[led] & tables.rank_mask]
            if follow:
                return list(follow)
        return tables.cards(hand)

    def do(self, move: int) -> None:
        seat = self.current
        if move & SWAP_FLAG:
            card = move ^ SWAP_FLAG
            face = self.stock[0]
            self.hands[seat] = (self.hands[seat] & ~(1 << card)) | (1 << face)
            self.stock[0] = card
            self.revealed = (self.revealed | 1 << face) & ~(1 << card)
            self.history.append((seat, move))
            return
        self.hands[seat] &= ~(1 << move)
        if self.revealed:
            self.revealed &= ~(1 << move)
        trick = self.trick
        if trick and not self.stock and self.game.follow_after_stock:
            led = self.game.suit_of[trick[0]]
            if self.game.suit_of[move] != led:
                self.voids[seat] |= 1 << led
        trick.append(move)
        self.history.append((seat, move))
        if len(trick) == self.num_players:
            self._finish_trick()
        else:
            self.current = (seat + 1) % self.num_players

    def after_trick(self, winner: int) -> None:
        stock = self.stock
        if not stock:
            return
        n = self.num_players
        hands = self.hands
        for i in range(n):
            seat = (winner + i) % n
            card = stock.pop()
            hands[seat] |= 1 << card
            if not stock:  # the face-up trump: everyone sees who takes it
                self.revealed |= 1 << card
                break

    # --- information ------------------------------------------------------------------------------
    def known_to(self, seat: int, observer: int) -> int:
        if seat == observer:
            return self.hands[seat]
        return self.hands[seat] & self.revealed

    def extra_slots(self, observer: int, masked: TrickState) -> list[tuple[HiddenSlot, int]]:
        stock = self.stock
        masked.stock = stock[:1]  # type: ignore[attr-defined]
        if len(stock) <= 1:
            return []
        masked.hidden_stock = len(stock) - 1  # type: ignore[attr-defined]
        hidden = 0
        for c in stock[1:]:
            hidden |= 1 << c
        return [(HiddenSlot("stock", -1, len(stock) - 1, self.game.deck.full_mask, ordered=True), hidden)]

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        for i, (slot, cards) in enumerate(zip(slots, assignment, strict=True)):
            if slot.name == "stock":
                if orders is not None and i in orders:
                    order = orders[i]
                else:
                    order = self.game.tables.cards(cards)
                    rand = rng.random
                    # A uniformly random order: sorted by independent uniform keys (ties have probability
                    # ~2^-45, and the sort is stable); 2-3x faster than a Python-level Fisher-Yates loop.
                    order.sort(key=lambda _card: rand())
                self.stock = self.stock[:1] + order
                self.hidden_stock = 0
            elif slot.name.startswith("hand"):
                self.hands[slot.owner] |= cards
            else:
                raise ValueError(f"unknown hidden slot {slot.name!r} in {self.game.name}")

    # --- result -----------------------------------------------------------------------------------
    def result(self) -> HandResult:
        teams = self.game.teams()
        card_points = [sum(self.points_of(s) for s in t) for t in teams]
        tricks = [sum(self.tricks_won[s] for s in t) for t in teams]
        gp = [game_points(p) for p in card_points]
        if card_points[0] == card_points[1]:
            winners: list[int] = []
        else:
            winners = list(teams[0] if card_points[0] > card_points[1] else teams[1])
        team_of = {s: i for i, t in enumerate(teams) for s in t}
        return HandResult(
            points=[float(card_points[team_of[s]]) for s in range(self.num_players)], teams=teams,
            team_points=[float(p) for p in card_points], winners=winners,
            breakdown={"card_points": card_points, "game_points": gp, "tricks": tricks,
                       "trump": self.game.deck.suit_names[self.trump],
                       "trump_card": self.game.deck.text(self.trump_card),
                       "bandeira": 120 in card_points})

    # --- notation ---------------------------------------------------------------------------------
    def move_text(self, move: int) -> str:
        if move & SWAP_FLAG:
            return f"swap {self.game.deck.text(move ^ SWAP_FLAG)}"
        return self.game.deck.text(move)

    def describe_move(self, move: int) -> str:
        d = self.game.deck
        if move & SWAP_FLAG and self.stock:
            return f"swap {d.text(move ^ SWAP_FLAG)} for the face-up {d.text(self.stock[0])}"
        return self.move_text(move)

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if t.lower().startswith(("swap", "exchange")):
            word = "swap" if t.lower().startswith("swap") else "exchange"
            rest = t[len(word):].strip()
            if not rest:
                raise NotationError(f"bad move {text!r}: expected e.g. 'swap 2H'")
            return SWAP_FLAG | self.game.deck.parse(rest)
        return self.game.deck.parse(t)

    def explain(self, move: int) -> IllegalMove:
        d = self.game.deck
        if move < 0 or move >= 2 * SWAP_FLAG:
            return IllegalMove("not_a_move", f"{move} is not a move of {self.game.name}", {"move": move})
        if move & SWAP_FLAG:
            card = move ^ SWAP_FLAG
            if self.exchange_card < 0:
                return IllegalMove("exchange_off", "the trump exchange variant is off")
            if not 0 <= card < d.size:
                return IllegalMove("not_a_move", f"{move} is not a valid exchange move", {"move": move})
            if not self.stock:
                return IllegalMove("exchange_stock_empty",
                                   "the stock is empty: the face-up trump can no longer be exchanged")
            if card != self.exchange_card:
                return IllegalMove("exchange_only",
                                   f"only the {d.text(self.exchange_card)} may be exchanged for the face-up trump",
                                   {"card": self.exchange_card})
            return IllegalMove("not_in_hand", f"{d.text(card)} is not in seat {self.current}'s hand",
                               {"card": card, "seat": self.current})
        if 0 <= move < d.size and self.hands[self.current] >> move & 1 and self.trick and self.must_follow():
            led = self.game.suit_of[self.trick[0]]
            return IllegalMove("must_follow_suit_stock_empty",
                               f"must follow suit once the stock is empty: {d.suit_names[led]} was led", {"suit": led})
        return super().explain(move)

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        deck = self.game.deck
        d["stock"] = [deck.text(c) for c in reversed(self.stock)]  # top first; the face-up trump last
        d["trump_card"] = deck.text(self.trump_card)
        d["revealed"] = deck.set_text(self.revealed)
        if self.hidden_stock:
            d["hidden_stock"] = self.hidden_stock  # only in an observation's masked state
        return d

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> BiscaState:
        state = object.__new__(cls)
        state.game = cast(Bisca, game)
        state._load_common(d)
        deck = game.deck
        try:
            if not isinstance(d["stock"], list):
                raise StateFormatError("stock must be a list of cards")
            state.stock = [deck.parse(c) for c in reversed(d["stock"])]
            state.trump_card = deck.parse(d["trump_card"])
            state.revealed = deck.parse_set(d["revealed"])
        except NotationError as e:
            raise StateFormatError(f"bad card in state: {e}") from None
        state.exchange_card = state._exchange_card()
        if d.get("hidden_stock", 0):
            raise StateFormatError("a masked observation state (hidden_stock) cannot be loaded as a game state")
        return state

    @classmethod
    def masked_from_dict(cls, game: Bisca, d: dict[str, Any]) -> BiscaState:
        """An observation's masked state (``hidden_stock`` cards of the stock left out); not a playable state."""
        hidden = d.get("hidden_stock", 0)
        if not isinstance(hidden, int) or isinstance(hidden, bool) or not 0 <= hidden < game.deck.size:
            raise StateFormatError(f"hidden_stock must be a card count, not {hidden!r}")
        state = cls.from_dict(game, {k: v for k, v in d.items() if k != "hidden_stock"})
        if hidden:
            state.hidden_stock = hidden
        return state

    def extra_card_sets(self) -> list[int]:
        m = 0
        for c in self.stock:
            if m >> c & 1:
                raise StateFormatError(f"card {self.game.deck.text(c)} appears twice in the stock")
            m |= 1 << c
        return [m]

    def validate(self) -> None:
        super().validate()
        g = self.game
        n = self.num_players
        deck = g.deck
        everything = sum(self.hands) | sum(self.won) | self.extra_card_sets()[0]
        for c in self.trick:
            everything |= 1 << c
        if everything != deck.full_mask:
            missing = deck.set_text(deck.full_mask & ~everything)
            raise StateFormatError(f"cards missing from the state: {missing}")
        if g.suit_of[self.trump_card] != self.trump:
            raise StateFormatError("trump suit does not match the trump card")
        if self.stock and g.suit_of[self.stock[0]] != self.trump:
            raise StateFormatError("the face-up card under the stock is not a trump")
        if self.current != (self.leader + len(self.trick)) % n:
            raise StateFormatError("current seat does not match the trick leader and trick length")
        if len(self.stock) % n:
            raise StateFormatError(f"the stock holds {len(self.stock)} cards, not a multiple of {n}")
        played = set(self.trick_seats())
        base = popcount(self.hands[self.leader]) + (1 if self.trick else 0)
        if self.stock and base != g.variant["hand_size"]:
            raise StateFormatError(f"hands must hold {g.variant['hand_size']} cards while stock remains")
        for s in range(n):
            if popcount(self.hands[s]) != base - (s in played):
                raise StateFormatError(f"seat {s} holds {popcount(self.hands[s])} cards; expected "
                                       f"{base - (s in played)}")
        if sum(popcount(w) for w in self.won) != n * sum(self.tricks_won):
            raise StateFormatError("captured cards do not match the number of tricks won")
        if self.revealed & ~sum(self.hands):
            raise StateFormatError("revealed cards must be in hands")
        played_cards = swaps = 0
        for seat, move in self.history:
            if not 0 <= seat < n:
                raise StateFormatError(f"history seat {seat} out of range")
            if move >= 0 and move & SWAP_FLAG and (move ^ SWAP_FLAG) < deck.size:
                swaps += 1
            elif 0 <= move < deck.size and not played_cards >> move & 1:
                played_cards |= 1 << move
            else:
                raise StateFormatError(f"bad move {move} in the history")
        if played_cards != sum(self.won) | sum(1 << c for c in self.trick) or swaps > 1:
            raise StateFormatError("the history does not match the cards played_cards")

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = TrickState.illegal_codes | {
        "exchange_off", "exchange_stock_empty", "exchange_only", "must_follow_suit_stock_empty"}

    def stock_count(self) -> int | None:
        return self.stock_size
