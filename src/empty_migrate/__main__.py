"""The ``empty-migrate`` console script and ``python -m empty_migrate``.

Only the standard library is imported before the guard: importing the command
line (LibCST, the registry) takes a noticeable moment, and Ctrl-C, SIGTERM or
SIGHUP during it must end the run with the same one line as at any other point.
"""

import sys


def run() -> None:
    """Run the command line and exit with its code."""
    try:
        from empty_migrate.pipeline.stops import stop_on_signals

        stop_on_signals()
        from empty_migrate.cli.main import main

        code = main()
    except KeyboardInterrupt as stop:
        code = _interrupted(stop)
    except RuntimeError as error:
        # Python wraps an exception raised while a class is being created (a
        # dataclass field's __set_name__) in RuntimeError: Ctrl-C during an import
        if not isinstance(error.__cause__, KeyboardInterrupt):
            raise
        code = _interrupted(error.__cause__)
    sys.exit(code)


def _interrupted(stop: KeyboardInterrupt) -> int:
    # the stops module only needs the standard library: importing it cannot fail
    from empty_migrate.pipeline.stops import described, exit_status, signal_of

    print(f"empty-migrate: {described(signal_of(stop))}", file=sys.stderr)
    return exit_status(signal_of(stop))


if __name__ == "__main__":
    run()
