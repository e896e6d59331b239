"""Statistics (from ``saves.records``) and the replay viewer of finished games."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Any

import pygame
import pygame_gui

from app import describe, navigation
from app import text as txt
from app.art import card_art
from app.i18n import t
from app.layout import table_layout
from app.navigation import BACKGROUND, Screen
from app.tables import View, renderer_for
from app.tables.base import GOLD, MUTED, WHITE, hand_counts
from app.widgets import button, line_height
from engine import registry


def _title(game: str) -> str:
    try:
        return t(registry.game_class(game).title)
    except Exception:  # noqa: BLE001
        return game


class StatisticsScreen(Screen):
    """Win statistics per game and the recent games with a Replay button each."""
    name = "statistics"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.stats: dict[str, Any] = {}
        self.games: list[Any] = []
        self.error = ""
        self.widgets: dict[Any, Any] = {}
        try:
            from saves.records import RecordsDB

            with RecordsDB() as db:
                self.stats = db.statistics("game")
                self.overall = db.statistics("all").get("all")
                self.games = db.list_games(limit=12)
        except Exception as e:  # noqa: BLE001
            self.overall = None
            self.error = t("The records could not be read: {error}", error=str(e))

    def geometry(self) -> tuple[int, int, int, int]:
        """(margin, text size, row height, top of the recent-games list) for the current window."""
        w, h = self.app.size
        margin = max(16, w // 40)
        size = max(14, h // 44)
        bh = line_height(self.app.font_size)
        rows = len(self.stats) + (1 if self.overall is not None else 0) or 1
        list_top = margin + int(size * 2.6) + (rows + 1) * (size + 10) + bh
        return margin, size, bh, list_top

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        margin, size, bh, list_top = self.geometry()
        self.widgets = {"back": button(self.ui, pygame.Rect(margin, h - margin - bh, 260, bh), t("Back (Esc)"))}
        y = list_top + size + 12
        bw = max(90, min(160, w // 9))
        for g in self.games:
            if y + bh > h - margin - bh - 10:
                break
            self.widgets[("replay", g.id)] = button(self.ui, pygame.Rect(w - margin - bw, y, bw, int(bh * 0.9)),
                                                    t("Replay"))
            y += bh + 4

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key == "back":
                self.app.pop()
            elif isinstance(key, tuple):
                self.app.push(ReplayScreen(self.app, key[1]))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        margin, size, bh, list_top = self.geometry()
        txt.blit_text(surface, t("Statistics"), (margin, margin), int(size * 1.8), GOLD, True)
        y = margin + int(size * 2.6)
        full = w - 2 * margin
        xs = [margin, margin + int(full * 0.40), margin + int(full * 0.55), margin + int(full * 0.70),
              margin + int(full * 0.85)]
        col = int(full * 0.14)
        heads = [t("Game"), t("Played"), t("Won"), t("Win %"), t("Best streak")]
        for hx, head in zip(xs, heads, strict=True):
            txt.blit_text(surface, head, (hx, y), size, GOLD, True, max_width=col if hx != margin else full // 3)
        y += size + 10
        rows = [(_title(g), s) for g, s in sorted(self.stats.items())]
        if self.overall is not None:
            rows.append((t("All games"), self.overall))
        if not rows:
            txt.blit_text(surface, t("No finished games yet."), (margin, y), size, MUTED)
        for name, s in rows:
            cells = [name, str(s.games), str(s.wins), f"{s.win_pct:.0f}%", str(s.best_streak)]
            for hx, c in zip(xs, cells, strict=True):
                txt.blit_text(surface, c, (hx, y), size, WHITE, max_width=col if hx != margin else full // 3)
            y += size + 10
        y = list_top
        txt.blit_text(surface, t("Recent games"), (margin, y), size, GOLD, True)
        y += size + 12
        for g in self.games:
            if ("replay", g.id) not in self.widgets:
                break
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_at))
            outcome = {1.0: t("won"), 0.5: t("draw"), 0.0: t("lost")}.get(g.human_outcome, "")
            mine = _human_team(g)
            you = t("You").lower()
            totals = " - ".join(f"{v:g} ({you})" if i == mine else f"{v:g}" for i, v in enumerate(g.totals))
            line = "   ·   ".join(x for x in (when, _title(g.game), outcome[:1].upper() + outcome[1:], totals) if x)
            txt.blit_text(surface, line, (margin, y + 4), size, WHITE, max_width=full - 180)
            y += bh + 4
        if self.error:
            txt.blit_text(surface, self.error, (w // 2, h - 2 * margin), size, (255, 160, 140), False, "center",
                          max_width=w - 40)


class ReplayScreen(Screen):
    """Step through a finished game forwards and backwards (arrow keys or the buttons)."""

    name = "replay"

    def __init__(self, app: Any, record_id: int) -> None:
        super().__init__(app)
        from saves.records import RecordsDB, replay

        with RecordsDB() as db:
            self.record = db.load_record(record_id)
        self.steps = list(replay(self.record))
        self.index = 0
        game = registry.create(self.record.game, self.record.variant)
        self.game = game
        self.renderer = renderer_for(game.name)(game, card_art(game.deck.name, app.settings.card_style))
        self.viewer = self.record.human_seat if self.record.human_seat is not None else 0
        self.open_hands = True
        self.widgets: dict[str, Any] = {}

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        lay = table_layout(*self.app.size)
        bh = line_height(self.app.font_size)
        side = lay.sidebar.inflate(-2 * lay.margin, -2 * lay.margin)
        items = [("first", "|<"), ("prev", "<"), ("next", ">"), ("last", ">|")]
        bw = (side.w - 3 * 6) // 4
        y = side.bottom - 3 * bh - 20
        self.widgets = {}
        for i, (key, text) in enumerate(items):
            self.widgets[key] = button(self.ui, pygame.Rect(side.left + i * (bw + 6), y, bw, bh), text)
        self.widgets["open"] = button(self.ui, pygame.Rect(side.left, side.bottom - 2 * bh - 10, side.w, bh),
                                      t("Hide the other hands (A)") if self.open_hands else t("Show all hands (A)"))
        self.widgets["back"] = button(self.ui, pygame.Rect(side.left, side.bottom - bh, side.w, bh), t("Back (Esc)"))

    def toggle_open(self) -> None:
        """Show or hide the other players' hands."""
        self.open_hands = not self.open_hands
        self.app.rebuild()

    def go(self, index: int) -> None:
        """Show replay step ``index`` (clamped)."""
        self.index = max(0, min(len(self.steps) - 1, index))

    def hand_starts(self) -> list[int]:
        """The step index of each hand's deal."""
        return [i for i, step in enumerate(self.steps) if step.move is None]

    def previous_hand(self) -> None:
        """Back to the deal of this hand, or of the hand before when already there."""
        self.go(max((i for i in self.hand_starts() if i < self.index), default=0))

    def next_hand(self) -> None:
        """On to the deal of the next hand (the last hand: its end)."""
        self.go(min((i for i in self.hand_starts() if i > self.index), default=len(self.steps) - 1))

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            moves = {"first": 0, "prev": self.index - 1, "next": self.index + 1, "last": len(self.steps) - 1}
            if key == "back":
                self.app.pop()
            elif key == "open":
                self.toggle_open()
            elif key in moves:
                self.go(moves[key])
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key == pygame.K_LEFT:
                self.go(self.index - 1)
            elif event.key == pygame.K_RIGHT:
                self.go(self.index + 1)
            elif event.key == pygame.K_a:
                self.toggle_open()
            elif event.key == pygame.K_HOME:
                self.go(0)
            elif event.key == pygame.K_END:
                self.go(len(self.steps) - 1)
            elif event.key == pygame.K_PAGEUP:
                self.previous_hand()
            elif event.key == pygame.K_PAGEDOWN:
                self.next_hand()

    def make_view(self) -> View:
        """The table at the current step; right after a move that completed a trick, the whole trick stays in the
        centre (as the table's pause shows it in play) instead of the emptied one."""
        step = self.steps[self.index]
        state = step.state
        obs = state.observation(self.viewer)
        names = [s.label for s in self.record.seats]
        shown = state if self.open_hands else obs.state  # a finished game: nothing is secret any more
        view = View(shown, self.viewer, self.viewer, hand_counts(obs, self.game.num_players), names,
                    state.current_player, auto_sort=self.app.settings.auto_sort, open_hands=self.open_hands)
        completed = self.completed_trick()
        if completed is not None:
            view.review_winner, plays = completed
            view.review_trick = list(plays)
        return view

    def before(self) -> Any:
        """The position before the current step's move (None at a hand's deal)."""
        step = self.steps[self.index]
        return self.steps[self.index - 1].state if step.move is not None and self.index > 0 else None

    def completed_trick(self) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """The trick the current step's move completed (``GameState.last_trick``), else None."""
        before, after = self.before(), self.steps[self.index].state
        if before is None or describe.trick_entry(before.last_trick(), None, after) is None:
            return None
        return after.last_trick()

    def sidebar_lines(self) -> list[str]:
        """The game, the hand, where in the hand the step is, the move as a sentence, who won a completed trick,
        and the score."""
        step = self.steps[self.index]
        names = [s.label for s in self.record.seats]
        moves = len(self.record.moves[step.hand_index]) if step.hand_index < len(self.record.moves) else 0
        lines = [_title(self.record.game), t("Hand {n}", n=step.hand_index + 1),
                 t("Move {n} of {total}", n=step.ply, total=moves) if step.ply else t("Cards dealt")]
        before = self.before()
        if step.move is not None and step.seat is not None:
            lines.append(replay_move_text(before, step.move, names[step.seat], step.notation))
        if before is not None:
            won = describe.trick_entry(before.last_trick(), before.running_points(), step.state)
            if won is not None:
                lines.append(describe.entry_text(won, self.game.deck, names, won.seat))
        teams = self.game.teams()
        lines.append(t("Score: {scores}", scores=" · ".join(
            f"{' & '.join(names[s] for s in teams[i])} {v:g}" if i < len(teams) else f"{v:g}"
            for i, v in enumerate(step.totals))))
        return lines

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill((22, 84, 56))
        lay = table_layout(*surface.get_size())
        pygame.draw.rect(surface, (14, 44, 31), lay.sidebar)
        if not self.steps:
            return
        scene = self.renderer.scene(self.make_view(), lay)
        art = self.renderer.art
        for sp in scene.sprites:
            width = sp.width or sp.rect.w
            surf = art.face(sp.card, width) if sp.card is not None else art.back(width)
            if sp.angle:
                surf = pygame.transform.rotate(surf, sp.angle)
            surface.blit(surf, surf.get_rect(center=sp.rect.center))
        for lab in scene.labels:
            txt.blit_text(surface, lab.text, lab.pos, lab.size, lab.colour, lab.bold, lab.anchor,
                          max_width=lab.max_width)
        x, y = lay.sidebar.left + lay.margin, lay.margin
        size = lay.label_size
        w = lay.sidebar.w - 2 * lay.margin
        y = txt.blit_text(surface, t("Replay"), (x, y), int(size * 1.5), GOLD, True).bottom + 6
        for line in self.sidebar_lines():
            for part in txt.wrap(line, size, w):
                txt.blit_text(surface, part, (x, y), size, WHITE)
                y += size + 6
        small = int(size * 0.85)
        y += 10
        keys = t("Arrow keys step through the game; Page Up and Page Down jump to the previous or next hand.")
        for part in txt.wrap(keys, small, w):
            txt.blit_text(surface, part, (x, y), small, MUTED, max_width=w)
            y += small + 4


