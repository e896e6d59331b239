"""Root parallelization (fernandes2016 chapter 5): independent ISMCTS searches whose root statistics are added up.

``ismcts:...,workers=N`` splits the decision into N *shares*, each an independent search with its own seed
(drawn from the caller's rng) and an exact part of the iteration budget (``iterations // N``, the first
``iterations % N`` shares one more; :func:`engine.search.ismcts.split_iterations`). Share 0 runs in the
calling process; shares 1..N-1 run in long-lived helper processes (a pool kept for the life of the caller).
The root visit counts and rewards are merged in share order, so the same seed and worker count give the same
move (with an iteration budget) as the shares run one after another in one process.

The SPEC factory (:func:`engine.agents.make`) seats :class:`ParallelISMCTSAgent` for ``ismcts``: the search's
own agent with this module as its way of running the shares.

Design, to keep the overhead small:

* helpers are children of the process supervisor (:mod:`engine.runtime.supervisor`, role ``shares``): fresh
  interpreters started once and kept idle between decisions, speaking JSON lines; on first use, a share whose
  helper is still starting up when the caller has finished its own share is run by the caller instead (same
  result);
* a decision sends each helper one JSON line: the job and the observation as the JSON of one deal consistent
  with it and the observer's seat; the helper rebuilds the game from its name and variant (and keeps it) and
  takes that deal's observation of the seat, which equals the caller's (what makes agents fair: states that
  differ only in what the seat cannot see give equal observations);
* cancel is a ``cancel`` message naming the request to stop; the helper's search checks it like a
  :class:`threading.Event`;
* a time budget is honoured by every share: helpers get the remaining time and the absolute deadline, and
  the caller stops them as soon as its own share hits the deadline (a helper still starting up then, on
  first use, is not waited for: its share is skipped);
* progress (iterations summed over the shares, best move by summed root visits, its estimated win rate)
  is reported from the caller's own share several times a second;
* a helper that dies, fails or does not answer after a stop never hangs the caller: a
  :class:`RuntimeWarning` is issued, its share is re-run in the calling process when the budget is
  iterations only (so the move is still the deterministic one) and dropped otherwise, and the pool starts a
  fresh helper next time; a helper whose caller is gone sees its stdin end and exits;
* in a daemonic process (such as an ``arena --jobs`` pool worker, which is itself one of several processes)
  the shares run one after another in the caller: the same move with an iteration budget, the single
  search's with a time budget.

:func:`last_stats` describes the overhead of the last parallel search in this process (dispatch time, how
long the helpers took to start their share, the wait and merge at the end, CPU seconds per share);
``python -m engine.lab.parallel`` compares workers=1 and workers=N with those figures.
"""

from __future__ import annotations

import atexit
import json
import math
import multiprocessing
import os
import queue
import random
import threading
import time
import warnings
from collections import deque
from collections.abc import Hashable
from typing import Any

from engine import registry
from engine.agent import Budget, Progress
from engine.game import Game
from engine.observation import Observation
from engine.runtime.supervisor import Child, ParentLink
from engine.search import knowledge
from engine.search.common import to_rate
from engine.search.ismcts import ISMCTSAgent, Node, SearchConfig, SearchResult, run_ismcts, split_iterations
from engine.search.sampler import DealSampler

__all__ = ["ParallelISMCTSAgent", "decode_observation", "encode_observation", "last_stats",
           "parallel_root_visits", "pool_pids", "prestart", "shares_main", "shutdown_pool", "split_iterations"]

STOP_GRACE = 1.0
"""Seconds a helper may take to return its share after it was told to stop, before it is given up."""

REPORT_EVERY = 0.05
"""Seconds between aggregated progress reports (and helper polls) while the caller waits."""

_lock = threading.Lock()
_arrived = threading.Condition()  # notified whenever a helper sends a line or ends
_idle: list[_Helper] = []
_request_ids = iter(range(1, 1 << 62))
_last_stats: dict[str, Any] = {}


