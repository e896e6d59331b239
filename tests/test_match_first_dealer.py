"""The ``first_dealer`` rule option: a first dealer drawn from the match's seed where the rules call for it
(dipalma2014 3.3.1), the last seat otherwise; old saves and records without the option read unchanged."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.game import VariantError
from engine.match import Match, first_dealer
from saves.records import RecordsDB, replay
from saves.session import GameSession, Seat


def test_random_first_dealer_is_the_default_of_scopone_and_scopa() -> None:
    for name in ("scopone", "scopa"):
        assert registry.create(name).variant["first_dealer"] == "random"


def test_same_seed_same_first_dealer_and_every_seat_is_drawn() -> None:
    for name, players in (("scopone", 4), ("scopa", 2)):
        game = registry.create(name)
        dealers = [Match.start(game, seed).dealer for seed in range(60)]
        assert dealers == [Match.start(game, seed).dealer for seed in range(60)]
        assert set(dealers) == set(range(players))
        # Roughly uniform: each seat's share within a wide binomial band (60 draws; p = 1/players).
        for seat in range(players):
            share = dealers.count(seat) / len(dealers)
            assert abs(share - 1 / players) < 4 * (1 / players * (1 - 1 / players) / len(dealers)) ** 0.5


def test_the_drawn_dealer_deals_and_the_player_after_him_starts() -> None:
    game = registry.create("scopone")
    seed = next(s for s in range(100) if first_dealer(game, s) == 1)
    match = Match.start(game, seed)
    assert match.dealer == match.state.dealer == 1
    assert match.state.current_player == 2


def test_last_seat_deals_when_the_variant_says_so_and_in_games_without_the_option() -> None:
    for seed in range(20):
        assert Match.start(registry.create("scopone", {"first_dealer": "last_seat"}), seed).dealer == 3
        assert Match.start(registry.create("briscola"), seed).dealer == registry.create("briscola").num_players - 1
    with pytest.raises(VariantError, match="allowed: random, last_seat"):
        registry.create("scopone", {"first_dealer": "north"})


def test_the_deals_of_a_seed_do_not_depend_on_who_deals() -> None:
    """The draw has its own stream: a replay that forces the recorded first dealer deals the same cards."""
    drawn = Match.start(registry.create("scopone"), 7)
    forced = Match.start(registry.create("scopone", {"first_dealer": "last_seat"}), 7, dealer=drawn.dealer)
    assert drawn.state.to_dict() == forced.state.to_dict()


def test_an_explicit_dealer_still_wins_over_the_option() -> None:
    for seat in range(4):
        assert Match.start(registry.create("scopone"), 5, dealer=seat).dealer == seat


def _play_out(match: Match, seed: int) -> None:
    rng = random.Random(seed)
    while not match.state.is_terminal():
        match.state.apply(rng.choice(match.state.legal_moves()))


def test_an_old_save_without_the_option_loads_unchanged() -> None:
    game = registry.create("scopone", {"first_dealer": "last_seat"})
    match = Match.start(game, 11)
    _play_out(match, 1)
    match.next_hand()
    old = match.to_dict()
    for variant in (old["variant"], old["state"]["variant"]):
        del variant["first_dealer"]
    loaded = Match.from_dict(json.loads(json.dumps(old)))
    assert (loaded.dealer, loaded.hand_index, loaded.totals) == (match.dealer, match.hand_index, match.totals)
    assert loaded.state.to_dict() == match.state.to_dict()
    assert loaded.rng_state == match.rng_state


def test_a_match_with_a_drawn_dealer_round_trips_and_replays_from_its_record(tmp_path) -> None:
    game = registry.create("scopone", {"target": 0})
    seed = next(s for s in range(100) if first_dealer(game, s) == 2)
    session = GameSession.start(game, [Seat("human", "You")] + [Seat("ai", f"AI {i}", spec="random") for i in range(3)],
                                seed)
    rng = random.Random(3)
    while not session.match.state.is_terminal():
        session.apply(rng.choice(session.match.state.legal_moves()))
    assert Match.from_json(session.match.to_json()).dealer == 2
    with RecordsDB(tmp_path / "records.sqlite3") as db:
        record = db.load_record(db.record_game(session))
    assert record.first_dealer == 2
    steps = list(replay(record))
    assert steps[-1].state.to_dict() == session.match.state.to_dict()
