"""Draw the app icon (a fan of three playing cards on a felt-green tile) as ``assets/icons/cardtable-<N>.png``.

``python packaging/make_icons.py`` renders it once at 1024 px with pygame and scales it down to every size of
``app.resources.ICON_SIZES``; the PNG files are committed, so builds do not need to run this.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.resources import ICON_SIZES  # noqa: E402

MASTER = 1024
FELT = (24, 104, 66)
FELT_EDGE = (12, 60, 38)
CARD = (250, 248, 240)
CARD_EDGE = (60, 60, 60)
RED = (200, 30, 40)
BLACK = (25, 25, 30)


def _heart(surface: pygame.Surface, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    pygame.draw.circle(surface, color, (cx - r * 0.5, cy - r * 0.25), r * 0.55)
    pygame.draw.circle(surface, color, (cx + r * 0.5, cy - r * 0.25), r * 0.55)
    pygame.draw.polygon(surface, color, [(cx - r * 1.03, cy - r * 0.05), (cx + r * 1.03, cy - r * 0.05),
                                         (cx, cy + r * 1.15)])


def _spade(surface: pygame.Surface, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    pygame.draw.circle(surface, color, (cx - r * 0.5, cy + r * 0.25), r * 0.55)
    pygame.draw.circle(surface, color, (cx + r * 0.5, cy + r * 0.25), r * 0.55)
    pygame.draw.polygon(surface, color, [(cx - r * 1.03, cy + r * 0.05), (cx + r * 1.03, cy + r * 0.05),
                                         (cx, cy - r * 1.15)])
    stem = [(cx, cy + r * 0.3), (cx - r * 0.45, cy + r * 1.2), (cx + r * 0.45, cy + r * 1.2)]
    pygame.draw.polygon(surface, color, stem)


def _diamond(surface: pygame.Surface, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    pygame.draw.polygon(surface, color, [(cx, cy - r * 1.2), (cx + r * 0.85, cy), (cx, cy + r * 1.2),
                                         (cx - r * 0.85, cy)])


def _card(suit: str) -> pygame.Surface:
    w, h = int(MASTER * 0.42), int(MASTER * 0.6)
    card = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = w // 9
    pygame.draw.rect(card, CARD_EDGE, card.get_rect(), border_radius=radius)
    pygame.draw.rect(card, CARD, card.get_rect().inflate(-w // 22, -w // 22), border_radius=radius)
    draw = {"heart": _heart, "spade": _spade, "diamond": _diamond}[suit]
    color = BLACK if suit == "spade" else RED
    draw(card, w / 2, h / 2, w * 0.26, color)
    draw(card, w * 0.2, h * 0.14, w * 0.08, color)
    draw(card, w * 0.8, h * 0.86, w * 0.08, color)
    return card


def draw_master() -> pygame.Surface:
    """The icon at ``MASTER`` pixels: a rounded felt tile with a fan of three cards."""
    icon = pygame.Surface((MASTER, MASTER), pygame.SRCALPHA)
    tile = icon.get_rect().inflate(-MASTER // 32, -MASTER // 32)
    pygame.draw.rect(icon, FELT_EDGE, tile, border_radius=MASTER // 6)
    pygame.draw.rect(icon, FELT, tile.inflate(-MASTER // 24, -MASTER // 24), border_radius=MASTER // 7)
    pivot = (MASTER / 2, MASTER * 0.86)
    for angle, suit in ((24, "diamond"), (0, "spade"), (-24, "heart")):
        card = _card(suit)
        # the card's bottom centre sits on the pivot; rotate about it
        offset = pygame.math.Vector2(0, -card.get_height() * 0.5).rotate(-angle)
        rotated = pygame.transform.rotozoom(card, angle, 1.0)
        centre = (pivot[0] + offset.x, pivot[1] - card.get_height() * 0.05 + offset.y)
        icon.blit(rotated, rotated.get_rect(center=centre))
    return icon


def main() -> int:
    pygame.init()
    master = draw_master()
    out = ROOT / "assets" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in ICON_SIZES:
        image = master
        while image.get_width() // 2 >= size:  # halve step by step: smooth small sizes
            image = pygame.transform.smoothscale(image, (image.get_width() // 2, image.get_height() // 2))
        if image.get_width() != size:
            image = pygame.transform.smoothscale(image, (size, size))
        pygame.image.save(image, str(out / f"cardtable-{size}.png"))
        print(out / f"cardtable-{size}.png")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
