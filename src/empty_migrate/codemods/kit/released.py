"""The texts this package has generated into targets, known by their digests.

Two files are this package's text when it installs them: the router module
and the emitted tests' helpers. Once in a target they are the maintainers'
code. ``released.json`` holds, for each of the two paths, the sha256 digest of
every text any version of this package generated for it (of the text as it
works on it: LF line ends, no byte-order mark). A file whose text has one of
those digests is ours, and a run may replace it with today's text (an
upgrade); a file with any other text was edited by its maintainers, and a run
keeps it unless told to replace it (`empty_migrate.pipeline.migrate`).

When the generated text changes, its digest is added with
``pytest tests/codemods/test_released.py --add-released``; a test fails until it is.
Digests are never removed: a target may still hold any released text.
"""

import hashlib
import json
from functools import cache
from pathlib import Path

from empty_migrate.target.text_files import decoded

RELEASED_FILE = Path(__file__).with_name("released.json")
ADD_COMMAND = "pytest tests/codemods/test_released.py --add-released"
"""The documented step that adds today's generated texts to `RELEASED_FILE`."""


def text_digest(text: str) -> str:
    """The sha256 of a text, as the tool works on it (LF line ends, no BOM)."""
    normalised = decoded(text.encode("utf-8"), "text")[0]
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


@cache
def released() -> dict[str, frozenset[str]]:
    """Every generated file's path, with the digests of the texts it was given."""
    data = json.loads(RELEASED_FILE.read_text(encoding="utf-8"))
    return {path: frozenset(digests) for path, digests in data.items()}


def is_released(path: str, text: str) -> bool:
    """Whether some version of this package generated `text` for `path`."""
    return text_digest(text) in released().get(path, frozenset())


def edited_by_maintainers(path: str, text: str) -> bool:
    """Whether `text`, found at a generated file's `path`, is not one we generated.

    A missing file ("") and any file the tool does not generate are not.
    """
    return path in released() and bool(text) and not is_released(path, text)


def with_released(texts: dict[str, str]) -> dict[str, list[str]]:
    """The data of `RELEASED_FILE` with the digests of `texts` (path -> text) added.

    Each path keeps its digests in the order they were added.
    """
    data: dict[str, list[str]] = json.loads(RELEASED_FILE.read_text(encoding="utf-8"))
    for path, text in texts.items():
        digests = data.setdefault(path, [])
        if text_digest(text) not in digests:
            digests.append(text_digest(text))
    return data
