"""What the table shows, from the engine in every game: a move's cards, passes, the last trick, the turned-up
trump and the trump suit (``GameState.move_cards``, ``is_pass_move``, ``last_trick``, ``turned_trump``,
``trump_suit``), also in a seat's observation."""

from __future__ import annotations

import random
import re

import pytest

from engine import registry
from engine.cards import bits
from engine.games.pharaoh.rules import DRAW, SKIP, play_cards
from engine.games.tricks import PASS_FLAG, TrickState
from engine.games.tricks.bisca import SWAP_FLAG

GAMES = registry.names()
TRICK_GAMES = ["sueca", "bisca", "briscola", "hearts", "mosssidewhist"]


def random_hands(name: str, variant: dict | None = None, hands: int = 3, seed: int = 1):
    """States along random hands of ``name``: (state before, move) for every move played."""
    game = registry.create(name, {"target": 0, **(variant or {})} if "target" in
                           [o.name for o in registry.game_class(name).options] else variant or {})
    rng = random.Random(seed)
    for _ in range(hands):
        state = game.new_hand(rng)
        while not state.is_terminal():
            moves = state.legal_moves()
            move = moves[int(rng.random() * len(moves))]
            yield state.clone(), moves, move
            state.apply(move)


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_a_trick_move_is_its_card_and_passes_are_told_apart(name: str) -> None:
    variant = {"passing": "left"} if name == "hearts" else {"trump_exchange": "2"} if name == "bisca" else {}
    passes = swaps = 0
    for state, moves, _move in random_hands(name, variant):
        for m in moves:
            if m & SWAP_FLAG and name in ("bisca", "briscola"):
                swaps += 1
                assert state.move_cards(m) == () and not state.is_pass_move(m)
                continue
            assert state.move_cards(m) == (m & ~PASS_FLAG,)
            assert state.is_pass_move(m) == bool(m & PASS_FLAG)
            passes += state.is_pass_move(m)
    assert passes > 0 if name in ("hearts", "mosssidewhist") else passes == 0
    if name == "bisca":
        assert swaps > 0
    assert registry.create(name).new_hand(random.Random(1)).move_cards(-1) == ()  # a hidden move


@pytest.mark.parametrize("name", ["scopone", "scopa"])
def test_a_capture_is_the_played_card_then_the_captured_ones(name: str) -> None:
    captures = 0
    for state, moves, _move in random_hands(name):
        for m in moves:
            cards = state.move_cards(m)
            assert cards == (m & 63, *bits(m >> 6))
            assert state.move_text(m).startswith(state.game.deck.text(cards[0]))
            assert not state.is_pass_move(m)
            captures += len(cards) > 1
    assert captures > 0


def test_a_pharaoh_play_is_its_cards_in_order_and_a_draw_has_none() -> None:
    seen = set()
    for state, moves, _move in random_hands("pharaoh", hands=2):
        for m in moves:
            cards = state.move_cards(m)
            if m in (DRAW, SKIP):
                assert cards == ()
                seen.add(m)
            else:
                assert cards == tuple(play_cards(m)) and cards
                assert state.move_text(m).startswith("+".join(state.game.deck.text(c) for c in cards))
                seen.add("play")
            assert not state.is_pass_move(m)
    assert {DRAW, "play"} <= seen


@pytest.mark.parametrize("name", GAMES)
def test_last_trick_is_the_winner_and_plays_of_the_last_complete_trick(name: str) -> None:
    variant = {"passing": "left"} if name == "hearts" else {}
    checked = 0
    for state, _moves, move in random_hands(name, variant, hands=2):
        if not isinstance(state, TrickState):
            assert state.last_trick() is None
            continue
        expected = state.last_trick()
        seat = state.current_player
        after = state.clone()
        after.apply(move)
        if not state.is_pass_move(move) and not after.trick and move & SWAP_FLAG == 0:
            # this play completed a trick: the plays are the trick's cards, led by the leader
            plays = [*zip(state.trick_seats(), state.trick, strict=True), (seat, move)]
            assert after.last_trick() == (after.leader, tuple(plays))
            assert after.won[after.leader] >> move & 1
            checked += 1
        else:
            assert after.last_trick() == expected
        for observer in range(after.num_players):
            if not after.is_terminal():
                assert after.observation(observer).state.last_trick() == after.last_trick()
    if name in TRICK_GAMES:
        assert checked > 10
    else:
        assert checked == 0


def test_no_last_trick_before_the_first_is_complete() -> None:
    state = registry.create("sueca").new_hand(random.Random(2))
    for _ in range(3):
        assert state.last_trick() is None
        state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    assert state.last_trick() is not None


def test_sueca_shows_the_turned_trump_until_the_dealer_plays_it() -> None:
    rng = random.Random(3)
    game = registry.create("sueca", {"target": 0})
    for _ in range(5):
        state = game.new_hand(rng)
        card = state.trump_card
        assert state.trump_suit() == game.suit_of[card]
        while not state.is_terminal():
            held = bool(state.hands[state.dealer] >> card & 1)
            assert state.turned_trump() == (card if held else None)
            for seat in range(4):
                assert state.observation(seat).state.turned_trump() == state.turned_trump()
            moves = state.legal_moves()
            state.apply(moves[int(rng.random() * len(moves))])
        assert state.turned_trump() is None


