"""The background move worker: agents think in a separate process while the caller keeps drawing.

:class:`MoveWorker` owns one search process - a :class:`~engine.runtime.supervisor.Child` of role ``worker``:
a fresh interpreter (spawn semantics: never ``fork``, since the app has SDL loaded, and the app's main module
is not re-imported) talking JSON lines over its stdin/stdout (no pickle) - and one thread in the caller that
owns the pipe.
The caller only touches :meth:`MoveWorker.request`, :meth:`MoveWorker.poll` (non-blocking, never raises),
:meth:`MoveWorker.cancel` and :meth:`MoveWorker.shutdown`.

* The worker builds the seat's observation from the true state itself; fair agents see only that.
* Progress (:class:`WorkerProgress`) arrives every ``progress_interval`` seconds while a search runs.
* A cancelled or superseded request produces no :class:`WorkerDone`; its late messages are dropped.
* If the search process dies while working on a request, that request ends with :class:`WorkerFailed`
  carrying a random legal fallback move (the notice says how the process ended), and the next request starts a
  fresh process. A process that died while idle is replaced before the next request: the process acknowledges
  each request it receives, and a request it never received is sent once more to a fresh process.
* A watchdog in the owner thread does the same to a search process that is stopped (SIGSTOP) or hung: when
  a request with a (positive) time limit has no answer within the limit plus a grace of
  ``max(TIME_LIMIT_GRACE, TIME_LIMIT_GRACE_FRACTION x limit)`` seconds (counted from the request, or from
  when a fresh process is ready), and whenever the process, busy or idle, sends nothing for
  ``silence_timeout`` seconds (:data:`SILENCE_TIMEOUT` by default; a fresh process has
  :data:`START_TIMEOUT` for its first line). The process sends an ``alive`` message every
  :data:`HEARTBEAT_INTERVAL` seconds from a thread of its own, so silence means stuck even for agents that
  report no progress (the endgame solver, rule-based agents), and requests without a time limit (the
  agent's own budget) end too. If the whole app was stopped (Ctrl-Z, suspend), the watchdog restarts its
  clocks rather than blame the process.
* The search process keeps one agent per game, variant, SPEC and seat (what lets ``reuse=true`` keep each
  seat's tree), and calls its ``reset()`` unless the request continues the hand of that agent's last completed
  decision (replaying the moves played since gives the request's state): a new hand or game, a position asked
  again (undo) or after a cancelled or failed decision starts afresh. So each seat decides as an agent of its
  own does in the arena (reset at every hand), with the same observations and seeds. A new process starts
  with fresh agents.
* Agents with root parallelization (``ismcts:...,workers=N``) work unchanged: the search process starts
  its own N-1 helper processes (:mod:`engine.runtime.parallel`, kept between requests); a cancel or a
  superseding request stops them too, and if the search process is killed they exit on their own. They
  compete with the app for the cores, which is why presets use one worker.

:func:`choose_move` is the synchronous, in-process convenience used by scripts and tests.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import random
import threading
import time
import traceback
import weakref
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

from engine import agents, registry
from engine.agent import Budget, Progress
from engine.game import Game, GameState
from engine.runtime.supervisor import Child, ParentLink

__all__ = ["MoveRequest", "MoveWorker", "WorkerDone", "WorkerFailed", "WorkerProgress", "choose_move"]


@dataclass
class MoveRequest:
    """One decision to make: the TRUE state (JSON) and the seat to move; the worker masks it itself."""

    game: str
    variant: dict[str, Any]
    spec: str  # agent SPEC, e.g. "ismcts:iterations=5000"
    state_json: str  # GameState.to_json() of the true state
    seat: int
    seed: int  # rng seed for this decision
    time_limit: float | None = None  # seconds; None = the agent's own budget


@dataclass
class WorkerProgress:
    """A progress report of the running request."""

    request_id: int
    iterations: int
    best_move: int | None
    win_rate: float | None
    elapsed: float


@dataclass
class WorkerDone:
    """The request finished with ``move``."""

    request_id: int
    move: int
    elapsed: float
    iterations: int


@dataclass
class WorkerFailed:
    """The request failed (bad request, agent error, dead process); ``fallback_move`` is a legal move
    (-1 only when the request itself was unusable, e.g. an unknown game or a finished hand)."""

    request_id: int
    error: str
    fallback_move: int


WorkerEvent = WorkerProgress | WorkerDone | WorkerFailed

# --- the watchdog ------------------------------------------------------------------------------------
HEARTBEAT_INTERVAL = 0.25
"""Seconds between the search process's ``alive`` messages (from a thread of their own, whatever the agent does)."""
SILENCE_TIMEOUT = 10.0
"""Default seconds without a message from the search process (40 heartbeats missed) after which it counts as
stopped or hung and is killed; what bounds requests without a time limit."""
TIME_LIMIT_GRACE = 1.0
"""Least grace (seconds) beyond a request's time limit before the watchdog kills the search process..."""
TIME_LIMIT_GRACE_FRACTION = 0.5
"""...or this fraction of the limit, if that is more."""
OWNER_STALL = 2.0
"""A gap this long (seconds) between two turns of the owner thread means the whole app was stopped (Ctrl-Z,
a debugger, suspend): the watchdog then restarts its clocks instead of blaming the search process."""
START_TIMEOUT = 30.0
"""Seconds a fresh search process may take to send its first line (an interpreter starting on a busy machine)."""
_OWNER_TICK = 0.25  # the owner thread looks at the clocks at least this often


