"""Scenario tests for Pharaoh (classic Faraon and the seed rules of kassak2023), in card notation."""

from __future__ import annotations

import random

import pytest

from engine.determinize import determinize
from engine.game import IllegalMoveError, VariantError
from engine.games.pharaoh.rules import DRAW, SKIP, Pharaoh, PharaohState, encode_play, named_suit, play_cards
from engine.match import Match


def moves(state: PharaohState) -> set[str]:
    return {state.move_text(m) for m in state.legal_moves()}


def play(state: PharaohState, *texts: str) -> None:
    for t in texts:
        state.apply(state.parse_move(t))


CLASSIC3 = {"players": 3}


def test_deal_and_start() -> None:
    g = Pharaoh()
    s = g.new_hand(random.Random(1))
    assert s.counts == [5, 5, 5, 5] and len(s.discard) == 1 and len(s.stock) == 32 - 21
    assert s.current_player == 0 and s.card_total() == 32
    seed = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"})
    t = seed.new_hand(random.Random(1))
    assert seed.deck.size == 15 and t.counts == [6, 6] and len(t.stock) == 2


def test_variant_checks() -> None:
    with pytest.raises(VariantError, match="2-5 players"):
        Pharaoh({"players": 6})
    with pytest.raises(VariantError, match="32-card"):
        Pharaoh({"deck": "small"})
    with pytest.raises(VariantError, match="do not fit"):
        Pharaoh({"rules": "simplified", "deck": "small", "players": 3})
    assert Pharaoh({"rules": "simplified", "players": 6, "hand_size": 4}).num_players == 6


def test_match_suit_or_rank_and_clear_reason() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["9B 8H KL", "7A", "7H"], discard="XL 8B", stock="9A 9H")
    assert moves(s) == {"9B", "8H", "draw"}
    reason = s.illegal_reason(s.parse_move("KL"))
    assert reason == "the top card is Eight of Bells: play Bells or an Eight, an Ober or the Pharaoh"
    with pytest.raises(IllegalMoveError):
        s.apply(s.parse_move("KL"))
    assert s.hands[0] == g.deck.parse_set("9B 8H KL") and s.current_player == 0
    assert s.discard == g.deck.parse_list("XL 8B")


def test_several_cards_of_one_rank_in_any_order() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["8H 8A 9L", "7A", "7H"], discard="8B", stock="9A")
    assert {"8H", "8A", "8H+8A", "8A+8H"} <= moves(s)
    # On 9H only a heart may come first; the last card played becomes the top.
    s = g.position(["8H 8A 9L", "7A", "7H"], discard="9H", stock="9A")
    assert {"8H", "8H+8A", "9L"} <= moves(s) and "8A+8H" not in moves(s)
    play(s, "8H+8A")
    assert s.top == g.deck.parse("8A") and s.active_suit == g.deck.suits.index("A")
    assert s.counts[0] == 1 and s.current_player == 1
    reason = Pharaoh(CLASSIC3).position(["8H 9H", "7A", "7H"], "9B").illegal_reason(encode_play(
        g.deck.parse_list("8H 9H")))
    assert reason == "cards played together must have the same rank"


def test_seven_stacks_and_draws_three() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["7B KB", "7H 9A", "KA"], discard="8B", stock="8L 9L XL XH XA KH KL 8A")
    total = s.card_total()
    play(s, "7B")
    assert s.pending_draw == 3
    assert moves(s) == {"7H", "draw"}
    assert s.illegal_reason(s.parse_move("9A")) == "a VII is pending: play a VII or the Pharaoh, or draw 3"
    play(s, "7H")
    assert s.pending_draw == 6
    assert moves(s) == {"draw"}
    assert s.illegal_reason(SKIP) == "a VII is pending: play a VII or the Pharaoh, or draw 6"
    play(s, "draw")
    assert s.counts[2] == 7 and s.pending_draw == 0 and s.current_player == 0
    assert s.card_total() == total and len(s.stock) == 2


def test_seven_draws_two_variant() -> None:
    g = Pharaoh({"players": 2, "seven_draw": 2})
    s = g.position(["7B 7L KB", "8H"], discard="8B", stock="8L 9L XL XH")
    play(s, "7B+7L")
    assert s.pending_draw == 4
    play(s, "draw")
    assert s.counts[1] == 5


def test_pharaoh_cancels_a_pending_seven_and_anything_follows() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["7B KB", "UL 9A", "KA XH"], discard="8B", stock="8L 9L XL")
    play(s, "7B")
    assert "UL" in moves(s)
    play(s, "UL")
    assert s.pending_draw == 0 and s.active_suit == -1
    assert moves(s) == {"KA", "XH", "draw"}


