"""The engine's structured illegal-move reasons: ``GameState.illegal_move`` gives a code from the state class's
``illegal_codes`` with fields, and ``illegal_reason`` keeps the English text it always gave."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import registry
from engine.game import IllegalMove

SAMPLES = json.loads((Path(__file__).parent / "data" / "illegal_reasons.json").read_text(encoding="utf-8"))


def test_sample_covers_every_game() -> None:
    assert {s["game"] for s in SAMPLES} == set(registry.names())


@pytest.mark.parametrize("name", registry.names())
def test_illegal_reason_texts_unchanged(name: str) -> None:
    samples = [s for s in SAMPLES if s["game"] == name]
    for sample in samples:
        game = registry.create(name, sample["variant"])
        state = game.state_from_json(sample["state"])
        assert state.illegal_reason(sample["move"]) == sample["reason"]
        reason = state.illegal_move(sample["move"])
        assert isinstance(reason, IllegalMove) and reason.text == sample["reason"]
        assert reason.code in type(state).illegal_codes


def _fields_ok(state, reason: IllegalMove) -> None:
    deck = state.game.deck
    for key, value in reason.fields.items():
        if key in ("card", "suit", "n", "seat", "total", "value", "move"):
            assert isinstance(value, int) and not isinstance(value, bool), (key, value)
        if key == "card":
            assert 0 <= value < deck.size
        if key == "suit":
            assert 0 <= value < len(deck.suits)
        if key in ("cards", "example"):
            assert all(0 <= c < deck.size for c in value)


@pytest.mark.parametrize("name", registry.names())
def test_every_illegal_move_has_a_known_code(name: str) -> None:
    """Seeded hands: every card (and every move seen in the hand) tried in every state gives either a legal
    move (None) or a code the state class declares, with typed fields."""
    game_class = registry.entry(name).game_class
    seen: set[str] = set()
    for variant in ({}, *game_class.example_variants):
        game = registry.create(name, variant)
        rng = random.Random(name)
        state = game.new_hand(rng, dealer=0)
        pool: set[int] = set(range(game.deck.size))
        while not state.is_terminal():
            legal = state.legal_moves()
            pool.update(legal)
            for move in sorted(pool):
                reason = state.illegal_move(move)
                if move in legal:
                    assert reason is None
                    continue
                assert reason is not None and reason.code in type(state).illegal_codes, (move, reason)
                _fields_ok(state, reason)
                seen.add(reason.code)
            state.apply(rng.choice(legal))
        assert state.illegal_move(0) == IllegalMove("hand_over", "the hand is over")
    assert "not_in_hand" in seen