def time_limit_grace(limit: float) -> float:
    """Seconds the watchdog waits beyond a time limit of ``limit`` seconds."""
    return max(TIME_LIMIT_GRACE, TIME_LIMIT_GRACE_FRACTION * limit)


# --- deciding (shared by the child process and choose_move) -----------------------------------------
AGENT_CACHE_LIMIT = 32
"""Most agents one search process keeps (one per game, variant, SPEC and seat); beyond it the cache starts over."""


@dataclass
class _SeatAgent:
    """A cached agent of one seat and the true state (JSON) of its last completed decision."""

    agent: Any
    last_state_json: str | None = None


_agent_cache: dict[tuple[str, str, str, int], _SeatAgent] = {}


def _load(req: MoveRequest) -> tuple[Game, GameState]:
    """The game and the true state of a request (validated)."""
    game = registry.create(req.game, dict(req.variant))
    state = game.state_from_json(req.state_json)
    if state.is_terminal():
        raise ValueError("the hand is over: there is no move to choose")
    if state.current_player != req.seat:
        raise ValueError(f"it is seat {state.current_player}'s turn, not seat {req.seat}'s")
    return game, state


def _fallback_move(req: MoveRequest) -> int:
    """A random legal move of the request's state, or -1 if the request cannot be loaded."""
    try:
        _game, state = _load(req)
        moves = state.legal_moves()
        return moves[random.Random(req.seed).randrange(len(moves))]
    except Exception:  # noqa: BLE001 - the fallback must never raise
        return -1


def _continues(game: Any, earlier_json: str, state: Any) -> bool:
    """Whether ``state`` continues the hand of the earlier decision: the same deal with at least one move played
    since (replaying the moves of ``state``'s history on the earlier state gives ``state``)."""
    try:
        earlier = game.state_from_json(earlier_json)
        old, new = getattr(earlier, "history", None), getattr(state, "history", None)
        if old is None or new is None or len(new) <= len(old) or list(new[:len(old)]) != list(old):
            return False
        for _seat, move in new[len(old):]:
            earlier.do(move)
        return earlier.to_json() == state.to_json()
    except Exception:  # noqa: BLE001 - anything unexpected: not a continuation
        return False


def _seat_agent(req: MoveRequest, game: Any, state: Any) -> _SeatAgent:
    """The cached agent of the request's game, variant, SPEC and seat, ``reset()`` unless the request continues
    the hand of its last completed decision (a new hand or game, a repeated position after an undo, a cancelled
    or failed decision): so it decides as an agent of its own at that seat, reset at every new hand, does."""
    key = (req.game, json.dumps(game.variant, sort_keys=True), req.spec, req.seat)
    entry = _agent_cache.get(key)
    if entry is None:
        if len(_agent_cache) >= AGENT_CACHE_LIMIT:
            _agent_cache.clear()
        entry = _agent_cache[key] = _SeatAgent(agents.make(req.spec, game))
    elif entry.last_state_json is None or not _continues(game, entry.last_state_json, state):
        entry.agent.reset()
    entry.last_state_json = None  # set again only when this decision completes
    return entry


