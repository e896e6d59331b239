"""Long-running fuzz of the agents: whole hands of random games, example variants and agent SPECs.

Every game, every example variant, every registered search option (simulation policies, pruners, move
handlers, resolvers, biases, opponent policies) and every other agent is tried with tiny budgets, and every
move's legality is checked (the arena's ``play_hand``). A failure prints the game, variant, SPECs and
traceback with the state as JSON (for a regression test), and saves it with --out. The games take turns; the
variant and the seats' SPECs are drawn at random. The test suite runs one hand of every game (``--hands``
without a time limit); longer runs are for after a change:

    python -m engine.fuzz --seconds 600 --seed 2 --out fuzz-failures/
"""

from __future__ import annotations

import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from engine import agents, presets, registry
from engine.game import Game
from engine.lab import cli
from engine.lab.arena import play_hand
from engine.search import knowledge

TINY = 12
"""Iterations of the fuzzed searches (behaviour, not strength)."""


def option_specs(game: Game) -> list[str]:
    """A cheap SPEC for every search option family and every other agent that plays ``game``."""
    name = game.name
    registered = knowledge.registered(name)
    base = f"ismcts:iterations={TINY}"
    specs = [f"{base},sim={s}" for s in ["random", *knowledge.policies(name)]]
    specs += [f"{base},prune={p}" for p in registered["pruner"]]
    specs += [f"{base},handler={h}" for h in registered["handler"]]
    specs += [f"{base},handler={h},resolve={r}" for h in registered["handler"][:1] for r in registered["resolver"]]
    specs += [f"{base},bias={b}" for b in registered["bias"]]
    specs += [f"{base},opponents={p}" for p in registered["policy"]]
    specs += [f"{base},rule={r}" for r in registered["rule"]]
    specs += [f"{base},sim={p},sim_epsilon=0.3" for p in registered["policy"][:1]]
    specs += [f"cheat:iterations={TINY},sim={p},reward=diff" for p in registered["policy"][:1]]
    specs += [f"{base},transpositions=true,dets=3", f"{base},reuse=true", f"ismcts:iterations={3 * TINY},endgame=40",
              f"{base},sim=nast,nast_n=2,nast_policy=ucb1", f"{base},reward=sd", f"{base},reward=relative",
              f"{base},reward=wl", f"{base},sim=eval", f"{base},sim=eval,eval_depth=2,eval_nodes=100",
              f"{base},beam_width=2,beam_limit=4", f"detuct:iterations={TINY},trees=2",
              f"cheat:iterations={TINY}", presets.preset_spec(name, "beginner")]
    for agent in agents.available():
        cls = agents.agent_class(agent)
        if agent not in ("ismcts", "detuct", "cheat") and (cls.games is None or name in cls.games):
            specs.append(agent)
    usable = []
    for spec in specs:
        try:
            agents.make(spec, game)
        except Exception:  # noqa: BLE001 - an option this game or variant does not support
            continue
        usable.append(spec)
    return usable


def play_random_hand(rng: random.Random, name: str | None = None) -> tuple[str, dict[str, Any], list[str], str | None]:
    """One hand of ``name`` (default: a random game) with a random example variant and SPECs; returns them and
    the failure's traceback (or None)."""
    if name is None:
        name = rng.choice(registry.available())
    variant = rng.choice(registry.game_class(name).example_variants)
    game = registry.create(name, variant)
    specs = option_specs(game)
    chosen = [rng.choice(specs) for _ in range(game.num_players)]
    players = [agents.make(spec, game) for spec in chosen]
    state = game.new_hand(random.Random(rng.random()), dealer=rng.randrange(game.num_players))
    try:
        play_hand(game, state, players, rng.randrange(1 << 62))  # checks every move's legality
        state.result()
    except Exception:  # noqa: BLE001 - reported with everything needed to reproduce it
        return name, variant, chosen, traceback.format_exc() + "\nSTATE " + state.to_json()
    return name, variant, chosen, None


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m engine.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=cli.seconds, default=60.0, help="how long to run (default 60; 0 = no limit)")
    parser.add_argument("--hands", type=cli.count_or_zero, default=0, help="stop after this many hands (0 = no limit)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=cli.output_folder,
                        help="directory for failure reports (traceback and the state as JSON)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 and args.hands <= 0:
        parser.error("give --hands N, --seconds S or both (a run needs an end)")
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds if args.seconds > 0 else None
    games = registry.available()
    hands = failures = 0
    while (deadline is None or time.monotonic() < deadline) and (not args.hands or hands < args.hands):
        name, variant, specs, failure = play_random_hand(rng, games[hands % len(games)])  # every game in turn
        hands += 1
        if failure is not None:
            failures += 1
            print(f"FAILED {name} {variant} {specs}\n{failure}", file=sys.stderr)
            if args.out:
                out = Path(args.out)
                out.mkdir(parents=True, exist_ok=True)
                (out / f"failure_{args.seed}_{failures}.txt").write_text(
                    f"{name} {variant} {specs}\n{failure}", encoding="utf-8")
    print(f"{hands} hands, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
