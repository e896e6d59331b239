"""Pharaoh heuristic players (kassak2023 4.3) and their classic-rules layer: positions, legality, fairness."""

from __future__ import annotations

import random

import pytest

from engine import agents, registry
from engine.games.pharaoh import players as P
from engine.games.pharaoh.rules import DRAW, SKIP
from tests.test_heuristic_checks import fairness_check, play_out

SEED_SMALL = {"rules": "simplified", "players": 2, "deck": "small", "open": True, "target": 0}
CLASSIC2 = {"players": 2, "target": 0}


def decide(spec: str, state, full: bool = False) -> tuple[str, str]:
    agent = agents.make(spec, state.game)
    rng = random.Random(0)
    move = agent.choose_full(state.clone(), rng) if full else agent.choose(state.observation(state.current), rng)
    assert move in state.legal_moves()
    return state.move_text(move), agent.last_rule


def seed_position(hands: list[str], discard: str, stock: str = "", current: int = 0, deck: str = "small"):
    game = registry.create("pharaoh", {**SEED_SMALL, "deck": deck})
    return game.position(hands, discard, stock, current=current)


def test_biggest_and_smallest_seed_example():
    # kassak2023: able to play one X, two X or one VII: BIGGEST plays the two X, SMALLEST the VII.
    st = seed_position(["XB XL 7L", "8H 9H"], "8L 7B", stock="9L")
    assert decide("biggest", st)[0] in ("XB+XL",)
    assert decide("smallest", st)[0] == "7L"


def test_smallest_plays_whole_groups_only():
    st = seed_position(["9L 9H 8H", "7H 7B"], "8L 9B", stock="XL")
    move, _ = decide("smallest", st)
    assert move in ("8H", "9L+9H", "9H+9L") and move != "9L"  # never splits the pair of 9s


def test_annoying_open_blocks_the_next_player():
    # Ending on 9L leaves 8H without a play; ending on 9H does not.
    st = seed_position(["9L 9H UB", "8H 7B"], "XL 9B", stock="")
    assert P.blocks_open(st, st.parse_move("9H+9L")) and not P.blocks_open(st, st.parse_move("9L+9H"))
    assert decide("annoying:open=true", st, full=True) == ("9H+9L", "annoy")


def test_annoying_fair_judges_the_odds_from_unknown_cards():
    game = registry.create("pharaoh", {"rules": "simplified", "players": 2, "deck": "small", "target": 0})
    st = game.position(["9L 9H 7L", "8H 7B"], "XL 9B", stock="UB UH UL 8L 8B XH XB")
    obs = st.observation(0)
    unknown = P._unknown(obs.state, 0)
    p_l = P.block_probability(obs.state, st.parse_move("9H+9L"), unknown)
    p_h = P.block_probability(obs.state, st.parse_move("9L+9H"), unknown)
    assert 0.0 < p_h < 1.0 and 0.0 < p_l < 1.0
    agent = agents.make("annoying", game)
    assert agent.fair and agents.make("annoying:open=true", game).fair is False
    move = agent.choose(obs, random.Random(0))
    assert move in st.legal_moves()


def test_backtrack_finds_a_forced_win_smallest_misses():
    st = seed_position(["XB", "XL UL XH UH"], "9B UB 8B 8L 8H 9H 7H 7B 7L 9L", current=1)
    assert decide("smallest", st)[0] == "XL+XH"  # lets XB go out
    assert decide("backtrack", st, full=True) == ("UL+UH", "forced-win")


def test_backtrack_depth_one_cannot_see_it():
    st = seed_position(["XB", "XL UL XH UH"], "9B UB 8B 8L 8H 9H 7H 7B 7L 9L", current=1)
    assert decide("backtrack:depth=1", st, full=True)[1] == "smallest"


# --- classic Faraon layer ------------------------------------------------------------------------------
def classic(hands: list[str], discard: str, stock: str = "7A 8A 9A", **kw):
    game = registry.create("pharaoh", {**CLASSIC2, **kw.pop("variant", {})})
    st = game.position(hands, discard, stock, current=0)
    for k, v in kw.items():
        setattr(st, k, v)
    return st


@pytest.mark.parametrize("spec", ["smallest", "biggest", "annoying"])
def test_classic_stack_seven_and_cancel_with_the_pharaoh(spec):
    st = classic(["7H 8H UL", "KB KA"], "7L", pending_draw=3)
    assert decide(spec, st) == ("7H", "stack-seven")
    st = classic(["8H UL", "KB KA"], "7L", pending_draw=3)
    assert decide(spec, st) == ("UL", "pharaoh-cancel")
    st = classic(["8H 9B", "KB KA"], "7L", pending_draw=3)
    assert decide(spec, st)[0] == "draw"  # the only legal move: take the penalty


def test_classic_pending_ace():
    st = classic(["AH 8H UL", "KB KA"], "AL", pending_skip=1)
    assert decide("smallest", st) == ("AH", "pending-ace")
    st = classic(["8H UL", "KB KA"], "AL", pending_skip=1)
    assert decide("smallest", st)[0] == "skip" and st.legal_moves().count(SKIP) == 1


def test_classic_save_jokers_and_ober_naming():
    st = classic(["OL 8B 9H UL", "KB KA"], "8L")
    assert decide("smallest", st) == ("8B", "save-jokers")
    st = classic(["OB 9H 8H KH", "KB KA"], "XL")
    move, rule = decide("smallest", st)
    assert move == "OB>H" and rule == "ober-names"


def test_classic_finish_and_penalty_dump():
    st = classic(["OB", "KB KA"], "XL")
    assert decide("biggest", st)[1] in ("finish", "forced")
    st = classic(["AL 8L KH", "KB KA"], "9L", variant={"scoring": "penalty"})
    assert decide("smallest", st)[0] == "AL"  # sheds the 11-point Ace first
    assert DRAW in st.legal_moves()


# --- legality, fairness, determinism --------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["biggest", "smallest", "annoying", "annoying:open=true", "backtrack:nodes=200"])
def test_never_illegal_across_variants(spec):
    cls = registry.game_class("pharaoh")
    for i, variant in enumerate(cls.example_variants):
        for seed in range(3):
            play_out(cls(variant), [spec, "random"] if (i + seed) % 2 else [spec], seed=50 + 10 * seed + i)


@pytest.mark.parametrize("spec", ["biggest", "smallest", "annoying"])
def test_fair_players_are_fair(spec):
    play_out(registry.create("pharaoh", {"players": 3}), [spec, "random"], seed=9, check=fairness_check(2))


def test_deterministic_and_policies():
    game = registry.create("pharaoh", {"rules": "simplified", "players": 2, "deck": "full", "open": True})
    a = play_out(game, ["backtrack:nodes=300", "annoying:open=true"], seed=3)
    b = play_out(game, ["backtrack:nodes=300", "annoying:open=true"], seed=3)
    assert a.to_dict() == b.to_dict()
    from engine.search import knowledge
    st = registry.create("pharaoh").new_hand(random.Random(1))
    for name in ("smallest", "biggest"):
        assert knowledge.policy("pharaoh", name)(st, random.Random(0)) in st.legal_moves()


def test_backtrack_from_an_observation_searches_a_consistent_deal():
    game = registry.create("pharaoh", {"rules": "simplified", "players": 2, "deck": "small", "target": 0})
    st = game.new_hand(random.Random(4))
    agent = agents.make("backtrack", game)
    obs = st.observation(st.current)
    assert obs.slots  # hidden hands: the masked state alone would look like empty opponents
    assert agent.choose(obs, random.Random(1)) in st.legal_moves()
