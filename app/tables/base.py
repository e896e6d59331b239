"""The generic table: seats around the table, the viewer's hand at the bottom, opponents' backs.

A renderer never looks at hidden information: it receives a :class:`View` built from the viewer's
observation (``state.observation(seat).state``) and only shows the viewer's own hand face up.
Game renderers override :meth:`TableRenderer.add_centre` and :meth:`TableRenderer.info_lines`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import pygame

from app import text as txt
from app.art import CardArtLike
from app.i18n import count_text, t
from app.layout import TableLayout, fan_positions
from engine.game import GameState

WHITE = (244, 241, 230)
GOLD = (240, 208, 96)
MUTED = (190, 205, 195)


@dataclass
class Sprite:
    """One card on the table. ``card`` None = face down. ``key`` identifies it across frames (animation)."""

    key: tuple[Any, ...]
    rect: pygame.Rect
    card: int | None
    angle: int = 0
    zone: str = ""
    seat: int = -1
    mark: str = ""  # "", "legal", "illegal", "selected", "hint", "focus", "candidate", "picked", "received", ...
    width: int = 0


@dataclass
class Label:
    """A text on the table."""
    text: str
    pos: tuple[int, int]
    size: int
    colour: tuple[int, int, int] = WHITE
    anchor: str = "center"
    bold: bool = False
    plate: bool = False  # draw a rounded background
    highlight: bool = False
    max_width: int | None = None


@dataclass
class Scene:
    """Everything drawn on the table for one view."""
    sprites: list[Sprite] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    spinners: list[tuple[int, int, int]] = field(default_factory=list)  # x, y, radius
    seat_anchors: dict[int, tuple[int, int]] = field(default_factory=dict)
    rects: list[tuple[pygame.Rect, tuple[int, int, int, int]]] = field(default_factory=list)


def label_rect(lab: Label) -> pygame.Rect:
    """The box a label covers on the table, its plate included (as the table screen draws it)."""
    size = txt.fit(lab.text, lab.size, lab.max_width, lab.bold) if lab.max_width else lab.size
    w, h = txt.font(size, lab.bold).size(lab.text)
    rect = pygame.Rect(0, 0, w, h)
    setattr(rect, lab.anchor, lab.pos)
    return rect.inflate(size, size // 2) if lab.plate or lab.highlight else rect


def place_clear(scene: Scene, lab: Label, step: int, limit: int) -> Label:
    """``lab`` moved up by ``step`` pixels at a time (down when ``step`` is negative) until it covers no label
    or card already in ``scene``, not past the height ``limit``, then added to the scene: a banner or marker
    never hides a seat's name plate or cards."""
    taken = [sp.rect for sp in scene.sprites] + [label_rect(other) for other in scene.labels]
    x, y = lab.pos
    while (y - step >= limit if step > 0 else y - step <= limit) \
            and label_rect(replace(lab, pos=(x, y))).collidelist(taken) >= 0:
        y -= step
    if label_rect(replace(lab, pos=(x, y))).collidelist(taken) >= 0:
        y = lab.pos[1]  # nowhere clear above: keep the place next to the pile
    placed = replace(lab, pos=(x, y))
    scene.labels.append(placed)
    return placed



@dataclass
class View:
    """Everything the table may show: the masked state of the viewer plus seat info and UI marks."""

    state: GameState
    viewer: int | None
    bottom: int
    counts: list[int]
    names: list[str]
    current: int
    thinking: int | None = None
    legal_cards: set[int] = field(default_factory=set)
    illegal_cards: set[int] = field(default_factory=set)
    selected: list[int] = field(default_factory=list)
    hint_cards: list[int] = field(default_factory=list)
    focus: int | None = None
    candidates: set[int] = field(default_factory=set)
    picked: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    auto_sort: bool = True
    open_hands: bool = False
    """Show every hand face up (only the replay of a finished game sets this)."""
    human_turn: bool = False
    legal_moves: list[int] = field(default_factory=list)
    stock_count: int | None = None
    received: set[int] = field(default_factory=set)
    received_from: int | None = None
    review_trick: list[tuple[int, int]] | None = None
    review_winner: int | None = None


def hand_counts(obs: Any, n: int) -> list[int]:
    """Cards in each seat's hand from an observation: known cards plus hidden hand slots."""
    state = obs.state
    counts = [len(state.hand_cards(s)) for s in range(n)]
    for slot in obs.slots:
        if slot.name.startswith("hand") and 0 <= slot.owner < n:
            counts[slot.owner] += slot.count
    return counts


