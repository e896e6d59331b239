"""UI string translations: English source strings are the keys of ``assets/i18n/<lang>.json``.

``t("Pass to {name}", name="Ana")`` looks the string up in the current language, falls back to the English
text, then formats it. The language files are flat JSON objects ``{"English text": "translation"}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

I18N_DIR: Path = Path(__file__).resolve().parent.parent / "assets" / "i18n"
LANGUAGES: tuple[str, ...] = ("en", "pt", "it", "sk")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt": "Português", "it": "Italiano", "sk": "Slovenčina"}

_current = "en"
_tables: dict[str, dict[str, str]] = {}


def load_table(lang: str) -> dict[str, str]:
    """The translation table of ``lang`` (empty when the file is missing or malformed)."""
    if lang not in _tables:
        path = I18N_DIR / f"{lang}.json"
        table: dict[str, str] = {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                table = {str(k): str(v) for k, v in data.items() if isinstance(v, str)}
        except (OSError, ValueError):
            table = {}
        _tables[lang] = table
    return _tables[lang]


def set_language(lang: str) -> None:
    """Switch the current language (unknown codes fall back to English)."""
    global _current
    _current = lang if lang in LANGUAGES else "en"


def language() -> str:
    """The current language code."""
    return _current


def t(text: str, **kwargs: Any) -> str:
    """Translate ``text`` into the current language and format it with ``kwargs``."""
    out = load_table(_current).get(text, text) if _current != "en" else text
    if kwargs:
        try:
            return out.format(**kwargs)
        except (KeyError, IndexError, ValueError):
            return text.format(**kwargs)
    return out


def count_text(n: int, one: str, many: str) -> str:
    """``one`` (e.g. "1 card") when ``n`` is 1, else ``many`` (e.g. "{n} cards") with ``n`` filled in."""
    return t(one) if n == 1 else t(many, n=n)
