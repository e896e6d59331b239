"""The arena: AI-vs-AI tournaments with confidence intervals (the research harness).

    python -m engine.arena --game GAME [--variant KEY=VALUE ...] --agents SPEC [SPEC ...] --games N
                           [--seed S] [--jobs J] [--unit hand|match] [--json PATH] [--records PATH]
                           [--backend local|ray] [--address ADDR]

One SPEC per seat, in seat order. Every deal is played once per *distinct rotation* of the agents over
the seats (duplicate deals), so each agent plays every seat on the same cards; ``--games`` is the total
number of games and is rounded up to a whole number of deals. In ``--unit hand`` mode the dealer is the
last seat of every deal (in 4-player partnership games seats 0+2 are the side that leads first); in
``--unit match`` mode whole matches are played to the game's target from seeded deals.

Results are identical for the same seed whatever ``--jobs``: every deal and every agent decision draws
from seeds derived from ``--seed``, the deal index and the rotation.

``--backend ray`` plays every game as a Ray task (:mod:`engine.lab.cluster`, ``pip install .[cluster]``): a
local Ray instance, or with ``--address`` a running cluster (docs/research.md). The results and records are
those of the local processes for the same seed.

``python -m engine.arena --pool RECORDS [RECORDS ...] [--json PATH]`` summarizes the records files of runs that
differ only in their seed as one sample (the pooled rows of docs/results.md), without playing.

``--records PATH`` appends every finished game to a JSON Lines file as soon as it ends (a header line with
the run's parameters, then one line per game: deal, rotation, the agent at each seat, points, outcomes,
moves), for paired per-deal analyses. Run the same command again with the same file and it resumes: the
games already recorded are read back instead of played, so a long run that was stopped continues where it
stopped and ends with the same summary as an uninterrupted run. Ctrl-C, SIGINT or SIGTERM stop a run
cleanly: the games finished so far are summarized (marked ``"interrupted": true``) and kept in the records
file.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import agents, registry
from engine.game import Game, GameError, GameState
from engine.lab import cli, cluster, probes
from engine.match import Match
from engine.rng import derive_seed

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (ties may count as half successes)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends when no observation (or every one) succeeded: the rounding of centre - half is not a bound
    return (0.0 if successes <= 0 else max(0.0, centre - half), 1.0 if successes >= n else min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, tuple[float, float]]:
    """Mean and normal-approximation 95% interval of the mean."""
    n = len(values)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return m, (m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, (m - half, m + half)


def rotations(specs: Sequence[str]) -> list[list[int]]:
    """Distinct assignments of agent indexes to seats obtained by rotating the seat order.

    Rotation ``r`` puts agent ``(seat - r) % n`` at ``seat``; identical arrangements are played once.
    """
    n = len(specs)
    seen: set[tuple[str, ...]] = set()
    out = []
    for r in range(n):
        arrangement = [(seat - r) % n for seat in range(n)]
        key = tuple(specs[i] for i in arrangement)
        if key not in seen:
            seen.add(key)
            out.append(arrangement)
    return out


@dataclass
class GameRecord:
    """One finished game (hand or match) of the arena."""

    deal: int
    rotation: int
    seat_agents: list[int]
    points: list[float]
    outcomes: list[float]  # per seat: 1 win, 0.5 tie/shared, 0 loss
    moves: int
    probes: list[dict[str, Any]] | None = None  # a probed run's per-decision records (engine.lab.probes)


def _seat_outcomes(winners: list[int], teams: list[tuple[int, ...]], n: int) -> list[float]:
    if not winners:
        return [0.5] * n
    out = []
    for seat in range(n):
        team = next((t for t in teams if seat in t), (seat,))
        if seat in winners:
            out.append(1.0 if set(winners) <= set(team) else 0.5)
        else:
            out.append(0.0)
    return out


def play_hand(game: Game, state: GameState, players: list[agents.Agent], rng_seed: int,
              max_moves: int = 100_000, prober: probes.Prober | None = None) -> int:
    """Play one hand to the end with ``players`` (index = seat); returns the number of moves. ``prober`` measures
    the decisions of its seats (the moves are the same)."""
    rng = random.Random(rng_seed)
    moves = 0

    def decide(agent: agents.Agent, seat: int) -> int:
        if agent.fair:
            return agent.choose(state.observation(seat), rng)
        return agent.choose_full(state.clone(), rng)

    while not state.is_terminal():
        seat = state.current_player
        agent = players[seat]
        if prober is not None and seat in prober.seats:
            move = prober.decide(seat, agent, state, lambda: decide(agent, seat))  # noqa: B023 (called at once)
        elif agent.fair:
            move = agent.choose(state.observation(seat), rng)
        else:
            move = agent.choose_full(state.clone(), rng)
        reason = state.illegal_reason(move)
        if reason is not None:
            raise GameError(f"agent {agent.spec} at seat {seat} chose an illegal move {move!r}: {reason}")
        state.do(move)
        moves += 1
        if moves > max_moves:
            raise GameError(f"hand did not end after {max_moves} moves")
    return moves


def play_one(game_name: str, variant: dict[str, Any], specs: list[str], arrangement: list[int], unit: str,
             seed: int, deal: int, rotation: int, probe: str = "", probed: Sequence[str] = ()) -> GameRecord:
    """Play deal ``deal`` with agents arranged by ``arrangement`` (seat -> agent index). With a ``probe`` SPEC
    (:mod:`engine.lab.probes`) the decisions of the ``probed`` SPECs (every seat when empty) are measured into the
    record's ``probes``; the game itself is the same."""
    game = registry.create(game_name, variant)
    players = [agents.make(specs[a], game) for a in arrangement]
    n = game.num_players
    teams = game.teams()
    deal_seed = derive_seed(seed, "deal", deal)
    watch = (probes.prober(probe, game, specs, arrangement, players, probed, derive_seed(seed, "probe", deal, rotation))
             if probe else None)
    log = watch.log if watch is not None else None
    if unit == "hand":
        state = game.new_hand(random.Random(deal_seed), dealer=n - 1)
        moves = play_hand(game, state, players, derive_seed(seed, "agents", deal, rotation), prober=watch)
        result = state.result()
        return GameRecord(deal, rotation, arrangement, [float(p) for p in result.points],
                          _seat_outcomes(result.winners, teams, n), moves, log)
    match = Match.start(game, deal_seed, dealer=n - 1)
    moves = 0
    hand = 0
    while True:
        for p in players:
            p.reset()
        moves += play_hand(game, match.state, players, derive_seed(seed, "agents", deal, rotation, hand),
                           prober=watch)
        match.finish_hand()
        if match.over:
            break
        match.next_hand()
        hand += 1
        if hand > 10_000:
            raise GameError("match did not end after 10000 hands")
    team_of_seat = {s: i for i, t in enumerate(teams) for s in t}
    points = [float(match.totals[team_of_seat[s]]) for s in range(n)]
    return GameRecord(deal, rotation, arrangement, points, _seat_outcomes(match.winner_seats(), teams, n), moves,
                      log)


