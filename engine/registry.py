"""The game registry: names -> game classes, loaded lazily so one broken module cannot hide the others.

>>> from engine import registry
>>> game = registry.create("sueca", {"target": 4})
>>> state = game.new_hand(random.Random(1))
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.game import Game, VariantError

GAMES: dict[str, str] = {
    "sueca": "engine.games.sueca:Sueca",
    "bisca": "engine.games.bisca:Bisca",
    "briscola": "engine.games.bisca:Briscola",
    "hearts": "engine.games.hearts:Hearts",
    "mosssidewhist": "engine.games.mosssidewhist:MossSideWhist",
    "scopone": "engine.games.scopone:Scopone",
    "scopa": "engine.games.scopone:Scopa",
    "pharaoh": "engine.games.pharaoh:Pharaoh",
}
"""Every game name and the ``module:Class`` that implements it."""


def names() -> list[str]:
    """Registered game names, in menu order."""
    return list(GAMES)


def available() -> list[str]:
    """Registered games whose module imports (all of them in a complete build)."""
    out = []
    for name in GAMES:
        try:
            game_class(name)
        except ImportError:
            continue
        out.append(name)
    return out


def game_class(name: str) -> type[Game]:
    """The class of a registered game; unknown names list the valid ones."""
    try:
        target = GAMES[name]
    except KeyError:
        raise VariantError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


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
