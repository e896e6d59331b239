"""``python -m engine.arena``: the arena of :mod:`engine.lab.arena` (same options)."""

from engine.lab.arena import main

if __name__ == "__main__":
    raise SystemExit(main())