def stock_count(obs: Any) -> int | None:
    """Cards in the stock from an observation (visible entries, hidden placeholders and the hidden slot)."""
    return obs.state.stock_count()


class TableRenderer:
    """Seats and hands for any game whose state has ``hands`` (card bitmasks per seat)."""

    clockwise = True
    ordered_moves = False
    autoplay_single = False

    def __init__(self, game: Any, art: CardArtLike) -> None:
        self.game = game
        self.art = art
        self.n = game.num_players
        if "direction" in game.variant:
            self.clockwise = game.variant["direction"] == "clockwise"

    # --- geometry -------------------------------------------------------------------------------
    def seat_angle(self, seat: int, bottom: int) -> float:
        """Screen angle of a seat around the table (90 = bottom)."""
        rel = (seat - bottom) % self.n
        step = 360.0 / self.n
        return 90.0 + step * rel if self.clockwise else 90.0 - step * rel

    def sort_key(self, card: int) -> tuple[int, int]:
        """Sort key of a card in a sorted hand: suit, then strength."""
        deck = self.game.deck
        strength = getattr(self.game, "strength", None)
        rank = strength[card] if strength else deck.rank_of(card)
        return deck.suit_of(card), rank

    def hand_cards(self, view: View, seat: int) -> list[int]:
        """Cards of ``seat``'s hand as the view shows them (sorted when auto-sort is on)."""
        cards = list(view.state.hand_cards(seat))
        if view.auto_sort:
            cards.sort(key=self.sort_key)
        return cards

    # --- scene -----------------------------------------------------------------------------------
    def scene(self, view: View, lay: TableLayout) -> Scene:
        """Sprites and labels for ``view``."""
        scene = Scene()
        self.add_seats(scene, view, lay)
        self.add_centre(scene, view, lay)
        return scene

    def seat_title(self, view: View, seat: int) -> str:
        """Name plate of a seat (with the dealer mark)."""
        text = view.names[seat]
        if view.state.dealer_seat() == seat:
            text += " · " + t("dealer")
        return text

    def seat_detail(self, view: View, seat: int) -> str:
        """Second line under an opponent's name (default: cards in hand)."""
        return count_text(view.counts[seat], "1 card", "{n} cards")

    def own_detail(self, view: View, seat: int) -> str:
        """Words after the bottom seat's name, what its player cannot read from the hand itself (default
        none; the trick games: tricks taken)."""
        return ""

    def add_seats(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """Every seat's hand: the bottom hand face up for the viewer, backs for the others."""
        for seat in range(self.n):
            angle = self.seat_angle(seat, view.bottom)
            if seat == view.bottom:
                self.add_bottom_hand(scene, view, lay)
                continue
            self.add_opponent(scene, view, lay, seat, angle)

    def add_opponent(self, scene: Scene, view: View, lay: TableLayout, seat: int, angle: float) -> None:
        """An opponent's fan of backs, name and detail line."""
        ax, ay = lay.seat_anchor(angle)
        scene.seat_anchors[seat] = (ax, ay)
        count = view.counts[seat]
        shown = min(count, 12)
        side = abs(math.cos(math.radians(angle))) > 0.75
        sw, sh = lay.small_w, lay.small_h
        open_cards = self.hand_cards(view, seat) if view.open_hands else []
        if open_cards and side:
            step, total = fan_positions(len(open_cards), int(lay.centre.h * 1.0), sh, sh * 0.3)
            top = ay - total // 2
            for i, card in enumerate(open_cards):
                r = pygame.Rect(ax - sw // 2, int(top + i * step), sw, sh)
                scene.sprites.append(Sprite(("card", card), r, card, 0, "open", seat, width=sw))
            name_y = top - int(lay.label_size * 2.2) - 4
            if name_y < lay.table.top + lay.label_size:
                name_y = top + total + lay.label_size
            detail_y = name_y + int(lay.label_size * 1.4) + 2
        elif open_cards:
            step, total = fan_positions(len(open_cards), int(lay.table.w * 0.45), sw, sw * 0.5)
            left = ax - total // 2
            for i, card in enumerate(open_cards):
                r = pygame.Rect(int(left + i * step), ay - sh // 2, sw, sh)
                scene.sprites.append(Sprite(("card", card), r, card, 0, "open", seat, width=sw))
            name_y = ay + sh // 2 + int(lay.label_size * 0.9) + 2
            detail_y = name_y + int(lay.label_size * 1.4) + 2
        elif side:
            step, total = fan_positions(shown, int(lay.centre.h * 0.55), sw, sw * 0.28)
            top = ay - total // 2
            for i in range(shown):
                r = pygame.Rect(0, 0, sh, sw)
                r.center = (ax, int(top + sw / 2 + i * step))
                scene.sprites.append(Sprite(("back", seat, i), r, None, 90, "opp", seat, width=sw))
            name_y = top - int(lay.label_size * 2.2) - 4
            if name_y < lay.table.top + lay.label_size:
                name_y = top + total + lay.label_size
            detail_y = name_y + int(lay.label_size * 1.4) + 2
        else:
            step, total = fan_positions(shown, int(lay.table.w * 0.3), sw, sw * 0.3)
            left = ax - total // 2
            for i in range(shown):
                r = pygame.Rect(int(left + i * step), ay - sh // 2, sw, sh)
                scene.sprites.append(Sprite(("back", seat, i), r, None, 0, "opp", seat, width=sw))
            name_y = ay + sh // 2 + int(lay.label_size * 0.9) + 2
            detail_y = name_y + int(lay.label_size * 1.4) + 2
        width_limit = int(lay.table.w * 0.28)
        title, detail = self.seat_title(view, seat), self.seat_detail(view, seat)
        shown_w = min(width_limit, max(txt.font(lay.label_size, True).size(title)[0] + lay.label_size,
                                       txt.font(int(lay.label_size * 0.85)).size(detail)[0]))
        lx = max(lay.table.left + shown_w // 2 + 4, min(lay.table.right - shown_w // 2 - 4, ax))  # inside the table
        scene.labels.append(Label(title, (lx, name_y), lay.label_size, WHITE, "center", True,
                                  plate=True, highlight=seat == view.current, max_width=width_limit))
        scene.labels.append(Label(detail, (lx, detail_y), int(lay.label_size * 0.85), MUTED,
                                  "center", max_width=width_limit))
        if view.thinking == seat:
            scene.spinners.append((ax, ay, max(10, lay.label_size)))

    def add_bottom_hand(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The bottom hand, face up only for the viewer, with play marks."""
        seat = view.bottom
        area = lay.hand
        cw, ch = lay.card_w, lay.card_h
        raise_px = int(ch * 0.16)
        y = area.bottom - lay.margin - ch
        scene.seat_anchors[seat] = (area.centerx, y + ch // 2)
        face_up = view.viewer == seat
        cards = self.hand_cards(view, seat) if face_up else []
        count = len(cards) if face_up else view.counts[seat]
        # side by side with a small gap when the hand fits (a few cards, a big window), overlapped when it does not
        step, total = fan_positions(count, area.w, cw, cw * 1.06 if count * cw * 1.06 <= area.w else cw * 0.8)
        left = area.centerx - total // 2
        for i in range(count):
            r = pygame.Rect(int(left + i * step), y, cw, ch)
            if face_up:
                card = cards[i]
                mark = ""
                if card in view.picked or card in view.selected:
                    mark = "selected"
                    r.y -= raise_px
                elif card in view.hint_cards:
                    mark = "hint"
                    r.y -= raise_px // 2
                elif card == view.focus and view.human_turn and card in view.illegal_cards:
                    mark = "focus_illegal"
                elif card == view.focus:
                    mark = "focus"
                    r.y -= raise_px // 3
                elif view.human_turn and card in view.illegal_cards:
                    mark = "illegal"
                elif view.human_turn and card in view.legal_cards:
                    mark = "legal"
                if card in view.received and mark in ("", "legal", "illegal"):
                    mark = "received" if mark != "illegal" else "received_illegal"  # still marked when dimmed
                scene.sprites.append(Sprite(("card", card), r, card, 0, "hand", seat, mark, cw))
            else:
                scene.sprites.append(Sprite(("back", seat, i), r, None, 0, "hand", seat, width=cw))
        title = self.seat_title(view, seat)
        own = self.own_detail(view, seat)
        if own:
            title += " · " + own
        if not face_up and view.viewer is None:
            title += " · " + count_text(count, "1 card", "{n} cards")
        scene.labels.append(Label(title, (max(area.left + 4, left), area.top + 2), lay.label_size, WHITE, "topleft",
                                  True,
                                  plate=True, highlight=seat == view.current, max_width=area.w // 2))
        if view.thinking == seat:
            scene.spinners.append((area.centerx, y - lay.label_size, max(10, lay.label_size)))

    def add_centre(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """Game-specific centre of the table (default: nothing)."""

    def info_lines(self, view: View) -> list[str]:
        """Game-specific lines for the sidebar (trump, stock, ...)."""
        return []

    def needs_pass_selection(self, view: View) -> bool:
        """Whether the current human must select several cards before confirming (Hearts passing)."""
        return False
