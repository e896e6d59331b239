"""``python -m engine.reproduce``: the published experiments of :mod:`engine.lab.reproduce` (same options)."""

from engine.lab.reproduce import main

if __name__ == "__main__":
    raise SystemExit(main())
