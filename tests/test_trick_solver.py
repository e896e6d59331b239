"""The int alpha-beta of two-player Bisca and Briscola (``pimc``'s fast path on each sampled deal): the same
values as the generic search at every depth, the same decisions, the variants it leaves to the generic search,
and its stop."""

from __future__ import annotations

import math
import random

import pytest

from engine import agents, registry
from engine.games.tricks.solver import DealSolver, applies
from engine.knowledge import SearchInterrupted
from engine.search import knowledge
from engine.search.pimc import SCORE_WEIGHT, _DealSearch
from engine.search.sampler import DealSampler

VARIANTS = [("briscola", {}), ("bisca", {}), ("bisca", {"hand_size": 3}), ("briscola", {"match": "best3"})]


def sampled_deals(name: str, variant: dict[str, object], count: int, seed: int,
                  played: tuple[int, int] = (0, 38)) -> list[tuple[object, list[int], object]]:
    """``count`` (observation, legal moves, a deal sampled from it) after random openings of ``played`` moves
    (a range)."""
    game = registry.create(name, variant)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_hand(rng)
        for _ in range(rng.randrange(*played)):
            if state.is_terminal():
                break
            state.do(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        obs = state.observation(state.current_player)
        out.append((obs, obs.legal_moves(), DealSampler(obs, None).deal(rng)))
    return out


@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_the_fast_search_gives_the_generic_searchs_values_at_every_depth(name: str,
                                                                         variant: dict[str, object]) -> None:
    evaluate = knowledge.evaluation(name)
    fast = knowledge.playouts(name)
    assert evaluate is not None
    cases = sampled_deals(name, variant, 25, 3)
    stock_empty = mid_trick = 0
    for obs, moves, deal in cases:
        assert applies(deal)
        stock_empty += not deal.stock
        mid_trick += bool(deal.trick)
        for depth in (1, 2, 4, 6):
            generic = _DealSearch(obs.seat, (obs.seat,), evaluate, random.Random(0), math.inf, None, fast)
            want, want_exact = generic.root_values(deal, moves, depth)
            got, got_exact = DealSolver(deal, obs.seat, SCORE_WEIGHT, None).root_values(moves, depth)
            assert got == want and got_exact == want_exact, (deal.to_dict(), depth)
    assert stock_empty and mid_trick  # the sample covers both phases and positions inside a trick


@pytest.mark.parametrize("name", ["briscola", "bisca"])
def test_pimc_makes_the_same_choices_with_and_without_the_fast_path(name: str) -> None:
    game = registry.create(name)
    # Late in the hand (at most 16 cards left) and with no node allowance binding, both search every deal to its
    # end: the values are exact, so the choices must agree.
    spec = "pimc:deals=6,depth=4,nodes=1000000"
    fast, plain = agents.make(spec, game), agents.make(spec, game)
    plain.fast_deals = False
    assert fast.fast_deals
    for i, (obs, _moves, _deal) in enumerate(sampled_deals(name, {}, 12, 5, played=(24, 38))):
        assert fast.choose(obs, random.Random(i)) == plain.choose(obs, random.Random(i))


def test_variants_the_fast_search_does_not_cover_keep_the_generic_search() -> None:
    fast = knowledge.playouts("bisca")
    for variant in ({"trump_exchange": "7"}, {"players": 4}):
        obs, moves, deal = sampled_deals("bisca", variant, 1, 2)[0]
        assert not applies(deal)
        assert fast.deal_search(deal, obs.seat, moves, 3, 1000, SCORE_WEIGHT, None) is None
    obs, moves, deal = sampled_deals("bisca", {"players": 4}, 1, 2)[0]
    assert agents.make("pimc:deals=2,depth=2", registry.create("bisca", {"players": 4})).choose(
        obs, random.Random(1)) in moves


def test_the_fast_search_stops_when_asked() -> None:
    obs, moves, deal = sampled_deals("bisca", {}, 1, 8)[0]
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    with pytest.raises(SearchInterrupted):
        knowledge.playouts("bisca").deal_search(deal, obs.seat, moves, 20, 10**6, SCORE_WEIGHT, stop)
    assert calls
