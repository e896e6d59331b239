"""``python -m engine.ladder``: the equal-time ladder of :mod:`engine.lab.ladder` (same options)."""

from engine.lab.ladder import main

if __name__ == "__main__":
    raise SystemExit(main())
