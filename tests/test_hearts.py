"""Scenario tests for Hearts, written in card notation."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.cards import FRENCH52, popcount
from engine.determinize import determinize
from engine.game import IllegalMoveError, StateFormatError
from engine.games.hearts.rules import Hearts, HeartsState
from engine.games.tricks import HIDDEN_MOVE, PASS_FLAG
from engine.match import Match


def playouts(state):
    """The search's fast paths of ``state``'s game (its ``SearchKnowledge.playouts``)."""
    return registry.entry(state.game.name).knowledge.playouts

D = FRENCH52


def make(hands: list[str], variant: dict | None = None, dealer: int = 3) -> HeartsState:
    """A no-passing hand with the given hands (the 2 of clubs holder leads)."""
    return HeartsState(Hearts({"passing": "none", **(variant or {})}), [D.parse_set(h) for h in hands], dealer, 0)


def play(state: HeartsState, moves: str) -> None:
    for token in moves.split(","):
        state.apply(state.parse_move(token))


def cards(text: str) -> list[int]:
    return sorted(D.parse_list(text))


# A deal where the first trick exercises every restriction.
FIRST_TRICK = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",   # seat 0: all clubs, leads
    "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",   # seat 1: void in clubs, the queen + diamonds
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",   # seat 2: only hearts
    "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",   # seat 3: no point cards
]

# A deal for leading hearts: seat 1 wins the first trick with the AC and holds hearts and diamonds.
LEADS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H",
    "AC 3H 4H 5H 6H 2D 3D 4D 5D 6D 7D 8D 9D",
    "7H 8H 9H TH JH QH KH AH TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def test_two_of_clubs_leads_the_first_trick():
    state = make(FIRST_TRICK)
    assert state.current_player == 0
    assert state.legal_moves() == [D.parse("2C")]
    with pytest.raises(IllegalMoveError, match="the 2 of clubs must lead the first trick"):
        state.apply(D.parse("AC"))
    # Everyone knows who holds the 2 of clubs before it is led.
    obs = make(LEADS).observation(2)
    assert obs.state.hands[0] == 1 << D.parse("2C")
    assert not obs.unknown >> D.parse("2C") & 1


def test_no_points_on_the_first_trick():
    state = make(FIRST_TRICK)
    play(state, "2C")
    assert state.legal_moves() == cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")  # not the QS
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match="no points on the first trick"):
        state.apply(D.parse("QS"))
    assert state.to_json() == before
    play(state, "2D")
    # Seat 2 holds nothing but hearts: any heart is allowed, and everyone learns it had nothing else.
    assert len(state.legal_moves()) == 13
    play(state, "2H")
    assert state.hearts_broken
    obs = state.observation(0)
    hand2 = next(s for s in obs.slots if s.owner == 2)
    assert hand2.allowed & ~(D.suit_mask(2) | 1 << D.parse("QS")) == 0
    assert state.legal_moves() == cards("AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS")
    play(state, "AD")
    assert state.current_player == 0 and state.tricks_won == [1, 0, 0, 0]
    assert state.penalty_taken(0) == 1


def test_first_trick_queen_allowed_only_with_nothing_else():
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
             "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
             "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    state = make(hands)
    play(state, "2C")
    assert D.parse("QS") in state.legal_moves() and len(state.legal_moves()) == 13
    play(state, "QS")
    assert state.hearts_broken  # queen_breaks_hearts is on by default
    off = make(hands, {"queen_breaks_hearts": False})
    play(off, "2C,QS")
    assert not off.hearts_broken


def test_hearts_cannot_be_led_until_broken():
    state = make(LEADS)
    play(state, "2C,AC,TD,2S")
    assert state.current_player == 1
    assert state.legal_moves() == cards("2D 3D 4D 5D 6D 7D 8D 9D")
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match="hearts are not broken"):
        state.apply(D.parse("3H"))
    assert state.to_json() == before
    # The Q of spades breaks hearts (default) ...
    play(state, "2D,JD,QS,3C")
    assert state.hearts_broken and state.current_player == 2
    assert D.parse("7H") in state.legal_moves()


def test_queen_does_not_break_hearts_when_the_option_is_off():
    state = make(LEADS, {"queen_breaks_hearts": False})
    play(state, "2C,AC,TD,2S,2D,JD,QS,3C")
    assert not state.hearts_broken and state.current_player == 2
    assert state.legal_moves() == cards("QD KD AD")
    # A discarded heart breaks them.
    play(state, "QD,3S,2H,3D")
    assert state.hearts_broken


def test_queen_of_spades_may_be_led_and_only_hearts_may_lead_hearts():
    state = make(LEADS)
    play(state, "2C,AC,TD,2S,2D,JD,3S,3C")  # seat 2 wins with the JD
    play(state, "QD,4S,4C,3D")
    play(state, "KD,5S,5C,4D")
    play(state, "AD,6S,6C,5D")
    assert state.current_player == 2 and not state.hearts_broken
    assert state.hands[2] == D.parse_set("7H 8H 9H TH JH QH KH AH")
    assert len(state.legal_moves()) == 8  # only hearts left: hearts may be led
    play(state, "7H")
    assert state.hearts_broken
    hand2 = next(s for s in state.observation(0).slots if s.owner == 2)
    assert hand2.allowed & ~D.suit_mask(2) == 0  # everyone now knows seat 2 holds only hearts


def test_queen_of_spades_may_be_led_before_hearts_are_broken():
    state = make(FIRST_TRICK)
    state.hands = [D.parse_set("QS 2H 3C"), D.parse_set("4C 5C 6C"), D.parse_set("7C 8C 9C"),
                   D.parse_set("TC JC QC")]
    state.tricks_won = [10, 0, 0, 0]
    state.leader = state.current = 0
    assert state.legal_moves() == cards("3C QS")
    play(state, "QS")
    assert state.hearts_broken


def _terminal(won: list[str], variant: dict | None = None) -> HeartsState:
    state = make(FIRST_TRICK, variant)
    state.hands = [0, 0, 0, 0]
    state.won = [D.parse_set(w) for w in won]
    state.tricks_won = [popcount(w) // 4 for w in state.won]
    return state


ALL_POINTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS"
REST = [c for c in D.set_text(D.full_mask).split() if c not in ALL_POINTS.split()]


def test_plain_scoring_and_winners():
    won = ["2H 3H " + " ".join(REST[:10]), "QS " + " ".join(REST[10:21]),
           "4H 5H 6H 7H 8H 9H TH JH QH KH AH " + " ".join(REST[21:26]), " ".join(REST[26:38])]
    r = _terminal(won).result()
    assert r.points == [2.0, 13.0, 11.0, 0.0] and r.winners == [3] and r.lower_is_better
    assert r.breakdown["queen_of_spades"] == 1 and r.breakdown["moon"] is None
    assert sum(r.breakdown["penalty"]) == 26


def test_shooting_the_moon_both_options_and_jack_of_diamonds():
    others = [c for c in REST if c != "JD"]  # 37 cards
    won = [" ".join(others[:12]), " ".join(others[12:24]), ALL_POINTS + " JD " + " ".join(others[24:25]),
           " ".join(others[25:])]
    r = _terminal(won).result()
    assert r.points == [26.0, 26.0, 0.0, 26.0] and r.winners == [2] and r.breakdown["moon"] == 2
    r = _terminal(won, {"moon": "minus"}).result()
    assert r.points == [0.0, 0.0, -26.0, 0.0] and r.winners == [2]
    r = _terminal(won, {"moon": "minus", "jack_diamonds": True}).result()
    assert r.points == [0.0, 0.0, -36.0, 0.0] and r.breakdown["jack_of_diamonds"] == 2
    won_j = ["2H 3H " + " ".join(others[:10]), "QS JD " + " ".join(others[10:20]),
             "4H 5H 6H 7H 8H 9H TH JH QH KH AH " + " ".join(others[20:25]), " ".join(others[25:])]
    r = _terminal(won_j, {"jack_diamonds": True}).result()
    assert r.points == [2.0, 3.0, 11.0, 0.0] and r.breakdown["jack_of_diamonds"] == 1
    assert _terminal(won_j).result().points == [2.0, 13.0, 11.0, 0.0]


def test_lean_reward_points_follow_the_moon_and_jack_rules():
    """``reward_points`` (the search's relative and score rewards) gives ``result()``'s points and span
    with a moon shot under both rules and the jack of diamonds."""
    others = [c for c in REST if c != "JD"]
    moon = [" ".join(others[:12]), " ".join(others[12:24]), ALL_POINTS + " JD " + " ".join(others[24:25]),
            " ".join(others[25:])]
    split = ["2H 3H " + " ".join(others[:10]), "QS JD " + " ".join(others[10:20]),
             "4H 5H 6H 7H 8H 9H TH JH QH KH AH " + " ".join(others[20:25]), " ".join(others[25:])]
    for won in (moon, split):
        for variant in ({}, {"moon": "minus"}, {"moon": "minus", "jack_diamonds": True}, {"jack_diamonds": True}):
            state = _terminal(won, variant)
            res = state.result()
            points, span, low = playouts(state).reward_points(state)
            assert points == res.points and low
            assert span == max(sum(abs(p) for p in res.team_points), 1.0)
    minus = _terminal(moon, {"moon": "minus", "jack_diamonds": True})
    assert playouts(minus).reward_points(minus)[0] == [0, 0, -36, 0]


def test_passing_directions_by_hand_index():
    game = Hearts()
    expected = [1, 3, 2, 0, 1]  # left, right, across, hold, left
    assert [game.pass_offset(i) for i in range(5)] == expected
    seeds001 = Hearts({"passing": "rotate_across"})
    assert [seeds001.pass_offset(i) for i in range(4)] == [1, 2, 3, 0]
    assert Hearts({"passing": "none"}).pass_offset(0) == 0
    hold = game.new_hand(random.Random(1), hand_index=3)
    assert not hold.passing and all(m < PASS_FLAG for m in hold.legal_moves())


@pytest.mark.parametrize("hand_index,offset", [(0, 1), (1, 3), (2, 2)])
def test_passes_are_hidden_and_delivered_together(hand_index, offset):
    game = Hearts()
    state = game.new_hand(random.Random(7), dealer=3, hand_index=hand_index)
    original = state.hands[:]
    assert state.passing and state.current_player == 0
    assert all(m & PASS_FLAG for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="pass three cards first"):
        state.apply(state.legal_moves()[0] ^ PASS_FLAG)
    rng = random.Random(3)
    for i in range(12):
        seat = state.current_player
        assert seat == i // 3
        move = rng.choice(state.legal_moves())
        assert state.move_text(move).startswith("pass ")
        state.apply(move)
        if i < 11:  # nothing is received before every seat has chosen
            received = [state.hands[s] & ~original[s] for s in range(4)]
            assert not any(received)
        if i == 5:
            obs = state.observation(2)
            assert [m for s, m in obs.state.history] == [HIDDEN_MOVE] * 6
            assert obs.state.passed == [0, 0, 0, 0]
            assert {s.name for s in obs.slots} == {"hand0", "hand1", "hand3", "pass0", "pass1"}
            sample = determinize(obs, random.Random(1))
            assert popcount(sample.passed[0]) == 3 and sample.observation(2) == obs
            sample.validate()
            mine = state.observation(0)
            assert [m for s, m in mine.state.history[:3]] == [m for s, m in state.history[:3]]
            assert mine.state.passed[0] == state.passed[0]
    assert not state.passing
    for s in range(4):
        assert popcount(state.hands[s]) == 13
        assert state.hands[(s + offset) % 4] & state.passed[s] == state.passed[s]
    assert state.hands[state.current_player] >> D.parse("2C") & 1
    # The passer knows where its cards went (until played); a third seat does not.
    target = offset % 4
    obs0 = state.observation(0)
    assert obs0.state.hands[target] & state.passed[0] == state.passed[0]
    third = next(s for s in range(1, 4) if s != target)
    # The receiver knows what it received and from whom; the third seat sees no pass.
    assert state.observation(target).state.passed[0] == state.passed[0]
    assert state.observation(third).state.passed[0] == 0
    assert not state.observation(third).state.hands[target] & state.passed[0]
    for _ in range(5):
        sample = determinize(obs0, rng)
        assert sample.observation(0) == obs0
        sample.validate()


def test_fairness_of_pass_observations():
    game = Hearts()
    a = game.new_hand(random.Random(5))
    b = a.clone()
    mine = [c for c in range(52) if a.hands[0] >> c & 1]
    play(a, ",".join(f"pass {D.text(c)}" for c in mine[:3]))
    play(b, ",".join(f"pass {D.text(c)}" for c in mine[-3:]))
    assert a != b
    assert a.observation(1) == b.observation(1) and a.observation(2) == b.observation(2)
    assert a.observation(0) != b.observation(0)


def test_match_to_target_lowest_total_wins():
    game = Hearts({"target": 50, "passing": "none"})
    assert game.lower_is_better() and game.match_target() == 50
    m = Match.start(game, seed=3)
    rng = random.Random(2)
    while True:
        while not m.state.is_terminal():
            m.state.do(rng.choice(m.state.legal_moves()))
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert max(m.totals) >= 50
    assert m.winners() == [i for i, t in enumerate(m.totals) if t == min(m.totals)]
    assert all(sum(h.points) in (26, 78) for h in m.hands)
    assert Hearts({"target": 0}).match_target() is None


def test_random_play_invariants_with_passing():
    for variant in ({}, {"jack_diamonds": True, "moon": "minus"}):
        game = Hearts(variant)
        for seed in range(12):
            rng = random.Random(seed)
            state = game.new_hand(rng, hand_index=seed)
            while not state.is_terminal():
                state.do(rng.choice(state.legal_moves()))
            r = state.result()
            taken = r.breakdown["penalty"]
            assert sum(taken) == 26 and sum(state.tricks_won) == 13
            assert sum(popcount(w) for w in state.won) == 52


def test_bad_json_and_illegal_moves():
    game = Hearts()
    state = game.new_hand(random.Random(1))
    play(state, "pass " + D.text([c for c in range(52) if state.hands[0] >> c & 1][0]))
    assert game.state_from_json(state.to_json()) == state
    with pytest.raises(IllegalMoveError, match="not in seat 0's hand"):
        state.apply(state.history[0][1])
    for mutate in (lambda d: d["state"]["passed"].__setitem__(0, ""),
                   lambda d: d["state"].__setitem__("passes_done", 13),
                   lambda d: d["state"].__setitem__("hearts_broken", "no"),
                   lambda d: d["state"].__setitem__("trump", 2),
                   lambda d: d["state"]["hands"].__setitem__(1, d["state"]["hands"][2]),
                   lambda d: d["state"]["history"].append([1, 5 | PASS_FLAG])):
        d = json.loads(state.to_json())
        mutate(d)
        with pytest.raises(StateFormatError):
            game.state_from_json(d)
    playing = make(FIRST_TRICK)
    with pytest.raises(IllegalMoveError, match="no passing now"):
        playing.apply(D.parse("2C") | PASS_FLAG)
    with pytest.raises(IllegalMoveError, match="not in seat 0's hand"):
        playing.apply(D.parse("2D"))


def test_hidden_pass_has_a_text():
    state = Hearts().new_hand(random.Random(3))
    play(state, "pass " + D.text([c for c in range(52) if state.hands[0] >> c & 1][0]))
    obs = state.observation(1)
    assert obs.state.move_text(obs.state.history[0][1]) == "pass (face down)"
    assert state.describe_move(state.history[0][1]).endswith("left")


def _rule_allows(hand: int, trick: list[int], first: bool, broken: bool, card: int) -> bool:
    """Hearts play rules written independently of the engine, for the random-play check."""
    suit = card // 13
    points = D.suit_mask(2) | 1 << D.parse("QS")
    if trick:
        led = trick[0] // 13
        if hand & D.suit_mask(led):
            return suit == led
        if first and 1 << card & points:
            return not hand & ~points
        return True
    if first:
        return card == D.parse("2C")
    if suit == 2 and not broken:
        return not hand & ~D.suit_mask(2)
    return True


@pytest.mark.parametrize("variant", [{}, {"queen_breaks_hearts": False, "passing": "across"}])
def test_every_random_move_follows_the_rules(variant):
    game = Hearts(variant)
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_hand(rng)
        broken = False
        while not state.is_terminal():
            moves = state.legal_moves()
            move = moves[int(rng.random() * len(moves))]
            if not move & PASS_FLAG:
                hand = state.hands[state.current_player]
                first = sum(state.tricks_won) == 0
                allowed = [c for c in range(52) if hand >> c & 1 and _rule_allows(hand, state.trick, first, broken, c)]
                assert sorted(moves) == allowed
                if move // 13 == 2 or (move == D.parse("QS") and game.queen_breaks):
                    broken = True
            state.do(move)
        assert state.hearts_broken == broken
        assert sum(state.result().breakdown["penalty"]) == 26