class ParallelISMCTSAgent(ISMCTSAgent):
    """The ``ismcts`` agent with ``workers=N`` shares run in helper processes (see the module docstring)."""

    def root_parallel(self, obs: Observation, rng: random.Random, budget: Budget | None) -> SearchResult:
        return parallel_root_visits(self.game, self.config, obs, rng, budget)


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
        while not h.take_ready() and h.alive():
            left = end - time.perf_counter()
            if left <= 0:
                break
            _wait_for_lines([h], left)
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


# --- the observation on the wire: one consistent deal's JSON and the seat ------------------------------------
def encode_observation(obs: Observation) -> dict[str, Any]:
    """``obs`` as JSON: a full state consistent with it (dealt with a fixed seed, the caller's rng untouched)
    and the observer's seat; :func:`decode_observation` takes that state's observation of the seat."""
    deal = DealSampler(obs).deal(random.Random(0))
    return {"seat": obs.seat, "state": deal.to_json()}


def decode_observation(data: dict[str, Any], game: Game) -> Observation:
    """The observation :func:`encode_observation` sent, as a state of ``game`` (the helper's own copy)."""
    return game.state_from_json(data["state"]).observation(int(data["seat"]))


# --- the helper process ----------------------------------------------------------------------------------
class _StopFlag:
    """``is_set()`` for a helper's search: the caller asked to stop this request (or a later one)."""

    __slots__ = ("stop", "rid")

    def __init__(self, stop: list[int], rid: int) -> None:
        self.stop = stop
        self.rid = rid

    def is_set(self) -> bool:
        return self.stop[0] >= self.rid


def shares_main() -> None:
    """A helper process (``python -m engine.runtime.child shares``): run the shares it is sent until told to
    stop or its stdin ends."""
    inbox: queue.Queue[list[Any]] = queue.Queue()
    stop = [0]  # the latest request id the caller asked to stop (a list: written by the reader thread)

    def on_message(msg: list[Any]) -> None:
        if msg[0] == "cancel":
            stop[0] = max(stop[0], int(msg[1]))
        elif msg[0] == "stop":
            stop[0] = 1 << 62
            inbox.put(msg)
        else:
            inbox.put(msg)

    link = ParentLink(on_message)
    games: dict[str, Game] = {}
    configs: dict[str, SearchConfig] = {}
    link.send(["ready", os.getpid()])
    while True:
        msg = inbox.get()
        if msg[0] == "stop":
            return
        if msg[0] != "go":
            continue
        _, rid, job = msg
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
                conf = configs[conf_key] = SearchConfig(game, dict(job["config"], workers=1))
            obs = decode_observation(job["observation"], game)
            seconds = 0.0
            if job["seconds"] > 0:
                seconds = max(1e-6, min(job["seconds"], job["deadline"] - time.time()))
            root = Node(None, -1, None)
            want_progress = bool(job["progress"])

            def on_progress(p: Progress, rid: int = rid, root: Node = root, want: bool = want_progress) -> None:
                if want:
                    stats = [[_enc(k), ch.visits, ch.total] for k, ch in root.children.items()]
                    link.send(["progress", rid, p.iterations, stats])

            budget = Budget(iterations=job["iterations"], seconds=seconds, cancel=_StopFlag(stop, rid),
                            on_progress=on_progress)
            started = time.time()
            prepare_cpu = time.process_time() - cpu
            result, _ = run_ismcts(obs, random.Random(job["seed"]), conf, budget, root)
            stats = [[_enc(k), v, result.totals[k], result.moves_by_key.get(k)] for k, v in result.visits.items()]
            timing = {"received": received, "started": started, "prepare_cpu": prepare_cpu,
                      "cpu": time.process_time() - cpu - prepare_cpu}
            link.send(["done", rid, result.iterations, stats, timing])
        except OSError:
            return  # the caller is gone
        except Exception as e:  # noqa: BLE001 - every failure goes back to the caller
            link.send(["failed", rid, f"{type(e).__name__}: {e}"])


