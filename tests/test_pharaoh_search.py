"""Pharaoh search hooks: canonical (pruned) plays, the kassak2023 4.4 move pruners, the fast pruned rollouts,
the lean outcomes() and the cheap deterministic reshuffle."""

from __future__ import annotations

import math
import random

import pytest

from engine import agents, registry
from engine.agent import Budget
from engine.games.pharaoh.players import (
    pharaoh_smallest_policy,
    play_first_rollout,
    play_random_rollout,
    prune_biggest,
    prune_play,
    prune_smallest,
    pruned_random_rollout,
)
from engine.games.pharaoh.rules import DRAW, PLAY, SKIP, Pharaoh, PharaohState, named_suit, play_cards
from engine.runtime.presets import preset_spec
from engine.search import knowledge

VARIANTS = Pharaoh.example_variants


def _states(g: Pharaoh, count: int, seed: int) -> list[PharaohState]:
    """Dealt and mid-hand states (random play) of ``g``, including reshuffled and pending-penalty ones."""
    out = []
    rng = random.Random(seed)
    for k in range(count):
        state = g.new_hand(rng)
        for _ in range(k % 9 * 7):
            if state.is_terminal():
                break
            legal = state.legal_moves()
            state.do(legal[rng.randrange(len(legal))])
        if not state.is_terminal():
            out.append(state)
    return out


def _size(move: int) -> int:
    return len(play_cards(move))


@pytest.mark.parametrize("variant", VARIANTS)
def test_canonical_plays_are_every_whole_group_play_once_per_top_card(variant: dict) -> None:
    g = Pharaoh(variant)
    checked = 0
    for state in _states(g, 60, 3):
        legal = state.legal_moves()
        canon = state.canonical_plays()
        assert set(canon) <= set(legal)
        assert len(set(canon)) == len(canon)
        hand = state.hands[state.current]
        # Brute force from legal_moves: the whole-group plays, keyed by (cards, top card).
        want: dict[tuple[frozenset[int], int], set[int]] = {}
        for m in legal:
            cards = play_cards(m)
            if cards and len(cards) == bin(hand & g.rank_masks[cards[0] % g.nranks]).count("1"):
                want.setdefault((frozenset(cards), cards[-1]), set()).add(named_suit(m))
        got = {(frozenset(play_cards(m)), play_cards(m)[-1]): named_suit(m) for m in canon}
        assert set(got) == set(want)
        for key, named in got.items():
            assert named in want[key]
            if named >= 0:  # an Ober names the suit held most after the play
                after = hand & ~sum(1 << c for c in key[0])
                held = [bin(after & g.suit_masks[s]).count("1") for s in range(g.nsuits)]
                assert held[named] == max(held)
        checked += bool(canon)
    assert checked > 10


@pytest.mark.parametrize("variant", VARIANTS[:4])
def test_pruners_keep_a_nonempty_ordered_subset(variant: dict) -> None:
    g = Pharaoh(variant)
    for state in _states(g, 50, 4):
        legal = state.legal_moves()
        small = prune_smallest(state, legal)
        big = prune_biggest(state, legal)
        play = prune_play(state, legal)
        assert small and set(small) <= set(legal)
        assert set(big) == set(small) and set(play) <= set(small)
        plays = [m for m in small if m & 3 == PLAY]
        rest = [m for m in legal if m & 3 != PLAY]
        assert small == plays + rest  # plays first, then draw/skip
        assert [_size(m) for m in plays] == sorted(_size(m) for m in plays)
        big_plays = [m for m in big if m & 3 == PLAY]
        assert [_size(m) for m in big_plays] == sorted((_size(m) for m in plays), reverse=True)
        assert play == (plays or rest)
        assert prune_smallest(state, legal) == small  # stable


def test_pruners_drop_partial_groups_and_duplicate_orders() -> None:
    g = Pharaoh({"players": 2})
    state = g.position(["7L 7H 7B XL", "8A 9A KA AA OA"], "9L", "8B 8H")
    legal = state.legal_moves()
    texts = {state.move_text(m) for m in prune_smallest(state, legal)}
    # 7L alone or the 7L+7H pair would break the group; only 7L may start, so 7H or 7B ends on top.
    assert texts == {"XL", "7L+7B+7H", "7L+7H+7B", "draw"}
    assert [state.move_text(m) for m in prune_smallest(state, legal)][0] == "XL"
    assert [state.move_text(m) for m in prune_biggest(state, legal)][-2:] == ["XL", "draw"]
    assert "draw" not in {state.move_text(m) for m in prune_play(state, legal)}


