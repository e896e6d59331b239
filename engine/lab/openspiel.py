"""ISMCTS iterations per second against OpenSpiel's C++ ISMCTS in the same game, measured in one run, as a ratio.

OpenSpiel (the ``open_spiel`` package of the package index) is not a dependency of the project: it lives in a
separate environment that also sees this checkout, e.g. ::

    python -m venv .venv-openspiel && .venv-openspiel/bin/pip install open_spiel numpy
    PYTHONPATH=. .venv-openspiel/bin/python -m engine.lab.openspiel --game hearts --variant passing=none target=0 \
        --openspiel "hearts(pass_cards=false)" --iterations 10000 --positions 5 --rounds 3

``--game``/``--variant`` name this project's game, ``--openspiel`` the same game in OpenSpiel's
``load_game`` syntax (the two must play by the same rules). Both searches start from the same kind of
position, the first decision with two or more legal moves of a freshly dealt hand, with one random playout
per iteration and no limit on the deals sampled.
The two run interleaved, round by round, in one process, each timed by the process's CPU time (less sensitive
to other load on a shared machine than the wall clock); the report is the median iterations per CPU second of
each and their ratio (OpenSpiel / ours) per round and overall.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from engine import registry
from engine.bench import bench_agent, machine_info
from engine.game import Game, GameError
from engine.lab import cli
from engine.lab.reproduce import commit

try:
    import pyspiel
except ImportError:  # the optional separate environment
    pyspiel = None

__all__ = ["main", "openspiel_rate", "ours_rate"]

UCT_C = 0.7
"""OpenSpiel's exploration constant for the comparison: ours (``ismcts``' default ``c``)."""


def _openspiel_opening(game: Any, rng: random.Random) -> Any:
    """A freshly dealt OpenSpiel Hearts state at its first decision with two or more legal actions."""
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(actions))
            continue
        legal = state.legal_actions()
        if len(legal) >= 2:
            return state
        state.apply_action(legal[0])


def openspiel_rate(openspiel_game: str, iterations: int, positions: int, seed: int) -> list[float]:
    """OpenSpiel ISMCTS iterations per CPU second at ``positions`` seeded openings (one decision each)."""
    if pyspiel is None:
        raise SystemExit("error: OpenSpiel is not installed here; see python -m engine.lab.openspiel --help")
    game = pyspiel.load_game(openspiel_game)
    rates = []
    for k in range(positions + 1):  # the first decision warms up and is not counted
        state = _openspiel_opening(game, random.Random(seed * 1000 + k))
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed + k)
        bot = pyspiel.ISMCTSBot(seed + k, evaluator, UCT_C, iterations, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        start = time.process_time()
        bot.step(state)
        elapsed = time.process_time() - start
        if k:
            rates.append(iterations / elapsed)
    return rates


def ours_rate(game: Game, iterations: int, positions: int, seed: int) -> float:
    """This project's ``ismcts`` iterations per CPU second (median) at ``positions`` seeded openings."""
    result = bench_agent(game, f"ismcts:iterations={iterations}", positions, seed)
    return float(result["cpu"]["iterations_per_second"]["median"])


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m engine.lab.openspiel", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="this project's game")
    parser.add_argument("--variant", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    parser.add_argument("--openspiel", required=True, metavar="GAME",
                        help="the same game for OpenSpiel's load_game, e.g. 'hearts(pass_cards=false)'")
    parser.add_argument("--iterations", type=cli.positive_int, default=10000)
    parser.add_argument("--positions", type=cli.positive_int, default=5)
    parser.add_argument("--rounds", type=cli.positive_int, default=3, help="interleaved rounds of both searches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="PATH", type=cli.output_file)
    args = parser.parse_args(argv)
    if pyspiel is None:
        parser.error("OpenSpiel is not installed in this environment (pip install open_spiel in a separate "
                     "venv, then run this module there with PYTHONPATH set to the checkout)")
    try:
        game = registry.create(args.game, registry.parse_variant(args.variant))
        pyspiel.load_game(args.openspiel)
    except (GameError, pyspiel.SpielError) as e:
        parser.error(str(e).strip().splitlines()[0].rstrip(":. ") + " (OpenSpiel's registered_names() lists its games)")
    rounds = []
    for r in range(args.rounds):
        theirs = statistics.median(openspiel_rate(args.openspiel, args.iterations, args.positions, args.seed + r))
        ours = ours_rate(game, args.iterations, args.positions, args.seed + r)
        rounds.append({"openspiel": theirs, "ours": ours, "ratio": theirs / ours})
        print(f"round {r + 1}: OpenSpiel {theirs:,.0f} it/s, ours {ours:,.0f} it/s, ratio {theirs / ours:.2f}",
              file=sys.stderr)
    result = {"game": args.game, "variant": game.variant, "openspiel_game": args.openspiel,
              "iterations": args.iterations, "positions": args.positions,
              "rounds": rounds, "openspiel_version": getattr(pyspiel, "__version__", "unknown"),
              "ratio_median": statistics.median(r["ratio"] for r in rounds),
              "command": " ".join(["python -m engine.lab.openspiel", *(sys.argv[1:] if argv is None else argv)]),
              "commit": commit(), "machine": machine_info()}
    print(json.dumps(result, indent=2))
    if args.json and not cli.write_json(args.json, result):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
