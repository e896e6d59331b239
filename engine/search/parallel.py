"""Root parallelization (fernandes2016 chapter 5): independent ISMCTS searches whose root statistics are added up.

``ismcts:...,workers=N`` splits the decision into N *shares*, each an independent search with its own seed
(drawn from the caller's rng) and an exact part of the iteration budget (``iterations // N``, the first
``iterations % N`` shares one more). Share 0 runs in the calling process; shares 1..N-1 run in long-lived
helper processes (a pool kept for the life of the caller). The root visit counts and rewards are merged in
share order, so the same seed and worker count give the same move (with an iteration budget).

Design, to keep the overhead small:

* helpers are started once (spawn semantics: never ``fork``, the caller may have SDL loaded; the caller's
  main script is not re-imported) and kept idle between decisions; on first use, a share whose helper is
  still starting up when the caller has finished its own share is run by the caller instead (same result);
* a decision sends each helper one short JSON header and the observation once: its masked state pickled
  without the game object (the helper rebuilds the game from its name and variant and keeps it), ~1 KB
  over the pipe instead of ~50 KB (masked observation states cannot all be rebuilt from JSON, e.g.
  Bisca's hidden stock); results and progress come back as JSON;
* cancel is a shared integer per helper (no locks, no semaphores): the caller writes the id of the request
  to stop and the helper's search checks it like a :class:`threading.Event`;
* a time budget is honoured by every share: helpers get the remaining time and the absolute deadline, and
  the caller stops them as soon as its own share hits the deadline (a helper still starting up then, on
  first use, is not waited for: its share is skipped);
* progress (iterations summed over the shares, best move by summed root visits, its estimated win rate)
  is reported from the caller's own share several times a second;
* a helper that dies, fails or does not answer after a stop never hangs the caller: a
  :class:`RuntimeWarning` is issued, its share is re-run in the calling process when the budget is
  iterations only (so the move is still the deterministic one) and dropped otherwise, and the pool starts a
  fresh helper next time;
* where no helper can be started (a daemonic process such as an ``arena --jobs`` pool worker may not have
  children) the shares run one after another in the caller: the same move with an iteration budget, the
  single search's with a time budget.

:func:`last_stats` describes the overhead of the last parallel search in this process (dispatch time, how
long the helpers took to start their share, the wait and merge at the end, CPU seconds per share);
``python -m engine.search.parallel --game sueca --spec ismcts:iterations=10000 --workers 2 --positions 5``
compares workers=1 and workers=N with those figures (see :func:`measure`).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import math
import multiprocessing
import os
import pickle
import random
import sys
import threading
import time
import warnings
from collections.abc import Hashable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_ready
from typing import Any

from engine.agent import Budget, Progress
from engine.game import Game
from engine.observation import Observation

__all__ = ["last_stats", "parallel_root_visits", "pool_pids", "prestart", "shutdown_pool", "split_iterations"]

STOP_GRACE = 1.0
"""Seconds a helper may take to return its share after it was told to stop, before it is given up."""

REPORT_EVERY = 0.05
"""Seconds between aggregated progress reports (and helper polls) while the caller waits."""

_ctx = multiprocessing.get_context("spawn")
_lock = threading.Lock()
_idle: list[_Helper] = []
_request_ids = iter(range(1, 1 << 62))
_last_stats: dict[str, Any] = {}


def split_iterations(iterations: int, shares: int) -> list[int]:
    """``iterations`` split exactly over ``shares`` (0 = time budget only: every share gets 0)."""
    if iterations <= 0:
        return [0] * shares
    base, extra = divmod(iterations, shares)
    return [base + (1 if i < extra else 0) for i in range(shares)]


def last_stats() -> dict[str, Any]:
    """Overhead figures of the last parallel search in this process (see the module docstring)."""
    with _lock:
        return json.loads(json.dumps(_last_stats))


def pool_pids() -> list[int]:
    """Process ids of the idle helper processes."""
    with _lock:
        return [h.pid for h in _idle if h.alive()]


def prestart(workers: int, wait: float = 0.0) -> list[int]:
    """Start the helper processes a ``workers=N`` search needs (N-1) ahead of time, so the first decision does
    not pay for their start-up; waits up to ``wait`` seconds for them to be ready. Returns their pids."""
    helpers = _acquire(max(0, workers - 1))
    end = time.perf_counter() + wait
    for h in helpers:
        while not h.ready and h.alive():
            left = end - time.perf_counter()
            if left <= 0 or not h.conn.poll(left):
                break
            try:
                h.ready = json.loads(h.conn.recv_bytes())[0] == "ready"
            except (EOFError, OSError, ValueError):
                break
    _release(helpers)
    return [h.pid for h in helpers]


def shutdown_pool() -> None:
    """Stop every idle helper process (they are started again when needed)."""
    with _lock:
        helpers = list(_idle)
        _idle.clear()
    for h in helpers:
        h.close()


atexit.register(shutdown_pool)


def _forget_pool_after_fork() -> None:
    """A forked child must not use (nor stop) its parent's helpers."""
    global _lock
    _lock = threading.Lock()
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


