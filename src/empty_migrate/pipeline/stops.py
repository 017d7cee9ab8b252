"""Stopping a run: Ctrl-C, SIGTERM and SIGHUP mean the same thing.

Whichever arrives, a run stops as it does on Ctrl-C: before anything is
written, at once and with nothing written; while writing, after the unit being
written is in place (`held_stops`), so that every eval is complete or
untouched. The exit status is 128 plus the signal's number: 130 for SIGINT,
143 for SIGTERM, 129 for SIGHUP.
"""

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType

STOP_SIGNALS = tuple(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP")
    if hasattr(signal, name)  # no SIGHUP on Windows
)
"""The signals that stop a run; Python itself turns the first into Ctrl-C."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: raised wherever Ctrl-C raises KeyboardInterrupt.

    Attributes:
        signum: The signal's number.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def stop_on_signals() -> None:
    """Make SIGTERM and SIGHUP raise `Stopped`, as SIGINT raises KeyboardInterrupt."""
    for signum in STOP_SIGNALS:
        if signum != signal.SIGINT:
            signal.signal(signum, _raise_stopped)


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def ignore_stops() -> None:
    """Ignore every stop signal (in a worker process: its parent stops the run)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def signal_of(stop: BaseException) -> int:
    """The signal a stop came from (SIGINT for a plain KeyboardInterrupt)."""
    return getattr(stop, "signum", signal.SIGINT)


def exit_status(signum: int) -> int:
    """The exit status of a run stopped by `signum`: 128 plus its number."""
    return 128 + signum


def described(signum: int) -> str:
    """How a stop is named to the user: "interrupted", or with its signal."""
    if signum == signal.SIGINT:
        return "interrupted"
    return f"interrupted ({signal.Signals(signum).name})"


@contextlib.contextmanager
def held_stops() -> Iterator[Callable[[], int | None]]:
    """Hold every stop signal while the block runs.

    Yields a function that returns the first signal that arrived, or None.
    Outside the main thread signals cannot be held, and it always says None.
    """
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous: dict[int, object] = {}
    try:
        for signum in STOP_SIGNALS:
            previous[signum] = signal.signal(signum, hold)
    except ValueError:  # not the main thread: signals cannot be held here
        yield lambda: None
        return
    try:
        yield lambda: received[0] if received else None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]


def end_with_parent() -> None:
    """End this (worker) process when its parent dies, however the parent died.

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere
    a thread checks the parent once a second. A parent that is SIGKILLed has
    no chance to stop its workers, and a worker left running holds its
    caller's stderr open (so a caller waiting for the output would hang).
    """
    parent = os.getppid()
    if sys.platform == "linux":
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL) == 0:
            if os.getppid() != parent:  # died before the request was made
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    import threading  # only this fallback needs a thread; start-up does not

    threading.Thread(target=watch, daemon=True).start()


_PR_SET_PDEATHSIG = 1
"""``prctl``'s option number for the signal a process gets when its parent dies."""
