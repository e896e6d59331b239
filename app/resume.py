"""One resumable game per game kind, without drawing: starting a game of another kind puts the unfinished
one aside (``saves.shelf``) instead of ending it, and Continue takes any of them back."""

from __future__ import annotations

from typing import Any

from saves.session import GameSession
from saves.shelf import Shelf


def unfinished_at_table(app: Any) -> GameSession | None:
    """The unfinished game in the autosave, read without moving anything (None when none loads)."""
    try:
        store = app.autosave_store()
        return store.peek() if store.exists() else None
    except Exception:  # noqa: BLE001 - nothing readable (a new save never overwrites a damaged one)
        return None


def make_room(app: Any, game_name: str) -> list[GameSession | str]:
    """Prepare to start a game of ``game_name``: the unfinished game at the table is put aside when it is of
    another kind whose place is free (and not a study game). Returns what starting would still end: the
    game at the table (when it could not be put aside) and the game of this kind put aside earlier (its
    name)."""
    shelf = Shelf()
    saved = unfinished_at_table(app)
    ends: list[GameSession | str] = []
    if saved is not None:
        kind = saved.match.game.name
        if kind != game_name and not saved.study and not shelf.has(kind):
            try:
                shelf.put(saved)
                app.autosave_store().clear()
                saved = None
            except OSError:
                pass
        if saved is not None:
            ends.append(saved)
    if shelf.has(game_name):
        ends.append(game_name)
    return ends


def make_room_for_study(app: Any) -> None:
    """Before a study game starts: an unfinished ordinary game at the table is put aside when its kind's place
    is free (else the study game replaces it, as a participant's session must go on)."""
    saved = unfinished_at_table(app)
    shelf = Shelf()
    if saved is not None and not saved.study and not shelf.has(saved.match.game.name):
        try:
            shelf.put(saved)
        except OSError:
            return
        app.autosave_store().clear()


def end_put_aside(game_name: str) -> None:
    """The player chose to end the game of ``game_name`` put aside (a new one of that kind starts)."""
    shelf = Shelf()
    if shelf.has(game_name):
        shelf.drop(game_name)


def take_back(app: Any, game_name: str) -> tuple[GameSession | None, list[str]]:
    """Load the game of ``game_name`` put aside, putting the unfinished game at the table aside in its place
    (the caller opens the table, then calls :func:`forget_put_aside`). Returns the session (None when it
    cannot be loaded or the game at the table cannot be put aside) and the warnings for the player."""
    shelf = Shelf()
    result = shelf.load(game_name)
    warnings = [str(w) for w in result.warnings]
    if result.session is None:
        return None, warnings
    current = unfinished_at_table(app)
    if current is not None and current.session_id != result.session.session_id:
        try:
            shelf.put(current)
        except (OSError, ValueError) as e:
            return None, warnings + [str(e)]
    return result.session, warnings


def forget_put_aside(app: Any, session: GameSession) -> None:
    """After the table saved ``session`` into the autosave: remove its copy put aside."""
    app.autosave_store().flush()
    shelf = Shelf()
    kept = shelf.peek(session.match.game.name)
    if kept is not None and kept.session_id == session.session_id:
        shelf.drop(session.match.game.name)


def put_aside_games() -> list[str]:
    """Game names with a game put aside."""
    return Shelf().games()
