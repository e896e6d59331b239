"""``cardtable --selftest``: check an installation (checkout, wheel or frozen bundle) without a window.

It plays one hand of every registered game with the real background search process deciding for every seat
(each game's beginner SPEC; seat 0 adds ``workers=2`` so root parallelization starts its helper processes too),
autosaves after every move and reloads the save at the end of the hand, records every match that one hand
finishes, opens the app headless on its menu with the shipped fonts, theme, translations, rule pages and the
example study, all in a temporary data folder (``CARDTABLE_HOME``), and prints one JSON summary line last.
Any failure (a fallback move, a broken save, a missing file) makes the exit status non-zero.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PARALLEL_WORKERS = 2
"""Root-parallel helper processes used by seat 0 (0 or 1: none)."""
MOVE_TIMEOUT = 120.0
"""Seconds one decision may take before the self-test gives up on it (a safety net: decisions take milliseconds)."""


class SelftestError(Exception):
    """A check of the self-test failed."""


@contextmanager
def _temporary_home() -> Iterator[str]:
    """A fresh ``CARDTABLE_HOME`` and dummy SDL drivers for the duration; the previous values come back after."""
    keys = ("CARDTABLE_HOME", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")
    saved = {k: os.environ.get(k) for k in keys}
    home = tempfile.mkdtemp(prefix="cardtable-selftest-")
    os.environ.update(CARDTABLE_HOME=home, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    try:
        yield home
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(home, ignore_errors=True)


def seat_spec(game: str, seat: int) -> str:
    """The quick SPEC a seat plays in the self-test: the game's beginner preset (seat 0 root-parallel)."""
    from engine.runtime.presets import preset_spec

    spec = preset_spec(game, "beginner")
    return f"{spec},workers={PARALLEL_WORKERS}" if seat == 0 and PARALLEL_WORKERS > 1 else spec


def _decide(worker: Any, request: Any) -> tuple[int, str]:
    """The worker's move for ``request`` and, when the search failed and the worker gave its random legal
    fallback move instead, why (empty for a move of the search process)."""
    from engine.worker import WorkerDone, WorkerFailed

    rid = worker.request(request)
    deadline = time.monotonic() + MOVE_TIMEOUT
    while time.monotonic() < deadline:
        for event in worker.poll():
            if getattr(event, "request_id", None) != rid:
                continue
            if isinstance(event, WorkerDone):
                return event.move, ""
            if isinstance(event, WorkerFailed):
                if event.fallback_move < 0:
                    raise SelftestError(f"the search process refused the request: {event.error}")
                return event.fallback_move, event.error.splitlines()[0] if event.error else "failed"
        time.sleep(0.002)
    worker.cancel()
    raise SelftestError(f"{request.game}: no answer from the search process within {MOVE_TIMEOUT:.0f} s")


def play_hand(name: str, worker: Any, store: Any, records: Any, seed: int) -> dict[str, Any]:
    """One hand of ``name`` with every seat decided by ``worker``; autosaved after every move into ``store``,
    the match recorded into ``records`` when the hand ends it. Returns the hand's counts."""
    from engine import registry
    from engine.worker import MoveRequest
    from saves.session import GameSession, Seat

    game = registry.create(name)
    seats = [Seat("ai", f"AI {i + 1}", seat_spec(name, i)) for i in range(game.num_players)]
    session = GameSession.start(game, seats, seed)
    state = session.match.state
    moves = fallbacks = 0
    while not state.is_terminal():
        seat = state.current_player
        request = MoveRequest(name, dict(game.variant), seats[seat].spec, state.to_json(), seat,
                              session.ai_rng().randrange(1 << 62))
        move, error = _decide(worker, request)
        if error:
            fallbacks += 1
            print(f"selftest: {name}: seat {seat} got a fallback move: {error}", file=sys.stderr, flush=True)
        if move not in state.legal_moves():
            raise SelftestError(f"{name}: the search process chose the illegal move {move}")
        session.apply(move)
        moves += 1
        store.save(session)
    loaded = store.load()
    if loaded.session is None or loaded.session.to_dict() != session.to_dict():
        raise SelftestError(f"{name}: the autosave did not reload as saved {loaded.warnings}")
    session.match.finish_hand()
    recorded = 0
    if session.match.over:
        record_id = records.record_game(session)
        if records.load_record(record_id).game != name:
            raise SelftestError(f"{name}: the record did not read back")
        recorded = 1
    store.clear()
    return {"ai_moves": moves, "fallback_moves": fallbacks, "autosaves": moves, "records": recorded}


def check_app() -> dict[str, Any]:
    """Open the app headless on its menu (fonts, theme), load every translation and rule page and the example
    study; returns what was checked."""
    from app import i18n, rules_pages
    from app.main import App
    from app.screens.menu import MenuScreen
    from engine import registry
    from saves.examples import example_path

    for lang in i18n.LANGUAGES:
        if lang != "en" and not i18n.load_table(lang):
            raise SelftestError(f"the {lang} translation is missing or empty")
    pages = 0
    for name in registry.names():
        for lang in rules_pages.LANGUAGES:
            if not rules_pages.rules_title(name, lang):
                raise SelftestError(f"the {lang} rules page of {name} is empty")
            pages += 1
    app = App((1024, 640), headless=True)
    try:
        app.push(MenuScreen(app))
        app.step()
        error = app.open_study(str(example_path("study.json")))
        if error:
            raise SelftestError(f"the example study does not open: {error}")
        app.step()
    finally:
        app.shutdown()
    return {"languages": len(i18n.LANGUAGES), "rule_pages": pages}


def selftest(seed: int = 1, games: list[str] | None = None) -> dict[str, Any]:
    """Run every check (see the module docstring) for ``games`` (default: every registered game) and return the
    summary; raises :class:`SelftestError`."""
    from app.resources import app_version
    from engine import registry
    from engine.worker import MoveWorker
    from saves.autosave import AutosaveStore
    from saves.records import RecordsDB

    start = time.perf_counter()
    summary: dict[str, Any] = {"games": 0, "ai_moves": 0, "fallback_moves": 0, "autosaves": 0, "records": 0}
    with _temporary_home():
        worker = MoveWorker()
        records = RecordsDB()
        try:
            store = AutosaveStore()
            for i, name in enumerate(registry.names() if games is None else games):
                counts = play_hand(name, worker, store, records, seed + i)
                for key, value in counts.items():
                    summary[key] += value
                summary["games"] += 1
                print(f"selftest: {name}: {counts['ai_moves']} AI moves", file=sys.stderr, flush=True)
        finally:
            worker.shutdown()
            records.close()
        if summary["fallback_moves"]:
            raise SelftestError(f"{summary['fallback_moves']} moves were fallbacks, not the search process's")
        if summary["records"] == 0:
            raise SelftestError("no game ended its match in one hand: the record write was not exercised")
        summary.update(check_app())
    summary["seconds"] = round(time.perf_counter() - start, 2)
    summary["version"] = app_version()
    return summary


def run_selftest(games: list[str] | None = None) -> int:
    """The ``--selftest`` command: print the summary as one JSON line (last); 0 when every check passed."""
    try:
        summary = selftest(games=games)
    except Exception as e:  # noqa: BLE001 - every failure becomes one line and a non-zero exit
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}), flush=True)
        return 1
    print(json.dumps(dict(summary, ok=True)), flush=True)
    return 0
