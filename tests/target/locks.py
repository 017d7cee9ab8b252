"""`held_by`: another run's hold on a repository's lock, for the tests.

A real ``flock`` on the real lock file, through a descriptor of the test's
own: a lock held through one open file is refused to every other, in this
process or another.
"""

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def held_by(path: Path, pid: str = "4242") -> Iterator[int]:
    """The lock file at `path` locked, naming `pid` as its holder; its descriptor."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    os.write(descriptor, f"{pid}\n".encode())
    try:
        yield descriptor
    finally:
        os.close(descriptor)
