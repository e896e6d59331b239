"""The generic game API: a :class:`Game` (rules + validated variant) creates :class:`GameState` hands.

The design follows OpenSpiel's Game/State split and python-chess's compact moves:

* A move is a small ``int`` whose meaning is defined by the game (a card index in trick-taking games,
  card plus capture set in Scopone, ...). ``state.move_text(m)`` / ``state.parse_move(text)`` give its
  notation. Search code treats moves as opaque hashable values.
* ``state.apply(move)`` validates and raises :class:`IllegalMoveError` (state unchanged);
  ``state.do(move)`` is the unchecked fast path used by search and rollouts.
* ``state.observation(seat)`` is exactly what one seat knows; ``engine.determinize.determinize`` turns
  it back into a full state consistent with it.
* ``state.to_json()`` / ``Game.state_from_json()`` give a versioned, validated JSON round-trip.

The search's fast paths (random playouts, lean rewards, the endgame solver's keys and move lists) are not part
of the state: each game gives them as the ``playouts`` of its search knowledge
(:class:`engine.knowledge.Playouts`).
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.cards import Deck, NotationError
from engine.observation import HiddenSlot, Observation

_NOTATION_SPLIT = re.compile(r"[\s,+>()\[\]{}:;/|*-]+")


class GameError(Exception):
    """Base class of the engine's user-facing errors."""


class IllegalMoveError(GameError):
    """A move that is not legal in the current state; the message gives the reason."""


class VariantError(GameError):
    """An unknown or invalid variant option; the message lists the valid options."""


class StateFormatError(GameError):
    """Malformed, foreign or unsupported-version JSON for a state or match."""


@dataclass(frozen=True)
class IllegalMove:
    """Why a move is illegal: a stable ``code`` (e.g. ``must_follow_suit``), its ``fields`` (cards and suits as
    ints of the game's deck, counts as ints, e.g. ``{"suit": 2}``) and the engine's English ``text`` built from
    them (what :meth:`GameState.illegal_reason` returns). Each state class lists the codes it can give in
    ``GameState.illegal_codes``."""

    code: str
    text: str
    fields: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.code, self.text))


@dataclass(frozen=True)
class Option:
    """One variant option of a game: its type, default, allowed values and short help."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    type: type = object
    min: int | float | None = None
    max: int | float | None = None

    def validate(self, value: Any) -> Any:
        """Coerce ``value`` (possibly a CLI string) to the option's type, or raise :class:`VariantError`."""
        typ = self.type if self.type is not object else type(self.default)
        try:
            if typ is bool:
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = low in ("true", "1", "yes", "on")
                elif not isinstance(value, bool):
                    raise ValueError(value)
            elif typ is int:
                if isinstance(value, bool):
                    raise ValueError(value)
                if isinstance(value, float) and not value.is_integer():
                    raise ValueError(value)
                value = int(value)
            elif typ is float:
                if isinstance(value, bool):
                    raise ValueError(value)
                value = float(value)
                if not math.isfinite(value):
                    raise ValueError(value)
            elif typ is str:
                if not isinstance(value, str):
                    raise ValueError(value)
        except (TypeError, ValueError):
            raise VariantError(f"option {self.name!r}: {value!r} is not a valid {typ.__name__}"
                               f"{self._allowed_text()}") from None
        if self.choices is not None and value not in self.choices:
            raise VariantError(f"option {self.name!r}: {value!r} is not allowed{self._allowed_text()}")
        if self.min is not None and value < self.min or self.max is not None and value > self.max:
            raise VariantError(f"option {self.name!r}: {value!r} is out of range{self._allowed_text()}")
        return value

    def _allowed_text(self) -> str:
        if self.choices is not None:
            return f" (allowed: {', '.join(map(str, self.choices))})"
        if self.min is not None or self.max is not None:
            return f" (range {self.min}..{self.max})"
        return ""

    def describe(self) -> dict[str, Any]:
        """JSON-friendly description for ``--list-games`` and the setup screen."""
        typ = self.type if self.type is not object else type(self.default)
        d: dict[str, Any] = {"name": self.name, "type": typ.__name__, "default": self.default, "help": self.help}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        return d


