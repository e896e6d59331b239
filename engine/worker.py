"""The background move worker: agents think in a separate process while the caller keeps drawing.

:class:`MoveWorker` owns one search process - a fresh interpreter (``python -m engine.worker --child``,
i.e. spawn semantics: never ``fork``, since the app has SDL loaded, and the app's main module is not
re-imported) talking JSON lines over its stdin/stdout (no pickle) - and one thread in the caller that
owns the pipe.
The caller only touches :meth:`MoveWorker.request`, :meth:`MoveWorker.poll` (non-blocking, never raises),
:meth:`MoveWorker.cancel` and :meth:`MoveWorker.shutdown`.

* The worker builds the seat's observation from the true state itself; fair agents see only that.
* Progress (:class:`WorkerProgress`) arrives every ``progress_interval`` seconds while a search runs.
* A cancelled or superseded request produces no :class:`WorkerDone`; its late messages are dropped.
* If the search process dies, the pending request ends with :class:`WorkerFailed` carrying a random legal
  fallback move, and the next request starts a fresh process.
* Agents with root parallelization (``ismcts:...,workers=N``) work unchanged: the search process starts
  its own N-1 helper processes (:mod:`engine.search.parallel`, kept between requests), which detach from
  its stdin/stdout; a cancel or a superseding request stops them too, and if the search process is killed
  they exit on their own. They compete with the app for the cores, which is why presets use one worker.

:func:`choose_move` is the synchronous, in-process convenience used by scripts and tests.
"""

from __future__ import annotations

import atexit
import os
import queue
import random
import signal
import threading
import time
import traceback
import weakref
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["MoveRequest", "MoveWorker", "WorkerDone", "WorkerFailed", "WorkerProgress", "choose_move"]


@dataclass
class MoveRequest:
    """One decision to make: the TRUE state (JSON) and the seat to move; the worker masks it itself."""

    game: str
    variant: dict
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


# --- deciding (shared by the child process and choose_move) -----------------------------------------
_agent_cache: dict[tuple[str, str, str], Any] = {}


def _load(req: MoveRequest) -> tuple[Any, Any]:
    """The game and the true state of a request (validated)."""
    from engine import registry

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


def _decide(req: MoveRequest, cancel: threading.Event | None, on_progress: Any,
            keep_agent: bool = True) -> tuple[int, int]:
    """Run the request's agent; returns (move, iterations). ``keep_agent`` reuses the agent object
    between requests of the same game/variant/SPEC (what lets ``reuse=true`` keep its tree)."""
    import json

    from engine import agents
    from engine.agents.base import Budget, Progress

    game, state = _load(req)
    key = (req.game, json.dumps(game.variant, sort_keys=True), req.spec)
    agent = _agent_cache.get(key) if keep_agent else None
    if agent is None and not keep_agent:
        agent = agents.make(req.spec, game)
    elif agent is None:
        if len(_agent_cache) > 16:
            _agent_cache.clear()
        agent = agents.make(req.spec, game)
        _agent_cache[key] = agent
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
    return move, (last[0].iterations if last else 0)


def choose_move(req: MoveRequest) -> int:
    """Decide synchronously in this process (no worker, a fresh agent); raises on a bad request."""
    return _decide(req, None, None, keep_agent=False)[0]


# --- the child process ------------------------------------------------------------------------------
def _child_main(progress_interval: float) -> None:
    """Entry point of the search process (``python -m engine.worker --child``): JSON lines on stdin/stdout."""
    import json
    import sys

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the app
    except (ValueError, OSError):
        pass
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not corrupt the protocol
    inbox: queue.Queue[list[Any]] = queue.Queue()
    current: dict[str, Any] = {"cancel": threading.Event()}
    send_lock = threading.Lock()

    def send(msg: list[Any]) -> None:
        with send_lock:
            out.write(json.dumps(msg) + "\n")
            out.flush()

    def reader() -> None:
        for line in sys.stdin:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg and msg[0] in ("cancel", "go", "stop"):
                current["cancel"].set()  # a new request or a cancel supersedes the running one
            inbox.put(msg)
            if msg and msg[0] == "stop":
                return
        current["cancel"].set()
        inbox.put(["stop"])

    threading.Thread(target=reader, name="worker-reader", daemon=True).start()
    try:  # warm up: the first request should not pay for imports
        import engine.agents  # noqa: F401
        import engine.registry  # noqa: F401
        import engine.search.ismcts  # noqa: F401
        import engine.search.parallel  # noqa: F401 - agents with workers=N
    except ImportError:
        pass
    send(["ready", os.getpid()])
    while True:
        msg = inbox.get()
        if msg[0] == "stop":
            return
        if msg[0] != "go" or not inbox.empty():  # not a request, or already superseded
            continue
        _, rid, fields = msg
        cancel = threading.Event()
        current["cancel"] = cancel
        if not inbox.empty():
            cancel.set()
        start = time.perf_counter()
        next_report = [start]

        def on_progress(p: Any, rid: int = rid, start: float = start, next_report: list = next_report) -> None:
            now = time.perf_counter()
            if now >= next_report[0]:
                next_report[0] = now + progress_interval
                send(["progress", rid, p.iterations, p.best_move, p.win_rate, now - start])

        try:
            move, iterations = _decide(MoveRequest(**fields), cancel, on_progress)
            if not cancel.is_set():
                send(["done", rid, move, time.perf_counter() - start, iterations])
        except Exception as e:  # noqa: BLE001 - report every failure to the caller
            detail = traceback.format_exc(limit=3)
            send(["failed", rid, f"{type(e).__name__}: {e}\n{detail}"])


