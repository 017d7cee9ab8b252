"""The ``empty-migrate`` console script and ``python -m empty_migrate``.

Only the standard library is imported before the guard: importing the command
line (LibCST, the registry) takes a noticeable moment, and Ctrl-C during it
must end the run with the same one line as at any other point.
"""

import sys


def run() -> None:
    """Run the command line and exit with its code."""
    try:
        from empty_migrate.cli import main

        code = main()
    except KeyboardInterrupt:
        print("empty-migrate: interrupted", file=sys.stderr)
        code = 130  # ExitCode.INTERRUPTED, not imported: the import may be what stopped
    sys.exit(code)


if __name__ == "__main__":
    run()