FIRST_DEALER_OPTION = "first_dealer"
"""The variant option that says who deals a match's first hand (read by :func:`engine.match.first_dealer`)."""
FIRST_DEALER_CHOICES = ("random", "last_seat")


def first_dealer_option(default: str = "random") -> Option:
    """The ``first_dealer`` option for a game whose rules choose the first dealer by lot: ``random`` draws the
    seat from the match's seed, ``last_seat`` lets the last seat deal so that seat 0 plays first."""
    return Option(FIRST_DEALER_OPTION, default, "who deals the first hand: a seat drawn at random, or the last "
                  "seat (the first seat then plays first); the deal then passes on after every hand",
                  choices=FIRST_DEALER_CHOICES)


@dataclass
class HandResult:
    """The structured result of one finished hand.

    ``points[seat]`` is the game's own hand points credited to each seat (in partnership games every
    seat of a team gets the team's points). ``team_points`` follows ``teams``. ``winners`` are the seats
    that won the hand (empty for a draw). ``breakdown`` is game-specific, JSON-friendly detail that the
    app's round summary shows. ``lower_is_better`` marks penalty games (Hearts).
    """

    points: list[float]
    teams: list[tuple[int, ...]]
    team_points: list[float]
    winners: list[int]
    breakdown: dict[str, Any] = field(default_factory=dict)
    lower_is_better: bool = False

    def outcome(self, seat: int) -> float:
        """1 for a win, 0.5 for a shared win/draw, 0 for a loss, from ``seat``'s point of view."""
        if not self.winners:
            return 0.5
        if seat in self.winners:
            return 1.0 if len(self.winners) == len(self.team_of(seat)) else 0.5
        return 0.0

    def team_of(self, seat: int) -> tuple[int, ...]:
        for t in self.teams:
            if seat in t:
                return t
        return (seat,)

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "teams": [list(t) for t in self.teams],
                "team_points": list(self.team_points), "winners": list(self.winners),
                "breakdown": self.breakdown, "lower_is_better": self.lower_is_better}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandResult:
        return cls(list(d["points"]), [tuple(t) for t in d["teams"]], list(d["team_points"]),
                   list(d["winners"]), dict(d.get("breakdown", {})), bool(d.get("lower_is_better", False)))


