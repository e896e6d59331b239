"""The hand summary of Scopone and Scopa shows the cards each side captured (one row per suit)."""

from __future__ import annotations

import random

import pytest

from app import i18n, summaries
from engine import registry


@pytest.mark.parametrize("name", ["scopone", "scopa"])
def test_the_captured_piles_list_every_card_of_the_deck_once(name: str) -> None:
    i18n.set_language("en")
    game = registry.create(name, {})
    state = game.new_hand(random.Random(4))
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    rows = summaries.pile_rows(game, state)
    assert rows[0].style == "section" and len(rows) == 1 + len(game.deck.suit_names)
    seen: list[tuple[int, int]] = []
    for suit, row in enumerate(rows[1:]):
        assert len(row.cells) == 2
        for side, cell in enumerate(row.cells):
            assert cell[0] == summaries.Suit(suit)
            values = [int(v) for v in cell[1].split() if v != "–"]
            assert values == sorted(values)
            expected = sorted(game.deck.rank_of(c) + 1 for c in range(game.deck.size)
                              if state.captured[side] >> c & 1 and game.deck.suit_of(c) == suit)
            assert values == expected
            seen += [(suit, v) for v in values]
    assert len(seen) == game.deck.size == len(set(seen))


def test_other_games_have_no_pile_rows() -> None:
    game = registry.create("sueca", {})
    state = game.new_hand(random.Random(1))
    assert summaries.pile_rows(game, state) == []
