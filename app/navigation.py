"""Screens and the moves between them: the :class:`Screen` base class, a table of screens by name (each screen
module registers its class), and the transitions several screens share (open a table, what follows a match).

Screens never import each other or ``app.main``: they ask for another screen by name (``make(app, "menu")``),
so the app's modules form no import cycle. ``app/screens/__init__.py`` imports every screen module, which
registers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from app.controller import Controller
from app.sessions import rematch
from saves.session import GameSession

if TYPE_CHECKING:
    from app.main import App

BACKGROUND = (18, 74, 48)


class Screen:
    """One screen of the app. ``build`` (re)creates its pygame-gui elements for the current window size."""

    name = "screen"
    opaque = True

    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def ui(self) -> pygame_gui.UIManager:
        """The GUI manager of the app."""
        return self.app.ui

    def build(self) -> None:
        """Create the GUI elements (the manager is empty when this runs)."""

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw everything except the GUI elements (drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)

    def leave(self) -> None:
        """Called when the screen is removed from the stack."""

    def changing(self) -> bool:
        """Whether the screen must be drawn again although no event came (default: always; a screen that knows
        when it is still says so, and the interactive loop then skips drawing it)."""
        return True

    def frame_rate(self) -> int:
        """Frames per second this screen needs now (lower when nothing moves, to leave CPU to the AI)."""
        return 30


_SCREENS: dict[str, Callable[..., Screen]] = {}


def register(name: str, factory: Callable[..., Screen]) -> None:
    """Make a screen class (or factory ``f(app, *args)``) reachable by ``name``."""
    _SCREENS[name] = factory


def make(app: Any, name: str, *args: Any, **kwargs: Any) -> Screen:
    """A new screen of the registered ``name`` (``app.screens`` must have been imported)."""
    try:
        factory = _SCREENS[name]
    except KeyError:
        raise KeyError(f"no screen {name!r}; registered: {', '.join(sorted(_SCREENS)) or 'none'}") from None
    return factory(app, *args, **kwargs)


def start_session(app: Any, session: GameSession, warnings: list[str] | None = None) -> None:
    """Open the table for a session (new or restored; ``warnings`` from loading are shown at the table)."""
    controller = Controller(session, min_delay_ms=app.settings.ai_min_delay_ms,
                            allow_undo=app.settings.allow_undo, worker=app.worker,
                            autosave=app.autosave_store())
    controller.save()
    for warning in warnings or []:
        controller.notify(str(warning), error=True, seconds=30)
    app.reset_to(make(app, "table", controller))


def go_next(app: Any, where: str, session: GameSession) -> None:
    """After the match (and survey): the study's progress, a rematch with the same seats, or the menu."""
    ctx = getattr(app, "study", None)
    if where == "study" and ctx is not None and ctx.run is not None:
        app.reset_to(make(app, "study_progress", ctx))
        return
    if where == "again":  # a rematch: the same game, variant and seats, dealt anew
        start_session(app, rematch(session))
        return
    app.reset_to(make(app, "menu"))
