"""The game registry: one typed :class:`GameEntry` per game, registered by the game's own package.

Every sub-package of ``engine.games`` is a game family; importing it registers its games (its ``__init__``
ends with :func:`register`). The registry finds the packages itself, so a new game needs no list here.

>>> import random
>>> from engine import registry
>>> game = registry.create("sueca", {"target": 4})
>>> game.num_players
4
>>> state = game.new_hand(random.Random(1))
>>> len(state.legal_moves())  # the first player may lead any of its ten cards
10
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.agent import Agent
from engine.game import Game, VariantError
from engine.knowledge import SearchKnowledge

LEVELS = ("beginner", "casual", "strong", "expert")
"""The difficulty levels every game gives a preset SPEC for, weakest first."""

TABLE_KINDS = ("trick", "capture", "shedding")
"""The app's table renderers (``GameEntry.table``)."""

SUMMARY_KINDS = ("card-points", "penalty", "whist", "capture", "shedding")
"""The app's hand-summary kinds (``GameEntry.summary``)."""


GAMES_PACKAGE = "engine.games"
"""Every sub-package of this package is a game family that registers its games when imported."""


class RegistryError(RuntimeError):
    """A game package that fails to import or registers an inconsistent entry."""


@dataclass(frozen=True)
class GameEntry:
    """Everything the rest of the program needs to know about one game.

    ``order`` sorts the menu; ``agents`` are the game's own rule-based players by SPEC name; ``presets`` map
    each of :data:`LEVELS` to an agent SPEC; ``table`` and ``summary`` name the app's renderer and hand-summary
    kinds; ``rules_page`` is the basename of ``assets/rules/<lang>/<page>.md``; ``hint`` is the SPEC of the
    app's hints where it is not the default (strong's SPEC, with expert's exact endgame where both are ISMCTS).
    """

    name: str
    game_class: type[Game]
    order: int
    presets: Mapping[str, str]
    table: str
    summary: str
    knowledge: SearchKnowledge = field(default_factory=SearchKnowledge)
    agents: Mapping[str, type[Agent]] = field(default_factory=dict)
    rules_page: str = ""
    hint: str = ""

    def __post_init__(self) -> None:
        where = f"game entry {self.name!r}"
        if not self.name or not self.name.isidentifier() or self.name != self.name.lower():
            raise RegistryError(f"{where}: the name must be a lower-case identifier")
        if not (isinstance(self.game_class, type) and issubclass(self.game_class, Game)):
            raise RegistryError(f"{where}: game_class must be a Game subclass")
        if self.game_class.name != self.name:
            raise RegistryError(f"{where}: game_class.name is {self.game_class.name!r}")
        if not isinstance(self.knowledge, SearchKnowledge):
            raise RegistryError(f"{where}: knowledge must be a SearchKnowledge")
        if tuple(self.presets) != LEVELS or not all(isinstance(s, str) and s for s in self.presets.values()):
            raise RegistryError(f"{where}: presets must give a SPEC for each level, in order: {', '.join(LEVELS)}")
        if self.table not in TABLE_KINDS:
            raise RegistryError(f"{where}: table {self.table!r} is not one of {', '.join(TABLE_KINDS)}")
        if self.summary not in SUMMARY_KINDS:
            raise RegistryError(f"{where}: summary {self.summary!r} is not one of {', '.join(SUMMARY_KINDS)}")
        for agent_name, cls in self.agents.items():
            if not (isinstance(cls, type) and issubclass(cls, Agent)) or cls.name != agent_name:
                raise RegistryError(f"{where}: agent {agent_name!r} must be an Agent subclass of that name")
            if cls.games is not None and self.name not in cls.games:
                raise RegistryError(f"{where}: agent {agent_name!r} does not play {self.name!r}")
        object.__setattr__(self, "presets", MappingProxyType(dict(self.presets)))
        object.__setattr__(self, "agents", MappingProxyType(dict(self.agents)))
        if not self.rules_page:
            object.__setattr__(self, "rules_page", self.name)

    @property
    def title(self) -> str:
        return self.game_class.title


_entries: dict[str, GameEntry] = {}
_discovered = False
_lock = threading.RLock()


def register(*entries: GameEntry) -> None:
    """Add game entries (called at the end of a game package's ``__init__``); a name twice fails."""
    with _lock:
        for e in entries:
            if not isinstance(e, GameEntry):
                raise RegistryError(f"register() takes GameEntry values, not {type(e).__name__}")
            old = _entries.get(e.name)
            if old is not None and old != e:
                raise RegistryError(f"game {e.name!r} is registered twice ({old.game_class.__module__} and "
                                    f"{e.game_class.__module__})")
            _entries[e.name] = e


def _discover() -> None:
    """Import every game package once (another thread asking meanwhile waits until all are registered)."""
    global _discovered
    with _lock:
        if _discovered:
            return
        games = importlib.import_module(GAMES_PACKAGE)
        for info in pkgutil.iter_modules(games.__path__, GAMES_PACKAGE + "."):
            if not info.ispkg:
                continue
            try:
                importlib.import_module(info.name)
            except Exception as e:
                raise RegistryError(f"game package {info.name} failed to import: {type(e).__name__}: {e}") from e
        _discovered = True


def entries() -> list[GameEntry]:
    """Every registered game's entry, in menu order."""
    if not _discovered:
        _discover()
    return sorted(_entries.values(), key=lambda e: (e.order, e.name))


def names() -> list[str]:
    """Registered game names, in menu order."""
    return [e.name for e in entries()]


def entry(name: str) -> GameEntry:
    """The entry of a registered game; unknown names list the valid ones."""
    found = _entries.get(name)
    if found is not None:
        return found
    if not _discovered:
        _discover()
        found = _entries.get(name)
        if found is not None:
            return found
    raise VariantError(f"unknown game {name!r}; games: {', '.join(names())}")


def available() -> list[str]:
    """Registered games (a game package that does not import fails loudly instead of hiding)."""
    return names()


def game_class(name: str) -> type[Game]:
    """The class of a registered game; unknown names list the valid ones."""
    return entry(name).game_class


def create(name: str, variant: dict[str, Any] | None = None) -> Game:
    """A game with a validated variant (unknown keys or bad values raise VariantError listing options)."""
    return game_class(name)(variant or {})


def describe(name: str) -> dict[str, Any]:
    """JSON-friendly description of a game and its options."""
    cls = game_class(name)
    return {"name": name, "title": cls.title, "deck": cls.deck.name,
            "options": [o.describe() for o in cls.options]}


def parse_variant(pairs: list[str]) -> dict[str, str]:
    """Parse ``KEY=VALUE`` strings (CLI) into a dict; values are coerced by the game's options."""
    out: dict[str, str] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key:
            raise VariantError(f"bad variant {p!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out