# --- key encoding (root keys are moves or move-handler keys: ints, strings or tuples of them) -------------
def _enc(key: Hashable) -> Any:
    if isinstance(key, tuple):
        return {"t": [_enc(k) for k in key]}
    if key is None or isinstance(key, (int, str, float)):
        return key
    raise TypeError(f"root key {key!r} cannot be sent between processes")


def _dec(value: Any) -> Hashable:
    if isinstance(value, dict):
        return tuple(_dec(v) for v in value["t"])
    return value


# --- the observation on the wire: its state pickled without the Game (rules tables are ~50 KB) ---------------
class _ObservationPickler(pickle.Pickler):
    def __init__(self, file: Any, game: Game) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.game = game

    def persistent_id(self, obj: Any) -> str | None:
        return "game" if obj is self.game else None


class _ObservationUnpickler(pickle.Unpickler):
    def __init__(self, file: Any, game: Game) -> None:
        super().__init__(file)
        self.game = game

    def persistent_load(self, pid: Any) -> Any:
        if pid != "game":
            raise pickle.UnpicklingError(f"unexpected reference {pid!r}")
        return self.game


def _dump_observation(obs: Observation) -> bytes:
    """The observation pickled with its game replaced by a reference (the helper has its own copy)."""
    buffer = io.BytesIO()
    _ObservationPickler(buffer, obs.state.game).dump(obs)
    return buffer.getvalue()


def _load_observation(data: bytes, game: Game) -> Observation:
    return _ObservationUnpickler(io.BytesIO(data), game).load()


# --- the helper process ----------------------------------------------------------------------------------
class _StopFlag:
    """``is_set()`` for a helper's search: the caller wrote this request's id (or a later one) to stop."""

    __slots__ = ("stop", "rid")

    def __init__(self, stop: Any, rid: int) -> None:
        self.stop = stop
        self.rid = rid

    def is_set(self) -> bool:
        return self.stop.value >= self.rid


def _quiet_std_streams() -> None:
    """Detach stdin/stdout from the parent's (they may be the background worker's JSON protocol pipes)."""
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(2, 1)
        os.close(devnull)
    except OSError:
        pass
    sys.stdout = sys.stderr


