"""Argument checks shared by the command-line tools (arena, bench, fuzz, depth, tournament, the records export).

A bad value fails while the arguments are parsed, before any run starts, with one line on stderr that says what
is wrong and what is valid (exit status 2); an unknown option lists the valid ones.

>>> positive_int("3")
3
>>> positive_int("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be a whole number of at least 1, not '-1'
>>> seconds("nan")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be a finite number of seconds, 0 or more, not 'nan'
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn


class Parser(argparse.ArgumentParser):
    """An ``argparse`` parser whose errors are one line (``PROG: error: MESSAGE``, no usage block) and whose
    unknown-option error lists the valid options."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments"):
            message += f" (options: {', '.join(self.option_names())})"
        self.exit(2, f"{self.prog}: error: {message}\n")

    def option_names(self) -> list[str]:
        """Every long option string of this parser (``--help`` included), in definition order."""
        return [s for action in self._actions for s in action.option_strings if s.startswith("--")]


def integer(minimum: int, meaning: str = "") -> Callable[[str], int]:
    """An argparse ``type`` accepting whole numbers of at least ``minimum``; ``meaning`` (e.g. "0 = every core")
    is added to the error message."""
    note = f" ({meaning})" if meaning else ""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be a whole number of at least {minimum}{note}, not {text!r}")
        return value

    return parse


positive_int = integer(1)
"""A whole number of at least 1 (games, positions, repetitions)."""
count_or_zero = integer(0, "0 = no limit")
"""A whole number of at least 0, where 0 means no limit."""
jobs = integer(0, "0 = every core")
"""A number of worker processes, 0 for one per core."""


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def seconds(text: str) -> float:
    """A finite duration of 0 seconds or more (0 may mean "no limit" where the tool says so)."""
    value = _number(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, 0 or more, not {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """A finite duration of more than 0 seconds."""
    value = _number(text)
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, not {text!r}")
    return value


def _existing_folder(path: Path) -> Path:
    """The nearest existing ancestor of ``path`` (``path`` itself when it exists)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(".")


def output_file(text: str) -> str:
    """A file path the tool can write when its run ends: its folder exists and is writable, and the path is not
    a folder (an existing file is replaced)."""
    if not text:
        raise argparse.ArgumentTypeError("must be a file path, not empty")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give a file path")
    folder = path.parent
    if not folder.exists():
        found = _existing_folder(folder)
        if found.is_dir():
            raise argparse.ArgumentTypeError(f"folder {folder} does not exist; create it or give another path")
        raise argparse.ArgumentTypeError(f"{found} is a file, not a folder; give a path in an existing folder")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{folder} is a file, not a folder; give a path in an existing folder")
    if path.exists() and not path.is_file():
        raise argparse.ArgumentTypeError(f"{text} is not a regular file; give a file path")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text} (no permission); give a writable path")
    return text


def output_folder(text: str) -> str:
    """A folder the tool can write into: an existing writable folder, or one that can be created (its nearest
    existing ancestor is a writable folder)."""
    if not text:
        raise argparse.ArgumentTypeError("must be a folder path, not empty")
    path = Path(text)
    found = _existing_folder(path)
    if not found.is_dir():
        if found == path:
            raise argparse.ArgumentTypeError(f"{text} is a file, not a folder; give a folder path")
        raise argparse.ArgumentTypeError(f"{found} is a file, not a folder; give a path in a folder")
    if not os.access(found, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write into {found} (no permission); give a writable folder")
    return text


def write_json(path: str, data: Any, indent: int = 2) -> bool:
    """Write ``data`` as JSON to ``path`` (checked by :func:`output_file` before the run). If the write still
    fails (the disk filled up, the folder went away) say so in one line on stderr and return False."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=indent)
    except OSError as e:
        print(f"error: cannot write {path}: {e.strerror or e}", file=sys.stderr)
        return False
    return True
