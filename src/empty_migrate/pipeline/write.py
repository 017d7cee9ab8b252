"""Write a run's changes into the target tree: group by group, each all or nothing.

A group is the evals that were migrated together because they share a scorer
file (see `migrate`); it is written as one unit. Every file of the unit is
first staged beside its destination (a temporary file, flushed to disk), and
only when all are staged are they renamed into place, so an error while
writing leaves the unit untouched. Ctrl-C while writing is held until the
current unit is in place; the run then stops with `WriteInterrupted`, and no
eval is ever half-written.
"""

import contextlib
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from empty_migrate.target.files import write_files


@dataclass(frozen=True)
class WriteUnit:
    """The evals written together, and their files' final texts by path."""

    evals: tuple[str, ...]
    files: dict[str, str]


class WriteInterrupted(Exception):
    """Ctrl-C stopped the writing between two units.

    Attributes:
        written: The evals whose files were all written.
        pending: The evals left untouched.
    """

    def __init__(self, written: list[str], pending: list[str]) -> None:
        super().__init__(f"wrote {len(written)} eval(s), {len(pending)} left")
        self.written = written
        self.pending = pending


def write_units(repo: Path, units: Sequence[WriteUnit]) -> list[str]:
    """Write every unit in order; returns the paths written.

    Raises:
        WriteInterrupted: If Ctrl-C arrived; the units before it are complete.
    """
    written: list[str] = []
    with held_interrupts() as interrupted:
        for index, unit in enumerate(units):
            write_files(repo, unit.files)
            written += sorted(unit.files)
            if interrupted() and index + 1 < len(units):
                raise WriteInterrupted(
                    [name for u in units[: index + 1] for name in u.evals],
                    [name for u in units[index + 1 :] for name in u.evals],
                )
    return written


@contextlib.contextmanager
def held_interrupts() -> Iterator[Callable[[], bool]]:
    """Hold SIGINT while the block runs; yields a check of whether one arrived."""
    received: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda sig, frame: received.append(sig))
    except ValueError:  # not the main thread: signals cannot be held here
        yield lambda: False
        return
    try:
        yield lambda: bool(received)
    finally:
        signal.signal(signal.SIGINT, previous)
