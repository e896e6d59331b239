"""Deterministic seeds: derive independent, reproducible seeds from a base seed and labels."""

from __future__ import annotations

import hashlib
import random


def derive_seed(*parts: object) -> int:
    """A 63-bit seed determined only by ``parts`` (e.g. ``derive_seed(seed, "deal", 17)``)."""
    h = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") >> 1


def derived_rng(*parts: object) -> random.Random:
    """A ``random.Random`` seeded by :func:`derive_seed`."""
    return random.Random(derive_seed(*parts))
