"""The errors a command reports to its user, and the exit codes it ends with.

Standard library only: the command line's parser loads this module (through
`empty_migrate.cli.exit_codes`, which documents the codes for ``--help``).
"""

from collections.abc import Sequence
from enum import IntEnum
from typing import ClassVar


class ExitCode(IntEnum):
    """What a command's exit status means."""

    OK = 0
    """Done; nothing left to do."""
    WORK_REMAINS = 1
    """``--check``: an eval still needs migrating; ``registry scan``: drift found;
    ``--branch-per-eval``: a branch was left as it was (not ours, or out of date),
    or not made (its files are symlinks in the base commit)."""
    USAGE = 2
    """Bad input (arguments, registry, target), or another run is writing to the
    repository (``--wait`` waits for it); nothing was changed."""
    TOOL_ERROR = 3
    """A codemod or the formatter failed; the failed evals were left untouched."""
    HANGUP = 129
    """Stopped by SIGHUP, as by Ctrl-C."""
    INTERRUPTED = 130
    """Interrupted (Ctrl-C); every eval (every branch) is complete or untouched."""
    TERMINATED = 143
    """Stopped by SIGTERM, as by Ctrl-C."""


class EmptyMigrateError(Exception):
    """An error the user is told about: one line that says what to do, and a code.

    Every error a command ends with derives from it; `empty_migrate.cli.main`
    catches it once, prints the message as one line on stderr (after the
    program's name) and exits with `exit_code`.

    Attributes:
        exit_code: The command's exit status (bad input unless a class says
            otherwise).
        problems: Lines printed as they are, one per problem, in place of the
            message (a registry's ``file:line: key: problem``); none for most.
    """

    exit_code: ClassVar[ExitCode] = ExitCode.USAGE
    problems: Sequence[str] = ()
