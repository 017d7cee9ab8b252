"""Run target code with the network closed, failing fast instead of waiting."""

import asyncio
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn


@contextmanager
def network_closed() -> Iterator[None]:
    """No connection, no name lookup, no sleeping between retries.

    An eval that downloads its dataset or calls a remote judge then fails at
    once with an ``OSError``, instead of retrying with back-off for minutes.
    """

    def refuse(*args: object, **kwargs: object) -> NoReturn:
        raise OSError("the network is closed for this offline run")

    with _patched(
        (socket.socket, "connect", refuse),
        (socket.socket, "connect_ex", refuse),
        (socket, "getaddrinfo", refuse),
        (time, "sleep", lambda seconds: None),
    ):
        yield


@contextmanager
def _patched(*patches: tuple[object, str, object]) -> Iterator[None]:
    """Each ``(owner, name, value)`` set in place, and put back afterwards."""
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, value in patches:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


@contextmanager
def no_async_back_off() -> Iterator[None]:
    """``asyncio.sleep`` yields without waiting, for scorers called directly.

    Scorers that retry a sandbox or a service with back-off would otherwise
    wait out every delay offline (theagentcompany's: 40 s), for an answer that
    never comes. Separate from `network_closed`, which also wraps whole
    ``eval()`` runs: their log flusher waits in a loop on ``anyio.sleep``
    (``asyncio.sleep`` underneath), which would spin without the delay.
    """
    saved = asyncio.sleep

    async def instant(delay: float, result: Any = None) -> Any:
        return await saved(0, result)

    asyncio.sleep = instant
    try:
        yield
    finally:
        asyncio.sleep = saved
