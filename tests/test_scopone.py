"""Scenario tests for Scopone and 2-player Scopa, written in card notation."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.cards import ITALIAN40 as D
from engine.determinize import determinize
from engine.game import IllegalMoveError, StateFormatError
from engine.games.scopone.rules import (
    ACE_MASK,
    KING_MASK,
    Scopa,
    Scopone,
    ScoponeState,
    make_move,
    napola_length,
    subsets_with_sum,
)
from engine.match import Match


def make_state(game: Scopone, hands: list[str], table: str, current: int = 0, dealer: int = 3) -> ScoponeState:
    """A hand position with the given hands and table; the hand ends when the hands are empty."""
    s = ScoponeState(game, [D.parse_set(h) for h in hands], D.parse_set(table), dealer, [])
    s.current = current
    s.total_plays = sum(s.hand_counts)
    return s


def texts(state: ScoponeState, card: str | None = None) -> set[str]:
    moves = [state.move_text(m) for m in state.legal_moves()]
    return {m for m in moves if card is None or m.startswith(card)}


def play(state: ScoponeState, *moves: str) -> None:
    for m in moves:
        state.apply(state.parse_move(m))


def test_registry_names() -> None:
    assert isinstance(registry.create("scopone"), Scopone)
    assert isinstance(registry.create("scopa"), Scopa)


def test_deal_and_roles() -> None:
    g = Scopone()
    s = g.new_hand(random.Random(5))
    assert [h.bit_count() for h in s.hands] == [9, 9, 9, 9] and s.table.bit_count() == 4
    assert s.dealer == 3 and s.current_player == 0
    assert s.hand_team == 0 and s.deck_team == 1
    s10 = Scopone({"scopone_a_10": True}).new_hand(random.Random(5), dealer=1)
    assert [h.bit_count() for h in s10.hands] == [10] * 4 and s10.table == 0 and s10.current_player == 2
    assert s10.hand_team == 0 and s10.deck_team == 1


def test_redeal_when_three_kings_on_table() -> None:
    g = Scopone()
    for seed in range(300):
        assert (g.new_hand(random.Random(seed)).table & KING_MASK).bit_count() < 3


def test_subset_sums_any_table_size() -> None:
    table = D.parse_set("AD 2D 3D 4D 5D 6D AC 2C 3C 4C 5C 6C")
    sets = subsets_with_sum(table, 10)
    assert len(set(sets)) == len(sets)
    for m in sets:
        assert sum(D.rank_of(c) + 1 for c in range(40) if m >> c & 1) == 10
    brute = sum(1 for m in range(1 << 12) if sum(([1, 2, 3, 4, 5, 6] * 2)[i] for i in range(12) if m >> i & 1) == 10)
    assert len(sets) == brute


def test_equal_card_has_priority_over_sums() -> None:
    s = make_state(Scopone(), ["7D 2B", "", "", ""], "3C 4S 7C")
    assert texts(s, "7D") == {"7Dx7C"}
    reason = s.illegal_reason(s.parse_move("7Dx3C+4S"))
    assert reason is not None and "equal value" in reason


def test_several_equal_cards_player_chooses() -> None:
    s = make_state(Scopone(), ["7D", "", "", ""], "7C 7S 3B 4B")
    assert texts(s) == {"7Dx7C", "7Dx7S"}


def test_forced_capture_card_may_not_be_laid() -> None:
    s = make_state(Scopone(), ["7D 2B", "", "", ""], "3C 4S")
    assert texts(s) == {"7Dx3C+4S", "2B"}
    reason = s.illegal_reason(make_move(D.parse("7D")))
    assert reason is not None and "may not be laid" in reason
    with pytest.raises(IllegalMoveError):
        s.apply(make_move(D.parse("7D")))
    assert s.hands[0] == D.parse_set("7D 2B") and s.table == D.parse_set("3C 4S")


def test_sum_choice_and_fewest_cards_variant() -> None:
    hands, table = ["7D", "", "", ""], "AC 2C 4S 6B 3B"
    s = make_state(Scopone(), hands, table)
    assert texts(s) == {"7DxAC+6B", "7Dx4S+3B", "7DxAC+2C+4S"}
    f = make_state(Scopone({"capture_choice": "fewest"}), hands, table)
    assert texts(f) == {"7DxAC+6B", "7Dx4S+3B"}
    reason = f.illegal_reason(f.parse_move("7DxAC+2C+4S"))
    assert reason is not None and "fewest" in reason


def test_wrong_sum_reason() -> None:
    s = make_state(Scopone(), ["JD", "", "", ""], "3C 4S 5B")
    reason = s.illegal_reason(s.parse_move("JDx3C+4S"))
    assert reason == "3C 4S sum to 7, not 8 (JD)"
    assert s.illegal_reason(s.parse_move("JDx3C+5B")) is None
    assert "not on the table" in (s.illegal_reason(s.parse_move("JDx3C+5D")) or "")


def test_scopa_counts_but_not_on_the_last_play() -> None:
    g = Scopone()
    s = make_state(g, ["5D 2S", "KB", "AB", "3B"], "2C 3C")
    play(s, "5Dx2C+3C")
    assert s.scope == [1, 0] and s.table == 0
    # The last play of the hand clears the table: no scopa.
    s = make_state(g, ["5D", "", "", ""], "2C 3C")
    play(s, "5Dx2C+3C")
    assert s.is_terminal() and s.scope == [0, 0]
    assert s.captured[0] == D.parse_set("5D 2C 3C")


def test_last_capturer_takes_the_rest_without_scopa() -> None:
    g = Scopone()
    s = make_state(g, ["2S", "5D", "KB", "3B"], "2C 3C JB")
    play(s, "2Sx2C", "5D", "KB", "3Bx3C")
    assert s.is_terminal()
    # Seat 3 (side 1) captured last: the rest of the table (5D, KB, JB) is theirs, not a scopa.
    assert s.table == 0 and s.scope == [0, 0]
    assert s.captured[1] == D.parse_set("3B 3C 5D KB JB") and s.captured[0] == D.parse_set("2S 2C")
    assert s.captured[0].bit_count() + s.captured[1].bit_count() == 7


def test_primiera_with_a_missing_suit() -> None:
    g = Scopone()
    side0 = D.parse_set("7D 7C 7S")  # three sevens but no batons: cannot win primiera
    side1 = D.full_mask & ~side0
    b = g.side_points([side0, side1], [0, 0])
    assert b["primiera"][0] == [21, 21, 21, 0] and not b["primiera_complete"][0]
    assert b["points"]["primiera"] == [0, 1]
    a = D.parse_set("7D 6C 5S AB")
    b2 = g.side_points([a, D.parse_set("6D 7C 6S 2B")], [0, 0])
    assert b2["primiera_total"] == [21 + 18 + 15 + 16, 18 + 21 + 18 + 12]
    assert b2["points"]["primiera"] == [1, 0]
    # Neither side complete: nobody scores it.
    b3 = g.side_points([D.parse_set("7D"), D.parse_set("7C")], [0, 0])
    assert b3["points"]["primiera"] == [0, 0]


def test_hand_scoring_categories_and_ties() -> None:
    g = Scopone()
    side0 = D.parse_set("AD 2D 3D 4D 5D 6D 7D JC HC KC AC 2S 3S 4S 5S 6S 7S JB HB KB")  # 20 cards
    side1 = D.full_mask & ~side0
    b = g.side_points([side0, side1], [2, 1])
    assert b["cards"] == [20, 20] and b["points"]["cards"] == [0, 0]
    assert b["coins"] == [7, 3] and b["points"]["coins"] == [1, 0]
    assert b["settebello"] == [True, False]
    assert b["primiera_total"] == [68, 68] and b["points"]["primiera"] == [0, 0]
    assert b["total"] == [1 + 1 + 2, 1]  # coins, settebello, scope


def test_napola_lengths() -> None:
    assert napola_length(D.parse_set("AD 2D")) == 0
    assert napola_length(D.parse_set("AD 2D 3D 5D")) == 3
    assert napola_length(D.parse_set("AD 2D 3D 4D 5D JD")) == 5
    assert napola_length(D.parse_set("2D 3D 4D 5D")) == 0
    assert napola_length(D.suit_mask(0)) == 10
    g = Scopone({"napola": True, "re_bello": True})
    side0 = D.parse_set("AD 2D 3D 4D KD")
    b = g.side_points([side0, D.full_mask & ~side0], [0, 0])
    assert b["napola"] == [4, 0] and b["points"]["napola"] == [4, 0] and b["points"]["re_bello"] == [1, 0]


def test_ace_sweep_without_and_with_an_ace_on_the_table() -> None:
    g = Scopone({"ace_sweep": "assi"})
    s = make_state(g, ["AD 2B", "KS", "", ""], "3C 5S KC")
    assert texts(s, "AD") == {"ADx3C+KC+5S"}
    play(s, "ADx3C+KC+5S")
    assert s.table == 0 and s.scope == [0, 0]  # Scopa d'Assi: the sweep is not a scopa
    s = make_state(g, ["AD 2B", "", "", ""], "AC 5S KC")
    assert texts(s, "AD") == {"ADxAC"}  # burning an Ace: it takes only the Ace
    sb = make_state(Scopone({"ace_sweep": "sbarazzino"}), ["AD 2B", "KS", "", ""], "3C 5S KC")
    play(sb, "ADx3C+KC+5S")
    assert sb.scope == [1, 0]
    # Default rules: an Ace only takes an Ace.
    d = make_state(Scopone(), ["AD", "", "", ""], "3C 5S KC")
    assert texts(d) == {"AD"}


def test_scopa_a_15() -> None:
    g = Scopone({"scopa_a_15": True})
    s = make_state(g, ["6D", "", "", ""], "AC 3S 4C 5B JD")
    assert texts(s) == {"6DxJD+AC", "6Dx4C+5B", "6DxAC+3S+5B"}  # 6+1+8, 6+4+5, 6+1+3+5
    reason = s.illegal_reason(s.parse_move("6Dx3S"))
    assert reason is not None and "not 15" in reason


def test_scopa_a_perdere_lower_score_wins() -> None:
    g = Scopone({"scopa_a_perdere": True})
    s = make_state(g, ["5D", "", "", ""], "2C 3C")
    s.captured = [0, D.full_mask & ~D.parse_set("5D 2C 3C")]
    play(s, "5Dx2C+3C")
    r = s.result()
    assert r.lower_is_better and r.team_points[0] < r.team_points[1] and r.winners == [0, 2]
    assert g.lower_is_better() and g.match_over([3.0, 11.0], 3) and g.match_winners([3.0, 11.0]) == [0]


def test_scopa_a_perdere_plays_on_when_both_sides_reach_the_target_with_equal_scores() -> None:
    for g in (Scopone({"scopa_a_perdere": True}), Scopa({"scopa_a_perdere": True, "target": 21})):
        target = float(g.variant["target"])
        assert not g.match_over([target - 1, target - 2], 2)  # nobody at the target yet
        assert not g.match_over([target, target], 3)  # equal at the target: play on
        assert not g.match_over([target + 2, target + 2], 4)  # equal past it: play on
        assert g.match_over([target + 3, target + 2], 5) and g.match_winners([target + 3, target + 2]) == [1]
        assert g.match_over([target, target - 5], 3) and g.match_winners([target, target - 5]) == [1]


def test_scopa_a_perdere_match_deals_another_hand_after_a_tie_at_the_target() -> None:
    m = Match.start(Scopa({"scopa_a_perdere": True, "target": 11}), seed=3)
    rng = random.Random(3)
    while not m.hand_over:
        m.state.apply(rng.choice(m.state.legal_moves()))
    m.finish_hand()
    m.totals = [11.0, 11.0]  # both sides reach the target with equal scores
    assert not m.over
    m.next_hand()
    assert m.hand_index == 1 and not m.hand_over
    while not m.hand_over:
        m.state.apply(rng.choice(m.state.legal_moves()))
    m.finish_hand()
    if m.totals[0] == m.totals[1]:
        assert not m.over
    else:
        assert m.over and m.winners() == [m.totals.index(min(m.totals))]


def test_match_target_play_on_when_tied() -> None:
    g = Scopone()
    assert not g.match_over([10.0, 9.0], 2)
    assert not g.match_over([12.0, 12.0], 3)
    assert g.match_over([13.0, 12.0], 3) and g.match_winners([13.0, 12.0]) == [0]


def test_notation_round_trip_and_bare_card() -> None:
    s = make_state(Scopone(), ["7D 2B", "", "", ""], "3C 4S")
    for m in s.legal_moves():
        assert s.parse_move(s.move_text(m)) == m
    assert s.parse_move("7D") == s.parse_move("7Dx3C+4S") == s.parse_move("7d x 4s, 3c")
    with pytest.raises(ValueError):
        s.parse_move("7Dx")
    with pytest.raises(ValueError):
        s.parse_move("9Z")


def test_scopa_two_players_refill_and_hidden_stock() -> None:
    g = Scopa()
    rng = random.Random(3)
    s = g.new_hand(rng)
    assert [h.bit_count() for h in s.hands] == [3, 3] and len(s.stock) == 30 and s.current_player == 0
    refills = 0
    while not s.is_terminal():
        if s.current_player == 0 and s.hand_counts == [3, 3]:
            refills += 1
            obs = s.observation(0)
            assert obs.state.stock == [-1] * len(s.stock) and obs.state.hands[1] == 0
            assert obs.unknown == s.hands[1] | sum(1 << c for c in s.stock)
            d = determinize(obs, random.Random(refills))
            assert d.hands[0] == s.hands[0] and d.table == s.table and d.captured == s.captured
            assert d.hands[1].bit_count() == 3 and len(d.stock) == len(s.stock)
            assert d.hands[1] | sum(1 << c for c in d.stock) == obs.unknown
        moves = s.legal_moves()
        s.do(moves[rng.randrange(len(moves))])
    assert refills == 6
    assert s.captured[0].bit_count() + s.captured[1].bit_count() + s.table.bit_count() == 40


def test_observation_is_fair_and_json_round_trips() -> None:
    g = Scopone()
    s = g.new_hand(random.Random(11))
    rng = random.Random(2)
    for _ in range(10):
        moves = s.legal_moves()
        s.do(moves[rng.randrange(len(moves))])
    obs = s.observation(1)
    other = s.clone()
    a, b = other.hands[0] & -other.hands[0], other.hands[2] & -other.hands[2]
    other.hands[0] ^= a | b
    other.hands[2] ^= a | b
    assert other.hands != s.hands and other.observation(1) == obs
    assert s.observation(0) != obs
    assert g.state_from_json(s.to_json()) == s
    bad = s.to_dict()
    bad["table"] = bad["captured"][0] if bad["captured"][0] else "7D 7D"
    with pytest.raises(StateFormatError):
        g.state_from_json({"game": "scopone", "version": 1, "state": bad})


def test_hand_result_breakdown_keys() -> None:
    g = Scopone({"napola": True, "re_bello": True})
    rng = random.Random(4)
    s = g.new_hand(rng)
    while not s.is_terminal():
        moves = s.legal_moves()
        s.do(moves[rng.randrange(len(moves))])
    r = s.result()
    b = r.breakdown
    assert sum(b["cards"]) == 40 and sum(b["coins"]) == 10
    assert set(b["points"]) == {"cards", "coins", "settebello", "primiera", "scope", "napola", "re_bello"}
    assert b["total"] == [int(x) for x in r.team_points]
    assert r.points == [r.team_points[0], r.team_points[1]] * 2


def test_describe_move_flags_a_scopa() -> None:
    s = make_state(Scopone(), ["5D 2S", "KB", "AB", "3B"], "2C 3C")
    move = s.parse_move("5Dx2C+3C")
    assert s.would_be_scopa(move)
    assert s.describe_move(move) == "plays Five of Coins taking Two of Cups, Three of Cups (scopa!)"
    assert s.describe_move(s.parse_move("2Sx2C")) == "plays Two of Swords taking Two of Cups"


def test_round_scores_of_seeds_002_table_3_2() -> None:
    # Piles with the statistics of the worked example (French suits mapped: diamonds = coins, hearts = cups,
    # spades = swords, clubs = batons): cards 22-18, coins 5-5, settebello to the hand team, primiera 78-73
    # (7D 7S 5C 7B against 6D 6S 7C AB), scope 1-3; round score 4-3.
    hand_team = D.parse_set("7D 5D 4D 3D 2D 5C 4C 3C 2C JC HC KC 7S AS 5S JS 7B 6B 5B 4B 3B 2B")
    deck_team = D.full_mask & ~hand_team
    b = Scopone().side_points([hand_team, deck_team], [1, 3])
    assert b["cards"] == [22, 18] and b["coins"] == [5, 5]
    assert b["primiera_total"] == [78, 73]
    assert b["points"] == {"cards": [1, 0], "coins": [0, 0], "settebello": [1, 0], "primiera": [1, 0],
                           "scope": [1, 3]}
    assert b["total"] == [4, 3]


@pytest.mark.parametrize(("cls", "variant"), [(Scopone, v) for v in Scopone.example_variants]
                         + [(Scopa, v) for v in Scopa.example_variants])
def test_fast_rollout_matches_generic_loop(cls: type, variant: dict) -> None:
    """The inlined random_rollout makes exactly the generic loop's choices (also from mid-hand states and
    through Scopa's redeals from the stock), so search results do not change."""
    from engine.knowledge import PLAIN_PLAYOUTS

    g = cls(variant)
    for seed in range(40):
        state = g.new_hand(random.Random(seed))
        rng = random.Random(seed + 1000)
        for _ in range(seed % 5 * 4):  # start some rollouts mid-hand
            legal = state.legal_moves()
            state.do(legal[rng.randrange(len(legal))])
        fast, generic = state.clone(), state.clone()
        fast.random_rollout(random.Random(seed))
        PLAIN_PLAYOUTS.random_rollout(generic, random.Random(seed))
        assert fast.is_terminal()
        assert fast.to_json() == generic.to_json(), seed


