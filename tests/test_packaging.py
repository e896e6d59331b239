"""Packaging: shipped files found through importlib.resources, the version, the frozen search-process command,
and the self-test (one game in-process here; ``make wheel-check`` runs the full one from an installed wheel)."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import pytest

from app import resources, selftest
from app.__main__ import main
from engine import registry
from engine.runtime.supervisor import CHILD_MODULE, FROZEN_CHILD_FLAG, child_command

ROOT = Path(__file__).resolve().parent.parent


def test_every_asset_file_is_declared_as_package_data() -> None:
    """Every file under assets/ is matched by pyproject's package-data, so the wheel carries it."""
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = config["package-data"]
    for path in (ROOT / "assets").rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".py":
            continue
        package = ".".join(path.parent.relative_to(ROOT).parts)
        globs = patterns.get(package, []) + patterns.get("*", [])
        assert any(fnmatch(path.name, g) for g in globs), f"{path} is not in [tool.setuptools.package-data]"


def test_resources_find_the_shipped_files_as_real_paths() -> None:
    for parts in (("fonts", "DejaVuSans.ttf"), ("themes", "theme.json"), resources.WINDOW_ICON):
        path = resources.asset_path(*parts)
        assert path.is_file() and path.stat().st_size > 0
    assert resources.asset("i18n", "pt.json").read_text(encoding="utf-8").startswith("{")
    for size in resources.ICON_SIZES:
        assert resources.asset("icons", f"cardtable-{size}.png").is_file()
    assert not resources.asset("fonts", "no-such-font.ttf").is_file()


def test_version_option_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out == f"cardtable {resources.app_version()}"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert resources.app_version().startswith(version)


def test_commands_that_restart_the_app_in_a_frozen_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    assert child_command("worker", "0.1") == [sys.executable, "-u", "-m", CHILD_MODULE, "worker", "0.1"]
    assert resources.app_command("--startup-probe") == [sys.executable, "-m", "app", "--startup-probe"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert child_command("shares") == [sys.executable, FROZEN_CHILD_FLAG, "shares"]
    assert resources.app_command("--startup-probe") == [sys.executable, "--startup-probe"]


def test_selftest_plays_through_the_search_process(capsys: pytest.CaptureFixture[str]) -> None:
    one_hand_match = [n for n in registry.names() if registry.create(n).match_target() is None]
    assert one_hand_match, "no registered game ends its match after one hand"
    assert selftest.run_selftest(games=one_hand_match[:1]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["ok"] and summary["games"] == 1 and summary["fallback_moves"] == 0 and summary["records"] == 1
    assert summary["ai_moves"] == summary["autosaves"] > 0
    assert summary["rule_pages"] == len(registry.names()) * 4


def test_selftest_fails_on_fallback_moves(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A SPEC the search process rejects gives fallback moves: the self-test must say so and exit non-zero."""
    monkeypatch.setattr(selftest, "seat_spec", lambda game, seat: "ismcts:no_such_option=1")
    assert selftest.run_selftest(games=[registry.names()[0]]) == 1
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["ok"] is False and "fallback" in summary["error"]
