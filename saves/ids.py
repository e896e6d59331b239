"""Identifiers that become file names (study, participant and condition IDs, questionnaire and item IDs).

An ID is 1-64 letters, digits, ``_``, ``.`` or ``-`` (the whole text: a trailing newline is refused), does not end
in ``.`` (Windows drops a trailing dot, so ``P1.`` and ``P1`` would share a file) and is not a Windows device name
(``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``-``COM9``, ``LPT1``-``LPT9``, in any case and with any extension:
``nul.json`` cannot be created on Windows).

>>> [is_safe_id(t) for t in ("P1", "st-2.b", "P1\\n", "con", "Lpt3.txt", "P1.", "..", "", "a/b", "COM10")]
[True, True, False, False, False, False, False, False, False, True]
"""

from __future__ import annotations

import re

ID_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,64}")
"""The characters and length of an ID (used with ``fullmatch``)."""

WINDOWS_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                                  *(f"LPT{i}" for i in range(1, 10))})
"""Names Windows reserves for devices, whatever the extension."""

RULE = "1-64 letters, digits, '_', '.' or '-', not ending in '.' and not a Windows device name (CON, NUL, COM1...)"
"""The rule in words, for error messages."""


def is_safe_id(text: str) -> bool:
    """Whether ``text`` is a valid ID (see the module docstring)."""
    return (ID_PATTERN.fullmatch(text) is not None and not text.endswith(".")
            and text.split(".", 1)[0].upper() not in WINDOWS_DEVICE_NAMES)
