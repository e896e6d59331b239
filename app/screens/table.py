"""The table: the game in progress, with the hand, the centre, the sidebar and every play interaction."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from app import describe, navigation
from app import moves as movelib
from app import text as txt
from app.art import card_art
from app.controller import Controller
from app.i18n import t
from app.layout import TableLayout, table_layout
from app.navigation import Screen
from app.study import study_progress_text
from app.tables import Scene, Sprite, View, renderer_for
from app.tables.base import GOLD, MUTED, WHITE, hand_counts, label_rect, stock_count
from app.widgets import button, button_width, line_height
from engine import registry

ANIM_SECONDS = {0: 0.0, 1: 0.45, 2: 0.25, 3: 0.12}
TRICK_PAUSE_MS = {0: 500, 1: 1400, 2: 900, 3: 550}
FELT = (22, 84, 56)
FELT_DARK = (16, 62, 42)
SIDEBAR = (14, 44, 31)
SELECTED = (90, 220, 110)
"""Border of picked cards (Hearts' passing, Scopone's capture choice): unlike the focus and legal marks."""


@dataclass
class Choice:
    """An open decision between several moves that start with the same card (capture sets, sequences)."""

    card: int
    candidates: list[int]
    picked: list[int]
    focus: int = 0
    """The line the keyboard cursor is on (Up/Down or Left/Right move it, Enter plays it)."""


@dataclass
class ChoiceCell:
    """One option of the open choice as drawn on the table: its number, the cards it plays or takes (drawn as
    small cards, so nothing is ever cut) and a short text (a named suit, "lay it on the table")."""

    move: int
    number: int
    cards: tuple[int, ...]
    text: str
    rect: pygame.Rect


@dataclass
class Anim:
    """A card sliding from ``start`` to ``end``."""
    start: pygame.Rect
    end: pygame.Rect
    t0: float
    duration: float


class TableScreen(Screen):
    """The game table: hands, centre, sidebar and every play interaction."""
    name = "table"

    def __init__(self, app: Any, controller: Controller) -> None:
        super().__init__(app)
        self.ctl = controller
        game = controller.match.game
        self.game = game
        self.kind = registry.entry(game.name).table
        """The registry's table kind: 'trick', 'capture' or 'shedding'."""
        settings = app.settings
        values = self.kind == "capture" and bool(settings.extra.get("capture_values", False))
        self.renderer = renderer_for(game.name)(game, card_art(game.deck.name, settings.card_style, values))
        self.ctl.min_delay_ms = settings.ai_min_delay_ms
        self.ctl.trick_pause_ms = TRICK_PAUSE_MS.get(settings.animation_speed, 900)
        study = getattr(app, "study", None)
        self.in_study = study is not None and study.is_study_session(controller.session)
        """A study game: no hints, no undo, and the menu button pauses the study."""
        self.ctl.allow_undo = settings.allow_undo and not self.in_study
        self.ctl.allow_hints = not self.in_study
        self.selected: list[int] = []
        self.choice: Choice | None = None
        self.focus_index = 0
        self.hint_seen: list[int] = []
        self.show_log = False
        """The action log panel is open (L)."""
        self.review = False
        self.hover_text: str | None = None
        self.hover_pos = (0, 0)
        self.anims: dict[tuple[Any, ...], Anim] = {}
        self.prev_rects: dict[tuple[Any, ...], pygame.Rect] = {}
        self.scene: Scene | None = None
        self.scene_cache_key: Any = None
        self.warm_queue: list[tuple[int, int]] = []
        self.prev_sprites: dict[tuple[Any, ...], Sprite] = {}
        self.prev_version = controller.version
        self.ghosts: list[tuple[Sprite, Anim]] = []
        self.prev_pausing = False
        self.scope_before: list[int] | None = None
        self.label_rects: list[pygame.Rect] = []
        """Where the table's labels were drawn in the last frame (tests check they do not overlap)."""
        self.shades: dict[tuple[int, int], pygame.Surface] = {}
        self.view: View | None = None
        self.lay: TableLayout = table_layout(*app.size)
        self.buttons: dict[Any, Any] = {}
        self.actions_top = 10_000
        self.choice_top = 10_000
        self.choice_card_w = 0
        self.signature: Any = None
        self.summary_shown = False
        self.looking_at_end = False
        """After "Look at the table" on the hand summary: stay here until "Show the result"."""
        self.rot_cache: dict[tuple[Any, ...], pygame.Surface] = {}
        controller.listeners.append(self.on_move)
        self.face_up_drawn: set[tuple[int, int]] = set()
        """(seat, card) of every hand card drawn face up (tests check hotseat privacy with it)."""

    def frame_rate(self) -> int:
        """60 fps while cards move, 30 while an AI thinks (spinner), 20 when the table is still."""
        if self.anims or self.ghosts or self.warm_queue:
            return 60
        return 30 if self.ctl.pending is not None or self.ctl.hold_until > self.ctl.clock() else 20

    def changing(self) -> bool:
        """Something on the table moves or is about to change: an animation, a spinner, a pause, a notice that
        will expire, a new move or any other change of the scene."""
        ctl = self.ctl
        now = ctl.clock()
        return bool(self.anims or self.ghosts or self.warm_queue or ctl.pending is not None
                    or ctl.hold_until > now or any(n.until > now for n in ctl.notices)
                    or self.scene_key() != self.scene_cache_key or self.prev_version != ctl.version)

    def on_move(self, when: str, seat: int, move: int) -> None:
        """Controller callback around every applied move: a sound after it (when enabled)."""
        scope = [self.ctl.state.sweeps(side) for side in range(len(self.game.teams()))]
        if when == "before":
            self.scope_before = scope
            return
        if self.scope_before is not None and scope != self.scope_before:
            self.ctl.notify(t("Scopa! ({name})", name=describe.seat_name(self.ctl.seats[seat].label)), seconds=5)
        if when == "after":
            from app import sound

            sound.play("chime" if self.ctl.hand_over else "card", self.app.settings.sound)

    # --- GUI -----------------------------------------------------------------------------------
    def action_signature(self) -> Any:
        """What decides which action buttons exist (a change recreates only those buttons)."""
        ctl = self.ctl
        legal_other: tuple[int, ...] = ()
        human = ctl.human_to_move()
        if human:
            _, other = movelib.group_by_card(ctl.state, ctl.state.legal_moves())
            legal_other = tuple(other)
        pass_mode = self.pass_mode()
        return (self.looking_at_end and ctl.hand_over, ctl.privacy_for, self.choice and tuple(self.choice.candidates),
                pass_mode,
                self.pass_needed() if pass_mode else 0, legal_other)

    def build(self) -> None:
        """Sidebar buttons (kept for the whole screen) and the current action buttons."""
        self.lay = table_layout(*self.app.size)
        lay = self.lay
        self.buttons = {}
        self.action_keys: list[Any] = []
        bh = line_height(self.app.font_size)
        gap = max(4, bh // 6)
        side = lay.sidebar.inflate(-2 * lay.margin, -2 * lay.margin)
        items: list[tuple[str, str]] = [("hint", t("Hint (H)")), ("undo", t("Undo (U)")),
                                        ("review", t("Last trick (T)")), ("log", t("Log (L)")),
                                        ("rules", t("Rules (R)")), ("menu", t("Menu (Esc)"))]
        if self.in_study:  # a participant plays without hints or undo; Esc pauses the study
            items = [("review", t("Last trick (T)")), ("log", t("Log (L)")), ("rules", t("Rules (R)")),
                     ("menu", t("Pause (Esc)"))]
        if self.kind != "trick":  # capture and shedding games have no last trick to show
            items = [item for item in items if item[0] != "review"]
        y = side.bottom - len(items) * (bh + gap)
        for key, label_text in items:
            self.buttons[key] = button(self.ui, pygame.Rect(side.left, y, side.w, bh), label_text)
            y += bh + gap
        self.actions_top = side.bottom - len(items) * (bh + gap)
        self.choice_top = self.actions_top
        self.build_actions()
        self.signature = self.action_signature()
        self.refresh_buttons()
        self.warm_up()

    def warm_up(self) -> None:
        """Queue every card face at the table's main size: a few are rendered per frame (update), so later
        frames do not pay for drawing a face the first time it appears."""
        art = self.renderer.art
        lay = self.lay
        for sp in self.scene.sprites if self.scene is not None else []:
            if sp.card is not None:
                art.face(sp.card, sp.width or lay.card_w)
        art.back(lay.card_w)
        art.back(lay.small_w)
        self.warm_queue = [(c, lay.card_w) for c in range(self.game.deck.size)]

    def build_actions(self) -> None:
        """Buttons that depend on the moment: privacy, confirm a pass, moves without a card, the choice list."""
        for key in getattr(self, "action_keys", []):
            element = self.buttons.pop(key, None)
            if element is not None:
                element.kill()
        before = set(self.buttons)
        self.choice_top = self.actions_top
        lay = self.lay
        ui = self.ui
        ctl = self.ctl
        bh = line_height(self.app.font_size)
        gap = max(4, bh // 6)
        texts = [self.confirm_text(), t("Show the result (Enter)")]
        if ctl.human_to_move():
            texts += [self.move_label(m) for m in movelib.group_by_card(ctl.state, ctl.state.legal_moves())[1][:4]]
        aw = button_width(self.app.font_size, texts, min(int(lay.table.w * 0.3), 360), lay.table.w - 2 * lay.margin)
        ax = lay.table.centerx - aw // 2
        ay = lay.hand.top - bh - lay.margin
        if ctl.hand_over and self.looking_at_end:
            r = pygame.Rect(ax, ay, aw, bh)
            self.buttons["show_summary"] = button(ui, r, t("Show the result (Enter)"), "#primary")
        elif ctl.privacy_for is not None:
            name = describe.seat_name(ctl.seats[ctl.privacy_for].label)
            r = pygame.Rect(0, 0, min(lay.table.w - 40, 520), bh + 10)
            r.center = (lay.table.centerx, lay.table.centery + int(bh * 2.2))
            self.buttons["privacy"] = button(ui, r, t("I am {name}: show my cards", name=name), "#primary")
        elif ctl.human_to_move():
            if self.pass_mode():
                r = pygame.Rect(ax, ay, aw, bh)
                self.buttons["confirm_pass"] = button(ui, r, self.confirm_text(), "#primary")
            _, other = movelib.group_by_card(ctl.state, ctl.state.legal_moves())
            if other and self.choice is None:
                for i, m in enumerate(other[:4]):
                    r = pygame.Rect(ax, ay - i * (bh + gap), aw, bh)
                    self.buttons[("move", m)] = button(ui, r, self.move_label(m), "#primary")
            if self.choice is not None:
                self.build_choice(bh, gap)
        self.action_keys = [k for k in self.buttons if k not in before]

    def confirm_text(self) -> str:
        """Label of the pass-confirm button."""
        return t("Confirm {n}/{need} (Enter)", n=len(self.selected), need=self.pass_needed())

    def refresh_buttons(self) -> None:
        """Enable/disable and relabel the kept buttons without recreating them."""
        ctl = self.ctl
        wanted = {"hint": ctl.allow_hints and ctl.human_to_move() and not ctl.hint_pending(),
                  "undo": ctl.can_undo(),
                  "review": ctl.last_trick is not None}
        if "confirm_pass" in self.buttons:
            wanted["confirm_pass"] = len(self.selected) == self.pass_needed()
            b = self.buttons["confirm_pass"]
            text = self.confirm_text()
            if b.text != text:
                b.set_text(text)
        for key, enabled in wanted.items():
            b = self.buttons.get(key)
            if b is not None and b.is_enabled != enabled:
                b.enable() if enabled else b.disable()
        review = self.buttons.get("review")
        text = t("Back to the table") if self.review else t("Last trick (T)")
        if review is not None and review.text != text:
            review.set_text(text)

    def build_choice(self, bh: int, gap: int) -> None:
        """The Cancel button of the open choice (its options are drawn on the table: :meth:`choice_cells`)."""
        assert self.choice is not None
        lay = self.lay
        side = lay.sidebar.inflate(-2 * lay.margin, -2 * lay.margin)
        y = self.actions_top - bh - gap
        self.buttons["cancel_choice"] = button(self.ui, pygame.Rect(side.left, y, side.w, bh), t("Cancel (Esc)"))
        self.choice_top = y

    def choice_options(self) -> list[tuple[int, tuple[int, ...], str]]:
        """(move, cards to draw, text) of each open option: the cards a capture takes, the cards a sequence
        plays, only the suit when every option plays the same cards (an Ober naming a suit)."""
        assert self.choice is not None
        state = self.ctl.state
        deck = self.game.deck
        moves = self.choice.candidates
        same = len({tuple(movelib.move_cards(state, m)) for m in moves}) == 1
        out = []
        for m in moves:
            cards = tuple(movelib.move_cards(state, m))
            suit = movelib.named_suit(state, m)
            text = "→ " + describe.suit_name(deck, suit) if suit is not None else ""
            if self.kind == "capture":
                out.append((m, cards[1:], "" if len(cards) > 1 else t("lay it on the table")))
            elif same and suit is not None:
                out.append((m, (), text))
            elif cards:
                out.append((m, cards, text))
            else:
                out.append((m, (), self.move_label(m)))
        return out

    def choice_bands(self) -> list[pygame.Rect]:
        """Strips of the table where the choice grid hides nothing: above and below the cards in the centre,
        between the seats' name plates and cards, as wide as the seats at their height leave free."""
        lay = self.lay
        scene = self.scene
        if scene is None:
            return []
        inner = pygame.Rect(lay.table.left + lay.margin, lay.table.top + lay.margin, lay.table.w - 2 * lay.margin,
                            lay.table.h - 2 * lay.margin)
        taken = [sp.rect for sp in scene.sprites] + [label_rect(lab) for lab in scene.labels]
        taken += [b.rect for key, b in self.buttons.items() if b.rect.colliderect(inner) and key != "cancel_choice"]
        column = lay.centre.inflate(-lay.centre.w // 3, 0)
        column.width = max(column.width, 2 * lay.small_w)
        column.centerx = lay.centre.centerx
        edges = sorted((r.top, r.bottom) for r in taken if r.left < column.right and r.right > column.left)
        gaps, y = [], inner.top
        for top, bottom in edges:
            if top > y:
                gaps.append((y, top))
            y = max(y, bottom)
        if inner.bottom > y:
            gaps.append((y, inner.bottom))
        gap = max(2, lay.margin // 2)
        bands = []
        for top, bottom in gaps:
            top, bottom = top + gap, bottom - gap
            if bottom - top < lay.label_size * 2:
                continue
            left, right = inner.left, inner.right
            for r in taken:
                if r.top < bottom and r.bottom > top:
                    if r.right <= column.centerx:
                        left = max(left, r.right + gap)
                    elif r.left >= column.centerx:
                        right = min(right, r.left - gap)
            if right - left >= lay.centre.w // 3:
                bands.append(pygame.Rect(left, top, right - left, bottom - top))
        return bands

    def choice_cells(self) -> list[ChoiceCell]:
        """The open choice laid out as a grid of cells over the top of the table, every option whole: as
        many columns as the options need, small cards shrunk (and fanned) until each cell holds its cards."""
        if self.choice is None:
            return []
        lay = self.lay
        options = self.choice_options()
        n = len(options)
        size = lay.label_size
        pad = max(4, size // 3)
        num_w = txt.font(size, True).size(f"{n}.")[0] + pad
        longest = max((txt.font(size).size(text)[0] for _, _, text in options), default=0)
        most = max((len(cards) for _, cards, _ in options), default=0)

        def fit(band: pygame.Rect) -> tuple[int, int, int, int] | None:
            """(card width, columns, rows, cell width needed) of the best grid in ``band``, None if none fits."""
            best: tuple[int, int, int, int] | None = None
            for cols in range(1, n + 1):
                rows = -(-n // cols)
                cell_w = (band.w - (cols - 1) * pad) // cols
                for card_w in range(lay.small_w, max(12, lay.small_w // 3) - 1, -2):
                    card_h = int(card_w * lay.card_h / max(1, lay.card_w))
                    cell_h = max(card_h, size) + 2 * pad
                    step = card_w if most * card_w + num_w + longest + 3 * pad <= cell_w else int(card_w * 0.5)
                    need = num_w + (step * max(0, most - 1) + card_w if most else 0) \
                        + (longest + pad if longest else 0) + 2 * pad
                    if need <= cell_w and rows * cell_h + (rows - 1) * pad <= band.h:
                        # the biggest cards, then the fewest rows (the grid covers less of the table)
                        if best is None or card_w > best[0] or (card_w == best[0] and rows < best[2]):
                            best = (card_w, cols, rows, need)
                        break
            return best

        best = None
        band = pygame.Rect(0, 0, 0, 0)
        for candidate in self.choice_bands():  # free room that hides no seat's name or cards first
            found = fit(candidate)
            if found is not None and (best is None or found[0] > best[0]):
                best, band = found, candidate
        if best is None:
            # Over the top of the table, down to the cards in the centre (which stay clickable) when that
            # leaves a third of the table or more, else over the centre too.
            centre = [sp.rect.top for sp in (self.scene.sprites if self.scene is not None else [])
                      if sp.zone in ("table", "trick", "discard")]
            free = (min(centre) if centre else lay.centre.centery) - lay.table.top - 2 * lay.margin
            height = max(free, int((lay.hand.top - lay.table.top) * 0.45))
            band = pygame.Rect(lay.table.left + lay.margin, lay.table.top + lay.margin,
                               lay.table.w - 2 * lay.margin, min(height, lay.hand.top - lay.table.top - 2 * lay.margin))
            best = fit(band)
        fallback_cols = min(n, 4)
        card_w, cols, rows, need = best if best is not None else \
            (max(12, lay.small_w // 3), fallback_cols, -(-n // fallback_cols), band.w // fallback_cols)
        card_h = int(card_w * lay.card_h / max(1, lay.card_w))
        cell_h = max(card_h, size) + 2 * pad
        cell_w = min((band.w - (cols - 1) * pad) // cols, max(need, band.w // 4))
        left = band.centerx - (cols * cell_w + (cols - 1) * pad) // 2
        self.choice_card_w = card_w
        cells = []
        for i, (move, cards, text) in enumerate(options):
            r, c = divmod(i, cols)
            rect = pygame.Rect(left + c * (cell_w + pad), band.top + r * (cell_h + pad), cell_w, cell_h)
            cells.append(ChoiceCell(move, i + 1, cards, text, rect))
        return cells

    def draw_choice(self, surface: pygame.Surface) -> None:
        """The open choice's cells: number, small cards, text; the keyboard's line outlined in white."""
        cells = self.choice_cells()
        if not cells or self.choice is None:
            return
        lay = self.lay
        size = lay.label_size
        pad = max(4, size // 3)
        card_w = self.choice_card_w
        for cell in cells:
            focus = cell.number - 1 == self.choice.focus
            pygame.draw.rect(surface, (10, 40, 28), cell.rect, border_radius=8)
            pygame.draw.rect(surface, WHITE if focus else GOLD, cell.rect, width=3 if focus else 1, border_radius=8)
            x = cell.rect.left + pad
            cy = cell.rect.centery
            x = txt.blit_text(surface, f"{cell.number}.", (x, cy), size, GOLD, True, "midleft").right + pad
            if cell.cards:
                room = cell.rect.right - pad - x - (txt.font(size).size(cell.text)[0] + pad if cell.text else 0)
                fanned = max(4, (room - card_w) // max(1, len(cell.cards) - 1))
                step = card_w if len(cell.cards) * card_w <= room else fanned
                for j, card in enumerate(cell.cards):
                    face = self.renderer.art.face(card, card_w)
                    surface.blit(face, face.get_rect(midleft=(x + j * step, cy)))
                x += step * (len(cell.cards) - 1) + card_w + pad
            if cell.text:
                txt.blit_text(surface, cell.text, (x, cy), size, WHITE, False, "midleft",
                              max_width=cell.rect.right - pad - x)

    def choice_at(self, pos: tuple[int, int]) -> int | None:
        """The move of the choice cell under ``pos``, if any."""
        for cell in self.choice_cells():
            if cell.rect.collidepoint(pos):
                return cell.move
        return None

    def card_name(self, card: int) -> str:
        """The card's name in the current language, e.g. "6 of Coins" or "Cavallo di Coppe"."""
        return describe.card_name(self.game.deck, card)

    def move_label(self, move: int) -> str:
        """Readable text of a move for buttons and the choice list."""
        if self.kind == "capture":
            cards = movelib.move_cards(self.ctl.state, move)
            if len(cards) > 1:
                return t("take {cards}", cards=" + ".join(self.card_name(c) for c in cards[1:]))
            return t("lay it on the table")
        if self.kind == "shedding":
            cards = movelib.move_cards(self.ctl.state, move)
            text = " + ".join(self.card_name(c) for c in cards)
            suit = movelib.named_suit(self.ctl.state, move)
            if suit is not None:
                text += " → " + t(self.game.deck.suit_names[suit])
            if text:
                return text
        try:
            code = self.ctl.state.move_text(move)
            text = self.ctl.state.describe_move(move)
        except Exception:  # noqa: BLE001
            code = text = str(move)
        if code == "draw":
            pending = self.ctl.state.penalty_pending()[0]
            return t("Draw {n} cards (D)", n=pending) if pending else t("Draw a card (D)")
        if code in ("skip", "pass"):
            return t("Skip the turn (D)")
        return text

    # --- input ---------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self.on_button(event.ui_element)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.app.ui.get_hovering_any_element():
                return
            self.on_click(event.pos)
        elif event.type == pygame.MOUSEMOTION:
            self.on_hover(event.pos)
        elif event.type == pygame.KEYDOWN:
            self.on_key(event)

    def on_button(self, element: Any) -> None:
        """Run the action of a pressed button."""
        key = next((k for k, b in self.buttons.items() if b is element), None)
        if key is None:
            return
        ctl = self.ctl
        if key == "hint":
            ctl.request_hint()
        elif key == "undo":
            self.clear_selection()
            ctl.undo()
        elif key == "review":
            self.review = not self.review
        elif key == "log":
            self.show_log = not self.show_log
        elif key == "rules":
            self.app.push(navigation.make(self.app, "rules", self.game.name))
        elif key == "menu":
            self.to_menu()
        elif key == "privacy":
            ctl.confirm_privacy()
            self.clear_selection()
        elif key == "show_summary":
            self.show_summary()
        elif key == "confirm_pass":
            self.confirm_pass()
        elif key == "cancel_choice":
            self.choice = None
        elif isinstance(key, tuple) and key[0] in ("move", "pick"):
            self.play(key[1])

    def show_summary(self) -> None:
        """Go back to the hand summary after looking at the table."""
        self.looking_at_end = False
        self.review = False

    def to_menu(self) -> None:
        """Leave the table for the main menu, or in a study for the study's progress screen (the game stays
        autosaved and continues from there)."""
        self.ctl.close()
        if self.in_study:
            self.app.reset_to(navigation.make(self.app, "study_progress", self.app.study))
            return
        self.app.reset_to(navigation.make(self.app, "menu"))

    def clear_selection(self) -> None:
        """Forget selected cards and any open choice."""
        self.selected = []
        self.choice = None

    def play(self, move: int) -> None:
        """Play a human move; an illegal one only shows the reason."""
        reason = self.ctl.play(move)
        if reason is not None:
            cards = movelib.move_cards(self.ctl.state, move)
            shown = describe.reason_text(reason, self.game.deck, cards[0] if cards else None)
            self.ctl.notify(t("Not allowed: {reason}", reason=shown), error=True)
        else:
            self.choice = None
            self.selected = []
            self.review = False

    def sprite_at(self, pos: tuple[int, int]) -> Sprite | None:
        """The topmost card under ``pos``."""
        if self.scene is None:
            return None
        for sp in reversed(self.scene.sprites):
            if sp.rect.collidepoint(pos):
                return sp
        return None

    def on_click(self, pos: tuple[int, int]) -> None:
        """A left click on the table."""
        ctl = self.ctl
        if ctl.privacy_for is not None:
            return
        if self.show_log:
            self.show_log = False
            return
        if self.review:
            self.review = False
            return
        if ctl.hold_until > ctl.clock():
            ctl.skip_pause()
            return
        picked = self.choice_at(pos)
        if picked is not None:
            self.play(picked)
            return
        sp = self.sprite_at(pos)
        if sp is None or sp.card is None:
            return
        if sp.zone == "hand" and sp.seat == ctl.viewer:
            self.click_hand_card(sp.card)
        elif self.choice is not None:
            self.pick_card(sp.card)

    def click_hand_card(self, card: int) -> None:
        """A click on one of the player's cards: play it, select it, or open a choice."""
        ctl = self.ctl
        if not ctl.human_to_move():
            ctl.notify(t("Please wait for your turn."))
            return
        state = ctl.state
        if self.pass_mode():
            if card in self.selected:
                self.selected.remove(card)
            elif len(self.selected) < self.pass_needed():
                self.selected.append(card)
            return
        if self.choice is not None:
            if card == self.choice.card:
                self.choice = None
                return
            if self.renderer.ordered_moves:
                self.pick_card(card)
                return
        by_card, _ = movelib.group_by_card(state, state.legal_moves())
        moves = by_card.get(card)
        if not moves:
            ctl.notify(t("Not allowed: {reason}", reason=self.card_reason(card)), error=True)
            return
        if len(moves) == 1:
            self.play(moves[0])
        else:
            self.choice = Choice(card, moves, [])

    def pick_card(self, card: int) -> None:
        """Filter the open choice by one more clicked card (dipalma2014 A.2)."""
        assert self.choice is not None
        state = self.ctl.state
        picked = [c for c in self.choice.picked if c != card]
        if len(picked) == len(self.choice.picked):
            picked.append(card)
        base = movelib.group_by_card(state, state.legal_moves())[0].get(self.choice.card, [])
        remaining = movelib.filter_moves(state, base, picked, self.renderer.ordered_moves)
        if not remaining:
            self.ctl.notify(t("No choice includes that card."), error=True)
            return
        self.choice.picked = picked
        self.choice.candidates = remaining
        if len(remaining) == 1:
            cards = movelib.move_cards(state, remaining[0])
            if self.renderer.autoplay_single or len(cards) == len(picked) + 1:
                self.play(remaining[0])

    def card_reason(self, card: int) -> str:
        """Why ``card`` cannot be played now, in the player's language."""
        reason, shown = describe.card_reason(self.ctl.state, card)
        return shown if reason else t("this card cannot be played now")

    def on_hover(self, pos: tuple[int, int]) -> None:
        """Show why an illegal card cannot be played while the mouse is over it."""
        self.hover_text = None
        sp = self.sprite_at(pos)
        view = self.view
        if sp is None or view is None or sp.card is None:
            return
        if sp.zone == "hand" and sp.mark in ("illegal", "focus_illegal", "received_illegal"):
            self.hover_text = self.card_reason(sp.card)
            self.hover_pos = pos

    def hand_sprites(self) -> list[Sprite]:
        """The face-up cards of the bottom hand, left to right."""
        if self.scene is None:
            return []
        return [s for s in self.scene.sprites if s.zone == "hand" and s.card is not None]

    def on_key(self, event: pygame.event.Event) -> None:
        """Keyboard play: arrows, Enter, shortcuts."""
        ctl = self.ctl
        key = event.key
        if key == pygame.K_ESCAPE:
            if self.show_log:
                self.show_log = False
            elif self.choice is not None:
                self.choice = None
            elif self.review:
                self.review = False
            else:
                self.to_menu()
            return
        if ctl.privacy_for is not None:
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                ctl.confirm_privacy()
            return
        if ctl.hand_over and self.looking_at_end:
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.show_summary()
            return
        cards = self.hand_sprites()
        enter = key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
        if self.choice is not None and key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = 1 if key in (pygame.K_RIGHT, pygame.K_DOWN) else -1
            self.choice.focus = (self.choice.focus + step) % len(self.choice.candidates)
        elif self.choice is not None and enter:
            self.play(self.choice.candidates[min(self.choice.focus, len(self.choice.candidates) - 1)])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and cards:
            self.move_focus(1 if key == pygame.K_RIGHT else -1)
        elif enter and self.pass_mode() and len(self.selected) == self.pass_needed():
            self.confirm_pass()
        elif enter and cards:
            self.click_hand_card(cards[min(self.focus_index, len(cards) - 1)].card)  # type: ignore[arg-type]
        elif key == pygame.K_l:
            self.show_log = not self.show_log
        elif key == pygame.K_r:
            self.app.push(navigation.make(self.app, "rules", self.game.name))
        elif key == pygame.K_h:
            ctl.request_hint()
        elif key == pygame.K_u or (key == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self.clear_selection()
            ctl.undo()
        elif key == pygame.K_t and ctl.last_trick is not None:
            self.review = not self.review
        elif key == pygame.K_c and self.pass_mode() and len(self.selected) == self.pass_needed():
            self.confirm_pass()
        elif pygame.K_1 <= key <= pygame.K_9 and self.choice is not None:
            i = key - pygame.K_1
            if i < len(self.choice.candidates):
                self.play(self.choice.candidates[i])
        elif key == pygame.K_d:
            _, other = movelib.group_by_card(ctl.state, ctl.state.legal_moves())
            if len(other) == 1 and ctl.human_to_move():
                self.play(other[0])

    def playable_indices(self) -> list[int]:
        """Positions in the hand of the cards the keyboard cursor may rest on: the legal ones (every card
        when none is legal, e.g. while waiting for another seat)."""
        view = self.view
        cards = [sp.card for sp in self.hand_sprites()]
        legal = view.legal_cards if view is not None and view.human_turn else set()
        return [i for i, c in enumerate(cards) if c in legal] or list(range(len(cards)))

    def move_focus(self, step: int) -> None:
        """Move the keyboard cursor to the next playable card (wrapping round)."""
        spots = self.playable_indices()
        if not spots:
            return
        after = [i for i in spots if (i - self.focus_index) * step > 0]
        if after:
            self.focus_index = min(after) if step > 0 else max(after)
        else:
            self.focus_index = spots[0] if step > 0 else spots[-1]

    # --- passing (Hearts, Moss Side Whist discards) --------------------------------------------
    def pass_mode(self) -> bool:
        """Whether the human is choosing cards to pass or discard."""
        ctl = self.ctl
        if not ctl.human_to_move():
            return False
        legal = ctl.state.legal_moves()
        return bool(legal) and all(ctl.state.is_pass_move(m) for m in legal)

    def pass_needed(self) -> int:
        """How many cards the current seat passes/discards in a row."""
        state = self.ctl.state.clone()
        seat = state.current_player
        n = 0
        while n < 20 and state.current_player == seat:
            legal = state.legal_moves()
            if not legal or not all(state.is_pass_move(m) for m in legal):
                break
            state.do(legal[0])
            n += 1
        return max(1, n)

    def confirm_pass(self) -> None:
        """Pass/discard the selected cards."""
        if len(self.selected) != self.pass_needed():
            return
        cards = list(self.selected)
        self.selected = []
        for c in cards:
            move = movelib.pass_move(self.ctl.state, c)
            if move is None:
                self.ctl.notify(t("Not allowed: {reason}", reason=self.card_reason(c)), error=True)
                break
            reason = self.ctl.play(move)
            if reason is not None:
                shown = describe.reason_text(reason, self.game.deck, c)
                self.ctl.notify(t("Not allowed: {reason}", reason=shown), error=True)
                break

    # --- frame ---------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance one frame."""
        ctl = self.ctl
        for _ in range(3):
            if self.warm_queue:
                card, width = self.warm_queue.pop()
                self.renderer.art.face(card, width)
        ctl.update()
        if ctl.hand_over and not self.summary_shown and not self.looking_at_end and ctl.clock() >= ctl.hold_until:
            self.summary_shown = True
            self.app.push(navigation.make(self.app, "summary", ctl, self))
            return
        sig = self.action_signature()
        if sig != self.signature:
            self.signature = sig
            self.build_actions()
        self.refresh_buttons()
        for key in self.action_keys:  # the open log covers the table: its buttons wait under it
            element = self.buttons.get(key)
            if element is not None and bool(element.visible) == self.show_log:
                element.hide() if self.show_log else element.show()

    def scene_key(self) -> Any:
        """Everything the scene depends on; the scene is rebuilt only when this changes."""
        ctl = self.ctl
        choice = self.choice and (self.choice.card, tuple(self.choice.candidates), tuple(self.choice.picked))
        pausing = ctl.last_trick is not None and ctl.clock() < ctl.hold_until
        return (ctl.version, ctl.viewer, ctl.privacy_for, ctl.last_viewer, tuple(self.selected), choice,
                self.focus_index, tuple(ctl.hint_moves), self.review, self.show_log, len(ctl.log), pausing,
                ctl.thinking_seat(), ctl.human_to_move(), self.app.size, self.app.settings.auto_sort)

    def make_view(self) -> View:
        """Build the table view from the viewer's observation (never more than that seat may see)."""
        ctl = self.ctl
        state = ctl.state
        n = self.game.num_players
        viewer = ctl.viewer
        observer = viewer if viewer is not None else 0
        obs = state.observation(observer)
        bottom = ctl.bottom_seat()
        view = View(obs.state, viewer, bottom, hand_counts(obs, n), [describe.seat_name(s.label) for s in ctl.seats],
                    state.current_player, ctl.thinking_seat(), auto_sort=self.app.settings.auto_sort)
        view.stock_count = stock_count(obs)
        if ctl.human_to_move() and viewer is not None:
            legal = state.legal_moves()
            view.legal_moves = legal
            view.human_turn = True
            by_card, _ = movelib.group_by_card(state, legal)
            view.legal_cards = set(by_card)
            hand = obs.state.hand_cards(viewer)
            if hand:
                view.illegal_cards = set(hand) - view.legal_cards
            view.selected = list(self.selected)
            if hand:
                cards = self.renderer.hand_cards(view, viewer)
                if cards:
                    hinted = [c for m in ctl.hint_moves for c in movelib.move_cards(state, m)[:1]]
                    if ctl.hint_moves != self.hint_seen and hinted and hinted[0] in cards:
                        self.focus_index = cards.index(hinted[0])  # H: the cursor goes to the hinted card
                    self.hint_seen = list(ctl.hint_moves)
                    self.focus_index = max(0, min(self.focus_index, len(cards) - 1))
                    playable = [i for i, c in enumerate(cards) if c in view.legal_cards]
                    if playable and self.focus_index not in playable:  # never rest on a card that cannot be played
                        self.focus_index = min(playable, key=lambda i: (abs(i - self.focus_index), i))
                    view.focus = cards[self.focus_index]
            if ctl.hint_moves:
                view.hint_cards = [c for m in ctl.hint_moves for c in movelib.move_cards(state, m)[:1]]
            if self.choice is not None:
                view.picked = [self.choice.card] + ([c for c in self.choice.picked] if self.renderer.ordered_moves
                                                    else [])
                cand: set[int] = set()
                for m in self.choice.candidates:
                    cand.update(movelib.move_cards(state, m)[1:])
                view.candidates = cand
                view.chosen = list(self.choice.picked)
        self.add_received(view, state, obs)
        if self.review and ctl.last_trick is not None:
            view.review_trick = ctl.last_trick.cards
            view.review_winner = ctl.last_trick.winner
        elif ctl.last_trick is not None and ctl.clock() < ctl.hold_until:
            view.review_trick = ctl.last_trick.cards
        return view

    @staticmethod
    def add_received(view: View, state: Any, obs: Any) -> None:
        """Hearts: the cards the viewer received in the pass (``GameState.received_pass``) still in the hand,
        shown until the first trick is complete."""
        viewer = view.viewer
        if viewer is None or state.last_trick() is not None:
            return
        received = state.received_pass(viewer)
        if received is None:
            return
        passer, cards = received
        view.received = set(cards) & set(obs.state.hand_cards(viewer))
        view.received_from = passer

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        if self.lay.width != surface.get_width() or self.lay.height != surface.get_height():
            self.lay = table_layout(*surface.get_size())  # resized while another screen was on top
        lay = self.lay
        surface.fill(FELT)
        pygame.draw.ellipse(surface, FELT_DARK, lay.centre.inflate(lay.card_w, lay.card_h // 2), width=3)
        key = self.scene_key()
        if key != self.scene_cache_key or self.scene is None or self.view is None:
            self.view = self.make_view()
            self.scene = self.renderer.scene(self.view, lay)
            self.scene_cache_key = key
        view, scene = self.view, self.scene
        for rect, colour in scene.rects:
            pygame.draw.rect(surface, colour, rect, border_radius=8)
        now = time.monotonic()
        self.draw_sprites(surface, scene, now)
        self.label_rects = []
        for lab in scene.labels:
            self.draw_label(surface, lab)
        for x, y, r in scene.spinners:
            self.draw_spinner(surface, x, y, r, now)
        self.draw_sidebar(surface, view)
        self.draw_choice(surface)
        if self.show_log:
            self.draw_log(surface)
        if self.hover_text:
            self.draw_tooltip(surface, self.hover_text, self.hover_pos)
        if self.ctl.privacy_for is not None:
            self.draw_privacy(surface)
        caption = self.review_caption()
        if caption:
            self.draw_review_caption(surface, scene, caption)

    def log_lines(self) -> list[tuple[str, bool]]:
        """The hand's action log as sentences in the current language, oldest first, each with whether it
        ends a trick."""
        ctl = self.ctl
        names = [describe.seat_name(s.label) for s in ctl.seats]
        viewer = ctl.viewer if ctl.viewer is not None else ctl.last_viewer
        return [(describe.entry_text(e, self.game.deck, names, viewer), e.kind == "trick") for e in ctl.log]

    def draw_log(self, surface: pygame.Surface) -> None:
        """The action log over the table: the newest lines that fit, the newest at the bottom."""
        lay = self.lay
        area = lay.table.inflate(-2 * lay.margin, -2 * lay.margin)
        shade = pygame.Surface(area.size, pygame.SRCALPHA)
        shade.fill((6, 26, 16, 238))
        surface.blit(shade, area.topleft)
        pygame.draw.rect(surface, GOLD, area, width=1, border_radius=8)
        size = lay.label_size
        pad = lay.margin
        width = area.w - 2 * pad
        y = txt.blit_text(surface, t("Action log of this hand"), (area.left + pad, area.top + pad), int(size * 1.2),
                          GOLD, True, max_width=width).bottom + 2
        y = txt.blit_text(surface, t("L, Esc or a click closes it"), (area.left + pad, y), int(size * 0.85), MUTED,
                          max_width=width).bottom + pad
        wrapped: list[tuple[str, bool]] = []
        for line, trick in self.log_lines() or [(t("Nothing has been played yet."), False)]:
            wrapped += [(part, trick) for part in txt.wrap(line, size, width)]
        room = max(1, (area.bottom - pad - y) // (size + 5))
        for part, trick in wrapped[-room:]:
            txt.blit_text(surface, part, (area.left + pad, y), size, GOLD if trick else WHITE, trick,
                          max_width=width)
            y += size + 5

    def review_caption(self) -> str:
        """While the last trick is shown: who won it and how to go back (else "")."""
        last = self.ctl.last_trick
        if not self.review or last is None:
            return ""
        name = describe.seat_name(self.ctl.seats[last.winner].label)
        return t("Last trick, won by {name} - click or press T to return", name=name)

    def draw_review_caption(self, surface: pygame.Surface, scene: Scene, text: str) -> None:
        """The last-trick caption on a dark plate, just above the trick's cards where there is room (below
        them otherwise, and nowhere if neither fits), so that it never covers a card; the sidebar's status
        line always says it too."""
        lay = self.lay
        size = txt.fit(text, lay.label_size, lay.centre.w - 2 * lay.label_size, True)
        surf = txt.render(text, size, GOLD, True)
        plate = surf.get_rect().inflate(size, size // 2)
        trick = [sp.rect for sp in scene.sprites if sp.zone == "trick"]
        cards = trick[0].unionall(trick[1:]) if trick else pygame.Rect(lay.centre.centerx, lay.centre.top, 0, 0)
        gap = size // 2
        if cards.top - gap - plate.h >= lay.centre.top:
            plate.midbottom = (lay.centre.centerx, cards.top - gap)
        elif cards.bottom + gap + plate.h <= lay.centre.bottom:
            plate.midtop = (lay.centre.centerx, cards.bottom + gap)
        else:
            return  # no room on the table (wide windows): the sidebar's status line says it
        pygame.draw.rect(surface, (10, 40, 28), plate, border_radius=plate.h // 2)
        surface.blit(surf, surf.get_rect(center=plate.center))

    def draw_sprites(self, surface: pygame.Surface, scene: Scene, now: float) -> None:
        """Draw the cards: moved ones slide from their previous place, new ones from the seat that played
        them, and cards that left the table (a won trick, a capture) fly to the winner's or capturer's seat."""
        speed = ANIM_SECONDS.get(self.app.settings.animation_speed, 0.25)
        new_rects: dict[tuple[Any, ...], pygame.Rect] = {}
        faces = self.face_up_drawn
        movers = self.ctl.movers
        last_mover = movers[-1] if movers else None
        pausing = self.ctl.last_trick is not None and self.ctl.clock() < self.ctl.hold_until
        trick_cleared = self.prev_pausing and not pausing and not self.review
        changed = self.ctl.version != self.prev_version
        self.prev_pausing = pausing
        for sp in scene.sprites:
            final = sp.rect
            new_rects[sp.key] = final.copy()
            rect = final
            if speed > 0:
                old = self.prev_rects.get(sp.key)
                origin = sp.seat if sp.seat in scene.seat_anchors else last_mover
                if old is None and changed and sp.card is not None and sp.zone in ("trick", "table", "discard") \
                        and self.prev_rects and origin in scene.seat_anchors:
                    old = final.copy()
                    old.center = scene.seat_anchors[origin]
                anim = self.anims.get(sp.key)
                if anim is not None and anim.end != final:
                    anim = None
                if anim is None and old is not None and old.topleft != final.topleft:
                    anim = Anim(old, final.copy(), now, speed)
                    self.anims[sp.key] = anim
                if anim is not None:
                    f = (now - anim.t0) / anim.duration
                    if f >= 1:
                        del self.anims[sp.key]
                    else:
                        rect = self.lerp(anim, f)
            self.draw_card(surface, sp, rect)
            if sp.zone == "hand" and sp.card is not None:
                faces.add((sp.seat, sp.card))
        if speed > 0 and (changed or trick_cleared):
            self.add_ghosts(scene, new_rects, now, speed * 1.4)
        self.ghosts = [(sp, anim) for sp, anim in self.ghosts if now - anim.t0 < anim.duration]
        for sp, anim in self.ghosts:
            self.draw_card(surface, sp, self.lerp(anim, (now - anim.t0) / anim.duration))
        self.prev_rects = new_rects
        self.prev_sprites = {sp.key: sp for sp in scene.sprites
                             if sp.card is not None and sp.zone in ("trick", "table", "discard")}
        self.prev_version = self.ctl.version

    @staticmethod
    def lerp(anim: Anim, f: float) -> pygame.Rect:
        """The rectangle of an animation at fraction ``f`` (ease-out)."""
        f = 1 - (1 - min(1.0, max(0.0, f))) ** 3
        return pygame.Rect(int(anim.start.x + (anim.end.x - anim.start.x) * f),
                           int(anim.start.y + (anim.end.y - anim.start.y) * f), anim.start.w, anim.start.h)

    def add_ghosts(self, scene: Scene, current: dict[tuple[Any, ...], pygame.Rect], now: float,
                   duration: float) -> None:
        """Cards that just left the table fly to the seat that took them."""
        last = self.ctl.last_trick
        movers = self.ctl.movers
        for key, sp in self.prev_sprites.items():
            if key in current:
                continue
            if last is not None and any(card == sp.card for _, card in last.cards):
                dest_seat: int | None = last.winner
            else:
                dest_seat = movers[-1] if movers else None
            if dest_seat not in scene.seat_anchors:
                continue
            end = sp.rect.copy()
            end.center = scene.seat_anchors[dest_seat]
            self.ghosts.append((sp, Anim(sp.rect.copy(), end, now, duration)))

    def card_surface(self, sp: Sprite) -> pygame.Surface:
        """The (possibly rotated) image of a sprite."""
        art = self.renderer.art
        width = sp.width or (sp.rect.w if sp.angle % 180 == 0 else sp.rect.h)
        base = art.face(sp.card, width) if sp.card is not None else art.back(width)
        if sp.angle % 360 == 0:
            return base
        key = (sp.card, width, sp.angle)
        surf = self.rot_cache.get(key)
        if surf is None:
            surf = pygame.transform.rotate(base, sp.angle)
            self.rot_cache[key] = surf
        return surf

    def draw_card(self, surface: pygame.Surface, sp: Sprite, rect: pygame.Rect) -> None:
        """Draw one card with its mark (legal, illegal, selected, hint, ...)."""
        surf = self.card_surface(sp)
        pos = surf.get_rect(center=rect.center)
        if sp.zone in ("hand", "trick", "table") and sp.card is not None:
            shadow = pos.move(2, 3)
            pygame.draw.rect(surface, (8, 40, 26), shadow, border_radius=max(3, pos.w // 12))
        surface.blit(surf, pos)
        radius = max(3, pos.w // 12)
        if sp.mark in ("illegal", "focus_illegal", "received_illegal"):
            shade = self.shades.get(pos.size)
            if shade is None:
                shade = pygame.Surface(pos.size, pygame.SRCALPHA)
                pygame.draw.rect(shade, (0, 0, 0, 120), shade.get_rect(), border_radius=radius)
                self.shades[pos.size] = shade
            surface.blit(shade, pos)
            if sp.mark == "focus_illegal":
                pygame.draw.rect(surface, (255, 255, 255), pos.inflate(4, 4), width=3, border_radius=radius)
            if sp.mark == "received_illegal":
                self.draw_received(surface, pos, radius)
        elif sp.mark in ("legal",):
            pygame.draw.rect(surface, GOLD, pos.inflate(2, 2), width=2, border_radius=radius)
        elif sp.mark in ("selected", "picked"):  # green, unlike the white keyboard focus and the gold legal cards
            pygame.draw.rect(surface, SELECTED, pos.inflate(6, 6), width=5, border_radius=radius)
        elif sp.mark == "hint":
            pygame.draw.rect(surface, (80, 220, 255), pos.inflate(6, 6), width=5, border_radius=radius)
        elif sp.mark == "focus":
            pygame.draw.rect(surface, (255, 255, 255), pos.inflate(4, 4), width=3, border_radius=radius)
        elif sp.mark == "received":
            self.draw_received(surface, pos, radius)
        elif sp.mark == "candidate":
            pygame.draw.rect(surface, (80, 220, 255), pos.inflate(4, 4), width=3, border_radius=radius)

    @staticmethod
    def draw_received(surface: pygame.Surface, pos: pygame.Rect, radius: int) -> None:
        """The mark of a card received in the pass: a blue edge and a "new" tag."""
        pygame.draw.rect(surface, (80, 220, 255), pos.inflate(4, 4), width=3, border_radius=radius)
        tag = txt.render(t("new"), max(10, pos.w // 7), (10, 30, 40), True)
        tag_rect = tag.get_rect(bottomleft=(pos.left + 5, pos.bottom - 4))  # the corner index stays readable
        pygame.draw.rect(surface, (80, 220, 255), tag_rect.inflate(8, 2), border_radius=4)
        surface.blit(tag, tag_rect)

    def draw_label(self, surface: pygame.Surface, lab: Any) -> None:
        """Draw one label, kept inside the table."""
        size = txt.fit(lab.text, lab.size, lab.max_width, lab.bold) if lab.max_width else lab.size
        surf = txt.render(lab.text, size, (20, 20, 20) if lab.highlight else lab.colour, lab.bold)
        rect = surf.get_rect(**{lab.anchor: lab.pos})
        rect.clamp_ip(self.lay.table.inflate(-size, -4))
        self.label_rects.append(rect.inflate(size, size // 2) if lab.plate or lab.highlight else rect.copy())
        if lab.plate or lab.highlight:
            plate = rect.inflate(size, size // 2)
            colour = GOLD if lab.highlight else (10, 40, 28)
            pygame.draw.rect(surface, colour, plate, border_radius=plate.h // 2)
        surface.blit(surf, rect)

    def draw_spinner(self, surface: pygame.Surface, x: int, y: int, r: int, now: float) -> None:
        """The thinking indicator."""
        a = now * 6.0
        for i in range(8):
            ang = a + i * math.pi / 4
            shade = 90 + int(165 * i / 7)
            px, py = x + math.cos(ang) * r, y + math.sin(ang) * r
            pygame.draw.circle(surface, (shade, shade, min(255, shade + 20)), (int(px), int(py)), max(2, r // 4))

    def draw_tooltip(self, surface: pygame.Surface, text: str, pos: tuple[int, int]) -> None:
        """A small box with ``text`` near the mouse."""
        size = self.lay.label_size
        lines = txt.wrap(text, size, 360)
        w = max(txt.font(size).size(line)[0] for line in lines) + 16
        h = len(lines) * (size + 6) + 10
        r = pygame.Rect(pos[0] + 14, pos[1] - h - 8, w, h)
        r.clamp_ip(surface.get_rect())
        pygame.draw.rect(surface, (30, 30, 30), r, border_radius=6)
        pygame.draw.rect(surface, GOLD, r, width=1, border_radius=6)
        for i, line in enumerate(lines):
            txt.blit_text(surface, line, (r.left + 8, r.top + 5 + i * (size + 6)), size, WHITE)

    def draw_privacy(self, surface: pygame.Surface) -> None:
        """Cover the table while the device is passed to the next player."""
        lay = self.lay
        shade = pygame.Surface(lay.table.size, pygame.SRCALPHA)
        shade.fill((5, 20, 12, 235))
        surface.blit(shade, lay.table.topleft)
        privacy = self.ctl.privacy_for
        name = describe.seat_name(self.ctl.seats[privacy].label) if privacy is not None else ""
        txt.blit_text(surface, t("Pass the device to {name}", name=name),
                      (lay.table.centerx, lay.table.centery - lay.label_size * 2), int(lay.label_size * 1.8), GOLD,
                      True, "center", max_width=lay.table.w - 40)
        txt.blit_text(surface, t("Everyone else, please look away."), (lay.table.centerx, lay.table.centery),
                      lay.label_size, WHITE, False, "center", max_width=lay.table.w - 40)

    def draw_sidebar(self, surface: pygame.Surface, view: View) -> None:
        """Game, scores, game info, status, notices and the key help."""
        lay = self.lay
        ctl = self.ctl
        side = lay.sidebar
        pygame.draw.rect(surface, SIDEBAR, side)
        pygame.draw.line(surface, GOLD, side.topleft, side.bottomleft, 2)
        x = side.left + lay.margin
        w = side.w - 2 * lay.margin
        y = side.top + lay.margin
        size = lay.label_size
        y = txt.blit_text(surface, t(self.game.title), (x, y), int(size * 1.5), GOLD, True,
                          max_width=w).bottom + 4
        match = ctl.match
        hand_line = t("Hand {n}", n=match.hand_index + 1)
        target = self.game.match_target()
        if target:
            hand_line += " · " + t("match to {n}", n=int(target) if float(target).is_integer() else target)
        y = txt.blit_text(surface, hand_line, (x, y), size, MUTED, max_width=w).bottom + 8
        if self.in_study:
            y = txt.blit_text(surface, study_progress_text(self.app, ctl.session), (x, y), size, GOLD, True,
                              max_width=w).bottom + 8
        for team, total in zip(self.game.teams(), match.totals, strict=False):
            names = " & ".join(describe.seat_name(ctl.seats[s].label) for s in team)
            value = f"{total:g}"
            vr = txt.blit_text(surface, value, (x + w, y), size, WHITE, True, "topright")
            room = w - vr.w - 8
            lines = [names] if txt.fit(names, size, room) >= size * 0.85 else txt.wrap(names, size, room)[:3]
            for line in lines:  # long (study) names wrap instead of shrinking to an unreadable size
                txt.blit_text(surface, line, (x, y), size, WHITE, max_width=room)
                y += size + 4
            y += 4
        y += 4
        for line in self.renderer.info_lines(view):
            for part in txt.wrap(line, size, w):
                txt.blit_text(surface, part, (x, y), size, WHITE)
                y += size + 5
        y += 6
        status = self.status_text()
        for part in txt.wrap(status, size, w, bold=True):
            txt.blit_text(surface, part, (x, y), size, GOLD, True)
            y += size + 5
        last = self.log_lines()[-1:]
        for part in txt.wrap(last[0][0], int(size * 0.9), w)[:2] if last else []:
            txt.blit_text(surface, part, (x, y), int(size * 0.9), MUTED)
            y += int(size * 0.9) + 4
        y += 6
        for notice in ctl.notices[-3:]:
            colour = (255, 150, 130) if notice.error else WHITE
            for part in txt.wrap(notice.text, int(size * 0.9), w):
                if y > min(self.actions_top, self.choice_top) - 3 * size:
                    break
                txt.blit_text(surface, part, (x, y), int(size * 0.9), colour)
                y += int(size * 0.9) + 4
        keys = t("Keys: arrows and Enter play, 1-9 pick a line, F11 full screen")
        help_lines = txt.wrap(keys, int(size * 0.8), w)
        hy = min(self.actions_top, self.choice_top) - len(help_lines) * (int(size * 0.8) + 3) - lay.margin
        if hy > y:
            for part in help_lines:
                txt.blit_text(surface, part, (x, hy), int(size * 0.8), MUTED)
                hy += int(size * 0.8) + 3

    def status_text(self) -> str:
        """Whose turn it is and what they should do (while the last trick is shown: how to go back)."""
        ctl = self.ctl
        caption = self.review_caption()
        if caption:
            return caption
        if ctl.hand_over:
            return t("The hand is over.")
        seat = ctl.current
        name = describe.seat_name(ctl.seats[seat].label)
        if ctl.privacy_for is not None:
            return t("Waiting for {name}", name=name)
        if ctl.human_to_move():
            if self.pass_mode():
                word = ctl.state.pass_word()
                if word == "discard":
                    return t("{name}: choose {n} cards to discard", name=name, n=self.pass_needed())
                return t("{name}: choose {n} cards to pass", name=name, n=self.pass_needed())
            if self.choice is not None:
                if self.kind == "capture":
                    return t("{name}: choose what to take (click table cards or a line)", name=name)
                return t("{name}: choose how to play it", name=name)
            if ctl.hint_pending():
                return t("Thinking about a hint...")
            if name == t("You"):
                return t("Your turn")
            return t("Your turn, {name}", name=name)
        if ctl.thinking_seat() is not None:
            return t("{name} is thinking...", name=name)
        away = ctl.waiting_seat()
        if away is not None:  # a network player who dropped: the table waits for them
            return t("Waiting for {name} to reconnect...", name=ctl.seat_name(away))
        return t("{name} to play", name=name)

    def leave(self) -> None:
        """Clean up when the screen leaves the stack."""
        if self.on_move in self.ctl.listeners:
            self.ctl.listeners.remove(self.on_move)
        self.ctl.close()


navigation.register(TableScreen.name, TableScreen)