def _decide(req: MoveRequest, cancel: threading.Event | None, on_progress: Any,
            keep_agent: bool = True) -> tuple[int, int]:
    """Run the request's agent; returns (move, iterations). ``keep_agent`` reuses the seat's agent between
    requests (:func:`_seat_agent`: what lets ``reuse=true`` keep its tree); otherwise the agent is fresh."""
    game, state = _load(req)
    entry = _seat_agent(req, game, state) if keep_agent else None
    agent = entry.agent if entry is not None else agents.make(req.spec, game)
    last: list[Progress] = []

    def progress(p: Progress) -> None:
        last[:] = [p]
        if on_progress is not None:
            on_progress(p)

    budget = Budget(seconds=req.time_limit, cancel=cancel, on_progress=progress)
    rng = random.Random(req.seed)
    if agent.fair:
        move = agent.choose(state.observation(req.seat), rng, budget)
    else:
        move = agent.choose_full(state, rng, budget)
    if move not in state.legal_moves():
        raise RuntimeError(f"agent {req.spec!r} returned an illegal move {move!r}")
    if entry is not None and not (cancel is not None and cancel.is_set()):
        entry.last_state_json = req.state_json  # a cut-short search's kept state must not carry on
    return move, (last[0].iterations if last else 0)


def choose_move(req: MoveRequest) -> int:
    """Decide synchronously in this process (no worker, a fresh agent); raises on a bad request."""
    return _decide(req, None, None, keep_agent=False)[0]


# --- the child process ------------------------------------------------------------------------------
def child_main(progress_interval: float) -> None:
    """Entry point of the search process (``python -m engine.runtime.child worker INTERVAL``): JSON lines on
    stdin/stdout through :class:`~engine.runtime.supervisor.ParentLink`, a heartbeat every
    :data:`HEARTBEAT_INTERVAL` seconds."""
    inbox: queue.Queue[list[Any]] = queue.Queue()
    current: dict[str, threading.Event] = {"cancel": threading.Event()}

    def on_message(msg: list[Any]) -> None:
        if msg[0] in ("cancel", "go", "stop"):
            current["cancel"].set()  # a new request or a cancel supersedes the running one
        inbox.put(msg)

    link = ParentLink(on_message, heartbeat=HEARTBEAT_INTERVAL)
    link.send(["ready", os.getpid()])
    while True:
        msg = inbox.get()
        if msg[0] == "stop":
            return
        if msg[0] != "go":
            continue
        link.send(["started", msg[1]])  # received: a death from now on is this request's failure
        if not inbox.empty():  # already superseded
            continue
        _, rid, fields = msg
        cancel = threading.Event()
        current["cancel"] = cancel
        if not inbox.empty():
            cancel.set()
        start = time.perf_counter()
        next_report = [start]

        def on_progress(p: Progress, rid: int = rid, start: float = start,
                        next_report: list[float] = next_report) -> None:
            now = time.perf_counter()
            if now >= next_report[0]:
                next_report[0] = now + progress_interval
                link.send(["progress", rid, p.iterations, p.best_move, p.win_rate, now - start])

        try:
            move, iterations = _decide(MoveRequest(**fields), cancel, on_progress)
            if not cancel.is_set():
                link.send(["done", rid, move, time.perf_counter() - start, iterations])
            else:  # acknowledged: the search stopped here (the caller has already moved on)
                link.send(["cancelled", rid, iterations, time.perf_counter() - start])
        except Exception as e:  # noqa: BLE001 - report every failure to the caller
            detail = traceback.format_exc(limit=3)
            link.send(["failed", rid, f"{type(e).__name__}: {e}\n{detail}"])


# --- the caller side ---------------------------------------------------------------------------------
@dataclass
class _Running:
    """The request the search process works on, as the owner thread sees it."""

    request_id: int
    req: MoveRequest
    fallback: int  # a random legal move, for a failure
    deadline: float | None = None  # time.monotonic() by which the move must arrive (positive time limits only)
    received: bool = False  # the child said it has the request (from then on its death fails the request)
    resent: bool = False  # already sent again to a fresh child once


