"""Agent options for the published experiments: the raw score-difference reward, the epsilon-greedy simulation
over a policy (``sim_epsilon``), the cheating agent with simulation policies and move handlers, ISMCTS with a
game's decision rule (Moss Side Whist DLS discards) and Pharaoh's BTSH backtracking."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import agents, registry
from engine.game import Game, HandResult, VariantError
from engine.games.mosssidewhist.players import whist_dls_discards
from engine.games.tricks.core import PASS_FLAG
from engine.search import knowledge
from engine.search.cheat import hands_shown, trumps_shown
from engine.search.common import reward_function, reward_vector
from engine.search.ismcts import run_ismcts
from engine.search.sampler import DealSampler


class _Finished:
    """A stand-in for a finished state: only ``result()`` and ``game.name`` are read."""

    def __init__(self, game: str, res: HandResult) -> None:
        self.game = registry.create(game)
        self._res = res

    def result(self) -> HandResult:
        return self._res


def _result(team_points: list[float], teams: list[tuple[int, ...]], low: bool) -> HandResult:
    points = [0.0] * sum(len(t) for t in teams)
    for team, p in zip(teams, team_points, strict=True):
        for s in team:
            points[s] = p
    return HandResult(points=points, teams=teams, team_points=team_points, winners=[], lower_is_better=low)


def test_diff_reward_is_the_raw_point_difference() -> None:
    fake = _Finished("scopone", _result([9.0, 4.0], [(0, 2), (1, 3)], False))
    assert reward_vector("diff", fake) == [5.0, -5.0, 5.0, -5.0]  # type: ignore[arg-type]
    assert reward_vector("sd", fake) != reward_vector("diff", fake)  # type: ignore[arg-type]
    hearts = _Finished("hearts", _result([0.0, 6.0, 13.0, 7.0], [(0,), (1,), (2,), (3,)], True))
    assert reward_vector("diff", hearts) == [6.0, -6.0, -13.0, -7.0]  # type: ignore[arg-type]


def test_diff_reward_is_what_the_search_backs_up() -> None:
    game = registry.create("scopone", {"target": 0})
    state = game.new_hand(random.Random(2))
    rng = random.Random(3)
    while not state.is_terminal():
        state.do(rng.choice(state.legal_moves()))
    res = state.result()
    a, b = res.team_points
    fn = knowledge.playouts(game.name)
    assert reward_function("diff", game.name, fn)(state) == [a - b, b - a, a - b, b - a]


def _root(spec: str, seed: int = 1) -> dict:
    game = registry.create("scopone", {"target": 0})
    state = game.new_hand(random.Random(7))
    agent = agents.make(spec, game)
    obs = state.observation(state.current_player)
    result, _root = run_ismcts(obs, random.Random(seed), agent.conf, None)
    return result.visits


def test_sim_epsilon_over_greedy_is_the_scopone_epsilon_greedy_policy() -> None:
    base = "ismcts:iterations=150,reward=diff,c=2,sim="
    assert _root(base + "greedy,sim_epsilon=0.3") == _root(base + "egreedy")  # the same draws: the same search
    assert _root(base + "greedy,sim_epsilon=0.3") == _root(base + "greedy,sim_epsilon=0.3")
    assert _root(base + "greedy,sim_epsilon=0.3") != _root(base + "greedy,sim_epsilon=0.9")
    assert _root(base + "greedy,sim_epsilon=0.3") != _root(base + "greedy")


@pytest.mark.parametrize(("spec", "listed"), [
    ("cheat:sim=foo", "greedy"), ("cheat:handler=foo", "card"), ("cheat:resolve=greedy", "handler"),
    ("cheat:opponents=foo", "greedy"), ("cheat:prune=foo", "omh"), ("cheat:sim_epsilon=0.3", "egreedy"),
    ("ismcts:sim_epsilon=0.3", "egreedy"), ("ismcts:reward=raw", "diff"), ("cheat:sim=nast", "nast"),
    ("cheat:sim=greedy,shared=full", "plain UCT"), ("cheat:beam_limit=50", "beam_width"),
    ("cheat:beam_width=2,shared=full", "plain UCT")])
def test_unknown_or_unusable_values_are_refused_with_the_valid_ones(spec: str, listed: str) -> None:
    with pytest.raises(VariantError, match=listed):
        agents.make(spec, registry.create("scopone", {"target": 0}))


CHEAT_SPECS = ["cheat:iterations=40,sim=greedy,sim_epsilon=0.3,reward=diff,c=2",
               "cheat:iterations=40,handler=card,resolve=greedy", "cheat:iterations=40,opponents=greedy",
               "cheat:iterations=40,prune=omh,sim=cardrandom", "cheat:iterations=40,beam_width=2,beam_limit=10"]


@pytest.mark.parametrize("spec", CHEAT_SPECS)
def test_cheat_with_knowledge_plays_legal_moves_deterministically(spec: str) -> None:
    game = registry.create("scopone", {"target": 0})
    assert _cheat_against_random(spec, game, 4) == _cheat_against_random(spec, game, 4)


def _cheat_against_random(spec: str, game: Game, seed: int) -> list[int]:
    """The moves of one hand: the cheating agent in the even seats, uniformly random moves in the others; every
    move checked legal."""
    agent = agents.make(spec, game)
    state = game.new_hand(random.Random(seed))
    rng = random.Random(seed)
    moves = []
    while not state.is_terminal():
        m = agent.choose_full(state.clone(), rng) if state.current_player % 2 == 0 \
            else rng.choice(state.legal_moves())
        assert m in state.legal_moves()
        moves.append(m)
        state.do(m)
    return moves


def _cheat_search(spec: str) -> tuple[Any, Any]:
    """The cheating agent's search (result, root) of one Scopone position, on the true state."""
    game = registry.create("scopone", {"target": 0})
    state = game.new_hand(random.Random(11))
    agent = agents.make(spec, game)
    return run_ismcts(state.observation(state.current_player), random.Random(1), agent.conf, None,
                      deal=state.clone)