ALL_VARIANTS = [(Scopone, v) for v in Scopone.example_variants] + [(Scopa, v) for v in Scopa.example_variants]


def reference_moves(state: ScoponeState) -> list[int]:
    """legal_moves() written from the per-value reference rules (no caches, no patterns)."""
    out = []
    for card in range(40):
        if state.hands[state.current] >> card & 1:
            sets = state.game._compute_captures(state.table, card % 10 + 1)
            out += [make_move(card, s) for s in sets] or [make_move(card)]
    return out


@pytest.mark.parametrize(("cls", "variant"), ALL_VARIANTS)
def test_capture_patterns_match_the_reference_rules(cls: type, variant: dict) -> None:
    """The shared per-value-multiset capture patterns give exactly the reference capture sets, in
    increasing bitmask order, for random tables of every size (also with tiny caches that keep clearing)."""
    rng = random.Random(11)
    for sizes in ({}, {"TABLE_CACHE_SIZE": 2, "PATTERN_CACHE_SIZE": 2, "MASK_CACHE_SIZE": 2}):
        g = cls(variant)
        for name, size in sizes.items():
            setattr(g, name, size)
        for _ in range(400):
            table = sum(1 << c for c in rng.sample(range(40), rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 11])))
            for card in range(10):
                assert g.captures(table, card) == g._compute_captures(table, card + 1), D.set_text(table)
        for seed in range(6):  # real play: legal moves, and the fast rollout through clearing caches
            state = g.new_hand(random.Random(seed))
            while not state.is_terminal():
                assert state.legal_moves() == reference_moves(state)
                state.do(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
            state = g.new_hand(random.Random(seed))
            fast, generic = state.clone(), state.clone()
            fast.random_rollout(random.Random(seed))
            rand = random.Random(seed).random
            while not generic.is_terminal():
                moves = reference_moves(generic)
                generic.do(moves[int(rand() * len(moves))])
            assert fast.to_json() == generic.to_json()


@pytest.mark.parametrize(("cls", "variant"), ALL_VARIANTS)
def test_hand_totals_match_the_breakdown(cls: type, variant: dict) -> None:
    """The lean end-of-hand scoring used by outcomes() equals side_points()'s total."""
    g = cls(variant)
    rng = random.Random(3)
    for seed in range(60):
        state = g.new_hand(random.Random(seed))
        state.random_rollout(rng)
        assert list(g.hand_totals(state.captured, state.scope)) == g.side_points(state.captured, state.scope)["total"]
        res = state.result()
        assert state.outcomes() == [res.outcome(s) for s in range(g.num_players)]
    for _ in range(300):  # arbitrary splits of the deck, including incomplete primiera
        cards = list(range(40))
        rng.shuffle(cards)
        cut = rng.randrange(41)
        captured = [sum(1 << c for c in cards[:cut]), sum(1 << c for c in cards[cut:rng.randrange(cut, 41)])]
        scope = [rng.randrange(3), rng.randrange(3)]
        assert list(g.hand_totals(captured, scope)) == g.side_points(captured, scope)["total"]


@pytest.mark.parametrize(("cls", "variant"), ALL_VARIANTS)
def test_capture_values_match_the_capture_sets(cls: type, variant: dict) -> None:
    """capture_values(): which card values capture from a table and which clear it for a scopa."""
    g = cls(variant)
    rng = random.Random(7)
    for _ in range(300):
        table = sum(1 << c for c in rng.sample(range(40), rng.choice([0, 1, 2, 3, 4, 5])))
        capturing = sum(1 << v for v in range(1, 11) if g._compute_captures(table, v))
        sweeping = sum(1 << v for v in range(1, 11) if table and table in g._compute_captures(table, v)
                       and not (g.ace_sweep == "assi" and v == 1 and not table & ACE_MASK))
        assert g.capture_values(table) == (capturing, sweeping)
