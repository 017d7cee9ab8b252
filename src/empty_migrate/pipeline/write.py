"""Write a run's changes into the target tree: group by group, each all or nothing.

A group is the evals that were migrated together because they share a scorer
file (see `migrate`); it is written as one unit, by `write_files` (staged,
then renamed; an error leaves the unit untouched). A unit that cannot be
written fails its evals with the reason, and the run goes on; the files every
eval shares (the router module), if that unit held them, pass to the next
unit. Ctrl-C, SIGTERM and SIGHUP while writing are held until the current
unit is in place; the run then stops with `WriteInterrupted`, and no eval is
ever half-written.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from empty_migrate.pipeline.stops import held_stops
from empty_migrate.target.files import Journal, write_files


@dataclass(frozen=True)
class WriteUnit:
    """The evals written together, and their files' final texts by path.

    Attributes:
        evals: The evals, in run order.
        files: Each file's final content, by path.
        shared: Which of the files every migrated eval needs (the router
            module): if the unit cannot be written, the next one writes them.
    """

    evals: tuple[str, ...]
    files: dict[str, str | bytes]
    shared: frozenset[str] = frozenset()


@dataclass
class WriteReport:
    """What the writing did: the paths written, and the units that failed."""

    written: list[str] = field(default_factory=list)
    failed: dict[tuple[str, ...], str] = field(default_factory=dict)
    """The evals of each unit that could not be written, and why."""


class WriteInterrupted(Exception):
    """A stop signal ended the writing after a unit was in place.

    Attributes:
        written: The evals whose files were all written.
        pending: The evals left untouched.
        signum: The signal that arrived.
        report: What was written, and what failed, before it.
    """

    def __init__(
        self, written: list[str], pending: list[str], signum: int, report: WriteReport
    ) -> None:
        super().__init__(f"wrote {len(written)} eval(s), {len(pending)} left")
        self.written = written
        self.pending = pending
        self.signum = signum
        self.report = report


def write_units(
    repo: Path, units: Sequence[WriteUnit], journal: Journal | None = None
) -> WriteReport:
    """Write every unit in order, each whole or not at all.

    Raises:
        WriteInterrupted: If a stop signal arrived; the units before it are
            complete, the rest untouched.
    """
    report = WriteReport()
    carried: dict[str, str | bytes] = {}
    with held_stops() as stopped:
        for index, unit in enumerate(units):
            files = carried | unit.files
            try:
                write_files(repo, files, journal)
            except OSError as error:
                report.failed[unit.evals] = _reason(error)
                carried = {
                    p: files[p] for p in files if p in carried or p in unit.shared
                }
            else:
                report.written += sorted(files)
                carried = {}
            signum = stopped()
            if signum is not None:
                done = [name for u in units[: index + 1] for name in u.evals]
                raise WriteInterrupted(
                    [name for name in done if not _failed(report, name)],
                    [name for u in units[index + 1 :] for name in u.evals],
                    signum,
                    report,
                )
    return report


def _failed(report: WriteReport, name: str) -> bool:
    return any(name in evals for evals in report.failed)


def _reason(error: OSError) -> str:
    """An error as one line: the message, and the file when the OS names one."""
    if error.filename and error.strerror:
        return f"could not write {error.filename}: {error.strerror}"
    return str(error)
