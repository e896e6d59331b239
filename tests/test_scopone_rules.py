"""Scopone rule-based players (dipalma2014 chapter 4): one position per rule, guessing system, agents, hooks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import agents, registry
from engine.determinize import determinize
from engine.games.scopone import players as R
from engine.games.scopone.rules import DECK, ScoponeState, make_move
from tests.test_heuristic_checks import fairness_check, play_out

GAME = registry.create("scopone", {"target": 0})


def mv(text: str) -> int:
    """A move from notation: ``7D`` lays, ``7Dx3C+4S`` captures."""
    head, _, tail = text.partition("x")
    return make_move(DECK.parse(head), DECK.parse_set(tail.replace("+", " ")) if tail else 0)


def position(hand: str, table: str = "", me: int = 0, dealer: int = 3, captured: str = "",
             history: list[tuple[int, str]] | None = None, plays: int | None = None,
             side1_captured: str = "") -> R.ScoponeView:
    """The view of seat ``me`` (to move) with ``hand`` and ``table``; ``captured`` cards are credited to
    side 0; every other card is spread over the other seats (their exact place is hidden anyway)."""
    h = DECK.parse_set(hand)
    t = DECK.parse_set(table)
    cap = DECK.parse_set(captured)
    cap1 = DECK.parse_set(side1_captured)
    rest = [c for c in range(40) if not (h | t | cap | cap1) >> c & 1]
    hands = [0, 0, 0, 0]
    hands[me] = h
    others = [s for s in range(4) if s != me]
    for i, c in enumerate(rest):
        hands[others[i % 3]] |= 1 << c
    st = ScoponeState(GAME, hands, t, dealer, [])
    st.captured = [cap, cap1]
    st.current = me
    st.history = [(s, mv(m)) for s, m in (history or [])]
    st.plays = plays if plays is not None else max(len(st.history), 8)
    obs = st.observation(me)
    return R.ScoponeView(obs.state, me)


def moves_of(view: R.ScoponeView) -> list[int]:
    return view.state.legal_moves()


def texts(view: R.ScoponeView, result) -> object:
    if isinstance(result, list):
        return sorted(view.state.move_text(m) for m in result)
    return view.state.move_text(result) if result is not None else None


# --- Greedy --------------------------------------------------------------------------------------------
def test_greedy_values_of_table_4_1():
    assert R.GREEDY_VALUE[DECK.parse("7D")] == 139
    assert R.GREEDY_VALUE[DECK.parse("6D")] == 28 and R.GREEDY_VALUE[DECK.parse("KD")] == 20
    assert R.GREEDY_VALUE[DECK.parse("7C")] == 29 and R.GREEDY_VALUE[DECK.parse("AS")] == 16
    assert R.GREEDY_VALUE[DECK.parse("JB")] == 10


def test_greedy_seed_example_takes_the_highest_total():
    # dipalma2014 4.1: table 6D AC 4D 3S 6(hearts -> cups here),
    # the settebello takes 6D+AC (183) over 4D+3S (176) and 6C+AC (173).
    v = position("7D 2B", "6D AC 4D 3S 6C")
    assert texts(v, R.greedy_strategy(v, moves_of(v))) == "7Dx6D+AC"


def test_greedy_lays_least_important_card_and_avoids_scopa():
    # Laying the 2B leaves 5C+2B = 7 for an unknown 7 (a scopa); the 5S must take the 5C.
    v = position("2B 5S HD", "5C")
    moves = moves_of(v)
    assert texts(v, R.greedy_best([m for m in moves if not m >> 6])) == "2B"  # least important
    assert v.brings_to_scopa(mv("2B")) and v.brings_to_scopa(mv("HD")) is False
    assert texts(v, R.greedy_strategy(v, moves)) == "5Sx5C"


# --- tallone ---------------------------------------------------------------------------------------------
def test_cs5_third_hand_keeps_the_decoupled_card():
    v = position("4C JS", "KC", me=2, captured="JB")
    assert texts(v, R.cs5(v, moves_of(v))) == "4C"


def test_cs4_dealer_plays_the_odd_card():
    v = position("5C 6C", "KB", me=3, captured="5D")
    assert texts(v, R.cs4(v, moves_of(v))) == ["5C"]


# --- sevens ---------------------------------------------------------------------------------------------
def test_cs27_no_sevens_does_not_offer_a_seven_spariglio():
    v = position("4D 2S", "3C")
    assert texts(v, R.cs27(v, moves_of(v))) == ["2S"]


def test_cs29_three_sevens_never_spariglio_a_seven():
    v = position("7C 7S 7B JD", "7D AC")
    assert "JDx7D+AC" in texts(v, moves_of(v))
    assert "JDx7D+AC" not in texts(v, R.cs29(v, moves_of(v)))


def test_cs28_dealer_with_two_sevens_spariglio_or_wait():
    v = position("7C 7S JD", "7B AC", me=3)
    assert texts(v, R.cs28(v, moves_of(v))) == "JDxAC+7B"
    w = position("7C 7S 2D", "KC", me=3)
    assert texts(w, R.cs28(w, moves_of(w))) == ["2D"]


def test_cs26_settebello_holder_takes_a_played_seven():
    v = position("7D 2C", "7S KB")
    assert texts(v, R.cs26(v, moves_of(v))) == "7Dx7S"


def test_cs21_teammate_with_one_seven_prefers_the_spariglio():
    v = position("7C JD", "7S AB", me=1)
    assert texts(v, R.cs21(v, moves_of(v))) == "JDx7S+AB"


def test_cs22_teammate_without_sevens_takes_a_seven_by_spariglio():
    v = position("JD 2C", "7S AB", me=1)
    assert texts(v, R.cs22(v, moves_of(v))) == "JDx7S+AB"


def test_cs20_teammate_captures_a_played_seven():
    v = position("7C 2S", "7S KB", me=1)
    assert R.cs21(v, moves_of(v)) is None
    assert texts(v, R.cs20(v, moves_of(v))) == "7Cx7S"


def test_cs23_teammate_with_two_sevens_takes_directly():
    v = position("7C 7B JD", "7S AC", me=1)
    got = texts(v, R.cs23(v, moves_of(v)))
    assert got in ("7Cx7S", "7Bx7S")
    assert texts(v, R.cs26(v, moves_of(v))) == got  # CS26 defers to CS23 for the teammate


# --- mulinello -----------------------------------------------------------------------------------------
def test_mulinello_move_leaves_only_dead_cards():
    v = position("KD 4B", "KC 3S", captured="KS KB 3C 3D 3B")
    assert "KDxKC" in texts(v, R.mulinello_moves(v, moves_of(v)))


def test_cs6_hand_team_prefers_the_mulinello_on_the_low_card():
    v = position("3D JD", "3S JB", captured="3C 3B JC JS")
    mul = R.mulinello_moves(v, moves_of(v))
    assert texts(v, mul) == ["3Dx3S", "JDxJB"]
    assert texts(v, R.cs6(v, mul)) == "JDxJB"


def test_cs7_never_play_the_fourth_card_into_an_opponents_mulinello():
    v = position("2B 5C", "KC", captured="2C 2S 2D")
    assert R.opponent_mulinello(v, mv("2B")) and not R.opponent_mulinello(v, mv("5C"))
    assert texts(v, R.cs_strategy(v, moves_of(v))) == "5C"  # Greedy would lay the cheaper 2B
    assert texts(v, R.greedy_strategy(v, moves_of(v))) == "2B"


# --- captures ------------------------------------------------------------------------------------------
def test_cs1_deck_team_minimizes_and_hand_team_maximizes_decoupled_ranks():
    table = "2C 3S 4B AC"
    deck = position("5D", table, me=3, captured="3D")
    assert texts(deck, R.cs1_choose(deck, moves_of(deck))) == "5Dx2C+3S"
    hand = position("5D", table, me=0, captured="3D")
    assert texts(hand, R.cs1_choose(hand, moves_of(hand))) == "5DxAC+4B"


def test_cs24_teammate_does_not_take_a_card_that_makes_seven_with_its_double():
    v = position("3C 5C 4D 4S", "3D 5B KB", me=1)
    assert not R.cs24_ok(v, mv("3Cx3D")) and R.cs24_ok(v, mv("5Cx5B"))
    d = R.Decision()
    assert texts(v, R.determine_move(v, moves_of(v), d)) == "5Cx5B"


def test_cs8_opening_pair_on_the_table_is_left_alone():
    v = position("HD 4C 6S", "HC HS 2D 4B", plays=0)
    assert not R.cs8_ok(v, mv("HDxHC")) and R.cs8_ok(v, mv("4Cx4B"))


def test_cs12_do_not_take_the_partners_double():
    hist = [(2, "4C"), (3, "KB")]
    v = position("4D 6B", "4C KB", history=hist)
    assert not R.cs12_ok(v, mv("4Dx4C"))


def test_cs9_capture_when_possible():
    v = position("4D KB", "4C HB 2S")
    assert R.cs_strategy(v, moves_of(v), decision=(d := R.Decision())) == mv("4Dx4C") and d.rule == "CS1"


# --- laying cards ---------------------------------------------------------------------------------------
def test_cs11_replay_the_franca_card():
    hist = [(2, "4C"), (3, "4Sx4C")]
    v = position("4D 6C", "KB", history=hist)
    assert texts(v, R.cs11(v, moves_of(v))) == ["4D"]


def test_cs13_do_not_relay_a_rank_the_partner_did_not_answer():
    hist = [(0, "5C"), (1, "5Sx5C"), (2, "6B"), (3, "KB")]
    v = position("5D 2B", "6B KB", history=hist)
    assert texts(v, R.cs13(v, moves_of(v))) == ["2B"]


def test_cs17_third_hand_plays_single_cards_without_spariglio():
    v = position("4C 4S 6D", "KB", me=2, side1_captured="AD AC 2D 2C HS HB")
    assert texts(v, R.cs17(v, moves_of(v))) == ["6D"]
    even = position("4C 4S 6D", "KB", me=2)  # the deck team has not taken more: no grip to escape
    assert R.cs17(even, moves_of(even)) is None


def test_cs16_eldest_lays_its_lowest_double():
    v = position("2C 2S 5C 5D", "KB")
    assert texts(v, R.cs16(v, moves_of(v))) in ("2C", "2S")  # not a 5, and not a single card


def test_cs14_triples_first_and_cs10_doubles_before_singles():
    v = position("3C 3S 3B 5C 5D", "KB", me=1)
    assert texts(v, R.cs10_14_15(v, moves_of(v)))[0] == "3"
    w = position("6C 6S 2B", "KB", me=1)
    assert texts(w, R.cs10_14_15(w, moves_of(w))) in ("6C", "6S")  # Greedy alone would lay 2B


def test_cs15_double_before_a_third_card():
    v = position("6C 6S 2B", "KB", me=1, captured="2C 2D")
    assert texts(v, R.cs10_14_15(v, moves_of(v))) in ("6C", "6S")


def test_cs2_hand_team_lays_the_last_decoupled_card():
    v = position("5C 3S", "KB", captured="5D 5S 5B")
    assert texts(v, R.cs2(v, moves_of(v))) == "5C"


def test_cs3_teammate_never_lays_the_last_decoupled_card():
    v = position("5C 3S", "KB", me=1, captured="5D 5S 5B")
    assert texts(v, R.cs3(v, moves_of(v))) == ["3S"]


# --- Cicuti-Guardamagna ----------------------------------------------------------------------------------
def test_cg9_dealer_does_not_redouble_after_third_hand_seven():
    v = position("4D 2B", "7C 3S", me=3, history=[(2, "7C")])
    assert texts(v, R.cg9(v, moves_of(v))) == ["2B"]


def test_cg8_dealer_takes_third_hand_seven():
    v = position("7B 2C", "7C 3S", me=3, history=[(2, "7C")])
    assert texts(v, R.cg8(v, moves_of(v))) == "7Bx7C"


def test_cg2_three_sevens_with_settebello_play_one_at_once():
    v = position("7D 7C 7S 2B", "KB")
    assert texts(v, R.cg2(v, moves_of(v))) in ("7C", "7S")


def test_cg6_three_sevens_without_settebello_lay_on_a_low_card():
    v = position("7C 7S 7B 2B", "AC", me=1)
    assert texts(v, R.cg6(v, moves_of(v))) in ("7C", "7S", "7B")


def test_cg1_teammate_with_two_sevens_always_takes_the_seven():
    v = position("7C 7S JB", "7B AD", me=1)
    assert R.cg1(v, moves_of(v)) & (1 << (DECK.parse("7B") + 6))


def test_cg5_last_two_sevens_with_settebello():
    hand_team = position("7D 7C 4B", "KB", me=0, captured="7S 7B")
    assert texts(hand_team, R.cg5(hand_team, moves_of(hand_team))) == "7D"
    deck_team = position("7D 7C 4B", "KB", me=3, captured="7S 7B")
    assert texts(deck_team, R.cg5(deck_team, moves_of(deck_team))) == "7C"


def test_cg4_hand_team_lays_the_other_seven_for_the_partner():
    v = position("7D 7C 2S", "3B")
    assert texts(v, R.cg4(v, moves_of(v))) == "7C"


def test_cg3_two_sevens_without_settebello_wait():
    v = position("7C 7S 2B", "KB")
    assert texts(v, R.cg3(v, moves_of(v))) == ["2B"]


def test_cg7_teammate_keeps_a_seven_maker_for_the_dealer():
    hist = [(3, "7S"), (0, "HBx7S+2C")]
    v = position("5C 6S", "KB", me=1, history=hist, captured="7S 2C HB")
    assert v.guessed[3] >> DECK.parse("7D") & 1
    assert texts(v, R.cg7(v, moves_of(v))) == ["6S"]


def test_cg10_dealer_keeps_seven_makers_when_teammate_and_third_hold_the_sevens():
    hist = [(0, "KC"), (1, "3S"), (2, "7B"), (3, "JDx7B+AC"), (0, "4C"), (1, "7S"), (2, "HSx7S+2C")]
    v = position("6D 5B KB", "KC 3S 4C", me=3, history=hist, captured="7B JD AC 7S HS 2C")
    assert texts(v, R.cg10(v, moves_of(v))) == ["KBxKC"]


def test_cg11_dealer_keeps_a_card_of_the_decoupled_pair():
    hist = [(0, "KC"), (1, "2S"), (2, "7B"), (3, "7Sx7B"), (0, "7Cx3C+4C"), (1, "5S"), (2, "6S")]
    v = position("3D HB", "KC 2S 5S 6S", me=3, history=hist, captured="7B 7S 7C 3C 4C")
    assert texts(v, R.cg11(v, moves_of(v))) == ["HB"]


def test_cg12_eldest_keeps_a_block_for_the_seven():
    v = position("JB 4C", "KB", captured="AC 7S")
    assert texts(v, R.cg12(v, moves_of(v))) == ["4C"]


def test_cg13_eldest_does_not_take_the_dealers_seven():
    v = position("7C 4B", "7S", history=[(3, "7S")])
    assert texts(v, R.cg13(v, moves_of(v))) == ["4B"]


# --- card guessing system -------------------------------------------------------------------------------
def test_guessing_cs10_cs19_cs18_cs25_and_removal():
    hist = [(0, "4C"), (1, "KS"), (2, "4Sx4C"), (3, "4D"), (0, "5C"), (1, "7Cx5C+2B"), (2, "HD"), (3, "6B")]
    v = position("AB", "KS 4D HD 6B", me=0, dealer=0, history=hist)
    ranks = R.guess_ranks(v.state)
    assert 4 in ranks[3]          # CS18: laid the third 4 right after a pair was taken: holds the fourth
    assert 10 not in ranks[1]     # CS19: a King laid on a table with low cards tells nothing
    assert 5 in ranks[0] and 4 in ranks[0]  # CS10: laid the 4C and the 5C
    assert 9 not in ranks[2]      # CS19 again (HD on low cards)
    assert 6 in ranks[3]          # CS10


def test_guessing_cs25_teammate_spariglio_with_a_seven():
    hist = [(3, "3C"), (0, "KB"), (1, "KS"), (2, "7Bx3C+4S")]  # dealer 0: seat 2 is its teammate
    v = position("AB", "KB KS", me=3, dealer=0, history=hist)
    assert 7 in R.guess_ranks(v.state)[2]


def test_guessing_drops_a_rank_once_the_copy_is_played():
    hist = [(0, "4C"), (1, "KS"), (2, "2B"), (3, "HS"), (0, "4D")]
    v = position("AB", "4C KS 2B HS 4D", me=1, history=hist)
    assert 4 not in R.guess_ranks(v.state)[0]


def test_guess_bias_weights_guessed_cards():
    game = registry.create("scopone", {"target": 0})
    st = game.new_hand(random.Random(3))
    while not st.is_terminal():
        moves = st.legal_moves()
        lays = [m for m in moves if not m >> 6]
        st.apply(lays[0] if lays else moves[0])
        if lays:
            break
    obs = st.observation(st.current_player)
    m = R.scopone_guess_bias(obs)
    assert m.shape == (len(obs.slots), 40) and (m > 1).any()
    state = determinize(obs, random.Random(1), m)
    assert state.observation(obs.seat) == obs


# --- agents and hooks -----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["greedy", "cs", "cg", "cs:scopa_prevention=false", "cs:sevens=false"])
def test_agents_never_illegal_across_variants(spec):
    for name in ("scopone", "scopa"):
        cls = registry.game_class(name)
        for i, variant in enumerate(cls.example_variants):
            for seed in range(2):
                play_out(cls(variant), [spec, "random"] if (i + seed) % 2 else [spec], seed=100 * seed + i)


@pytest.mark.parametrize("spec", ["greedy", "cs", "cg"])
def test_agents_are_fair(spec):
    play_out(registry.create("scopone"), [spec, "random"], seed=11, check=fairness_check(5))


def test_agents_deterministic_and_ablation_specs():
    a = play_out(GAME, ["cg", "cs"], seed=4)
    b = play_out(GAME, ["cg", "cs"], seed=4)
    assert a.to_dict() == b.to_dict()
    assert agents.make("cs:scopa_prevention=false", GAME).spec == "cs:scopa_prevention=false"
    with pytest.raises(Exception, match="sevens"):
        agents.make("cs:bogus=1", GAME)


def test_simulation_policies_on_full_states():
    from engine.search import knowledge
    rng = random.Random(2)
    st = GAME.new_hand(rng)
    for name in ("greedy", "egreedy", "cardrandom"):
        fn = knowledge.policy("scopone", name)
        s = st.clone()
        while not s.is_terminal():
            m = fn(s, rng)
            assert m in s.legal_moves()
            s.do(m)
    assert knowledge.bias("scopone", "cgs") is R.scopone_guess_bias
    assert knowledge.move_handler("scopa", "card")(st, mv("7Dx3C+4S")) == DECK.parse("7D")
    assert isinstance(R.scopone_guess_bias(st.observation(0)), np.ndarray)
