"""Measure the Hearts inference signals ([Manzke2025] chapter 5) in self-play.

``python tools/hearts_signals.py --agent SPEC --hands N --seed S``: self-play hands (no passing) and the measured
likelihood ratio of every signal, (held + 1) / (prior + 1); with ``--samples K`` also the sampling accuracy.
"""

from __future__ import annotations

import random

from engine import agents, registry
from engine.game import GameState
from engine.games.hearts.inference import FACTORS, feature_accuracy, measure_signals


def main(argv: list[str] | None = None) -> int:
    """``python tools/hearts_signals.py --agent SPEC --hands N --seed S``: self-play hands (no
    passing) and the measured likelihood ratio of every signal, (held + 1) / (prior + 1)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python tools/hearts_signals.py", description=main.__doc__)
    parser.add_argument("--agent", default="ismcts:iterations=1000,reward=relative")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--measure", type=int, default=0, help="measure on the first K hands only (0 = all)")
    parser.add_argument("--samples", type=int, default=0,
                        help="also report the sampling accuracy on the other hands, this many deals a decision")
    args = parser.parse_args(argv)
    game = registry.create("hearts", {"passing": "none", "target": 0})
    players = [agents.make(args.agent, game) for _ in range(4)]
    rng = random.Random(args.seed)
    played: list[tuple[GameState, list[int]]] = []
    for _ in range(args.hands):
        state = game.new_hand(rng, dealer=3)
        start = state.clone()
        while not state.is_terminal():
            seat = state.current_player
            state.do(players[seat].choose(state.observation(seat), rng))
        played.append((start, [m for _s, m in state.history]))
    first = args.measure or len(played)
    for name, (held, prior, count) in sorted(measure_signals(played[:first]).items()):
        print(f"{name:32} n={int(count):5d} held={held:7.1f} prior={prior:7.1f} "
              f"ratio={(held + 1) / (prior + 1):.2f} (in use {FACTORS[name]})")
    if args.samples and played[first:]:
        inferred, uniform, points = feature_accuracy(played[first:], args.samples, random.Random(2))
        print(f"sampling accuracy on hands {first + 1}-{len(played)}: {points} decisions, Q/K/A of spades "
              f"holders all right in {100 * inferred:.1f}% of biased deals, {100 * uniform:.1f}% of uniform ones")
    return 0




if __name__ == "__main__":
    raise SystemExit(main())
