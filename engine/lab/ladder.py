"""The equal-time ladder: a round robin of agents on duplicate deals, every search under the same time per move,
rated by the Bradley-Terry model.

    python -m engine.ladder --game GAME [--variant KEY=VALUE ...] --agents SPEC SPEC [SPEC ...]
                            --seconds-per-move S [--clock wall|cpu] [--deals N] [--unit hand|match]
                            [--seed S] [--jobs J] [--records FILE] [--json PATH] [--backend local|ray]
                            [--address ADDR]

Every pair of agents plays ``--deals`` deals through the arena (:func:`engine.lab.arena.run`): the two agents
alternate round the table (A B A B; in a game of an odd number of seats also B A B, so that neither holds more
seats), and every deal is played once per rotation of the seats, so each agent plays every seat on the same
cards. A game is one hand (``--unit hand``, the default: the hand's own winner, whatever the variant's match
target) or a whole match to the variant's target from a seeded deal (``--unit match``: the match's winner; where a
hand's margin counts towards the match, as Sueca's game points or Scopa's points, the two can rank agents
differently). A game scores ``(1 + outcome of A - outcome of B) / 2`` for A (win 1, draw or shared win 0.5, loss 0; a
side's outcome is the mean over the seats it holds), the rest for B. With three or more seats and no partners
a game won by one of A's seats scores less than 100% (75% in Hearts or Pharaoh, two seats each; parity stays
50%), so each pair also reports the games won outright by a seat of each side ("won 37-3").

Equal time: an agent that takes a ``seconds=`` budget (``ismcts``, ``detuct``, ``cheat``, ``pimc``) gets
``seconds=S`` and its count budget (``iterations=``, ``deals=``) set to 0, so the clock alone ends each of its
decisions, whatever its SPEC said. The rule-based players (``heuristic``, ``greedy``, ``cs``...) take no budget:
they decide at their own pace, well under a millisecond, so they are rated as they are. ``--own-budgets``
instead keeps every SPEC's own budgets (to rate agents as shipped, e.g. a preset against a reference).

``--clock cpu`` counts each search's own processor time instead of elapsed time (the SPECs get ``clock=cpu``):
on a machine busy with other work every search still gets ``S`` seconds of a core, so the ratings do not depend on
the load; ``wall`` (the default) is the time a player waits.

Ratings: the Bradley-Terry maximum-likelihood strengths on the Elo scale (400 log10 of the strength, mean 0),
with 95% intervals from the model's standard errors (the inverse Fisher information under the mean-zero
constraint). Each pair's games carry a weak prior of one drawn game (:data:`PRIOR_GAMES`), so an agent that won
every game still gets a finite rating.

``--backend ray [--address ADDR]`` plays the games as Ray tasks, on a local Ray instance or a running cluster
(:mod:`engine.lab.cluster`, docs/research.md), as the arena does. With rule-based agents only, the results are
those of the local processes for the same seed; a time per move is the documented exception to determinism (the
iterations a search fits in ``S`` seconds depend on the machine and its load), locally as on Ray.

``--records FILE``: every pair's games go to the arena's JSON Lines records file ``FILE.<i>-<j>[.b]`` (agent
indexes in the ``--agents`` order; ``.b`` for the B A B seating); running the same command again resumes each
pair from its file. Ctrl-C or SIGTERM stop the run: the pairs finished so far are rated (``"interrupted":
true``, exit code 130).
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from engine import agents, registry
from engine.game import Game, GameError
from engine.lab import arena, cli, cluster
from engine.search.common import CLOCKS

Z95 = arena.Z95
UNITS = ("hand", "match")
"""What one game of a pair is: a single hand or a whole match to the variant's target."""
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the Bradley-Terry log-strength."""

PRIOR_GAMES = 1.0
"""Virtual drawn games added to every pair that played (half a win each way)."""

COUNT_BUDGETS = ("iterations", "deals")
"""Count budgets set to 0 when an agent gets a time per move (the clock alone ends its decisions)."""


def bradley_terry(n_agents: int, results: Mapping[tuple[int, int], tuple[float, float]],
                  prior: float = PRIOR_GAMES, iterations: int = 10_000,
                  tolerance: float = 1e-12) -> tuple[list[float], list[float]]:
    """Bradley-Terry ratings on the Elo scale (mean 0) and their standard errors.

    ``results[(i, j)] = (score of i, games)`` for i < j: i's wins plus half its draws over ``games`` games
    against j. ``prior`` virtual games split evenly are added to every pair that played. The strengths are
    fitted by Hunter's MM algorithm; the standard errors come from the inverse of the Fisher information of
    the log-strengths under the mean-zero constraint (its pseudo-inverse). An agent without games gets rating
    0 and an infinite error."""
    wins = np.zeros((n_agents, n_agents))
    games = np.zeros((n_agents, n_agents))
    for (i, j), (score, n) in results.items():
        if i == j or n <= 0:
            continue
        if not 0 <= score <= n:
            raise ValueError(f"pair {i}-{j}: a score of {score} in {n} games")
        wins[i, j] += score + prior / 2
        wins[j, i] += n - score + prior / 2
        games[i, j] += n + prior
        games[j, i] += n + prior
    played = games.sum(axis=1) > 0
    strength = np.ones(n_agents)
    total_wins = wins.sum(axis=1)
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(played, total_wins / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.where(played, np.maximum(new, 1e-300), 1.0)
        new /= math.exp(np.log(new[played]).mean()) if played.any() else 1.0
        if np.max(np.abs(np.log(new) - np.log(strength))) < tolerance:
            strength = new
            break
        strength = new
    beta = np.log(strength)
    if played.any():
        beta = np.where(played, beta - beta[played].mean(), 0.0)
    p = strength[:, None] / (strength[:, None] + strength[None, :])
    info = -games * p * p.T
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    idx = np.flatnonzero(played)
    errors = np.full(n_agents, math.inf)
    if len(idx) > 1:
        sub = info[np.ix_(idx, idx)]
        cov = np.linalg.pinv(sub)
        errors[idx] = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return [float(ELO * b) for b in beta], [float(ELO * e) for e in errors]


def timed_spec(spec: str, game: Game, seconds: float, clock: str = "wall") -> str:
    """``spec`` under ``seconds`` a move: the time budget set (counted on ``clock``, see :data:`CLOCKS`) and the
    count budgets zeroed for an agent that takes ``seconds=``; a rule-based agent's SPEC unchanged."""
    name, params = agents.parse_spec(spec)
    cls = agents.agent_class(name, game)
    own = {p.name for p in cls.params}
    if "seconds" not in own:
        return spec
    params["seconds"] = repr(float(seconds))
    for count in COUNT_BUDGETS:
        if count in own:
            params[count] = "0"
    if clock != "wall":
        if "clock" not in own:
            raise GameError(f"agent {name!r} cannot count its time on the {clock} clock")
        params["clock"] = clock
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def seatings(n_seats: int) -> list[tuple[str, list[int]]]:
    """The seatings of a pair: (file suffix, agent index 0 or 1 per seat): A B A B..., and also B A B... when
    the number of seats is odd."""
    out = [("", [s % 2 for s in range(n_seats)])]
    if n_seats % 2:
        out.append((".b", [(s + 1) % 2 for s in range(n_seats)]))
    return out


