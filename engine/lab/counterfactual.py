"""What each rule of a rule-based player is worth, deal by deal: the counterfactual study.

    python -m engine.counterfactual --game GAME [--variant KEY=VALUE ...] [--agent SPEC] [--opponent SPEC]
                                    [--compare SPEC ...] [--deals N] [--seed S] [--jobs J] [--json PATH] [--quiet]

For deterministic players (the rule-based agents: the same observation always gets the same move). The agent
plays the opponent on the ladder's games (:mod:`engine.lab.ladder`: its seatings and seat rotations, the same
deals for the same ``--seed``, one hand each). At every decision of the agent with two or more legal moves, each
other legal move is played instead and the hand played out by the same players, so what that one change does to
the agent's score on this deal is exact, not sampled. The decisions are grouped by the rule that made them (the
agent's ``last_rule``, ``-`` for an agent without one), and for each rule the report gives:

* ``decisions``, and for each ``--compare`` player (default: the opponent's SPEC) how often it would have moved
  otherwise and the change in the agent's score per game had its move been played at every such decision, each
  change taken alone (first order: two changes in one hand may add up differently), with a 95% interval over the
  games;
* ``best``: the same for the best alternative in hindsight, a bound no rule reaches (it knows the hidden cards
  and the replies).

A game's score is the ladder's: ``(1 + outcome of the agent - outcome of the opponent) / 2``, the outcome of a
side the mean over its seats, so the study's baseline is the ladder's pair score for the same command.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import agents, registry
from engine.agent import Agent
from engine.game import Game, GameError, GameState
from engine.lab import arena, cli, ladder
from engine.rng import derive_seed

NO_RULE = "-"
"""The rule name of a decision by an agent that does not name its rules."""


@dataclass
class Decision:
    """One decision of the agent: its rule and the change in score / points of each alternative."""

    rule: str
    compare_score: list[float]  # per --compare SPEC: the change had its move been played (0 if the same move)
    compare_points: list[float]
    differs: list[bool]
    best_score: float  # the largest change over every alternative (0 if none is better)


@dataclass
class GameStudy:
    """The decisions of one game (deal, seating, rotation) and the agent's score in it."""

    key: tuple[int, int, int]
    score: float
    points: float
    decisions: list[Decision]


def _move(agent: Agent, state: GameState, rng_seed: int) -> int:
    """The agent's move for the seat to act, checked to be deterministic (a second call with another rng)."""
    obs = state.observation(state.current_player)
    move = agent.choose(obs, random.Random(rng_seed))
    if agent.choose(obs, random.Random(rng_seed + 1)) != move:
        raise GameError(f"{agent.spec} is not deterministic: the counterfactual study needs rule-based players")
    return move


def _finish(state: GameState, players: list[Agent]) -> GameState:
    while not state.is_terminal():
        state.do(players[state.current_player].choose(state.observation(state.current_player), random.Random(0)))
    return state


def seat_players(game: Game, agent_spec: str, opponent_spec: str, seating: int,
                 rotation: int) -> tuple[list[Agent], list[int]]:
    """The players by seat in the ladder's ``seating`` and ``rotation``, and the agent's seats."""
    _suffix, sides = ladder.seatings(game.num_players)[seating]
    specs = [agent_spec if side == 0 else opponent_spec for side in sides]
    arrangement = arena.rotations(specs)[rotation]
    players = [agents.make(specs[a], game) for a in arrangement]
    return players, [s for s in range(game.num_players) if specs[arrangement[s]] == agent_spec]


def deal_hand(game: Game, seed: int, deal: int) -> GameState:
    """The ladder's (and the arena's) deal ``deal`` of ``seed``."""
    return game.new_hand(random.Random(derive_seed(seed, "deal", deal)), dealer=game.num_players - 1)


def side_score(state: GameState, mine: Sequence[int]) -> tuple[float, float]:
    """The agent's game score and point margin (its seats' mean minus the others' mean) at the end of a hand."""
    outcomes, points = state.outcomes(), state.result().points
    others = [s for s in range(len(outcomes)) if s not in mine]
    score = (1.0 + sum(outcomes[s] for s in mine) / len(mine) - sum(outcomes[s] for s in others) / len(others)) / 2
    margin = sum(points[s] for s in mine) / len(mine) - sum(points[s] for s in others) / len(others)
    return score, float(margin)


