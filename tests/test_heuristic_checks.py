"""Shared checks for the rule-based agents: legality fuzz, fairness and determinism (helpers; no tests here)."""

from __future__ import annotations

import random
from typing import Any

from engine import agents, registry
from engine.determinize import determinize
from engine.game import Game, GameState


def play_out(game: Game, specs: list[str], seed: int, max_moves: int = 2000,
             check: Any = None) -> GameState:
    """Play one hand with one agent SPEC per seat (cycled); every chosen move must be legal.

    ``check(agent, obs, move)`` is called for every decision of a fair agent.
    """
    rng = random.Random(seed)
    state = game.new_hand(rng)
    players = [agents.make(specs[s % len(specs)], game) for s in range(game.num_players)]
    for _ in range(max_moves):
        if state.is_terminal():
            return state
        seat = state.current_player
        agent = players[seat]
        if agent.fair:
            obs = state.observation(seat)
            move = agent.choose(obs, rng)
            if check is not None:
                check(agent, obs, move)
        else:
            move = agent.choose_full(state.clone(), rng)
        legal = state.legal_moves()
        assert move in legal, f"{agent.spec} chose illegal {state.move_text(move)} in {game.name}"
        state.apply(move)
    raise AssertionError("hand did not end")


def fairness_check(seed: int) -> Any:
    """A ``check`` for :func:`play_out`: the agent's move is the same from a re-dealt equivalent state."""
    rng = random.Random(seed)

    def check(agent: agents.Agent, obs: Any, move: int) -> None:
        if agent.name == "random":
            return
        other = determinize(obs, rng)  # same observation, other hidden cards
        obs2 = other.observation(obs.seat)
        assert obs2 == obs
        fresh = agents.make(agent.spec, obs.game)
        assert fresh.choose(obs2, random.Random(1)) == move

    return check


def games_available(names: list[str]) -> list[str]:
    return [n for n in names if n in registry.available()]