def play_pair(game_name: str, variant: dict[str, Any], pair: tuple[str, str], deals: int, seed: int, jobs: int,
              records: str | None, progress: bool, backend: arena.Backend | None = None,
              unit: str = "hand") -> dict[str, Any]:
    """Both seatings of one pair of (timed) SPECs: A's score, the games, the paired outcome's 95% interval and
    ``won``: the games won outright by a seat (or team) of A and of B (draws and shared wins in neither)."""
    game = registry.create(game_name, variant)
    score = 0.0
    games = 0
    interrupted = False
    diffs: list[tuple[float, float, float, int]] = []
    won = [0, 0]
    for suffix, seats in seatings(game.num_players):
        specs = [pair[a] for a in seats]
        n_rot = len(arena.rotations(specs))
        summary = arena.run(game_name, variant, specs, deals * n_rot, seed, jobs, unit, progress,
                            records + suffix if records else None, backend=backend)
        paired = summary["paired"]
        first_is_a = paired["first"] == pair[0]
        sign = 1.0 if first_is_a else -1.0
        n = summary["games"]
        mean = sign * paired["outcome_difference"]
        lo, hi = (sign * x for x in paired["outcome_difference_ci95"])
        diffs.append((mean, min(lo, hi), max(lo, hi), n))
        score += n * (1.0 + mean) / 2.0
        games += n
        by_spec = {row["spec"]: row["wins"] for row in summary["agents"]}
        won = [won[0] + by_spec.get(pair[0], 0), won[1] + by_spec.get(pair[1], 0)]
        if summary.get("interrupted"):
            interrupted = True
            break
    return {"score": score, "games": games, "score_rate": score / games,
            "score_rate_ci95": score_interval(diffs, score, games), "won": won, "interrupted": interrupted}


