"""Launch the desktop app: ``python -m app`` (or ``cardtable``); ``python -m app --tour DIR`` writes screenshots;
``--selftest`` checks an installation headless; ``--version`` prints the version."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """The ``cardtable`` console script."""
    args_in = sys.argv[1:] if argv is None else list(argv)
    from engine.runtime.supervisor import FROZEN_CHILD_FLAG

    if args_in[:1] == [FROZEN_CHILD_FLAG]:  # a frozen bundle re-runs its own executable as a search process
        from engine.runtime import child

        return child.main(args_in[1:])
    from app.resources import app_version

    parser = argparse.ArgumentParser(prog="cardtable", description="A desktop card table.")
    parser.add_argument("--version", action="version", version=f"cardtable {app_version()}")
    parser.add_argument("--selftest", action="store_true",
                        help="check this installation headless: one hand of every game against the search "
                             "process, autosave and records in a temporary folder; prints a JSON summary")
    parser.add_argument("--tour", metavar="DIR", help="drive every screen and write PNGs + tour.json to DIR")
    parser.add_argument("--size", metavar="WxH", help="initial window size, e.g. 1280x800")
    parser.add_argument("--study", metavar="STUDY.json",
                        help="run a research study (participant ID, consent, the study's games and questionnaires)")
    parser.add_argument("--startup-probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(args_in)
    if args.selftest:
        from app.selftest import run_selftest

        return run_selftest()
    if args.tour:
        from app.tour import run_tour

        return run_tour(args.tour)
    from app.main import App
    from app.screens.menu import MenuScreen

    size = None
    if args.size:
        try:
            w, h = (int(x) for x in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            parser.error(f"bad --size {args.size!r}: expected WxH, e.g. 1280x800")
    app = App(size)
    menu = MenuScreen(app)
    app.push(menu)
    if args.study and not getattr(app, "read_only", False):  # a second cardtable on the data folder plays no study game
        error = app.open_study(args.study)
        if error:
            menu.message = error  # the menu says why the study did not open
    if args.startup_probe:
        app.step()
        app.shutdown()
        return 0
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