def _cheat_root(spec: str) -> dict:
    return _cheat_search(spec)[0].visits


def test_cheat_options_change_the_search() -> None:
    plain = _cheat_root("cheat:iterations=200,sim=cardrandom")
    assert plain != _cheat_root("cheat:iterations=200,sim=greedy")
    assert plain != _cheat_root("cheat:iterations=200,sim=cardrandom,opponents=greedy")
    game = registry.create("scopone", {"target": 0})
    state = game.new_hand(random.Random(11))
    handler = knowledge.move_handler("scopone", "card")
    cards = {handler(state, m) for m in state.legal_moves()}
    assert set(_cheat_root("cheat:iterations=200,handler=card")) == cards  # one branch per card
    # the cheating search sees the true state: every root move's statistics come from it alone
    assert sum(_cheat_root("cheat:iterations=200,sim=greedy").values()) == 200


def test_cheat_beam_search_keeps_at_most_width_nodes_per_pruned_depth() -> None:
    """As in ISMCTS (kassak2023 4.4): after k x beam_limit iterations depth k of the true state's tree keeps at most
    beam_width nodes."""
    assert agents.make("cheat:beam_width=2", registry.create("scopone", {"target": 0})).with_knowledge
    _result, root = _cheat_search("cheat:iterations=300,beam_width=2,beam_limit=100")
    level = [root]
    for depth in range(1, 4):  # pruned after 100, 200 and 300 iterations
        level = [ch for n in level for ch in n.children.values()]
        assert 1 <= len(level) <= 2, depth
    assert len(_cheat_search("cheat:iterations=300,sim=random")[1].children) > 2


def test_cheat_without_knowledge_options_is_still_plain_uct() -> None:
    game = registry.create("scopone", {"target": 0})
    assert not agents.make("cheat:iterations=10", game).with_knowledge
    assert agents.make("cheat:iterations=10,sim=greedy", game).with_knowledge


def _leader_discards(spec: str, seed: int) -> list[int]:
    game = registry.create("mosssidewhist")
    state = game.new_hand(random.Random(seed))
    agent = agents.make(spec, game)
    rng = random.Random(seed)
    moves = []
    for _ in range(4):  # the hand leader's four discards come first
        m = agent.choose(state.observation(state.current_player), rng)
        assert m in state.legal_moves()
        moves.append(m)
        state.do(m)
    return moves


def test_the_dls_rule_makes_the_discards_and_the_search_plays() -> None:
    game = registry.create("mosssidewhist")
    for seed in (5, 6):
        state = game.new_hand(random.Random(seed))
        expected = []
        for _ in range(4):  # huang2017's Discard Lowest Suit, one card at a time
            m = whist_dls_discards(game, state.hands[state.current_player], count=1)[0] | PASS_FLAG
            expected.append(m)
            state.do(m)
        assert _leader_discards("ismcts:iterations=30,rule=dls", seed) == expected
        if seed == 5:  # without the rule the search chooses the discards itself (here other ones)
            assert _leader_discards("ismcts:iterations=30", seed) != expected
        agent = agents.make("ismcts:iterations=30,rule=dls", game)
        rule = knowledge.rule("mosssidewhist", "dls")
        assert rule(state, random.Random(0)) is None  # past the discards: the search decides
        assert agent.choose(state.observation(state.current_player), random.Random(1)) in state.legal_moves()
    with pytest.raises(VariantError, match="dls"):
        agents.make("ismcts:rule=foo", game)


