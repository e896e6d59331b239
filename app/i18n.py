"""UI string translations: English source strings are the keys of ``assets/i18n/<lang>.json``.

``t("Pass to {name}", name="Ana")`` looks the string up in the current language, falls back to the English
text, then formats it. The language files are flat JSON objects ``{"English text": "translation"}``.
"""

from __future__ import annotations

import json
from typing import Any

from app import resources

I18N_DIR = resources.asset("i18n")
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


# --- the engine's variant options (names, help texts and choice values come from the engine in English) ---
def option_name_text(name: str) -> str:
    """The English display name of a variant option (``trump_card`` -> ``Trump card``); the translation key."""
    return name.replace("_", " ").capitalize()


def option_value_texts(option: Any) -> list[str]:
    """The English display values of an option with a fixed set of values (empty for free numbers)."""
    if option.choices is not None:
        return [str(c) for c in option.choices]
    typ = option.type if option.type is not object else type(option.default)
    if typ is bool:
        return ["True", "False"]
    if typ is int and option.min is not None and option.max is not None and option.max - option.min <= 12:
        return [str(v) for v in range(option.min, option.max + 1)]
    return []


def is_number_text(text: str) -> bool:
    """Whether ``text`` is a plain number (shown as it is in every language)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def option_strings(option: Any) -> list[str]:
    """Every text of a variant option shown on the New game screen that needs a translation."""
    return [option_name_text(option.name), option.help] + \
        [option_value_key(v) for v in option_value_texts(option) if not is_number_text(v)]


def option_name(option: Any) -> str:
    """A variant option's name as a player reads it, in the current language (the English table may word the
    engine's name better, e.g. "Jack diamonds" -> "Jack of Diamonds")."""
    key = option_name_text(option.name)
    return load_table(_current).get(key, key)


def option_help(option: Any) -> str:
    """A variant option's help text as a player reads it, in the current language (English included: the
    engine's help may cite design documents that a player has never seen)."""
    return load_table(_current).get(option.help, option.help)


BOOL_VALUE_KEYS: dict[str, str] = {"True": "On", "False": "Off"}
"""Boolean option values are shown as On/Off."""


def option_value_key(value: Any) -> str:
    """The translation key of an option value: "On"/"Off" for booleans, else the engine's value."""
    text = str(value)
    return BOOL_VALUE_KEYS.get(text, text)


def option_value(value: Any) -> str:
    """A variant option's value as a player reads it, in the current language (numbers unchanged).

    The tables map the engine's raw choice values to readable text in every language, English included
    (``"counterclockwise"`` -> ``"counter-clockwise"``, ``"best3"`` -> ``"best of 3 hands"``).
    """
    key = option_value_key(value)
    if is_number_text(key):
        return key
    return load_table(_current).get(key, key)
