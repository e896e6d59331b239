"""The one-ply ``greedy`` agents of Sueca, Bisca, Briscola, Hearts and Moss Side Whist: legal moves from the
observation, and their rules checked on positions met in random hands."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.games.hearts.rules import QUEEN_SPADES
from engine.games.tricks.core import PASS_FLAG
from tests.test_search import decision_points

GAMES = ["sueca", "bisca", "briscola", "hearts", "mosssidewhist"]


def positions(name: str, hands: int = 6) -> list:
    game = registry.create(name)
    return [state for seed in range(hands) for state in decision_points(game, seed, 60)]


@pytest.mark.parametrize("name", GAMES)
def test_greedy_plays_legal_moves_in_whole_hands(name: str) -> None:
    game = registry.create(name)
    players = [agents.make("greedy", game) for _ in range(game.num_players)]
    for seed in range(3):
        state = game.new_hand(random.Random(seed))
        while not state.is_terminal():
            seat = state.current_player
            state.apply(players[seat].choose(state.observation(seat), random.Random(0)))  # apply checks legality


def test_hearts_greedy_ducks_and_dumps_the_queen() -> None:
    game = registry.create("hearts")
    bot = agents.make("greedy", game)
    ducked = dumped = 0
    for state in positions("hearts"):
        moves = state.legal_moves()
        if not state.trick or moves[0] & PASS_FLAG:
            continue
        move = bot.choose(state.observation(state.current_player), random.Random(0))
        led = game.suit_of[state.trick[0]]
        key = game.winner_keys(-1)[led]
        best = max(state.trick, key=key.__getitem__)
        following = [m for m in moves if game.suit_of[m] == led]
        below = [m for m in following if key[m] < key[best]]
        if following and below:
            assert move == max(below, key=key.__getitem__)
            ducked += 1
        elif not following and QUEEN_SPADES in moves:
            assert move == QUEEN_SPADES
            dumped += 1
    assert ducked > 0


def test_whist_greedy_wins_as_cheaply_as_it_can_when_following() -> None:
    game = registry.create("mosssidewhist")
    bot = agents.make("greedy", game)
    checked = 0
    for state in positions("mosssidewhist"):
        moves = state.legal_moves()
        if not state.trick or moves[0] & PASS_FLAG:
            continue
        led = game.suit_of[state.trick[0]]
        key = game.winner_keys(state.trump)[led]
        best = max(state.trick, key=key.__getitem__)
        winners = [m for m in moves if game.suit_of[m] == led and key[m] > key[best]]
        if winners:
            move = bot.choose(state.observation(state.current_player), random.Random(0))
            assert move == min(winners, key=key.__getitem__)
            checked += 1
    assert checked > 0
