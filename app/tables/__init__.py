"""Table renderers, one per registry table kind: they turn a (masked) game state into sprites and labels."""

from __future__ import annotations

from app.tables.base import Label, Scene, Sprite, TableRenderer, View
from app.tables.capture import CaptureRenderer
from app.tables.shedding import SheddingRenderer
from app.tables.trick import TrickRenderer
from engine import registry

RENDERERS: dict[str, type[TableRenderer]] = {"trick": TrickRenderer, "capture": CaptureRenderer,
                                             "shedding": SheddingRenderer}
"""The renderer of each table kind of ``engine.registry.TABLE_KINDS``."""


def renderer_for(game_name: str) -> type[TableRenderer]:
    """The renderer class of a game, by its registry entry's table kind (the generic one for an unknown kind)."""
    return RENDERERS.get(registry.entry(game_name).table, TableRenderer)


__all__ = ["Label", "Scene", "Sprite", "TableRenderer", "View", "renderer_for"]
