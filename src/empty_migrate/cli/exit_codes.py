"""The exit codes of every ``empty-migrate`` command, in one place."""

from enum import IntEnum


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


EPILOG = """\
exit codes:
  0    done
  1    --check: an eval still needs migrating; registry scan: drift found;
       --branch-per-eval: a branch was left as it was (not ours, or out of date),
       or not made (its files are symlinks in the base commit)
  2    bad input (arguments, registry, target), or another run is writing to
       the repository (--wait waits for it): nothing was changed
  3    a codemod or the formatter failed: the failed evals were left untouched
  130  interrupted: every eval (or branch) is either complete or untouched
       (143 for SIGTERM and 129 for SIGHUP, which stop a run as Ctrl-C does)
"""