def _stop_on_signals() -> dict[int, Any]:
    """Make SIGTERM (a batch system's or ``kill``'s stop) and SIGINT (also when a background launch ignored it)
    stop a run as Ctrl-C does: the finished games are summarized and kept. Returns the previous handlers."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous: dict[int, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous[signum] = signal.signal(signum, stop)
    return previous


class StoppableRun:
    """A command-line run's surroundings: SIGTERM and SIGINT stop it as Ctrl-C does (the finished games are kept),
    the backend it plays on (``--backend``, opened by :meth:`open_backend` once the set-up is checked) is closed
    at the end, and the previous signal handlers come back."""

    def __init__(self, args: Any) -> None:
        self.args = args
        self.backend: cluster.RayBackend | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StoppableRun:
        self._previous = _stop_on_signals()
        return self

    def open_backend(self) -> cluster.RayBackend | None:
        """The backend the options ask for (None: the local processes)."""
        self.backend = cluster.open_backend(self.args, play_one)
        return self.backend

    def __exit__(self, *exc: object) -> None:
        if self.backend is not None:
            self.backend.close()
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_task(args: tuple[Any, ...]) -> GameRecord:
    return play_one(*args)


def summarize(records: list[GameRecord], specs: list[str], teams: list[tuple[int, ...]],
              lower_is_better: bool = False) -> dict[str, Any]:
    """Per agent, per seat and per team statistics with 95% intervals. In a game of three or more players
    without partners each agent row also has its mean relative reward R(s,i) of manzke2025 4.2 in points: the
    sum over the other seats of their points minus the seat's (the other way round in a penalty game)."""

    def block(outcomes: list[float], points: list[float]) -> dict[str, Any]:
        n = len(outcomes)
        wins = sum(1 for o in outcomes if o == 1.0)
        ties = sum(1 for o in outcomes if o == 0.5)
        losses = n - wins - ties
        rate = wins / n if n else 0.0
        mean, ci = mean_interval(points)
        return {"games": n, "wins": wins, "ties": ties, "losses": losses, "win_rate": rate,
                "win_rate_ci95": list(wilson_interval(wins, n)),
                # every seat on the best score a winner (fernandes2016 chapter 6's count for Hearts)
                "win_or_tie_rate": (wins + ties) / n if n else 0.0,
                "win_or_tie_rate_ci95": list(wilson_interval(wins + ties, n)),
                "mean_points": mean, "mean_points_ci95": list(ci)}

    n_seats = len(specs)
    team_of_seat = {s: i for i, t in enumerate(teams) for s in t}
    distinct = list(dict.fromkeys(specs))
    solo = n_seats >= 3 and all(len(t) == 1 for t in teams)
    agent_rows = []
    for spec in distinct:
        outcomes: list[float] = []
        points: list[float] = []
        for r in records:
            # One observation per (game, team) the agent occupies: partners count once.
            by_team: dict[int, list[int]] = {}
            for seat in range(n_seats):
                if specs[r.seat_agents[seat]] == spec:
                    by_team.setdefault(team_of_seat[seat], []).append(seat)
            for seats in by_team.values():
                outcomes.append(r.outcomes[seats[0]])
                points.append(sum(r.points[s] for s in seats) / len(seats))
        row = {"spec": spec, "fair": spec_is_fair(spec), **block(outcomes, points)}
        if solo:
            rel = relative_rewards(records, specs, spec, lower_is_better)
            mean, ci = mean_interval(rel)
            row.update(mean_relative=mean, mean_relative_ci95=list(ci))
        agent_rows.append(row)
    seat_rows = [{"seat": s, **block([r.outcomes[s] for r in records], [r.points[s] for r in records])}
                 for s in range(n_seats)]
    team_rows = [{"seats": list(t), **block([r.outcomes[t[0]] for r in records], [r.points[t[0]] for r in records])}
                 for t in teams]
    out: dict[str, Any] = {"agents": agent_rows, "seats": seat_rows, "teams": team_rows}
    if len(distinct) == 2:
        out["paired"] = paired_difference(records, specs, distinct)
    return out


