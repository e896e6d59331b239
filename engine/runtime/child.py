"""The entry point of every supervised child process: ``python -m engine.runtime.child ROLE [ARGS]``.

Roles: ``worker INTERVAL`` (the move worker's search process, :func:`engine.worker.child_main`, progress every
INTERVAL seconds) and ``shares`` (a root-parallelization helper, :func:`engine.runtime.parallel.shares_main`).
The command line is built by :func:`engine.runtime.supervisor.child_command`.
"""

from __future__ import annotations

import sys

from engine import worker
from engine.runtime import parallel

ROLES = ("worker", "shares")


def main(argv: list[str]) -> int:
    """Run the role named by ``argv[0]``; an unknown role is a one-line error."""
    if not argv or argv[0] not in ROLES:
        print(f"usage: python -m engine.runtime.child ROLE [ARGS]; roles: {', '.join(ROLES)}", file=sys.stderr)
        return 2
    try:
        if argv[0] == "worker":
            worker.child_main(float(argv[1]) if len(argv) > 1 else 0.1)
        else:
            parallel.shares_main()
    except BrokenPipeError:  # the caller is gone: nobody is left to tell
        # no "Exception ignored" notice at shutdown either
        sys.stderr = None
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
