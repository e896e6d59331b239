"""The counterfactual study: its baseline is the ladder's, each recorded change is what replaying that one
change gives, and it refuses players it cannot study."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.game import GameError
from engine.lab import counterfactual, ladder


def test_baseline_is_the_ladders_pair_score():
    summary = counterfactual.run("bisca", {}, "heuristic", "greedy", ["greedy"], deals=2, seed=5)
    pair = ladder.run("bisca", {}, ["heuristic", "greedy"], None, 2, seed=5, jobs=1)["pairs"][0]
    assert summary["games"] == pair["games"] == 4
    assert summary["score"] == pytest.approx(pair["score_rate"])


@pytest.mark.parametrize("game_name,seating,rotation", [("bisca", 0, 1), ("mosssidewhist", 1, 2)])
def test_a_recorded_change_is_what_replaying_it_gives(game_name, seating, rotation):
    game = registry.create(game_name)
    study = counterfactual.study_game(game_name, game.variant, "heuristic", "greedy", ("greedy",), 3, 0,
                                      seating, rotation)
    changed = [k for k, d in enumerate(study.decisions) if d.differs[0]]
    assert changed, "greedy agrees with the heuristic everywhere in this deal"
    greedy = agents.make("greedy", game)
    for k in (changed[0], changed[-1]):
        players, mine = counterfactual.seat_players(game, "heuristic", "greedy", seating, rotation)
        state = counterfactual.deal_hand(game, 3, 0)
        seen = 0
        while not state.is_terminal():
            seat = state.current_player
            obs = state.observation(seat)
            move = players[seat].choose(obs, random.Random(0))
            if seat in mine and len(state.legal_moves()) > 1:
                if seen == k:
                    move = greedy.choose(obs, random.Random(0))
                seen += 1
            state.do(move)
        score, points = counterfactual.side_score(state, mine)
        decision = study.decisions[k]
        assert score - study.score == pytest.approx(decision.compare_score[0])
        assert points - study.points == pytest.approx(decision.compare_points[0])
        assert decision.best_score >= max(0.0, decision.compare_score[0])


def test_comparing_the_agent_with_itself_changes_nothing():
    summary = counterfactual.run("sueca", {"target": "0"}, "heuristic", "greedy", ["heuristic"], deals=1, seed=2)
    assert summary["rules"]
    for row in summary["rules"]:
        (same,) = row["compare"]
        assert same["differs"] == 0 and same["score_change"] == 0.0 and same["points_change"] == 0.0
        assert row["best_score_change"] >= 0.0


def test_a_player_that_is_not_deterministic_is_refused():
    with pytest.raises(GameError, match="not deterministic"):
        counterfactual.run("bisca", {}, "random", "greedy", ["greedy"], deals=1, seed=0)


def test_the_command_line_fails_at_once_on_bad_input(capsys):
    assert counterfactual.main(["--game", "nosuchgame"]) == 2
    assert "sueca" in capsys.readouterr().err  # the valid games are listed
    assert counterfactual.main(["--game", "bisca", "--agent", "greedy", "--opponent", "greedy"]) == 2
    assert "different" in capsys.readouterr().err
    assert counterfactual.main(["--game", "bisca", "--compare", "cheat"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1


def test_the_report_names_each_rule_and_the_score(capsys):
    assert counterfactual.main(["--game", "bisca", "--deals", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "score of heuristic:" in out and "lead-low" in out and "greedy:" in out
