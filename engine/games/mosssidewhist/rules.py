"""Moss Side Whist: 3 players, 52 cards, spades always trump, the leader discards 4 of 20 cards.

Rules: ``assets/rules/en/mosssidewhist.md``; background huang2017. The leader receives 20 cards and makes
four single-card discard moves (``PASS_FLAG | card``, notation ``discard 7C``), face down: the other
seats see them as ``HIDDEN_MOVE`` and the discarded cards form their hidden slot ``discards`` (owner -1).
The leader then leads; follow suit if able; 16 tricks. Score: leader tricks - 8, each other player
tricks - 4 (the hand sums to 0). The leader is the seat after the dealer, so the role moves one seat on
each hand; a match is a multiple of 3 hands and the highest total wins.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.cards import FRENCH52, NotationError, bits, popcount
from engine.game import Game, HandResult, IllegalMove, Option, StateFormatError, VariantError
from engine.games.tricks.core import HIDDEN_MOVE, PASS_FLAG, TrickGame, TrickState, _int, solo_outcomes
from engine.observation import HiddenSlot

SPADES = 3
DISCARDS = 4
LEADER_CARDS = 20
OTHER_CARDS = 16


class MossSideWhist(TrickGame):
    name = "mosssidewhist"
    title = "Moss Side Whist"
    deck = FRENCH52
    strength_order = "2 3 4 5 6 7 8 9 T J Q K A"
    options = (
        Option("hands", 3, "hands in a match (a multiple of 3, so every seat leads equally often)",
               type=int, min=3, max=30),
    )
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = ({}, {"hands": 6})

    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        if variant["hands"] % 3:
            raise VariantError(f"option 'hands': {variant['hands']} is not a multiple of 3 (allowed: 3, 6, 9, ...)")

    @property
    def num_players(self) -> int:
        return 3

    def state_class(self) -> type[MossSideWhistState]:
        return MossSideWhistState

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> MossSideWhistState:
        dealer = 2 if dealer < 0 else dealer
        leader = (dealer + 1) % 3
        cards = self.deal(rng)
        hands = [0, 0, 0]
        for c in cards[:LEADER_CARDS]:
            hands[leader] |= 1 << c
        for i, seat in enumerate(((leader + 1) % 3, (leader + 2) % 3)):
            for c in cards[LEADER_CARDS + i * OTHER_CARDS:LEADER_CARDS + (i + 1) * OTHER_CARDS]:
                hands[seat] |= 1 << c
        return MossSideWhistState(self, hands, leader, dealer)

    # --- match rules -------------------------------------------------------------------------------
    def match_target(self) -> float | None:
        return None

    def match_over(self, totals: list[float], hands_played: int) -> bool:
        return hands_played >= self.variant["hands"]

    def match_winners(self, totals: list[float]) -> list[int]:
        best = max(totals)
        winners = [i for i, t in enumerate(totals) if t == best]
        return [] if len(winners) == len(totals) else winners


class MossSideWhistState(TrickState):
    """A Moss Side Whist hand: the leader's discard phase, then 16 tricks with spades trump."""

    __slots__ = ("hand_leader", "discards", "discards_done")
    game: MossSideWhist

    def __init__(self, game: MossSideWhist, hands: list[int], leader: int, dealer: int) -> None:
        super().__init__(game, hands, leader, SPADES, dealer)
        self.hand_leader = leader  # the seat that took 20 cards (scores tricks - 8)
        self.discards = 0
        self.discards_done = 0

    def _copy_extra(self, other: TrickState) -> None:
        other.hand_leader = self.hand_leader  # type: ignore[attr-defined]
        other.discards = self.discards  # type: ignore[attr-defined]
        other.discards_done = self.discards_done  # type: ignore[attr-defined]

    @property
    def discarding(self) -> bool:
        """Whether the leader is still discarding."""
        return self.discards_done < DISCARDS

    def legal_moves(self) -> list[int]:
        if self.discards_done < DISCARDS:
            return self.game.pass_tables.cards(self.hands[self.current])
        return TrickState.legal_moves(self)

    def is_terminal(self) -> bool:
        h = self.hands
        return not (h[0] or h[1] or h[2] or self.trick) and self.discards_done >= DISCARDS

    def do(self, move: int) -> None:
        if move & PASS_FLAG:
            seat = self.current
            bit = 1 << (move ^ PASS_FLAG)
            self.hands[seat] &= ~bit
            self.discards |= bit
            self.discards_done += 1
            self.history.append((seat, move))
            return
        super().do(move)

    def random_rollout(self, rng: random.Random) -> None:
        """Random playout to the end (search fast path): the same choices and final state as repeatedly
        doing ``legal_moves()[int(rng.random() * len(moves))]``, without building move lists."""
        self._random_discards(rng, True)
        self.play_out_tricks(rng)

    def scored_playout(self, rng: random.Random) -> None:
        """:meth:`random_rollout`'s choices without the history and voids: the same tricks and result."""
        self._random_discards(rng, False)
        self.play_out_tricks(rng, False)

    def _random_discards(self, rng: random.Random, record: bool) -> None:
        """The hand leader's discards still to make, uniformly random (``record``: into the history)."""
        if self.discards_done < DISCARDS:
            rand = rng.random
            kth = self.game.tables.kth
            seat = self.current
            hand = self.hands[seat]
            discards = self.discards
            for _ in range(DISCARDS - self.discards_done):
                card = kth(hand, int(rand() * hand.bit_count()))
                hand ^= 1 << card
                discards |= 1 << card
                if record:
                    self.history.append((seat, card | PASS_FLAG))
            self.hands[seat] = hand
            self.discards = discards
            self.discards_done = DISCARDS

    def score_key(self) -> Any:
        """Nothing: the result counts tricks only (the solver's key holds the tricks won)."""
        return ()

    def outcomes(self) -> list[float]:
        """Lean ``result().outcome(s)``: the highest tricks-minus-target score wins (ties share)."""
        t = self.tricks_won
        points = [t[0] - 4, t[1] - 4, t[2] - 4]
        points[self.hand_leader] -= 4
        return solo_outcomes(points, max(points))

    # --- information ------------------------------------------------------------------------------
    def mask_history(self, observer: int) -> list[tuple[int, int]]:
        if observer == self.hand_leader:
            return self.history[:]
        return [(s, HIDDEN_MOVE) if m & PASS_FLAG else (s, m) for s, m in self.history]

    def extra_slots(self, observer: int, masked: TrickState) -> list[tuple[HiddenSlot, int]]:
        if observer == self.hand_leader or not self.discards:
            return []
        masked.discards = 0  # type: ignore[attr-defined]
        return [(HiddenSlot("discards", -1, popcount(self.discards), self.game.deck.full_mask), self.discards)]

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        for slot, cards in zip(slots, assignment, strict=True):
            if slot.name.startswith("hand"):
                self.hands[slot.owner] |= cards
            elif slot.name == "discards":
                self.discards |= cards
            else:
                raise ValueError(f"unknown hidden slot {slot.name!r} in {self.game.name}")

    # --- result -----------------------------------------------------------------------------------
    def result(self) -> HandResult:
        lead = self.hand_leader
        points = [self.tricks_won[s] - (8 if s == lead else 4) for s in range(3)]
        best = max(points)
        winners = [s for s in range(3) if points[s] == best]
        if len(winners) == 3:
            winners = []
        return HandResult(
            points=[float(p) for p in points], teams=[(0,), (1,), (2,)],
            team_points=[float(p) for p in points], winners=winners,
            breakdown={"tricks": list(self.tricks_won), "leader": lead, "points": points,
                       "discards": self.game.deck.set_text(self.discards)})

    # --- notation and reasons ---------------------------------------------------------------------
    def pass_word(self) -> str:
        return "discard"

    def explain(self, move: int) -> IllegalMove:
        d = self.game.deck
        if move < 0 or move >= 2 * PASS_FLAG:
            return IllegalMove("not_a_move", f"{move} is not a move of {self.game.name}", {"move": move})
        seat = self.current
        if self.discarding:
            if not move & PASS_FLAG:
                left, example = DISCARDS - self.discards_done, bits(self.hands[seat])[0]
                return IllegalMove("discard_first", f"the leader must first discard {left} more card(s) "
                                   f"(e.g. 'discard {d.text(example)}')", {"n": left, "card": example})
            card = move ^ PASS_FLAG
            if card >= d.size:
                return IllegalMove("not_a_move", f"{move} is not a card of the {d.name} deck", {"move": move})
            return IllegalMove("not_in_hand", f"{d.text(card)} is not in seat {seat}'s hand",
                               {"card": card, "seat": seat})
        if move & PASS_FLAG:
            return IllegalMove("discards_done", "the discards are done: play a card to the trick")
        return super().explain(move)

    def move_text(self, move: int) -> str:
        if move == HIDDEN_MOVE:
            return "discard (face down)"  # another seat's hidden move, as an observation records it
        return super().move_text(move)

    def describe_move(self, move: int) -> str:
        if move & PASS_FLAG:
            return f"discard {self.game.deck.text(move ^ PASS_FLAG)} face down"
        return self.move_text(move)

    # --- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d.update(hand_leader=self.hand_leader, discards=self.game.deck.set_text(self.discards),
                 discards_done=self.discards_done)
        return d

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> MossSideWhistState:
        if not isinstance(game, MossSideWhist):
            raise TypeError(f"a Moss Side Whist state needs its game, not {game!r}")
        state = object.__new__(cls)
        state.game = game
        state._load_common(d)
        state.hand_leader = _int(d["hand_leader"], "hand_leader")
        state.discards_done = _int(d["discards_done"], "discards_done")
        try:
            state.discards = game.deck.parse_set(d["discards"])
        except NotationError as e:
            raise StateFormatError(f"bad card in state: {e}") from None
        return state

    def extra_card_sets(self) -> list[int]:
        return [self.discards]

    def validate(self) -> None:
        super().validate()
        deck = self.game.deck
        if self.trump != SPADES:
            raise StateFormatError("spades are always trump in Moss Side Whist")
        if not 0 <= self.hand_leader < 3:
            raise StateFormatError(f"hand leader {self.hand_leader} out of range 0..2")
        if not 0 <= self.discards_done <= DISCARDS or popcount(self.discards) != self.discards_done:
            raise StateFormatError(f"{popcount(self.discards)} discards do not match discards_done "
                                   f"{self.discards_done}")
        everything = sum(self.hands) | sum(self.won) | self.discards | sum(1 << c for c in self.trick)
        if everything != deck.full_mask:
            raise StateFormatError(f"cards missing from the state: {deck.set_text(deck.full_mask & ~everything)}")
        if self.discarding:
            if self.trick or any(self.tricks_won) or self.current != self.hand_leader:
                raise StateFormatError("play started before the leader discarded four cards")
            expected = [LEADER_CARDS - self.discards_done if s == self.hand_leader else OTHER_CARDS
                        for s in range(3)]
        else:
            if self.current != (self.leader + len(self.trick)) % 3:
                raise StateFormatError("current seat does not match the trick leader and trick length")
            seats_played = set(self.trick_seats())
            base = popcount(self.hands[self.leader]) + (1 if self.trick else 0)
            expected = [base - (s in seats_played) for s in range(3)]
        for s in range(3):
            if popcount(self.hands[s]) != expected[s]:
                raise StateFormatError(f"seat {s} holds {popcount(self.hands[s])} cards; expected {expected[s]}")
        if sum(self.tricks_won) * 3 != sum(popcount(w) for w in self.won):
            raise StateFormatError("captured cards do not match the number of tricks won")
        played = discarded = discard_moves = 0
        for seat, move in self.history:
            if move == HIDDEN_MOVE and seat == self.hand_leader:  # as a sampled observation state records it
                discard_moves += 1
                continue
            card = move ^ PASS_FLAG if move >= 0 and move & PASS_FLAG else move
            if not 0 <= seat < 3 or not 0 <= card < deck.size:
                raise StateFormatError(f"bad history entry {[seat, move]}")
            if move & PASS_FLAG:
                if seat != self.hand_leader:
                    raise StateFormatError("only the leader discards")
                discarded |= 1 << card
                discard_moves += 1
            elif played >> card & 1:
                raise StateFormatError(f"history plays {deck.text(card)} twice")
            else:
                played |= 1 << card
        in_play = sum(self.won) | sum(1 << c for c in self.trick)
        if discarded & ~self.discards or discard_moves != self.discards_done or played != in_play:
            raise StateFormatError("the history does not match the discards and cards played")

    # --- the table API (engine/game.py) ------------------------------------------------------------
    illegal_codes: ClassVar[frozenset[str]] = TrickState.illegal_codes | {"discard_first", "discards_done"}

    # --- the table API: seats (engine/game.py) -------------------------------------------------------
    def declarer(self) -> int | None:
        return self.hand_leader
