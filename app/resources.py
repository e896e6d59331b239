"""Where the app's shipped files are: one lookup through ``importlib.resources`` for fonts, translations, rule
pages, themes and icons (the ``assets`` package), never paths relative to the source tree.

It works the same from a checkout, an editable install, an installed wheel and a frozen bundle; a file inside a
zip is extracted once, for the life of the process, when a caller needs a real path (fonts, the window icon).
"""

from __future__ import annotations

import atexit
import sys
from contextlib import ExitStack
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

ASSETS_PACKAGE = "assets"
DISTRIBUTION = "cardtable"
WINDOW_TITLE = "cardtable"
WINDOW_ICON = ("icons", "cardtable-64.png")
"""The window icon (``packaging/make_icons.py`` draws every size)."""
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)
"""The sizes of ``assets/icons/cardtable-<size>.png`` (the hicolor sizes a Linux desktop looks for)."""

_extracted = ExitStack()
atexit.register(_extracted.close)


def asset(*parts: str) -> Traversable:
    """The shipped file or folder ``assets/<parts...>`` (readable with ``read_text``/``open``; may not exist)."""
    return files(ASSETS_PACKAGE).joinpath(*parts)


@cache
def asset_path(*parts: str) -> Path:
    """A real file-system path of the shipped file ``assets/<parts...>``, for libraries that want a file name."""
    resource = asset(*parts)
    if isinstance(resource, Path):
        return resource
    return _extracted.enter_context(as_file(resource))


def app_command(*args: str) -> list[str]:
    """The command line that starts this app again with ``args``: ``python -m app ...``, or the bundle's own
    executable in a frozen bundle (which has no interpreter to run ``-m`` with)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *args]
    return [sys.executable, "-m", "app", *args]


def app_version() -> str:
    """The installed ``cardtable`` version; from ``pyproject.toml`` when run from a checkout that is not installed."""
    try:
        return _dist_version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    try:
        import tomllib

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        with pyproject.open("rb") as f:
            return str(tomllib.load(f)["project"]["version"]) + "+checkout"
    except (OSError, KeyError, ValueError):
        return "unknown"
