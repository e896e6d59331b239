"""Card images: the project's :class:`app.cardart.CardArt` when present, else a plain fallback.

Both share one interface: ``face(card, width)``, ``back(width)``, ``size_for_width(width)``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import pygame

from app.i18n import t
from engine.cards import DECKS

ASPECT = 3.5 / 2.5

SUIT_COLOURS = {
    "classic": {"french52": ((20, 20, 20), (190, 20, 30), (190, 20, 30), (20, 20, 20)),
                "portuguese40": ((20, 20, 20), (190, 20, 30), (190, 20, 30), (20, 20, 20))},
    "four_colour": {"french52": ((20, 130, 40), (30, 80, 200), (190, 20, 30), (20, 20, 20)),
                    "portuguese40": ((20, 130, 40), (30, 80, 200), (190, 20, 30), (20, 20, 20))},
}
DEFAULT_COLOURS = ((170, 120, 0), (190, 20, 30), (30, 80, 200), (20, 110, 40))


class CardArtLike(Protocol):
    """What the table needs from a card-art provider."""
    def face(self, card: int, width: int) -> pygame.Surface: ...
    def back(self, width: int) -> pygame.Surface: ...
    def size_for_width(self, width: int) -> tuple[int, int]: ...


class FallbackCardArt:
    """Rounded rectangles with the card's notation: used until the real card art is available."""

    def __init__(self, deck_name: str, style: str = "classic") -> None:
        self.deck = DECKS[deck_name]
        self.style = style
        self._faces: dict[tuple[int, int], pygame.Surface] = {}
        self._backs: dict[int, pygame.Surface] = {}

    def size_for_width(self, width: int) -> tuple[int, int]:
        """Card size (w, h) for a width."""
        return int(width), int(round(width * ASPECT))

    def _colour(self, card: int) -> tuple[int, int, int]:
        table = SUIT_COLOURS.get(self.style, SUIT_COLOURS["classic"]).get(self.deck.name, DEFAULT_COLOURS)
        return table[self.deck.suit_of(card) % len(table)]

    def face(self, card: int, width: int) -> pygame.Surface:
        """The face of ``card`` at ``width`` pixels."""
        key = (card, int(width))
        if key not in self._faces:
            from app.text import font

            w, h = self.size_for_width(width)
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            radius = max(3, w // 12)
            pygame.draw.rect(surf, (250, 250, 245), surf.get_rect(), border_radius=radius)
            pygame.draw.rect(surf, (60, 60, 60), surf.get_rect(), width=1, border_radius=radius)
            text = self.deck.text(card)
            colour = self._colour(card)
            small = font(max(8, w // 4), True).render(text, True, colour)
            surf.blit(small, (max(2, w // 14), max(2, w // 16)))
            big = font(max(10, w // 2), True).render(text, True, colour)
            surf.blit(big, big.get_rect(center=(w // 2, h // 2)))
            self._faces[key] = surf
        return self._faces[key]

    def back(self, width: int) -> pygame.Surface:
        """The card back at ``width`` pixels."""
        width = int(width)
        if width not in self._backs:
            w, h = self.size_for_width(width)
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            radius = max(3, w // 12)
            pygame.draw.rect(surf, (245, 245, 240), surf.get_rect(), border_radius=radius)
            inner = surf.get_rect().inflate(-max(4, w // 10), -max(4, w // 10))
            pygame.draw.rect(surf, (40, 70, 140), inner, border_radius=max(2, radius // 2))
            step = max(4, w // 8)
            for x in range(inner.left, inner.right + inner.height, step):
                pygame.draw.line(surf, (70, 100, 170), (x, inner.top), (x - inner.height, inner.bottom))
            pygame.draw.rect(surf, (60, 60, 60), surf.get_rect(), width=1, border_radius=radius)
            self._backs[width] = surf
        return self._backs[width]


def index_letters(deck_name: str) -> dict[str, str]:
    """The court cards' index letters in the current language: the first letter of each court rank's translated
    name (Italian Fante/Cavallo/Re: F/C/R; Portuguese Valete/Dama/Rei: V/D/R), or none at all when two courts
    would share a letter (the deck's own letters then stay)."""
    deck = DECKS.get(deck_name)
    if deck is None:
        return {}
    letters = {}
    for symbol, name in zip(deck.ranks, deck.rank_names, strict=True):
        if symbol.isdigit() or symbol in ("A", "T", "X"):
            continue
        letters[symbol] = t(name)[:1].upper() or symbol
    return letters if len(set(letters.values())) == len(letters) else {}


def card_art(deck_name: str, style: str = "classic", court_values: bool = False) -> CardArtLike:
    """The card art for a deck and style (the project's CardArt, or the fallback when it is missing/broken), with
    court index letters in the current language and, when asked, the courts' capture values."""
    return _card_art(deck_name, style, tuple(sorted(index_letters(deck_name).items())), court_values)


@lru_cache(maxsize=16)
def _card_art(deck_name: str, style: str, letters: tuple[tuple[str, str], ...], court_values: bool) -> CardArtLike:
    try:
        from app.cardart import CardArt

        art = CardArt(deck_name, style, dict(letters), court_values)
        art.size_for_width(10)
        return art
    except Exception:  # noqa: BLE001 - any problem in the art module must not stop the game
        return FallbackCardArt(deck_name, style)
