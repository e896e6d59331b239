"""Speed bench: agent iterations/s and seconds/move, or raw playouts/s and determinizations/s per game.

``python -m engine.bench --game sueca --agent ismcts:iterations=10000 --positions 5 [--seed 1] [--json P]``
runs the agent from K seeded positions (the first decision with two or more legal moves of a freshly
dealt hand) and reports iterations/s and seconds/move (median, min, max), wall clock and process CPU time,
with the machine it ran on; ``--repeat R`` makes R passes over the same positions. An untimed warm-up
decision comes first, and a ``workers=N`` spec's helper processes are started before the clock runs (their
start-up is reported apart): the figures are a session's steady state.

``python -m engine.bench --what playouts [--game G ...] [--seconds 2]`` reports random playouts/s (clone a
dealt hand and play it out with random legal moves), determinizations/s of the current player's observation
(the generic :func:`engine.determinize.determinize`) and the search's deals/s (its ``DealSampler``: one per
decision, a deal per iteration) for each game (every available game by default).

``python -m engine.bench --what bytecodes --game G --agent SPEC --positions K`` counts the Python bytecodes
the agent executes per iteration at the K openings, in total and per function (after one warm-up decision
per position): a measure that does not drift with the machine's load, for comparing two versions of a hot
path (it does not see the cost of C calls such as ``rng.random()``).

``python -m engine.bench --what endgame --game G --agent "ismcts:endgame=N[,reward=R]" --positions K`` plays K
seeded hands at random and, at every decision where that agent would try its exact endgame solver (two or
more legal moves, at most ``ENDGAME_MAX_CARDS`` cards left), runs the solver as the agent would: how often it
solves, gives up on too many deals or runs out of nodes (``--node-limit``, default the solver's), and its
nodes and seconds per solve. Node counts do not drift with the machine's load.
"""

from __future__ import annotations

import json
import os
import platform
import random
import shlex
import statistics
import sys
import time
from typing import Any

from engine import agents, registry
from engine.agent import Budget, Progress
from engine.determinize import determinize
from engine.game import Game, GameError, GameState
from engine.lab import cli
from engine.rng import derive_seed
from engine.runtime.parallel import last_stats, prestart
from engine.search import knowledge
from engine.search.endgame import NODE_LIMIT, solve_information_set
from engine.search.ismcts import ENDGAME_MAX_CARDS, ISMCTSAgent, cards_left
from engine.search.sampler import DealSampler


def first_decision(game: Game, seed: int, index: int) -> GameState:
    """The first state with two or more legal moves of hand ``index`` dealt from ``seed``."""
    rng = random.Random(derive_seed(seed, "bench", index))
    state = game.new_hand(rng)
    while not state.is_terminal():
        moves = state.legal_moves()
        if len(moves) >= 2:
            return state
        state.do(moves[0])
    raise GameError("a dealt hand ended without a real decision")


def _summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _parallel_stats(agent: Any) -> dict[str, Any]:
    """The root-parallelization figures of the last parallel decision ({} for agents with one worker)."""
    if int(getattr(agent, "config", {}).get("workers", 1)) <= 1:
        return {}
    return last_stats()


def _helper_cpu(agent: Any, before: dict[str, Any]) -> float:
    """CPU seconds the agent's helper processes spent on the decision made since ``before`` was taken."""
    stats = _parallel_stats(agent)
    if not stats or stats.get("request_id") == before.get("request_id"):
        return 0.0
    return sum(s["cpu_seconds"] for s in stats["shares"][1:] if not s["local"] and not s["rerun"])


def machine_info() -> dict[str, Any]:
    """What the figures were measured on: CPU model and count, Python, OS, and the load average now."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info: dict[str, Any] = {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
                            "implementation": platform.python_implementation(), "os": platform.platform()}
    load = load_average()
    if load is not None:
        info["load_average"] = load
    return info


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages, or None where the OS has none."""
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None


def bench_agent(game: Game, spec: str, positions: int, seed: int, repeat: int = 1) -> dict[str, Any]:
    """Iterations/s and seconds/move of ``spec`` over ``positions`` opening decisions, ``repeat`` passes
    over the same positions (summaries over every decision, plus each pass's medians when ``repeat`` > 1).

    Steady state, as in a session of play: a ``workers=N`` spec's helper processes are started first (their
    start-up time is reported apart, as ``helper_startup_seconds``), and one untimed warm-up decision at
    the first position builds the game's tables and caches, in the helpers too, for every spec alike."""
    started: dict[str, Any] = {}
    workers = int(getattr(agents.make(spec, game), "config", {}).get("workers", 1))
    if workers > 1:
        t0 = time.perf_counter()
        prestart(workers, wait=60.0)
        started["helper_startup_seconds"] = time.perf_counter() - t0
    _bench_pass(game, spec, 1, seed, [], [], [], [])  # warm-up, not counted
    its_per_s: list[float] = []
    secs: list[float] = []
    cpu_its: list[float] = []
    cpu_secs: list[float] = []
    passes: list[dict[str, float]] = []
    for _ in range(repeat):
        first = len(secs)
        _bench_pass(game, spec, positions, seed, its_per_s, secs, cpu_its, cpu_secs)
        passes.append({"iterations_per_second": statistics.median(its_per_s[first:]),
                       "cpu_iterations_per_second": statistics.median(cpu_its[first:])})
    out: dict[str, Any] = {
        "iterations_per_second": _summary(its_per_s), "seconds_per_move": _summary(secs),
        "cpu": {"iterations_per_second": _summary(cpu_its), "seconds_per_move": _summary(cpu_secs),
                "note": "process CPU time (less sensitive to other load on a shared machine); with "
                        "workers=N it includes the helper processes' CPU"},
        "warmup_decisions": 1, **started}
    if repeat > 1:
        out["passes"] = passes
    return out