def study_game(game_name: str, variant: dict[str, Any], agent_spec: str, opponent_spec: str,
               compare: Sequence[str], seed: int, deal: int, seating: int, rotation: int) -> GameStudy:
    """Play one of the ladder's games and measure every alternative at each of the agent's decisions."""
    game = registry.create(game_name, variant)
    players, mine = seat_players(game, agent_spec, opponent_spec, seating, rotation)
    others = [agents.make(spec, game) for spec in compare]
    state = deal_hand(game, seed, deal)
    decisions: list[Decision] = []
    while not state.is_terminal():
        seat = state.current_player
        player = players[seat]
        move = _move(player, state, derive_seed(seed, "agents", deal, rotation))
        moves = state.legal_moves()
        if seat in mine and len(moves) > 1:
            rule = str(getattr(player, "last_rule", "") or NO_RULE)
            value: dict[int, tuple[float, float]] = {}
            for m in moves:
                branch = state.clone()
                branch.do(m)
                value[m] = side_score(_finish(branch, players), mine)
            base = value[move]
            obs = state.observation(seat)
            picks = [other.choose(obs, random.Random(0)) for other in others]
            for other, pick in zip(others, picks, strict=True):
                if pick not in value:
                    raise GameError(f"{other.spec} chose an illegal move {pick!r} at seat {seat}")
            decisions.append(Decision(
                rule, [value[p][0] - base[0] for p in picks], [value[p][1] - base[1] for p in picks],
                [p != move for p in picks], max(v[0] for v in value.values()) - base[0]))
        state.do(move)
    score, points = side_score(state, mine)
    return GameStudy((deal, seating, rotation), score, points, decisions)


def _study_task(args: tuple[Any, ...]) -> GameStudy:
    return study_game(*args)


def _interval(per_deal: Sequence[float]) -> tuple[float, list[float]]:
    n = len(per_deal)
    mean = sum(per_deal) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (n - 1)) if n > 1 else 0.0
    half = arena.Z95 * sd / math.sqrt(n)
    return mean, [mean - half, mean + half]


def summarize(studies: Sequence[GameStudy], compare: Sequence[str]) -> dict[str, Any]:
    """Per rule: decisions, and per compared SPEC and for the best alternative the mean change per game (score in
    [0, 1] units and point margin) with 95% intervals over the deals (a deal's games, all its seatings and
    rotations, averaged first, as the ladder pairs them)."""
    k = len(compare)
    width = 2 * k + 1  # per rule and game: each compared SPEC's score and points changes, then the best's
    rules: dict[str, list[Decision]] = defaultdict(list)
    sums: dict[tuple[int, int, int], dict[str, list[float]]] = {}
    for st in studies:
        game_sums: dict[str, list[float]] = defaultdict(lambda: [0.0] * width)
        for d in st.decisions:
            rules[d.rule].append(d)
            acc = game_sums[d.rule]
            for i in range(k):
                acc[i] += d.compare_score[i]
                acc[k + i] += d.compare_points[i]
            acc[2 * k] += d.best_score
        sums[st.key] = game_sums
    by_deal: dict[int, list[GameStudy]] = defaultdict(list)
    for st in studies:
        by_deal[st.key[0]].append(st)

    def per_deal(rule: str, column: int) -> list[float]:
        zero = [0.0] * width
        return [sum(sums[st.key].get(rule, zero)[column] for st in games) / len(games) for games in by_deal.values()]

    rows = []
    for rule, ds in sorted(rules.items(), key=lambda kv: -len(kv[1])):
        row: dict[str, Any] = {"rule": rule, "decisions": len(ds), "compare": []}
        for i, spec in enumerate(compare):
            s_mean, s_ci = _interval(per_deal(rule, i))
            p_mean, p_ci = _interval(per_deal(rule, k + i))
            row["compare"].append({"spec": spec, "differs": sum(d.differs[i] for d in ds), "score_change": s_mean,
                                   "score_change_ci95": s_ci, "points_change": p_mean, "points_change_ci95": p_ci})
        row["best_score_change"], row["best_score_change_ci95"] = _interval(per_deal(rule, 2 * k))
        rows.append(row)
    mean, ci = _interval([sum(st.score for st in games) / len(games) for games in by_deal.values()])
    return {"games": len(studies), "deals": len(by_deal), "score": mean, "score_ci95": ci, "rules": rows}