def spec_is_fair(spec: str) -> bool:
    """Whether the SPEC's agent sees only its seat's observation (False for research baselines that cheat)."""
    try:
        return bool(agents.agent_class(agents.parse_spec(spec)[0]).fair)
    except GameError:
        return True  # an unknown name never got this far; records from elsewhere are shown as they are


def relative_rewards(records: list[GameRecord], specs: list[str], spec: str, lower_is_better: bool) -> list[float]:
    """R(s,i) in points of every seat ``spec`` held (manzke2025 4.2): the sum over the other seats of their points
    minus the seat's, negated in a penalty game so that more is better either way."""
    sign = -1.0 if lower_is_better else 1.0
    out = []
    for r in records:
        n = len(r.points)
        total = sum(r.points)
        for seat in range(n):
            if specs[r.seat_agents[seat]] == spec:
                out.append(sign * (n * r.points[seat] - total))
    return out


def paired_difference(records: list[GameRecord], specs: list[str], pair: list[str]) -> dict[str, Any]:
    """``pair[0]`` minus ``pair[1]`` on the same deals: per game, the mean outcome (and points) of the seats
    each holds; per deal, the mean over its rotations; then the mean over deals with a normal 95% interval.
    Every agent plays every seat of a deal, so the luck of the cards cancels deal by deal."""
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for r in records:
        held = [[s for s, a in enumerate(r.seat_agents) if specs[a] == spec] for spec in pair]
        if not held[0] or not held[1]:
            continue
        outcome = [sum(r.outcomes[s] for s in seats) / len(seats) for seats in held]
        points = [sum(r.points[s] for s in seats) / len(seats) for seats in held]
        by_deal.setdefault(r.deal, []).append((outcome[0] - outcome[1], points[0] - points[1]))
    per_deal = [(sum(o for o, _p in v) / len(v), sum(p for _o, p in v) / len(v)) for v in by_deal.values()]
    outcome_mean, outcome_ci = mean_interval([o for o, _p in per_deal])
    points_mean, points_ci = mean_interval([p for _o, p in per_deal])
    return {"first": pair[0], "second": pair[1], "deals": len(per_deal),
            "outcome_difference": outcome_mean, "outcome_difference_ci95": list(outcome_ci),
            "points_difference": points_mean, "points_difference_ci95": list(points_ci)}