def test_the_random_rule_discards_uniformly_and_the_search_plays() -> None:
    """huang2017's plain ISMCTS: random discards (any of the 20 cards, spades and aces included), then search."""
    game = registry.create("mosssidewhist")
    state = game.new_hand(random.Random(5))
    rule = knowledge.rule("mosssidewhist", "random")
    firsts = {rule(state, random.Random(k)) for k in range(200)}
    assert firsts == {m for m in state.legal_moves() if m & PASS_FLAG} and len(firsts) == 20
    spec = "ismcts:iterations=30,rule=random"
    assert _leader_discards(spec, 5) == _leader_discards(spec, 5)  # drawn from the agent's rng
    agent = agents.make(spec, game)
    obs = state.observation(state.current_player)
    assert len({agent.choose(obs, random.Random(k)) for k in range(10)}) > 1  # another rng, another discard
    for m in _leader_discards(spec, 5):
        state.do(m)
    assert rule(state, random.Random(0)) is None  # past the discards: the search decides
    with pytest.raises(ValueError, match="rng"):
        rule(game.new_hand(random.Random(5)))


def test_btsh_backtracking_shuffles_instead_of_pruning() -> None:
    from tests.test_pharaoh_rules import seed_position

    st = seed_position(["XB", "XL UL XH UH"], "9B UB 8B 8L 8H 9H 7H 7B 7L 9L", current=1)
    found = agents.make("backtrack:heuristic=shuffle", st.game)
    move = found.choose_full(st.clone(), random.Random(0))
    assert found.last_rule == "forced-win" and st.move_text(move) == "UL+UH"  # the only forced win
    shallow = agents.make("backtrack:depth=1,heuristic=shuffle", st.game)
    picks = {shallow.choose_full(st.clone(), random.Random(seed)) for seed in range(12)}
    assert shallow.last_rule == "shuffle" and len(picks) > 1 and picks <= set(st.legal_moves())
    smallest = agents.make("backtrack:depth=1", st.game)
    assert len({smallest.choose_full(st.clone(), random.Random(seed)) for seed in range(12)}) == 1


def test_btsh_is_legal_and_deterministic_across_variants() -> None:
    from tests.test_heuristic_checks import play_out

    cls = registry.game_class("pharaoh")
    for i, variant in enumerate(cls.example_variants):
        spec = "backtrack:depth=5,nodes=200,heuristic=shuffle"
        a = play_out(cls(variant), [spec, "random"], seed=60 + i)
        assert a.to_dict() == play_out(cls(variant), [spec, "random"], seed=60 + i).to_dict()


def _nine_random_moves_in(name: str, deal_seed: int, move_seed: int) -> tuple[Game, Any, random.Random]:
    """A new hand of ``name`` after nine random moves, and the generator that chose them."""
    game = registry.create(name)
    state = game.new_hand(random.Random(deal_seed))
    rng = random.Random(move_seed)
    for _ in range(9):
        state.do(rng.choice(state.legal_moves()))
    return game, state, rng


@pytest.mark.parametrize("name", ["briscola", "scopa", "sueca", "pharaoh"])
def test_a_cheat_that_sees_the_hands_deals_only_the_stock(name: str) -> None:
    game, state, rng = _nine_random_moves_in(name, 3, 1)
    sampler = DealSampler(hands_shown(state, state.current_player))
    stocks = set()
    for _ in range(30):
        deal = sampler.deal(rng)
        assert [sorted(deal.hand_cards(s)) for s in range(game.num_players)] == \
            [sorted(state.hand_cards(s)) for s in range(game.num_players)]
        stocks.add(deal.to_json())
    has_stock = any(slot.owner < 0 for slot in state.observation(state.current_player).slots)
    assert (len(stocks) > 1) == has_stock  # the stock's order is sampled; without a stock every deal is the truth


@pytest.mark.parametrize("name", ["briscola", "sueca", "mosssidewhist"])
def test_a_cheat_that_sees_the_trumps_deals_them_to_their_holders_only(name: str) -> None:
    game, state, rng = _nine_random_moves_in(name, 4, 2)
    trump = state.trump_suit()
    assert trump is not None

    def trumps_of(st: Any, seat: int) -> list[int]:
        return sorted(c for c in st.hand_cards(seat) if game.deck.suit_of(c) == trump)

    sampler = DealSampler(trumps_shown(state, state.current_player))
    others = set()
    for _ in range(30):
        deal = sampler.deal(rng)
        assert [trumps_of(deal, s) for s in range(game.num_players)] == \
            [trumps_of(state, s) for s in range(game.num_players)]
        others.add(tuple(tuple(sorted(deal.hand_cards(s))) for s in range(game.num_players)))
    assert len(others) > 1  # every other hidden card is still dealt at random


@pytest.mark.parametrize("sees", ["hands", "trumps"])
def test_a_cheat_that_sees_part_plays_legal_moves_deterministically(sees: str) -> None:
    game = registry.create("briscola")
    spec = f"cheat:iterations=60,sees={sees}"
    assert _cheat_against_random(spec, game, 5) == _cheat_against_random(spec, game, 5)
    with pytest.raises(VariantError, match="sees=hands/trumps"):
        agents.make(spec + ",shared=full", game)


def test_a_cheat_that_sees_the_trumps_needs_a_trump_suit() -> None:
    game = registry.create("hearts")
    state = game.new_hand(random.Random(1))
    with pytest.raises(VariantError, match="sees=trumps needs a game with a trump suit; hearts"):
        trumps_shown(state, 0)
