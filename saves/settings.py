"""The app's persisted settings: a versioned JSON file ``settings.json`` in the config directory.

Loading never fails: a missing file gives the defaults; a corrupt, foreign or newer-version file gives the
defaults plus a warning, and the bad file is moved aside (``settings.json.corrupt-N``) so nothing is lost.
Unknown keys are kept in ``extra`` (room for settings added by newer builds or other modules); a single bad
value falls back to its default with a warning instead of discarding the whole file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from saves import paths

SETTINGS_FORMAT = "cardtable-settings"
SETTINGS_VERSION = 1
SETTINGS_FILE = "settings.json"
MAX_SETTINGS_BYTES = 1 << 20

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``MIGRATIONS[v]`` upgrades a version-``v`` settings dict to ``v + 1`` (empty while only version 1 exists)."""

LANGUAGES = ("en", "pt", "it", "sk")
CARD_STYLES = ("classic", "four_colour")
SURVEY_MODES = ("off", "every", "every_n")


@dataclass
class Settings:
    """Every persisted preference. ``extra`` keeps keys this build does not know (written back unchanged)."""

    language: str = "en"
    animation_speed: int = 2
    """0 = no animation, 1 = slow, 2 = normal, 3 = fast."""
    ai_min_delay_ms: int = 600
    card_style: str = "classic"
    auto_sort: bool = True
    sound: bool = True
    fullscreen: bool = False
    window_width: int = 1280
    window_height: int = 800
    allow_undo: bool = True
    survey: str = "every"
    survey_every_n: int = 3
    player_name: str = ""
    questionnaire_file: str = ""
    """A researcher's questionnaire JSON used instead of the built-in one (empty = built-in)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> list[str]:
        """Reset invalid fields to their defaults; return one message per field reset."""
        problems: list[str] = []
        defaults = Settings()
        for f in fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            ok = _valid(f.name, value)
            if not ok:
                problems.append(f"setting {f.name!r}: invalid value {_short(value)}; "
                                f"using the default {getattr(defaults, f.name)!r}")
                setattr(self, f.name, getattr(defaults, f.name))
        if not isinstance(self.extra, dict):
            self.extra = {}
        return problems

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": SETTINGS_FORMAT, "version": SETTINGS_VERSION}
        d.update(self.extra)
        for f in fields(self):
            if f.name != "extra":
                d[f.name] = getattr(self, f.name)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> tuple[Settings, list[str]]:
        """Settings from a parsed file (already checked for format/version) and per-field warnings."""
        known = {f.name for f in fields(cls)} - {"extra"}
        s = cls()
        for key, value in d.items():
            if key in ("format", "version"):
                continue
            if key in known:
                setattr(s, key, value)
            else:
                s.extra[key] = value
        return s, s.validate()

    def should_show_survey(self, games_finished: int) -> bool:
        """The "when to show" rule: ``games_finished`` counts finished games including the one just ended."""
        if self.survey == "every":
            return True
        if self.survey == "every_n":
            return games_finished > 0 and games_finished % max(1, self.survey_every_n) == 0
        return False


_INT_RANGES: dict[str, tuple[int, int]] = {
    "animation_speed": (0, 3), "ai_min_delay_ms": (0, 60_000), "window_width": (320, 16_384),
    "window_height": (240, 16_384), "survey_every_n": (1, 1000)}
_CHOICES: dict[str, tuple[str, ...]] = {"language": LANGUAGES, "card_style": CARD_STYLES,
                                        "survey": SURVEY_MODES}
_BOOLS = ("auto_sort", "sound", "fullscreen", "allow_undo")


def _valid(name: str, value: Any) -> bool:
    if name in _INT_RANGES:
        lo, hi = _INT_RANGES[name]
        return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    if name in _CHOICES:
        return value in _CHOICES[name] if isinstance(value, str) else False
    if name in _BOOLS:
        return isinstance(value, bool)
    if name == "player_name":
        return isinstance(value, str) and len(value) <= 64
    if name == "questionnaire_file":
        return isinstance(value, str) and len(value) <= 4096 and "\x00" not in value
    return True


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class SettingsLoad:
    """The loaded settings plus human-readable warnings (empty when the file was fine or absent)."""

    settings: Settings
    warnings: list[str]


def settings_path(directory: Path | None = None) -> Path:
    return Path(directory or paths.config_dir()) / SETTINGS_FILE


def load_settings(directory: Path | None = None) -> SettingsLoad:
    """Load the settings; never raises for bad content (defaults + warnings, bad file moved aside)."""
    path = settings_path(directory)
    if not path.exists():
        return SettingsLoad(Settings(), [])
    try:
        size = path.stat().st_size
        if size > MAX_SETTINGS_BYTES:
            raise ValueError(f"file is too large ({size} bytes)")
        data = json.loads(path.read_bytes().decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != SETTINGS_FORMAT:
            raise ValueError("not a cardtable settings file")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError(f"bad version {_short(version)}")
        if version > SETTINGS_VERSION:
            raise ValueError(f"written by a newer cardtable (version {version}, this build reads "
                             f"{SETTINGS_VERSION})")
        while version < SETTINGS_VERSION:
            data = MIGRATIONS[version](data)
            version += 1
        settings, problems = Settings.from_dict(data)
        return SettingsLoad(settings, problems)
    except (OSError, ValueError, RecursionError, UnicodeDecodeError) as e:
        reason = str(e) or type(e).__name__
        try:
            moved = paths.move_aside(path, "corrupt")
            where = f"; the file was moved to {moved}"
        except OSError as move_error:
            where = f"; could not move it aside ({move_error})"
        return SettingsLoad(Settings(), [f"settings file {path} could not be read ({reason}); "
                                         f"using the defaults{where}"])


def save_settings(settings: Settings, directory: Path | None = None) -> Path:
    """Write the settings atomically; returns the file path."""
    settings.validate()
    path = settings_path(directory)
    data = json.dumps(settings.to_dict(), indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8")
    paths.atomic_write_bytes(path, data)
    return path
