"""ISMCTS makes exactly the recorded choices: ``tests/data/ismcts_choices.json`` holds (game, SPEC, position,
true state) -> move as computed by an earlier build of the search, covering every reward, the simulation
kinds (random, NAST, game policies and rollouts), transpositions, fixed determinizations, beam search, move
handlers and resolvers, pruning, biased deals and root parallelization. A refactoring of the search that
changes a single random draw changes these moves."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import agents, registry
from engine.rng import derive_seed

CASES = json.loads((Path(__file__).parent / "data" / "ismcts_choices.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[f"{c['game']}-{c['spec']}-{c['position']}" for c in CASES])
def test_the_search_makes_the_recorded_choice(case: dict) -> None:
    game = registry.create(case["game"])
    state = game.state_from_json(case["state"])
    agent = agents.make(case["spec"], game)
    rng = random.Random(derive_seed(7, "agent", case["position"]))
    assert agent.choose(state.observation(state.current_player), rng) == case["move"]
