"""What a table shows about each seat, from the engine in every game: the cards held, tricks taken, Moss Side
Whist's leader, the Hearts pass direction and the dealer (``GameState.hand_cards``, ``hand_size``,
``tricks_taken``, ``declarer``, ``passes_to``, ``dealer_seat``), also on a seat's observation."""

from __future__ import annotations

import random

import pytest

from engine import registry

GAMES = registry.names()
TRICK_GAMES = ["sueca", "bisca", "briscola", "hearts", "mosssidewhist"]


def play_random(name: str, variant: dict | None = None, seed: int = 3, dealer: int = -1):
    """(state before, move, state after) for every move of one random hand of ``name``."""
    game = registry.create(name, variant or {})
    rng = random.Random(seed)
    state = game.new_hand(rng, dealer=dealer)
    while not state.is_terminal():
        moves = state.legal_moves()
        move = moves[int(rng.random() * len(moves))]
        before = state.clone()
        state.apply(move)
        yield before, move, state


@pytest.mark.parametrize("name", GAMES)
def test_hand_cards_are_what_the_seat_plays_from(name: str) -> None:
    """Every card a move plays is in the mover's hand before and gone after; the hand size is the number of
    cards held, on the full state and (for the observer, and for every seat where sizes are public) on an
    observation; the hands are empty when a trick or capture hand is over."""
    plays = 0
    after = None
    for before, move, after in play_random(name):
        seat = before.current_player
        n = before.game.num_players
        for s in range(n):
            assert before.hand_size(s) == len(before.hand_cards(s))
            assert list(before.hand_cards(s)) == sorted(before.hand_cards(s))
        obs = before.observation(seat).state
        assert obs.hand_cards(seat) == before.hand_cards(seat)
        for s in range(n):
            assert set(obs.hand_cards(s)) <= set(before.hand_cards(s))
            if name in ("pharaoh", "scopone", "scopa"):  # hand sizes are public there
                assert obs.hand_size(s) == before.hand_size(s)
        cards = before.move_cards(move)
        if name in ("scopone", "scopa"):
            cards = cards[:1]  # the played card; the rest are captured from the table
        if cards:
            plays += 1
            assert set(cards) <= set(before.hand_cards(seat))
            assert not set(cards) & set(after.hand_cards(seat))
    assert plays > 10
    assert after is not None and after.is_terminal()
    if name != "pharaoh":
        assert all(after.hand_size(s) == 0 for s in range(after.game.num_players))
    assert before.hand_cards(-1) == () and before.hand_size(99) == 0


@pytest.mark.parametrize(("name", "size"), [("sueca", 10), ("hearts", 13), ("briscola", 3), ("scopone", 9)])
def test_hand_size_at_the_deal(name: str, size: int) -> None:
    state = registry.create(name).new_hand(random.Random(5))
    assert [state.hand_size(s) for s in range(state.game.num_players)] == [size] * state.game.num_players


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_tricks_taken_count_the_completed_tricks_each_seat_won(name: str) -> None:
    counted = 0
    for before, _move, after in play_random(name, seed=11):
        n = after.game.num_players
        gained = [after.tricks_taken(s) - before.tricks_taken(s) for s in range(n)]
        if after.last_trick() != before.last_trick():
            winner = after.last_trick()[0]
            assert gained == [1 if s == winner else 0 for s in range(n)]
            counted += 1
        else:
            assert gained == [0] * n
        seat = before.current_player
        assert [before.observation(seat).state.tricks_taken(s) for s in range(n)] == \
            [before.tricks_taken(s) for s in range(n)]
    assert sum(after.tricks_taken(s) for s in range(n)) == counted > 0


@pytest.mark.parametrize("name", ["pharaoh", "scopone", "scopa"])
def test_no_tricks_no_declarer_no_pass_outside_trick_games(name: str) -> None:
    for before, _move, _after in play_random(name):
        assert before.tricks_taken(0) is None
        assert before.declarer() is None
        assert before.passes_to(0) is None


def test_moss_side_whist_declarer_is_the_seat_that_discards() -> None:
    discarders = set()
    for before, move, _after in play_random("mosssidewhist", seed=2):
        assert before.declarer() == before.observation((before.declarer() + 1) % 3).state.declarer()
        if before.is_pass_move(move):
            discarders.add(before.current_player)
    assert len(discarders) == 1 and discarders == {before.declarer()}
    for name in ("sueca", "hearts", "bisca"):
        assert registry.create(name).new_hand(random.Random(1)).declarer() is None