class MoveWorker:
    """Runs agent decisions in a background process; see the module docstring."""

    def __init__(self, progress_interval: float = 0.1, silence_timeout: float = SILENCE_TIMEOUT) -> None:
        self.progress_interval = progress_interval
        self.silence_timeout = silence_timeout
        self._lock = threading.Lock()
        self._events: list[WorkerEvent] = []
        self._inbox: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._next_id = 0
        self._pending: int | None = None  # request id the caller still waits for
        self._closed = False
        self._pid: int | None = None
        self._stopped: deque[tuple[int, int]] = deque(maxlen=100)  # the latest confirmations
        self._thread = threading.Thread(target=self._run, name="move-worker", daemon=True)
        self._thread.start()
        _live_workers.add(self)

    # --- public API -------------------------------------------------------------------------------
    def request(self, req: MoveRequest) -> int:
        """Ask for a move; returns the request id. Any pending request is cancelled."""
        with self._lock:
            if self._closed:
                raise RuntimeError("this MoveWorker has been shut down")
            self._next_id += 1
            rid = self._next_id
            self._pending = rid
            self._events = [e for e in self._events if not isinstance(e, WorkerProgress)]
        self._inbox.put(("go", rid, req))
        return rid

    def poll(self) -> list[WorkerEvent]:
        """Events that arrived since the last poll (non-blocking; never raises)."""
        try:
            with self._lock:
                out, self._events = self._events, []
            return out
        except Exception:  # noqa: BLE001
            return []

    def cancel(self) -> None:
        """Cancel the pending request at once: it will produce no further events."""
        with self._lock:
            rid = self._pending
            self._pending = None
            self._events = [e for e in self._events if not isinstance(e, WorkerProgress)]
        if rid is not None:
            self._inbox.put(("cancel", rid))

    def stopped_searches(self) -> list[tuple[int, int]]:
        """``(request_id, iterations)`` of each cancelled or superseded search that the search process has
        confirmed it stopped (the caller never needs to wait for this; it is for checks and diagnostics)."""
        with self._lock:
            return list(self._stopped)

    @property
    def busy(self) -> bool:
        """True while a request is pending (no WorkerDone/WorkerFailed yet)."""
        with self._lock:
            return self._pending is not None

    @property
    def pid(self) -> int | None:
        """Process id of the current search process (None before it started or after it died)."""
        return self._pid

    def shutdown(self) -> None:
        """Stop the search process and the owner thread (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._pending = None
        self._inbox.put(("shutdown",))
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=3.0)

    def __enter__(self) -> MoveWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # --- owner thread -------------------------------------------------------------------------------
    def _emit(self, event: WorkerEvent) -> None:
        with self._lock:
            if event.request_id != self._pending:
                return  # stale: cancelled or superseded
            if isinstance(event, (WorkerDone, WorkerFailed)):
                self._pending = None
            self._events.append(event)

    def _run(self) -> None:
        child: Child | None = None
        generations: dict[int, int] = {}  # pid -> generation (messages of an earlier child are stale)
        generation = 0
        running: _Running | None = None  # the request the child works on

        def start() -> Child | None:
            nonlocal generation
            generation += 1
            gen = generation

            def deliver(_c: Child, msg: list[Any] | None, gen: int = gen) -> None:
                self._inbox.put(("child", gen, msg) if msg is not None else ("eof", gen))

            try:
                c = Child("worker", (str(self.progress_interval),), deliver)
            except OSError:
                self._pid = None
                return None
            generations[c.pid] = gen
            self._pid = c.pid
            return c

        def current_generation() -> int:
            return generations.get(child.pid, -1) if child is not None else -1

        def send_request() -> None:
            """Send the running request to the child, starting a child first if there is none."""
            nonlocal child
            assert running is not None
            if child is None:
                child = start()
            if child is None:
                died("could not start the search process")
                return
            try:
                child.send(["go", running.request_id, asdict(running.req)])
            except (OSError, ValueError) as e:
                died(f"the search process stopped: {e}")
                return
            arm(time.monotonic())

        def died(reason: str) -> None:
            """The child is gone or given up. A request it had not yet received is sent to a fresh child (a
            process that died while idle costs nothing); one it was working on fails with its fallback move."""
            nonlocal child, running
            if child is not None:
                child.kill()  # first: once the caller hears of the failure, the process is gone
            child = None
            self._pid = None
            if running is not None and not running.received and not running.resent:
                running.resent = True
                running.deadline = None
                send_request()
                return
            if running is not None:
                self._emit(WorkerFailed(running.request_id, reason, running.fallback))
            running = None

        def arm(now: float) -> None:
            """Start the time-limit clock of the running request once the child is ready to serve it."""
            if running is not None and running.deadline is None and child is not None and child.ready_at is not None:
                limit = running.req.time_limit
                if limit is not None and limit > 0:
                    running.deadline = now + limit + time_limit_grace(limit)

        child = start()
        last_turn = time.monotonic()
        while True:
            now = time.monotonic()
            if now - last_turn > OWNER_STALL:  # this whole process was stopped (Ctrl-Z, suspend): not the child's fault
                if child is not None:
                    child.heard_at = now
                if running is not None and running.deadline is not None:
                    running.deadline += now - last_turn
            last_turn = now
            allowed = self.silence_timeout if child is None or child.spoke else max(self.silence_timeout, START_TIMEOUT)
            if child is not None and now - child.heard_at > allowed:
                died(f"the search process sent nothing for {allowed:g} s (stopped or hung): it was killed")
            elif running is not None and running.deadline is not None and now > running.deadline:
                limit = running.req.time_limit or 0.0
                running.received = True  # a hung search is not retried
                died(f"no move within the time limit of {limit:g} s (+{time_limit_grace(limit):g} s grace): "
                     "the search process was killed")
            wait = _OWNER_TICK if running is None or running.deadline is None else \
                min(_OWNER_TICK, max(0.0, running.deadline - now))
            try:
                item = self._inbox.get(timeout=wait)
            except queue.Empty:
                if child is not None and not child.alive():
                    died(f"the search process died ({child.exit_description()})")
                continue
            kind = item[0]
            if kind == "shutdown":
                if child is not None:
                    child.stop()
                self._pid = None
                return
            if kind == "cancel":
                if running is not None and running.request_id == item[1]:
                    running = None
                    try:
                        if child is not None:
                            child.send(["cancel", item[1]])
                    except (OSError, ValueError):
                        died("the search process stopped")
            elif kind == "go":
                _, rid, req = item
                running = _Running(rid, req, _fallback_move(req))
                if child is not None and not child.alive():
                    died(f"the search process died ({child.exit_description()})")
                else:
                    send_request()
            elif kind == "eof":
                if child is not None and item[1] == current_generation():
                    died(f"the search process died ({child.exit_description()})")
            elif kind == "child":
                if child is None or item[1] != current_generation():
                    continue
                msg = item[2]
                what = msg[0]
                if what == "ready":
                    child.ready_at = time.monotonic()
                    arm(child.ready_at)
                elif what == "started":
                    if running is not None and running.request_id == msg[1]:
                        running.received = True
                elif what == "progress":
                    self._emit(WorkerProgress(msg[1], msg[2], msg[3], msg[4], msg[5]))
                elif what == "done":
                    if running is not None and running.request_id == msg[1]:
                        running = None
                    self._emit(WorkerDone(msg[1], msg[2], msg[3], msg[4]))
                elif what == "cancelled":
                    with self._lock:
                        self._stopped.append((int(msg[1]), int(msg[2])))
                elif what == "failed":
                    mine = running is not None and running.request_id == msg[1]
                    fb = running.fallback if mine and running is not None else -1
                    if mine:
                        running = None
                    self._emit(WorkerFailed(msg[1], msg[2], fb))


_live_workers: weakref.WeakSet[MoveWorker] = weakref.WeakSet()


@atexit.register
def _shutdown_all() -> None:
    for worker in list(_live_workers):
        try:
            worker.shutdown()
        except Exception:  # noqa: BLE001
            pass


if __name__ == "__main__":
    print("engine.worker is started by MoveWorker (python -m engine.runtime.child worker INTERVAL)")