RECORDS_VERSION = 1


def read_records(path: str) -> tuple[dict[str, Any], list[GameRecord], list[str], bool]:
    """A records file's header, its games, its complete lines and whether a last line was cut off mid-write
    (that line is not read). Raises GameError, naming the line, on anything else that is not a record."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise GameError(f"cannot read the records file {path}: {e.strerror or e}") from e
    except UnicodeDecodeError:
        raise GameError(f"{path} is not a text file, so not an arena records file; give --records a new path "
                        "or --pool records files") from None
    lines = text.split("\n")
    complete = lines[:-1]  # a last line without its newline was cut off mid-write
    try:
        header = json.loads(complete[0]) if complete else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("arena_records") != RECORDS_VERSION:
        raise GameError(f"{path} is not an arena records file (version {RECORDS_VERSION}); "
                        "give --records a new path")
    records = []
    for n, line in enumerate(complete[1:], start=2):
        try:
            d = json.loads(line)
            probed = d.get("probes")
            if probed is not None and not (isinstance(probed, list) and all(isinstance(p, dict) for p in probed)):
                raise ValueError("'probes' is not a list of decision records")
            records.append(GameRecord(int(d["deal"]), int(d["rotation"]), [int(a) for a in d["seat_agents"]],
                                      [float(p) for p in d["points"]], [float(o) for o in d["outcomes"]],
                                      int(d["moves"]), probed))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise GameError(f"{path} line {n} is not a game record ({e}); the file is left as it is") from e
    return header, records, complete, bool(lines[-1])


POOL_DEAL_STRIDE = 1_000_000_000
"""Deal numbers of the k-th pooled file are shifted by k times this, so different runs' deals stay apart."""


def pool_records(paths: Sequence[str]) -> dict[str, Any]:
    """One summary of the games in several records files of the same set-up (game, variant, agents, unit)
    played with different seeds, as if one run: the pooled sample of the docs' tables. Deals of different
    files are different deals in the paired difference."""
    if not paths:
        raise GameError("give one or more records files to pool")
    first: dict[str, Any] | None = None
    seeds: list[Any] = []
    records: list[GameRecord] = []
    for k, path in enumerate(paths):
        header, recs, _complete, _cut = read_records(path)
        if first is None:
            first = header
        else:
            diff = sorted(key for key in set(header) | set(first)
                          if key != "seed" and header.get(key) != first.get(key))
            if diff:
                raise GameError(f"{path} is another set-up than {paths[0]} (differs in: {', '.join(diff)}); "
                                "only runs that differ in their seed can be pooled")
        if header.get("seed") in seeds:
            raise GameError(f"{path} repeats seed {header.get('seed')}: the same deals would count twice")
        seeds.append(header.get("seed"))
        for r in recs:
            r.deal += k * POOL_DEAL_STRIDE
        records.extend(recs)
    assert first is not None
    if not records:
        raise GameError("the records files hold no finished game")
    game = registry.create(first["game"], first["variant"])
    specs = list(first["specs"])
    return {"game": first["game"], "variant": game.variant, "unit": first["unit"], "games": len(records),
            "seed": "+".join(str(s) for s in seeds), "seeds": seeds, "files": list(paths), "specs": specs,
            **summarize(records, specs, game.teams(), game.lower_is_better()),
            "mean_moves": sum(r.moves for r in records) / len(records)}


