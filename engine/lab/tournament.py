"""Cross tables for the rule-based players, laid out like the seeds' tables.

    python -m engine.lab.tournament sides --game scopone --variant target=0 \
        --agents cs cs:scopa_prevention=false cs:sevens=false --games 200 --seed 1
    python -m engine.lab.tournament pairs --game pharaoh \
        --variant rules=seed players=2 deck=small open=true \
        --agents random biggest smallest annoying:open=true backtrack --games 200 --seed 1
    python -m engine.lab.tournament bench --game scopone --agents greedy cs cg --games 50

``sides`` (dipalma2014 tables 6.2 and 6.4): for every (hand team, deck team) pair of agents, the hand
team's win, loss and tie rates over ``--games`` seeded hands (dealer = seat 3, so seats 0+2 are the hand
team). ``pairs`` (kassak2023 tables 5.2 and 5.4): for every pair of agents in a two-player game, the row
agent's win rate, each deal played once per seat order (``--games`` games per pair). Every game uses the
arena's own seeding (:func:`engine.lab.arena.play_one`), so results do not depend on the order of the runs.
``bench`` times each agent's first decision of every seat over ``--games`` deals (the opening).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from engine import agents, registry
from engine.game import GameError
from engine.lab import cli
from engine.lab.arena import play_one, wilson_interval


def sides_table(game_name: str, variant: dict[str, Any], specs: list[str], games: int, seed: int) -> dict[str, Any]:
    """Hand-team results for every (hand, deck) pair of agents in a 4-seat partnership game."""
    game = registry.create(game_name, variant)
    variant = game.variant
    cells: dict[str, dict[str, Any]] = {}
    for i, hand in enumerate(specs):
        for j, deck in enumerate(specs):
            specs2 = [hand, deck]
            wins = ties = 0
            for d in range(games):
                rec = play_one(game_name, variant, specs2, [0, 1, 0, 1], "hand", seed, d, 0)
                o = rec.outcomes[0]
                wins += o == 1.0
                ties += o == 0.5
            cells[f"{i},{j}"] = {"hand": hand, "deck": deck, "games": games, "win": wins / games,
                                 "loss": (games - wins - ties) / games, "tie": ties / games,
                                 "win_ci95": list(wilson_interval(wins, games))}
    return {"kind": "sides", "game": game_name, "variant": variant, "specs": specs, "seed": seed, "cells": cells}


def pairs_table(game_name: str, variant: dict[str, Any], specs: list[str], games: int, seed: int) -> dict[str, Any]:
    """Row-vs-column win rates in a two-player game; each deal is played from both seats."""
    game = registry.create(game_name, variant)
    variant = game.variant
    if game.num_players != 2:
        raise GameError(f"pairs tables need a two-player game; {game_name} with this variant has "
                        f"{game.num_players} players")
    cells: dict[str, dict[str, Any]] = {}
    deals = max(1, (games + 1) // 2)
    for i, a in enumerate(specs):
        for j, b in enumerate(specs):
            if j <= i:
                continue
            wins = ties = n = 0
            for d in range(deals):
                for r, arr in enumerate(([0, 1], [1, 0])):
                    rec = play_one(game_name, variant, [a, b], arr, "hand", seed, d, r)
                    seat_a = arr.index(0)
                    o = rec.outcomes[seat_a]
                    wins += o == 1.0
                    ties += o == 0.5
                    n += 1
            cells[f"{i},{j}"] = {"row": a, "col": b, "games": n, "win": (wins + ties / 2) / n,
                                 "win_ci95": list(wilson_interval(wins + ties / 2, n))}
    return {"kind": "pairs", "game": game_name, "variant": variant, "specs": specs, "seed": seed, "cells": cells}


def format_sides(t: dict[str, Any]) -> str:
    specs = t["specs"]
    lines = []
    for what in ("win", "loss", "tie"):
        lines.append(f"hand team {what} rate (rows: hand team, columns: deck team)")
        lines.append("| hand \\ deck | " + " | ".join(specs) + " |")
        lines.append("| --- |" + " --- |" * len(specs))
        for i, a in enumerate(specs):
            row = [f"{100 * t['cells'][f'{i},{j}'][what]:.1f}%" for j in range(len(specs))]
            lines.append(f"| {a} | " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines)


def format_pairs(t: dict[str, Any]) -> str:
    specs = t["specs"]
    lines = ["| row beats column | " + " | ".join(specs) + " | mean |", "| --- |" + " --- |" * (len(specs) + 1)]
    for i, a in enumerate(specs):
        row = []
        vals = []
        for j, _ in enumerate(specs):
            if i == j:
                row.append("-")
                continue
            c = t["cells"][f"{min(i, j)},{max(i, j)}"]
            w = c["win"] if i < j else 1 - c["win"]
            lo, hi = c["win_ci95"] if i < j else (1 - c["win_ci95"][1], 1 - c["win_ci95"][0])
            vals.append(w)
            row.append(f"{w:.2f} [{lo:.2f}, {hi:.2f}]")
        lines.append(f"| {a} | " + " | ".join(row) + f" | {sum(vals) / len(vals):.2f} |")
    return "\n".join(lines)


def bench(game_name: str, variant: dict[str, Any], spec: str, deals: int, seed: int) -> dict[str, float]:
    """Decision time of ``spec`` at the opening (first decision of every seat) over ``deals`` deals."""
    game = registry.create(game_name, variant)
    times: list[float] = []
    for d in range(deals):
        state = game.new_hand(random.Random(seed * 7919 + d))
        seen: set[int] = set()
        while not state.is_terminal() and len(seen) < game.num_players:
            seat = state.current_player
            agent = agents.make(spec, game)
            t0 = time.perf_counter()
            if agent.fair:
                move = agent.choose(state.observation(seat), random.Random(d))
            else:
                move = agent.choose_full(state.clone(), random.Random(d))
            if seat not in seen:
                times.append(time.perf_counter() - t0)
                seen.add(seat)
            state.apply(move)
    times.sort()
    return {"decisions": len(times), "mean_ms": 1000 * sum(times) / len(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))], "max_ms": 1000 * times[-1]}


def main(argv: list[str] | None = None) -> int:
    p = cli.Parser(prog="python -m engine.lab.tournament", description=__doc__.split("\n\n")[0])
    p.add_argument("kind", choices=("sides", "pairs", "bench"))
    p.add_argument("--game", required=True)
    p.add_argument("--variant", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--agents", nargs="+", required=True)
    p.add_argument("--games", type=cli.positive_int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH", type=cli.output_file)
    a = p.parse_args(argv)
    try:
        variant = registry.parse_variant(a.variant)
        game = registry.create(a.game, variant)
        for spec in a.agents:
            agents.make(spec, game)  # an unknown agent or option fails before any game is played
        if a.kind == "bench":
            for spec in a.agents:
                r = bench(a.game, variant, spec, a.games, a.seed)
                print(f"{a.game} {' '.join(a.variant)} {spec}: {r['decisions']} opening decisions, mean "
                      f"{r['mean_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, max {r['max_ms']:.2f} ms")
            return 0
        fn = sides_table if a.kind == "sides" else pairs_table
        table = fn(a.game, variant, a.agents, a.games, a.seed)
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_sides(table) if a.kind == "sides" else format_pairs(table))
    if a.json and not cli.write_json(a.json, table, indent=1):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
