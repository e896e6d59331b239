"""Generic tests run on every registered game and each of its example variants (OpenSpiel style).

* random play: every move offered is legal and applies; illegal moves change nothing; states stay valid;
* JSON round-trip and clone equality at every step; clones are independent;
* observations: a determinized state gives the observer exactly the same observation, can be played to
  the end, and keeps the observer's own cards;
* matches add up.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.determinize import determinize
from engine.game import GameError, IllegalMoveError, StateFormatError, VariantError
from engine.match import Match

CASES = [(name, variant) for name in registry.available()
         for variant in registry.game_class(name).example_variants]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in v.items()) or 'default'}" for n, v in CASES]


def _random_playout(state, rng: random.Random, limit: int = 20_000) -> None:
    steps = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        assert moves, "a non-terminal state must offer a move"
        state.apply(moves[int(rng.random() * len(moves))])
        steps += 1
        assert steps < limit, "hand does not end"


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_random_play_json_clone_and_observations(name: str, variant: dict) -> None:
    game = registry.create(name, variant)
    rng = random.Random(1234)
    for hand in range(3):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        state.validate()
        ply = 0
        while not state.is_terminal():
            seat = state.current_player
            assert 0 <= seat < game.num_players
            moves = state.legal_moves()
            assert moves and len(set(moves)) == len(moves), "legal moves must be non-empty and distinct"
            for m in moves[:3]:
                assert state.illegal_reason(m) is None
                assert state.parse_move(state.move_text(m)) == m, "notation must round-trip"
            # JSON and clone equality.
            text = state.to_json()
            assert json.loads(text)["game"] == name
            again = game.state_from_json(text)
            assert again == state and again.to_json() == text
            twin = state.clone()
            assert twin == state
            # Observations: determinizations agree with what the seat knows and play to the end.
            if ply % 5 == 0:
                obs = state.observation(seat)
                obs.check()
                assert obs == state.observation(seat)
                for k in range(2):
                    det = determinize(obs, random.Random(ply * 7 + k))
                    det.validate()
                    assert det.observation(seat) == obs, "a sample must be consistent with the observation"
                    assert det.current_player == seat
                    assert sorted(det.legal_moves()) == sorted(moves)
                    _random_playout(det, random.Random(k))
                    det.result()
            move = moves[int(rng.random() * len(moves))]
            state.apply(move)
            # The clone taken before the move is independent of the original.
            assert twin.to_json() == text
            ply += 1
        result = state.result()
        assert len(result.points) == game.num_players
        assert sorted(s for t in result.teams for s in t) == list(range(game.num_players))
        assert set(result.winners) <= set(range(game.num_players))
        json.dumps(result.to_dict())
        assert state.legal_moves() == []
        assert state.current_player == -1


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_illegal_moves_leave_the_state_unchanged(name: str, variant: dict) -> None:
    game = registry.create(name, variant)
    rng = random.Random(99)
    state = game.new_hand(rng)
    for _ in range(12):
        if state.is_terminal():
            break
        legal = set(state.legal_moves())
        before = state.to_json()
        bad = [m for m in range(-3, 4 * 64) if m not in legal][:20] + [10**30, -(10**30)]
        for m in bad:
            reason = state.illegal_reason(m)
            assert isinstance(reason, str) and reason, f"move {m} must be rejected with a reason"
            with pytest.raises(IllegalMoveError):
                state.apply(m)
            assert state.to_json() == before
        with pytest.raises(IllegalMoveError):
            state.apply("7C")  # type: ignore[arg-type]
        assert state.to_json() == before
        state.apply(sorted(legal)[int(rng.random() * len(legal))])


@pytest.mark.parametrize("name", registry.available())
def test_bad_json_is_a_clear_error(name: str) -> None:
    game = registry.create(name)
    state = game.new_hand(random.Random(5))
    good = json.loads(state.to_json())
    bad_inputs = [
        "", "{", "[]", "null", json.dumps({**good, "version": 999}), json.dumps({**good, "game": "chess"}),
        json.dumps({**good, "state": {}}), json.dumps({**good, "state": None}),
        json.dumps({**good, "state": {k: "garbage" for k in good["state"]}}),
        json.dumps({**good, "state": {k: [10**40] for k in good["state"]}}),
    ]
    for text in bad_inputs:
        with pytest.raises(StateFormatError):
            game.state_from_json(text)


@pytest.mark.parametrize("name", registry.available())
def test_bad_variants_list_the_valid_options(name: str) -> None:
    cls = registry.game_class(name)
    with pytest.raises(VariantError) as err:
        registry.create(name, {"no_such_option": 1})
    for option in cls.options:
        assert option.name in str(err.value)
    for option in cls.options:
        if option.choices:
            with pytest.raises(VariantError) as err:
                registry.create(name, {option.name: "surely-not-a-choice"})
            assert str(option.choices[0]) in str(err.value)


@pytest.mark.parametrize("name", registry.available())
def test_matches_add_up(name: str) -> None:
    game = registry.create(name)
    for seed in range(2):
        match = Match.start(game, seed)
        rng = random.Random(seed)
        hands = 0
        while True:
            _random_playout(match.state, rng)
            match.finish_hand()
            hands += 1
            if match.over:
                break
            assert hands < 500, "match does not end"
            saved = match.to_json()
            assert Match.from_json(saved).to_json() == saved
            match.next_hand()
        totals = [0.0] * len(game.teams())
        for r in match.hands:
            totals = [t + p for t, p in zip(totals, game.match_points(r), strict=True)]
        assert totals == pytest.approx(match.totals)
        winners = match.winners()
        assert winners, "a finished match has a winner"


def test_unknown_game_lists_games() -> None:
    with pytest.raises(VariantError) as err:
        registry.create("chess")
    assert "sueca" in str(err.value)


def test_every_registered_game_is_available() -> None:
    """A complete build implements every game in the registry."""
    missing = sorted(set(registry.names()) - set(registry.available()))
    assert not missing, f"games without a module: {missing}"


def test_errors_are_game_errors() -> None:
    assert issubclass(IllegalMoveError, GameError) and issubclass(StateFormatError, GameError)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_fast_outcomes_match_the_hand_result(name: str, variant: dict) -> None:
    """The game's ``Playouts.outcomes`` (the search's PWL reward fast path) agrees with ``result().outcome``."""
    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    rng = random.Random(99)
    seen: set[tuple[float, ...]] = set()
    for hand in range(40):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        po.random_rollout(state, rng)
        res = state.result()
        expected = [res.outcome(s) for s in range(game.num_players)]
        assert po.outcomes(state) == expected
        seen.add(tuple(expected))
    assert len(seen) >= 2, "40 random hands should not all end alike"


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_lean_reward_points_match_the_hand_result(name: str, variant: dict) -> None:
    """The game's ``Playouts.reward_points`` (read by the search's score-based rewards once per playout) agrees with
    ``result()``, and so do the rewards computed from it."""
    from engine.search.common import reward_vector

    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    rng = random.Random(98)
    seen: set[tuple[float, ...]] = set()
    for hand in range(30):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        po.random_rollout(state, rng)
        res = state.result()
        points, span, low = po.reward_points(state)
        assert points == res.points and low == res.lower_is_better
        assert span == max(sum(abs(p) for p in res.team_points), 1.0)
        for kind in ("relative", "score"):
            assert reward_vector(kind, state) == reward_vector(kind, state, res)
        seen.add(tuple(points))
    assert len(seen) >= 2, "30 random hands should not all score alike"


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_random_rollout_of_a_finished_hand_changes_nothing(name: str, variant: dict) -> None:
    """The search calls ``random_rollout`` on every leaf, finished hands included."""
    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    rng = random.Random(5)
    for hand in range(3):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        po.random_rollout(state, rng)
        assert state.current_player < 0 and state.is_terminal()
        text = state.to_json()
        po.random_rollout(state, rng)
        assert state.to_json() == text


class _CountingRandom(random.Random):
    """A ``random.Random`` that counts its ``random()`` draws (how far a playout went)."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()


