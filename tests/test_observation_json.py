"""Observation.from_dict: a network client rebuilds its seat's observation from JSON for every game."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.observation import Observation


@pytest.mark.parametrize("name", registry.names())
def test_observation_round_trips_through_json_in_every_game(name: str) -> None:
    game = registry.create(name, {})
    rng = random.Random(7)
    state = game.new_hand(random.Random(11))
    checked = 0
    while not state.is_terminal() and checked < 40:
        seat = state.current_player
        obs = state.observation(seat)
        back = Observation.from_dict(game, json.loads(json.dumps(obs.to_dict())))
        assert back == obs
        assert back.legal_moves() == state.legal_moves()
        other = state.observation((seat + 1) % game.num_players)
        assert Observation.from_dict(game, other.to_dict()) == other
        state.apply(rng.choice(state.legal_moves()))
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("bad", [None, [], {"seat": 0}, {"seat": 0, "state": {}, "unknown": 0, "slots": []},
                                 {"seat": 0, "state": {"hands": "x"}, "unknown": 0, "slots": [[1]]}])
def test_malformed_observations_are_refused_with_a_reason(bad: object) -> None:
    game = registry.create("bisca", {})
    with pytest.raises(ValueError, match="malformed bisca observation"):
        Observation.from_dict(game, bad)  # type: ignore[arg-type]


def test_slots_that_do_not_add_up_are_refused() -> None:
    game = registry.create("sueca", {})
    d = game.new_hand(random.Random(1)).observation(0).to_dict()
    d["slots"][0][2] += 1
    with pytest.raises(ValueError, match="slots hold"):
        Observation.from_dict(game, d)
