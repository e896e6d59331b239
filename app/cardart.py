"""Card faces and backs drawn by the project itself with pygame vector primitives.

Every suit symbol is a list of shapes (polygons, circles, ellipses, lines) in a unit box, rendered with
supersampling (drawn large, then ``smoothscale``-d down) at whatever pixel size is asked for, so cards stay
crisp at any window size. No third-party art is used.

Usage::

    art = CardArt("italian40", style="four_colour")
    surface = art.face(card, width=100)        # cached per (card, width)
    back = art.back(100)
    w, h = art.size_for_width(100)             # 2.5 : 3.5 aspect

Deck traditions: French and Portuguese decks use clubs, diamonds, hearts and spades with pip layouts and
double-ended court cards; the Italian deck uses coins (denari), cups (coppe), swords (spade) and batons
(bastoni) with single-ended figures (Fante, Cavallo, Re); the German decks use leaves, hearts, bells and
acorns with Roman-numeral indices and double-ended Unter/Ober/King figures (the Ober shows its suit sign
above the head, the Unter below). ``style="four_colour"`` gives every suit its own colour (French: clubs
green, diamonds blue; Italian and German: four maximally distinct colours), in the symbols and the indices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame

from app import fonts
from engine.cards import DECKS, Deck

RGB = tuple[int, int, int]
Point = tuple[float, float]

STYLES = ("classic", "four_colour")
ASPECT = 3.5 / 2.5
"""Card height / width."""

HIGHLIGHT_KINDS = ("legal", "illegal", "selected", "hover")
MAX_CACHED_WIDTHS = 8
"""Widths whose rendered faces a :class:`CardArt` keeps (the oldest width is dropped first)."""

# ---------------------------------------------------------------------------------------------------------
# Colours

BLACK: RGB = (22, 22, 26)
WHITE: RGB = (255, 255, 255)
PAPER: RGB = (252, 250, 244)
EDGE: RGB = (120, 120, 128)
RED: RGB = (206, 22, 38)
GREEN: RGB = (0, 128, 58)
BLUE: RGB = (18, 82, 200)
GOLD: RGB = (226, 172, 36)
DARK_GOLD: RGB = (150, 104, 14)
ORANGE: RGB = (236, 128, 0)
BROWN: RGB = (132, 78, 30)
DARK_BROWN: RGB = (78, 44, 16)
STEEL: RGB = (178, 196, 222)
DARK_STEEL: RGB = (40, 62, 120)
SKIN: RGB = (250, 222, 186)
LEAF_GREEN: RGB = (46, 140, 52)
DARK_GREEN: RGB = (18, 82, 30)
NAVY: RGB = (28, 46, 110)
PURPLE: RGB = (110, 40, 150)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend of two colours (t=0 gives a, t=1 gives b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _darker(c: RGB, t: float = 0.45) -> RGB:
    return _mix(c, (0, 0, 0), t)


def _lighter(c: RGB, t: float = 0.45) -> RGB:
    return _mix(c, (255, 255, 255), t)


@dataclass(frozen=True)
class SuitLook:
    """How one suit is drawn: which symbol, its main colour (also used for the indices) and accents."""

    symbol: str
    main: RGB
    accent: RGB
    index: RGB


# symbol names per deck family, in the deck's suit order
_FRENCH_SYMBOLS = ("club", "diamond", "heart", "spade")
_ITALIAN_SYMBOLS = ("coin", "cup", "sword", "baton")
_GERMAN_SYMBOLS = ("leaf", "gheart", "bell", "acorn")

_LOOKS: dict[tuple[str, str], SuitLook] = {
    # French / Portuguese
    ("classic", "club"): SuitLook("club", BLACK, BLACK, BLACK),
    ("classic", "diamond"): SuitLook("diamond", RED, RED, RED),
    ("classic", "heart"): SuitLook("heart", RED, RED, RED),
    ("classic", "spade"): SuitLook("spade", BLACK, BLACK, BLACK),
    ("four_colour", "club"): SuitLook("club", GREEN, GREEN, GREEN),
    ("four_colour", "diamond"): SuitLook("diamond", BLUE, BLUE, BLUE),
    ("four_colour", "heart"): SuitLook("heart", RED, RED, RED),
    ("four_colour", "spade"): SuitLook("spade", BLACK, BLACK, BLACK),
    # Italian: traditional multi-colour symbols with black indices; four-colour: flat distinct colours
    ("classic", "coin"): SuitLook("coin", GOLD, RED, BLACK),
    ("classic", "cup"): SuitLook("cup", GOLD, RED, BLACK),
    ("classic", "sword"): SuitLook("sword", STEEL, RED, BLACK),
    ("classic", "baton"): SuitLook("baton", (150, 104, 52), RED, BLACK),
    ("four_colour", "coin"): SuitLook("coin", ORANGE, _darker(ORANGE, 0.3), (214, 110, 0)),
    ("four_colour", "cup"): SuitLook("cup", RED, _darker(RED, 0.3), RED),
    ("four_colour", "sword"): SuitLook("sword", BLUE, _darker(BLUE, 0.3), BLUE),
    ("four_colour", "baton"): SuitLook("baton", GREEN, _darker(GREEN, 0.3), GREEN),
    # German
    ("classic", "leaf"): SuitLook("leaf", LEAF_GREEN, DARK_GREEN, BLACK),
    ("classic", "gheart"): SuitLook("gheart", RED, _darker(RED, 0.35), BLACK),
    ("classic", "bell"): SuitLook("bell", GOLD, RED, BLACK),
    ("classic", "acorn"): SuitLook("acorn", (196, 132, 52), (112, 124, 40), BLACK),
    ("four_colour", "leaf"): SuitLook("leaf", GREEN, DARK_GREEN, GREEN),
    ("four_colour", "gheart"): SuitLook("gheart", RED, _darker(RED, 0.35), RED),
    ("four_colour", "bell"): SuitLook("bell", ORANGE, BLUE, (214, 110, 0)),
    ("four_colour", "acorn"): SuitLook("acorn", (92, 52, 24), (30, 30, 34), (92, 52, 24)),
}


def _family(deck: Deck) -> str:
    if deck.name in ("french52", "portuguese40"):
        return "french"
    if deck.name == "italian40":
        return "italian"
    return "german"


def _symbols(deck: Deck) -> tuple[str, ...]:
    family = _family(deck)
    if family == "french":
        return _FRENCH_SYMBOLS
    if family == "italian":
        return _ITALIAN_SYMBOLS
    return tuple(_GERMAN_SYMBOLS[("L", "H", "B", "A").index(s)] for s in deck.suits)


# ---------------------------------------------------------------------------------------------------------
# Geometry helpers (unit coordinates: x and y in about -1..1, y pointing down)


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 12) -> list[Point]:
    """Points of a cubic Bezier curve from p0 to p3 (p0 included, p3 included)."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _quad(p0: Point, p1: Point, p2: Point, steps: int = 10) -> list[Point]:
    """Points of a quadratic Bezier curve."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        a, b, c = u * u, 2 * u * t, t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def _mirror_x(points: Sequence[Point]) -> list[Point]:
    """The left half of a symmetric outline (given top to bottom on the right side) closed with its mirror."""
    return list(points) + [(-x, y) for x, y in reversed(points)]


def _ellipse_points(cx: float, cy: float, rx: float, ry: float, steps: int = 28, angle: float = 0.0) -> list[Point]:
    ca, sa = math.cos(angle), math.sin(angle)
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return pts


@dataclass(frozen=True)
class Shape:
    """One primitive of a symbol: ``poly`` (points), ``circle`` (cx, cy, r), ``line`` (points, open)."""

    kind: str
    color: RGB
    points: tuple[Point, ...] = ()
    circle: tuple[float, float, float] = (0.0, 0.0, 0.0)
    width: float = 0.0  # 0 = filled; else outline width in unit coordinates


def _poly(color: RGB, pts: Sequence[Point], width: float = 0.0) -> Shape:
    return Shape("poly", color, tuple(pts), width=width)


def _circ(color: RGB, cx: float, cy: float, r: float, width: float = 0.0) -> Shape:
    return Shape("circle", color, circle=(cx, cy, r), width=width)


def _line(color: RGB, pts: Sequence[Point], width: float) -> Shape:
    return Shape("line", color, tuple(pts), width=width)


# ---- French suits -----------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _heart_outline() -> tuple[Point, ...]:
    pts = []
    n = 64
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x / 17.0, (y + 2.5) / 15.0))
    return tuple(pts)


def _french_heart(look: SuitLook) -> list[Shape]:
    return [_poly(look.main, _heart_outline())]


def _french_diamond(look: SuitLook) -> list[Shape]:
    top, right, bottom, left = (0.0, -1.0), (0.74, 0.0), (0.0, 1.0), (-0.74, 0.0)
    pts = (_quad(top, (0.3, -0.36), right)[:-1] + _quad(right, (0.3, 0.36), bottom)[:-1]
           + _quad(bottom, (-0.3, 0.36), left)[:-1] + _quad(left, (-0.3, -0.36), top)[:-1])
    return [_poly(look.main, pts)]


def _stem(look: SuitLook, top_y: float = 0.15) -> Shape:
    right = _quad((0.04, top_y), (0.1, 0.8), (0.42, 1.0))
    return _poly(look.main, [(x, y) for x, y in right] + [(-x, y) for x, y in reversed(right)])


def _french_spade(look: SuitLook) -> list[Shape]:
    heart = [(x * 0.98, -y * 0.98 - 0.16) for x, y in _heart_outline()]
    return [_poly(look.main, heart), _stem(look, 0.3)]


def _french_club(look: SuitLook) -> list[Shape]:
    r = 0.385
    return [
        _circ(look.main, 0.0, -0.54, r),
        _circ(look.main, -0.5, 0.1, r),
        _circ(look.main, 0.5, 0.1, r),
        _poly(look.main, [(-0.3, -0.25), (0.3, -0.25), (0.25, 0.25), (-0.25, 0.25)]),
        _stem(look, 0.1),
    ]


# ---- Italian suits ----------------------------------------------------------------------------------------


def _coin(look: SuitLook) -> list[Shape]:
    dark = _darker(look.main, 0.4)
    light = _lighter(look.main, 0.35)
    shapes = [_circ(dark, 0, 0, 1.0), _circ(look.main, 0, 0, 0.9), _circ(dark, 0, 0, 0.72, width=0.05),
              _circ(light, 0, 0, 0.62)]
    for k in range(8):  # rosette petals
        a = k * math.pi / 4
        shapes.append(_poly(look.accent, _ellipse_points(0.36 * math.cos(a), 0.36 * math.sin(a), 0.22, 0.09,
                                                          steps=14, angle=a)))
    shapes.append(_circ(dark, 0, 0, 0.17))
    shapes.append(_circ(look.main, 0, 0, 0.1))
    return shapes


def _cup(look: SuitLook) -> list[Shape]:
    dark = _darker(look.main, 0.45)
    bowl_side = _bezier((0.78, -0.78), (0.8, -0.2), (0.5, 0.1), (0.1, 0.18), 12)
    bowl = [(x, y) for x, y in bowl_side] + [(-x, y) for x, y in reversed(bowl_side)]
    band = [(0.76, -0.52), (0.68, -0.3), (-0.68, -0.3), (-0.76, -0.52)]
    foot_side = _quad((0.1, 0.66), (0.2, 0.86), (0.6, 0.9))
    foot = [(x, y) for x, y in foot_side] + [(0.6, 1.0)] + [(-0.6, 1.0)] + [(-x, y) for x, y in reversed(foot_side)]
    return [
        _poly(dark, [(x * 1.06, y * 1.03 - 0.01) for x, y in bowl]),
        _poly(look.main, bowl),
        _poly(look.accent, band),
        _poly(dark, _ellipse_points(0, -0.78, 0.8, 0.16)),
        _poly(_lighter(look.main, 0.25), _ellipse_points(0, -0.78, 0.68, 0.1)),
        _poly(look.main, [(0.13, 0.14), (0.1, 0.7), (-0.1, 0.7), (-0.13, 0.14)]),
        _poly(look.accent, _ellipse_points(0, 0.36, 0.22, 0.1)),
        _poly(dark, [(x * 1.08, y + 0.01) for x, y in foot]),
        _poly(look.main, foot),
    ]


def _sword(look: SuitLook) -> list[Shape]:
    dark = DARK_STEEL if look.main == STEEL else _darker(look.main, 0.45)
    blade_main = look.main
    blade = [(0.0, 1.0), (0.12, 0.78), (0.12, -0.42), (-0.12, -0.42), (-0.12, 0.78)]
    guard_side = _quad((0.1, -0.5), (0.36, -0.46), (0.42, -0.62))
    guard = [(x, y) for x, y in guard_side] + [(0.46, -0.52), (0.12, -0.38)]
    guard = guard + [(-x, y) for x, y in reversed(guard)]
    hilt_color = GOLD if look.main == STEEL else _lighter(look.main, 0.3)
    return [
        _poly(dark, [(x * 1.35, y * 1.01) for x, y in blade]),
        _poly(blade_main, blade),
        _line(dark, [(0.0, 0.85), (0.0, -0.4)], 0.04),
        _poly(_darker(hilt_color, 0.4), [(x * 1.1, y) for x, y in guard]),
        _poly(hilt_color, guard),
        _poly(look.accent, [(0.07, -0.5), (0.07, -0.86), (-0.07, -0.86), (-0.07, -0.5)]),
        _circ(_darker(hilt_color, 0.4), 0, -0.9, 0.11),
        _circ(hilt_color, 0, -0.9, 0.08),
    ]


def _baton(look: SuitLook) -> list[Shape]:
    dark = _darker(look.main, 0.55)
    right = (_bezier((0.0, -1.0), (0.2, -1.0), (0.3, -0.9), (0.29, -0.7), 6)
             + _bezier((0.29, -0.7), (0.26, -0.1), (0.2, 0.5), (0.17, 0.86), 8)[1:]
             + _bezier((0.17, 0.86), (0.16, 0.97), (0.08, 1.0), (0.0, 1.0), 4)[1:])
    body = [(x, y) for x, y in right] + [(-x, y) for x, y in reversed(right)][1:]
    shade = [(x * 0.55 + 0.03, y * 0.97) for x, y in right]
    shapes = [_poly(dark, [(x * 1.25, y * 1.02) for x, y in body]), _poly(look.main, body),
              _poly(_darker(look.main, 0.2), shade + [(0.03, 0.95), (0.03, -0.95)])]
    for y, side in ((-0.45, 1), (0.05, -1), (0.5, 1)):  # knots where twigs were cut
        x = 0.17 * side
        shapes.append(_poly(dark, _ellipse_points(x, y, 0.1, 0.06, steps=12, angle=-0.5 * side)))
        shapes.append(_poly(_lighter(look.main, 0.2), _ellipse_points(x, y, 0.05, 0.03, steps=10)))
    for y, half in ((-0.66, 0.29), (0.7, 0.19)):  # binding bands
        shapes.append(_poly(look.accent, [(half, y - 0.06), (half, y + 0.06), (-half, y + 0.06), (-half, y - 0.06)]))
    return shapes


# ---- German suits -----------------------------------------------------------------------------------------


def _leaf(look: SuitLook) -> list[Shape]:
    dark = look.accent
    right = (_bezier((0.0, -1.0), (0.3, -0.62), (0.95, -0.2), (0.82, 0.26), 12)
             + _bezier((0.82, 0.26), (0.74, 0.62), (0.3, 0.64), (0.0, 0.48), 10)[1:])
    outline = [(x, y) for x, y in right] + [(-x, y) for x, y in reversed(right)]
    shapes = [
        _poly(dark, [(0.04, 0.4), (0.1, 1.0), (-0.1, 1.0), (-0.04, 0.4)]),
        _poly(dark, [(x * 1.07, y * 1.04 + 0.01) for x, y in outline]),
        _poly(look.main, outline),
        _line(dark, [(0.0, -0.78), (0.0, 0.46)], 0.06),
    ]
    for y in (-0.4, -0.1, 0.2):
        shapes.append(_line(dark, [(0.0, y + 0.1), (0.36, y - 0.06)], 0.045))
        shapes.append(_line(dark, [(0.0, y + 0.1), (-0.36, y - 0.06)], 0.045))
    return shapes


def _german_heart(look: SuitLook) -> list[Shape]:
    outline = _heart_outline()
    return [
        _poly(look.accent, [(x * 1.05, y * 1.05) for x, y in outline]),
        _poly(look.main, outline),
        _poly(_lighter(look.main, 0.45), _ellipse_points(-0.4, -0.36, 0.17, 0.1, angle=-0.7)),
    ]


def _bell(look: SuitLook) -> list[Shape]:
    dark = _darker(look.main, 0.45)
    return [
        _circ(dark, 0, -0.86, 0.15, width=0.07),
        _circ(dark, 0, 0.06, 0.82),
        _circ(look.main, 0, 0.06, 0.74),
        _poly(look.accent, [(0.74, -0.08), (0.74, 0.14), (-0.74, 0.14), (-0.74, -0.08)]),
        _poly(_lighter(look.main, 0.5), _ellipse_points(-0.3, -0.34, 0.2, 0.11, angle=-0.5)),
        _line(dark, [(0.0, 0.42), (0.0, 0.86)], 0.08),
        _circ(dark, 0, 0.42, 0.12),
        _circ(look.accent, -0.46, -0.44, 0.06),
        _circ(look.accent, 0.46, -0.44, 0.06),
    ]


def _acorn(look: SuitLook) -> list[Shape]:
    dark = _darker(look.main, 0.5)
    cap = look.accent
    nut_side = _bezier((0.52, -0.2), (0.6, 0.35), (0.34, 0.86), (0.0, 1.0), 12)
    nut = [(x, y) for x, y in nut_side] + [(-x, y) for x, y in reversed(nut_side)]
    cap_side = _bezier((0.0, -0.72), (0.5, -0.72), (0.72, -0.4), (0.66, -0.06), 10)
    cap_pts = [(x, y) for x, y in cap_side] + [(-x, y) for x, y in reversed(cap_side)]
    shapes = [
        _poly(dark, [(x * 1.08, y * 1.02) for x, y in nut]),
        _poly(look.main, nut),
        _poly(_lighter(look.main, 0.4), _ellipse_points(-0.2, 0.3, 0.1, 0.26, angle=0.2)),
        _line(_darker(cap, 0.5), [(0.0, -0.7), (0.08, -0.98)], 0.1),
        _poly(_darker(cap, 0.5), [(x * 1.07, y * 1.04) for x, y in cap_pts]),
        _poly(cap, cap_pts),
    ]
    for k in (-0.4, 0.0, 0.4):  # cap hatching
        shapes.append(_line(_darker(cap, 0.45), [(k - 0.2, -0.6), (k + 0.2, -0.12)], 0.04))
        shapes.append(_line(_darker(cap, 0.45), [(k + 0.2, -0.6), (k - 0.2, -0.12)], 0.04))
    return shapes


_SYMBOL_BUILDERS: dict[str, Callable[[SuitLook], list[Shape]]] = {
    "club": _french_club, "diamond": _french_diamond, "heart": _french_heart, "spade": _french_spade,
    "coin": _coin, "cup": _cup, "sword": _sword, "baton": _baton,
    "leaf": _leaf, "gheart": _german_heart, "bell": _bell, "acorn": _acorn,
}

_SYMBOL_ASPECT: dict[str, float] = {
    "club": 1.0, "diamond": 0.78, "heart": 1.0, "spade": 1.0,
    "coin": 1.0, "cup": 0.85, "sword": 0.48, "baton": 0.28,
    "leaf": 0.9, "gheart": 1.0, "bell": 0.86, "acorn": 0.72,
}
"""Symbol width / height, used to size sprites (the unit box is 2*aspect wide and 2 high)."""

_TALL_SYMBOLS = frozenset({"sword", "baton"})


def _draw_shapes(surface: pygame.Surface, shapes: Sequence[Shape], cx: float, cy: float, scale: float,
                 rotation: float = 0.0) -> None:
    """Draw unit-box shapes centred at (cx, cy), ``scale`` pixels per unit, turned ``rotation`` degrees clockwise."""
    a = math.radians(rotation)
    ca, sa = math.cos(a), math.sin(a)

    def tr(p: Point) -> tuple[float, float]:
        return cx + (p[0] * ca - p[1] * sa) * scale, cy + (p[0] * sa + p[1] * ca) * scale

    for s in shapes:
        w = max(1, round(s.width * scale)) if s.width else 0
        if s.kind == "poly":
            pygame.draw.polygon(surface, s.color, [tr(p) for p in s.points], w)
        elif s.kind == "circle":
            x, y = tr((s.circle[0], s.circle[1]))
            pygame.draw.circle(surface, s.color, (x, y), s.circle[2] * scale, w)
        elif s.kind == "line":
            pts = [tr(p) for p in s.points]
            pygame.draw.lines(surface, s.color, False, pts, w)
            r = w / 2
            if r >= 1.5:
                for p in (pts[0], pts[-1]):
                    pygame.draw.circle(surface, s.color, p, r)


@lru_cache(maxsize=4096)
def _symbol_sprite(symbol: str, style: str, height: int, rotation: int = 0) -> pygame.Surface:
    """An anti-aliased sprite of a suit symbol ``height`` pixels long (width from the symbol's aspect),
    turned ``rotation`` degrees clockwise (180 = upside down); the sprite is the rotated bounding box."""
    height = max(2, height)
    look = _LOOKS[(style, symbol)]
    shapes = _SYMBOL_BUILDERS[symbol](look)
    aspect = _SYMBOL_ASPECT[symbol]
    a = math.radians(rotation)
    ca, sa = abs(math.cos(a)), abs(math.sin(a))
    unrot_w, unrot_h = height * aspect, float(height)
    width = max(2, round(unrot_w * ca + unrot_h * sa))
    box_h = max(2, round(unrot_w * sa + unrot_h * ca))
    ss = 4 if max(width, box_h) < 64 else 2
    big = pygame.Surface((width * ss, box_h * ss), pygame.SRCALPHA)
    scale = height * ss / 2.0 * 0.98
    _draw_shapes(big, shapes, width * ss / 2.0, box_h * ss / 2.0, scale, rotation)
    return pygame.transform.smoothscale(big, (width, box_h))


def symbol_sprite(deck_name: str, suit: int, height: int, style: str = "classic") -> pygame.Surface:
    """The suit symbol of ``deck_name``'s suit index ``suit`` as a sprite ``height`` pixels high.

    Useful for the table (e.g. the trump or named-suit indicator). Cached; do not modify the result.
    """
    deck = _deck(deck_name)
    _check_style(style)
    if not 0 <= suit < len(deck.suits):
        raise ValueError(f"suit index {suit} is outside the {deck_name} deck (0..{len(deck.suits) - 1})")
    return _symbol_sprite(_symbols(deck)[suit], style, int(height))


# ---------------------------------------------------------------------------------------------------------
# Pip layouts (x, y in 0..1 of the pip area; the lower half of French/German pips is drawn upside down)

_COL_L, _COL_M, _COL_R = 0.0, 0.5, 1.0
_PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0), (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3), (1.0, 2 / 3), (0.0, 1.0),
        (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3), (1.0, 2 / 3),
         (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}

# Italian swords and batons cross each other as on Italian cards: (x of width, y of height, length of height,
# rotation in degrees) per symbol
_X = 24
_W = 36  # wider angle for the short crossed pairs
_CROSSED: dict[int, tuple[tuple[float, float, float, int], ...]] = {
    1: ((0.5, 0.5, 0.72, 0),),
    2: ((0.5, 0.5, 0.74, _X), (0.5, 0.5, 0.74, -_X)),
    3: ((0.5, 0.5, 0.74, _X), (0.5, 0.5, 0.74, -_X), (0.5, 0.5, 0.78, 0)),
    4: ((0.5, 0.29, 0.4, _X), (0.5, 0.29, 0.4, -_X), (0.5, 0.71, 0.4, _X), (0.5, 0.71, 0.4, -_X)),
    5: ((0.5, 0.21, 0.32, _W), (0.5, 0.21, 0.32, -_W), (0.5, 0.5, 0.3, 0), (0.5, 0.79, 0.32, _W),
        (0.5, 0.79, 0.32, -_W)),
    6: ((0.5, 0.21, 0.32, _W), (0.5, 0.21, 0.32, -_W), (0.5, 0.5, 0.32, _W), (0.5, 0.5, 0.32, -_W),
        (0.5, 0.79, 0.32, _W), (0.5, 0.79, 0.32, -_W)),
    7: ((0.5, 0.21, 0.32, _W), (0.5, 0.21, 0.32, -_W), (0.5, 0.5, 0.32, _W), (0.5, 0.5, 0.32, -_W),
        (0.5, 0.5, 0.32, 0), (0.5, 0.79, 0.32, _W), (0.5, 0.79, 0.32, -_W)),
}


# ---------------------------------------------------------------------------------------------------------
# Ranks


def _rank_value(deck: Deck, rank: int) -> int | None:
    """Number of pips of a number card (Ace = 1), or None for a court card."""
    sym = deck.ranks[rank]
    if sym == "A":
        return 1
    if sym == "T" or sym == "X":
        return 10
    if sym.isdigit():
        return int(sym)
    return None


_ROMAN = {"7": "VII", "8": "VIII", "9": "IX", "X": "X"}


ROMAN_MIN_WIDTH = 64
"""German cards narrower than this show 7 8 9 10 instead of VII VIII IX X, which would be unreadable."""


def _index_text(deck: Deck, rank: int, width: int) -> str:
    sym = deck.ranks[rank]
    if sym in ("T", "X"):
        return "10" if deck.name == "french52" or width < ROMAN_MIN_WIDTH else "X"
    if _family(deck) == "german" and width >= ROMAN_MIN_WIDTH:
        return _ROMAN.get(sym, sym)
    return sym


def _deck(deck_name: str) -> Deck:
    try:
        return DECKS[deck_name]
    except KeyError:
        raise ValueError(f"unknown deck {deck_name!r}; choose one of {', '.join(DECKS)}") from None


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; choose one of {', '.join(STYLES)}")


# ---------------------------------------------------------------------------------------------------------
# Card bodies and backs


def _pixels(value: object) -> int:
    """A pixel count from an int-like number; a clear error for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"card width must be a number of pixels, got {value!r}")
    return int(value)


