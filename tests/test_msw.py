"""Scenario tests for Moss Side Whist, written in card notation."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.cards import FRENCH52, popcount
from engine.determinize import determinize
from engine.game import IllegalMoveError, StateFormatError, VariantError
from engine.games.mosssidewhist.rules import MossSideWhist, MossSideWhistState
from engine.games.tricks import HIDDEN_MOVE, PASS_FLAG
from engine.match import Match

D = FRENCH52


def play(state: MossSideWhistState, moves: str) -> None:
    for token in moves.split(","):
        state.apply(state.parse_move(token))


def lowest(state: MossSideWhistState, n: int, seat: int) -> list[str]:
    return [D.text(c) for c in range(52) if state.hands[seat] >> c & 1][:n]


def test_deal_and_discard_phase():
    game = MossSideWhist()
    state = game.new_hand(random.Random(4))  # dealer 2 -> seat 0 leads
    assert [popcount(h) for h in state.hands] == [20, 16, 16]
    assert state.current_player == 0 and state.discarding
    assert all(m & PASS_FLAG for m in state.legal_moves()) and len(state.legal_moves()) == 20
    with pytest.raises(IllegalMoveError, match="must first discard 4 more card"):
        state.apply(state.legal_moves()[0] ^ PASS_FLAG)
    four = lowest(state, 4, 0)
    play(state, ",".join(f"discard {c}" for c in four))
    assert state.move_text(state.history[0][1]) == f"discard {four[0]}"
    assert not state.discarding and state.current_player == 0
    assert [popcount(h) for h in state.hands] == [16, 16, 16]
    assert state.discards == D.parse_set(" ".join(four))
    with pytest.raises(IllegalMoveError, match="the discards are done"):
        state.apply(state.legal_moves()[0] | PASS_FLAG)


def test_discards_are_hidden_from_the_others_and_known_to_the_leader():
    game = MossSideWhist()
    state = game.new_hand(random.Random(9))
    mine = [c for c in range(52) if state.hands[0] >> c & 1]
    play(state, f"discard {D.text(mine[0])},discard {D.text(mine[1])}")
    for seat in (1, 2):
        obs = state.observation(seat)
        assert [m for s, m in obs.state.history] == [HIDDEN_MOVE, HIDDEN_MOVE]
        assert obs.state.discards == 0
        slot = next(s for s in obs.slots if s.name == "discards")
        assert slot.owner == -1 and slot.count == 2
        assert popcount(obs.unknown) == 18 + 16 + 2
        sample = determinize(obs, random.Random(seat))
        assert popcount(sample.discards) == 2 and sample.observation(seat) == obs
        sample.validate()
    leader = state.observation(0)
    assert leader.state.discards == state.discards
    assert all(s.name != "discards" for s in leader.slots)
    assert [m for s, m in leader.state.history] == [m for s, m in state.history]
    # Fairness: a different choice of discards looks the same to seats 1 and 2.
    other = game.new_hand(random.Random(9))
    play(other, f"discard {D.text(mine[2])},discard {D.text(mine[3])}")
    assert other.observation(1) == state.observation(1) and other.observation(2) == state.observation(2)
    assert other.observation(0) != state.observation(0)


def test_spades_trump_follow_suit_and_the_leader_leads():
    game = MossSideWhist()
    hands = [D.parse_set("AC KC QC JC 2S 3S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H"),
             D.parse_set("2C 3C 4C 5C 6C 7C 8C 9C TC 3H 4H 5H 6H 7H 8H 9H"),
             D.parse_set("4S 5S 6S 7S 8S 9S TS JS QS KS AS TH JH QH KH AH")]
    state = MossSideWhistState(game, hands, 0, 2)
    play(state, "discard 2H,discard 2D,discard 3D,discard 4D")
    play(state, "AC")
    assert sorted(state.legal_moves()) == sorted(D.parse_list("2C 3C 4C 5C 6C 7C 8C 9C TC"))
    with pytest.raises(IllegalMoveError, match="must follow suit: Clubs was led"):
        state.apply(D.parse("3H"))
    play(state, "2C,4S")  # seat 2 is void in clubs and trumps
    assert state.current_player == 2 and state.tricks_won == [0, 0, 1]
    assert state.voids[2] == 1 << 0


def test_scoring_sums_to_zero_and_leader_needs_eight():
    game = MossSideWhist()
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_hand(rng, dealer=seed % 3)
        while not state.is_terminal():
            state.do(rng.choice(state.legal_moves()))
        r = state.result()
        lead = (seed % 3 + 1) % 3
        assert r.breakdown["leader"] == lead
        assert sum(state.tricks_won) == 16 and sum(r.points) == 0
        assert r.points[lead] == state.tricks_won[lead] - 8
        assert all(r.points[s] == state.tricks_won[s] - 4 for s in range(3) if s != lead)
        assert popcount(state.discards) == 4


def test_match_rotates_the_leader_over_a_multiple_of_three_hands():
    game = registry.create("mosssidewhist", {"hands": 6})
    m = Match.start(game, seed=1)
    rng = random.Random(0)
    leaders = []
    while True:
        leaders.append(m.state.hand_leader)
        while not m.state.is_terminal():
            m.state.do(rng.choice(m.state.legal_moves()))
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert leaders == [0, 1, 2, 0, 1, 2]
    assert sum(m.totals) == 0
    assert m.winners() == [i for i, t in enumerate(m.totals) if t == max(m.totals)]
    with pytest.raises(VariantError, match="multiple of 3"):
        MossSideWhist({"hands": 4})


def test_bad_json_and_unchanged_state_on_illegal_move():
    game = MossSideWhist()
    state = game.new_hand(random.Random(2))
    play(state, f"discard {lowest(state, 1, 0)[0]}")
    assert game.state_from_json(state.to_json()) == state
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match="not in seat 0's hand"):
        state.apply(state.history[0][1])
    assert state.to_json() == before
    for mutate in (lambda d: d["state"].__setitem__("discards_done", 3),
                   lambda d: d["state"].__setitem__("discards", ""),
                   lambda d: d["state"].__setitem__("trump", 0),
                   lambda d: d["state"].__setitem__("discards", "XX"),
                   lambda d: d["state"].__setitem__("hand_leader", "0")):
        d = json.loads(before)
        mutate(d)
        with pytest.raises(StateFormatError):
            game.state_from_json(d)


def test_hidden_discard_has_a_text():
    state = MossSideWhist().new_hand(random.Random(3))
    play(state, f"discard {lowest(state, 1, 0)[0]}")
    obs = state.observation(2)
    assert obs.state.move_text(obs.state.history[0][1]) == "discard (face down)"


def test_history_must_match_the_cards():
    game = MossSideWhist()
    state = game.new_hand(random.Random(2))
    play(state, ",".join(f"discard {c}" for c in lowest(state, 4, 0)))
    play(state, D.text(state.legal_moves()[0]))
    d = json.loads(state.to_json())
    d["state"]["history"][-1][1] = d["state"]["history"][-1][1] ^ 1
    with pytest.raises(StateFormatError, match="history"):
        game.state_from_json(d)
    d = json.loads(state.to_json())
    d["state"]["history"][0][0] = 1
    with pytest.raises(StateFormatError, match="only the leader discards"):
        game.state_from_json(d)
