"""Play arena games on a Ray cluster (the optional ``cluster`` extra: ``pip install .[cluster]``).

:class:`RayBackend` is an :data:`engine.lab.arena.Backend`: ``engine.lab.arena.run(..., backend=RayBackend(play_one))``
plays every game as one Ray task (``play_one`` is :func:`engine.lab.arena.play_one`, passed in so that the arena's
command line can offer this backend without an import cycle). Each game is a pure function of its arguments (the
arena derives every seed from the run's seed, the deal and the rotation), so the results are those of the local
backend whatever the number of workers and nodes. Finished games reach the arena as they end, which writes them to
its records file at once; a task whose worker or node is lost is retried by Ray, and a stopped run resumes from its
records, so only the games in flight are played again.
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable
from typing import Any

from engine.game import GameError

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def import_ray() -> Any:
    """The ``ray`` module, or a GameError saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as e:
        raise GameError("--backend ray needs Ray, which is not installed: pip install '.[cluster]' "
                        "(in the project's checkout; or pip install 'ray>=2.9')") from e


class RayBackend:
    """Runs arena games as Ray tasks: ``play(*task)`` for every task, a module-level function returning the
    finished game (the arena's ``play_one``). ``address`` joins an existing cluster (``ray start --head`` prints
    it; ``auto`` finds the local one); without it a local Ray instance is started with ``workers`` CPUs (0 = all)
    and stopped by :meth:`close`. ``in_flight`` bounds the games submitted at once (0 = twice the cluster's
    CPUs), so a lost node costs at most that many games."""

    def __init__(self, play: Callable[..., Any], address: str | None = None, workers: int = 0,
                 in_flight: int = 0, max_retries: int = 5) -> None:
        self.ray = import_ray()
        self.started = False
        if not self.ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address:
                kwargs["address"] = address
            else:
                # a local instance runs this checkout's code: its workers import engine from here
                kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": PROJECT_ROOT}}
                if workers:
                    kwargs["num_cpus"] = workers
            try:
                self.ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise GameError(f"cannot start or join Ray{f' at {address}' if address else ''}: {e}") from e
            self.started = True
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.in_flight = in_flight or max(2, 2 * cpus)
        self._play = self.ray.remote(num_cpus=1, max_retries=max_retries)(play)

    def __call__(self, tasks: list[tuple[Any, ...]], keep: Callable[[Any], None]) -> None:
        ray = self.ray
        todo = iter(tasks)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < self.in_flight:
                    task = next(todo, None)
                    if task is None:
                        break
                    pending.append(self._play.remote(*task))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    keep(ray.get(ref))
        finally:
            for ref in pending:  # interrupted: the games in flight are not recorded and are played on resume
                ray.cancel(ref, force=True)

    def close(self) -> None:
        """Stop the local Ray instance this backend started (a joined cluster keeps running)."""
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()
            self.started = False

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BACKENDS = ("local", "ray")
"""The values of ``--backend``: local processes (``--jobs``) or Ray."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--backend local|ray`` and ``--address ADDR`` to a command line."""
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="play the games in local processes (default) or on Ray (pip install '.[cluster]')")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --backend ray: join the running Ray cluster at ADDR ('auto' = the one started "
                             "on this machine by ray start); default: start a local Ray instance for the run")


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Fail before anything runs (one line, exit status 2) on ``--address`` without ``--backend ray`` or on
    ``--backend ray`` without the ``ray`` package."""
    if args.address is not None and args.backend != "ray":
        parser.error("--address needs --backend ray")
    if args.address is not None and not args.address.strip():
        parser.error("--address must be a Ray address (HOST:PORT or auto), not empty")
    if args.backend == "ray":
        try:
            import_ray()
        except GameError as e:
            parser.error(str(e))


def open_backend(args: argparse.Namespace, play: Callable[..., Any]) -> RayBackend | None:
    """The backend the checked options ask for: a :class:`RayBackend` (close it after the run) or None for the
    local processes. ``--jobs`` caps the CPUs of a local Ray instance."""
    if args.backend != "ray":
        return None
    return RayBackend(play, args.address, getattr(args, "jobs", 0) or 0)
