"""Text helpers: the shipped font (``app.fonts``) with a pygame default-font fallback, cached renders."""

from __future__ import annotations

from functools import lru_cache

import pygame

clipped: list[tuple[str, int, int]] | None = None
"""When a list (the tour sets one): every drawn text that did not fit its box, as (text, room, needed) pixels."""

SHRINK_LIMIT = 0.6
"""A text shrunk below this fraction of its size to fit its box counts as not fitting (it becomes unreadable)."""


def note_clipped(text: str, room: int, needed: int) -> None:
    """Record a text wider than its box (only while :data:`clipped` is a list)."""
    if clipped is not None and text.strip():
        clipped.append((text, int(room), int(needed)))


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """A font of ``size`` pixels (the project's shipped font when present)."""
    size = max(6, int(size))
    try:
        from app import fonts

        return fonts.font(size, bold)
    except (ImportError, FileNotFoundError, OSError):
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, int(size * 1.3))
        f.set_bold(bold)
        return f


@lru_cache(maxsize=2048)
def render(text: str, size: int, color: tuple[int, int, int] = (240, 240, 240),
           bold: bool = False) -> pygame.Surface:
    """A cached anti-aliased text surface."""
    return font(size, bold).render(text, True, color)


@lru_cache(maxsize=2048)
def fit(text: str, size: int, max_width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` whose rendering of ``text`` fits ``max_width`` pixels."""
    while size > 8 and font(size, bold).size(text)[0] > max_width:
        size -= 1
    return size


def wrap(text: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """Split ``text`` into lines that fit ``max_width`` pixels."""
    f = font(size, bold)
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while f.size(word)[0] > max_width and len(word) > 1:  # a word wider than the line (a path): break it
                cut = len(word) - 1
                while cut > 1 and f.size(word[:cut])[0] > max_width:
                    cut -= 1
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:cut])
                word = word[cut:]
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= max_width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def blit_text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int,
              color: tuple[int, int, int] = (240, 240, 240), bold: bool = False, anchor: str = "topleft",
              max_width: int | None = None) -> pygame.Rect:
    """Draw one line of text anchored at ``pos``; shrinks the font to ``max_width`` when given. A text wider than
    its box, shrunk past :data:`SHRINK_LIMIT` or running off the surface is recorded (:func:`note_clipped`)."""
    wanted = size
    if max_width is not None:
        size = fit(text, size, max_width, bold)
    surf = render(text, size, color, bold)
    rect = surf.get_rect(**{anchor: pos})
    surface.blit(surf, rect)
    if clipped is not None:
        if max_width is not None and (rect.w > max_width or size < wanted * SHRINK_LIMIT):
            note_clipped(text, max_width, font(wanted, bold).size(text)[0])
        elif not surface.get_rect().contains(rect):
            note_clipped(text, surface.get_width(), rect.w)
    return rect


def clear_caches() -> None:
    """Forget cached fonts and renders (after pygame.quit/init)."""
    font.cache_clear()
    render.cache_clear()
    fit.cache_clear()
