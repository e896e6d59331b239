"""``python -m engine.fuzz``: the agent fuzz of :mod:`engine.lab.fuzz` (same options)."""

from engine.lab.fuzz import main

if __name__ == "__main__":
    raise SystemExit(main())
