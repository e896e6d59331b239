"""How deep an ISMCTS search explores: the depth of its tree after a decision (manzke2025 figure 6.1).

manzke2025 6.2.1 compares how far ahead ISMCTS-T (transpositions) and plain ISMCTS look with the same
iteration budget: the depth of a search is the number of moves below the root of its deepest node.
``python -m engine.lab.depth --game hearts --agents SPEC [SPEC ...] --positions K [--seed S]``
runs every agent from the same K positions (dealt from ``S``, then played at random for up to
``--max-tricks`` tricks, so every root lies before trick ``max-tricks + 1``) and prints, per agent, the
share of searches that reached each depth. The registry's ``manzke2025/figure-6.1`` and ``figure-6.2``
(``python -m engine.reproduce``) measure the same depth inside played games instead, with the lab's ``search``
probe (:mod:`engine.lab.probes`).
"""

from __future__ import annotations

import random
import statistics
import sys
from typing import Any

from engine import agents, registry
from engine.game import Game, GameState, VariantError
from engine.lab import cli
from engine.rng import derive_seed
from engine.search.ismcts import ISMCTSAgent, Node, run_ismcts

_MAX_DEPTH = 10_000
"""No card game here lasts this many moves: a longer path means a cycle."""


def tree_depth(root: Node) -> int:
    """Moves from ``root`` to the deepest node of its tree (a DAG with transpositions: the longest path).
    Raises ValueError if the graph has a cycle (a transposition key that does not change with a move)."""
    depth = 0
    level = {id(root): root}
    while True:
        if depth > _MAX_DEPTH:
            raise ValueError(f"the search graph is deeper than {_MAX_DEPTH} moves: it has a cycle")
        below: dict[int, Node] = {}
        for node in level.values():
            for child in node.children.values():
                below[id(child)] = child
        if not below:
            return depth
        depth += 1
        level = below


def search_depth(agent: ISMCTSAgent, state: GameState, rng: random.Random) -> int:
    """Depth of the tree ``agent`` builds for one decision of the current player of ``state``."""
    obs = state.observation(state.current_player)
    _result, root = run_ismcts(obs, rng, agent.conf, None)
    return tree_depth(root)


def sample_positions(game: Game, count: int, seed: int, max_tricks: int) -> list[GameState]:
    """``count`` positions with a real decision: fresh deals played at random for 0..``max_tricks`` tricks
    (``num_players`` moves each), each from its own derived seed."""
    out: list[GameState] = []
    index = 0
    while len(out) < count:
        rng = random.Random(derive_seed(seed, "depth", index))
        index += 1
        state = game.new_hand(rng)
        for _ in range(rng.randrange(max_tricks * game.num_players + 1)):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.do(moves[int(rng.random() * len(moves))])
        if not state.is_terminal() and len(state.legal_moves()) >= 2:
            out.append(state)
    return out


def depth_table(game: Game, specs: list[str], positions: list[GameState], seed: int) -> list[dict[str, Any]]:
    """Per agent spec: the depth of each search, its distribution (share per depth), mean and median."""
    rows = []
    for spec in specs:
        agent = agents.make(spec, game)
        if not isinstance(agent, ISMCTSAgent) or agent.conf.workers > 1:
            raise VariantError(f"{spec!r}: depth is measured for single-process ismcts agents only")
        depths = [search_depth(agent, state, random.Random(derive_seed(seed, "search", k)))
                  for k, state in enumerate(positions)]
        shares = {d: depths.count(d) / len(depths) for d in sorted(set(depths))}
        rows.append({"agent": spec, "depths": depths, "share_by_depth": shares,
                     "mean": statistics.fmean(depths), "median": statistics.median(depths)})
    return rows


def main(argv: list[str] | None = None) -> int:
    """Search depth of ISMCTS agents from the same positions (manzke2025 figure 6.1)."""
    parser = cli.Parser(prog="python -m engine.lab.depth", description=main.__doc__)
    parser.add_argument("--game", required=True, help="the game to measure")
    parser.add_argument("--variant", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--agents", nargs="+", required=True, metavar="SPEC")
    parser.add_argument("--positions", type=cli.positive_int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-tricks", type=cli.integer(0), default=7,
                        help="random tricks played before a root (manzke2025: roots before the 8th trick)")
    parser.add_argument("--json", metavar="PATH", type=cli.output_file)
    args = parser.parse_args(argv)
    try:
        game = registry.create(args.game, registry.parse_variant(args.variant))
        positions = sample_positions(game, args.positions, args.seed, args.max_tricks)
        rows = depth_table(game, args.agents, positions, args.seed)
    except (VariantError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        shares = "  ".join(f"{d}: {100 * s:.1f}%" for d, s in row["share_by_depth"].items())
        print(f"{row['agent']}\n  mean depth {row['mean']:.2f}, median {row['median']}; share of searches by "
              f"depth: {shares}")
    if args.json and not cli.write_json(args.json, {
            "command": "python -m engine.lab.depth " + " ".join(argv or sys.argv[1:]), "game": args.game,
            "variant": game.variant, "positions": args.positions, "seed": args.seed, "max_tricks": args.max_tricks,
            "agents": rows}):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
