"""The post-game survey (``saves.survey``): per-game questions, then one page per AI opponent."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from app import i18n
from app import text as txt
from app.i18n import t
from app.main import BACKGROUND, Screen
from app.tables.base import GOLD, MUTED, WHITE
from app.widgets import button, entry, line_height


class SurveyScreen(Screen):
    """The questionnaire after a game, one page per opponent plus the per-game page."""
    name = "survey"

    def __init__(self, app: Any, session: Any, record_id: int | None, then: str = "menu") -> None:
        super().__init__(app)
        from saves.survey import default_questionnaire

        self.session = session
        self.record_id = record_id
        self.then = then
        self.q = default_questionnaire()
        teams = session.match.game.teams()
        self.targets = self.q.targets(session.seats, None, teams)
        # Pages: (target or None, items)
        self.pages: list[tuple[Any, list[Any]]] = []
        per_game = [i for i in self.q.items if i.scope == "per_game"]
        per_opp = [i for i in self.q.items if i.scope != "per_game"]
        for target in self.targets:
            if per_opp:
                self.pages.append((target, per_opp))
        if per_game:
            self.pages.append((None, per_game))
        self.page = 0
        self.answers: dict[str, Any] = {}
        self.widgets: dict[Any, Any] = {}
        self.rows: list[tuple[str, int]] = []
        self.error = ""

    def value(self, item: Any, target: Any) -> Any:
        """The answer given so far to ``item`` (about ``target``)."""
        v = self.answers.get(item.id)
        if target is None:
            return v
        return (v or {}).get(target.seat)

    def set_value(self, item: Any, target: Any, value: Any) -> None:
        """Record an answer to ``item`` (about ``target``)."""
        if target is None:
            self.answers[item.id] = value
        else:
            self.answers.setdefault(item.id, {})[target.seat] = value

    def build(self) -> None:
        """Create this screen's GUI elements for the current window size."""
        w, h = self.app.size
        bh = line_height(self.app.font_size)
        margin = max(16, w // 40)
        self.widgets = {}
        self.rows = []
        if not self.pages:
            return
        target, items = self.pages[self.page]
        lang = i18n.language()
        y = margin + int(bh * 2.2)
        box_w = min(w - 2 * margin, 1100)
        x = (w - box_w) // 2
        for item in items:
            prompt = item.prompt(lang, target.label if target else "")
            self.rows.append((prompt, y))
            y += int(bh * 1.1)
            if item.type == "likert":
                bw = min(70, (box_w - 2 * 180) // item.scale)
                left = x + 180
                for p in range(1, item.scale + 1):
                    chosen = self.value(item, target) == p
                    self.widgets[("likert", item.id, p)] = button(
                        self.ui, pygame.Rect(left + (p - 1) * (bw + 4), y, bw, bh), str(p),
                        "#primary" if chosen else None)
                self.rows.append((item.label(1, lang), -y - 1))
                self.rows.append(("R" + item.label(item.scale, lang), -(left + item.scale * (bw + 4)) * 10000 - y))
            elif item.type == "text":
                self.widgets[("text", item.id)] = entry(self.ui, pygame.Rect(x, y, box_w, bh),
                                                        str(self.value(item, target) or ""))
            y += bh + max(10, bh // 2)
        by = h - margin - bh
        bw = max(200, min(320, w // 5))
        last = self.page == len(self.pages) - 1
        self.widgets["next"] = button(self.ui, pygame.Rect(w - margin - bw, by, bw, bh),
                                      t("Send") if last else t("Next"), "#primary")
        self.widgets["skip"] = button(self.ui, pygame.Rect(margin, by, bw, bh), t("Skip the survey"))

    def handle(self, event: pygame.event.Event) -> None:
        """React to one pygame or pygame-gui event."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if key == "next":
                self.next_page()
            elif key == "skip":
                self.finish(save=False)
            elif isinstance(key, tuple) and key[0] == "likert":
                target, items = self.pages[self.page]
                item = next(i for i in items if i.id == key[1])
                self.set_value(item, target, key[2])
                self.app.rebuild()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            key = next((k for k, wdg in self.widgets.items() if wdg is event.ui_element), None)
            if isinstance(key, tuple) and key[0] == "text":
                target, items = self.pages[self.page]
                item = next(i for i in items if i.id == key[1])
                self.set_value(item, target, event.ui_element.get_text())

    def next_page(self) -> None:
        """Check the page is complete, then show the next page or send the answers."""
        target, items = self.pages[self.page]
        missing = [i for i in items if i.required and self.value(i, target) in (None, "")]
        if missing:
            self.error = t("Please answer every question (or skip the survey).")
            return
        self.error = ""
        if self.page < len(self.pages) - 1:
            self.page += 1
            self.app.rebuild()
        else:
            self.finish(save=True)

    def finish(self, save: bool) -> None:
        """Store the answers (when ``save``) and leave the survey."""
        if save and self.record_id is not None:
            try:
                from saves.survey import save_answers

                save_answers(self.record_id, self.answers, self.q, i18n.language())
            except Exception as e:  # noqa: BLE001
                self.error = t("The answers could not be saved: {error}", error=str(e))
                return
        from app.screens.summary import go_next

        go_next(self.app, self.then, self.session)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen (GUI elements are drawn afterwards by the manager)."""
        surface.fill(BACKGROUND)
        w, h = surface.get_size()
        size = max(15, h // 42)
        margin = max(16, w // 40)
        title = self.q.title.get(i18n.language()) or self.q.title.get("en", "") if isinstance(self.q.title, dict) \
            else str(self.q.title)
        txt.blit_text(surface, title or t("Survey"), (w // 2, margin), int(size * 1.6), GOLD, True, "midtop")
        page = t("Page {n} of {total}", n=self.page + 1, total=max(1, len(self.pages)))
        txt.blit_text(surface, page, (w // 2, margin + int(size * 2.3)), int(size * 0.85), MUTED, False, "midtop")
        box_w = min(w - 2 * margin, 1100)
        x = (w - box_w) // 2
        for text, y in self.rows:
            if y >= 0:
                txt.blit_text(surface, text, (x, y), size, WHITE, True, max_width=box_w)
            elif text.startswith("R"):
                code = -y
                txt.blit_text(surface, text[1:], (code // 10000 + 8, code % 10000 + 6), int(size * 0.85), MUTED,
                              max_width=170)
            else:
                txt.blit_text(surface, text, (x, -y - 1 + 6), int(size * 0.85), MUTED, max_width=170)
        if self.error:
            txt.blit_text(surface, self.error, (w // 2, h - margin - line_height(self.app.font_size) - size * 2),
                          size, (255, 160, 140), False, "center", max_width=w - 40)
