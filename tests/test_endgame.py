"""The exact endgame solver: transposition table, two passes, budgets, and agents that keep no state."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine import agents, registry
from engine.game import Game, GameState
from engine.observation import Observation
from engine.search.common import reward_vector
from engine.search.endgame import TIE_BREAK, enumerate_deals, solve_information_set
from engine.search.ismcts import ENDGAME_MAX_CARDS


def playouts(state):
    """The search's fast paths of ``state``'s game (its ``SearchKnowledge.playouts``)."""
    return registry.entry(state.game.name).knowledge.playouts

GAMES = [("sueca", {"target": 0}), ("bisca", {}), ("briscola", {}), ("hearts", {"target": 0, "passing": "none"}),
         ("mosssidewhist", {})]


def cards_left(state: GameState) -> int:
    return sum(h.bit_count() for h in state.hands) + len(getattr(state, "stock", []))


def position(game: Game, seed: int, left: int) -> GameState:
    """A random hand played at random until at most ``left`` cards remain (hands and stock)."""
    rng = random.Random(seed)
    state = game.new_hand(rng)
    while cards_left(state) > left and not state.is_terminal():
        state.do(rng.choice(state.legal_moves()))
    return state


def late_positions(game: Game, seeds: int) -> Iterator[tuple[GameState, Observation, list[list[int]]]]:
    """Positions with 7 cards left and a choice, whose mover's view has at most 30 consistent deals: the
    state, the mover's observation and the deals."""
    for seed in range(seeds):
        state = position(game, seed, 7)
        if state.is_terminal() or len(state.legal_moves()) < 2:
            continue
        obs = state.observation(state.current_player)
        deals = enumerate_deals(obs, 30)
        if deals is not None:
            yield state, obs, deals


def team_of(state: GameState, seat: int) -> tuple[int, ...]:
    return next((t for t in state.game.teams() if seat in t), (seat,))


def minimax(state: GameState, seat: int, reward: str) -> float:
    """Plain paranoid minimax with the solver's values (no pruning, no table); reward "outcome": the outcome
    alone, without the points tie breaker."""
    if state.is_terminal():
        res = state.result()
        if reward == "outcome":
            return res.outcome(seat)
        if reward in ("pwl", "wl", "sd"):
            return res.outcome(seat) + TIE_BREAK * reward_vector("score", state, res)[seat]
        return reward_vector(reward, state, res)[seat]
    values = []
    for m in state.legal_moves():
        child = state.clone()
        child.do(m)
        values.append(minimax(child, seat, reward))
    return max(values) if state.current_player in team_of(state, seat) else min(values)


def reference_choice(state: GameState, reward: str) -> set[int]:
    """Every move with the best average exact value over the deals consistent with the mover's view."""
    seat = state.current_player
    obs = state.observation(seat)
    deals = [[]] if not obs.slots else enumerate_deals(obs, 10_000)
    assert deals
    totals = dict.fromkeys(obs.legal_moves(), 0.0)
    for deal in deals:
        full = obs.state.clone()
        if obs.slots:
            full.fill_hidden(obs.slots, deal, random.Random(0))
        for m in totals:
            child = full.clone()
            child.do(m)
            totals[m] += minimax(child, seat, reward)
    best = max(totals.values())
    return {m for m, v in totals.items() if v >= best - 1e-9}


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_the_solver_plays_a_best_move_of_plain_minimax(name: str, variant: dict) -> None:
    game = registry.create(name, variant)
    more = {"hearts": "relative", "bisca": "score", "sueca": "relative"}
    rewards = ["pwl", more[name]] if name in more else ["pwl"]
    checked = 0
    for state, obs, _ in late_positions(game, 40):
        for reward in rewards:
            move = solve_information_set(obs, random.Random(1), 30, reward=reward, node_limit=10**7)
            assert move in reference_choice(state, reward), (state.to_json(), reward)
            checked += 1
        if checked >= 6:
            break
    assert checked >= 3


@pytest.mark.parametrize(("name", "variant"), GAMES[:4])
def test_equal_keys_mean_the_same_rest_of_the_hand(name: str, variant: dict) -> None:
    """Two orders of one trick's cards from the same position give equal keys only when the same seat won
    the same points; the key of a state inside a trick is None."""
    game = registry.create(name, variant)
    state = position(game, 3, 12)
    assert state.trick == [] or playouts(state).solver_key(state) is None
    while state.trick:
        state.do(state.legal_moves()[0])
    key = playouts(state).solver_key(state)
    assert key is not None and hash(key) == hash(playouts(state.clone()).solver_key(state.clone()))
    mid = state.clone()
    mid.do(mid.legal_moves()[0])
    assert playouts(mid).solver_key(mid) is None