def _helper_main(conn: Connection, stop: Any) -> None:
    """A helper process: run the shares it is sent until the pipe closes."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the caller
    except (ValueError, OSError):
        pass
    _quiet_std_streams()
    from engine import registry
    from engine.search.ismcts import Node, _Config, run_ismcts

    parent = multiprocessing.parent_process()
    games: dict[str, Game] = {}
    configs: dict[str, Any] = {}
    try:
        conn.send_bytes(json.dumps(["ready", os.getpid()]).encode())
        while True:
            header = json.loads(conn.recv_bytes())
            if header[0] == "stop":
                return
            obs_bytes = conn.recv_bytes()
            _, rid, job = header
            received = time.time()
            cpu = time.process_time()
            try:
                game_key = json.dumps([job["game"], job["variant"]], sort_keys=True)
                game = games.get(game_key)
                if game is None:
                    if len(games) >= 16:
                        games.clear()
                    game = games[game_key] = registry.create(job["game"], job["variant"])
                conf_key = game_key + json.dumps(job["config"], sort_keys=True)
                conf = configs.get(conf_key)
                if conf is None:
                    if len(configs) >= 64:  # an arena sweep over many SPECs: keep the cache small
                        configs.clear()
                    conf = configs[conf_key] = _Config(game, dict(job["config"], workers=1))
                obs = _load_observation(obs_bytes, game)
                seconds = 0.0
                if job["seconds"] > 0:
                    seconds = max(1e-6, min(job["seconds"], job["deadline"] - time.time()))
                root = Node(None, -1, None)
                want_progress = bool(job["progress"])

                def on_progress(p: Progress, rid: int = rid, root: Node = root, want: bool = want_progress) -> None:
                    if parent is not None and not parent.is_alive():
                        os._exit(0)  # orphaned: nobody will read this share
                    if want:
                        stats = [[_enc(k), ch.visits, ch.total] for k, ch in root.children.items()]
                        conn.send_bytes(json.dumps(["progress", rid, p.iterations, stats]).encode())

                budget = Budget(iterations=job["iterations"], seconds=seconds, cancel=_StopFlag(stop, rid),
                                on_progress=on_progress)
                started = time.time()
                prepare_cpu = time.process_time() - cpu
                result, _ = run_ismcts(obs, random.Random(job["seed"]), conf, budget, root)
                stats = [[_enc(k), v, result.totals[k], result.moves_by_key.get(k)] for k, v in result.visits.items()]
                timing = {"received": received, "started": started, "prepare_cpu": prepare_cpu,
                          "cpu": time.process_time() - cpu - prepare_cpu}
                conn.send_bytes(json.dumps(["done", rid, result.iterations, stats, timing]).encode())
            except Exception as e:  # noqa: BLE001 - every failure goes back to the caller
                conn.send_bytes(json.dumps(["failed", rid, f"{type(e).__name__}: {e}"]).encode())
    except (EOFError, OSError):
        return  # the caller is gone


# --- the caller side -------------------------------------------------------------------------------------
@contextlib.contextmanager
def _no_main_reimport() -> Iterator[None]:
    """Start helper processes without re-running the caller's main script in them (scripts without an
    ``if __name__ == "__main__"`` guard, or the app's entry point, must not run twice)."""
    main = sys.modules.get("__main__")
    saved = {k: getattr(main, k) for k in ("__file__", "__spec__") if main is not None and hasattr(main, k)}
    try:
        if "__file__" in saved:
            delattr(main, "__file__")
        if main is not None:
            main.__spec__ = None
        yield
    finally:
        for k, v in saved.items():
            setattr(main, k, v)


class _Helper:
    """The caller's handle on one helper process."""

    def __init__(self) -> None:
        self.stop = _ctx.Value("q", 0, lock=False)
        self.conn, child_conn = _ctx.Pipe(duplex=True)
        self.proc = _ctx.Process(target=_helper_main, args=(child_conn, self.stop), name="ismcts-share",
                                 daemon=True)
        with _lock, _no_main_reimport():  # the lock: __main__ is patched process-wide
            self.proc.start()
        child_conn.close()
        self.pid: int = self.proc.pid or -1
        self.ready = False

    def alive(self) -> bool:
        return self.proc.is_alive()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
            self.proc.join(1.0)
        with contextlib.suppress(Exception):
            self.conn.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send_bytes(json.dumps(["stop"]).encode())
        with contextlib.suppress(Exception):
            self.proc.join(0.5)
        if self.proc.is_alive():
            self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


