"""Inference from the plays in Scopa and Scopone (engine.games.scopone.inference): the belief it builds, its
fairness and its use by the search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import agents, registry
from engine.cards import ITALIAN40 as D
from engine.determinize import determinize
from engine.games.scopone.inference import (
    FACTORS,
    KINDS,
    capture_kind,
    measure_factors,
    plays_belief,
    tables_before_moves,
)
from engine.games.scopone.rules import Scopa, ScoponeState
from engine.search import knowledge

HANDS = ("KC AD 3B", "4D 6C JS")
TABLE = "5C 2S"


def opening(hands_text: tuple[str, str] = HANDS, table_text: str = TABLE) -> ScoponeState:
    """A Scopa hand: seat 0 holds KC AD 3B, seat 1 4D 6C JS, the table 5C 2S (unless given), the rest in the
    stock."""
    hands = [D.parse_set(h) for h in hands_text]
    table = D.parse_set(table_text)
    used = hands[0] | hands[1] | table
    stock = [c for c in range(40) if not used >> c & 1]
    random.Random(7).shuffle(stock)
    return ScoponeState(Scopa(), hands, table, 1, stock)


def play(state: ScoponeState, *texts: str) -> None:
    for text in texts:
        state.do(state.parse_move(text))


def hand_row(state: ScoponeState, seat: int, owner: int) -> tuple[np.ndarray, int]:
    """The belief row of ``owner``'s hand slot in ``seat``'s observation, and the cards that slot may hold."""
    obs = state.observation(seat)
    belief = plays_belief(obs)
    (i, slot), = ((i, s) for i, s in enumerate(obs.slots) if s.owner == owner)
    for j, other in enumerate(obs.slots):
        if j != i:  # the stock and every other slot keep the uniform belief
            assert all(belief[j, c] == (1.0 if (other.allowed & obs.unknown) >> c & 1 else 0.0) for c in range(40))
    return belief[i], slot.allowed & obs.unknown


def test_laying_a_card_lowers_the_cards_that_could_have_captured() -> None:
    state = opening()
    play(state, "KC")  # lays the King: a 5 or a 2 would have captured, a 7 would have swept the table
    row, allowed = hand_row(state, 1, 0)
    for c in range(40):
        if not allowed >> c & 1:
            assert row[c] == 0.0
        elif D.rank_of(c) == 6:  # a Seven: 5 + 2 is the whole table
            assert row[c] == pytest.approx(FACTORS["declined sweep"])
        elif D.rank_of(c) in (1, 4):  # a Two or a Five
            assert row[c] == pytest.approx(FACTORS["declined capture"])
        elif D.rank_of(c) == 9:  # another King
            assert row[c] == pytest.approx(FACTORS["same value laid"])
        else:
            assert row[c] == 1.0


def test_each_declined_capture_multiplies_and_a_new_deal_forgets() -> None:
    state = opening()
    play(state, "KC", "4D", "AD")  # the table is 5C 2S KC 4D when seat 0 lays the Ace: the Twos decline again
    row, _ = hand_row(state, 1, 0)
    two = D.parse("2D")
    assert row[two] == pytest.approx(FACTORS["declined capture"] ** 2)
    king = FACTORS["same value laid"] * FACTORS["declined capture"]  # laid, then the Ace declined to take it
    assert row[D.parse("KD")] == pytest.approx(king)
    play(state, "6C", "3B", "JS")  # both hands are empty: the stock deals three new cards each
    assert state.hand_counts == [3, 3]
    row, allowed = hand_row(state, 1, 0)
    assert all(row[c] == 1.0 for c in range(40) if allowed >> c & 1)


def test_a_capture_only_declines_better_captures() -> None:
    state = opening(table_text="5C 2S 7D")
    play(state, "AD")  # the Ace lays: Sevens would take the settebello, Fives and Twos a card
    row, _ = hand_row(state, 1, 0)
    assert row[D.parse("7C")] == pytest.approx(FACTORS["declined settebello"])
    assert row[D.parse("5D")] == pytest.approx(FACTORS["declined capture"])
    assert row[D.parse("AB")] == pytest.approx(FACTORS["same value laid"])
    state = opening(("7S AD 3B", HANDS[1]), "5C 2S 7D")
    play(state, "7Sx7D")  # took the settebello: only a sweep would have been better, and none was possible
    row, allowed = hand_row(state, 1, 0)
    sevens = {D.parse(t) for t in ("7C", "7B")}
    assert all(row[c] == pytest.approx(FACTORS["same value captured"]) for c in sevens)
    assert all(row[c] == 1.0 for c in range(40) if allowed >> c & 1 and c not in sevens)


def test_capture_kinds_rank_sweep_settebello_capture_lay() -> None:
    game = Scopa()
    table = D.parse_set("5C 2S")
    seven = D.parse("7C")
    assert capture_kind(game, table, seven, table, last=False) == KINDS.index("sweep")
    assert capture_kind(game, table, seven, table, last=True) == KINDS.index("capture")
    assert capture_kind(game, table | D.parse_set("7D"), seven, D.parse_set("7D"), last=False) == \
        KINDS.index("settebello")
    assert capture_kind(game, table, D.parse("5D"), D.parse_set("5C"), last=False) == KINDS.index("capture")
    assert capture_kind(game, table, D.parse("KD"), 0, last=False) == KINDS.index("lay")


def test_tables_before_moves_rebuild_the_history() -> None:
    state = opening()
    seen = []
    for text in ("KC", "4D", "AD", "6C"):
        seen.append(state.table)
        play(state, text)
    assert tables_before_moves(state) == seen


@pytest.mark.parametrize("game_name", ["scopa", "scopone"])
def test_the_belief_reads_only_the_observation(game_name: str) -> None:
    game = registry.create(game_name)
    rng = random.Random(5)
    greedy = agents.make("greedy", game)
    for k in range(4):
        state = game.new_hand(random.Random(k))
        for _ in range(5 + k):
            state.do(greedy.choose(state.observation(state.current_player), rng))
        seat = state.current_player
        obs = state.observation(seat)
        other = determinize(obs, random.Random(k)).observation(seat)  # other hidden cards, same public history
        assert np.array_equal(plays_belief(obs), plays_belief(other))


@pytest.mark.parametrize("game_name", ["scopa", "scopone"])
def test_search_with_the_belief_is_legal_and_deterministic(game_name: str) -> None:
    game = registry.create(game_name)
    assert knowledge.bias(game_name, "plays") is plays_belief
    greedy = agents.make("greedy", game)
    state = game.new_hand(random.Random(3))
    rng = random.Random(1)
    for _ in range(7):
        state.do(greedy.choose(state.observation(state.current_player), rng))
    obs = state.observation(state.current_player)
    spec = "ismcts:iterations=60,bias=plays"
    first = agents.make(spec, game).choose(obs, random.Random(9))
    assert first in obs.legal_moves()
    assert agents.make(spec, game).choose(obs, random.Random(9)) == first


def test_measure_factors_finds_the_declined_sweeps_rare() -> None:
    game = registry.create("scopa")
    players = [agents.make("greedy", game), agents.make("greedy", game)]
    factors = measure_factors(game, players, 12, 1)
    assert set(factors) == set(FACTORS)
    assert factors["declined capture"][1] > 0
    assert 0.0 <= factors["declined capture"][0] < 1.0  # Greedy lays only where every capture would give a sweep
    assert factors == measure_factors(game, players, 12, 1)
