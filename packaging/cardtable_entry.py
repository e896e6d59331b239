"""Entry point of the frozen bundle (``packaging/cardtable.spec``): the ``cardtable`` command.

Every supervised child process (the background search process, root-parallel helpers) re-runs this executable
with ``--runtime-child ROLE`` (``engine.runtime.supervisor.child_command``), which ``app.__main__.main`` serves.
``multiprocessing.freeze_support()`` comes first so that any library using multiprocessing also works frozen.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from app.__main__ import main

    sys.exit(main())
