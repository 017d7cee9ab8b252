"""The ``empty-migrate`` console script and ``python -m empty_migrate``.

Only the standard library is imported before the guard: importing the command
line (LibCST, the registry) takes a noticeable moment, and Ctrl-C during it
must end the run with the same one line as at any other point.
"""

import sys


def run() -> None:
    """Run the command line and exit with its code."""
    try:
        from empty_migrate.cli.main import main

        code = main()
    except KeyboardInterrupt:
        code = _interrupted()
    except RuntimeError as error:
        # Python wraps an exception raised while a class is being created (a
        # dataclass field's __set_name__) in RuntimeError: Ctrl-C during an import
        if not isinstance(error.__cause__, KeyboardInterrupt):
            raise
        code = _interrupted()
    sys.exit(code)


def _interrupted() -> int:
    print("empty-migrate: interrupted", file=sys.stderr)
    return 130  # ExitCode.INTERRUPTED, not imported: the import may be what stopped


if __name__ == "__main__":
    run()
