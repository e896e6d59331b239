"""Example files for researchers: ``study.json`` (a three-condition Sueca study) and ``questionnaire.json``.

Copy the folder, edit, and check with ``python -m saves.survey --check questionnaire.json``; load the study
with ``saves.study.load_study``. The files are found through ``importlib.resources`` (a checkout, an installed
wheel or a frozen bundle alike).
"""

from __future__ import annotations

import tempfile
from functools import cache
from importlib.resources import files
from pathlib import Path

EXAMPLE_FILES = ("study.json", "questionnaire.json")


@cache
def examples_dir() -> Path:
    """A real folder holding the shipped examples (copied out once when the package is not on disk, e.g. zipped)."""
    folder = files(__name__)
    if isinstance(folder, Path):
        return folder
    copy = Path(tempfile.mkdtemp(prefix="cardtable-examples-"))
    for name in EXAMPLE_FILES:  # the study names its questionnaire by a relative path: keep them side by side
        (copy / name).write_bytes(folder.joinpath(name).read_bytes())
    return copy


def example_path(name: str) -> Path:
    """The path of a shipped example file (``study.json`` or ``questionnaire.json``)."""
    return examples_dir() / name
