"""The app's modules, read with ``ast`` like the engine's in ``tests/test_layers.py``: no import cycle (function-level
imports included), no import of a game's package, and no game named by more than two modules outside the game
packages (every game-specific fact reaches the app and the saves through ``engine.registry``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from tests import test_layers as layers

APP_PACKAGES = ("app", "net", "saves")
MAX_MODULES_NAMING_A_GAME = 2


def _app_modules() -> dict[str, Path]:
    return {layers.module_name(p): p for pkg in APP_PACKAGES for p in sorted((layers.ROOT / pkg).rglob("*.py"))}


@contextmanager
def _all_modules() -> Iterator[dict[str, Path]]:
    """The engine's, the saves' and the app's modules, visible to the helpers of ``test_layers``."""
    with mock.patch.dict(layers.MODULES, _app_modules()):
        yield dict(layers.MODULES)


def _graph() -> dict[str, set[str]]:
    with _all_modules() as modules:
        return {name: {t for t in layers.imports_of(name) if t != name and (name, t) not in layers.IMPORTS_TO_REMOVE}
                for name in modules}


def test_the_app_has_no_import_cycle() -> None:
    graph = _graph()
    assert any(name.startswith("app.screens.") for name in graph)
    cycle = layers.find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_a_function_level_import_closing_a_cycle_is_found(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    one, two = tmp_path / "app" / "one.py", tmp_path / "app" / "two.py"
    one.write_text("from app import two\n", encoding="utf-8")
    two.write_text("def later():\n    from app import one\n    return one\n", encoding="utf-8")
    with mock.patch.dict(layers.MODULES, {"app.one": one, "app.two": two}):
        graph = {name: layers.imports_of(name) for name in ("app.one", "app.two")}
    assert layers.find_cycle(graph) == ["app.one", "app.two", "app.one"]


def test_the_app_uses_the_engine_api_not_a_game_package() -> None:
    graph = _graph()
    bad = [f"{name} imports {target}" for name, targets in graph.items() if name.startswith(("app", "saves"))
           for target in targets if target.startswith("engine.games")]
    assert bad == []


def modules_naming_each_game() -> dict[str, list[str]]:
    """For each game, the modules outside ``engine/games/`` that name it (a literal or inside an identifier)."""
    named: dict[str, list[str]] = {game: [] for game in layers.GAME_NAMES}
    with _all_modules() as modules:
        for name in sorted(modules):
            if name.startswith("engine.games"):
                continue
            found = " ".join(layers.game_names_in(name)).lower()
            for game in layers.GAME_NAMES:
                if game in found:
                    named[game].append(name)
    return named


def test_at_most_two_modules_outside_the_game_packages_name_a_game() -> None:
    too_many = {game: mods for game, mods in modules_naming_each_game().items()
                if len(mods) > MAX_MODULES_NAMING_A_GAME}
    assert too_many == {}


def test_the_count_sees_a_module_that_names_a_game(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("TABLES = {'scopa': 'capture'}\n\nclass HeartsPanel:\n    pass\n", encoding="utf-8")
    with mock.patch.dict(layers.MODULES, {"app.probe": probe}):
        found = " ".join(layers.game_names_in("app.probe")).lower()
    assert "scopa" in found and "hearts" in found
