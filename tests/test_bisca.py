"""Scenario tests for Bisca and Briscola, written in card notation."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.cards import popcount
from engine.determinize import determinize
from engine.game import IllegalMoveError, StateFormatError, VariantError
from engine.games.tricks.bisca import SWAP_FLAG, Bisca, BiscaState, Briscola
from engine.match import Match


class FixedDeal(random.Random):
    """An rng whose shuffle puts the named cards first (in order) and the rest in index order."""

    def __init__(self, deck, first: str) -> None:
        super().__init__(0)
        self.order = deck.parse_list(first)
        self.order += [c for c in range(deck.size) if c not in self.order]

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        x[:] = self.order


def deal(game, first: str, dealer: int = -1) -> BiscaState:
    """Deal: leader's cards, then the dealer's, then the turned trump, then the stock from the top."""
    return game.new_hand(FixedDeal(game.deck, first), dealer=dealer)


def play(state, moves: str) -> None:
    for token in moves.split(","):
        state.apply(state.parse_move(token))


def test_deal_non_dealer_leads_and_trump_lies_under_the_stock():
    game = Bisca()
    state = game.new_hand(random.Random(3))
    assert [popcount(h) for h in state.hands] == [9, 9]
    assert len(state.stock) == 22
    assert state.current_player == 0 and state.dealer == 1
    assert state.face_up == state.trump_card
    assert game.suit_of[state.trump_card] == state.trump
    # JSON lists the stock top first: the face-up trump is the last card drawn.
    assert state.to_dict()["stock"][-1] == game.deck.text(state.trump_card)


def test_winner_draws_first_then_loser():
    game = Bisca({"hand_size": 3})
    state = deal(game, "AH 2C 3C  KH 4C 5C  7S  QD JD")
    assert state.trump == game.deck.suits.index("S")
    play(state, "AH,KH")  # seat 0 leads the ace and wins
    assert state.hands[0] >> game.deck.parse("QD") & 1  # the winner took the top card
    assert state.hands[1] >> game.deck.parse("JD") & 1
    assert state.current_player == 0
    play(state, "2C,4C")  # 4C beats 2C: seat 1 wins and draws first
    assert state.current_player == 1
    assert len(state.to_dict()["stock"]) == 40 - 6 - 4


def test_last_stock_card_is_the_face_up_trump_and_everyone_sees_who_takes_it():
    game = Bisca({"hand_size": 9})
    rng = random.Random(11)
    state = game.new_hand(rng)
    trump_card = state.trump_card
    while len(state.stock) > 2:
        state.do(state.legal_moves()[0])
    assert state.stock[0] == trump_card
    # Last stock trick: the loser draws the face-up trump.
    state.do(state.legal_moves()[0])
    state.do(state.legal_moves()[0])
    assert not state.stock
    winner = state.current_player
    loser = 1 - winner
    assert state.hands[loser] >> trump_card & 1
    obs = state.observation(winner)
    assert not obs.unknown >> trump_card & 1
    assert obs.state.hands[loser] >> trump_card & 1
    # Once the stock is out the winner knows the loser's hand exactly: a single possible world.
    assert popcount(obs.unknown) == obs.slots[0].count == 8
    assert obs.slots[0].allowed == obs.unknown


def test_any_card_while_stock_remains_and_no_void_is_inferred():
    game = Bisca({"hand_size": 3})
    state = deal(game, "AH 2C 3C  KH 4C 5D  7S")
    play(state, "2C")
    assert sorted(state.legal_moves()) == sorted(game.deck.parse_list("KH 4C 5D"))  # no need to follow
    play(state, "KH")
    assert state.voids == [0, 0]  # discarding while stock remains reveals no void


def test_bisca_follow_rule_scenario_after_stock():
    game = Bisca({"hand_size": 3})
    state = BiscaState(game, [game.deck.parse_set("AH 2C 3S"), game.deck.parse_set("KH 4C 5D")], 0,
                       game.deck.suits.index("S"), 1, game.deck.parse("7S"), [])
    play(state, "2C")
    assert state.legal_moves() == [game.deck.parse("4C")]
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="must follow suit once the stock is empty: Clubs was led"):
        state.apply(game.deck.parse("KH"))
    assert state.to_dict() == before


def test_briscola_never_requires_following():
    game = Briscola()
    deck = game.deck
    state = BiscaState(game, [deck.parse_set("AD 2C 3S"), deck.parse_set("KD 4C 5B")], 0,
                       deck.suits.index("S"), 1, deck.parse("7S"), [])
    play(state, "2C")
    assert sorted(state.legal_moves()) == sorted(deck.parse_list("KD 4C 5B"))
    play(state, "KD")
    assert state.voids == [0, 0]
    # Briscola ranking: 3 beats King, Ace beats 3; points A=11, 3=10, K=4, H=3, J=2.
    assert game.strength[deck.parse("3C")] > game.strength[deck.parse("KC")]
    assert game.strength[deck.parse("AC")] > game.strength[deck.parse("3C")]
    assert [game.card_points[deck.parse(t)] for t in "AC 3C KC HC JC 7C".split()] == [11, 10, 4, 3, 2, 0]


def test_trump_exchange_swaps_for_the_face_up_card():
    game = Bisca({"hand_size": 3, "trump_exchange": "2"})
    state = deal(game, "2S 4C 5C  KH 6C QC  AS  3D 4D")
    swap = state.parse_move("swap 2S")
    assert swap == SWAP_FLAG | game.deck.parse("2S")
    assert swap in state.legal_moves()
    assert state.move_text(swap) == "swap 2S"
    play(state, "swap 2S")
    assert state.current_player == 0  # the exchange does not end the turn
    assert state.face_up == game.deck.parse("2S")
    assert state.hands[0] >> game.deck.parse("AS") & 1
    assert swap not in state.legal_moves()
    # The opponent knows the ace of trumps is in seat 0's hand.
    obs = state.observation(1)
    assert obs.state.hands[0] == 1 << game.deck.parse("AS")
    assert obs.state.stock == [game.deck.parse("2S")]
    # JSON keeps it.
    again = game.state_from_json(state.to_json())
    assert again == state and again.revealed == state.revealed


def test_trump_exchange_illegal_cases():
    off = Bisca({"hand_size": 3})
    state = deal(off, "2S 4C 5C  KH 6C QC  AS")
    assert state.illegal_reason(SWAP_FLAG | off.deck.parse("2S")) == "the trump exchange variant is off"
    seven = Bisca({"hand_size": 3, "trump_exchange": "7"})
    state = deal(seven, "2S 4C 5C  KH 6C QC  AS")
    assert "only the 7S may be exchanged" in state.illegal_reason(SWAP_FLAG | seven.deck.parse("2S"))
    game = Bisca({"hand_size": 3, "trump_exchange": "2"})
    state = BiscaState(game, [game.deck.parse_set("2S 4C 5C"), game.deck.parse_set("KH 6C QC")], 0,
                       3, 1, game.deck.parse("AS"), [])
    assert "stock is empty" in state.illegal_reason(SWAP_FLAG | game.deck.parse("2S"))


def test_trump_exchange_seven_with_italian_deck():
    game = Briscola({"trump_exchange": "7"})
    deck = game.deck
    state = deal(game, "7D 4C 5C  KS 6C HC  AD")
    play(state, "swap 7D")
    assert state.face_up == deck.parse("7D") and state.hands[0] >> deck.parse("AD") & 1


def _finished(game, won0: str, won1: str, tricks: tuple[int, int]) -> BiscaState:
    deck = game.deck
    state = BiscaState(game, [0, 0], 0, 0, 1, deck.parse("2C"), [])
    state.won = [deck.parse_set(won0), deck.parse_set(won1)]
    state.tricks_won = list(tricks)
    return state


def test_sixty_sixty_is_a_draw_and_61_wins():
    game = Bisca()
    deck = game.deck
    everything = deck.set_text(deck.full_mask)
    cards = everything.split()
    won0 = "AC AD AH AS KC KD JC JD QC"  # 44 + 8 + 6 + 2 = 60
    rest = " ".join(c for c in cards if c not in won0.split())
    state = _finished(game, won0, rest, (5, 15))
    result = state.result()
    assert result.team_points == [60.0, 60.0]
    assert result.winners == [] and result.outcome(0) == 0.5
    won0b = won0 + " QD"
    rest_b = " ".join(c for c in cards if c not in won0b.split())
    result = _finished(game, won0b, rest_b, (5, 15)).result()
    assert result.team_points == [62.0, 58.0] and result.winners == [0]
    assert result.breakdown["game_points"] == [1, 0]


def test_match_modes():
    best3 = Bisca({"match": "best3", "hand_size": 3})
    assert best3.match_target() == 2
    m = Match.start(best3, seed=5)
    rng = random.Random(1)
    while True:
        while not m.state.is_terminal():
            m.state.do(rng.choice(m.state.legal_moves()))
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert max(m.totals) == 2 and len(m.hands) >= 2
    assert all(t == sum(1 for h in m.hands if h.winners == [i]) for i, t in enumerate(m.totals))
    points4 = Bisca({"match": "points4", "hand_size": 3})
    m = Match.start(points4, seed=9)
    while True:
        while not m.state.is_terminal():
            m.state.do(rng.choice(m.state.legal_moves()))
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert max(m.totals) >= 4
    assert m.totals == [sum(h.breakdown["game_points"][i] for h in m.hands) for i in range(2)]
    assert Bisca().match_target() is None


def test_four_player_partnerships():
    game = registry.create("bisca", {"players": 4, "hand_size": 3})
    assert game.teams() == [(0, 2), (1, 3)]
    state = game.new_hand(random.Random(2))
    assert [popcount(h) for h in state.hands] == [3, 3, 3, 3] and len(state.stock) == 28
    rng = random.Random(4)
    while not state.is_terminal():
        state.do(rng.choice(state.legal_moves()))
    r = state.result()
    assert sum(r.team_points) == 120 and r.points[0] == r.points[2] and r.points[1] == r.points[3]
    with pytest.raises(VariantError, match="hand_size=3"):
        Bisca({"players": 4, "hand_size": 7})


def test_observation_stock_slot_and_determinization():
    game = Bisca()
    state = game.new_hand(random.Random(8))
    obs = state.observation(0)
    stock_slot = next(s for s in obs.slots if s.name == "stock")
    assert stock_slot.owner == -1 and stock_slot.ordered and stock_slot.count == 21
    assert not obs.unknown >> state.trump_card & 1
    assert obs.state.stock == [state.trump_card]
    assert obs.state.stock_size == state.stock_size == 22
    assert obs.state.hands[1] == 0
    rng = random.Random(1)
    tops = set()
    for _ in range(20):
        sample = determinize(obs, rng)
        assert sample.stock[0] == state.trump_card and len(sample.stock) == 22
        assert sample.hands[0] == state.hands[0]
        assert sample.observation(0) == obs
        tops.add(sample.stock[-1])
        sample.validate()
    assert len(tops) > 5  # the stock order is resampled


def test_observation_fairness_hidden_stock_order_and_opponent_hand():
    game = Bisca({"hand_size": 3})
    state = game.new_hand(random.Random(21))
    other = state.clone()
    # Swap one card between the opponent's hand and the stock, and reorder the stock.
    opp_card = next(c for c in range(40) if other.hands[1] >> c & 1)
    stock_card = other.stock[5]
    other.hands[1] = other.hands[1] & ~(1 << opp_card) | 1 << stock_card
    other.stock[5] = opp_card
    other.stock[1:] = other.stock[1:][::-1]
    assert other != state
    assert other.observation(0) == state.observation(0)
    assert other.observation(1) != state.observation(1)


def test_illegal_moves_leave_state_unchanged():
    game = Bisca({"hand_size": 3})
    state = deal(game, "AH 2C 3C  KH 4C 5C  7S")
    before = state.to_json()
    for bad, text in ((game.deck.parse("KH"), "not in seat 0's hand"), (99, "not a card"),
                      (-3, "not a move of bisca"), (1 << 12, "not a move"),
                      (SWAP_FLAG | game.deck.parse("2S"), "exchange variant is off")):
        with pytest.raises(IllegalMoveError, match=text):
            state.apply(bad)
        assert state.to_json() == before
    with pytest.raises(IllegalMoveError, match="must be an int"):
        state.apply("AH")  # type: ignore[arg-type]


def test_bad_json_raises_state_format_error():
    game = Bisca()
    state = game.new_hand(random.Random(1))
    good = json.loads(state.to_json())
    assert game.state_from_json(good) == state
    cases = []
    dup = json.loads(state.to_json())
    dup["state"]["stock"][0] = dup["state"]["hands"][0].split()[0]
    cases.append(dup)
    missing = json.loads(state.to_json())
    missing["state"]["stock"].pop(0)
    cases.append(missing)
    badcard = json.loads(state.to_json())
    badcard["state"]["stock"][0] = "ZZ"
    cases.append(badcard)
    wrongtrump = json.loads(state.to_json())
    wrongtrump["state"]["trump"] = (wrongtrump["state"]["trump"] + 1) % 4
    cases.append(wrongtrump)
    version = json.loads(state.to_json())
    version["version"] = 99
    cases.append(version)
    nostock = json.loads(state.to_json())
    del nostock["state"]["stock"]
    cases.append(nostock)
    history = json.loads(state.to_json())
    history["state"]["history"].append([0, 3])
    cases.append(history)
    for case in cases:
        with pytest.raises(StateFormatError):
            game.state_from_json(case)
    with pytest.raises(StateFormatError):
        game.state_from_json("{not json")
    with pytest.raises(StateFormatError):
        registry.create("briscola").state_from_json(good)


def test_random_play_totals_and_rules():
    for name, variant in (("bisca", {}), ("briscola", {}), ("bisca", {"trump_exchange": "2", "hand_size": 3})):
        game = registry.create(name, variant)
        for seed in range(15):
            rng = random.Random(seed)
            state = game.new_hand(rng)
            while not state.is_terminal():
                moves = state.legal_moves()
                if state.trick and not state.stock and name == "bisca":
                    led = game.suit_of[state.trick[0]]
                    hand = state.hands[state.current_player]
                    if hand & game.suit_masks[led]:
                        assert all(game.suit_of[m] == led for m in moves)
                state.do(rng.choice(moves))
            assert sum(state.result().team_points) == 120
            assert sum(state.tricks_won) == 20


def test_determinization_is_uniform_over_hand_and_stock_order():
    """Each unknown card lies in the opponent's hand with probability 9/30 and on top of the stock with
    probability 1/30 (chi-square over 30 cards, df = 29, 0.999 quantile ~ 58.3; seeded, so deterministic)."""
    game = Bisca()
    obs = game.new_hand(random.Random(17)).observation(0)
    unknown = [c for c in range(40) if obs.unknown >> c & 1]
    assert len(unknown) == 30
    rng = random.Random(5)
    samples = 1500
    in_hand = dict.fromkeys(unknown, 0)
    on_top = dict.fromkeys(unknown, 0)
    for _ in range(samples):
        s = determinize(obs, rng)
        for c in unknown:
            in_hand[c] += s.hands[1] >> c & 1
        on_top[s.stock[-1]] += 1
    p = 9 / 30
    chi_hand = sum((in_hand[c] - samples * p) ** 2 / (samples * p * (1 - p)) for c in unknown)
    chi_top = sum((on_top[c] - samples / 30) ** 2 / (samples / 30) for c in unknown)
    assert chi_hand < 58.3 and chi_top < 58.3


def test_four_players_default_to_three_cards_each() -> None:
    from engine import registry
    from engine.game import VariantError

    assert registry.create("bisca", {"players": 4}).variant["hand_size"] == 3
    with pytest.raises(VariantError):
        registry.create("bisca", {"players": 4, "hand_size": 9})
