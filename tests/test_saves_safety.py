"""Nothing in the saves package can execute code read from disk, and saves never imports pygame or app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SAVES = Path(__file__).resolve().parent.parent / "saves"
FORBIDDEN_MODULES = {"pickle", "cPickle", "marshal", "shelve", "dill", "yaml", "pygame", "pygame_gui", "app"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}


def test_no_code_execution_or_forbidden_imports_in_saves() -> None:
    problems = []
    for path in sorted(SAVES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{path.name}:{node.lineno} calls {node.func.id}")
                continue
            else:
                continue
            for name in names:
                if name.split(".")[0] in FORBIDDEN_MODULES:
                    problems.append(f"{path.name}:{node.lineno} imports {name}")
    assert problems == []


def test_importing_saves_loads_neither_pygame_nor_app() -> None:
    code = ("import sys, saves.autosave, saves.records, saves.survey, saves.study, saves.export, saves.settings; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'app')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=SAVES.parent, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
