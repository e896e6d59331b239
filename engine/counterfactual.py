"""``python -m engine.counterfactual``: the counterfactual study of :mod:`engine.lab.counterfactual` (same options)."""

from engine.lab.counterfactual import main

if __name__ == "__main__":
    raise SystemExit(main())