class Game:
    """A game's rules with a validated variant. Subclasses set the class attributes and implement
    :meth:`new_hand` and :meth:`state_class`.

    Match hooks (:meth:`match_points`, :meth:`match_over`, :meth:`match_winners`) define how hands add up
    to a match; the defaults sum ``HandResult.team_points`` towards ``variant['target']``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    deck: Deck
    options: ClassVar[tuple[Option, ...]] = ()
    example_variants: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Variants the generic random-play tests cover (every rule-changing option should appear once)."""

    def __init__(self, variant: dict[str, Any] | None = None) -> None:
        self.variant = self.validate_variant(variant or {})

    @classmethod
    def validate_variant(cls, variant: dict[str, Any]) -> dict[str, Any]:
        """Return the full variant (defaults filled in); unknown keys or bad values raise VariantError."""
        by_name = {o.name: o for o in cls.options}
        out = {o.name: o.default for o in cls.options}
        for key, value in variant.items():
            if key not in by_name:
                valid = ", ".join(f"{o.name} (default {o.default!r})" for o in cls.options) or "none"
                raise VariantError(f"unknown option {key!r} for {cls.name}; valid options: {valid}")
            out[key] = by_name[key].validate(value)
        cls.check_variant(out)
        return out

    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        """Cross-option checks; raise VariantError. Default: none."""

    @property
    def num_players(self) -> int:
        return int(self.variant.get("players", 4))

    def teams(self) -> list[tuple[int, ...]]:
        """The scoring sides. Default: every seat for itself."""
        return [(s,) for s in range(self.num_players)]

    def new_hand(self, rng: random.Random, dealer: int = -1, hand_index: int = 0,
                 match_scores: list[float] | None = None) -> GameState:
        """Shuffle with ``rng`` and deal a new hand. ``dealer=-1`` means the last seat."""
        raise NotImplementedError

    def state_class(self) -> type[GameState]:
        raise NotImplementedError

    # --- match rules -------------------------------------------------------------------------------
    def match_target(self) -> float | None:
        """Points that end a match, or None for a single-hand game."""
        t = self.variant.get("target")
        return None if not t else t

    def lower_is_better(self) -> bool:
        return False

    def match_points(self, result: HandResult) -> list[float]:
        """Match points each team earns from one hand (default: the hand's team points)."""
        return list(result.team_points)

    def match_over(self, totals: list[float], hands_played: int) -> bool:
        """Whether the match ends with these team totals."""
        target = self.match_target()
        if target is None:
            return hands_played >= 1
        if self.lower_is_better():
            return max(totals) >= target
        if max(totals) < target:
            return False
        best = max(totals)
        return sum(1 for t in totals if t == best) == 1  # tie at the top -> play on

    def match_winners(self, totals: list[float]) -> list[int]:
        """Indexes of the winning teams (several when shared)."""
        best = min(totals) if self.lower_is_better() else max(totals)
        winners = [i for i, t in enumerate(totals) if t == best]
        return [] if len(winners) == len(totals) and len(totals) > 1 else winners

    def next_dealer(self, dealer: int) -> int:
        """Dealer of the next hand (default: the next seat in play order)."""
        return (dealer + 1) % self.num_players

    # --- JSON ---------------------------------------------------------------------------------------
    def state_from_json(self, data: str | dict[str, Any]) -> GameState:
        """Rebuild a state of this game from :meth:`GameState.to_json` output (validated)."""
        d = _load_json_object(data)
        if d.get("game") != self.name:
            raise StateFormatError(f"state is for game {d.get('game')!r}, not {self.name!r}")
        cls = self.state_class()
        version = d.get("version")
        if version != cls.json_version:
            raise StateFormatError(f"unsupported {self.name} state version {version!r} "
                                   f"(this build reads version {cls.json_version})")
        try:
            state = cls.from_dict(self, d["state"])
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise StateFormatError(f"malformed {self.name} state: {type(e).__name__}: {e}") from None
        state.validate()
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.variant!r})"


