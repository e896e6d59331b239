"""Search agents (ismcts, detuct, cheat): fairness, legality across games/variants, determinism, options."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.agents.base import Budget
from engine.determinize import determinize
from engine.game import Game, GameState, VariantError
from engine.worker import MoveRequest, choose_move

GAMES = registry.available()

# Cheap SPECs for every search agent and option family (tiny budgets: behaviour, not strength).
SEARCH_SPECS = [
    "ismcts:iterations=24",
    "ismcts:iterations=24,reward=sd,sim=nast,nast_n=2,nast_policy=gibbs",
    "ismcts:iterations=24,reward=wl,sim=nast,nast_n=3,nast_policy=ucb1",
    "ismcts:iterations=24,reward=relative,sim=nast,nast_n=1,nast_policy=egreedy",
    "ismcts:iterations=24,reward=score,sim=nast,nast_policy=roulette,endgame=20",
    "ismcts:iterations=24,transpositions=true,dets=4",
    "ismcts:iterations=24,reuse=true",
    "detuct:iterations=24,trees=3",
]
CHEAP = {"ismcts": "ismcts:iterations=16", "detuct": "detuct:iterations=16,trees=2"}


def fair_specs(game: Game) -> list[str]:
    """A cheap SPEC of every fair agent that plays ``game``."""
    out = []
    for name in agents.available():
        cls = agents.agent_class(name)
        if not cls.fair or (cls.games is not None and game.name not in cls.games):
            continue
        spec = CHEAP.get(name, name)
        try:
            agents.make(spec, game)
        except ImportError:  # an agent whose per-game module is not in this build yet
            continue
        out.append(spec)
    return out


def decision_points(game: Game, seed: int, count: int) -> list[GameState]:
    """States along one random hand where the player to move has 2+ legal moves."""
    rng = random.Random(seed)
    state = game.new_hand(rng)
    out = []
    while not state.is_terminal():
        moves = state.legal_moves()
        if len(moves) >= 2:
            out.append(state.clone())
        state.do(moves[int(rng.random() * len(moves))])
    step = max(1, len(out) // count)
    return out[::step][:count]


def other_world(state: GameState, seed: int) -> GameState | None:
    """A state that differs from ``state`` only in cards the player to move cannot see (or None)."""
    seat = state.current_player
    obs = state.observation(seat)
    if not obs.slots:
        return None
    rng = random.Random(seed)
    for _ in range(20):
        other = determinize(obs, rng)
        if other.to_dict() != state.to_dict():
            assert other.observation(seat) == obs
            return other
    return None


def assert_decides_from_observation(name: str, specs: list[str], seed: int = 11) -> None:
    """Each SPEC picks the same move in two states that differ only in cards the mover cannot see."""
    game = registry.create(name)
    checked = 0
    for i, state in enumerate(decision_points(game, seed, 3)):
        other = other_world(state, i)
        if other is None:
            continue
        seat = state.current_player
        for spec in specs:
            moves = []
            for world in (state, other):
                req = MoveRequest(name, game.variant, spec, world.to_json(), seat, seed=5 + i)
                moves.append(choose_move(req))
            assert moves[0] == moves[1], f"{spec} in {name} depends on hidden cards"
            assert moves[0] in state.legal_moves()
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_fair_agents_decide_from_the_observation_only(name: str) -> None:
    assert_decides_from_observation(name, fair_specs(registry.create(name)))


@pytest.mark.parametrize("name", GAMES)
def test_search_agents_never_play_illegal_moves(name: str) -> None:
    cls = registry.game_class(name)
    for v, variant in enumerate(cls.example_variants):
        game = registry.create(name, variant)
        rng = random.Random(v)
        state = game.new_hand(rng)
        specs = [SEARCH_SPECS[(v + s) % len(SEARCH_SPECS)].replace("=24", "=8") for s in range(game.num_players)]
        players = [agents.make(spec, game) for spec in specs]
        cheat = agents.make("cheat:iterations=16", game)
        moves = 0
        while not state.is_terminal() and moves < 30:
            seat = state.current_player
            if moves % 5 == 4:
                move = cheat.choose_full(state.clone(), rng)
            else:
                move = players[seat].choose(state.observation(seat), rng)
            assert move in state.legal_moves(), f"illegal {state.move_text(move)} in {name} {variant}"
            state.apply(move)
            moves += 1


@pytest.mark.parametrize("spec", SEARCH_SPECS + ["cheat:iterations=40"])
def test_same_seed_same_move(spec: str) -> None:
    for name in ("sueca", "hearts"):
        if name not in GAMES:
            continue
        game = registry.create(name)
        for state in decision_points(game, 3, 2):
            seat = state.current_player
            reqs = [MoveRequest(name, {}, spec, state.to_json(), seat, seed=9) for _ in range(2)]
            assert choose_move(reqs[0]) == choose_move(reqs[1])


def test_root_parallel_workers_are_deterministic() -> None:
    game = registry.create("sueca")
    state = decision_points(game, 4, 1)[0]
    req = MoveRequest("sueca", {}, "ismcts:iterations=200,workers=2", state.to_json(), state.current_player, 3)
    first = choose_move(req)
    assert first in state.legal_moves()
    assert choose_move(req) == first


def test_progress_and_budget_override() -> None:
    game = registry.create("sueca")
    state = decision_points(game, 2, 1)[0]
    agent = agents.make("ismcts:iterations=100000", game)
    reports = []
    move = agent.choose(state.observation(state.current_player), random.Random(1),
                        Budget(iterations=300, on_progress=reports.append))
    assert move in state.legal_moves()
    assert reports[-1].iterations == 300 and reports[-1].best_move == move
    assert 0.0 <= reports[-1].win_rate <= 1.0


def test_cancel_returns_best_so_far() -> None:
    import threading

    game = registry.create("sueca")
    state = decision_points(game, 2, 1)[0]
    cancel = threading.Event()
    seen = []

    def on_progress(p):
        seen.append(p)
        cancel.set()

    agent = agents.make("ismcts:iterations=0,seconds=600", game)
    move = agent.choose(state.observation(state.current_player), random.Random(1),
                        Budget(cancel=cancel, on_progress=on_progress))
    assert move in state.legal_moves() and seen[-1].iterations < 100_000


def test_cheat_is_labelled_and_refuses_observations() -> None:
    game = registry.create("sueca")
    agent = agents.make("cheat", game)
    assert not agent.fair and "CHEATING" in agent.description
    state = game.new_hand(random.Random(1))
    with pytest.raises(VariantError):
        agent.choose(state.observation(state.current_player), random.Random(1))


def test_bad_parameters_list_the_valid_ones() -> None:
    game = registry.create("sueca")
    with pytest.raises(VariantError, match="iterations"):
        agents.make("ismcts:iters=5", game)
    with pytest.raises(VariantError, match="available"):
        agents.make("ismcts:sim=nonesuch", game)
    with pytest.raises(VariantError, match="pwl"):
        agents.make("ismcts:reward=money", game)


def test_ismcts_takes_an_obvious_win() -> None:
    # Sueca, last trick: the seat to move holds the only trump left and wins by playing it.
    game = registry.create("sueca", {"target": 0})
    for seed in range(50):
        state = game.new_hand(random.Random(seed))
        rng = random.Random(seed)
        while sum(h.bit_count() for h in state.hands) > 8:
            state.do(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) < 2:
            continue
        seat = state.current_player
        exact = agents.make("ismcts:iterations=10,endgame=5000", game)
        searched = agents.make("ismcts:iterations=3000", game)
        obs = state.observation(seat)
        from engine.search.endgame import solve_information_set

        best = solve_information_set(obs, random.Random(0), 5000)
        if best is None:
            continue
        assert exact.choose(obs, random.Random(0)) == best
        assert searched.choose(obs, random.Random(0)) in state.legal_moves()
        return
    pytest.fail("no endgame position found")


@pytest.mark.parametrize("spec", ["ismcts:iterations=20,handler=card", "ismcts:iterations=20,opponents=greedy",
                                  "ismcts:iterations=20,handler=card,resolve=greedy",
                                  "ismcts:iterations=12,sim=egreedy,bias=cgs"])
def test_scopone_hooks_play_legal_deterministic_moves(spec: str) -> None:
    game = registry.create("scopone")
    for state in decision_points(game, 8, 3):
        seat = state.current_player
        req = MoveRequest("scopone", {}, spec, state.to_json(), seat, seed=2)
        move = choose_move(req)
        assert move in state.legal_moves() and choose_move(req) == move


@pytest.mark.parametrize(("spec", "option"), [
    ("ismcts:sim=nast,nast_policy=gibbs,tau=0", "tau"),
    ("ismcts:sim=nast,nast_policy=egreedy,epsilon=1.5", "epsilon"),
    ("ismcts:sim=nast,nast_policy=ucb1,nast_c=-1", "nast_c"),
    ("ismcts:seconds=-2", "seconds"),
    ("ismcts:c=nan", "c"),
    ("detuct:c=-3", "c"),
    ("cheat:seconds=inf", "seconds"),
])
def test_out_of_range_search_parameters_are_refused_up_front(spec: str, option: str) -> None:
    game = registry.create("bisca")
    with pytest.raises(VariantError, match=f"option '{option}'.*range"):
        agents.make(spec, game)


def test_a_reused_tree_is_searched_again_after_beam_search(monkeypatch) -> None:
    """Beam search closes levels counted from the root it searched; a kept subtree is reopened for the next
    decision, so no search ends without root statistics (one did, and played a uniformly random move)."""
    from engine.search import ismcts

    game = registry.create("sueca")
    searches: list[tuple[bool, int]] = []
    original = ismcts.run_ismcts

    def watched(obs, rng, conf, budget, root=None):  # type: ignore[no-untyped-def]
        result, kept = original(obs, rng, conf, budget, root)
        searches.append((root is not None, sum(result.visits.values())))
        return result, kept

    monkeypatch.setattr(ismcts, "run_ismcts", watched)
    for hand in range(3):
        rng = random.Random(hand)
        state = game.new_hand(rng)
        seats = {s: agents.make("ismcts:iterations=300,reuse=true,beam_width=2,beam_limit=20", game)
                 for s in range(game.num_players)}
        while not state.is_terminal():
            seat = state.current_player
            state.do(seats[seat].choose(state.observation(seat), random.Random(len(state.history))))
    assert sum(reused for reused, _ in searches) >= 3
    assert all(visits > 0 for _, visits in searches)
