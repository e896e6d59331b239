"""Per-seat observations: what one seat knows, and where the cards it cannot see may be.

An :class:`Observation` holds a *masked* copy of the state: every card the seat cannot see has been
removed from its hidden location (other hands, the stock, a face-down discard pile) and hidden moves
(another seat's Hearts pass, the Moss Side Whist leader's discards) are recorded without their cards.
The hidden locations are described by :class:`HiddenSlot` values: how many cards each holds and which
cards it may hold (voids, known passed cards and visible trumps already applied). Two states that differ
only in what the seat cannot see give equal observations: this is what makes agents provably fair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.cards import popcount

if TYPE_CHECKING:
    from engine.game import GameState


@dataclass(frozen=True)
class HiddenSlot:
    """A hidden card location: ``count`` cards, each from the set ``allowed``.

    ``owner`` is the seat holding the cards (-1 for a stock or pile); ``ordered`` slots (a stock) are
    shuffled when filled. ``name`` is a short label such as ``hand1`` or ``stock``.
    """

    name: str
    owner: int
    count: int
    allowed: int
    ordered: bool = False


@dataclass
class Observation:
    """What ``seat`` knows about a hand in progress.

    ``state`` is the masked state (safe to read: it holds no hidden card); ``unknown`` is the set of cards
    whose location the seat does not know; ``slots`` say where they may be. ``sum(slot.count) ==
    popcount(unknown)`` always holds.
    """

    seat: int
    state: GameState
    unknown: int
    slots: list[HiddenSlot] = field(default_factory=list)

    @property
    def game(self) -> Any:
        return self.state.game

    @property
    def current_player(self) -> int:
        return self.state.current_player

    def legal_moves(self) -> list[int]:
        """The observer's legal moves (valid when it is the observer's turn)."""
        return self.state.legal_moves()

    def check(self) -> None:
        """Sanity check: slot counts add up and every slot can be filled."""
        total = sum(s.count for s in self.slots)
        if total != popcount(self.unknown):
            raise ValueError(f"slots hold {total} cards but {popcount(self.unknown)} are unknown")
        for s in self.slots:
            if popcount(s.allowed & self.unknown) < s.count:
                raise ValueError(f"slot {s.name} needs {s.count} cards but only "
                                 f"{popcount(s.allowed & self.unknown)} are allowed")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (used by fairness tests to compare observations)."""
        return {"seat": self.seat, "state": self.state.to_dict(), "unknown": self.unknown,
                "slots": [[s.name, s.owner, s.count, s.allowed, s.ordered] for s in self.slots]}

    @classmethod
    def from_dict(cls, game: Any, d: dict[str, Any]) -> Observation:
        """The observation of :meth:`to_dict` for ``game`` (what a network client receives).

        The masked state is loaded with the state class's ``masked_from_dict`` when it has one (a game whose
        masked state differs from a full one, e.g. a stock left out), else its ``from_dict``; it is not
        validated as a full state (its hidden cards are missing by design), but the slots must add up
        (:meth:`check`). Raises ``ValueError`` (one line saying why) for anything malformed.
        """
        try:
            if not isinstance(d, dict) or not isinstance(d.get("state"), dict):
                raise TypeError("an observation must be an object with a state object")
            state_cls = game.state_class()
            loader = getattr(state_cls, "masked_from_dict", state_cls.from_dict)
            state = loader(game, d["state"])
            slots = [HiddenSlot(str(name), int(owner), int(count), int(allowed), bool(ordered))
                     for name, owner, count, allowed, ordered in d["slots"]]
            obs = cls(int(d["seat"]), state, int(d["unknown"]), slots)
            obs.check()
        except Exception as e:  # noqa: BLE001 - the state class's own format errors too, as one kind
            raise ValueError(f"malformed {game.name} observation: {e}") from None
        return obs

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