def test_ace_skip_stacks() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["AB 9L", "AH 9A", "KA XB"], discard="8B", stock="8L 9L XL")
    play(s, "AB")
    assert moves(s) == {"AH", "skip"}
    assert s.illegal_reason(DRAW) == "an Ace is pending: play an Ace or the Pharaoh, or skip the turn"
    play(s, "AH")
    assert moves(s) == {"skip"}  # seat 2 holds no Ace: it misses the turn
    play(s, "skip")
    assert s.pending_skip == 0 and s.current_player == 0 and s.counts[2] == 2
    assert moves(s) == {"draw"}  # 9L matches neither hearts nor an Ace


def test_ober_names_the_suit() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["OL 9L", "8B 8H", "KA"], discard="8B", stock="8L 9L XL")
    assert {"OL>L", "OL>H", "OL>B", "OL>A"} <= moves(s)
    assert s.illegal_reason(s.parse_move("OL")) == "an Ober must name a suit, e.g. OL>L"
    assert s.illegal_reason(s.parse_move("9L>H")) == "only an Ober (as the last card) names a suit"
    play(s, "OL>H")
    assert s.active_suit == g.deck.suits.index("H") and named_suit(s.history[-1][1]) == 1
    assert moves(s) == {"8H", "8H+8B", "draw"}
    assert s.illegal_reason(s.parse_move("8B")) == "the named suit is Hearts: play Hearts, an Ober or the Pharaoh"
    # An Ober may not answer a pending VII.
    t = g.position(["7B KB", "OL 9A", "KA"], discard="8B", stock="8L 9L XL")
    play(t, "7B")
    assert not any(m.startswith("OL") for m in moves(t))


def test_reshuffle_keeps_the_top_and_conserves_cards() -> None:
    g = Pharaoh({"players": 2})
    s = g.position(["KL", "KH"], discard="7L 8L 9L XL", stock="")
    total = s.card_total()
    twin = s.clone()
    play(s, "draw")
    assert s.discard == [g.deck.parse("XL")] and s.reshuffles == 1
    assert len(s.stock) == 2 and s.counts[0] == 2 and s.card_total() == total
    assert s.pool == g.deck.parse_set("7L 8L 9L")
    assert s.hands[0] | sum(1 << c for c in s.stock) == g.deck.parse_set("KL 7L 8L 9L")
    play(twin, "draw")
    assert twin == s  # the reshuffle is deterministic (seeded from the state)
    obs = s.observation(1)
    assert obs.state.stock == [-1, -1] and obs.state.shuffle_seed == 0
    stock_slot = next(sl for sl in obs.slots if sl.name == "stock")
    assert stock_slot.allowed & ~s.pool == 0  # only pool cards can be in the new stock
    assert {sl.name: sl.count for sl in obs.slots} == {"hand0": 1, "hand0pool": 1, "stock": 2}
    d = determinize(obs, random.Random(3))
    assert d.observation(1) == obs and d.card_total() == total


def test_nothing_to_draw_forced_pass_and_lock() -> None:
    g = Pharaoh({"players": 2})
    s = g.position(["KL", "KH"], discard="XB", stock="")
    assert moves(s) == {"skip"}
    play(s, "skip", "skip")
    assert s.is_terminal() and s.ended == "locked"
    assert s.result().breakdown["places"] == [1, 0]  # equal cards: the seat that played last in the round


def test_placements_play_on_until_one_is_left() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["8B", "9B KH", "XB"], discard="7B", stock="8L 9L XL")
    play(s, "8B")
    assert s.finished == [0] and not s.is_terminal() and s.current_player == 1
    play(s, "9B", "XB")
    assert s.is_terminal() and s.finished == [0, 2]
    r = s.result()
    assert r.breakdown["places"] == [0, 2, 1] and r.points == [2.0, 0.0, 1.0] and r.winners == [0]
    assert not r.lower_is_better


def test_penalty_scoring_ends_at_the_first_finisher() -> None:
    g = Pharaoh({"players": 3, "scoring": "penalty"})
    s = g.position(["8B", "AH OL UL 7A", "XB KH"], discard="7B", stock="8L 9L XL")
    play(s, "8B")
    r = s.result()
    assert s.ended == "finished" and r.winners == [0] and r.lower_is_better
    assert r.breakdown["penalty"] == [0, 11 + 3 + 2 + 7, 10 + 4]
    assert g.match_over([0.0, 100.0, 10.0], 3) and g.match_winners([0.0, 100.0, 10.0]) == [0]