def score_interval(diffs: Sequence[tuple[float, float, float, int]], score: float, games: int) -> list[float]:
    """The 95% interval of A's score rate from each seating's paired outcome difference (mean, low, high, games),
    the seatings combined as independent halves weighted by games. When no deal's result changed with the seats
    (every paired difference equal: no spread to estimate), the unpaired Wilson interval of ``score`` in ``games``
    instead of a zero-width one."""
    mean = sum(d[0] * d[3] for d in diffs) / games
    half = math.sqrt(sum((d[3] / games) ** 2 * ((d[2] - d[1]) / 2) ** 2 for d in diffs))
    if half == 0.0:
        return list(arena.wilson_interval(score, games))
    return [max(0.0, (1.0 + mean - half) / 2.0), min(1.0, (1.0 + mean + half) / 2.0)]


def timed_specs(game_name: str, variant: dict[str, Any], specs: Sequence[str], seconds: float | None,
                deals: int, clock: str = "wall", unit: str = "hand") -> list[str]:
    """The SPECs under ``seconds`` a move (:func:`timed_spec`; ``None``: every SPEC keeps its own budgets),
    after checking the ladder's set-up (GameError with a clear message): done before any game is played or any
    backend started."""
    game = registry.create(game_name, variant)
    if len(specs) < 2:
        raise GameError("give two or more agent SPECs")
    if len(set(specs)) != len(specs):
        raise GameError("each agent SPEC once: " + ", ".join(s for s in specs if specs.count(s) > 1))
    if seconds is not None and not seconds > 0:
        raise GameError(f"--seconds-per-move must be positive, not {seconds}")
    if deals < 1:
        raise GameError("--deals must be at least 1")
    if clock not in CLOCKS:
        raise GameError(f"unknown clock {clock!r}; choose one of: {', '.join(CLOCKS)}")
    if unit not in UNITS:
        raise GameError(f"--unit must be one of: {', '.join(UNITS)}, not {unit!r}")
    if seconds is None and clock != "wall":
        raise GameError("--clock applies to --seconds-per-move; with --own-budgets every SPEC keeps its own")
    timed = list(specs) if seconds is None else [timed_spec(s, game, seconds, clock) for s in specs]
    for spec in timed:
        agents.make(spec, game)  # fails before any game with the arena's clear errors
    if len(set(timed)) != len(timed):
        raise GameError("two SPECs are the same agent under an equal time per move: " + ", ".join(timed))
    return timed


def run(game_name: str, variant: dict[str, Any], specs: Sequence[str], seconds: float | None, deals: int,
        seed: int = 0, jobs: int = 0, records: str | None = None, progress: bool = False,
        backend: arena.Backend | None = None, clock: str = "wall", unit: str = "hand") -> dict[str, Any]:
    """The whole ladder: every pair's games and the ratings (JSON-ready). ``seconds=None``: every SPEC keeps
    its own budgets; ``clock``: what ``seconds`` counts (:data:`CLOCKS`). ``backend`` plays the games instead of
    the local processes (e.g. :class:`engine.lab.cluster.RayBackend`); ``unit``: a game is a hand or a match."""
    timed = timed_specs(game_name, variant, specs, seconds, deals, clock, unit)
    variant = registry.create(game_name, variant).variant
    results: dict[tuple[int, int], tuple[float, float]] = {}
    pairs_out = []
    interrupted = False
    for i, j in itertools.combinations(range(len(specs)), 2):
        path = f"{records}.{i}-{j}" if records else None
        if progress:
            print(f"{specs[i]} vs {specs[j]}", file=sys.stderr)
        pair = play_pair(game_name, variant, (timed[i], timed[j]), deals, seed, jobs, path, progress, backend, unit)
        results[(i, j)] = (pair["score"], pair["games"])
        pairs_out.append({"first": specs[i], "second": specs[j], **pair})
        if pair["interrupted"]:
            interrupted = True
            break
    ratings, errors = bradley_terry(len(specs), results)
    table: list[dict[str, Any]] = [
        {"spec": s, "timed_spec": t, "rating": r,
         "rating_ci95": [r - Z95 * e, r + Z95 * e] if math.isfinite(e) else None,  # None: no games
         "games": sum(n for (a, b), (_s, n) in results.items() if s in (specs[a], specs[b]))}
        for s, t, r, e in zip(specs, timed, ratings, errors, strict=True)]
    table.sort(key=lambda row: -row["rating"])
    out: dict[str, Any] = {"game": game_name, "variant": variant, "seconds_per_move": seconds, "clock": clock,
                           "deals": deals, "unit": unit,
                           "seed": seed, "specs": list(specs), "ratings": table, "pairs": pairs_out,
                           "prior_games": PRIOR_GAMES}
    if interrupted:
        out["interrupted"] = True
    return out