def _positions(game, rng: random.Random, count: int):
    """Openings and positions a few moves in, and a determinization of each one's observation."""
    from engine.search.sampler import DealSampler

    for hand in range(count):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        for _ in range(rng.randrange(12)):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.do(moves[rng.randrange(len(moves))])
        yield hand, state
        if not state.is_terminal():
            yield hand, DealSampler(state.observation(state.current_player)).deal(random.Random(hand))


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_playout_outcomes_equal_a_full_random_playout(name: str, variant: dict) -> None:
    """``playout_outcomes`` (the search's PWL playout, which keeps only what decides the outcome and may
    stop once it is settled) gives the outcomes of playing on to the end with the same random numbers."""
    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    stopped = 0
    for hand, state in _positions(game, random.Random(77), 25):
        full, early = state.clone(), state.clone()
        full_rng, early_rng = _CountingRandom(hand), _CountingRandom(hand)
        po.random_rollout(full, full_rng)
        outcomes = po.playout_outcomes(early, early_rng)
        assert outcomes == po.outcomes(full) == [full.result().outcome(s) for s in range(game.num_players)]
        assert early_rng.draws <= full_rng.draws
        stopped += early_rng.draws < full_rng.draws
    if getattr(game, "points_decide", False):
        assert stopped >= 10, "a game decided by card points should usually stop its playouts early"


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_playouts_of_a_finished_hand_score_it(name: str, variant: dict) -> None:
    """The search reaches finished hands in its tree: their playouts only score them."""
    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    rng = random.Random(9)
    for hand in range(3):
        state = game.new_hand(rng, dealer=hand % game.num_players)
        po.random_rollout(state, rng)
        points = state.result().points
        assert po.playout_outcomes(state.clone(), rng) == po.outcomes(state)
        scored = state.clone()
        po.scored_playout(scored, rng)
        assert scored.result().points == points


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_scored_playout_scores_as_a_full_random_playout(name: str, variant: dict) -> None:
    """``scored_playout`` (the search's playout for rewards other than PWL/WL) ends with the hand's points
    and every reward of the full random playout with the same random numbers."""
    from engine.search.common import reward_vector

    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    for hand, state in _positions(game, random.Random(78), 12):
        full, scored = state.clone(), state.clone()
        po.random_rollout(full, random.Random(hand))
        po.scored_playout(scored, random.Random(hand))
        assert scored.is_terminal()
        assert scored.result().points == full.result().points
        for kind in ("relative", "sd", "score", "pwl"):
            assert reward_vector(kind, scored) == reward_vector(kind, full)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_fast_random_rollout_equals_the_generic_loop(name: str, variant: dict) -> None:
    """A game's inlined ``random_rollout`` (the search's playout) makes exactly the choices of the generic
    loop ``do(legal_moves()[int(rng.random() * len(moves))])``, from openings and from mid-hand states."""
    from engine.knowledge import PLAIN_PLAYOUTS

    game = registry.create(name, variant)
    po = registry.entry(name).knowledge.playouts
    for seed in range(8):
        state = game.new_hand(random.Random(seed), dealer=seed % game.num_players)
        rng = random.Random(seed + 1000)
        for _ in range(seed * 5):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state.do(moves[int(rng.random() * len(moves))])
        fast, slow = state.clone(), state.clone()
        po.random_rollout(fast, random.Random(seed))
        PLAIN_PLAYOUTS.random_rollout(slow, random.Random(seed))
        assert fast.is_terminal() and slow.is_terminal()
        assert fast.to_json() == slow.to_json(), seed
        assert fast.result().to_dict() == slow.result().to_dict()
