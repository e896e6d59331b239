"""Settings: defaults, round trip, corrupt/foreign/newer files and bad values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saves import paths
from saves.settings import SETTINGS_VERSION, Settings, load_settings, save_settings, settings_path


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def test_home_override_puts_every_directory_under_it(_home: Path) -> None:
    assert paths.config_dir() == _home / "config"
    assert paths.data_dir() == _home / "data"
    assert paths.log_dir() == _home / "logs"
    assert all(d.is_dir() for d in (_home / "config", _home / "data", _home / "logs"))


def test_platformdirs_used_without_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(paths.HOME_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xc"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xd"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xs"))
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert "cardtable" in paths.config_dir().parts
    assert "cardtable" in paths.data_dir().parts
    assert paths.config_dir() != paths.data_dir()


def test_missing_file_gives_defaults_without_warning() -> None:
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert loaded.warnings == []


def test_round_trip_keeps_values_and_unknown_keys() -> None:
    s = Settings(language="sk", animation_speed=0, card_style="four_colour", survey="every_n", survey_every_n=5,
                 player_name="Ana", fullscreen=True)
    s.extra["future_option"] = [1, 2]
    save_settings(s)
    loaded = load_settings()
    assert loaded.warnings == []
    assert loaded.settings == s


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe\x00", b"[1, 2]", b'{"format": "other"}',
                                     b"[" * 100_000, b'{"format": "cardtable-settings", "version": "x"}'])
def test_corrupt_file_gives_defaults_and_is_moved_aside(content: bytes) -> None:
    path = settings_path()
    path.write_bytes(content)
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert len(loaded.warnings) == 1 and "moved to" in loaded.warnings[0]
    assert not path.exists()
    aside = list(path.parent.glob("settings.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content


def test_newer_version_is_not_overwritten() -> None:
    path = settings_path()
    content = json.dumps({"format": "cardtable-settings", "version": SETTINGS_VERSION + 1, "language": "pt"})
    path.write_text(content)
    loaded = load_settings()
    assert "newer" in loaded.warnings[0]
    save_settings(loaded.settings)
    aside = list(path.parent.glob("settings.json.corrupt-*"))
    assert aside[0].read_text() == content


def test_a_bad_value_resets_only_that_field() -> None:
    path = settings_path()
    path.write_text(json.dumps({"format": "cardtable-settings", "version": 1, "language": "xx",
                                "animation_speed": 3, "sound": "yes", "window_width": 10**100}))
    loaded = load_settings()
    assert loaded.settings.language == "en" and loaded.settings.sound is True
    assert loaded.settings.animation_speed == 3
    assert loaded.settings.window_width == Settings().window_width
    assert len(loaded.warnings) == 3
    assert any("'language'" in w for w in loaded.warnings)


@pytest.mark.parametrize("mode,n,expected", [
    ("off", 1, [False] * 6), ("every", 1, [True] * 6),
    ("every_n", 3, [False, False, True, False, False, True])])
def test_survey_rule(mode: str, n: int, expected: list[bool]) -> None:
    s = Settings(survey=mode, survey_every_n=n)
    assert [s.should_show_survey(k) for k in range(1, 7)] == expected