def replay_move_text(before: Any, move: int, name: str, notation: str) -> str:
    """A recorded move as a sentence ("Ana plays 7 of Coins and takes 3 of Cups + 4 of Swords"); the notation
    when the position before the move is unknown. A replay shows every hand, so passed cards are named."""
    if before is None:
        return f"{name}: {notation}"
    try:
        entry = describe.log_entry(before, move)
    except Exception:  # noqa: BLE001 - an odd record still shows its notation
        return f"{name}: {notation}"
    names = [name] * max(1, before.num_players)
    return describe.entry_text(entry, before.game.deck, names, entry.seat)


@lru_cache(maxsize=64)
def _team_of_seat(game: str, variant_json: str, seat: int) -> int | None:
    try:
        teams = registry.create(game, json.loads(variant_json)).teams()
    except Exception:  # noqa: BLE001 - a record of a game or variant this version does not know
        return None
    return next((i for i, team in enumerate(teams) if seat in team), None)


def _human_team(g: Any) -> int | None:
    """Which of a recent game's totals is the human player's (None: no human seat, or unknown)."""
    if g.human_seat is None:
        return None
    return _team_of_seat(g.game, json.dumps(g.variant, sort_keys=True), g.human_seat)


navigation.register(StatisticsScreen.name, StatisticsScreen)
navigation.register(ReplayScreen.name, ReplayScreen)