def _bench_pass(game: Game, spec: str, positions: int, seed: int, its_per_s: list[float], secs: list[float],
                cpu_its: list[float], cpu_secs: list[float]) -> None:
    """One decision at each of the ``positions`` openings, appending its figures to the lists."""
    for k in range(positions):
        state = first_decision(game, seed, k)
        agent = agents.make(spec, game)
        reports: list[Progress] = []
        budget = Budget(on_progress=reports.append)
        rng = random.Random(derive_seed(seed, "agent", k))
        before = _parallel_stats(agent)
        start = time.perf_counter()
        cpu = time.process_time()
        if agent.fair:
            agent.choose(state.observation(state.current_player), rng, budget)
        else:
            agent.choose_full(state, rng, budget)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu + _helper_cpu(agent, before)
        iterations = reports[-1].iterations if reports else 0
        secs.append(elapsed)
        its_per_s.append(iterations / elapsed if elapsed > 0 else 0.0)
        cpu_secs.append(cpu)
        cpu_its.append(iterations / cpu if cpu > 0 else 0.0)


def bench_playouts(game: Game, seconds: float, seed: int) -> dict[str, Any]:
    """Random playouts/s and determinizations/s from dealt hands' first decisions (wall clock and CPU)."""
    states = [first_decision(game, seed, k) for k in range(20)]
    observations = [s.observation(s.current_player) for s in states]
    rng = random.Random(seed)

    def rate(step: Any, items: list[Any]) -> tuple[float, float]:
        n = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for x in items:
                step(x)
            n += len(items)
        return n / (time.perf_counter() - start), n / max(1e-9, time.process_time() - cpu)

    rollout = knowledge.playouts(game.name).random_rollout
    playouts, playouts_cpu = rate(lambda s: rollout(s.clone(), rng), states)
    dets, dets_cpu = rate(lambda o: determinize(o, rng), observations)
    samplers = [DealSampler(o) for o in observations]  # the search's: one per decision, a deal per iteration
    deals, deals_cpu = rate(lambda d: d.deal(rng), samplers)
    return {"random_playouts_per_second": round(playouts, 1), "determinizations_per_second": round(dets, 1),
            "search_deals_per_second": round(deals, 1),
            "cpu": {"random_playouts_per_second": round(playouts_cpu, 1),
                    "determinizations_per_second": round(dets_cpu, 1),
                    "search_deals_per_second": round(deals_cpu, 1)}}


