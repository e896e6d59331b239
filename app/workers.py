"""Access to the background move worker and the difficulty presets, with thin local fallbacks.

The real pieces are ``engine.worker.MoveWorker`` (search in another process) and ``engine.presets``; the
fallbacks keep the app usable in a build where they are missing (a thread runs the agent).
"""

from __future__ import annotations

import random
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "expert")


@dataclass
class FallbackRequest:
    """Same fields as ``engine.worker.MoveRequest``."""

    game: str
    variant: dict
    spec: str
    state_json: str
    seat: int
    seed: int
    time_limit: float | None = None


@dataclass
class FallbackDone:
    """Same fields as ``engine.worker.WorkerDone``."""
    request_id: int
    move: int
    elapsed: float
    iterations: int


@dataclass
class FallbackFailed:
    """Same fields as ``engine.worker.WorkerFailed``."""
    request_id: int
    error: str
    fallback_move: int


def make_request(**fields: Any) -> Any:
    """A ``MoveRequest`` (the engine's when available)."""
    try:
        from engine.worker import MoveRequest
    except ImportError:
        MoveRequest = FallbackRequest  # noqa: N806
    return MoveRequest(**fields)


class ThreadWorker:
    """In-process stand-in for ``engine.worker.MoveWorker`` with the same request/poll/cancel API."""

    def __init__(self) -> None:
        self._next = 0
        self._events: list[Any] = []
        self._lock = threading.Lock()
        self._current = -1
        self._cancel: threading.Event | None = None
        self._thread: threading.Thread | None = None

    def request(self, req: Any) -> int:
        """Start a search for ``req`` (superseding any running one); returns its id."""
        self.cancel()
        self._next += 1
        rid = self._next
        self._current = rid
        cancel = threading.Event()
        self._cancel = cancel
        self._thread = threading.Thread(target=self._run, args=(rid, req, cancel), daemon=True)
        self._thread.start()
        return rid

    def _run(self, rid: int, req: Any, cancel: threading.Event) -> None:
        from engine import agents, registry
        from engine.agent import Budget

        start = time.monotonic()
        fallback = -1
        try:
            game = registry.create(req.game, req.variant)
            state = game.state_from_json(req.state_json)
            moves = state.legal_moves()
            fallback = random.Random(req.seed).choice(moves) if moves else -1
            agent = agents.make(req.spec, game)
            budget = Budget(seconds=req.time_limit, cancel=cancel)
            rng = random.Random(req.seed)
            if getattr(agent, "fair", True):
                move = agent.choose(state.observation(req.seat), rng, budget)
            else:
                move = agent.choose_full(state, rng, budget)
            event: Any = FallbackDone(rid, move, time.monotonic() - start, 0)
        except Exception as e:  # noqa: BLE001 - reported to the app, which plays the fallback move
            event = FallbackFailed(rid, f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}", fallback)
        if not cancel.is_set():
            with self._lock:
                self._events.append(event)

    def poll(self) -> list[Any]:
        """Finished or failed events of the current request (never blocks)."""
        with self._lock:
            out = [e for e in self._events if e.request_id == self._current]
            self._events = []
        return out

    def cancel(self) -> None:
        """Stop the current request; its late results are dropped."""
        if self._cancel is not None:
            self._cancel.set()
        self._current = -1

    @property
    def busy(self) -> bool:
        """Whether a search is running."""
        return self._thread is not None and self._thread.is_alive() and self._current >= 0

    def shutdown(self) -> None:
        """Close screens, save settings, stop the worker and quit pygame."""
        self.cancel()


def make_worker(prefer_thread: bool = False) -> Any:
    """The background move worker (``engine.worker.MoveWorker``; the thread fallback when unavailable)."""
    if not prefer_thread:
        try:
            from engine.worker import MoveWorker

            return MoveWorker()
        except ImportError:
            pass
    return ThreadWorker()


def is_done(event: Any) -> bool:
    """Whether a worker event is a finished move."""
    return type(event).__name__ in ("WorkerDone", "FallbackDone")


def is_failed(event: Any) -> bool:
    """Whether a worker event is a failure."""
    return type(event).__name__ in ("WorkerFailed", "FallbackFailed")


def is_progress(event: Any) -> bool:
    """Whether a worker event is a progress report."""
    return type(event).__name__ == "WorkerProgress"


def levels() -> tuple[str, ...]:
    """The difficulty presets."""
    try:
        from engine.presets import LEVELS as engine_levels

        return tuple(engine_levels)
    except ImportError:
        return LEVELS


def preset_spec(game: str, level: str) -> str:
    """The agent SPEC of a difficulty preset for ``game`` (random play until the presets exist)."""
    try:
        from engine.presets import preset_spec as engine_preset_spec

        return engine_preset_spec(game, level)
    except ImportError:
        return "random"
    except Exception:  # noqa: BLE001 - a preset for a game still being written
        return "random"


def hint_spec(game: str) -> str:
    """The agent SPEC of the hints for ``game`` (strong's search and expert's endgame solver)."""
    try:
        from engine.presets import hint_spec as engine_hint_spec

        return engine_hint_spec(game)
    except Exception:  # noqa: BLE001 - a game without presets
        return preset_spec(game, "strong")


def describe_level(level: str) -> str:
    """A one-line description of a preset."""
    try:
        from engine.presets import describe_level as engine_describe

        return str(engine_describe(level))
    except Exception:  # noqa: BLE001
        return level
