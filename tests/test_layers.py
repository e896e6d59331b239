"""The engine's layers, read from the source with ``ast``: no import cycle, each layer imports only those below it,
the engine never imports the app, the saves or pygame, and only the game packages name a game."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "saves")

GAME_NAMES = ("sueca", "bisca", "briscola", "hearts", "mosssidewhist", "scopone", "scopa", "pharaoh")

LAYERS = {"core": 0, "games": 1, "agents": 2, "search": 2, "runtime": 3, "lab": 4}
"""Each engine layer imports only layers of a lower or equal rank."""

CORE = {"engine", "engine.cards", "engine.rng", "engine.game", "engine.observation", "engine.determinize",
        "engine.match", "engine.registry", "engine.agent", "engine.knowledge"}
TOP_LEVEL = {"engine.presets": "runtime", "engine.worker": "runtime", "engine.arena": "lab", "engine.fuzz": "lab",
             "engine.bench": "lab", "engine.agents": "runtime",
             "engine.reproduce": "lab", "engine.ladder": "lab", "engine.counterfactual": "lab"}
"""Modules outside a layer's package. ``engine.agents`` is the SPEC factory: it seats every agent, among them the
root-parallel search that runs in the runtime's helper processes (the agents themselves stay in their layers)."""

NAMING_A_GAME_ALLOWED: set[str] = {"engine.lab.experiments_catalog"}
"""Modules outside the game packages that may name a game: only the catalogue of the source documents' experiments
(data: the games those experiments played)."""

IMPORTS_TO_REMOVE: set[tuple[str, str]] = set()
"""Imports the checks still tolerate (none)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


MODULES = all_modules()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_runtime(tree: ast.AST):
    """Every node except those inside ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(name: str) -> set[str]:
    """The modules ``name`` imports at module or function level (a ``from X import Y`` naming a submodule
    counts as importing that submodule)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in MODULES)
    return out


IMPORTS = {name: {t for t in imports_of(name) if t != name and (name, t) not in IMPORTS_TO_REMOVE} for name in MODULES}


def layer_of(name: str) -> str | None:
    if not name.startswith("engine"):
        return None
    if name in CORE:
        return "core"
    if name in TOP_LEVEL:
        return TOP_LEVEL[name]
    second = name.split(".")[1]
    return second if second in LAYERS else None


def test_every_engine_module_has_a_layer() -> None:
    assert [m for m in MODULES if m.startswith("engine") and layer_of(m) is None] == []


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_find_cycle_reports_the_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle() -> None:
    cycle = find_cycle(IMPORTS)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_each_layer_imports_only_the_layers_below() -> None:
    bad = []
    for name, targets in IMPORTS.items():
        layer = layer_of(name)
        if layer is None:
            continue
        for target in targets:
            other = layer_of(target)
            if other is not None and LAYERS[other] > LAYERS[layer]:
                bad.append(f"{name} ({layer}) imports {target} ({other})")
    assert bad == []


def test_the_engine_imports_neither_the_app_the_saves_nor_pygame() -> None:
    forbidden = ("pygame", "pygame_gui", "app", "saves")
    bad = [f"{name} imports {target}" for name, targets in IMPORTS.items() if name.startswith("engine")
           for target in targets if target.split(".")[0] in forbidden]
    assert bad == []


def test_the_saves_never_import_the_app() -> None:
    bad = [f"{name} imports {target}" for name, targets in IMPORTS.items() if name.startswith("saves")
           for target in targets if target.split(".")[0] in ("app", "pygame", "pygame_gui")]
    assert bad == []


def _identifiers(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias):
            yield node.asname or node.name
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.arg


def game_names_in(name: str) -> list[str]:
    """Game names a module uses as a whole string literal or inside an identifier."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip() in GAME_NAMES:
            found.append(repr(node.value))
    for ident in _identifiers(tree):
        low = ident.lower()
        found += [ident for game in GAME_NAMES if game in low]
    return found


def test_the_agent_factory_loads_agents_of_its_layer_or_below() -> None:
    """The factory names its generic agents' modules as strings (loaded lazily): they obey the layers too."""
    from engine.agents import AGENTS

    assert AGENTS
    for target in AGENTS.values():
        module = target.partition(":")[0]
        assert module in MODULES, target
        assert LAYERS[layer_of(module) or "lab"] <= LAYERS["runtime"], target


def test_only_the_game_packages_name_a_game() -> None:
    bad = {}
    for name in MODULES:
        if not name.startswith("engine") or name.startswith("engine.games") or name in NAMING_A_GAME_ALLOWED:
            continue
        found = game_names_in(name)
        if found:
            bad[name] = sorted(set(found))
    assert bad == {}


def test_the_game_name_check_sees_literals_and_identifiers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = ROOT / "engine" / "games" / "tricks" / "sueca.py"
    monkeypatch.setitem(MODULES, "probe", probe)
    assert "'sueca'" in game_names_in("probe")
    assert any("Sueca" in f for f in game_names_in("probe"))


def test_a_package_with_a_bad_default_simulation_fails_loudly(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo in a game's knowledge fails when its package is imported, and the registry says which package."""
    from engine import registry
    from engine.knowledge import KnowledgeError, SearchKnowledge

    with pytest.raises(KnowledgeError, match="default_simulation 'no-such-rollout'"):
        SearchKnowledge(default_simulation="no-such-rollout")
    with pytest.raises(KnowledgeError, match="not callable"):
        SearchKnowledge(policies={"greedy": "greedy_move"})  # type: ignore[dict-item]
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from engine import registry\n"
        "from engine.games.tricks.sueca import Sueca\n"
        "from engine.knowledge import SearchKnowledge\n"
        "KNOWLEDGE = SearchKnowledge(default_simulation='no-such-rollout')\n", encoding="utf-8")
    monkeypatch.setattr(registry, "GAMES_PACKAGE", "brokengame_root")
    monkeypatch.syspath_prepend(str(tmp_path.parent))
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setitem(sys.modules, "brokengame_root", _namespace("brokengame_root", tmp_path))
    with pytest.raises(registry.RegistryError, match=r"brokengame_root\.brokengame failed to import: "
                                                     r"KnowledgeError: .*no-such-rollout"):
        registry.entries()


def test_an_inconsistent_entry_is_refused() -> None:
    from engine import registry

    sueca = registry.entry("sueca")
    with pytest.raises(registry.RegistryError, match="presets must give a SPEC for each level"):
        dataclasses.replace(sueca, presets={"beginner": "random"})
    with pytest.raises(registry.RegistryError, match="table 'cards'"):
        dataclasses.replace(sueca, table="cards")
    with pytest.raises(registry.RegistryError, match="game_class.name is 'sueca'"):
        dataclasses.replace(sueca, name="other")
    with pytest.raises(registry.RegistryError, match="registered twice"):
        registry.register(dataclasses.replace(sueca, order=99))


def _namespace(name: str, path: Path):
    import types

    module = types.ModuleType(name)
    module.__path__ = [str(path)]  # type: ignore[attr-defined]
    return module
