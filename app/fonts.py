"""The app's shipped fonts (DejaVu Sans, see ``assets/fonts/README.md``), loaded once per size and weight.

Use :func:`font` everywhere instead of ``pygame.font.SysFont`` so text looks the same on every machine and
covers Portuguese, Italian and Slovak diacritics and the card suit symbols.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

from app import resources

FONT_DIR = resources.asset("fonts")
"""The shipped folder holding the TTF files and their licence."""

REGULAR_FILE = "DejaVuSans.ttf"
BOLD_FILE = "DejaVuSans-Bold.ttf"

MIN_SIZE = 4
MAX_SIZE = 512


def font_path(bold: bool = False) -> Path:
    """Path of the regular or bold TTF file."""
    return resources.asset_path("fonts", BOLD_FILE if bold else REGULAR_FILE)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The shipped sans-serif font at ``size`` pixels (clamped to 4..512), cached per (size, bold).

    Initialises ``pygame.font`` on first use. Raises ``FileNotFoundError`` naming the file when the font is
    missing from ``assets/fonts``.
    """
    size = max(MIN_SIZE, min(MAX_SIZE, int(size)))
    return _load(size, bool(bold))


_quit_hook_registered = False


@lru_cache(maxsize=256)
def _load(size: int, bold: bool) -> pygame.font.Font:
    global _quit_hook_registered
    if not _quit_hook_registered:
        # Fonts die with pygame.quit(); forget them so the next call after pygame.init() reloads.
        pygame.register_quit(clear_cache)
        _quit_hook_registered = True
    if not pygame.font.get_init():
        pygame.font.init()
    path = font_path(bold)
    if not path.is_file():
        raise FileNotFoundError(f"font file {path} is missing; see assets/fonts/README.md")
    return pygame.font.Font(str(path), size)


def clear_cache() -> None:
    """Forget every loaded font (runs automatically on ``pygame.quit()``)."""
    global _quit_hook_registered
    _load.cache_clear()
    _quit_hook_registered = False  # pygame drops its quit hooks on quit; register again on next load
