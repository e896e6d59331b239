"""The heuristic agent: one position per rule (Sueca, Bisca, Hearts, Moss Side Whist), legality, fairness."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.agents.heuristic import HeuristicAgent
from engine.games.sueca import SuecaState
from tests.agent_checks import fairness_check, games_available, play_out

TRICK_GAMES = ["sueca", "bisca", "briscola", "hearts", "mosssidewhist"]


def sueca_position(hands: list[str], trick: list[str], leader: int, trump: str = "H",
                   played: str = "", trump_card: str | None = None):
    """A Sueca state from card notation: seat hands, the cards of the trick so far (from ``leader``),
    and cards already played (credited to seat 1)."""
    game = registry.create("sueca", {"target": 0})
    d = game.deck
    hs = [d.parse_set(h) for h in hands]
    tsuit = d.suits.index(trump)
    tcard = d.parse(trump_card) if trump_card else next(c for c in range(40) if d.suit_of(c) == tsuit and not
                                                        any(h >> c & 1 for h in hs) and c not in
                                                        d.parse_list(played) + d.parse_list(" ".join(trick)))
    st = SuecaState(game, hs, leader, tsuit, 3, tcard)
    st.trick = d.parse_list(" ".join(trick))
    st.won[1] = d.parse_set(played)
    st.current = (leader + len(st.trick)) % 4
    return st


def choose(state, seat: int | None = None) -> tuple[str, str]:
    """(move text, rule) the heuristic picks for the current player."""
    game = state.game
    agent = HeuristicAgent(game)
    seat = state.current_player if seat is None else seat
    move = agent.choose(state.observation(seat), random.Random(0))
    assert move in state.legal_moves()
    return state.move_text(move), agent.last_rule


# Hands are full 10-card-style sets only as far as the rule needs; other seats hold the rest.
def _others(mine: str, *rest: str) -> list[str]:
    return [mine, *rest]


def test_sueca_give_points_to_partner_master():
    # Seat 0 led the AC (master), seat 1 followed low; seat 2 loads the trick with its 7C.
    st = sueca_position(["QD 2D", "3D 4D 3S", "7C 2C 5S", "4C 5C 6S"], ["AC", "3C"], leader=0,
                        played="")
    assert choose(st) == ("7C", "give-points")


def test_sueca_never_overtake_unsafe_partner():
    # Partner's KC wins but the AC is still out and seat 3 is still to play: keep points back.
    st = sueca_position(["QD 2D", "3D 4D 3S", "7C 2C 5S", "AC 5C 6S"], ["KC", "3C"], leader=0)
    move, rule = choose(st)
    assert (move, rule) == ("2C", "never-overtake")


def test_sueca_take_cheaply_as_last_player():
    # Opponent's KC wins; seat 3 (last) takes with the cheapest winning club: the 7C (AC would waste 11).
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AC 7C 5C"], ["KC", "3C", "2C"], leader=0)
    assert choose(st) == ("7C", "take-cheaply")


def test_sueca_ruff_a_rich_trick_with_a_low_trump():
    # Void in clubs, the trick holds the AC of an opponent: trump it with the 2H, not the AH.
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AH 2H 5D"], ["AC", "4C", "3C"], leader=0)
    assert choose(st) == ("2H", "ruff")


def test_sueca_keep_trumps_on_a_poor_trick():
    # A pointless trick: do not waste a trump, discard the cheapest side card.
    st = sueca_position(["QD 2D", "3D 4D 3S", "2S 5S 6S", "AH 2H 5D 7D"], ["5C", "4C", "3C"], leader=0)
    assert choose(st) == ("5D", "discard-low")


def test_sueca_lead_master():
    # The AS is the master of spades: lead it (no opponent known void in spades).
    st = sueca_position(["AS 2S 4C", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0)
    assert choose(st) == ("AS", "lead-master")


def test_sueca_lead_master_counts_played_aces():
    # The AS was played earlier, so the 7S is now the master of spades.
    st = sueca_position(["7S 2S 4C", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0, played="AS 6D")
    assert choose(st) == ("7S", "lead-master")


def test_sueca_lead_low_without_masters():
    st = sueca_position(["KS 2S 4C 5H", "3D 4D 3S", "7C 2C 5S", "4S 5C 6S"], [], leader=0)
    assert choose(st) == ("2S", "lead-low")


@pytest.mark.parametrize("name", games_available(TRICK_GAMES))
def test_heuristic_never_illegal_across_variants(name):
    cls = registry.game_class(name)
    for i, variant in enumerate(cls.example_variants):
        game = cls(variant)
        specs = ["heuristic", "random"] if i % 2 else ["heuristic"]
        for seed in range(3):
            play_out(game, specs, seed=1000 * i + seed)


@pytest.mark.parametrize("name", games_available(TRICK_GAMES))
def test_heuristic_is_fair(name):
    game = registry.create(name)
    play_out(game, ["heuristic", "random"], seed=7, check=fairness_check(3))


def test_heuristic_deterministic():
    game = registry.create("sueca")
    a = play_out(game, ["heuristic"], seed=5)
    b = play_out(game, ["heuristic"], seed=5)
    assert a.to_dict() == b.to_dict()


def test_registry_builds_heuristic():
    agent = agents.make("heuristic", registry.create("sueca"))
    assert agent.fair and agent.spec == "heuristic"