def format_table(summary: dict[str, Any]) -> str:
    """The ratings and the pairs' scores as plain text."""
    cpu = " of CPU" if summary.get("clock") == "cpu" else ""
    pace = "own budgets" if summary["seconds_per_move"] is None else f"{summary['seconds_per_move']} s{cpu} a move"
    lines = [f"{summary['game']} {summary['variant']}  {pace}  "
             f"{summary['deals']} deals a pair  unit={summary.get('unit', 'hand')}  seed={summary['seed']}"
             + ("  INTERRUPTED" if summary.get("interrupted") else ""),
             f"{'rank':<5} {'agent':<46} {'Elo':>7} {'95% interval':>20} {'games':>7}"]
    for k, row in enumerate(summary["ratings"], start=1):
        interval = "{:>20}".format("no games") if row["rating_ci95"] is None else \
            "[{:>+7.0f}, {:>+7.0f}]".format(*row["rating_ci95"])
        lines.append(f"{k:<5} {row['spec']:<46} {row['rating']:>+7.0f} {interval} {row['games']:>7}")
    lines.append("pairs (score of the first: wins + half the draws, 95% interval from the paired deals):")
    for p in summary["pairs"]:
        lo, hi = p["score_rate_ci95"]
        lines.append(f"  {p['first']} vs {p['second']}: {100 * p['score_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                     f"in {p['games']} games, won {p['won'][0]}-{p['won'][1]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m engine.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--variant", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    parser.add_argument("--agents", nargs="+", metavar="SPEC", required=True)
    pace = parser.add_mutually_exclusive_group(required=True)
    pace.add_argument("--seconds-per-move", type=float, metavar="S", help="every search's time per move")
    pace.add_argument("--own-budgets", action="store_true", help="every SPEC keeps its own budgets")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall",
                        help="what --seconds-per-move counts: wall (elapsed time, default) or cpu (each search's own "
                        "processor time, so the ratings do not depend on other load)")
    parser.add_argument("--deals", type=int, default=20, help="deals per pair and seating (default 20)")
    parser.add_argument("--unit", choices=UNITS, default="hand",
                        help="a game is one hand (default) or a whole match to the variant's target")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: all cores)")
    parser.add_argument("--records", metavar="FILE", help="records file prefix (one arena records file per pair); "
                        "the same command resumes from them")
    parser.add_argument("--json", metavar="PATH", type=cli.output_file)
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    cluster.add_options(parser)
    args = parser.parse_args(argv)
    cluster.check_options(parser, args)
    command = "python -m engine.ladder " + " ".join(sys.argv[1:] if argv is None else argv)
    with arena.StoppableRun(args) as session:
        try:
            variant = registry.parse_variant(args.variant)
            timed_specs(args.game, variant, args.agents, args.seconds_per_move, args.deals,  # before Ray starts
                        args.clock, args.unit)
            summary = run(args.game, variant, args.agents, args.seconds_per_move, args.deals, args.seed,
                          args.jobs, args.records, progress=not args.quiet, backend=session.open_backend(),
                          clock=args.clock, unit=args.unit)
        except GameError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    summary = {"command": command, **summary}
    print(format_table(summary))
    if args.json and not cli.write_json(args.json, summary):
        return 1
    return 130 if summary.get("interrupted") else 0


if __name__ == "__main__":
    sys.exit(main())
