"""Per-game table renderers: they turn a (masked) game state into sprites and labels for the table screen."""

from __future__ import annotations

from app.tables.base import Label, Scene, Sprite, TableRenderer, View


def renderer_for(game_name: str) -> type[TableRenderer]:
    """The renderer class of a game (the generic one for games without a dedicated renderer)."""
    from app.tables import base, trick

    table: dict[str, str] = {"sueca": "trick", "hearts": "trick", "mosssidewhist": "trick",
                             "bisca": "trick", "briscola": "trick", "scopone": "scopone", "scopa": "scopone",
                             "pharaoh": "pharaoh"}
    kind = table.get(game_name, "base")
    if kind == "trick":
        return trick.TrickRenderer
    if kind == "scopone":
        try:
            from app.tables.scopone import ScoponeRenderer

            return ScoponeRenderer
        except ImportError:
            return base.TableRenderer
    if kind == "pharaoh":
        try:
            from app.tables.pharaoh import PharaohRenderer

            return PharaohRenderer
        except ImportError:
            return base.TableRenderer
    return base.TableRenderer


__all__ = ["Label", "Scene", "Sprite", "TableRenderer", "View", "renderer_for"]
