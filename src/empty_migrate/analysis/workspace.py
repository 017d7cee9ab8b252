"""The one reader of a target tree during a run: `Workspace`.

Everything a migration looks at comes through it: the scan, the judge index,
and every codemod (through `EvalTarget.workspace`). It reads a file from the
tree once and keeps the text, and it holds the files the run has changed so
far, so a reader always sees the run's current text of a path: what an earlier
eval of the run left there, else what the tree held when it was first read.
Changing the tree during a run changes nothing the run sees.

Every reader sees a file's text with LF line ends and no byte-order mark
(`empty_migrate.target.text_files`); the file's own form is kept beside it, for
the output to restore. A file that is not UTF-8 raises `NotUtf8`.
"""

import ast
from collections import OrderedDict
from pathlib import Path

from empty_migrate.analysis.syntax import parse_python
from empty_migrate.target.text_files import decoded

_PARSED_TEXTS = 32
"""How many parsed texts a workspace keeps: the scan, the judge index and the
codemods of one eval read the same few files in turn."""


class Workspace(dict[str, str]):
    """The files a run has changed so far (path -> current text), over a tree.

    Paths are from the root of the tree, with ``/``. It also remembers which
    codemods changed each file: an eval whose scorer lives in a helper an
    earlier eval of the run already migrated has had its scoring changed too,
    and gets its own version bump and changelog.

    Args:
        repo: The root of the target tree.
    """

    def __init__(self, repo: Path) -> None:
        super().__init__()
        self.repo = repo
        self.changed_by: dict[str, tuple[str, ...]] = {}
        self._read: dict[str, str] = {}
        self._found: dict[str, str] = {}
        self._listed: dict[str, list[str]] = {}
        self._parsed: OrderedDict[str, ast.Module] = OrderedDict()

    def read(self, path: str) -> str:
        """The run's current text of a file; "" if it does not exist.

        Raises:
            NotUtf8: If the file is not UTF-8 (the message says what to do).
        """
        if path in self:
            return self[path]
        if path not in self._read:
            file = self.repo / path
            text, found = (
                decoded(file.read_bytes(), path) if file.is_file() else ("", None)
            )
            self._read[path] = text
            if found is not None:
                self._found[path] = found
        return self._read[path]

    def found(self, path: str) -> str | None:
        """A file's own text, once read, when its line ends or BOM are not `read`'s.

        None for a file with LF line ends and no BOM, and for a new file.
        """
        return self._found.get(path)

    def python_files(self, folder: str) -> list[str]:
        """The ``.py`` files under a folder of the tree, sorted, as paths."""
        if folder not in self._listed:
            root = self.repo / folder
            self._listed[folder] = [
                path.relative_to(self.repo).as_posix()
                for path in sorted(root.rglob("*.py"))
            ]
        return self._listed[folder]

    def parse(self, text: str, filename: str = "<unknown>") -> ast.Module:
        """`parse_python` of a text, kept for the last few texts.

        The scan, the judge index and the codemods parse the same texts, so
        they share the trees: callers must not change them.

        Raises:
            SyntaxError: If the text does not parse (naming `filename`), or
                nests too deeply (`parse_python`).
        """
        tree = self._parsed.get(text)
        if tree is None:
            tree = parse_python(text, filename)
            self._parsed[text] = tree
            if len(self._parsed) > _PARSED_TEXTS:
                self._parsed.popitem(last=False)
        else:
            self._parsed.move_to_end(text)
        return tree