@pytest.mark.parametrize(("passing", "offset"), [("left", 1), ("across", 2), ("right", 3)])
def test_hearts_passes_to_while_passing_then_the_pass_arrives_there(passing: str, offset: int) -> None:
    targets: dict[int, int] = {}
    received = None
    for before, move, _after in play_random("hearts", {"passing": passing}, seed=4):
        if before.is_pass_move(move):
            seat = before.current_player
            for s in range(4):
                to = before.passes_to(s)
                assert to is not None and to != s
                assert before.observation(seat).state.passes_to(s) == to
                targets[s] = to
        else:
            assert before.passes_to(0) is None
            if received is None:
                received = {s: before.received_pass(s) for s in range(4)}
    assert len(targets) == 4 and received is not None
    for s, to in targets.items():
        assert received[to][0] == s
    assert len(set(targets.values())) == 4


def test_hearts_hold_hand_has_no_pass_target() -> None:
    for before, _move, _after in play_random("hearts", {"passing": "none"}):
        assert before.passes_to(0) is None


@pytest.mark.parametrize("name", GAMES)
def test_dealer_seat_is_the_dealer_of_the_hand(name: str) -> None:
    game = registry.create(name)
    for dealer in range(game.num_players):
        state = game.new_hand(random.Random(dealer), dealer=dealer)
        assert state.dealer_seat() == dealer
        assert state.observation((dealer + 1) % game.num_players).state.dealer_seat() == dealer


@pytest.mark.parametrize("name", ["scopone", "scopa"])
def test_capture_centre_table_piles_sweeps_and_stock(name: str) -> None:
    """Every card is in a hand, on the table, in a capture pile or in the stock; a capture moves the taken
    cards from the table to the mover's pile; each new sweep adds the card that made it to sweep_cards."""
    made: list[list[int]] = [[], []]
    for seed in range(4):
        made = [[], []]
        for before, move, after in play_random(name, seed=seed):
            seat = before.current_player
            side = seat % 2
            n = after.game.num_players
            held = sum(after.hand_size(s) for s in range(n))
            piles = [set(after.captured_cards(sd)) for sd in (0, 1)]
            assert held + len(after.table_cards()) + len(piles[0]) + len(piles[1]) + (after.stock_count() or 0) == 40
            played, *taken = before.move_cards(move)
            if taken and not after.is_terminal():
                assert set(taken) <= set(before.table_cards()) and not set(taken) & set(after.table_cards())
                assert set(taken) | {played} <= piles[side]
            if after.sweeps(side) > before.sweeps(side):
                made[side].append(played)
            for sd in (0, 1):
                assert after.sweep_cards(sd) == tuple(made[sd])
                assert len(after.sweep_cards(sd)) == after.sweeps(sd)
                assert after.observation(seat).state.sweep_cards(sd) == tuple(made[sd])
        if made[0] or made[1]:
            break
    assert made[0] or made[1]
    assert registry.create("sueca").new_hand(random.Random(1)).sweep_cards(0) == ()


def test_pharaoh_centre_pile_suit_penalties_and_places() -> None:
    """The discard pile ends with the cards just played; the suit to follow is the named suit or the top
    card's; a VII leaves a draw pending; the cards add up; who ran out of cards is in the finishing order."""
    sevens = 0
    for seed in range(3):
        for before, move, after in play_random("pharaoh", seed=seed):
            deck = after.game.deck
            total = sum(after.hand_size(s) for s in range(after.game.num_players))
            assert total + len(after.discard_pile()) + after.stock_count() == deck.size
            cards = before.move_cards(move)
            if cards and not after.is_terminal():
                assert after.discard_pile()[-len(cards):] == cards
                named = before.named_suit(move)
                expected = named if named is not None else deck.suit_of(cards[-1])
                if cards[-1] == after.game.pharaoh and after.game.classic:
                    expected = None  # any card may follow the Pharaoh
                assert after.suit_to_follow() == expected
                if deck.rank_of(cards[-1]) == 0 and after.game.classic:  # a Seven
                    sevens += 1
                    assert after.penalty_pending()[0] >= len(cards)
            for s in after.finishing_order():
                assert after.hand_size(s) == 0
            assert len(set(after.finishing_order())) == len(after.finishing_order())
            assert after.observation(0).state.penalty_pending() == after.penalty_pending()
        assert after.penalty_pending() == (0, 0) and after.suit_to_follow() is None
    assert sevens > 0
    hearts = registry.create("hearts").new_hand(random.Random(1))
    assert (hearts.discard_pile(), hearts.suit_to_follow(), hearts.penalty_pending(), hearts.finishing_order(),
            hearts.stock_count(), hearts.pass_word()) == ((), None, (0, 0), (), None, "pass")
    assert registry.create("mosssidewhist").new_hand(random.Random(1)).pass_word() == "discard"
