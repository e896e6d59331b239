"""Matches: a sequence of hands to the game's target, with dealer rotation and cumulative scores."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.game import FIRST_DEALER_OPTION, Game, GameState, HandResult, StateFormatError

MATCH_JSON_VERSION = 1
MAX_HANDS = 100_000
"""The most hands a match may have played (a bound on loaded data; real matches end far sooner)."""


def first_dealer(game: Game, seed: int) -> int:
    """The seat that deals a match's first hand: drawn from ``seed`` when the variant's ``first_dealer`` option
    is ``"random"`` (dipalma2014 3.3.1: the first dealer is chosen by lot), else the last seat, so that seat 0
    plays first. The draw has its own random stream derived from the seed, so the deals of a seed are the same
    whoever deals; games without the option always use the last seat."""
    players = game.num_players
    if game.variant.get(FIRST_DEALER_OPTION) == "random":
        return random.Random(f"first-dealer/{seed}").randrange(players)
    return players - 1


@dataclass
class Match:
    """A match in progress. ``state`` is the current hand; ``totals`` are per team (``game.teams()``)."""

    game: Game
    seed: int
    dealer: int
    state: GameState
    totals: list[float]
    hands: list[HandResult] = field(default_factory=list)
    hand_index: int = 0
    rng_state: Any = None

    @classmethod
    def start(cls, game: Game, seed: int, dealer: int = -1) -> Match:
        """A new match; the deals come from ``random.Random(seed)``. ``dealer=-1``: the first dealer the
        variant calls for (:func:`first_dealer`); a seat number forces that seat (the arena, replays)."""
        rng = random.Random(seed)
        dealer = first_dealer(game, seed) if dealer < 0 else dealer
        state = game.new_hand(rng, dealer=dealer, hand_index=0, match_scores=[0.0] * len(game.teams()))
        return cls(game, seed, dealer, state, [0.0] * len(game.teams()), rng_state=rng.getstate())

    def _rng(self) -> random.Random:
        rng = random.Random()
        rng.setstate(self.rng_state)
        return rng

    @property
    def hand_over(self) -> bool:
        return self.state.is_terminal()

    def finish_hand(self) -> HandResult:
        """Score the finished current hand into the totals (call once per hand)."""
        if not self.state.is_terminal():
            raise ValueError("the hand is not over")
        if len(self.hands) > self.hand_index:
            return self.hands[self.hand_index]
        result = self.state.result()
        pts = self.game.match_points(result)
        self.totals = [t + p for t, p in zip(self.totals, pts, strict=True)]
        self.hands.append(result)
        return result

    @property
    def over(self) -> bool:
        return len(self.hands) > self.hand_index and self.game.match_over(self.totals, len(self.hands))

    def winners(self) -> list[int]:
        """Winning team indexes (after the match is over)."""
        return self.game.match_winners(self.totals)

    def winner_seats(self) -> list[int]:
        teams = self.game.teams()
        return sorted(s for t in self.winners() for s in teams[t])

    def next_hand(self) -> GameState:
        """Deal the next hand (the current one must be scored and the match not over)."""
        if self.over:
            raise ValueError("the match is over")
        self.finish_hand()
        rng = self._rng()
        self.dealer = self.game.next_dealer(self.dealer)
        self.hand_index += 1
        self.state = self.game.new_hand(rng, dealer=self.dealer, hand_index=self.hand_index,
                                        match_scores=list(self.totals))
        self.rng_state = rng.getstate()
        return self.state

    # --- JSON ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng_state
        return {"format": "cardtable-match", "version": MATCH_JSON_VERSION, "game": self.game.name,
                "variant": self.game.variant, "seed": self.seed, "dealer": self.dealer,
                "hand_index": self.hand_index, "totals": list(self.totals),
                "hands": [h.to_dict() for h in self.hands], "state": json.loads(self.state.to_json()),
                "rng": [version, list(internal), gauss]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Match:
        if not isinstance(d, dict) or d.get("format") != "cardtable-match":
            raise StateFormatError("not a cardtable match")
        if d.get("version") != MATCH_JSON_VERSION:
            raise StateFormatError(f"unsupported match version {d.get('version')!r} "
                                   f"(this build reads version {MATCH_JSON_VERSION})")
        try:
            game = registry.create(d["game"], d["variant"])
            state = game.state_from_json(d["state"])
            version, internal, gauss = d["rng"]
            if not isinstance(internal, list) or len(internal) != 625 or \
                    not all(isinstance(x, int) and not isinstance(x, bool) for x in internal):
                raise StateFormatError("bad random state")
            m = cls(game, int(d["seed"]), int(d["dealer"]), state, [float(x) for x in d["totals"]],
                    [HandResult.from_dict(h) for h in d["hands"]], int(d["hand_index"]),
                    (int(version), tuple(internal), gauss))
            m._rng()  # validates the random state
        except StateFormatError:
            raise
        except Exception as e:  # noqa: BLE001 - anything malformed becomes a clear format error
            raise StateFormatError(f"malformed match: {type(e).__name__}: {e}") from None
        if len(m.totals) != len(game.teams()):
            raise StateFormatError("totals do not match the game's teams")
        m.validate()
        return m

    def validate(self) -> None:
        """Check that the match's counters fit together: the dealer is a seat, the hand index is in range and
        the scored hands fit it (all hands before the current one, and the current one only once it is over).
        Raises StateFormatError naming the value and the valid range."""
        players = self.game.num_players
        if not 0 <= self.dealer < players:
            raise StateFormatError(f"impossible match: dealer {self.dealer} is not a seat (0 to {players - 1})")
        if not 0 <= self.hand_index <= MAX_HANDS:
            raise StateFormatError(f"impossible match: hand index {self.hand_index} is out of range (0 to {MAX_HANDS})")
        if not self.hand_index <= len(self.hands) <= self.hand_index + 1:
            raise StateFormatError(f"impossible match: {len(self.hands)} scored hands do not fit hand index "
                                   f"{self.hand_index}")
        if len(self.hands) == self.hand_index + 1 and not self.state.is_terminal():
            raise StateFormatError("impossible match: the current hand is scored but not finished")

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            d = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise StateFormatError(f"not valid JSON: {e}") from None
        return cls.from_dict(d)