def run(game_name: str, variant: dict[str, Any], agent_spec: str, opponent_spec: str, compare: Sequence[str],
        deals: int, seed: int = 0, jobs: int = 1, progress: bool = False) -> dict[str, Any]:
    """The whole study (JSON-ready); the set-up is checked (GameError) before any game is played."""
    game = check_setup(game_name, variant, agent_spec, opponent_spec, compare, deals)
    variant = game.variant
    tasks = []
    for seating, (_suffix, sides) in enumerate(ladder.seatings(game.num_players)):
        specs = [agent_spec if side == 0 else opponent_spec for side in sides]
        for deal in range(deals):
            for rotation in range(len(arena.rotations(specs))):
                tasks.append((game_name, variant, agent_spec, opponent_spec, tuple(compare), seed, deal, seating,
                              rotation))
    studies: list[GameStudy] = []

    def keep(study: GameStudy) -> None:
        studies.append(study)
        if progress and (len(studies) % 10 == 0 or len(studies) == len(tasks)):
            print(f"\r{len(studies)}/{len(tasks)} games", end="", file=sys.stderr, flush=True)

    if jobs == 1 or len(tasks) == 1:
        for t in tasks:
            keep(_study_task(t))
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for study in pool.imap_unordered(_study_task, tasks, chunksize=max(1, min(20, len(tasks) // (jobs * 8)))):
                keep(study)
    if progress:
        print(file=sys.stderr)
    studies.sort(key=lambda st: st.key)  # the summary does not depend on the finishing order
    return {"game": game_name, "variant": variant, "agent": agent_spec, "opponent": opponent_spec,
            "compare": list(compare), "deals": deals, "seed": seed, **summarize(studies, compare)}


def check_setup(game_name: str, variant: dict[str, Any], agent_spec: str, opponent_spec: str,
                compare: Sequence[str], deals: int) -> Game:
    """The game with its variant, after checking every SPEC (fair agents only) and the deals."""
    game = registry.create(game_name, variant)
    if deals < 1:
        raise GameError("--deals must be at least 1")
    if agent_spec == opponent_spec:
        raise GameError("the agent and its opponent must be different SPECs")
    for spec in (agent_spec, opponent_spec, *compare):
        agent = agents.make(spec, game)
        if not agent.fair:
            raise GameError(f"{spec} sees hidden cards: the study compares fair players")
    return game


def format_table(summary: dict[str, Any]) -> str:
    """The report: one line per rule, changes in points of score per 100 games (percentage points)."""
    lo, hi = summary["score_ci95"]
    lines = [f"{summary['game']} {summary['variant']}  {summary['agent']} against {summary['opponent']}  "
             f"{summary['games']} games  seed={summary['seed']}",
             f"score of {summary['agent']}: {100 * summary['score']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
             "change in score (percentage points) had the compared player's move been played at each of the rule's "
             "decisions, each change alone; 'best': the best alternative in hindsight"]
    for row in summary["rules"]:
        parts = [f"{row['rule']:<22} {row['decisions']:>7} decisions"]
        for c in row["compare"]:
            a, b = c["score_change_ci95"]
            parts.append(f"{c['spec']}: {c['differs']} differ, {100 * c['score_change']:+.2f} "
                         f"[{100 * a:+.2f}, {100 * b:+.2f}], points {c['points_change']:+.2f}")
        parts.append(f"best: {100 * row['best_score_change']:+.2f}")
        lines.append("  ".join(parts))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = cli.Parser(prog="python -m engine.counterfactual", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--variant", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    parser.add_argument("--agent", default="heuristic", help="the rule-based player studied (default heuristic)")
    parser.add_argument("--opponent", default="greedy", help="its opponent in the other seats (default greedy)")
    parser.add_argument("--compare", nargs="+", metavar="SPEC",
                        help="players whose move is tried in place of the agent's (default: the opponent)")
    parser.add_argument("--deals", type=cli.positive_int, default=100, help="deals per seating (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=cli.positive_int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", metavar="PATH", type=cli.output_file)
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(argv)
    compare = args.compare or [args.opponent]
    try:
        summary = run(args.game, registry.parse_variant(args.variant), args.agent, args.opponent, compare,
                      args.deals, args.seed, args.jobs, progress=not args.quiet)
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    command = "python -m engine.counterfactual " + " ".join(sys.argv[1:] if argv is None else argv)
    summary = {"command": command, **summary}
    print(format_table(summary))
    if args.json and not cli.write_json(args.json, summary):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
