"""Example files for researchers: ``study.json`` (a three-condition Sueca study) and ``questionnaire.json``.

Copy the folder, edit, and check with ``python -m saves.survey --check questionnaire.json``; load the study
with ``saves.study.load_study``.
"""

from __future__ import annotations

from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent


def example_path(name: str) -> Path:
    """The path of a shipped example file (``study.json`` or ``questionnaire.json``)."""
    return EXAMPLES_DIR / name