class RecordsFile:
    """The ``--records`` JSON Lines file of one run: header, then one finished game per line."""

    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.path = path
        self.header = {"arena_records": RECORDS_VERSION, **header}
        self.done: dict[tuple[int, int], GameRecord] = {}
        if os.path.exists(path) and os.path.getsize(path) > 0:
            self._load()
        else:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(json.dumps(self.header) + "\n")
            except OSError as e:
                raise GameError(f"cannot write the records file {path}: {e.strerror or e}") from e

    def _load(self) -> None:
        path = self.path
        header, records, complete, cut = read_records(path)
        if header != self.header:
            diff = sorted(k for k in set(header) | set(self.header) if header.get(k) != self.header.get(k))
            raise GameError(f"{path} records a different run (differs in: {', '.join(diff)}); give --records "
                            "a new path or repeat that run's command")
        for rec in records:
            self.done[(rec.deal, rec.rotation)] = rec
        if cut:  # cut off mid-write: rewrite the file without the partial line
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(complete) + "\n")

    def append(self, rec: GameRecord) -> None:
        """Add one finished game (written and flushed at once)."""
        line: dict[str, Any] = {"deal": rec.deal, "rotation": rec.rotation, "seat_agents": rec.seat_agents,
                                "points": rec.points, "outcomes": rec.outcomes, "moves": rec.moves}
        if rec.probes is not None:
            line["probes"] = rec.probes
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def check_setup(game_name: str, variant: dict[str, Any], specs: Sequence[str], unit: str = "hand") -> Game:
    """The game of a run, after checking (GameError with a clear message) that the SPECs fill its seats and
    exist and that the unit is valid: done before any game is played or any backend started."""
    game = registry.create(game_name, variant)
    if len(specs) != game.num_players:
        raise GameError(f"{game_name} with this variant has {game.num_players} seats: give {game.num_players} "
                        f"agent SPECs (got {len(specs)})")
    for spec in specs:
        agents.make(spec, game)
    if unit not in ("hand", "match"):
        raise GameError(f"--unit must be 'hand' or 'match', not {unit!r}")
    return game


Backend = Callable[[list[tuple[Any, ...]], Callable[[GameRecord], None]], None]
"""Plays a list of :func:`play_one` argument tuples, handing each finished game to the callback as soon as it
ends (in any order); the summary does not depend on that order."""


def records_header(game_name: str, variant: dict[str, Any], specs: Sequence[str], seed: int, unit: str,
                   probe: str = "", probed: Sequence[str] = ()) -> dict[str, Any]:
    """The header of a run's records file (without the version); a probed run also names its probe."""
    header = {"game": game_name, "variant": variant, "specs": list(specs), "seed": seed, "unit": unit}
    if probe:
        header.update(probe=probe, probed=list(probed))
    return header