def test_bisca_after_the_stock_is_solved_within_the_preset_window() -> None:
    game = registry.create("bisca")
    solved = 0
    for seed in range(12):
        state = position(game, seed, ENDGAME_MAX_CARDS - seed % 4 * 2)
        if state.is_terminal() or len(state.legal_moves()) < 2:
            continue
        obs = state.observation(state.current_player)
        assert enumerate_deals(obs, 1) is not None  # the stock is gone: one deal
        move = solve_information_set(obs, random.Random(1), 200)
        assert move is not None
        if cards_left(state) <= 8:  # plain minimax is too slow on longer endings
            assert move in reference_choice(state, "pwl")
        solved += 1
    assert solved >= 8


def test_a_passed_deadline_or_a_set_cancel_gives_up() -> None:
    game = registry.create("bisca")
    state = position(game, 2, ENDGAME_MAX_CARDS)
    obs = state.observation(state.current_player)
    assert solve_information_set(obs, random.Random(1), 200) is not None
    assert solve_information_set(obs, random.Random(1), 200, deadline=time.perf_counter() - 1.0) is None
    stop = threading.Event()
    stop.set()
    assert solve_information_set(obs, random.Random(1), 200, cancel=stop) is None
    assert solve_information_set(obs, random.Random(1), 200, node_limit=50) is None


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_endgame_agents_keep_no_state_between_decisions(name: str, variant: dict) -> None:
    """One agent playing a whole hand decides exactly like a fresh agent at every position (a restored game
    continues as the original would have)."""
    game = registry.create(name, variant)
    spec = "ismcts:iterations=60,endgame=50"
    kept = agents.make(spec, game)
    state = game.new_hand(random.Random(5))
    step = 0
    while not state.is_terminal():
        obs = state.observation(state.current_player)
        move = kept.choose(obs, random.Random(step))
        assert move == agents.make(spec, game).choose(obs, random.Random(step))
        state.apply(move)
        step += 1


def test_a_failed_solve_leaves_the_search_the_rest_of_the_time() -> None:
    game = registry.create("bisca")
    state = position(game, 4, ENDGAME_MAX_CARDS)
    obs = state.observation(state.current_player)
    agent = agents.make("ismcts:iterations=0,seconds=0.2,endgame=200", game)
    import engine.search.endgame as endgame

    calls: list[float | None] = []
    real = endgame.solve_information_set

    def give_up(*args: object, **kwargs: object) -> None:
        calls.append(kwargs.get("deadline"))  # type: ignore[arg-type]
        return None

    endgame.solve_information_set = give_up  # type: ignore[assignment]
    try:
        move = agent.choose(obs, random.Random(1))
    finally:
        endgame.solve_information_set = real
    assert move in state.legal_moves()
    assert calls and calls[0] is not None  # the solver was given a deadline inside the time budget


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_a_left_out_card_plays_exactly_like_its_stand_in(name: str, variant: dict) -> None:
    """solver_moves drops a card only for a lower one of the same hand, suit and card points with no card
    still in play between them, and the two have the same exact value for every reward."""
    game = registry.create(name, variant)
    pairs = 0
    for seed in range(80):
        state = position(game, seed, 6 if name == "briscola" else 9)  # Briscola: once its stock is gone
        if state.is_terminal():
            continue
        moves = state.legal_moves()
        same = playouts(state).solver_equivalents(state, moves)
        assert sorted(playouts(state).solver_moves(state)) == sorted(m for m in moves if m not in same)
        in_play = sum(state.hands) | sum(1 << c for c in state.trick)
        for m, stand_in in same.items():
            assert stand_in in moves and stand_in not in same
            assert game.suit_of[m] == game.suit_of[stand_in] and game.card_points[m] == game.card_points[stand_in]
            low, high = sorted((game.strength[stand_in], game.strength[m]))
            assert game.strength[stand_in] < game.strength[m]
            between = [c for c in range(game.deck.size) if in_play >> c & 1 and game.suit_of[c] == game.suit_of[m]
                       and low < game.strength[c] < high]
            assert all(c in moves for c in between)  # only cards of the same run of this hand
            seat = state.current_player
            for reward in ("pwl", "relative"):
                a, b = state.clone(), state.clone()
                a.do(m)
                b.do(stand_in)
                assert minimax(a, seat, reward) == minimax(b, seat, reward), (seed, m, stand_in, reward)
            pairs += 1
        if pairs >= 6:
            break
    assert pairs >= 2


def test_no_cards_are_merged_while_bisca_has_a_stock() -> None:
    game = registry.create("bisca")
    state = game.new_hand(random.Random(3))
    assert state.stock and playouts(state).solver_equivalents(state, state.legal_moves()) == {}
    assert sorted(playouts(state).solver_moves(state)) == sorted(state.legal_moves())


@pytest.mark.parametrize("name", ["sueca", "bisca", "briscola"])
def test_solver_points_split_the_deck_between_the_sides(name: str) -> None:
    game = registry.create(name, {"target": 0} if name == "sueca" else {})
    rng = random.Random(4)
    state = game.new_hand(rng)
    while not state.is_terminal():
        for seat in range(game.num_players):
            mine, theirs, open_points = playouts(state).solver_points(state, seat)
            assert (mine, theirs) == (state.side_points()[seat % 2], state.side_points()[1 - seat % 2])
            assert mine + theirs + open_points == sum(game.card_points)
        state.do(rng.choice(state.legal_moves()))
    assert playouts(state).solver_points(state, 0)[2] == 0
    hearts = registry.create("hearts", {"target": 0}).new_hand(random.Random(1))
    assert playouts(hearts).solver_points(hearts, 0) is None


