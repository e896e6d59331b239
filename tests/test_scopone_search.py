"""Search on Scopone and Scopa: the move handlers of dipalma2014 5.5 (AMH, OMH, OCH, GOH) as SPECs and the
estimate of the match reward at a depth limit."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.bench import first_decision
from engine.cards import ITALIAN40 as D
from engine.game import VariantError
from engine.games.scopone.handlers import one_move_per_card
from engine.games.scopone.players import greedy_best
from engine.games.scopone.rules import Scopone, ScoponeState
from engine.search import knowledge
from engine.search.common import reward_vector
from engine.search.ismcts import run_ismcts

OMH = "ismcts:iterations=200,prune=omh"
OCH = "ismcts:iterations=200,handler=card,resolve=greedy"


def positions(game_name: str, count: int) -> list[ScoponeState]:
    """Opening decisions where some card has two or more captures (so OMH really prunes)."""
    game = registry.create(game_name)
    out = []
    k = 0
    while len(out) < count:
        state = first_decision(game, 3, k)
        moves = state.legal_moves()
        if len(moves) > len({m & 63 for m in moves}):
            out.append(state)
        k += 1
    return out


def test_one_move_per_card_keeps_the_greedy_capture() -> None:
    s = ScoponeState(Scopone(), [D.parse_set("7D 2B KC"), 0, 0, 0], D.parse_set("3C 4S 5B 2C"), 3, [])
    s.current, s.total_plays = 0, 3
    moves = s.legal_moves()
    assert {s.move_text(m) for m in moves} == {"7Dx3C+4S", "7Dx2C+5B", "2Bx2C", "KCx2C+3C+5B"}
    kept = one_move_per_card(s, moves)
    assert [m & 63 for m in kept] == sorted({m & 63 for m in moves})
    seven = [m for m in moves if m & 63 == D.parse("7D")]
    assert greedy_best(seven) in kept and len(kept) == 3


@pytest.mark.parametrize("game_name", ["scopone", "scopa"])
def test_omh_tree_has_one_root_branch_per_card_and_plays_legal_moves(game_name: str) -> None:
    game = registry.create(game_name)
    for k, state in enumerate(positions(game_name, 3)):
        obs = state.observation(state.current_player)
        legal = obs.legal_moves()
        agent = agents.make(OMH, game)
        result, root = run_ismcts(obs, random.Random(k), agent.conf, None)
        keys = list(root.children)
        cards = {m & 63 for m in legal}
        assert len(keys) == len(cards) < len(legal)
        assert {m & 63 for m in keys} == cards
        for key in keys:  # each branch is the Greedy capture of its card
            assert key == greedy_best([m for m in legal if m & 63 == key & 63])
        assert sum(result.visits.values()) == 200
        assert agent.choose(obs, random.Random(k)) in keys


def test_omh_and_och_grow_the_same_tree() -> None:
    """The Greedy capture of a card depends only on the (public) table, so OMH's whole-move keys and OCH's
    card keys label the same tree: same visit counts and the same decision for the same seed."""
    game = registry.create("scopone")
    for k, state in enumerate(positions("scopone", 3)):
        obs = state.observation(state.current_player)
        omh, och = agents.make(OMH, game), agents.make(OCH, game)
        r1, _ = run_ismcts(obs, random.Random(k), omh.conf, None)
        r2, _ = run_ismcts(obs, random.Random(k), och.conf, None)
        assert sorted((key & 63, v) for key, v in r1.visits.items()) == sorted(r2.visits.items())
        assert omh.choose(obs, random.Random(k)) == och.choose(obs, random.Random(k))


def test_card_handler_with_random_captures_and_goh_play_legal_moves() -> None:
    game = registry.create("scopone")
    state = positions("scopone", 1)[0]
    obs = state.observation(state.current_player)
    legal = obs.legal_moves()
    card_random = agents.make("ismcts:iterations=200,handler=card", game)
    _, root = run_ismcts(obs, random.Random(1), card_random.conf, None)
    assert sorted(root.children) == sorted({m & 63 for m in legal})
    for spec in ("ismcts:iterations=200,handler=card", "ismcts:iterations=200,opponents=greedy",
                 "ismcts:iterations=200"):
        assert agents.make(spec, game).choose(obs, random.Random(2)) in legal


def test_unknown_pruner_lists_omh() -> None:
    with pytest.raises(VariantError, match="omh"):
        agents.make("ismcts:prune=nothing", registry.create("scopone"))
    assert knowledge.pruner("scopa", "omh") is one_move_per_card


@pytest.mark.parametrize(("game_name", "variant"),
                         [("scopa", {}), ("scopone", {}), ("scopa", {"scopa_a_perdere": True})])
def test_match_evaluation_of_a_finished_hand_is_its_match_reward(game_name: str, variant: dict[str, object]) -> None:
    game = registry.create(game_name, variant)
    evaluate = knowledge.match_evaluation(game_name)
    assert evaluate is not None
    rng = random.Random(3)
    leads = set()
    for _ in range(30):
        state = game.new_hand(rng)
        while not state.is_terminal():
            state.do(rng.choice(state.legal_moves()))
        for seat in range(game.num_players):
            want = reward_vector("match", state)[seat]
            assert evaluate(state, seat, rng) == pytest.approx(want)
            leads.add(want)
    assert len(leads) > 4  # the sample has wins and losses by several points


def test_match_evaluation_counts_the_sweeps_in_full_and_the_captures_more_as_the_hand_goes_on() -> None:
    game = registry.create("scopa")
    evaluate = knowledge.match_evaluation("scopa")
    assert evaluate is not None
    rng = random.Random(5)
    state = game.new_hand(rng)
    side = state.side_of(0)
    state.captured[side] = D.parse_set("7D 7C 7B 6D")  # settebello, coins and primiera so far
    base = evaluate(state, 0, rng)
    assert base > 0.5
    state.scope[side] += 1
    assert evaluate(state, 0, rng) == pytest.approx(base + 0.5)  # a sweep is a point, whenever it was made
    state.scope[side] -= 1
    state.plays = state.total_plays - 2
    late = evaluate(state, 0, rng)
    assert late > base  # the same captures weigh more when fewer cards can turn them
    assert evaluate(state, 1, rng) == pytest.approx(1.0 - late)