def _non_play(state: PharaohState) -> list[int]:
    return [m for m in state.legal_moves() if m & 3 != PLAY]


def _reference_rollout(state: PharaohState, rng: random.Random, draws: bool, first_out: bool,
                       smallest: bool = False) -> None:
    """The generic loop that pruned_rollout inlines."""
    rand = rng.random
    while not state.is_terminal():
        if first_out and state.finished:
            state.ended = "first out"
            break
        moves = state.canonical_plays(1 if smallest else 0)
        if smallest and moves:
            moves = [m for m in moves if _size(m) == _size(moves[0])]
        if draws or not moves:
            moves = moves + _non_play(state)
        move = moves[int(rand() * len(moves))]
        state.apply(move)  # validated: every rollout move is legal


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("draws", "first_out", "smallest"),
                         [(True, False, False), (False, False, False), (False, True, False), (False, True, True)])
def test_pruned_rollout_matches_the_validated_generic_loop(variant: dict, draws: bool, first_out: bool,
                                                            smallest: bool) -> None:
    g = Pharaoh(variant)
    reshuffled = 0
    for k, state in enumerate(_states(g, 30, 5)):
        fast, slow = state.clone(), state.clone()
        fast.pruned_rollout(random.Random(k), draws, first_out, smallest)
        _reference_rollout(slow, random.Random(k), draws, first_out, smallest)
        assert fast.is_terminal()
        assert fast.to_json() == slow.to_json(), k
        assert fast.card_total() == g.deck.size
        assert fast.outcomes() == [fast.result().outcome(s) for s in range(g.num_players)]
        if first_out:
            assert len(fast.finished) <= 1 and (fast.ended != "first out" or fast.finished)
        again = state.clone()
        again.pruned_rollout(random.Random(k), draws, first_out, smallest)
        assert again.to_json() == fast.to_json()  # same seed, same playout
        reshuffled += fast.reshuffles > state.reshuffles
    if g.classic and not first_out:
        assert reshuffled > 0


def test_play_rollouts_never_draw_while_a_play_exists() -> None:
    g = Pharaoh()
    for k, state in enumerate(_states(g, 20, 6)):
        start = len(state.history)
        replay = state.clone()
        play_random_rollout(state, random.Random(k))
        for seat, move in state.history[start:]:
            assert replay.current == seat
            if move in (DRAW, SKIP):
                assert not replay.canonical_plays()
            replay.apply(move)
        assert replay.to_json() == state.to_json()


def test_registered_rollouts_are_shorter_than_random_play() -> None:
    g = Pharaoh()
    states = _states(g, 30, 7)
    lengths: dict[str, float] = {}
    for name, fn in [("random", lambda s, r: s.random_rollout(r)), ("prune", pruned_random_rollout),
                     ("play", play_random_rollout), ("first", play_first_rollout)]:
        total = 0
        for k, state in enumerate(states):
            s = state.clone()
            fn(s, random.Random(k))
            total += s.turn - state.turn
        lengths[name] = total / len(states)
    assert lengths["first"] < lengths["play"] < lengths["prune"] < lengths["random"]
    assert lengths["play"] * 3 < lengths["random"]


def test_reshuffle_is_deterministic_and_close_to_uniform() -> None:
    g = Pharaoh({"players": 2})
    pile = "7L 8L 9L XL UH OH KH AH 7B 8B"
    counts = [[0] * 10 for _ in range(10)]
    trials = 2000
    for seed in range(trials):
        state = g.position(["9A", "KA"], pile + " AA", "", dealer=1)
        state.shuffle_seed = seed * 7919 + 3
        state.do(DRAW)  # empty stock: the pile under the top is reshuffled, one card drawn
        twin = g.position(["9A", "KA"], pile + " AA", "", dealer=1)
        twin.shuffle_seed = state.shuffle_seed
        twin.do(DRAW)
        assert twin.to_json() == state.to_json()
        order = state.stock + [c for c in g.deck.parse_list(pile) if state.hands[0] >> c & 1]
        for pos, c in enumerate(order):
            counts[g.deck.parse_list(pile).index(c)][pos] += 1
    # Each card lands in each position with probability 1/10: 99.9% binomial band for every cell.
    p = 0.1
    band = 3.3 * math.sqrt(trials * p * (1 - p))
    assert all(abs(x - trials * p) < band for row in counts for x in row)


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_outcomes_match_result_after_every_end(variant: dict) -> None:
    g = Pharaoh(variant)
    rng = random.Random(8)
    seen = set()
    for _ in range(40):
        state = g.new_hand(rng)
        state.random_rollout(rng)
        assert state.outcomes() == [state.result().outcome(s) for s in range(g.num_players)]
        seen.add(state.ended)
    assert "finished" in seen
    with pytest.raises(ValueError):
        g.new_hand(rng).outcomes()