def test_bisca_is_solved_from_the_end_of_the_stock() -> None:
    """With the stock gone (9 cards each), the single deal is solved well inside the default node limit."""
    game = registry.create("bisca")
    solved = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_hand(rng)
        while state.stock or state.trick:
            state.do(rng.choice(state.legal_moves()))
        assert cards_left(state) == 18
        obs = state.observation(state.current_player)
        if solve_information_set(obs, random.Random(1), 200) is not None:
            solved += 1
    assert solved >= 9


@pytest.mark.parametrize(("name", "variant"), [("sueca", {"target": 0}), ("hearts", {"target": 0, "passing": "none"})])
def test_any_node_limit_gives_up_or_plays_a_best_outcome(name: str, variant: dict) -> None:
    """However short the node allowance, the solver either gives up or plays a move of the best outcome
    (a tie break cut short keeps the deals it solved)."""
    game = registry.create(name, variant)
    checked = 0
    for state, obs, deals in late_positions(game, 30):
        if len(deals) < 2:
            continue
        best = reference_choice(state, "outcome")
        answers = {solve_information_set(obs, random.Random(1), 30, node_limit=limit)
                   for limit in (20, 60, 150, 400, 1_000, 3_000, 10**7)}
        assert answers - {None} <= best, state.to_json()
        assert len(answers - {None}) >= 1
        checked += 1
        if checked >= 3:
            break
    assert checked >= 2


@pytest.mark.parametrize(("name", "variant"), [("bisca", {"trump_exchange": "2", "hand_size": 3}),
                                               ("briscola", {"trump_exchange": "2"})])
def test_the_solver_handles_the_trump_exchange(name: str, variant: dict) -> None:
    """The last trick before the stock runs out, where in some deals the other player may still exchange."""
    from engine.games.tricks.bisca import SWAP_FLAG

    game = registry.create(name, variant)
    rng = random.Random(0)
    state = game.new_hand(rng)
    while not (len(state.stock) == 2 and not state.trick and not state.hands[state.current] >> state.exchange_card & 1
               and state.stock[0] != state.exchange_card):
        state.do(rng.choice([m for m in state.legal_moves() if not m & SWAP_FLAG]))
    obs = state.observation(state.current_player)
    move = solve_information_set(obs, random.Random(1), 200, node_limit=10**7)
    assert move in reference_choice(state, "pwl")
    assert agents.make("ismcts:iterations=60,endgame=50", game).choose(obs, random.Random(2)) in state.legal_moves()


@pytest.mark.parametrize(("name", "variant"), [("bisca", {"hand_size": 3}), ("briscola", {}),
                                               ("bisca", {"hand_size": 3, "trump_exchange": "2"})])
def test_the_table_shared_over_deals_keeps_the_best_move(name: str, variant: dict) -> None:
    """At the last trick before the stock runs out every deal that lets the other player win the trick
    reaches the same position, so the deals share table entries; the move stays a best one of plain
    minimax over every deal, from either seat and for either reward, and the shared table saves nodes."""
    game = registry.create(name, variant)
    checked = saved = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_hand(rng)
        while state.stock_size > 2 or len(state.trick) != seed % 2:
            state.do(rng.choice(state.legal_moves()))
        if state.stock_size != 2 or len(state.legal_moves()) < 2:
            continue
        obs = state.observation(state.current_player)
        assert len(enumerate_deals(obs, 30)) > 1
        for reward in ("pwl", "score"):
            move = solve_information_set(obs, random.Random(1), 30, reward=reward, node_limit=10**7)
            assert move in reference_choice(state, reward), (state.to_json(), reward)
        nodes = [solver_nodes(obs, clear_per_deal=False), solver_nodes(obs, clear_per_deal=True)]
        saved += nodes[0] < nodes[1]
        assert nodes[0] <= nodes[1]
        checked += 1
        if checked >= 4:
            break
    assert checked >= 3 and saved >= 2


def solver_nodes(obs: Observation, *, clear_per_deal: bool) -> int:
    """The nodes one solve of ``obs`` visits; with ``clear_per_deal`` each deal starts from an empty table."""
    from engine.search import endgame

    made: list[endgame._Solver] = []

    class Counting(endgame._Solver):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

        def new_deal(self, state: GameState) -> None:
            if clear_per_deal:
                self.table.clear()
            super().new_deal(state)

    original = endgame._Solver
    endgame._Solver = Counting  # type: ignore[misc]
    try:
        solve_information_set(obs, random.Random(1), 30, node_limit=10**7)
    finally:
        endgame._Solver = original  # type: ignore[misc]
    return sum(s.nodes for s in made)
