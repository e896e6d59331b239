"""Greedy simulation policies of the point-trick games: each rule in a position, legality, use in the search."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.game import VariantError
from engine.games.tricks.greedy import egreedy_move, greedy_move
from engine.search import knowledge
from tests.test_heuristic import sueca_position
from tests.test_search import assert_decides_from_observation

POINT_GAMES = ["sueca", "bisca", "briscola"]


def text(state, move: int) -> str:
    return state.move_text(move)


def test_leads_the_cheapest_plain_card():
    # Seat 0 leads holding the A and 2 of spades, the 3 of hearts (trumps) and the K of clubs.
    st = sueca_position(["AS 2S 3H KC", "4S 5S 6S 7S", "4C 5C 6C 7C", "4D 5D 6D 7D"], [], 0, trump="H")
    assert text(st, greedy_move(st, random.Random(1))) == "2S"


def test_wins_with_the_cheapest_plain_winner():
    # Seat 1 must follow spades: the K and the A both beat the 5; the K is the cheaper winner.
    st = sueca_position(["2C", "KS AS 2S", "4C", "4D"], ["5S"], 0, trump="H")
    assert text(st, greedy_move(st, random.Random(1))) == "KS"


def test_trumps_only_a_trick_worth_it():
    # Seat 1 is void in spades and holds a trump and a plain card.
    cheap = sueca_position(["2C", "2H 3D", "4C", "4D"], ["5S"], 0, trump="H")
    assert text(cheap, greedy_move(cheap, random.Random(1))) == "3D"  # 0 points on the table: throw
    rich = sueca_position(["2C", "2H 3D", "4C", "4D"], ["AS"], 0, trump="H")
    assert text(rich, greedy_move(rich, random.Random(1))) == "2H"  # 11 points: trump it


def test_loads_points_when_the_partner_wins():
    # Seat 2's partner (seat 0) leads the A of spades; seat 1 followed low. Seat 2 is void in spades.
    st = sueca_position(["2C", "4C", "7D 2D AH", "4D"], ["AS", "3S"], 0, trump="H")
    assert text(st, greedy_move(st, random.Random(1))) == "7D"  # the most points that are not trumps


def test_throws_low_when_it_cannot_win():
    st = sueca_position(["2C", "2S 7S KD", "4C", "4D"], ["AS"], 0, trump="H")
    assert text(st, greedy_move(st, random.Random(1))) == "2S"


@pytest.mark.parametrize("name", POINT_GAMES)
@pytest.mark.parametrize("policy", ["greedy", "egreedy"])
def test_policies_play_legal_moves_in_every_example_variant(name, policy):
    fn = knowledge.policy(name, policy)
    cls = registry.game_class(name)
    rng = random.Random(7)
    for variant in cls.example_variants:
        game = registry.create(name, variant)
        for _ in range(3):
            state = game.new_hand(rng)
            while not state.is_terminal():
                moves = state.legal_moves()
                move = fn(state, rng)
                assert move in moves
                state.do(move)


def test_egreedy_mixes_in_random_moves():
    """egreedy differs from greedy on some positions (its random moves) and agrees on most."""
    game = registry.create("briscola")
    rng = random.Random(3)
    same = differ = 0
    for _ in range(40):
        state = game.new_hand(rng)
        while not state.is_terminal():
            moves = state.legal_moves()
            if len(moves) > 1:
                if egreedy_move(state, random.Random(rng.random())) == greedy_move(state, rng):
                    same += 1
                else:
                    differ += 1
            state.do(moves[0])
    assert differ > 0 and same > 3 * differ


@pytest.mark.parametrize("name", POINT_GAMES)
def test_search_with_greedy_playouts_is_seeded_and_legal(name):
    game = registry.create(name)
    state = game.new_hand(random.Random(5))
    obs = state.observation(state.current_player)
    agent = agents.make("ismcts:iterations=60,sim=egreedy", game)
    first = agent.choose(obs, random.Random(9))
    assert first in state.legal_moves()
    assert agents.make("ismcts:iterations=60,sim=egreedy", game).choose(obs, random.Random(9)) == first


def test_unknown_simulation_lists_the_greedy_policies():
    game = registry.create("briscola")
    with pytest.raises(VariantError) as err:
        agents.make("ismcts:iterations=10,sim=nosuch", game)
    assert "egreedy" in str(err.value) and "greedy" in str(err.value)


@pytest.mark.parametrize("name", POINT_GAMES)
def test_greedy_playout_search_is_fair(name):
    """With greedy playouts the search still decides from the observation only."""
    assert_decides_from_observation(name, ["ismcts:iterations=24,sim=egreedy"], seed=13)