def test_ismcts_uses_the_registered_pruners_and_rollouts() -> None:
    assert {"prune-random", "play-random", "play-first", "play-smallest"} <= set(knowledge.policies("pharaoh"))
    assert knowledge.pruner("pharaoh", "smallest") is prune_smallest
    g = Pharaoh()
    for k, state in enumerate(_states(g, 6, 9)):
        legal = state.legal_moves()
        if len(prune_smallest(state, legal)) < 2:
            continue
        obs = state.observation(state.current)
        for sim in ("play-first", "prune-random"):
            spec = f"ismcts:iterations=60,sim={sim},prune=smallest"
            move = agents.make(spec, g).choose(obs, random.Random(k), Budget())
            assert move in prune_smallest(state, legal)
            assert agents.make(spec, g).choose(obs, random.Random(k), Budget()) == move  # same seed, same move


def test_a_spec_without_sim_gets_the_games_default_simulation() -> None:
    """Pharaoh's random playouts run for hundreds of turns, so ``ismcts`` there defaults to the pruned
    ``play-smallest`` playouts (kassak2023 4.4); every other game keeps random playouts; ``sim=random`` still
    asks for them."""
    for name in registry.available():
        conf = agents.make("ismcts:iterations=10", registry.create(name)).conf
        assert conf.sim == ("play-smallest" if name == "pharaoh" else "random") == knowledge.default_simulation(name)
    game = registry.create("pharaoh")
    assert agents.make("ismcts:iterations=10,sim=random", game).conf.sim == "random"
    state = game.new_hand(random.Random(5))
    obs = state.observation(state.current_player)
    default = agents.make("ismcts:iterations=200", game).choose(obs, random.Random(1))
    explicit = agents.make("ismcts:iterations=200,sim=play-smallest", game).choose(obs, random.Random(1))
    assert default == explicit


@pytest.mark.parametrize("variant", VARIANTS)
def test_lean_reward_points_after_first_out_playouts_match_the_result(variant: dict) -> None:
    """The place and penalty points the searches' ``reward=score`` reads after the presets' playouts (which
    stop once a player is out) are those of ``result()``."""
    g = Pharaoh(variant)
    rng = random.Random(12)
    for k in range(30):
        state = g.new_hand(rng)
        (play_first_rollout if k % 2 else play_random_rollout)(state, rng)
        res = state.result()
        assert state.reward_points() == (res.points, max(sum(abs(p) for p in res.team_points), 1.0),
                                         res.lower_is_better)


def test_the_presets_play_on_for_places_once_someone_is_out() -> None:
    """With the win-only reward every move is worth 0 once another player has gone out; the presets' place
    reward still tells the moves apart."""
    game = registry.create("pharaoh")
    rng = random.Random(9)
    state = game.new_hand(rng)
    while not (state.finished and len(prune_smallest(state, state.legal_moves())) > 1):
        state.do(pharaoh_smallest_policy(state, rng))
        if state.is_terminal():
            state = game.new_hand(rng)
    obs = state.observation(state.current)
    preset = preset_spec("pharaoh", "strong")
    totals = {}
    for name, spec in (("preset", preset), ("win only", preset.replace("reward=score", "reward=pwl"))):
        agent = agents.make(spec, game, iterations=300)
        agent.choose(obs, random.Random(3), Budget())
        assert agent.last_search is not None
        totals[name] = set(agent.last_search.totals.values())
    assert totals["win only"] == {0.0}
    assert len(totals["preset"]) > 1


def test_with_two_players_the_place_reward_is_the_win_reward() -> None:
    """Two places are a win and a loss, so ``reward=score`` makes the two-player presets' exact moves."""
    game = registry.create("pharaoh", {"players": 2})
    base = "ismcts:iterations=100,sim=play-smallest,prune=smallest"
    rng = random.Random(4)
    state = game.new_hand(rng)
    decisions = 0
    while not state.is_terminal() and decisions < 20:
        obs = state.observation(state.current)
        win = agents.make(base, game).choose(obs, random.Random(decisions), Budget())
        places = agents.make(base + ",reward=score", game).choose(obs, random.Random(decisions), Budget())
        assert places == win
        state.do(win)
        decisions += 1
    assert decisions >= 10
