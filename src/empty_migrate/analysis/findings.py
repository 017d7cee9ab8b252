"""A place the registry scan reports: `Finding`."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One place in the code: ``file`` is relative to ``src/inspect_evals``."""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"
