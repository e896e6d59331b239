"""Root parallelization (seeds/000 chapter 5): independent ISMCTS searches in worker processes whose
root visit counts are added up. Seeds are drawn from the caller's rng, so the same seed and worker count
give the same move (with an iteration budget)."""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.agents.base import Budget, Progress
from engine.game import Game
from engine.observation import Observation

__all__ = ["parallel_root_visits"]

_pools: dict[int, ProcessPoolExecutor] = {}


def _pool(n: int) -> ProcessPoolExecutor:
    pool = _pools.get(n)
    if pool is None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        pool = ProcessPoolExecutor(max_workers=n, mp_context=ctx)
        _pools[n] = pool
    return pool


@contextlib.contextmanager
def _no_main_reimport() -> Iterator[None]:
    """Start pool processes without re-running the caller's main script in them (scripts without an
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


@atexit.register
def _close_pools() -> None:
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _pools.clear()


def _part(game_name: str, variant: dict[str, Any], config: dict[str, Any], obs: Observation, seed: int,
          iterations: int, seconds: float) -> tuple[dict, dict, int, dict]:
    from engine import registry
    from engine.search.ismcts import _Config, run_ismcts

    game = registry.create(game_name, variant)
    cfg = dict(config)
    cfg["workers"] = 1
    conf = _Config(game, cfg)
    obs.state.game = game
    result, _root = run_ismcts(obs, random.Random(seed), conf, Budget(iterations=iterations, seconds=seconds))
    return result.visits, result.totals, result.iterations, result.moves_by_key


def parallel_root_visits(game: Game, config: dict[str, Any], obs: Observation, rng: random.Random,
                         budget: Budget | None) -> Any:
    """Run ``config['workers']`` searches and merge them into one SearchResult."""
    from engine.search.ismcts import SearchResult

    n = int(config["workers"])
    iterations = int(config["iterations"])
    seconds = float(config["seconds"])
    if budget is not None and budget.iterations is not None:
        iterations = budget.iterations
    if budget is not None and budget.seconds is not None:
        seconds = budget.seconds
    share = -(-iterations // n) if iterations > 0 else 0
    seeds = [rng.getrandbits(63) for _ in range(n)]
    start = time.perf_counter()
    pool = _pool(n)
    with _no_main_reimport():
        futures = [pool.submit(_part, game.name, game.variant, config, obs, s, share, seconds) for s in seeds]
    visits: dict[Any, int] = {}
    totals: dict[Any, float] = {}
    moves_by_key: dict[Any, int] = {}
    done = 0
    for f in futures:  # merged in worker order: deterministic
        v, t, k, mk = f.result()
        done += k
        for key, x in v.items():
            visits[key] = visits.get(key, 0) + x
            totals[key] = totals.get(key, 0.0) + t[key]
        for key, m in mk.items():
            moves_by_key.setdefault(key, m)
    if budget is not None and budget.on_progress is not None:
        best = max(visits, key=lambda m: visits[m]) if visits else None
        budget.on_progress(Progress(done, best, None, time.perf_counter() - start))
    return SearchResult(visits, totals, done, moves_by_key)
