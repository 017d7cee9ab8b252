"""Run target code with the network closed, failing fast instead of waiting."""

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def network_closed() -> Iterator[None]:
    """No connection, no name lookup, no sleeping between retries.

    An eval that downloads its dataset or calls a remote judge then fails at
    once with an ``OSError``, instead of retrying with back-off for minutes.
    """

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("the network is closed for this offline run")

    saved = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
        time.sleep,
    )
    socket.socket.connect = socket.socket.connect_ex = refuse
    socket.getaddrinfo = refuse
    time.sleep = lambda seconds: None
    try:
        yield
    finally:
        (
            socket.socket.connect,
            socket.socket.connect_ex,
            socket.getaddrinfo,
            time.sleep,
        ) = saved