def bench_bytecodes(game: Game, spec: str, positions: int, seed: int, top: int = 12) -> dict[str, Any]:
    """Bytecodes per iteration of ``spec`` (a fair search agent with an ``iterations`` budget) at the
    openings, in total and for the ``top`` functions that execute the most."""
    counts: dict[str, int] = {}

    def trace_calls(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        code = frame.f_code
        name = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"

        def trace_opcodes(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[name] = counts.get(name, 0) + 1
            return trace_opcodes
        return trace_opcodes

    states = [first_decision(game, seed, k) for k in range(positions)]
    iterations = 0
    for k, state in enumerate(states):
        observation = state.observation(state.current_player)
        agents.make(spec, game).choose(observation, random.Random(k))  # warm-up: tables and caches
        agent = agents.make(spec, game)
        if not agent.fair:
            raise GameError("bytecodes mode measures fair search agents only")
        reports: list[Progress] = []
        sys.settrace(trace_calls)
        try:
            agent.choose(observation, random.Random(derive_seed(seed, "agent", k)), Budget(on_progress=reports.append))
        finally:
            sys.settrace(None)
        iterations += reports[-1].iterations if reports else 0
    if not iterations:
        raise GameError("the agent reported no iterations (bytecodes mode needs a search agent)")
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return {"iterations": iterations, "bytecodes_per_iteration": round(sum(counts.values()) / iterations),
            "by_function": {name: round(n / iterations) for name, n in ranked[:top]}}


def bench_endgame(game: Game, spec: str, hands: int, seed: int, node_limit: int | None = None) -> dict[str, Any]:
    """The endgame solver of ``spec`` (an ``ismcts`` SPEC with ``endgame=N``) at every decision of ``hands``
    random hands where the agent would try it: outcomes, nodes and seconds per solve."""
    agent = agents.make(spec, game)
    if not isinstance(agent, ISMCTSAgent) or not agent.conf.endgame:
        raise GameError("endgame mode needs an ismcts SPEC with endgame=N (N: the most deals to solve)")
    limit = NODE_LIMIT if node_limit is None else node_limit
    attempts = too_many = ordered = out_of_nodes = 0
    nodes: list[float] = []
    seconds: list[float] = []
    failed_seconds: list[float] = []
    by_cards: dict[int, list[int]] = {}  # cards left to play (-1: a game without hands) -> [attempts, solved]
    for k in range(hands):
        rng = random.Random(derive_seed(seed, "endgame", k))
        state = game.new_hand(rng)
        while not state.is_terminal():
            moves = state.legal_moves()
            if len(moves) >= 2:
                obs = state.observation(state.current_player)
                if agent.endgame_worth_trying(obs):
                    attempts += 1
                    stats: dict[str, int] = {}
                    t0 = time.perf_counter()
                    move = solve_information_set(obs, random.Random(derive_seed(seed, "solve", attempts)),
                                                 agent.conf.endgame, reward=agent.conf.reward, node_limit=limit,
                                                 stats=stats)
                    elapsed = time.perf_counter() - t0
                    left = cards_left(obs)
                    row = by_cards.setdefault(-1 if left is None else left, [0, 0])
                    row[0] += 1
                    if move is not None:
                        row[1] += 1
                        nodes.append(stats["nodes"])
                        seconds.append(elapsed)
                    else:
                        failed_seconds.append(elapsed)
                        if stats["deals"] == -2:
                            ordered += 1
                        elif stats["deals"] < 0:
                            too_many += 1
                        else:
                            out_of_nodes += 1
            state.do(moves[int(rng.random() * len(moves))])

    def summary(values: list[float]) -> dict[str, float] | None:
        return {**_summary(values), "mean": statistics.fmean(values)} if values else None

    return {"hands": hands, "deal_limit": agent.conf.endgame, "node_limit": limit,
            "max_cards": ENDGAME_MAX_CARDS, "attempts": attempts, "solved": len(nodes),
            "too_many_deals": too_many, "stock_order_matters": ordered, "out_of_nodes_or_time": out_of_nodes,
            "nodes_per_solve": summary(nodes), "seconds_per_solve": summary(seconds),
            "seconds_per_failed_attempt": summary(failed_seconds),
            "by_cards_left": {str(c): {"attempts": a, "solved": s} for c, (a, s) in sorted(by_cards.items())}}


def main(argv: list[str] | None = None) -> int:
    p = cli.Parser(prog="python -m engine.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--what", choices=("agent", "playouts", "bytecodes", "endgame"), default="agent")
    p.add_argument("--game", action="append", help="game name (repeatable in playouts mode)")
    p.add_argument("--variant", nargs="*", action="extend", default=[], metavar="K=V")
    p.add_argument("--agent", default="ismcts:iterations=10000", help="agent SPEC")
    p.add_argument("--positions", type=cli.positive_int, default=5)
    p.add_argument("--repeat", type=cli.positive_int, default=1,
                   help="passes over the positions (agent mode); the summaries cover every pass")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=cli.positive_seconds, default=2.0, help="seconds per measurement (playouts mode)")
    p.add_argument("--node-limit", type=cli.positive_int,
                   help="alpha-beta nodes per solve (endgame mode; default the solver's)")
    p.add_argument("--json", metavar="PATH", type=cli.output_file)
    args = p.parse_args(argv)
    command = "python -m engine.bench " + " ".join(shlex.quote(a) for a in (argv if argv is not None
                                                                            else sys.argv[1:]))
    try:
        variant = registry.parse_variant(args.variant)
        if args.what in ("agent", "bytecodes", "endgame"):
            if not args.game or len(args.game) != 1:
                p.error(f"{args.what} mode needs exactly one --game")
            game = registry.create(args.game[0], variant)
            out: dict[str, Any] = {"command": command, "game": game.name, "agent": args.agent,
                                   "positions": args.positions}
            if args.what == "agent":
                if args.repeat < 1 or args.positions < 1:
                    p.error("--positions and --repeat must be at least 1")
                machine = machine_info()
                out.update(bench_agent(game, args.agent, args.positions, args.seed, args.repeat))
                if "load_average" in machine:
                    machine["load_average_after"] = load_average()
                out["machine"] = machine
            elif args.what == "endgame":
                if args.positions < 1 or (args.node_limit is not None and args.node_limit < 1):
                    p.error("--positions and --node-limit must be at least 1")
                out.update(bench_endgame(game, args.agent, args.positions, args.seed, args.node_limit))
            else:
                out.update(bench_bytecodes(game, args.agent, args.positions, args.seed))
        else:
            names = args.game or registry.available()
            out = {"command": command, "games": {}}
            for name in names:
                game = registry.create(name, variant if args.game else {})
                out["games"][name] = bench_playouts(game, args.seconds, args.seed)
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
