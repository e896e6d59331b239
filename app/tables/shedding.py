"""Pharaoh: the discard pile and its top card, the stock count, the named suit, pending VII/Ace penalties,
opponents' card counts and the finishing places."""

from __future__ import annotations

import pygame

from app.i18n import count_text, t
from app.layout import TableLayout
from app.tables.base import GOLD, MUTED, Label, Scene, Sprite, TableRenderer, View, place_clear


class SheddingRenderer(TableRenderer):
    """Pharaoh table."""
    ordered_moves = True

    def seat_detail(self, view: View, seat: int) -> str:
        """Second line under a seat's name."""
        finished = view.state.finishing_order()
        if seat in finished:
            return t("finished: place {n}", n=finished.index(seat) + 1)
        return count_text(view.counts[seat], "1 card", "{n} cards")

    def own_detail(self, view: View, seat: int) -> str:
        """The bottom player's finishing place once out of cards."""
        finished = view.state.finishing_order()
        return t("finished: place {n}", n=finished.index(seat) + 1) if seat in finished else ""

    def add_centre(self, scene: Scene, view: View, lay: TableLayout) -> None:
        """The centre of the table."""
        state = view.state
        discard = state.discard_pile()
        cw, ch = lay.card_w, lay.card_h
        cx, cy = lay.centre.center
        shown = discard[-4:]
        for i, card in enumerate(shown):
            r = pygame.Rect(0, 0, cw, ch)
            off = (i - len(shown) + 1) * max(6, cw // 7)
            r.center = (cx + cw // 2 + off, cy)
            scene.sprites.append(Sprite(("card", card), r, card, 0, "discard", -1, width=cw))
        count = state.stock_count() or 0
        sx = cx - cw - cw // 2
        for i in range(min(4, count)):
            r = pygame.Rect(0, 0, cw, ch)
            r.center = (sx - i * 2, cy - i * 2)
            scene.sprites.append(Sprite(("stock", i), r, None, 0, "stock", -1, width=cw))
        scene.labels.append(Label(t("Stock: {n}", n=count), (sx, cy + ch // 2 + lay.label_size),
                                  int(lay.label_size * 0.9), MUTED))
        deck = self.game.deck
        suit = state.suit_to_follow()
        top_card = discard[-1] if discard else -1
        y = cy - ch // 2 - int(lay.label_size * 1.1) - 4
        step = max(4, lay.label_size // 2)
        top = lay.table.top + lay.margin
        if suit is not None and top_card >= 0 and deck.suit_of(top_card) != suit:
            placed = place_clear(scene, Label(t("Suit named: {suit}", suit=t(deck.suit_names[suit])), (cx + cw // 2, y),
                                              lay.label_size, GOLD, "center", True, plate=True), step, top)
            y = placed.pos[1] - int(lay.label_size * 1.8)
        pending_draw, pending_skip = state.penalty_pending()
        banner = t("VII pending: draw {n} or play a VII", n=pending_draw) if pending_draw else \
            t("Ace pending: miss a turn or play an Ace") if pending_skip else ""
        if banner:
            place_clear(scene, Label(banner, (cx + cw // 2, y), lay.label_size, (255, 170, 140), "center", True,
                                     plate=True, max_width=lay.centre.w - 2 * lay.margin), step, top)

    def info_lines(self, view: View) -> list[str]:
        """Game information for the sidebar."""
        state = view.state
        deck = self.game.deck
        lines = []
        suit = state.suit_to_follow()
        if suit is not None:
            lines.append(t("Suit to follow: {suit}", suit=t(deck.suit_names[suit])))
        finished = state.finishing_order()
        if finished:
            lines.append(t("Places: {places}", places=", ".join(
                f"{i + 1}. {view.names[s]}" for i, s in enumerate(finished))))
        return lines
