"""The capture games (registry table kind ``capture``): table cards in the centre, each side's capture pile
with its scope face up."""

from __future__ import annotations

import pygame

from app.i18n import t
from app.layout import TableLayout
from app.tables.base import GOLD, MUTED, Label, Scene, Sprite, TableRenderer, View
from engine.cards import bits


def sweep_cards(state: object) -> list[list[int]]:
    """The played card of each side's scope, reconstructed from the public history."""
    history = getattr(state, "history", [])
    captured = getattr(state, "captured", [0, 0])
    table = getattr(state, "table", 0)
    terminal = state.is_terminal() if hasattr(state, "is_terminal") else False  # type: ignore[attr-defined]
    if terminal:
        taken = 0
        for _, move in history:
            if move >> 6:
                taken |= (move >> 6) | 1 << (move & 63)
        table = (captured[0] | captured[1]) & ~taken
    found: list[list[int]] = [[], []]
    after = table
    for i in range(len(history) - 1, -1, -1):
        seat, move = history[i]
        card, cap = move & 63, move >> 6
        is_last = terminal and i == len(history) - 1
        if cap and after == 0 and not is_last:
            found[seat & 1].append(card)
        after = after | cap if cap else after & ~(1 << card)
    scope = getattr(state, "scope", [0, 0])
    return [list(reversed(found[s]))[-scope[s]:] if scope[s] else [] for s in range(2)]


class CaptureRenderer(TableRenderer):
    """Scopone and Scopa table."""
    clockwise = False
    autoplay_single = True

    def side_name(self, view: View, side: int) -> str:
        """Names of the players of one side."""
        return " & ".join(view.names[s] for s in range(self.n) if s % 2 == side)

    def add_centre(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The centre of the table."""
        state = view.state
        table = bits(getattr(state, "table", 0))
        cw = int(lay.card_w * 0.9)
        ch = int(lay.card_h * 0.9)
        centre = lay.centre
        per_row = max(1, min(len(table), int((centre.w * 0.7) // (cw + 8)))) if table else 1
        rows = (len(table) + per_row - 1) // per_row if table else 0
        total_h = rows * ch + max(0, rows - 1) * 8
        y0 = centre.centery - total_h // 2
        for i, card in enumerate(table):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(table) - row * per_row)
            x0 = centre.centerx - (in_row * (cw + 8) - 8) // 2
            r = pygame.Rect(x0 + col * (cw + 8), y0 + row * (ch + 8), cw, ch)
            mark = "picked" if card in view.chosen else "candidate" if card in view.candidates else ""
            scene.sprites.append(Sprite(("card", card), r, card, 0, "table", -1, mark, cw))
        if not table:
            scene.labels.append(Label(t("The table is empty"), centre.center, lay.label_size, MUTED))
        self.add_piles(scene, view, lay)

    def add_piles(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """Each side's capture pile with its scope face up, and the Scopa stock."""
        state = view.state
        captured = getattr(state, "captured", [0, 0])
        scope = sweep_cards(state)
        sw, sh = int(lay.card_w * 0.6), int(lay.card_h * 0.6)
        centre = lay.centre
        my_side = view.bottom % 2
        spots = {my_side: (centre.right - sw - lay.margin, centre.bottom - sh - lay.label_size),
                 1 - my_side: (centre.left + lay.margin, centre.top + lay.label_size)}
        for side in (0, 1):
            x, y = spots[side]
            count = captured[side].bit_count()
            for i in range(min(4, (count + 5) // 6)):
                r = pygame.Rect(x - i * 2, y - i * 2, sw, sh)
                scene.sprites.append(Sprite(("pile", side, i), r, None, 0, "pile", -1, width=sw))
            for j, card in enumerate(scope[side]):
                r = pygame.Rect(0, 0, sh, sw)
                r.center = (x + sw // 2 + j * (sw // 4), y + sh // 2)
                scene.sprites.append(Sprite(("sweep", card), r, card, 90, "sweep", -1, width=sw))
            text = self.side_name(view, side) + " · " + t("Taken: {n}", n=count)
            if scope[side]:
                text += " · " + t("Scope: {n}", n=len(scope[side]))
            ly = y + sh + lay.label_size // 2 + 4 if side == my_side else y - lay.label_size // 2 - 4
            scene.labels.append(Label(text, (x + sw // 2, ly), int(lay.label_size * 0.85), GOLD, "center",
                                      max_width=int(lay.centre.w * 0.4)))
        stock = getattr(state, "stock", None)
        if stock:
            x, y = centre.left + lay.margin, centre.bottom - sh - lay.label_size
            for i in range(min(3, len(stock))):
                scene.sprites.append(Sprite(("stock", i), pygame.Rect(x - i * 2, y - i * 2, sw, sh), None, 0,
                                            "stock", -1, width=sw))
            scene.labels.append(Label(t("Stock: {n}", n=len(stock)), (x + sw // 2, y + sh + lay.label_size // 2 + 4),
                                      int(lay.label_size * 0.85), MUTED))

    def info_lines(self, view: View) -> list[str]:
        """Game information for the sidebar."""
        state = view.state
        captured = getattr(state, "captured", [0, 0])
        scope = getattr(state, "scope", [0, 0])
        return [f"{self.side_name(view, side)}: " + t("Taken: {n}", n=captured[side].bit_count()) + " · "
                + t("Scope: {n}", n=scope[side]) for side in (0, 1)]
