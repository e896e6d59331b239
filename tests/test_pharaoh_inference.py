"""Pharaoh's draw inference (``bias=draws``): what a free draw says about the drawer's hand."""

from __future__ import annotations

import random

from engine import agents, registry
from engine.agent import Budget
from engine.determinize import determinize
from engine.games.pharaoh.inference import FLOOR, declined_starts, pharaoh_draw_belief
from engine.games.pharaoh.players import pharaoh_smallest_policy, prune_smallest
from engine.games.pharaoh.rules import DRAW, Pharaoh, PharaohState, encode_play
from engine.runtime.presets import preset_spec
from engine.search import knowledge


def _smallest_hands(g: Pharaoh, hands: int, seed: int) -> list[PharaohState]:
    """Every state of ``hands`` hands played by the ``smallest`` player (who draws only with nothing to play)."""
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        state = g.new_hand(rng)
        while not state.is_terminal():
            out.append(state.clone())
            state.do(pharaoh_smallest_policy(state, rng))
    return out


def test_a_player_who_draws_only_when_stuck_never_holds_more_declined_cards_than_it_received() -> None:
    g = Pharaoh()
    signals = 0
    for state in _smallest_hands(g, 40, seed=3):
        for seat, (starts, received) in declined_starts(state).items():
            signals += 1
            assert (state.hands[seat] & starts).bit_count() <= received
    assert signals > 500


def test_a_free_draw_lowers_the_cards_that_could_have_been_played_and_a_penalty_draw_does_not() -> None:
    g = Pharaoh()
    d = g.deck
    state = g.position(["AH KH 8L XL OL", "8A KA AA XH 8H", "7L 8B 9B XB KB", "7A XA UA 7H 9H"], "9L",
                       "UB OB KL AL", current=1)
    state.do(DRAW)  # seat 1 draws on the 9 of leaves: it probably holds no leaf, no 9, no Ober, no Pharaoh
    starts, received = declined_starts(state)[1]
    assert all(starts >> d.parse(c) & 1 for c in ("XL", "9H", "OH", "UL"))
    assert not starts >> d.parse("KH") & 1 and received == 1
    state.do(encode_play([d.parse("7L")]))  # seat 2 plays a VII
    state.do(DRAW)  # seat 3 takes the penalty: no choice, no signal
    signals = declined_starts(state)
    assert 3 not in signals and signals[1] == (starts, 1)
    state.do(DRAW)  # seat 0 draws freely on the 7 of leaves
    assert declined_starts(state)[0][0] >> d.parse("8L") & 1


def test_the_belief_follows_the_public_history_only_and_keeps_every_deal_possible() -> None:
    g = Pharaoh()
    rng = random.Random(5)
    checked = 0
    for state in _smallest_hands(g, 20, seed=4)[::7]:
        obs = state.observation(state.current)
        belief = pharaoh_draw_belief(obs)
        assert belief.shape == (len(obs.slots), g.deck.size)
        assert belief.min() >= FLOOR and belief.max() <= 1.0
        twin = determinize(obs, rng)  # another deal of the hidden cards, the same public history
        assert (pharaoh_draw_belief(twin.observation(state.current)) == belief).all()
        checked += belief.min() < 1.0
    assert checked > 5


def test_biased_deals_give_a_free_drawer_fewer_of_the_cards_it_declined() -> None:
    g = Pharaoh()
    states = [s for s in _smallest_hands(g, 30, seed=6)
              if any(seat != s.current and (s.counts[seat] > received)
                     for seat, (_, received) in declined_starts(s).items())][:40]
    assert states
    rng = random.Random(7)
    uniform = biased = 0
    for state in states:
        obs = state.observation(state.current)
        belief = pharaoh_draw_belief(obs)
        signals = declined_starts(state)
        for _ in range(20):
            for bias, total in ((None, 0), (belief, 1)):
                deal = determinize(obs, rng, bias)
                held = sum((deal.hands[seat] & starts).bit_count() for seat, (starts, _) in signals.items()
                           if seat != state.current)
                if total:
                    biased += held
                else:
                    uniform += held
    assert biased < 0.8 * uniform


def test_draws_is_the_games_registered_bias_and_both_searches_play_legal_moves_with_it() -> None:
    assert knowledge.registered("pharaoh")["bias"][0] == "draws"
    game = registry.create("pharaoh")
    state = next(s for s in _smallest_hands(game, 5, seed=8) if declined_starts(s) and len(s.legal_moves()) > 1)
    obs = state.observation(state.current)
    for spec in ("ismcts:iterations=100,bias=draws,reward=score", "pimc:deals=4,depth=2"):
        move = agents.make(spec, game).choose(obs, random.Random(2), Budget())
        assert move in state.legal_moves()
        assert agents.make(spec, game).choose(obs, random.Random(2), Budget()) == move


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
    spec = preset_spec("pharaoh", "strong")
    totals = {}
    for name, reward in (("preset", ""), ("win only", ",reward=pwl")):
        agent = agents.make(spec + reward, game, iterations=300)
        agent.choose(obs, random.Random(3), Budget())
        assert agent.last_search is not None
        totals[name] = set(agent.last_search.totals.values())
    assert totals["win only"] == {0.0}
    assert len(totals["preset"]) > 1