# --- the caller side -------------------------------------------------------------------------------------
class _Helper:
    """The caller's handle on one helper process: its supervised child and the lines it sent."""

    def __init__(self) -> None:
        self.lines: deque[list[Any]] = deque()
        self.ended = False
        self.ready = False
        self.stopped_rid = 0  # the latest request it was told to stop
        self.child = Child("shares", (), self._deliver)
        self.pid: int = self.child.pid

    def _deliver(self, _child: Child, message: list[Any] | None) -> None:
        with _arrived:
            if message is None:
                self.ended = True
            else:
                self.lines.append(message)
            _arrived.notify_all()

    def take_ready(self) -> bool:
        """Whether it said it is ready (consuming a waiting ``ready`` line)."""
        if not self.ready and self.lines and self.lines[0][0] == "ready":
            self.lines.popleft()
            self.ready = True
        return self.ready

    def alive(self) -> bool:
        return not self.ended and self.child.alive()

    def send(self, message: list[Any]) -> None:
        self.child.send(message)

    def stop_request(self, rid: int) -> None:
        """Tell it to stop request ``rid`` (once)."""
        if self.stopped_rid >= rid:
            return
        self.stopped_rid = rid
        try:
            self.child.send(["cancel", rid])
        except (OSError, ValueError):
            pass

    def kill(self) -> None:
        self.child.kill()

    def close(self) -> None:
        self.child.stop(0.5)


def _wait_for_lines(helpers: list[_Helper], timeout: float) -> None:
    """Wait up to ``timeout`` seconds until one of ``helpers`` has a line to read or has ended."""
    with _arrived:
        if not any(h.lines or h.ended for h in helpers):
            _arrived.wait(timeout)


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
        self.conf = SearchConfig(game, dict(config, workers=1))
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
        observation = encode_observation(self.obs)
        remaining = self.deadline - time.perf_counter() if self.seconds > 0 else 0.0
        for share, h in zip(remote, helpers, strict=True):
            share.helper = h
            job = {"game": self.game.name, "variant": self.game.variant, "config": self.config,
                   "seed": share.seed, "iterations": share.iterations_budget,
                   "seconds": max(1e-6, remaining) if self.seconds > 0 else 0.0,
                   "deadline": time.time() + remaining, "progress": self.on_progress is not None,
                   "observation": observation}
            try:
                h.send(["go", self.rid, job])
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
            s.helper.stop_request(self.rid)

    def take_over_unstarted(self) -> None:
        """Iterations only: run here the shares of helpers still starting up (first use) rather than wait for
        them; the result is the same, and the first decision is never slower than one process alone."""
        self.poll(0.0)  # read their 'ready' notices
        for s in self.pending():
            h = s.helper
            assert h is not None
            if not h.take_ready():
                h.stop_request(self.rid)  # it will stop this request's job as soon as it has started
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
        helpers = [s.helper for s in pending if s.helper is not None]
        if timeout > 0:
            _wait_for_lines(helpers, timeout)
        for share in pending:
            if not share.done and share.helper is not None and (share.helper.lines or share.helper.ended):
                self._read(share)

    def _after_stop(self) -> None:
        """Once stopped: skip shares whose helper is still starting up; give up helpers that do not answer."""
        if self.stopped_at is None:
            return
        late = time.perf_counter() - self.stopped_at > STOP_GRACE
        for s in self.pending():
            h = s.helper
            assert h is not None
            if not h.take_ready():  # still starting up (first use): skip its share, keep the process for later
                s.done, s.helper, s.skipped = True, None, True
                _release([h])
            elif late:
                self.lost(s, f"no answer {STOP_GRACE:g} s after it was told to stop")

    def _read(self, share: _Share) -> None:
        h = share.helper
        assert h is not None
        while h.lines:
            msg = h.lines.popleft()
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
        if h.ended and not h.lines:
            self.lost(share, f"the helper process died ({h.child.exit_description()})")

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
        fn = knowledge.move_handler(self.game.name, self.conf.handler)
        group = [m for m in self.obs.legal_moves() if fn(self.obs.state, m) == key]
        return group[0] if group else None

    # --- running -----------------------------------------------------------------------------------------
    def run_local(self, share: _Share, seconds: float) -> None:
        """Run ``share`` in this process (share 0, or a lost helper's share when re-run)."""
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

    def execute(self) -> SearchResult:
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
                         budget: Budget | None) -> SearchResult:
    """Run ``config['workers']`` searches (one here, the rest in helper processes) and merge them into one
    :class:`engine.search.ismcts.SearchResult`; see the module docstring."""
    return _Run(game, config, obs, rng, budget).execute()