@pytest.mark.parametrize("name", ["bisca", "briscola"])
def test_bisca_shows_the_face_up_trump_until_it_is_drawn(name: str) -> None:
    rng = random.Random(4)
    game = registry.create(name, {"trump_exchange": "2"} if name == "bisca" else {})
    exchanged = False
    for _ in range(6):
        state = game.new_hand(rng)
        assert state.turned_trump() == state.trump_card
        assert state.trump_suit() == game.suit_of[state.trump_card]
        while not state.is_terminal():
            assert state.turned_trump() == (state.stock[0] if state.stock else None)
            for seat in range(state.num_players):
                assert state.observation(seat).state.turned_trump() == state.turned_trump()
            moves = state.legal_moves()
            move = moves[int(rng.random() * len(moves))]
            swap = next((m for m in moves if m & SWAP_FLAG), None)
            if swap is not None:
                move, exchanged = swap, True
                state.apply(move)
                assert state.turned_trump() == swap & ~SWAP_FLAG  # the card swapped in lies face up
                continue
            state.apply(move)
        assert state.turned_trump() is None
    assert exchanged or name == "briscola"


@pytest.mark.parametrize("name", ["hearts", "mosssidewhist", "scopone", "scopa", "pharaoh"])
def test_games_without_a_turned_trump(name: str) -> None:
    state = registry.create(name).new_hand(random.Random(5))
    assert state.turned_trump() is None
    if name == "mosssidewhist":
        assert state.game.deck.suits[state.trump_suit()] == "S"  # spades are always trump
    else:
        assert state.trump_suit() is None


# --- the table API's per-game answers (engine/game.py) -----------------------------------------------------------
@pytest.mark.parametrize("name", registry.names())
def test_trick_plays_received_pass_running_points_draw_count(name: str) -> None:
    """Along seeded hands: trick_plays is the unfinished trick (its seats in play order, ending the trick empties
    it), running_points only grows toward result()'s points, draw_count matches the cards a draw adds,
    named_suit is the suit named in the notation, and every answer is the same on the mover's observation."""
    for variant in registry.entry(name).game_class.example_variants:
        game = registry.create(name, variant)
        rng = random.Random(name)
        state = game.new_hand(rng, dealer=0)
        previous = state.running_points()
        while not state.is_terminal():
            seat = state.current_player
            obs = state.observation(seat).state
            plays = state.trick_plays()
            assert obs.trick_plays() == plays
            assert all(state.move_cards(m)[0] != card for _, card in plays for m in state.legal_moves()
                       if state.move_cards(m))
            if plays:
                assert len({s for s, _ in plays}) == len(plays) and plays[-1][0] != seat
            received = state.received_pass(seat)
            assert obs.received_pass(seat) == received
            if received is not None:
                passer, cards = received
                assert passer != seat and len(cards) == 3
            move = rng.choice(state.legal_moves())
            named = state.named_suit(move)
            assert (named is None) == (">" not in state.move_text(move))
            if named is not None:
                assert state.move_text(move).endswith(">" + game.deck.suits[named])
            draws = state.draw_count(move)
            before = state.counts[seat] if hasattr(state, "counts") else None
            trick_before = state.last_trick()
            state.apply(move)
            if before is not None and draws:
                assert state.counts[seat] - before == draws
            points = state.running_points()
            assert (points is None) == (previous is None)
            if points is not None and previous is not None:
                changed = {s for s, (p, q) in enumerate(zip(points, previous, strict=True)) if p != q}
                trick = state.last_trick()
                if trick == trick_before:
                    assert not changed
                else:  # only the trick's winner (and partner) scores
                    assert changed <= set(game.teams()[[trick[0] in t for t in game.teams()].index(True)])
            previous = points
        assert state.trick_plays() == ()
        if previous is not None and name != "hearts":
            assert previous == state.result().points


def test_hearts_received_pass_and_running_points() -> None:
    game = registry.create("hearts", {"passing": "left"})
    state = game.new_hand(random.Random(3), dealer=0)
    assert state.received_pass(0) is None
    passed: dict[int, set[int]] = {s: set() for s in range(4)}
    while state.passing:
        move = state.legal_moves()[0]
        passed[state.current_player] |= set(state.move_cards(move))
        state.apply(move)
    for seat in range(4):
        passer, cards = state.received_pass(seat)
        assert set(cards) == passed[passer] and passer == (seat - 1) % 4
    assert state.running_points() == [0.0] * 4
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    result = state.result()
    if 26 not in state.running_points():
        assert state.running_points() == result.points


def test_sueca_trick_points_are_running_point_steps() -> None:
    game = registry.create("sueca")
    state = game.new_hand(random.Random(5), dealer=3)
    assert state.running_points() == [0.0] * 4
    rng = random.Random(2)
    while state.last_trick() is None:
        state.apply(rng.choice(state.legal_moves()))
    winner, plays = state.last_trick()
    points = sum(game.card_points[c] for _, c in plays)
    assert state.running_points()[winner] == state.running_points()[(winner + 2) % 4] == points
    assert state.running_points()[(winner + 1) % 4] == 0.0


def test_match_validate_refuses_impossible_counters() -> None:
    from engine.game import StateFormatError
    from engine.match import MAX_HANDS, Match

    game = registry.create("sueca")
    match = Match.start(game, seed=1)
    match.validate()
    good = match.to_dict()
    for key, value, message in (("dealer", 4, "dealer 4 is not a seat (0 to 3)"),
                                ("hand_index", MAX_HANDS + 1, "out of range"),
                                ("hand_index", 2, "0 scored hands do not fit hand index 2")):
        with pytest.raises(StateFormatError, match=re.escape(message)):
            Match.from_dict({**good, key: value})
    rng = random.Random(0)
    while not match.state.is_terminal():
        match.state.apply(rng.choice(match.state.legal_moves()))
    match.finish_hand()
    scored = match.to_dict()
    Match.from_dict(scored).validate()
    unfinished = {**scored, "state": good["state"]}
    with pytest.raises(StateFormatError, match="scored but not finished"):
        Match.from_dict(unfinished)
