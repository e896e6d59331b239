"""Render contact sheets of every deck and card style to PNG, to look at the card art.

Usage::

    SDL_VIDEODRIVER=dummy .venv/bin/python tools/card_sheet.py OUT_DIR [--widths 60 160] [--deck NAME]

Writes ``OUT_DIR/<deck>_<style>_<width>.png`` (one row per suit plus a row with the back) and prints the
mean first-draw time per face.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from app.cardart import STYLES, CardArt  # noqa: E402
from engine.cards import DECKS  # noqa: E402

FELT = (22, 96, 58)


def sheet(deck_name: str, style: str, width: int) -> tuple[pygame.Surface, float]:
    """A contact sheet of one deck and style; also the mean milliseconds per first face draw."""
    art = CardArt(deck_name, style)
    deck = art.deck
    w, h = art.size_for_width(width)
    gap = max(4, width // 10)
    cols = len(deck.ranks)
    rows = len(deck.suits) + 1
    out = pygame.Surface((gap + cols * (w + gap), gap + rows * (h + gap)))
    out.fill(FELT)
    t0 = time.perf_counter()
    faces = [art.face(c, width) for c in range(deck.size)]
    per_face_ms = (time.perf_counter() - t0) * 1000 / deck.size
    for c, face in enumerate(faces):
        s, r = deck.suit_of(c), deck.rank_of(c)
        out.blit(face, (gap + r * (w + gap), gap + s * (h + gap)))
    y = gap + len(deck.suits) * (h + gap)
    out.blit(art.back(width), (gap, y))
    out.blit(art.face_marked(0, width, "legal"), (gap + (w + gap), y))
    out.blit(art.face_marked(1, width, "illegal"), (gap + 2 * (w + gap), y))
    out.blit(art.face_marked(2, width, "selected"), (gap + 3 * (w + gap), y))
    return out, per_face_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--widths", type=int, nargs="+", default=[60, 160])
    parser.add_argument("--deck", choices=sorted(DECKS), action="append")
    args = parser.parse_args(argv)
    pygame.init()
    args.out.mkdir(parents=True, exist_ok=True)
    for deck_name in args.deck or list(DECKS):
        for style in STYLES:
            for width in args.widths:
                surf, ms = sheet(deck_name, style, width)
                path = args.out / f"{deck_name}_{style}_{width}.png"
                pygame.image.save(surf, str(path))
                print(f"{path}  first draw {ms:.2f} ms/face")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
