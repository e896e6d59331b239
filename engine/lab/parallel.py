"""Root parallelization measured: ``python -m engine.lab.parallel --game G --spec SPEC --workers N --positions K``.

Compares ``SPEC`` with workers=1 and workers=N on the bench's positions (see :func:`measure`) and prints JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from engine import agents, registry
from engine.agent import Budget, Progress
from engine.bench import first_decision
from engine.game import GameError
from engine.rng import derive_seed
from engine.runtime.parallel import last_stats, prestart


def measure(game_name: str, spec: str, workers: int, positions: int, seed: int) -> dict[str, Any]:
    """Compare ``spec`` with workers=1 and workers=``workers`` on the bench's positions, alternating the two
    so both see the same machine load.

    Wall-clock iterations/s are distorted on a shared machine, so this also reports what does not depend on
    the load: CPU seconds per iteration in each process, the CPU cost of the overheads (dispatch in the
    caller, decoding and setting up in a helper, the merge) and the wall-clock start delay of the helpers.
    ``overhead_speedup_bound`` = T1 / (T1 / workers + overhead CPU) is the speed-up on an idle machine with
    ``workers`` free cores if every process ran iterations as fast as the single search did (what the
    overheads alone allow); ``cpu_speedup_estimate`` uses the measured CPU time of the slowest share instead.
    """
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
    """``python -m engine.lab.parallel --game GAME --spec ismcts:iterations=10000 --workers 2``"""
    names = registry.names()
    p = argparse.ArgumentParser(prog="python -m engine.lab.parallel",
                                description="measure root parallelization against one worker")
    p.add_argument("--game", default=names[0], help=f"game name (default {names[0]}); one of {', '.join(names)}")
    p.add_argument("--spec", default="ismcts:iterations=10000", help="agent SPEC without workers")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--positions", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.workers < 2 or args.positions < 1:
        p.error("--workers must be at least 2 and --positions at least 1")
    try:
        registry.create(args.game)
        agents.make(args.spec, registry.create(args.game))
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(measure(args.game, args.spec, args.workers, args.positions, args.seed), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
