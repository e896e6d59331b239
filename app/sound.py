"""Tiny synthesized sound effects (no audio files): a soft card 'snap' and a short chime.

Sounds are generated with numpy when the mixer is available; without an audio device everything is silent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pygame

_cache: dict[str, Any] = {}


def _make(kind: str) -> Any:
    init = pygame.mixer.get_init()
    if not init:
        return None
    freq, _size, channels = init
    n = int(freq * (0.07 if kind == "card" else 0.25))
    t = np.arange(n) / freq
    if kind == "card":
        noise = np.random.default_rng(7).standard_normal(n)
        wave = noise * np.exp(-t * 70) * 0.25 + np.sin(2 * np.pi * 1400 * t) * np.exp(-t * 120) * 0.15
    else:
        wave = (np.sin(2 * np.pi * 660 * t) + 0.5 * np.sin(2 * np.pi * 990 * t)) * np.exp(-t * 9) * 0.2
    data = (np.clip(wave, -1, 1) * 32767).astype(np.int16)
    if channels > 1:
        data = np.repeat(data[:, None], channels, axis=1)
    return pygame.sndarray.make_sound(np.ascontiguousarray(data))


def play(kind: str, enabled: bool) -> None:
    """Play a sound effect ("card" or "chime") when ``enabled`` and audio works; never raises."""
    if not enabled:
        return
    try:
        if kind not in _cache:
            _cache[kind] = _make(kind)
        sound = _cache[kind]
        if sound is not None:
            sound.play()
    except Exception:  # noqa: BLE001 - no audio device, unsupported format: stay silent
        _cache[kind] = None


def clear() -> None:
    """Forget generated sounds (after pygame.quit)."""
    _cache.clear()