def _load_json_object(data: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(data, (str, bytes)):
        try:
            d = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise StateFormatError(f"not valid JSON: {e}") from None
    else:
        d = data
    if not isinstance(d, dict):
        raise StateFormatError(f"expected a JSON object, got {type(d).__name__}")
    return d


class GameState:
    """One hand in progress. Subclasses implement the abstract methods below.

    Seats are numbered in play order (seat 0 at the bottom of the screen). ``current_player`` is -1
    only when the hand is over.
    """

    json_version: ClassVar[int] = 1
    game: Game

    # --- abstract ----------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        raise NotImplementedError

    def legal_moves(self) -> list[int]:
        """Every legal move for the current player (empty when terminal)."""
        raise NotImplementedError

    def do(self, move: int) -> None:
        """Apply a move *without* validation (fast path for search). Use :meth:`apply` for input."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def result(self) -> HandResult:
        """The hand's result; only valid when terminal."""
        raise NotImplementedError

    def clone(self) -> GameState:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, game: Game, d: dict[str, Any]) -> GameState:
        raise NotImplementedError

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows: see :class:`engine.observation.Observation`."""
        raise NotImplementedError

    def fill_hidden(self, slots: list[HiddenSlot], assignment: list[int], rng: random.Random,
                    orders: dict[int, list[int]] | None = None) -> None:
        """Put sampled cards into the hidden slots of an observation's masked state (in place).

        ``assignment[i]`` is the card set for ``slots[i]`` (the observation's slots). Ordered slots
        (a stock) take their order from ``orders[i]`` when given (those cards in a uniformly random order),
        else are shuffled with ``rng``.
        """
        raise NotImplementedError

    def move_text(self, move: int) -> str:
        """Notation of a move in this state (e.g. ``7C``)."""
        raise NotImplementedError

    def parse_move(self, text: str) -> int:
        """Parse a move's notation in this state; raises NotationError/IllegalMoveError."""
        raise NotImplementedError

    # --- what the table shows (generic defaults; games override) --------------------------------------
    def move_cards(self, move: int) -> tuple[int, ...]:
        """The cards ``move`` involves, the played card first (empty for a move without cards, e.g. a draw).
        The default reads the move's notation: tokens that parse as cards of the deck, in order."""
        try:
            text = self.move_text(move)
        except Exception:  # noqa: BLE001 - any move value may come from user input
            return ()
        deck = self.game.deck
        cards: list[int] = []
        for token in _NOTATION_SPLIT.split(text):
            if len(token) < 2:
                continue
            try:
                card = deck.parse(token)
            except NotationError:
                continue
            if card not in cards:
                cards.append(card)
        return tuple(cards)

    def is_pass_move(self, move: int) -> bool:
        """Whether ``move`` passes or discards a card rather than playing it (default: never)."""
        return False

    def last_trick(self) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """The winner seat and the ``(seat, card)`` plays of the last completed trick; None before the first
        trick is complete and in games without tricks."""
        return None

    def turned_trump(self) -> int | None:
        """The turned-up trump card while it is still visible on the table, else None."""
        return None

    def trump_suit(self) -> int | None:
        """The trump suit's index in the deck, or None when the hand has no trumps."""
        return None

    # --- generic -----------------------------------------------------------------------------------
    def illegal_reason(self, move: int) -> str | None:
        """Why ``move`` is illegal now in English, or None when it is legal: the text of :meth:`illegal_move`."""
        reason = self.illegal_move(move)
        return None if reason is None else reason.text

    def apply(self, move: int) -> None:
        """Validate and apply a move; an illegal move raises IllegalMoveError and changes nothing."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.do(move)

    def outcomes(self) -> list[float]:
        """Each seat's outcome of the finished hand: 1 win, 0.5 shared win or draw, 0 loss
        (``[self.result().outcome(s) for s in seats]``; a game may compute it more leanly, tested against
        result())."""
        res = self.result()
        return [res.outcome(s) for s in range(len(res.points))]

    def describe_move(self, move: int) -> str:
        """Longer description of a move for logs and the UI (default: its notation)."""
        return self.move_text(move)

    def validate(self) -> None:
        """Check internal consistency after loading; raise StateFormatError. Default: nothing."""

    def to_json(self) -> str:
        """Versioned JSON for this state."""
        return json.dumps({"game": self.game.name, "version": self.json_version,
                           "variant": self.game.variant, "state": self.to_dict()}, sort_keys=True)

    def _safe_text(self, move: int) -> str:
        try:
            return self.move_text(move)
        except Exception:  # noqa: BLE001 - any move value may come from user input
            return repr(move)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState) or type(other) is not type(self):
            return NotImplemented
        return self.game.variant == other.game.variant and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # --- the table API: structured reasons and what a hand shows (generic defaults; games override) ------
    illegal_codes: ClassVar[frozenset[str]] = frozenset({"hand_over", "not_legal"})
    """Every :attr:`IllegalMove.code` the state class's :meth:`illegal_move` can return."""

    def illegal_move(self, move: int) -> IllegalMove | None:
        """Why ``move`` is illegal now as a code with fields, or None when it is legal."""
        if self.is_terminal():
            return IllegalMove("hand_over", "the hand is over")
        if move not in self.legal_moves():
            return IllegalMove("not_legal", f"{self._safe_text(move)} is not a legal move now", {"move": move})
        return None

    def named_suit(self, move: int) -> int | None:
        """The suit ``move`` names (Pharaoh's Ober) as its index in the deck, or None (default: never)."""
        return None

    def received_pass(self, seat: int) -> tuple[int, tuple[int, ...]] | None:
        """Once this hand's pass is delivered: the seat that passed to ``seat`` and the cards it passed (Hearts),
        whether or not they are still in the hand. None before the delivery, in a hand without a pass and in
        games without passing (the default). An observation of ``seat`` answers it too."""
        return None

    def trick_plays(self) -> tuple[tuple[int, int], ...]:
        """The ``(seat, card)`` plays of the trick being played, in order: () between tricks and in games
        without tricks (the default)."""
        return ()

    def running_points(self) -> list[float] | None:
        """Each seat's points so far in the hand, in the unit of ``result().points`` before any end-of-hand
        adjustment (card points of the seat's side in Sueca, Bisca and Briscola; Hearts' penalty points). None
        (the default) in games whose points only exist at the end of the hand."""
        return None

    def draw_count(self, move: int) -> int:
        """How many cards ``move`` draws from the stock for the mover (Pharaoh's draw; default 0)."""
        return 0


    # --- the table API: seats (generic defaults; games override) ------------------------------------------
    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """The cards of ``seat``'s hand that this state knows, in deck order (on an observation's state: the
        cards the observer may see). Default: () for a game without hands."""
        return ()

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds as far as this state knows (default: ``len(hand_cards(seat))``; games
        whose hand sizes are public answer exactly on an observation's state too)."""
        return len(self.hand_cards(seat))

    def tricks_taken(self, seat: int) -> int | None:
        """Tricks ``seat`` has taken this hand, or None in games without tricks (the default)."""
        return None

    def declarer(self) -> int | None:
        """The seat that plays the hand alone against a higher target (Moss Side Whist's leader, who needs 8
        tricks while the others need 4), or None (the default)."""
        return None

    def passes_to(self, seat: int) -> int | None:
        """While the hand's pass is being chosen (Hearts): the seat that will receive ``seat``'s passed cards,
        ``seat`` itself in a hand without passing. None outside the passing phase and in games without one."""
        return None

    def dealer_seat(self) -> int | None:
        """The seat that dealt this hand, or None when the game has no dealer (the default)."""
        return None

    def pass_word(self) -> str:
        """What a pass move is called in this game: "pass" (the default, Hearts) or "discard" (Moss Side
        Whist's leader)."""
        return "pass"

    # --- the table API: the centre of the table (generic defaults; games override) -----------------------
    def stock_count(self) -> int | None:
        """Cards left in the stock (also right on an observation's state), or None in games without one."""
        return None

    def discard_pile(self) -> tuple[int, ...]:
        """The face-up discard pile, bottom card first (Pharaoh); () in games without one."""
        return ()

    def suit_to_follow(self) -> int | None:
        """The suit the next play must follow as its index in the deck (Pharaoh's active suit, which an Ober
        may have named), or None when any suit may follow (after Pharaoh's Unter of leaves) and in other games."""
        return None

    def penalty_pending(self) -> tuple[int, int]:
        """``(cards to draw, turns to miss)`` that bind the player to move unless answered (Pharaoh's VIIs and
        Aces); (0, 0) when nothing is pending, when the hand is over and in other games."""
        return 0, 0

    def finishing_order(self) -> tuple[int, ...]:
        """The seats that went out of cards, first out first (Pharaoh); () in other games."""
        return ()

    def table_cards(self) -> tuple[int, ...]:
        """The face-up cards on the table that plays can capture (Scopone, Scopa), in deck order; else ()."""
        return ()

    def captured_cards(self, side: int) -> tuple[int, ...]:
        """The cards side ``side`` (its index in ``game.teams()``) has captured this hand (Scopone, Scopa), in
        deck order; () in other games."""
        return ()

    def sweeps(self, side: int) -> int:
        """The sweeps (scope) side ``side`` has made this hand (Scopone, Scopa); 0 in other games."""
        return 0

    def sweep_cards(self, side: int) -> tuple[int, ...]:
        """The played card of each of side ``side``'s sweeps this hand, in play order (the cards a table lays
        face up across the side's capture pile); () in other games."""
        return ()
