"""The app's access to the background move worker (``engine.worker.MoveWorker``) and the difficulty presets
(``engine.presets``), plus :class:`ThreadWorker`, an in-process worker with the same API for tests.
"""

from __future__ import annotations

import random
import threading
import time
import traceback
from typing import Any

from engine import agents, presets, registry
from engine.agent import Budget
from engine.worker import MoveRequest, MoveWorker, WorkerDone, WorkerFailed, WorkerProgress


def make_request(**fields: Any) -> MoveRequest:
    """A worker request (``engine.worker.MoveRequest``)."""
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
            event: Any = WorkerDone(rid, move, time.monotonic() - start, 0)
        except Exception as e:  # noqa: BLE001 - reported to the app, which plays the fallback move
            event = WorkerFailed(rid, f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}", fallback)
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
        """Stop the current request."""
        self.cancel()


def make_worker(prefer_thread: bool = False) -> Any:
    """The background move worker (``engine.worker.MoveWorker``; an in-process :class:`ThreadWorker` when
    ``prefer_thread``)."""
    return ThreadWorker() if prefer_thread else MoveWorker()


def is_done(event: Any) -> bool:
    """Whether a worker event is a finished move."""
    return isinstance(event, WorkerDone)


def is_failed(event: Any) -> bool:
    """Whether a worker event is a failure."""
    return isinstance(event, WorkerFailed)


def is_progress(event: Any) -> bool:
    """Whether a worker event is a progress report."""
    return isinstance(event, WorkerProgress)


def levels() -> tuple[str, ...]:
    """The difficulty presets."""
    return tuple(presets.LEVELS)


def preset_spec(game: str, level: str) -> str:
    """The agent SPEC of a difficulty preset for ``game``."""
    return presets.preset_spec(game, level)


def hint_spec(game: str) -> str:
    """The agent SPEC of the hints for ``game`` (strong's search and expert's endgame solver)."""
    return presets.hint_spec(game)


def describe_level(level: str) -> str:
    """A one-line description of a preset."""
    return str(presets.describe_level(level))