class _Child:
    """One search process and the thread that reads its stdout into the owner's inbox."""

    def __init__(self, generation: int, inbox: queue.Queue[tuple[Any, ...]], progress_interval: float) -> None:
        import subprocess
        import sys

        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("SDL_VIDEODRIVER", None)
        self.generation = generation
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "engine.worker", "--child", str(progress_interval)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, encoding="utf-8", bufsize=1)
        self.pid = self.proc.pid
        threading.Thread(target=self._read, args=(inbox,), name="worker-pipe", daemon=True).start()

    def _read(self, inbox: queue.Queue[tuple[Any, ...]]) -> None:
        import json

        stdout = self.proc.stdout
        assert stdout is not None
        try:
            for line in stdout:
                try:
                    inbox.put(("child", self.generation, json.loads(line)))
                except ValueError:
                    continue
        except (OSError, ValueError):
            pass
        finally:
            try:
                stdout.close()  # the process has ended: release the pipe now, not at garbage collection
            except (OSError, ValueError):
                pass
        inbox.put(("eof", self.generation))

    def send(self, msg: list[Any]) -> None:
        import json

        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(msg) + "\n")
        stdin.flush()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        try:
            self.send(["stop"])
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=1.0)
        except Exception:  # noqa: BLE001
            self.proc.kill()
            try:
                self.proc.wait(timeout=1.0)
            except Exception:  # noqa: BLE001
                pass


# --- the caller side ---------------------------------------------------------------------------------
class MoveWorker:
    """Runs agent decisions in a background process; see the module docstring."""

    def __init__(self, progress_interval: float = 0.1) -> None:
        self.progress_interval = progress_interval
        self._lock = threading.Lock()
        self._events: list[WorkerEvent] = []
        self._inbox: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._next_id = 0
        self._pending: int | None = None  # request id the caller still waits for
        self._closed = False
        self._pid: int | None = None
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
        child: _Child | None = None
        generation = 0
        running: tuple[int, MoveRequest, int] | None = None  # (id, request, fallback) in the child

        def start() -> _Child | None:
            nonlocal generation
            generation += 1
            try:
                c = _Child(generation, self._inbox, self.progress_interval)
            except OSError:
                self._pid = None
                return None
            self._pid = c.pid
            return c

        def died(reason: str) -> None:
            nonlocal child, running
            if running is not None:
                self._emit(WorkerFailed(running[0], reason, running[2]))
            running = None
            if child is not None:
                try:
                    child.proc.kill()
                    child.proc.wait(timeout=1.0)
                except Exception:  # noqa: BLE001
                    pass
            child = None
            self._pid = None

        child = start()
        while True:
            try:
                item = self._inbox.get(timeout=0.25)
            except queue.Empty:
                if child is not None and not child.alive():
                    died(f"the search process died (exit code {child.proc.returncode})")
                continue
            kind = item[0]
            if kind == "shutdown":
                if child is not None:
                    child.stop()
                self._pid = None
                return
            if kind == "cancel":
                if running is not None and running[0] == item[1]:
                    running = None
                    try:
                        if child is not None:
                            child.send(["cancel", item[1]])
                    except (OSError, ValueError):
                        died("the search process stopped")
            elif kind == "go":
                _, rid, req = item
                fallback = _fallback_move(req)
                if child is None or not child.alive():
                    if child is not None:
                        died("the search process stopped")
                    child = start()
                running = (rid, req, fallback)
                if child is None:
                    died("could not start the search process")
                    continue
                try:
                    child.send(["go", rid, asdict(req)])
                except (OSError, ValueError) as e:
                    died(f"the search process stopped: {e}")
            elif kind == "eof":
                if child is not None and item[1] == child.generation:
                    code = child.proc.poll()
                    died(f"the search process died (exit code {code})")
            elif kind == "child":
                if child is None or item[1] != child.generation:
                    continue
                msg = item[2]
                what = msg[0]
                if what == "progress":
                    self._emit(WorkerProgress(msg[1], msg[2], msg[3], msg[4], msg[5]))
                elif what == "done":
                    if running is not None and running[0] == msg[1]:
                        running = None
                    self._emit(WorkerDone(msg[1], msg[2], msg[3], msg[4]))
                elif what == "failed":
                    fb = running[2] if running is not None and running[0] == msg[1] else -1
                    if running is not None and running[0] == msg[1]:
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
    import sys as _sys

    if len(_sys.argv) >= 2 and _sys.argv[1] == "--child":
        _child_main(float(_sys.argv[2]) if len(_sys.argv) > 2 else 0.1)
    else:
        print("engine.worker is started by MoveWorker (python -m engine.worker --child INTERVAL)")