def _acquire(count: int) -> list[_Helper]:
    helpers: list[_Helper] = []
    with _lock:
        while _idle and len(helpers) < count:
            h = _idle.pop()
            if h.alive():
                helpers.append(h)
            else:
                h.kill()
    while len(helpers) < count:
        helpers.append(_Helper())
    return helpers


def _release(helpers: list[_Helper]) -> None:
    with _lock:
        _idle.extend(h for h in helpers if h.alive())


class _Share:
    """One share of the search: its budget, seed and the latest statistics seen for it."""

    def __init__(self, index: int, seed: int, iterations: int) -> None:
        self.index = index
        self.seed = seed
        self.iterations_budget = iterations
        self.helper: _Helper | None = None
        self.done = False
        self.iterations = 0
        self.stats: dict[Hashable, tuple[int, float]] = {}
        self.moves_by_key: dict[Hashable, int] = {}
        self.cpu = 0.0
        self.start_delay: float | None = None
        self.prepare_cpu = 0.0
        self.error: str | None = None
        self.rerun = False
        self.skipped = False  # stopped (deadline or cancel) before its helper had even started
        self.local = False  # run in the caller after share 0 (no helper could be used, or it was not ready)


class _CallerCancel:
    """``is_set()`` for the caller's own share: the user's cancel, which then also stops the helpers."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def is_set(self) -> bool:
        user = self.run.user_cancel
        if user is not None and user.is_set():
            self.run.stop_helpers()
            return True
        return False


class _Run:
    """One parallel decision: the shares, the helpers working on them, progress and the merge."""

    def __init__(self, game: Game, config: dict[str, Any], obs: Observation, rng: random.Random,
                 budget: Budget | None) -> None:
        from engine.search.ismcts import _Config

        self.game = game
        self.config = config
        self.obs = obs
        self.n = int(config["workers"])
        iterations = int(config["iterations"])
        seconds = float(config["seconds"])
        if budget is not None and budget.iterations is not None:
            iterations = budget.iterations
        if budget is not None and budget.seconds is not None:
            seconds = budget.seconds
        if iterations <= 0 and seconds <= 0:
            iterations = 1000  # as the single-process Clock does
        self.iterations = iterations
        self.seconds = seconds
        self.user_cancel = budget.cancel if budget is not None else None
        self.on_progress = budget.on_progress if budget is not None else None
        seeds = [rng.getrandbits(63) for _ in range(self.n)]
        budgets = split_iterations(iterations, self.n)
        self.shares = [_Share(i, seeds[i], budgets[i]) for i in range(self.n)
                       if i == 0 or iterations <= 0 or budgets[i] > 0]
        self.conf = _Config(game, dict(config, workers=1))
        self.rid = next(_request_ids)
        self.start = time.perf_counter()
        self.deadline = self.start + seconds if seconds > 0 else math.inf
        self.stopped_at: float | None = None
        self.next_report = self.start + REPORT_EVERY
        self.live_root: Any = None  # the caller's running share's root node
        self.live_share: _Share | None = None
        self.live_iterations = 0
        self.dispatched = self.start
        self.dispatch_cpu = 0.0
        self.wall_start = time.time()
        self.warnings: list[str] = []

    # --- helpers ---------------------------------------------------------------------------------------
    def dispatch(self) -> None:
        remote = self.shares[1:]
        if not remote:
            return
        cpu = time.thread_time()
        if multiprocessing.current_process().daemon:
            # e.g. an arena --jobs pool process: it may not have children; run the shares here, one by one
            for share in remote:
                share.local = True
            return
        try:
            helpers = _acquire(len(remote))
        except OSError as e:
            for share in remote:
                share.local = True
            self.warnings.append(f"root parallelization: could not start helper processes ({e})")
            return
        obs_bytes = _dump_observation(self.obs)
        remaining = self.deadline - time.perf_counter() if self.seconds > 0 else 0.0
        for share, h in zip(remote, helpers, strict=True):
            share.helper = h
            job = {"game": self.game.name, "variant": self.game.variant, "config": self.config,
                   "seed": share.seed, "iterations": share.iterations_budget,
                   "seconds": max(1e-6, remaining) if self.seconds > 0 else 0.0,
                   "deadline": time.time() + remaining, "progress": self.on_progress is not None}
            try:
                h.conn.send_bytes(json.dumps(["go", self.rid, job]).encode())
                h.conn.send_bytes(obs_bytes)
            except (OSError, ValueError) as e:
                self.lost(share, f"could not send the share: {e}")
        self.dispatched = time.perf_counter()
        self.dispatch_cpu = time.thread_time() - cpu

    def pending(self) -> list[_Share]:
        return [s for s in self.shares[1:] if not s.done and s.helper is not None]

    def stop_helpers(self) -> None:
        if self.stopped_at is None:
            self.stopped_at = time.perf_counter()
        for s in self.pending():
            assert s.helper is not None
            s.helper.stop.value = self.rid

    def take_over_unstarted(self) -> None:
        """Iterations only: run here the shares of helpers still starting up (first use) rather than wait for
        them; the result is the same, and the first decision is never slower than one process alone."""
        self.poll(0.0)  # read their 'ready' notices
        for s in self.pending():
            h = s.helper
            assert h is not None
            if not h.ready:
                h.stop.value = self.rid  # it will skip this request's job once it has started
                s.helper, s.local = None, True
                _release([h])

    def lost(self, share: _Share, reason: str) -> None:
        """A helper died, failed or hung: give it up (the share is re-run or dropped in finish())."""
        share.error = reason
        share.done = True
        h = share.helper
        share.helper = None
        if h is not None:
            h.kill()
        share.iterations = 0
        share.stats = {}
        self.warnings.append(f"root parallelization: share {share.index} lost ({reason})")

    def poll(self, timeout: float) -> None:
        """Read what the helpers sent (waiting up to ``timeout`` s for something) and detect dead ones."""
        self._read_ready(0.0)
        self._after_stop()
        if timeout > 0:
            self._read_ready(timeout)
            self._after_stop()

    def _read_ready(self, timeout: float) -> None:
        pending = self.pending()
        if not pending:
            return
        by_object: dict[Any, _Share] = {}
        for s in pending:
            assert s.helper is not None
            by_object[s.helper.conn] = s
            by_object[s.helper.proc.sentinel] = s
        try:
            ready = wait_ready(list(by_object), timeout)
        except OSError:
            ready = list(by_object)
        for obj in ready:
            share = by_object[obj]
            if not share.done and share.helper is not None:
                self._read(share)

    def _after_stop(self) -> None:
        """Once stopped: skip shares whose helper is still starting up; give up helpers that do not answer."""
        if self.stopped_at is None:
            return
        late = time.perf_counter() - self.stopped_at > STOP_GRACE
        for s in self.pending():
            h = s.helper
            assert h is not None
            if not h.ready:  # still starting up (first use): skip its share, keep the process for later
                s.done, s.helper, s.skipped = True, None, True
                _release([h])
            elif late:
                self.lost(s, f"no answer {STOP_GRACE:g} s after it was told to stop")

    def _read(self, share: _Share) -> None:
        h = share.helper
        assert h is not None
        try:
            while h.conn.poll():
                msg = json.loads(h.conn.recv_bytes())
                if msg[0] == "ready":
                    h.ready = True
                    continue
                if msg[1] != self.rid:
                    continue  # a stale answer to an earlier (stopped) request
                if msg[0] == "progress":
                    share.iterations = msg[2]
                    share.stats = {_dec(k): (v, t) for k, v, t in msg[3]}
                elif msg[0] == "done":
                    share.iterations = msg[2]
                    share.stats = {_dec(k): (v, t) for k, v, t, _m in msg[3]}
                    share.moves_by_key = {_dec(k): m for k, _v, _t, m in msg[3] if m is not None}
                    timing = msg[4]
                    share.cpu = timing["cpu"]
                    share.start_delay = timing["started"] - self.wall_start
                    share.prepare_cpu = timing["prepare_cpu"]
                    share.done = True
                    share.helper = None
                    _release([h])
                    return
                elif msg[0] == "failed":
                    self.lost(share, f"the helper failed: {msg[2]}")
                    return
        except (EOFError, OSError, ValueError) as e:
            self.lost(share, f"the helper process died ({type(e).__name__})")
            return
        if not h.alive():
            self.lost(share, f"the helper process died (exit code {h.proc.exitcode})")

    # --- progress ------------------------------------------------------------------------------------------
    def merged_stats(self) -> tuple[dict[Hashable, tuple[int, float]], int]:
        visits: dict[Hashable, list[float]] = {}
        total = 0
        for s in self.shares:
            stats = s.stats
            iterations = s.iterations
            if s is self.live_share and self.live_root is not None:
                stats = {k: (ch.visits, ch.total) for k, ch in self.live_root.children.items()}
                iterations = self.live_iterations
            total += iterations
            for k, (v, t) in stats.items():
                acc = visits.setdefault(k, [0, 0.0])
                acc[0] += v
                acc[1] += t
        return {k: (int(v), t) for k, (v, t) in visits.items()}, total

    def report(self, force: bool = False) -> None:
        if self.on_progress is None:
            return
        now = time.perf_counter()
        if not force and now < self.next_report:
            return
        self.next_report = now + REPORT_EVERY
        from engine.search.common import to_rate

        stats, total = self.merged_stats()
        best_move: int | None = None
        rate: float | None = None
        if stats:
            best_key = max(stats, key=lambda k: (stats[k][0], stats[k][1]))
            v, t = stats[best_key]
            rate = to_rate(self.conf.reward, t / v) if v else None
            best_move = self._move_of(best_key)
        self.on_progress(Progress(total, best_move, rate, now - self.start))

    def _move_of(self, key: Hashable) -> int | None:
        if not self.conf.handler:
            return key if isinstance(key, int) else None
        for s in self.shares:
            if key in s.moves_by_key:
                return s.moves_by_key[key]
        from engine.search import knowledge

        fn = knowledge.move_handler(self.game.name, self.conf.handler)
        group = [m for m in self.obs.legal_moves() if fn(self.obs.state, m) == key]
        return group[0] if group else None

    # --- running -----------------------------------------------------------------------------------------
    def run_local(self, share: _Share, seconds: float) -> None:
        """Run ``share`` in this process (share 0, or a lost helper's share when re-run)."""
        from engine.search.ismcts import Node, run_ismcts

        root = Node(None, -1, None)
        self.live_root, self.live_share, self.live_iterations = root, share, 0

        def hook(p: Progress) -> None:
            self.live_iterations = p.iterations
            self.poll(0.0)
            self.report()

        budget = Budget(iterations=share.iterations_budget, seconds=seconds, cancel=_CallerCancel(self),
                        on_progress=hook)
        cpu = time.process_time()
        result, _ = run_ismcts(self.obs, random.Random(share.seed), self.conf, budget, root)
        share.cpu = time.process_time() - cpu
        share.iterations = result.iterations
        share.stats = {k: (v, result.totals[k]) for k, v in result.visits.items()}
        share.moves_by_key = dict(result.moves_by_key)
        share.done = True
        self.live_root, self.live_share = None, None

    def cancelled(self) -> bool:
        return self.user_cancel is not None and self.user_cancel.is_set()

    def execute(self) -> Any:
        from engine.search.ismcts import SearchResult

        try:
            self.dispatch()
            own = self.shares[0]
            self.run_local(own, max(1e-6, self.deadline - time.perf_counter()) if self.seconds > 0 else 0.0)
            own_end = time.perf_counter()
            if self.cancelled() or time.perf_counter() >= self.deadline:
                self.stop_helpers()
            elif self.seconds <= 0:
                self.take_over_unstarted()
            while self.pending():
                if self.cancelled() or time.perf_counter() >= self.deadline:
                    self.stop_helpers()
                self.poll(REPORT_EVERY)
                self.report()
            waited = time.perf_counter() - own_end
            for share in self.shares[1:]:
                if share.error is None and not share.local:
                    continue
                if self.seconds <= 0 and not self.cancelled():
                    share.rerun = share.error is not None  # iterations only: the same share, the same move
                    self.run_local(share, 0.0)
                elif share.local:
                    share.skipped = True  # a time budget already spent by share 0
        finally:
            self.stop_helpers()
            for s in self.pending():
                assert s.helper is not None
                _release([s.helper])  # still busy with the stopped share; its late answer is ignored
                s.helper = None
        merge_start = time.perf_counter()
        merge_cpu = time.thread_time()
        visits: dict[Hashable, int] = {}
        totals: dict[Hashable, float] = {}
        moves_by_key: dict[Hashable, int] = {}
        done = 0
        for share in self.shares:  # share order: deterministic
            done += share.iterations
            for key, (v, t) in share.stats.items():
                visits[key] = visits.get(key, 0) + v
                totals[key] = totals.get(key, 0.0) + t
            for key, m in share.moves_by_key.items():
                moves_by_key.setdefault(key, m)
        end = time.perf_counter()
        self._record(own_end, waited, end - merge_start, time.thread_time() - merge_cpu, end)
        for text in self.warnings:
            warnings.warn(text, RuntimeWarning, stacklevel=4)
        self.report(force=True)
        return SearchResult(visits, totals, done, moves_by_key)

    def _record(self, own_end: float, waited: float, merge: float, merge_cpu: float, end: float) -> None:
        stats = {
            "request_id": self.rid, "workers": self.n, "iterations": sum(s.iterations for s in self.shares),
            "elapsed": end - self.start,
            "dispatch_seconds": self.dispatched - self.start, "dispatch_cpu_seconds": self.dispatch_cpu,
            "merge_cpu_seconds": merge_cpu,
            "own_share_seconds": own_end - self.start,
            "wait_seconds": waited, "merge_seconds": merge,
            "shares": [{"index": s.index, "iterations": s.iterations, "budget": s.iterations_budget,
                        "cpu_seconds": s.cpu, "start_delay": s.start_delay, "prepare_cpu_seconds": s.prepare_cpu,
                        "error": s.error,
                        "rerun": s.rerun, "skipped": s.skipped, "local": s.local} for s in self.shares],
        }
        with _lock:
            _last_stats.clear()
            _last_stats.update(stats)


def parallel_root_visits(game: Game, config: dict[str, Any], obs: Observation, rng: random.Random,
                         budget: Budget | None) -> Any:
    """Run ``config['workers']`` searches (one here, the rest in helper processes) and merge them into one
    :class:`engine.search.ismcts.SearchResult`; see the module docstring."""
    return _Run(game, config, obs, rng, budget).execute()


# --- measurement ------------------------------------------------------------------------------------------
def measure(game_name: str, spec: str, workers: int, positions: int, seed: int) -> dict[str, Any]:
    """Compare ``spec`` with workers=1 and workers=``workers`` on the bench's positions, alternating the two
    so both see the same machine load.

    Wall-clock iterations/s are distorted on a shared machine, so this also reports what does not depend on
    the load: CPU seconds per iteration in each process, the CPU cost of the overheads (dispatch in the
    caller, unpickling and setting up in a helper, the merge) and the wall-clock start delay of the helpers.
    ``overhead_speedup_bound`` = T1 / (T1 / workers + overhead CPU) is the speed-up on an idle machine with
    ``workers`` free cores if every process ran iterations as fast as the single search did (what the
    overheads alone allow); ``cpu_speedup_estimate`` uses the measured CPU time of the slowest share instead.
    """
    import statistics

    from engine import agents, registry
    from engine.bench import first_decision
    from engine.rng import derive_seed

    game = registry.create(game_name)
    t0 = time.perf_counter()
    prestart(workers, wait=60.0)
    startup = time.perf_counter() - t0
    rows: list[dict[str, Any]] = []
    for k in range(positions):
        state = first_decision(game, seed, k)
        obs = state.observation(state.current_player)
        row: dict[str, Any] = {"position": k}
        for n in (1, workers):
            agent = agents.make(f"{spec},workers={n}", game)
            reports: list[Progress] = []
            cpu = time.process_time()
            start = time.perf_counter()
            agent.choose(obs, random.Random(derive_seed(seed, "agent", k)), Budget(on_progress=reports.append))
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
            its = reports[-1].iterations if reports else 0
            if n == 1:
                row.update(single_wall_s=wall, single_cpu_s=cpu, single_iterations=its,
                           single_cpu_per_iteration_us=1e6 * cpu / max(1, its))
                continue
            st = last_stats()
            shares = st["shares"]
            overhead = (st["dispatch_cpu_seconds"] + st["merge_cpu_seconds"]
                        + max([s["prepare_cpu_seconds"] for s in shares[1:]] or [0.0]))
            slowest = max(s["cpu_seconds"] for s in shares)
            row.update(parallel_wall_s=wall, parallel_iterations=its,
                       share_cpu_per_iteration_us=[1e6 * s["cpu_seconds"] / max(1, s["iterations"]) for s in shares],
                       dispatch_wall_ms=1e3 * st["dispatch_seconds"], dispatch_cpu_ms=1e3 * st["dispatch_cpu_seconds"],
                       helper_prepare_cpu_ms=[1e3 * s["prepare_cpu_seconds"] for s in shares[1:]],
                       helper_start_delay_wall_ms=[1e3 * (s["start_delay"] or 0.0) for s in shares[1:]],
                       wait_after_own_share_wall_ms=1e3 * st["wait_seconds"],
                       merge_cpu_ms=1e3 * st["merge_cpu_seconds"], overhead_cpu_ms=1e3 * overhead)
            single = row["single_cpu_s"] * its / max(1, row["single_iterations"])
            row["wall_speedup"] = (its / wall) / (row["single_iterations"] / row["single_wall_s"])
            row["overhead_speedup_bound"] = single / (single / workers + overhead)
            row["cpu_speedup_estimate"] = single / (slowest + overhead)
        rows.append(row)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rows)

    return {"game": game_name, "spec": spec, "workers": workers, "positions": positions, "seed": seed,
            "helper_startup_wall_s": startup, "median_wall_speedup": med("wall_speedup"),
            "median_overhead_speedup_bound": med("overhead_speedup_bound"),
            "median_cpu_speedup_estimate": med("cpu_speedup_estimate"),
            "median_overhead_cpu_ms": med("overhead_cpu_ms"),
            "median_single_cpu_per_iteration_us": med("single_cpu_per_iteration_us"), "rows": rows}


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.search.parallel --game sueca --spec ismcts:iterations=10000 --workers 2``"""
    import argparse

    p = argparse.ArgumentParser(prog="python -m engine.search.parallel",
                                description="measure root parallelization against one worker")
    p.add_argument("--game", default="sueca")
    p.add_argument("--spec", default="ismcts:iterations=10000", help="agent SPEC without workers")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--positions", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(json.dumps(measure(args.game, args.spec, args.workers, args.positions, args.seed), indent=2))
    return 0


if __name__ == "__main__":
    from engine.search.parallel import main as _main  # the helpers must find the module's own functions

    sys.exit(_main())
