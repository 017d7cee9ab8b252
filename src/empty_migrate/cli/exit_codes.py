"""The exit codes of every ``empty-migrate`` command, as ``--help`` lists them.

The codes are declared with the errors that end a command (`empty_migrate.errors`).
"""

from empty_migrate.errors import ExitCode

__all__ = ["EPILOG", "ExitCode"]

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
