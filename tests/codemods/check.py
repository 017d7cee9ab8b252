"""`check_transformed`, `check_unchanged`, `check_skipped`: one codemod, one text.

In the manner of django-upgrade's ``check_transformed``/``check_noop`` and
LibCST's ``assertCodemod(expected_skip=...)``: a test states the text before
and what it expects, the helper runs the codemod and, on a mismatch, shows a
unified diff. A `CodemodCheck` binds the codemod to the eval it runs on:

    check = CodemodCheck.on_scorer("wrap_router", tmp_path, entry())
    check.check_transformed(before, after)

`on_scorer` transforms the demo eval's scorer module, the eval built from the
text before (the scan reads it); for another file, give the path and a
function that builds the target.
"""

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from tests.demo import SCORER_PATH, scorer_target, unified_diff


@dataclass(frozen=True)
class CodemodCheck:
    """A codemod, the file it transforms and how the eval around it is built.

    Attributes:
        codemod: The codemod, or its name.
        target: The eval it runs on, built from the text before.
        path: The file transformed, from the repo root.
        dedent: Whether texts are dedented first (they are written indented).
    """

    codemod: "str | Codemod"
    target: Callable[[str], EvalTarget]
    path: str = SCORER_PATH
    dedent: bool = True

    @classmethod
    def on_scorer(cls, codemod: str, root: Path, registry: str) -> "CodemodCheck":
        """`codemod` on the demo eval's scorer module, with this registry entry."""
        return cls(codemod, lambda source: scorer_target(root, source, registry))

    def but(self, **changes: object) -> "CodemodCheck":
        """The same check with other fields (``path``, ``dedent``, ``target``)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def run(self, before: str) -> str:
        """The codemod's output for `before` (raises `Skip` as the codemod does)."""
        text = self._text(before)
        codemod = self.codemod
        if isinstance(codemod, str):
            codemod = implementation(codemod)
        return codemod.transform(text, self.path, self.target(text))

    def check_transformed(self, before: str, after: str, again: bool = True) -> str:
        """`before` comes out as `after`, which compiles (for a ``.py`` file).

        With `again`, a second run on `after` changes nothing. Returns `after`.
        """
        after = self._text(after)
        actual = self.run(before)
        assert actual == after, "\n" + unified_diff(after, actual, self.path)
        if self.path.endswith(".py"):
            compile(actual, self.path, "exec")
        if again:
            rerun = self.run(actual)
            assert rerun == actual, "a second run changed it:\n" + unified_diff(
                actual, rerun, self.path
            )
        return actual

    def check_unchanged(self, before: str) -> None:
        """The codemod leaves `before` exactly as it is."""
        text = self._text(before)
        actual = self.run(before)
        assert actual == text, "\n" + unified_diff(text, actual, self.path)

    def check_skipped(self, before: str, reason: "str | re.Pattern[str]") -> str:
        """The codemod skips `before`, saying `reason` (a part, or a pattern).

        Returns the whole reason.
        """
        with pytest.raises(Skip) as raised:
            actual = self.run(before)
            pytest.fail(
                "expected a skip; the codemod returned, changing:\n"
                + (unified_diff(self._text(before), actual, self.path) or "nothing")
            )
        said = str(raised.value)
        if isinstance(reason, re.Pattern):
            assert reason.search(said), f"{reason.pattern!r} not in {said!r}"
        else:
            assert reason in said, f"{reason!r} not in {said!r}"
        return said

    def dedented(self, text: str) -> str:
        """`text` as the checks read it: dedented, unless told not to."""
        return textwrap.dedent(text) if self.dedent else text

    _text = dedented
