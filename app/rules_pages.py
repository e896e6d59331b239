"""Rule pages of every game in every language (``assets/rules/<lang>/<game>.md``) and a tiny markdown parser.

The pages use a small markdown subset: ``#`` and ``##`` headings, paragraphs (consecutive lines are joined),
``-`` bullet lists (a line indented under a bullet continues it) and ``**bold**`` spans. :func:`parse_markdown`
turns a page into :class:`Block` objects a screen can lay out; :func:`to_gui_html` renders them as the HTML
subset pygame-gui's ``UITextBox`` understands.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from importlib.resources.abc import Traversable

from app import resources
from engine import registry

RULES_DIR: Traversable = resources.asset("rules")
"""``assets/rules``: one folder per language, one ``<game>.md`` per game."""

GAMES: tuple[str, ...] = tuple(registry.names())
"""Every registered game, in menu order (each has a page: its entry's ``rules_page``)."""
LANGUAGES: tuple[str, ...] = ("en", "pt", "it", "sk")
DEFAULT_LANGUAGE = "en"

_NAME_RE = re.compile(r"^[a-z0-9_]+$")
_BOLD_RE = re.compile(r"\*\*(.+?)\*\*")


@dataclass(frozen=True)
class Span:
    """A run of text, bold or not."""

    text: str
    bold: bool = False


@dataclass(frozen=True)
class Block:
    """One laid-out unit of a page.

    ``kind`` is ``heading`` (``level`` 1 or 2), ``paragraph`` or ``bullet``; ``spans`` hold the text with its
    bold runs.
    """

    kind: str
    spans: tuple[Span, ...]
    level: int = 0

    @property
    def text(self) -> str:
        """The plain text without markup."""
        return "".join(s.text for s in self.spans)


def rules_path(game: str, lang: str) -> Traversable:
    """Path of the page of ``game`` in ``lang`` (which may not exist)."""
    for value, what in ((game, "game"), (lang, "language")):
        if not _NAME_RE.match(value):
            raise ValueError(f"bad {what} name {value!r}: use lowercase letters, digits and '_'")
    return RULES_DIR / lang / f"{game}.md"


def load_rules(game: str, lang: str) -> str:
    """The markdown rules page of ``game`` in ``lang``, falling back to English when it has no translation.

    Raises ``KeyError`` naming the game when no page exists even in English.
    """
    page = registry.entry(game).rules_page if game in registry.names() else game
    for candidate in (lang, DEFAULT_LANGUAGE):
        path = rules_path(page, candidate)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise KeyError(f"no rules page for game {game!r} (looked in {RULES_DIR})")


def rules_title(game: str, lang: str) -> str:
    """The first heading of the page (the game's name in that language)."""
    for block in parse_markdown(load_rules(game, lang)):
        if block.kind == "heading":
            return block.text
    return game


def parse_inline(text: str) -> tuple[Span, ...]:
    """Split ``text`` into plain and ``**bold**`` spans (an unmatched ``**`` stays literal)."""
    spans: list[Span] = []
    pos = 0
    for m in _BOLD_RE.finditer(text):
        if m.start() > pos:
            spans.append(Span(text[pos:m.start()]))
        spans.append(Span(m.group(1), True))
        pos = m.end()
    if pos < len(text):
        spans.append(Span(text[pos:]))
    return tuple(spans)


def parse_markdown(text: str) -> list[Block]:
    """Parse the markdown subset into blocks (headings, paragraphs, bullets)."""
    blocks: list[Block] = []
    kind = ""
    lines: list[str] = []
    level = 0

    def flush() -> None:
        nonlocal kind, lines, level
        if kind and lines:
            blocks.append(Block(kind, parse_inline(" ".join(lines)), level))
        kind, lines, level = "", [], 0

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading and not raw.startswith((" ", "\t")):
            flush()
            blocks.append(Block("heading", parse_inline(heading.group(2).strip()), min(2, len(heading.group(1)))))
            continue
        bullet = re.match(r"^[-*]\s+(.*)$", stripped)
        if bullet and not raw.startswith(("  ", "\t")):
            flush()
            kind, lines = "bullet", [bullet.group(1).strip()]
            continue
        if kind == "bullet" and raw.startswith((" ", "\t")):
            lines.append(stripped)
            continue
        if kind != "paragraph":
            flush()
            kind = "paragraph"
        lines.append(stripped)
    flush()
    return blocks


def section_outline(blocks: list[Block]) -> list[tuple[int, int]]:
    """The page's structure as (heading level, number of bullets in that section) pairs, without the text;
    equal across the translations of one page."""
    outline: list[tuple[int, int]] = []
    for b in blocks:
        if b.kind == "heading":
            outline.append((b.level, 0))
        elif b.kind == "bullet" and outline:
            level, count = outline[-1]
            outline[-1] = (level, count + 1)
    return outline


def to_gui_html(blocks: list[Block], h1_px: int = 26, h2_px: int = 20, bullet: str = "\u2022") -> str:
    """The blocks as pygame-gui ``UITextBox`` HTML (``<b>``, ``<font pixel_size>``, ``<br>``), text escaped."""
    out: list[str] = []

    def spans_html(spans: tuple[Span, ...]) -> str:
        return "".join(f"<b>{html.escape(s.text, quote=False)}</b>" if s.bold else html.escape(s.text, quote=False)
                       for s in spans)

    for b in blocks:
        if b.kind == "heading":
            px = h1_px if b.level == 1 else h2_px
            gap = "<br>" if out else ""
            out.append(f"{gap}<font pixel_size={px}><b>{html.escape(b.text, quote=False)}</b></font><br>")
        elif b.kind == "bullet":
            out.append(f"{bullet} {spans_html(b.spans)}<br>")
        else:
            out.append(f"{spans_html(b.spans)}<br>")
    return "".join(out)