def run(game_name: str, variant: dict[str, Any], specs: list[str], games: int, seed: int = 0, jobs: int = 0,
        unit: str = "hand", progress: bool = False, records_path: str | None = None,
        backend: Backend | None = None, probe: str = "", probed: Sequence[str] = ()) -> dict[str, Any]:
    """Run a tournament and return the JSON-ready summary. With ``records_path`` every finished game is
    appended to that file and the games it already holds are not played again (resume). ``backend``, if
    given, plays the games instead of the local processes (e.g. :class:`engine.lab.cluster.RayBackend`).
    ``probe`` measures the decisions of the ``probed`` SPECs (:func:`play_one`); the records keep them."""
    game = check_setup(game_name, variant, specs, unit)
    if probe:
        probes.check(probe, game, specs, probed)
    variant = game.variant
    arrangements = rotations(specs)
    deals = max(1, math.ceil(games / len(arrangements)))
    extra: tuple[Any, ...] = (probe, tuple(probed)) if probe else ()
    tasks = [(game_name, variant, specs, arr, unit, seed, d, r, *extra)
             for d in range(deals) for r, arr in enumerate(arrangements)]
    book = None
    if records_path:
        book = RecordsFile(records_path, records_header(game_name, variant, specs, seed, unit, probe, probed))
    finished = book.done if book is not None else {}
    records = [finished[(t[6], t[7])] for t in tasks if (t[6], t[7]) in finished]
    todo = [t for t in tasks if (t[6], t[7]) not in finished]
    jobs = jobs or os.cpu_count() or 1
    started = time.time()
    resumed = len(records)

    def report(done: int) -> None:
        if progress:
            rate = (done - resumed) / max(1e-9, time.time() - started)
            print(f"\r{done}/{len(tasks)} games  {rate:.1f}/s", end="", file=sys.stderr, flush=True)

    def keep(rec: GameRecord) -> None:
        records.append(rec)
        if book is not None:
            book.append(rec)
        if len(records) % 10 == 0 or len(records) == len(tasks):
            report(len(records))

    interrupted = False
    try:
        if backend is not None:
            backend(todo, keep)
        elif jobs == 1 or len(todo) <= 1:
            for t in todo:
                keep(_play_task(t))
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(jobs, initializer=_ignore_interrupts) as pool:  # Ctrl-C is the parent's to handle
                # With a records file every game is written as soon as it ends (one task at a time); the
                # summary sorts the records, so the finishing order does not matter.
                chunk = 1 if book is not None else max(1, min(50, len(todo) // (jobs * 8)))
                for rec in pool.imap_unordered(_play_task, todo, chunksize=chunk):
                    keep(rec)
    except KeyboardInterrupt:
        interrupted = True
    if progress:
        print(file=sys.stderr)
    if not records:
        raise GameError("interrupted before any game finished: nothing to summarize")
    order = {(t[6], t[7]): i for i, t in enumerate(tasks)}
    records.sort(key=lambda r: order[(r.deal, r.rotation)])  # the summary does not depend on finishing order
    out: dict[str, Any] = {"game": game_name, "variant": variant, "unit": unit, "games": len(records),
                           "deals": deals, "rotations": len(arrangements), "seed": seed, "specs": specs,
                           **summarize(records, specs, game.teams(), game.lower_is_better()),
                           "mean_moves": sum(r.moves for r in records) / len(records),
                           "seconds": round(time.time() - started, 3)}
    if resumed:
        out["resumed_games"] = resumed
    if interrupted:
        out["interrupted"] = True
        out["planned_games"] = len(tasks)
    return out


def format_table(summary: dict[str, Any]) -> str:
    """A plain-text table of the summary."""

    def row(label: str, d: dict[str, Any]) -> str:
        lo, hi = d["win_rate_ci95"]
        plo, phi = d["mean_points_ci95"]
        return (f"{label:<34} {d['games']:>7} {d['wins']:>7} {d['ties']:>6} {d['losses']:>7} "
                f"{100 * d['win_rate']:>6.2f}% [{100 * lo:5.2f},{100 * hi:6.2f}] "
                f"{d['mean_points']:>8.2f} [{plo:.2f}, {phi:.2f}]")

    head = (f"{'':<34} {'games':>7} {'wins':>7} {'ties':>6} {'losses':>7} {'win rate [95% CI]':>24} "
            f"{'mean points [95% CI]':>24}")
    lines = [f"{summary['game']} {summary['variant']}  unit={summary['unit']}  games={summary['games']} "
             f"seed={summary['seed']}"
             + (f"  INTERRUPTED after {summary['games']} of {summary['planned_games']} games"
                if summary.get("interrupted") else ""), head]
    lines += [row(f"agent {a['spec']}" + ("" if a.get("fair", True) else " [CHEATING: sees every card]"), a)
              for a in summary["agents"]]
    for a in summary["agents"]:
        if "mean_relative" in a:
            lo, hi = a["mean_relative_ci95"]
            lines.append(f"relative reward R(s,i) of {a['spec']}: {a['mean_relative']:+.2f} [{lo:+.2f}, {hi:+.2f}] "
                         "points a hand (manzke2025 4.2)")
    lines += [row(f"seat {s['seat']}", s) for s in summary["seats"]]
    if any(len(t["seats"]) > 1 for t in summary["teams"]):
        lines += [row(f"team {'+'.join(map(str, t['seats']))}", t) for t in summary["teams"]]
    paired = summary.get("paired")
    if paired:
        olo, ohi = paired["outcome_difference_ci95"]
        plo, phi = paired["points_difference_ci95"]
        lines.append(f"paired over {paired['deals']} deals, first agent minus second: outcome "
                     f"{paired['outcome_difference']:+.3f} [{olo:+.3f}, {ohi:+.3f}], points "
                     f"{paired['points_difference']:+.2f} [{plo:+.2f}, {phi:+.2f}]")
    return "\n".join(lines)


def list_games() -> str:
    lines = []
    for name in registry.names():
        try:
            d = registry.describe(name)
        except ImportError as e:
            lines.append(f"{name}: not available ({e})")
            continue
        lines.append(f"{name} - {d['title']} ({d['deck']} deck)")
        for o in d["options"]:
            allowed = (f" choices: {', '.join(map(str, o['choices']))}" if "choices" in o
                       else f" range: {o.get('min')}..{o.get('max')}" if "min" in o or "max" in o else "")
            lines.append(f"    {o['name']:<22} {o['type']:<5} default {o['default']!r:<18}{allowed}  - {o['help']}")
    return "\n".join(lines)


def list_agents() -> str:
    lines = []
    for name in agents.names():
        try:
            d = agents.describe(name)
        except GameError as e:
            lines.append(f"{name}: not available ({e})")
            continue
        fair = "" if d["fair"] else "  [NOT FAIR: research baseline]"
        games = d["games"] if d["games"] == "all" else ", ".join(d["games"])
        lines.append(f"{name} - {d['description']} (games: {games}){fair}")
        for p in d["params"]:
            allowed = f" choices: {', '.join(map(str, p['choices']))}" if "choices" in p else ""
            lines.append(f"    {p['name']:<18} {p['type']:<5} default {p['default']!r:<12}{allowed}  - {p['help']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m engine.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game")
    parser.add_argument("--variant", nargs="*", action="extend", default=[], metavar="KEY=VALUE",
                        help="variant options; repeat the flag or list several pairs")
    parser.add_argument("--agents", nargs="+", metavar="SPEC")
    parser.add_argument("--games", type=cli.positive_int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=cli.jobs, default=0, help="worker processes (default: all cores)")
    parser.add_argument("--unit", choices=("hand", "match"), default="hand")
    parser.add_argument("--json", metavar="PATH", type=cli.output_file)
    parser.add_argument("--records", metavar="PATH", type=cli.output_file,
                        help="append every finished game to this JSON Lines file; an existing file of the same "
                             "run is resumed")
    parser.add_argument("--pool", nargs="+", metavar="RECORDS",
                        help="summarize the records files of runs that differ only in their seed as one sample "
                             "(nothing is played)")
    parser.add_argument("--list-games", action="store_true")
    parser.add_argument("--list-agents", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    cluster.add_options(parser)
    args = parser.parse_args(argv)
    cluster.check_options(parser, args)
    if args.list_games:
        print(list_games())
        return 0
    if args.list_agents:
        print(list_agents())
        return 0
    if args.pool:
        try:
            pooled = {"command": "python -m engine.arena " + " ".join(sys.argv[1:] if argv is None else argv),
                      **pool_records(args.pool)}
        except GameError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(format_table(pooled))
        if args.json and not cli.write_json(args.json, pooled):
            return 1
        return 0
    if not args.game or not args.agents:
        parser.error("--game and --agents are required (or use --list-games / --list-agents)")
    command = "python -m engine.arena " + " ".join(sys.argv[1:] if argv is None else argv)
    with StoppableRun(args) as session:
        try:
            variant = registry.parse_variant(args.variant)
            check_setup(args.game, variant, args.agents, args.unit)  # a bad set-up fails before Ray starts
            summary = run(args.game, variant, args.agents, args.games, args.seed, args.jobs, args.unit,
                          progress=not args.quiet, records_path=args.records, backend=session.open_backend())
        except GameError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    summary = {"command": command, **summary}
    print(format_table(summary))
    if args.json and not cli.write_json(args.json, summary):
        return 1
    if summary.get("interrupted"):
        again = f"; run the same command to resume from {args.records}" if args.records else ""
        print(f"interrupted: {summary['games']} of {summary['planned_games']} games summarized{again}",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
