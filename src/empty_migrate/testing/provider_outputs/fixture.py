"""A provider output fixture: its builder and what it mirrors, declared together."""

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from inspect_ai.model import (
    ModelOutput,
    StopDetails,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.inspect_internals import (
    collect_stop_details,
)

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProviderOutput:
    """A model output shaped as one inspect-ai provider adapter builds it."""

    name: str
    provider: str
    source: str
    shape: str
    expected: Outcome
    build: Callable[[], ModelOutput]
    partial: str | None = None
    """An answer cut short carries its flag: truncated_partial or filtered_partial."""

    @property
    def output(self) -> ModelOutput:
        """A freshly built output (each access builds a new object)."""
        return self.build()


def collected(provider: str, details: StopDetails | None) -> StopDetails | None:
    """`details` as the adapter of `provider` keeps them (None when empty)."""
    return collect_stop_details(provider, _LOGGER, lambda: details)


class Shapes:
    """The outputs one module declares, each by a decorator on its builder."""

    def __init__(self) -> None:
        self._outputs: list[ProviderOutput] = []

    def add(
        self,
        *,
        name: str,
        provider: str,
        source: str,
        shape: str,
        expected: Outcome,
        partial: str | None = None,
    ) -> Callable[[Callable[[], ModelOutput]], Callable[[], ModelOutput]]:
        """Declare the output `build` makes; the builder is returned unchanged."""

        def declare(build: Callable[[], ModelOutput]) -> Callable[[], ModelOutput]:
            self._outputs.append(
                ProviderOutput(name, provider, source, shape, expected, build, partial)
            )
            return build

        return declare

    def __iter__(self) -> Iterator[ProviderOutput]:
        return iter(self._outputs)
