"""Card model: decks, encoding, bitmask helpers and notation."""

from __future__ import annotations

import pytest

from engine.cards import (
    DECKS,
    FRENCH52,
    GERMAN15,
    GERMAN32,
    ITALIAN40,
    PORTUGUESE40,
    NotationError,
    bits,
    iter_bits,
    lowest,
    mask_of,
    popcount,
)


def test_deck_sizes() -> None:
    assert (FRENCH52.size, PORTUGUESE40.size, ITALIAN40.size, GERMAN32.size, GERMAN15.size) == (52, 40, 40, 32, 15)


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_card_round_trips(deck) -> None:
    seen = set()
    for c in range(deck.size):
        text = deck.text(c)
        assert deck.parse(text) == c and deck.parse(text.lower()) == c
        assert deck.suit_of(c) * len(deck.ranks) + deck.rank_of(c) == c
        assert deck.suit_mask(deck.suit_of(c)) >> c & 1
        seen.add(text)
    assert len(seen) == deck.size
    assert deck.parse_set(deck.set_text(deck.full_mask)) == deck.full_mask


def test_examples_from_the_docs() -> None:
    assert FRENCH52.long_name(FRENCH52.parse("QH")) == "Queen of Hearts"
    assert FRENCH52.parse("10S") == FRENCH52.parse("TS")
    assert PORTUGUESE40.long_name(PORTUGUESE40.parse("7C")) == "Seven of Clubs"
    assert ITALIAN40.long_name(ITALIAN40.parse("7D")) == "Seven of Coins"
    assert ITALIAN40.long_name(ITALIAN40.parse("HB")) == "Horse of Batons"
    assert GERMAN32.long_name(GERMAN32.parse("UL")) == "Unter of Leaves"
    assert GERMAN32.parse("XA") == GERMAN32.parse("10A")


@pytest.mark.parametrize("token", ["", "7", "8C", "1S", "ZZ", "7X", "10C", "A", "AH AH"])
def test_bad_notation_names_the_token(token: str) -> None:
    with pytest.raises(NotationError) as err:
        PORTUGUESE40.parse_set(token) if " " in token else PORTUGUESE40.parse(token)
    assert repr(token.split()[0] if token.split() else token) in str(err.value)


def test_bitmask_helpers() -> None:
    m = mask_of([3, 0, 17, 39])
    assert bits(m) == [0, 3, 17, 39] == list(iter_bits(m))
    assert popcount(m) == 4 and lowest(m) == 0
    assert bits(0) == []
    with pytest.raises(NotationError):
        PORTUGUESE40.text(40)
