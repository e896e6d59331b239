"""Entry point of the frozen bundle (``packaging/cardtable.spec``): the ``cardtable`` command.

``multiprocessing.freeze_support()`` comes first: root-parallel search helpers (``engine.search.parallel``)
start by re-running this executable with multiprocessing's own arguments, which it recognizes and serves.
The background search process re-runs it with ``--worker-child`` (``engine.worker.child_command``), which
``app.__main__.main`` serves.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from app.__main__ import main

    sys.exit(main())
