"""What a reproduce run will cost before it starts: its games and a rough time from a short calibration.

The estimate of one set-up is *games x moves a game x seconds a decision*: the games are the arena's (whole
deals times the distinct rotations, less those already in the records file); the moves a game are counted in
one game of the set-up's game and unit played by random agents; the seconds a decision of each agent SPEC are
the mean wall time of its decisions on a few positions spread over that random game (the opening, the middle,
the end), so a search agent is timed with its real budget on this machine under its present load. It is a
rough figure, honest to a factor of about two: decisions cost more or less as a game goes on than the few
sampled ones, real players' games may be longer or shorter than random ones, and the machine's load changes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import agents, registry
from engine.game import GameError, GameState
from engine.lab import arena, probes
from engine.lab.experiments import Experiment, Setup
from engine.rng import derive_seed

CALIBRATION_POSITIONS = 3
"""Decisions timed per agent SPEC (positions spread evenly over one random game)."""


@dataclass
class SetupCost:
    """The estimate of one set-up: its games at the asked scale and at full size, those already recorded, the
    moves a game and the seconds a game."""

    index: int
    setup: Setup
    games: int
    full_games: int
    recorded: int
    moves: float
    game_seconds: float

    @property
    def seconds(self) -> float:
        """The time of the games still to play at the asked scale."""
        return (self.games - self.recorded) * self.game_seconds


def scaled_games(games: int, scale: float) -> int:
    """The games of a set-up at ``scale`` of its published size (at least one)."""
    return max(1, math.ceil(games * scale - 1e-9))


def planned_games(setup: Setup, games: int) -> int:
    """The arena games of a set-up asked to play ``games``: whole deals times its distinct rotations."""
    n_rot = len(arena.rotations(list(setup.agents)))
    return max(1, math.ceil(games / n_rot)) * n_rot


def recorded_games(path: str | None, setup: Setup, games: int) -> int:
    """How many of the planned games a records file already holds (0 without a readable file)."""
    if not path:
        return 0
    try:
        _header, recs, _complete, _cut = arena.read_records(path)
    except GameError:  # a missing or foreign file: reproduce itself reports it before playing
        return 0
    n_rot = len(arena.rotations(list(setup.agents)))
    deals = planned_games(setup, games) // n_rot
    return len({(r.deal, r.rotation) for r in recs if r.deal < deals and r.rotation < n_rot})


def _random_positions(setup: Setup, seed: int) -> tuple[list[GameState], int]:
    """The decision positions of one hand played by random agents, and the moves of one game of the set-up's
    unit (a whole match for ``unit="match"``) played by random agents."""
    game = registry.create(setup.game, setup.variant_dict())
    n = game.num_players
    variant = setup.variant_dict()
    moves = arena.play_one(setup.game, variant, ["random"] * n, list(range(n)), setup.unit, seed, 0, 0).moves
    rng = random.Random(derive_seed(seed, "calibration"))
    state = game.new_hand(rng, dealer=n - 1)
    positions = []
    while not state.is_terminal():
        positions.append(state.clone())
        state.do(rng.choice(state.legal_moves()))
    return positions, moves


def decision_seconds(setup: Setup, spec: str, positions: Sequence[GameState], seed: int,
                     samples: int = CALIBRATION_POSITIONS) -> float:
    """Mean wall time of ``spec``'s decisions on ``samples`` positions spread evenly over ``positions`` (with the
    set-up's probe when it measures ``spec``: the probe's own work counts too)."""
    game = registry.create(setup.game, setup.variant_dict())
    picked = [positions[min(len(positions) - 1, int((k + 0.5) * len(positions) / samples))] for k in range(samples)]
    probe = probes.make(setup.probe) if setup.probe and (not setup.probed or spec in setup.probed) else None
    total = 0.0
    for k, state in enumerate(picked):
        agent = agents.make(spec, game)
        rng = random.Random(derive_seed(seed, "calibration", spec, k))

        def choose(agent: agents.Agent = agent, state: GameState = state, rng: random.Random = rng) -> int:
            if agent.fair:
                return agent.choose(state.observation(state.current_player), rng)
            return agent.choose_full(state.clone(), rng)

        start = time.perf_counter()
        if probe is not None:
            probe.decide(agent, state, random.Random(derive_seed(seed, "calibration probe", k)), choose)
        else:
            choose()
        total += time.perf_counter() - start
    return total / len(picked)


def estimate(exp: Experiment, scale: float, seed: int = 1, records: Sequence[str | None] = (),
             only: Sequence[int] | None = None) -> list[SetupCost]:
    """The cost of every set-up of ``exp`` (or of those in ``only``) at ``scale`` and at full size.
    ``records[k]`` is set-up k's records file: its finished games are not counted."""
    calibrated: dict[tuple[str, str, str], float] = {}
    out = []
    for k, setup in enumerate(exp.setups):
        if only is not None and k not in only:
            continue
        games = scaled_games(setup.games, scale)
        positions, moves = _random_positions(setup, seed)
        per_seat = []
        for spec in setup.agents:
            key = (setup.game, repr(setup.variant), spec)
            if key not in calibrated:
                calibrated[key] = decision_seconds(setup, spec, positions, seed)
            per_seat.append(calibrated[key])
        game_seconds = moves * sum(per_seat) / len(per_seat)
        path = records[k] if k < len(records) else None
        out.append(SetupCost(k, setup, planned_games(setup, games), planned_games(setup, setup.games),
                             recorded_games(path, setup, games), moves, game_seconds))
    return out


def duration(seconds: float) -> str:
    """``seconds`` as a short human duration (``45 s``, ``12 min``, ``3.4 h``)."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def format_estimate(exp: Experiment, scale: float, costs: Sequence[SetupCost], jobs: int, cores: int) -> str:
    """The lines reproduce prints before a run (and alone with ``--estimate``)."""
    games = sum(c.games for c in costs)
    recorded = sum(c.recorded for c in costs)
    cpu = sum(c.seconds for c in costs)
    cpu_full = sum(c.full_games * c.game_seconds for c in costs)
    lines = [f"{exp.id} at scale {scale:g}: {len(costs)} set-up(s), {games} games"
             + (f" ({recorded} already in the records, {games - recorded} to play)" if recorded else "")
             + f"; at full size (scale 1) {sum(c.full_games for c in costs)} games"]
    for c in costs:
        lines.append(f"  set-up {c.index}: {c.games} games x ~{c.moves:.0f} moves, ~{duration(c.game_seconds)} a game "
                     f"({', '.join(dict.fromkeys(c.setup.agents))})")
    workers = max(1, min(jobs or cores, cores))
    lines.append(f"estimated time: ~{duration(cpu)} of CPU at this scale (~{duration(cpu_full)} at full size); "
                 f"with --jobs {workers} on {workers} free core(s) ~{duration(cpu / workers)}; on a Ray cluster "
                 "about the CPU time divided by its CPUs")
    lines.append(f"(rough, a factor of about two either way: {CALIBRATION_POSITIONS} timed decisions per agent on "
                 "one random game's positions, this machine's present load)")
    return "\n".join(lines)