def test_places_match_to_target() -> None:
    g = Pharaoh({"players": 2, "target": 3})
    m = Match.start(g, seed=5)
    rng = random.Random(5)
    while True:
        st = m.state
        while not st.is_terminal():
            ms = st.legal_moves()
            st.do(ms[rng.randrange(len(ms))])
        m.finish_hand()
        if m.over:
            break
        m.next_hand()
    assert max(m.totals) == 3 and sum(m.totals) == len(m.hands)


def test_seed_k_tuples_in_any_order() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"})
    s = g.position(["8L 8H 8B 9H", "7L"], discard="UB", stock="7H")
    ms = moves(s)
    # Match suit: the first card must be a Bell; the rest follow in any order.
    assert {"8B", "8B+8L", "8B+8H", "8B+8L+8H", "8B+8H+8L", "draw"} == ms
    s = g.position(["8L 8B 9H", "7L"], discard="8H", stock="")
    ms = moves(s)
    # Match value: every order of every subset of the Eights, plus the Nine of hearts, plus skip.
    assert {"8L", "8B", "8L+8B", "8B+8L", "9H", "skip"} == ms
    assert s.illegal_reason(DRAW) == "the stock is empty: skip"
    reason = s.illegal_reason(s.parse_move("7L"))
    assert reason is not None and "not in seat 0's hand" in reason


def test_seed_skip_only_when_the_stock_is_empty() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"})
    s = g.position(["8L", "7L"], discard="9H", stock="7H")
    assert moves(s) == {"draw"}
    assert s.illegal_reason(SKIP) == "the stock is not empty: play or draw"
    reason = s.illegal_reason(s.parse_move("8L"))
    assert reason == "the top card is Nine of Hearts: the first card must be Hearts, or all cards a Nine"


def test_seed_lock_counter_ends_a_stuck_match() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"})
    s = g.position(["8L", "9B XB"], discard="7H", stock="")
    play(s, "skip")
    assert not s.is_terminal() and s.lock == 1
    play(s, "skip")
    assert s.ended == "locked"
    # Fewest cards first: seat 0 (1 card) before seat 1 (2 cards).
    assert s.result().breakdown["places"] == [0, 1]


def test_seed_draw_counter_three_rounds_of_skips() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"})
    s = g.position(["7L 8L", "7B 9B"], discard="7H", stock="")
    for i in range(5):
        play(s, "skip")
        assert not s.is_terminal() and s.lock == 0 and s.skips == i + 1
    play(s, "skip")
    assert s.ended == "no progress"
    assert s.result().breakdown["places"] == [1, 0]


def test_ties_ranking_as_seeds_004() -> None:
    g = Pharaoh({"rules": "simplified", "players": 4, "deck": "full", "hand_size": 5})
    s = g.position(["", "8L", "9B XB", "7A"], discard="7H", stock="")
    s.finished = [0]
    s.finish_turns = [4]
    s.starter = 0
    # Finished first; then fewest cards; seats 1 and 3 both hold one card: seat 3 played later in each
    # round (counted from the starter), so it ranks before seat 1.
    assert s.ranking() == [0, 3, 1, 2]
    s.starter = 2  # rounds start at seat 2: order 2, 3, 0, 1 -> seat 1 plays last and ranks first
    assert s.ranking() == [0, 1, 3, 2]


def test_open_variant_hides_only_the_stock() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "small", "open": True})
    s = g.new_hand(random.Random(2))
    obs = s.observation(0)
    assert obs.state.hands == s.hands and [sl.name for sl in obs.slots] == ["stock"]
    hidden = Pharaoh({"rules": "simplified", "players": 2, "deck": "small"}).new_hand(random.Random(2))
    assert hidden.observation(0).state.hands[1] == 0


def test_move_encoding_and_notation() -> None:
    g = Pharaoh()
    d = g.deck
    m = encode_play(d.parse_list("OL OA"), named=2)
    assert play_cards(m) == d.parse_list("OL OA") and named_suit(m) == 2
    s = g.new_hand(random.Random(0))
    assert s.move_text(m) == "OL+OA>B" and s.parse_move("ol + oa > b") == m
    assert s.parse_move("pass") == SKIP and s.parse_move("DRAW") == DRAW
    with pytest.raises(ValueError):
        s.parse_move("OL>Z")
    with pytest.raises(ValueError):
        s.parse_move("")


