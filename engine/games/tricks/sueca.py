"""Sueca: 4 players in two partnerships (seats 0+2 vs 1+3), 40 Portuguese cards, 120 points a hand.

Rules: ``assets/rules/en/sueca.md``. The dealer turns up the top or bottom card (variant ``trump_card``); its suit
is trump and it stays in the dealer's hand, visible to everyone until played. Seats are in play order,
so "clockwise" only changes how the app lays the seats out, not the engine's seat numbering.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, cast

from engine.cards import PORTUGUESE40
from engine.game import Game, HandResult, Option, StateFormatError
from engine.games.tricks.core import TrickGame, TrickState

GAME_POINT_SCALE = ((120, 4), (91, 2), (61, 1))


def game_points(card_points: int) -> int:
    """Game points for a side's card points: 61-90 -> 1, 91-119 -> 2, 120 -> 4 (bandeira)."""
    for threshold, gp in GAME_POINT_SCALE:
        if card_points >= threshold:
            return gp
    return 0


class Sueca(TrickGame):
    name = "sueca"
    title = "Sueca"
    deck = PORTUGUESE40
    strength_order = "2 3 4 5 6 Q J K 7 A"
    card_points_by_rank: ClassVar[dict[str, int]] = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
    points_decide: ClassVar[bool] = True
    options = (
        Option("target", 4, "game points that win the match (0 = single hand: more card points wins)",
               type=int, min=0, max=100),
        Option("trump_card", "random", "which card of the pack the dealer turns up as trump",
               choices=("random", "top", "bottom")),
        Option("direction", "counterclockwise", "seating/play direction shown at the table "
               "(Portugal: counter-clockwise; Brazil: clockwise)", choices=("counterclockwise", "clockwise")),
        Option("redeal", False, "mandar abaixo: a player with under 10 points and no trump may ask for a redeal"),
    )

    example_variants: ClassVar[tuple[dict[str, Any], ...]] = (
        {}, {"target": 0, "trump_card": "top"}, {"trump_card": "bottom", "redeal": True},
        {"direction": "clockwise", "target": 10})

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    @property
    def num_players(self) -> int:
        return 4

    def state_class(self) -> type[SuecaState]:
        return SuecaState

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> SuecaState:
        dealer = 3 if dealer < 0 else dealer
        while True:
            cards = self.deal(rng)
            side = self.variant["trump_card"]
            if side == "random":
                side = "top" if rng.random() < 0.5 else "bottom"
            # Deal from the dealer's right so that the dealer gets the turned card's group of ten.
            hands = [0] * 4
            order = [(dealer + 1 + i) % 4 for i in range(4)]
            if side == "top":
                order = order[-1:] + order[:-1]  # dealer first, holding the top card
            for i, seat in enumerate(order):
                for c in cards[i * 10:(i + 1) * 10]:
                    hands[seat] |= 1 << c
            trump_card = cards[0] if side == "top" else cards[-1]
            state = SuecaState(self, hands, (dealer + 1) % 4, self.suit_of[trump_card], dealer, trump_card)
            if self.variant["redeal"] and state.redeal_claim() is not None:
                continue
            return state

    def match_target(self) -> float | None:
        return self.variant["target"] or None

    def match_points(self, result: HandResult) -> list[float]:
        if self.match_target() is None:
            return list(result.team_points)
        return [float(result.breakdown["game_points"][t]) for t in range(2)]


class SuecaState(TrickState):
    __slots__ = ("trump_card",)
    game: Sueca

    def __init__(self, game: Sueca, hands: list[int], leader: int, trump: int, dealer: int,
                 trump_card: int) -> None:
        super().__init__(game, hands, leader, trump, dealer)
        self.trump_card = trump_card

    def _copy_extra(self, other: TrickState) -> None:
        other.trump_card = self.trump_card  # type: ignore[attr-defined]

    def redeal_claim(self) -> int | None:
        """A seat entitled to ask for a redeal (under 10 points and no trump), or None."""
        tmask = self.game.suit_masks[self.trump]
        cp = self.game.card_points
        for s in range(4):
            h = self.hands[s]
            pts = sum(cp[c] for c in range(40) if h >> c & 1)
            if pts < 10 and not h & tmask:
                return s
        return None

    def turned_trump(self) -> int | None:
        """The card the dealer turned up: on the table until the dealer plays it."""
        return self.trump_card if self.hands[self.dealer] >> self.trump_card & 1 else None

    def known_to(self, seat: int, observer: int) -> int:
        if seat == observer:
            return self.hands[seat]
        if seat == self.dealer and self.hands[seat] >> self.trump_card & 1:
            return 1 << self.trump_card
        return 0

    def result(self) -> HandResult:
        team = [self.points_of(0) + self.points_of(2), self.points_of(1) + self.points_of(3)]
        gp = [game_points(team[0]), game_points(team[1])]
        winners = [0, 2] if team[0] > team[1] else [1, 3] if team[1] > team[0] else []
        return HandResult(
            points=[float(team[s % 2]) for s in range(4)], teams=[(0, 2), (1, 3)],
            team_points=[float(t) for t in team], winners=winners,
            breakdown={"card_points": team, "game_points": gp,
                       "tricks": [self.tricks_won[0] + self.tricks_won[2], self.tricks_won[1] + self.tricks_won[3]],
                       "trump": self.game.deck.suit_names[self.trump],
                       "bandeira": 120 in team})

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["trump_card"] = self.game.deck.text(self.trump_card)
        return d

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> SuecaState:
        state = object.__new__(cls)
        state.game = cast(Sueca, game)
        state._load_common(d)
        state.trump_card = game.deck.parse(d["trump_card"])
        return state

    def validate(self) -> None:
        super().validate()
        if self.game.suit_of[self.trump_card] != self.trump:
            raise StateFormatError("trump suit does not match the trump card")

