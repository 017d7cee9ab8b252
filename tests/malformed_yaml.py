"""Malformed and hostile YAML, for the registry's tests and the target's.

`REGISTRY_CASES` are broken registry files: each writes ``<eval>.yaml`` into a
registry folder (a valid entry spoiled, or something that is no file) and
says the one problem line it must give, after the file's path. `HOSTILE` are
texts a stranger's checkout could hold in a YAML file the tool reads.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.demo import DEMO_ENTRY


def alias_bomb(levels: int = 9) -> str:
    """ "Billion laughs": each level nine aliases of the one before.

    Expanded, the default is 9**9 (387 million) strings: reading it as the
    registry's line-keeping walk did took about a minute and ran out of memory.
    """
    lines = ['lol0: &lol0 "lol"']
    for level in range(1, levels + 1):
        aliases = ", ".join([f"*lol{level - 1}"] * 9)
        lines.append(f"lol{level}: &lol{level} [{aliases}]")
    return "\n".join(lines) + "\n"


ALIAS_BOMB = alias_bomb()
RECURSIVE_ALIAS = "loop: &loop [*loop]\n"
"""An alias inside the collection it names."""
TOO_DEEP = "deep: " + "[" * 1001 + "]" * 1001 + "\n"
"""Nested past libyaml's limit (and past Python's stack, for PyYAML's own parser)."""

HOSTILE = {
    "alias_bomb": ALIAS_BOMB,
    "recursive_alias": RECURSIVE_ALIAS,
    "too_deep": TOO_DEEP,
    "date_that_does_not_exist": "when: 2024-02-30\n",
    "bool_that_is_not": "flag: !!bool maybe\n",
    "int_that_is_not": "count: !!int many\n",
    "timestamp_that_is_not": "when: !!timestamp soon\n",
    "unknown_tag": "name: !custom value\n",
    "python_object": "x: !!python/object/apply:os.system ['true']\n",
    "two_documents": "a: 1\n---\nb: 2\n",
    "syntax_error": "repos: [unclosed\n",
}
"""Texts a YAML reader must refuse (or read safely), by what is wrong with them."""

Write = Callable[[Path], None]


@dataclass(frozen=True)
class RegistryCase:
    """A broken registry file and the problem it gives (its start), after its path."""

    write: Write
    problem: str


def _spoiled(extra: str | bytes) -> Write:
    """`DEMO_ENTRY` (12 lines) with `extra` after it, from line 13."""

    def write(path: Path) -> None:
        tail = extra.encode() if isinstance(extra, str) else extra
        path.write_bytes(DEMO_ENTRY.encode() + tail)

    return write


def _empty(path: Path) -> None:
    path.write_text("")


def _folder(path: Path) -> None:
    path.mkdir()


def _dangling_link(path: Path) -> None:
    path.symlink_to(path.with_name("gone.yaml"))


def _pipe(path: Path) -> None:
    os.mkfifo(path)  # reading it would wait for a writer forever


ALIASES_REFUSED = "a registry file takes no aliases; write the value out"
REGISTRY_CASES = {
    "not_utf8": RegistryCase(
        _spoiled(b"note: caf\xe9\n"),
        ":13: (file): not UTF-8 (byte 0xe9); save it as UTF-8",
    ),
    "syntax_error": RegistryCase(
        _spoiled("note: [unclosed\n"),
        # then libyaml's words or PyYAML's: "did not find expected ',' or ']'"
        ":14: (yaml): while parsing a flow sequence, ",
    ),
    "two_documents": RegistryCase(
        _spoiled("---\nnote: 1\n"),
        ":13: (yaml): expected a single document in the stream, "
        "but found another document",
    ),
    "duplicate_key": RegistryCase(
        _spoiled("category: safety\n"),
        ":13: category: duplicate key (the first is on line 1)",
    ),
    "mapping_key": RegistryCase(
        _spoiled("? {a: 1}\n: x\n"), ":13: (entry): a key is a mapping, not a name"
    ),
    "list_key": RegistryCase(
        _spoiled("? [a, b]\n: x\n"), ":13: (entry): a key is a list, not a name"
    ),
    "recursive_alias": RegistryCase(
        _spoiled(RECURSIVE_ALIAS), f":13: (yaml): alias *loop: {ALIASES_REFUSED}"
    ),
    "alias_bomb": RegistryCase(
        _spoiled(ALIAS_BOMB), f":14: (yaml): alias *lol0: {ALIASES_REFUSED}"
    ),
    "date_that_does_not_exist": RegistryCase(
        _spoiled("note: 2024-02-30\n"),
        ":13: note: '2024-02-30' is not a valid timestamp; quote it to keep it text",
    ),
    "bool_that_is_not": RegistryCase(
        _spoiled("note: !!bool maybe\n"),
        ":13: note: 'maybe' is not a valid bool; quote it to keep it text",
    ),
    "unknown_tag": RegistryCase(
        _spoiled("note: !custom value\n"),
        ":13: note: could not determine a constructor for the tag '!custom'",
    ),
    "nested_too_deep": RegistryCase(
        _spoiled("note: " + "[" * 60 + "]" * 60 + "\n"),
        ":13: (entry): nested deeper than 50 levels",
    ),
    "empty": RegistryCase(_empty, ":1: (file): empty registry entry"),
    "folder": RegistryCase(_folder, ": not a file; an entry is a file <eval>.yaml"),
    "pipe": RegistryCase(_pipe, ": not a file; an entry is a file <eval>.yaml"),
    "dangling_link": RegistryCase(
        _dangling_link, ": cannot be read: No such file or directory"
    ),
}
"""Every way a registry file can be malformed, as ``demo.yaml``."""