def test_random_classic_hands_conserve_cards_through_reshuffles() -> None:
    g = Pharaoh({"players": 3})
    rng = random.Random(9)
    reshuffles = 0
    for _ in range(10):
        s = g.new_hand(rng)
        while not s.is_terminal():
            ms = s.legal_moves()
            s.do(ms[rng.randrange(len(ms))])
            assert s.card_total() == 32
            seen = 0
            for c in s.stock + s.discard:
                assert not seen >> c & 1
                seen |= 1 << c
            for h in s.hands:
                assert not seen & h
                seen |= h
            assert seen == g.deck.full_mask
            if s.reshuffles and s.turn % 7 == 0:
                assert g.state_from_json(s.to_json()) == s
                obs = s.observation(s.current_player)
                assert determinize(obs, rng).observation(s.current_player) == obs
        reshuffles += s.reshuffles
        assert s.ended == "finished" and len(s.finished) == 2
    assert reshuffles > 0


def test_pharaoh_also_answers_a_pending_ace() -> None:
    g = Pharaoh(CLASSIC3)
    s = g.position(["AB 9L", "UL 9A", "KA XB"], discard="8B", stock="8L 9L XL")
    play(s, "AB")
    assert moves(s) == {"UL", "skip"}
    play(s, "UL")
    assert s.pending_skip == 0 and s.active_suit == -1 and moves(s) == {"KA", "XB", "draw"}


def test_turn_limit_ends_a_classic_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.games.pharaoh.rules as pharaoh_module

    monkeypatch.setattr(pharaoh_module, "MAX_TURNS", 12)
    g = Pharaoh({"players": 3})
    rng = random.Random(4)
    s = g.new_hand(rng)
    while not s.is_terminal():
        ms = [m for m in s.legal_moves() if m == DRAW] or s.legal_moves()
        s.do(ms[0])
    assert s.ended == "turn limit" and s.turn == 12
    r = s.result()
    assert sorted(r.breakdown["places"]) == [0, 1, 2] and r.points[r.winners[0]] == 2.0


def test_a_forced_skip_is_public_and_determinization_respects_it() -> None:
    g = Pharaoh({"rules": "simplified", "players": 2, "deck": "full", "hand_size": 5})
    s = g.position(["8L 9B", "XB UA"], discard="7H", stock="")
    play(s, "skip")  # seat 0 holds no heart and no Seven: a forced skip
    d = g.deck
    assert s.lock == 1 and s.excluded[0] == d.suit_mask(1) | g.rank_masks[0]
    obs = s.observation(1)
    (slot,) = obs.slots
    assert slot.name == "hand0" and not slot.allowed & s.excluded[0]
    for k in range(20):
        det = determinize(obs, random.Random(k))
        assert not det.hands[0] & s.excluded[0] and det.observation(1) == obs


@pytest.mark.parametrize("variant", Pharaoh.example_variants)
def test_fast_rollout_matches_generic_loop(variant: dict) -> None:
    """The inlined random_rollout makes exactly the generic loop's choices (also from mid-hand states,
    through reshuffles, pending VIIs/Aces and named suits), so search results do not change."""
    from engine.knowledge import PLAIN_PLAYOUTS

    g = Pharaoh(variant)
    reshuffled = 0
    for seed in range(60):
        state = g.new_hand(random.Random(seed))
        rng = random.Random(seed + 1000)
        for _ in range(seed % 7 * 5):  # start some rollouts mid-hand
            if state.is_terminal():
                break
            legal = state.legal_moves()
            state.do(legal[rng.randrange(len(legal))])
        fast, generic = state.clone(), state.clone()
        fast.random_rollout(random.Random(seed))
        PLAIN_PLAYOUTS.random_rollout(generic, random.Random(seed))
        assert fast.is_terminal()
        assert fast.to_json() == generic.to_json(), seed
        assert fast.card_total() == g.deck.size
        reshuffled += fast.reshuffles > 0
    if g.classic:
        assert reshuffled > 0


def test_the_simplified_rules_earlier_name_still_loads() -> None:
    """Saves and records written when ``rules=simplified`` was called ``seed`` load as the simplified rules."""
    from engine import registry

    game = registry.create("pharaoh", {"rules": "seed", "players": 2, "deck": "small"})
    assert game.variant["rules"] == "simplified" and game.deck.size == 15
    match = Match.start(registry.create("pharaoh", {"rules": "simplified", "players": 2, "deck": "small"}), seed=4)
    match.state.apply(match.state.legal_moves()[0])
    old = match.to_json().replace('"rules": "simplified"', '"rules": "seed"')
    assert '"rules": "seed"' in old
    loaded = Match.from_json(old)
    assert loaded.game.variant == match.game.variant and loaded.state == match.state
    assert loaded.state.history == match.state.history
