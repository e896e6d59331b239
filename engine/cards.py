"""Decks, compact card encoding, card-set bitmasks and the text notation for cards.

A card is an ``int`` in ``range(deck.size)``: ``card = suit * len(deck.ranks) + rank``, where ``rank`` is
the index in the deck's *natural* rank list (not the game's strength order; games keep their own
strength and point tables indexed by card). A set of cards is an ``int`` bitmask: bit ``c`` is set when
card ``c`` is in the set. Python ints make these sets cheap to copy, union and count.

Notation: a card is its rank symbol followed by its suit letter, e.g. ``7C``, ``AS``, ``QH``. Parsing is
case-insensitive and accepts ``10`` for ``T`` in the French deck. See ``docs/engine.md`` for each deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


class NotationError(ValueError):
    """A card or move token could not be parsed; the message names the token."""


@dataclass(frozen=True)
class Deck:
    """A deck: suit letters/names and rank symbols/names in natural order."""

    name: str
    suits: tuple[str, ...]
    suit_names: tuple[str, ...]
    ranks: tuple[str, ...]
    rank_names: tuple[str, ...]
    aliases: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    def card(self, suit: int, rank: int) -> int:
        """The card with suit index ``suit`` and natural rank index ``rank``."""
        return suit * len(self.ranks) + rank

    def suit_of(self, card: int) -> int:
        return card // len(self.ranks)

    def rank_of(self, card: int) -> int:
        return card % len(self.ranks)

    def suit_mask(self, suit: int) -> int:
        """Bitmask of every card of ``suit``."""
        n = len(self.ranks)
        return ((1 << n) - 1) << (suit * n)

    def text(self, card: int) -> str:
        """Notation of one card, e.g. ``7C``."""
        if not 0 <= card < self.size:
            raise NotationError(f"card index {card} is outside the {self.name} deck (0..{self.size - 1})")
        return self.ranks[self.rank_of(card)] + self.suits[self.suit_of(card)]

    def long_name(self, card: int) -> str:
        """Human-readable English name, e.g. ``Seven of Clubs``."""
        return f"{self.rank_names[self.rank_of(card)]} of {self.suit_names[self.suit_of(card)]}"

    def parse(self, token: str) -> int:
        """Parse one card token; raises :class:`NotationError` naming the token when it is not a card."""
        raw = token
        token = token.strip().upper()
        token = self.aliases.get(token[:-1], token[:-1]) + token[-1:] if len(token) >= 2 else token
        if len(token) < 2:
            raise NotationError(f"bad card {raw!r} for the {self.name} deck: expected rank+suit, e.g. "
                                f"{self.text(0)!r}")
        rank_sym, suit_sym = token[:-1], token[-1]
        if suit_sym not in self.suits:
            raise NotationError(f"bad card {raw!r}: unknown suit {suit_sym!r} in the {self.name} deck "
                                f"(suits: {' '.join(self.suits)})")
        if rank_sym not in self.ranks:
            raise NotationError(f"bad card {raw!r}: unknown rank {rank_sym!r} in the {self.name} deck "
                                f"(ranks: {' '.join(self.ranks)})")
        return self.card(self.suits.index(suit_sym), self.ranks.index(rank_sym))

    def parse_set(self, text: str) -> int:
        """Parse a whitespace- or comma-separated list of cards into a bitmask (duplicates are an error)."""
        mask = 0
        for token in text.replace(",", " ").split():
            c = self.parse(token)
            if mask >> c & 1:
                raise NotationError(f"card {token!r} appears twice in {text!r}")
            mask |= 1 << c
        return mask

    def parse_list(self, text: str) -> list[int]:
        """Parse a list of cards keeping order."""
        return [self.parse(t) for t in text.replace(",", " ").split()]

    def set_text(self, mask: int) -> str:
        """Notation of a card set, cards in index order separated by spaces."""
        return " ".join(self.text(c) for c in iter_bits(mask))


FRENCH_SUITS = ("C", "D", "H", "S")
FRENCH_SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")

FRENCH52 = Deck(
    "french52", FRENCH_SUITS, FRENCH_SUIT_NAMES,
    ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"),
    ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"),
    aliases={"10": "T"},
)
"""French 52: ranks 2..A (Ace high), suits Clubs, Diamonds, Hearts, Spades."""

PORTUGUESE40 = Deck(
    "portuguese40", FRENCH_SUITS, FRENCH_SUIT_NAMES,
    ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
    ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Jack", "Queen", "King"),
)
"""Portuguese 40 (Sueca, Bisca): French suits without 8, 9, 10."""

ITALIAN40 = Deck(
    "italian40", ("D", "C", "S", "B"), ("Coins", "Cups", "Swords", "Batons"),
    ("A", "2", "3", "4", "5", "6", "7", "J", "H", "K"),
    ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Jack", "Horse", "King"),
)
"""Italian 40: suits D=denari (coins), C=coppe (cups), S=spade (swords), B=bastoni (batons);
ranks A, 2-7, J=fante (jack), H=cavallo (horse), K=re (king)."""

GERMAN32 = Deck(
    "german32", ("L", "H", "B", "A"), ("Leaves", "Hearts", "Bells", "Acorns"),
    ("7", "8", "9", "X", "U", "O", "K", "A"),
    ("Seven", "Eight", "Nine", "Ten", "Unter", "Ober", "King", "Ace"),
    aliases={"10": "X", "VII": "7", "VIII": "8", "IX": "9"},
)
"""German 32: suits L=leaves, H=hearts, B=bells, A=acorns; ranks VII, VIII, IX, X, Unter, Ober, King, Ace."""

GERMAN15 = Deck(
    "pharaoh15", ("L", "H", "B"), ("Leaves", "Hearts", "Bells"),
    ("7", "8", "9", "X", "U"),
    ("Seven", "Eight", "Nine", "Ten", "Unter"),
    aliases={"10": "X", "VII": "7", "VIII": "8", "IX": "9"},
)
"""The small Pharaoh deck of kassak2023: three German suits x five ranks = 15 cards."""

DECKS: dict[str, Deck] = {d.name: d for d in (FRENCH52, PORTUGUESE40, ITALIAN40, GERMAN32, GERMAN15)}


def popcount(mask: int) -> int:
    """Number of cards in a set."""
    return mask.bit_count()


def iter_bits(mask: int) -> Iterator[int]:
    """Cards of a set in increasing index order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    """Cards of a set as a list in increasing index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def lowest(mask: int) -> int:
    """The lowest-index card of a non-empty set."""
    return (mask & -mask).bit_length() - 1
