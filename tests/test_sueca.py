"""Scenario tests for Sueca, written in card notation."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import PORTUGUESE40, popcount
from engine.determinize import determinize
from engine.game import IllegalMoveError, StateFormatError
from engine.games.tricks.sueca import Sueca, SuecaState, game_points
from engine.match import Match

D = PORTUGUESE40
ALL = D.set_text(D.full_mask).split()


class FixedDeal(random.Random):
    """An rng whose shuffle yields the deck in index order (so the deal is known)."""

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        x.sort()


def finished(won: list[str], tricks: list[int]) -> SuecaState:
    game = Sueca()
    state = SuecaState(game, [0, 0, 0, 0], 0, 0, 3, D.parse("2C"))
    state.won = [D.parse_set(w) for w in won]
    state.tricks_won = tricks
    return state


def split(team0: str) -> tuple[str, str]:
    mine = set(team0.split())
    return team0, " ".join(c for c in ALL if c not in mine)


def test_game_point_scale():
    assert [game_points(p) for p in (0, 59, 60, 61, 90, 91, 119, 120)] == [0, 0, 0, 1, 1, 2, 2, 4]


def test_bandeira_is_four_game_points():
    team0, team1 = split(" ".join(ALL))
    r = finished([team0, "", "", ""], [10, 0, 0, 0]).result()
    assert r.team_points == [120.0, 0.0] and r.breakdown["game_points"] == [4, 0]
    assert r.breakdown["bandeira"] and r.winners == [0, 2]
    assert Sueca().match_points(r) == [4.0, 0.0]


def test_capote_is_two_game_points():
    team0, team1 = split("AC 7C AD 7D AH 7H AS 7S KC KD JC")
    r = finished([team0, team1, "", ""], [7, 3, 0, 0]).result()
    assert r.team_points == [95.0, 25.0] and r.breakdown["game_points"] == [2, 0]
    assert not r.breakdown["bandeira"]
    team0, team1 = split("AC 7C AD 7D AH 7H KC KD KH")
    r = finished(["", team1, team0, ""], [0, 4, 6, 0]).result()
    assert r.team_points == [75.0, 45.0] and r.breakdown["game_points"] == [1, 0]
    assert r.points == [75.0, 45.0, 75.0, 45.0]


def test_sixty_sixty_scores_nothing():
    team0, team1 = split("AC 7C AD 7D AH KC JC")
    r = finished([team0, team1, "", ""], [5, 5, 0, 0]).result()
    assert r.team_points == [60.0, 60.0] and r.winners == []
    assert r.breakdown["game_points"] == [0, 0]
    assert Sueca().match_points(r) == [0.0, 0.0]
    assert Sueca({"target": 0}).match_points(r) == [60.0, 60.0]


def test_follow_suit_and_no_duty_to_trump():
    game = Sueca()
    hands = [D.parse_set(h) for h in ("AC 2C 3H 4H 5H 6H 7H JH QH KH",
                                      "KC 2D 3D 4D 5D 6D 7D JD QD KD",
                                      "AH 2H 3C 4C 5C 6C AS 2S 3S 4S",
                                      "AD 7C JC QC 5S 6S 7S JS QS KS")]
    state = SuecaState(game, hands, 1, D.suits.index("H"), 0, D.parse("3H"))
    state.apply(D.parse("KC"))
    assert sorted(state.legal_moves()) == sorted(D.parse_list("3C 4C 5C 6C"))
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match="must follow suit: Clubs was led"):
        state.apply(D.parse("AH"))
    assert state.to_json() == before
    state.apply(D.parse("3C"))
    state.apply(D.parse("7C"))
    # Seat 0 holds clubs: must follow even though it could trump.
    assert sorted(state.legal_moves()) == sorted(D.parse_list("AC 2C"))
    state.apply(D.parse("2C"))
    assert state.current_player == 3 and state.tricks_won[3] == 1  # the 7 beats the king
    state.apply(D.parse("AD"))
    # Seat 0 is void in diamonds: any card, trumping not required.
    assert len(state.legal_moves()) == 9
    state.apply(D.parse("AC"))
    assert state.voids[0] == 1 << D.suits.index("D")


@pytest.mark.parametrize("side", ["top", "bottom"])
def test_trump_card_is_in_the_dealers_hand_and_visible_to_all(side):
    game = Sueca({"trump_card": side})
    state = game.new_hand(FixedDeal(0), dealer=2)
    expected = D.parse("AC") if side == "top" else D.parse("KS")
    assert state.trump_card == expected and state.trump == game.suit_of[expected]
    assert state.hands[2] >> expected & 1 and popcount(state.hands[2]) == 10
    assert state.current_player == 3
    for seat in (0, 1, 3):
        obs = state.observation(seat)
        assert obs.state.hands[2] == 1 << expected
        assert not obs.unknown >> expected & 1
        for _ in range(3):
            assert determinize(obs, random.Random(seat)).hands[2] >> expected & 1
    # Once played, the trump card is no longer in anyone's hand.
    rng = random.Random(1)
    while state.hands[2] >> expected & 1:
        if state.current_player == 2 and expected in state.legal_moves():
            state.apply(expected)
        else:
            moves = [m for m in state.legal_moves() if m != expected]
            state.apply(rng.choice(moves or state.legal_moves()))
    assert state.observation(0).state.hands[2] == 0


def test_redeal_variant_never_deals_a_claimable_hand():
    plain, redeal = Sueca(), Sueca({"redeal": True})
    claims = 0
    for seed in range(1100):  # such hands are rare (about 1 deal in 300)
        first = plain.new_hand(random.Random(seed))
        if first.redeal_claim() is not None:
            claims += 1
            again = redeal.new_hand(random.Random(seed))
            assert again.redeal_claim() is None and again.hands != first.hands
    assert claims >= 2  # the plain game does deal claimable hands, so the check above is meaningful
    # The claim rule: fewer than 10 points and no trump.
    game = Sueca()
    hands = [D.parse_set(h) for h in ("2C 3C 4C 5C 6C QC 2D 3D 4D 5D",
                                      "AC 7C KC JC 6D QD JD KD 7D AD",
                                      "2H 3H 4H 5H 6H QH JH KH 7H AH",
                                      "2S 3S 4S 5S 6S QS JS KS 7S AS")]
    state = SuecaState(game, hands, 0, D.suits.index("S"), 3, D.parse("AS"))
    assert state.redeal_claim() == 0
    state = SuecaState(game, hands, 0, D.suits.index("C"), 1, D.parse("AC"))
    assert state.redeal_claim() is None


def test_match_to_four_game_points():
    game = Sueca()
    m = Match.start(game, seed=7)
    rng = random.Random(3)
    while True:
        while not m.state.is_terminal():
            m.state.do(rng.choice(m.state.legal_moves()))
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert max(m.totals) >= 4
    assert m.totals == [float(sum(h.breakdown["game_points"][t] for h in m.hands)) for t in range(2)]


def test_bad_json_is_rejected():
    game = Sueca()
    state = game.new_hand(random.Random(1))
    d = json.loads(state.to_json())
    d["state"]["trump_card"] = "AS" if state.trump != 3 else "AC"
    with pytest.raises(StateFormatError, match="trump"):
        game.state_from_json(d)
    d = json.loads(state.to_json())
    d["state"]["hands"][0] = d["state"]["hands"][1]
    with pytest.raises(StateFormatError):
        game.state_from_json(d)