def size_for_width(width: int) -> tuple[int, int]:
    """Pixel size (width, height) of a card ``width`` pixels wide (aspect 2.5 : 3.5)."""
    width = max(8, int(width))
    return width, round(width * ASPECT)


def _radius(width: int) -> float:
    """Corner radius in pixels (the table's overlays use the same ``max(3, width // 12)``)."""
    return float(max(3, width // 12))


@lru_cache(maxsize=16)
def _blank(width: int, fill: RGB = PAPER, edge: RGB = EDGE) -> pygame.Surface:
    """A rounded card body with a thin edge, anti-aliased by supersampling."""
    w, h = size_for_width(width)
    ss = 4 if w < 120 else 2
    big = pygame.Surface((w * ss, h * ss), pygame.SRCALPHA)
    r = round(_radius(w) * ss)
    pygame.draw.rect(big, edge, big.get_rect(), border_radius=r)
    border = max(1, round(max(1.0, w / 110) * ss))
    pygame.draw.rect(big, fill, big.get_rect().inflate(-2 * border, -2 * border), border_radius=max(1, r - border))
    return pygame.transform.smoothscale(big, (w, h))


@lru_cache(maxsize=16)
def _back(width: int, base: RGB, line: RGB) -> pygame.Surface:
    w, h = size_for_width(width)
    ss = 2 if w >= 60 else 3
    W, H = w * ss, h * ss
    big = pygame.Surface((W, H), pygame.SRCALPHA)
    r = round(_radius(w) * ss)
    pygame.draw.rect(big, EDGE, big.get_rect(), border_radius=r)
    pygame.draw.rect(big, WHITE, big.get_rect().inflate(-2 * ss, -2 * ss), border_radius=max(1, r - ss))
    margin = round(w * 0.07) * ss
    inner = big.get_rect().inflate(-2 * margin, -2 * margin)
    pygame.draw.rect(big, base, inner, border_radius=max(1, round(r * 0.5)))
    pattern = pygame.Surface(inner.size, pygame.SRCALPHA)
    step = max(6, round(w * 0.12)) * ss
    lw = max(1, round(w * 0.012 * ss))
    iw, ih = inner.size
    # diagonal lattice
    for k in range(-(ih // step + 1) * step, iw + ih + step, step):  # lines through x +- y = k, k % step == 0
        pygame.draw.line(pattern, line, (k, 0), (k + ih, ih), lw)
        pygame.draw.line(pattern, line, (k, 0), (k - ih, ih), lw)
    # small diamonds at lattice crossings
    dot = step * 0.16
    for y in range(0, ih + step, step):
        for x in range(0, iw + step, step):
            for ox, oy in ((0, 0), (step / 2, step / 2)):
                px, py = x + ox, y + oy
                pygame.draw.polygon(pattern, line, [(px, py - dot), (px + dot, py), (px, py + dot), (px - dot, py)])
    # central medallion
    cx, cy = iw / 2, ih / 2
    rm = iw * 0.3
    pygame.draw.ellipse(pattern, base, (cx - rm * 1.05, cy - rm * 1.45, rm * 2.1, rm * 2.9))
    pygame.draw.ellipse(pattern, line, (cx - rm, cy - rm * 1.4, rm * 2, rm * 2.8), max(1, lw * 2))
    pygame.draw.ellipse(pattern, line, (cx - rm * 0.78, cy - rm * 1.12, rm * 1.56, rm * 2.24), lw)
    star = []
    for k in range(16):
        a = math.pi * k / 8 - math.pi / 2
        rr = rm * (0.62 if k % 2 == 0 else 0.26)
        star.append((cx + rr * math.cos(a) * 0.9, cy + rr * math.sin(a) * 1.25))
    pygame.draw.polygon(pattern, line, star)
    big.blit(pattern, inner.topleft)
    pygame.draw.rect(big, line, inner, max(1, lw), border_radius=max(1, round(r * 0.5)))
    return pygame.transform.smoothscale(big, (w, h))


# ---------------------------------------------------------------------------------------------------------
# Court figures


@dataclass(frozen=True)
class _FigurePalette:
    robe: RGB
    robe2: RGB
    trim: RGB
    dark: RGB
    tint: RGB


# classic Italian courts wear robes that set off their (multi-coloured) suit signs
_ITALIAN_CLASSIC_ROBES: dict[str, RGB] = {"coin": (52, 84, 168), "cup": (40, 128, 74), "sword": (186, 40, 44),
                                          "baton": (52, 110, 160)}


def _figure_palette(look: SuitLook, family: str, style: str) -> _FigurePalette:
    """Court colours: the suit's colour for the robe, a contrasting second colour, gold trim."""
    robe = look.index if family == "french" else look.main
    if family == "italian" and style == "classic":
        robe = _ITALIAN_CLASSIC_ROBES[look.symbol]
    if robe == BLACK:
        robe = (44, 44, 54)
    if robe == STEEL:
        robe = (92, 124, 186)
    second = NAVY if (robe[0] > 150 and robe[2] < 120) or robe[1] > 110 else RED
    if robe[2] > 150 and robe[0] < 100:
        second = RED
    tint = _lighter(robe, 0.86)
    return _FigurePalette(robe, second, GOLD, BLACK, tint)


class _Pen:
    """Draws in a rectangle's unit coordinates (u across, v down), with outlines of a fixed pixel width."""

    def __init__(self, surf: pygame.Surface, rect: pygame.Rect, dark: RGB) -> None:
        self.surf, self.x0, self.y0, self.w, self.h = surf, rect.x, rect.y, rect.w, rect.h
        self.dark = dark
        self.lw = max(1, round(rect.w * 0.014))

    def p(self, u: float, v: float) -> tuple[float, float]:
        return self.x0 + u * self.w, self.y0 + v * self.h

    def poly(self, color: RGB, pts: Sequence[Point], outline: bool = True) -> None:
        px = [self.p(u, v) for u, v in pts]
        pygame.draw.polygon(self.surf, color, px)
        if outline:
            pygame.draw.polygon(self.surf, self.dark, px, self.lw)

    def sym(self, color: RGB, right: Sequence[Point], outline: bool = True) -> None:
        """A polygon symmetric about u = 0.5 given its right half (top to bottom)."""
        self.poly(color, list(right) + [(1 - u, v) for u, v in reversed(right)], outline)

    def ellipse(self, color: RGB, cu: float, cv: float, ru: float, rv_px_of_w: float, outline: bool = True) -> None:
        """Ellipse centred at (cu, cv), half-width ru (of w), half-height rv (also in units of w)."""
        cx, cy = self.p(cu, cv)
        rect = pygame.Rect(0, 0, max(1, round(2 * ru * self.w)), max(1, round(2 * rv_px_of_w * self.w)))
        rect.center = (round(cx), round(cy))
        pygame.draw.ellipse(self.surf, color, rect)
        if outline:
            pygame.draw.ellipse(self.surf, self.dark, rect, self.lw)

    def circle(self, color: RGB, u: float, v: float, r_of_w: float, outline: bool = False) -> None:
        pygame.draw.circle(self.surf, color, self.p(u, v), max(1.0, r_of_w * self.w))
        if outline:
            pygame.draw.circle(self.surf, self.dark, self.p(u, v), max(1.0, r_of_w * self.w), self.lw)

    def line(self, color: RGB, pts: Sequence[Point], width_of_w: float) -> None:
        pygame.draw.lines(self.surf, color, False, [self.p(u, v) for u, v in pts], max(1, round(width_of_w * self.w)))


_HAIR = {"K": (236, 232, 222), "Q": (214, 150, 44), "J": (120, 70, 30), "U": (120, 70, 30), "O": (70, 44, 24)}


def _draw_person(surf: pygame.Surface, rect: pygame.Rect, kind: str, pal: _FigurePalette,
                 hold: bool = True) -> None:
    """A stylised half-length court figure in ``rect``: head in the upper part, robe down to the bottom edge.

    kind: ``K`` king (crown, beard, sceptre), ``Q`` queen (tiara, long hair, flower), ``J`` jack / Fante
    (beret with feather, halberd), ``U`` Unter and ``O`` Ober (hats; the suit sign is drawn by the caller).
    ``hold`` = False leaves the hands empty (the caller draws a suit sign there).
    """
    pen = _Pen(surf, rect, pal.dark)
    hv = rect.w / rect.h  # converts lengths in units of w to units of h
    head_v, head_r = 0.36, 0.15  # head centre (of h) and radius (of w)
    hair = _HAIR.get(kind, _HAIR["J"])
    sh_v = head_v + head_r * hv * 1.3  # shoulder line
    top = head_v - head_r * hv * 1.1  # top of the head
    # -- long hair behind the shoulders (queen)
    if kind == "Q":
        pen.sym(hair, [(0.5, top - 0.01), (0.68, head_v - 0.05), (0.72, sh_v + 0.12), (0.6, sh_v + 0.16)])
    # -- robe
    robe = [(0.5, sh_v - 0.03), (0.66, sh_v - 0.01), (0.8, sh_v + 0.04), (0.87, sh_v + 0.13), (0.89, 1.0)]
    pen.sym(pal.robe, robe)
    pen.sym(pal.robe2, [(0.5, sh_v + 0.02), (0.57, sh_v + 0.03), (0.6, 1.0)])  # front panel
    for k in range(3):
        pen.circle(pal.trim, 0.5, sh_v + 0.12 + k * 0.1, 0.022, outline=True)
    # -- collar
    if kind in ("K", "Q"):  # ermine
        pen.sym((250, 250, 246), [(0.5, sh_v + 0.08), (0.62, sh_v - 0.02), (0.76, sh_v + 0.02),
                                  (0.6, sh_v + 0.12)])
        for u in (0.37, 0.63, 0.7, 0.3):
            pen.circle(pal.dark, u, sh_v + 0.04, 0.012)
    else:  # pleated ruff
        pen.sym(pal.trim, [(0.5, sh_v + 0.09), (0.6, sh_v - 0.02), (0.72, sh_v + 0.01), (0.58, sh_v + 0.11)])
    # -- sleeves meeting in front, hands
    hand_v = 0.86
    sleeve = [(0.8, sh_v + 0.04), (0.9, sh_v + 0.16), (0.74, hand_v + 0.06), (0.62, hand_v + 0.03),
              (0.64, hand_v - 0.05), (0.74, sh_v + 0.2)]
    pen.poly(pal.robe, sleeve)
    pen.poly(pal.robe, [(1 - u, v) for u, v in sleeve])
    for u0 in (0.66, 0.34):  # cuffs
        pen.line(pal.trim, [(u0 + (0.04 if u0 > 0.5 else -0.04), hand_v - 0.06),
                            (u0 + (0.06 if u0 > 0.5 else -0.06), hand_v + 0.05)], 0.035)
    for u in (0.6, 0.4):
        pen.circle(SKIN, u, hand_v, 0.045, outline=True)
    # -- neck and head
    pen.poly(SKIN, [(0.45, head_v), (0.55, head_v), (0.55, sh_v), (0.45, sh_v)], outline=False)
    if kind in ("J", "U", "O"):  # hair framing the face
        pen.ellipse(hair, 0.5, head_v + 0.01, head_r * 1.12, head_r * 1.1)
    pen.ellipse(SKIN, 0.5, head_v, head_r, head_r * 1.16)
    eye_v = head_v - head_r * hv * 0.15
    for u in (0.5 - head_r * 0.38, 0.5 + head_r * 0.38):
        pen.circle(pal.dark, u, eye_v, 0.016)
        pen.line(pal.dark, [(u - 0.035, eye_v - 0.035), (u + 0.035, eye_v - 0.04)], 0.01)
    pen.line(pal.dark, [(0.505, eye_v + 0.015), (0.49, head_v + head_r * hv * 0.28),
                        (0.51, head_v + head_r * hv * 0.3)], 0.011)
    cheek = _mix(SKIN, RED, 0.22)
    for u in (0.5 - head_r * 0.55, 0.5 + head_r * 0.55):
        pen.circle(cheek, u, head_v + head_r * hv * 0.3, 0.024)
    mouth_v = head_v + head_r * hv * 0.6
    if kind == "K":  # beard and moustache
        pen.sym(hair, [(0.5, mouth_v - 0.02), (0.6, mouth_v - 0.04), (0.66, head_v), (0.64, mouth_v + 0.05),
                       (0.5, head_v + head_r * hv * 1.55)])
        pen.line(_darker(hair, 0.35), [(0.44, mouth_v), (0.56, mouth_v)], 0.018)
    else:
        pen.line((186, 56, 60), [(0.45, mouth_v), (0.5, mouth_v + 0.01), (0.55, mouth_v)], 0.02)
    # -- headwear
    if kind == "K":
        crown = [(0.5, top - 0.1), (0.55, top - 0.03), (0.6, top - 0.11), (0.64, top - 0.03), (0.7, top - 0.13),
                 (0.67, top + 0.04)]
        pen.sym(pal.trim, crown)
        for u in (0.4, 0.5, 0.6):
            pen.circle(pal.robe2, u, top + 0.005, 0.022)
    elif kind == "Q":
        pen.sym(pal.trim, [(0.5, top - 0.1), (0.55, top - 0.03), (0.61, top - 0.07), (0.65, top + 0.04)])
        pen.circle(pal.robe2, 0.5, top - 0.02, 0.028)
    elif kind == "O":  # tall hat with a brim
        pen.sym(pal.robe2, [(0.5, top - 0.16), (0.6, top - 0.15), (0.64, top + 0.02)])
        pen.sym(pal.trim, [(0.5, top - 0.01), (0.72, top - 0.01), (0.72, top + 0.04)])
    else:  # beret with a feather
        pen.ellipse(pal.robe2, 0.5, top + 0.01, 0.22, 0.08)
        pen.circle(pal.trim, 0.5, top + 0.005, 0.022)
        pen.line(_lighter(pal.trim, 0.5) if kind == "U" else pal.trim,
                 [(0.64, top), (0.76, top - 0.08), (0.88, top - 0.05)], 0.032)
    if not hold:
        return
    # -- held attribute
    if kind == "K":  # sceptre
        pen.line(pal.dark, [(0.58, hand_v + 0.12), (0.86, sh_v - 0.1)], 0.045)
        pen.line(pal.trim, [(0.58, hand_v + 0.12), (0.86, sh_v - 0.1)], 0.025)
        pen.circle(pal.trim, 0.87, sh_v - 0.12, 0.045, outline=True)
    elif kind == "Q":  # flower
        pen.line((40, 120, 50), [(0.4, hand_v), (0.24, sh_v + 0.02)], 0.022)
        for du, dv in ((0, -0.05), (0.05, 0), (-0.05, 0), (0, 0.05)):
            pen.circle((214, 60, 110), 0.24 + du, sh_v + dv * hv, 0.035)
        pen.circle(pal.trim, 0.24, sh_v, 0.022)
    elif kind == "J":  # halberd
        pen.line(pal.dark, [(0.6, hand_v + 0.12), (0.88, top)], 0.035)
        pen.poly((214, 218, 230), [(0.86, top - 0.06), (0.96, top - 0.02), (0.97, top + 0.08), (0.85, top + 0.06)])


def _draw_horse(surf: pygame.Surface, rect: pygame.Rect, pal: _FigurePalette) -> None:
    """A horse's head and neck in profile, facing left (the Italian Cavallo's mount)."""
    pen = _Pen(surf, rect, pal.dark)
    coat = (246, 240, 228)
    mane = (150, 92, 40)
    neck = [(0.3, 1.0), (0.36, 0.66), (0.4, 0.46), (0.3, 0.36), (0.14, 0.44), (0.04, 0.4), (0.04, 0.3),
            (0.24, 0.12), (0.36, 0.02), (0.42, 0.0), (0.46, 0.08), (0.62, 0.22), (0.74, 0.56), (0.8, 1.0)]
    pen.poly(coat, neck)
    pen.poly(mane, [(0.44, 0.06), (0.62, 0.22), (0.72, 0.5), (0.66, 0.56), (0.7, 0.42), (0.58, 0.28),
                    (0.5, 0.22), (0.54, 0.16), (0.42, 0.12)])
    pen.poly(coat, [(0.38, 0.04), (0.42, -0.04), (0.46, 0.06)])  # ear
    pen.circle(pal.dark, 0.3, 0.2, 0.03)
    pen.circle(pal.dark, 0.08, 0.36, 0.015)
    pen.line(pal.robe2, [(0.06, 0.34), (0.36, 0.3), (0.44, 0.12)], 0.03)
    pen.line(pal.robe2, [(0.36, 0.3), (0.56, 0.6)], 0.025)
    pen.poly(pal.robe, [(0.32, 0.78), (0.78, 0.72), (0.82, 1.0), (0.3, 1.0)])
    pen.line(pal.trim, [(0.32, 0.84), (0.8, 0.79)], 0.035)


def _court_art(deck: Deck, style: str, suit: int, rank: int, w: int, h: int) -> pygame.Surface:
    """A framed court figure for the whole card (drawn at twice the size, then scaled down)."""
    family = _family(deck)
    symbol = _symbols(deck)[suit]
    look = _LOOKS[(style, symbol)]
    pal = _figure_palette(look, family, style)
    kind = deck.ranks[rank]
    ss = 2
    W, H = w * ss, h * ss
    big = pygame.Surface((W, H), pygame.SRCALPHA)
    frame = pygame.Rect(round(W * 0.2), round(H * 0.07), 0, 0)
    frame.size = (W - 2 * frame.x, H - 2 * frame.y)
    pygame.draw.rect(big, pal.tint, frame)
    lw = max(1, round(W * 0.012))
    if family != "italian":  # double-ended: the top half and its 180-degree copy
        half = pygame.Rect(0, 0, frame.w, frame.h // 2)
        part = pygame.Surface(half.size, pygame.SRCALPHA)
        _draw_person(part, half, kind, pal)
        sh = round(frame.h * (0.13 if family == "french" else 0.15))
        spr = _symbol_sprite(symbol, style, sh)
        pad = round(frame.w * 0.04)
        if kind == "U":  # the Unter's suit sign sits low, the Ober's high
            part.blit(spr, (pad, half.h - sh - pad))
        else:
            part.blit(spr, (pad, pad))
        big.blit(part, frame.topleft)
        big.blit(pygame.transform.rotate(part, 180), (frame.x, frame.y + frame.h - half.h))
        pygame.draw.line(big, pal.dark, (frame.x, frame.centery), (frame.right - 1, frame.centery), lw)
    else:  # single-ended Italian figure holding its suit sign
        if kind == "H":
            horse = pygame.Rect(frame.x, frame.y + round(frame.h * 0.3), frame.w, frame.h - round(frame.h * 0.3))
            _draw_horse(big, horse, pal)
            rider = pygame.Rect(frame.x + round(frame.w * 0.3), frame.y + round(frame.h * 0.01),
                                round(frame.w * 0.66), round(frame.h * 0.5))
            _draw_person(big, rider, "J", pal, hold=False)
            if symbol in _TALL_SYMBOLS:  # the rider holds the sword or baton raised diagonally
                spr = _symbol_sprite(symbol, style, round(frame.h * 0.42), 28)
                big.blit(spr, (frame.x + round(frame.w * 0.72) - spr.get_width() // 2,
                               rider.y + round(rider.h * 0.78) - spr.get_height() // 2))
            else:
                sh = round(frame.h * 0.2)
                spr = _symbol_sprite(symbol, style, sh)
                big.blit(spr, (frame.x + round(frame.w * 0.63) - spr.get_width() // 2,
                               rider.bottom - round(sh * 0.55)))
        else:
            bust = pygame.Rect(frame.x, frame.y, frame.w, round(frame.h * 0.56))
            pen = _Pen(big, frame, pal.dark)
            v0 = 0.5
            pen.poly(pal.robe, [(0.12, v0), (0.88, v0), (0.94, 1.0), (0.06, 1.0)])  # the gown below the bust
            pen.poly(pal.robe2, [(0.44, v0), (0.56, v0), (0.62, 1.0), (0.38, 1.0)])
            pen.line(pal.trim, [(0.08, 0.95), (0.92, 0.95)], 0.04)
            _draw_person(big, bust, "K" if kind == "K" else "J", pal, hold=False)
            if symbol in _TALL_SYMBOLS:  # held across the body
                spr = _symbol_sprite(symbol, style, round(frame.h * 0.54), -30)
                big.blit(spr, (frame.centerx - spr.get_width() // 2, bust.bottom - spr.get_height() // 2))
            else:
                sh = round(frame.h * 0.28)
                spr = _symbol_sprite(symbol, style, sh)
                big.blit(spr, (frame.centerx - spr.get_width() // 2, bust.bottom - round(sh * 0.45)))
    pygame.draw.rect(big, pal.dark, frame, lw)
    pygame.draw.rect(big, pal.trim, frame.inflate(-4 * lw, -4 * lw), lw)
    return pygame.transform.smoothscale(big, (w, h))


# ---------------------------------------------------------------------------------------------------------
# Highlights


def highlight(surface: pygame.Surface, kind: str) -> pygame.Surface:
    """A copy of a card surface marked as ``legal`` (gold rim), ``selected`` (blue rim, for picks),
    ``hover`` (light rim) or ``illegal`` (greyed out)."""
    if kind not in HIGHLIGHT_KINDS:
        raise ValueError(f"unknown highlight {kind!r}; choose one of {', '.join(HIGHLIGHT_KINDS)}")
    out = surface.copy()
    w, h = out.get_size()
    r = round(_radius(w))
    if kind == "illegal":
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(veil, (60, 60, 70, 120), veil.get_rect(), border_radius=r)
        out.blit(veil, (0, 0))
        return out
    color = {"legal": (255, 196, 0), "selected": (30, 120, 255), "hover": (255, 255, 255)}[kind]
    width = max(2, round(w * 0.045))
    pygame.draw.rect(out, color, out.get_rect(), width, border_radius=r)
    return out


# ---------------------------------------------------------------------------------------------------------
# The public renderer


class CardArt:
    """Renders the faces and backs of one deck in one style; every result is cached (do not modify it)."""

    def __init__(self, deck_name: str, style: str = "classic", index_letters: dict[str, str] | None = None,
                 court_values: bool = False) -> None:
        _check_style(style)
        self.index_letters = dict(index_letters or {})
        """Index letter of each court rank symbol in the player's language (e.g. J -> F in Italian)."""
        self.court_values = court_values
        """Court cards show their capture value (the rank's place in the deck: Fante 8, Cavallo 9, Re 10)."""
        self.deck: Deck = _deck(deck_name)
        self.deck_name = deck_name
        self.style = style
        self.family = _family(self.deck)
        self._symbols = _symbols(self.deck)
        # rendered faces per width, oldest width first; at most MAX_CACHED_WIDTHS widths are kept so that
        # resizing the window does not grow memory without bound
        self._faces: dict[int, dict[int | tuple[int, str], pygame.Surface]] = {}

    # -- sizes
    @staticmethod
    def size_for_width(width: int) -> tuple[int, int]:
        """Pixel size (width, height) of a card ``width`` pixels wide (aspect 2.5 : 3.5)."""
        return size_for_width(width)

    # -- backs
    def back(self, width: int) -> pygame.Surface:
        """The card back ``width`` pixels wide (a blue lattice with a medallion; red for Italian decks)."""
        if self.family == "italian":
            return _back(int(width), (150, 30, 36), (236, 200, 120))
        return _back(int(width), (30, 58, 128), (190, 208, 240))

    # -- faces
    def face(self, card: int, width: int) -> pygame.Surface:
        """The face of engine card index ``card``, ``width`` pixels wide; cached per (card, width)."""
        if type(width) is not int:
            width = _pixels(width)
        cache = self._faces.get(width)
        if cache is None:
            cache = self._cache_for(width)
        surf = cache.get(card)
        if surf is None:
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < self.deck.size:
                raise ValueError(f"card index {card!r} is outside the {self.deck_name} deck (0..{self.deck.size - 1})")
            surf = self._render(card, int(width))
            cache[card] = surf
        return surf

    def face_marked(self, card: int, width: int, kind: str) -> pygame.Surface:
        """:func:`highlight` applied to :meth:`face`, cached."""
        if type(width) is not int:
            width = _pixels(width)
        cache = self._faces.get(width)
        if cache is None:
            cache = self._cache_for(width)
        surf = cache.get((card, kind))
        if surf is None:
            surf = highlight(self.face(card, width), kind)
            cache[(card, kind)] = surf
        return surf

    def _cache_for(self, width: int) -> dict[int | tuple[int, str], pygame.Surface]:
        if width < 1:
            raise ValueError(f"card width must be at least 1 pixel, got {width}")
        while len(self._faces) >= MAX_CACHED_WIDTHS:
            del self._faces[next(iter(self._faces))]
        cache: dict[int | tuple[int, str], pygame.Surface] = {}
        self._faces[width] = cache
        return cache

    def highlight(self, surface: pygame.Surface, kind: str) -> pygame.Surface:
        """See the module-level :func:`highlight`."""
        return highlight(surface, kind)

    def suit_symbol(self, suit: int, height: int) -> pygame.Surface:
        """This deck's symbol for suit index ``suit``, ``height`` pixels high (cached)."""
        return symbol_sprite(self.deck_name, suit, height, self.style)

    def clear_cache(self) -> None:
        """Forget rendered faces (e.g. after many window resizes)."""
        self._faces.clear()

    # -- drawing
    def _render(self, card: int, width: int) -> pygame.Surface:
        deck = self.deck
        suit, rank = deck.suit_of(card), deck.rank_of(card)
        w, h = size_for_width(width)
        surf = _blank(w).copy()
        symbol = self._symbols[suit]
        value = _rank_value(deck, rank)
        if value is None:
            surf.blit(_court_art(deck, self.style, suit, rank, w, h), (0, 0))
        elif value == 1:
            self._draw_ace(surf, symbol, w, h)
        else:
            self._draw_pips(surf, symbol, value, w, h)
        text = _index_text(deck, rank, w)
        self._draw_indices(surf, symbol, self.index_letters.get(text, text), w, h, value is None)
        if value is None and self.court_values:
            self._draw_value(surf, rank + 1, w, h)
        return surf

    def _draw_ace(self, surf: pygame.Surface, symbol: str, w: int, h: int) -> None:
        if symbol in _TALL_SYMBOLS:
            self._draw_crossed(surf, symbol, 1, w, h)
            return
        size = round(w * (0.66 if symbol == "spade" else 0.6))
        spr = _symbol_sprite(symbol, self.style, size)
        cy = h // 2 - (round(h * 0.03) if self.family == "german" else 0)
        surf.blit(spr, (w // 2 - spr.get_width() // 2, cy - spr.get_height() // 2))
        if self.family == "german":  # a banner ribbon under the big symbol, as on German aces
            look = _LOOKS[(self.style, symbol)]
            y = cy + spr.get_height() // 2 + max(1, round(h * 0.03))
            band = pygame.Rect(round(w * 0.25), y, round(w * 0.5), max(3, round(h * 0.06)))
            pygame.draw.rect(surf, _lighter(look.main, 0.6), band, border_radius=band.h // 2)
            pygame.draw.rect(surf, look.accent, band, max(1, round(w * 0.012)), border_radius=band.h // 2)
        elif symbol == "spade":  # the traditional ornate Ace of Spades: a ring around the pip
            look = _LOOKS[(self.style, symbol)]
            pygame.draw.circle(surf, look.main, (w / 2, h / 2), w * 0.39, max(1, round(w * 0.012)))

    def _draw_pips(self, surf: pygame.Surface, symbol: str, value: int, w: int, h: int) -> None:
        if symbol in _TALL_SYMBOLS:
            self._draw_crossed(surf, symbol, value, w, h)
            return
        turn_lower_half = self.family == "french"  # Italian and German pips stay upright
        small = min(1.0, max(0.0, (100 - w) / 40))  # small cards have bigger indices: keep pips clear of them
        pip_scale = 1.0 - 0.12 * small
        pip_h = round(w * (0.2 if value <= 8 else 0.185) * pip_scale)
        if self.family != "french":
            pip_h = round(w * (0.26 if value <= 5 else 0.23 if value <= 7 else 0.2) * pip_scale)
        left, right = w * (0.32 + 0.025 * small), w * (0.68 - 0.025 * small)
        top, bottom = h * 0.19, h * 0.81
        for u, v in _PIP_LAYOUTS[value]:
            cx = left + (right - left) * u
            cy = top + (bottom - top) * v
            turn = 180 if turn_lower_half and v > 0.5 + 1e-9 else 0
            spr = _symbol_sprite(symbol, self.style, pip_h, turn)
            surf.blit(spr, (round(cx - spr.get_width() / 2), round(cy - spr.get_height() / 2)))

    def _draw_crossed(self, surf: pygame.Surface, symbol: str, value: int, w: int, h: int) -> None:
        for x, y, length, turn in _CROSSED[value]:
            spr = _symbol_sprite(symbol, self.style, round(h * length), turn)
            surf.blit(spr, (round(w * x - spr.get_width() / 2), round(h * y - spr.get_height() / 2)))

    @staticmethod
    def _draw_value(surf: pygame.Surface, value: int, w: int, h: int) -> None:
        """A court card's capture value in a dark disc at the card's right edge, half way down."""
        size = max(8, round(w * 0.2))
        glyph = fonts.font(size, bold=True).render(str(value), True, PAPER)
        r = max(glyph.get_width(), glyph.get_height()) // 2 + max(2, w // 30)
        centre = (w - r - max(1, w // 25), h // 2)
        pygame.draw.circle(surf, (30, 30, 34), centre, r)
        surf.blit(glyph, glyph.get_rect(center=centre))

    def _draw_indices(self, surf: pygame.Surface, symbol: str, text: str, w: int, h: int, backing: bool) -> None:
        look = _LOOKS[(self.style, symbol)]
        small = min(1.0, max(0.0, (100 - w) / 40))  # 0 at 100 px and wider, 1 at 60 px and narrower
        size = max(7, round(w * (0.2 + 0.05 * small)))
        glyph = fonts.font(size, bold=True).render(text, True, look.index)
        max_w = w * (0.19 + 0.05 * small)
        if glyph.get_width() > max_w:  # condensed for "10", "VIII"
            glyph = pygame.transform.smoothscale(glyph, (max(1, round(max_w)), glyph.get_height()))
        pip_h = w * (0.135 + 0.04 * small) * (1.45 if symbol in _TALL_SYMBOLS else 1.0)
        pip = _symbol_sprite(symbol, self.style, max(5, round(pip_h)))
        cx = w * (0.125 + 0.02 * small)
        top = max(1, round(w * 0.03))
        gx = round(cx - glyph.get_width() / 2)
        gy = top - round(size * 0.1)
        px = round(cx - pip.get_width() / 2)
        py = gy + round(size * 1.0)
        corner = pygame.Surface((w, py + pip.get_height() + 1), pygame.SRCALPHA)
        if backing:  # keep the index readable where it overlaps a court frame
            bw = max(glyph.get_width(), pip.get_width()) + 2
            pygame.draw.rect(corner, PAPER, (round(cx - bw / 2), top, bw, corner.get_height() - top),
                             border_radius=max(1, bw // 5))
        corner.blit(glyph, (gx, gy))
        corner.blit(pip, (px, py))
        surf.blit(corner, (0, 0))
        surf.blit(pygame.transform.rotate(corner, 180), (0, h - corner.get_height()))
