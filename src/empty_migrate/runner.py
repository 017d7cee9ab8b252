"""Run codemods: per file, text in and a result out; per eval, all or nothing.

`run_file` takes a file's text and returns a `FileResult`: rewritten,
unchanged, skipped (with the reason) or failed (with the error). A Python
result is formatted with the target's own ruff configuration and must parse
and byte-compile, or it fails. `migrate_eval` runs every codemod an eval's
registry entry asks for; if any file of the eval is skipped or fails, none of
the eval's files change.
"""

import difflib
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import libcst as cst

from empty_migrate.codemods.base import Codemod, EvalTarget, Skip

Status = Literal["rewritten", "unchanged", "skipped", "failed"]


@dataclass(frozen=True)
class FileResult:
    """What the migration did to one file."""

    path: str
    status: Status
    before: str
    after: str
    codemods: tuple[str, ...] = ()
    reason: str | None = None

    def diff(self) -> str:
        """A unified diff that ``git apply`` accepts (empty when unchanged)."""
        if self.before == self.after:
            return ""
        old = "/dev/null" if not self.before else f"a/{self.path}"
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            old,
            f"b/{self.path}",
        )
        header = f"diff --git a/{self.path} b/{self.path}\n"
        if not self.before:
            header += "new file mode 100644\n"
        return header + "".join(lines)


@dataclass
class EvalResult:
    """What the migration did to one eval (or ``(repo)`` for shared files)."""

    eval: str
    files: list[FileResult] = field(default_factory=list)
    reason: str | None = None

    @property
    def status(self) -> Status:
        """The worst status of its files: failed, skipped, rewritten, unchanged."""
        statuses = {f.status for f in self.files}
        for status in ("failed", "skipped", "rewritten"):
            if status in statuses or (status == "skipped" and self.reason):
                return status  # type: ignore[return-value]
        return "unchanged"


class Formatter:
    """Formats Python text with the target's ruff config (isort, then format)."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo

    def format(self, text: str, path: str) -> str:
        """The text as the target's isort fix and ruff format leave it."""
        text = self._ruff(["check", "--select", "I", "--fix", "--quiet"], text, path)
        return self._ruff(["format", "--quiet"], text, path)

    def _ruff(self, args: list[str], text: str, path: str) -> str:
        command = [sys.executable, "-m", "ruff", *args, "--stdin-filename", path, "-"]
        run = subprocess.run(
            command, input=text, capture_output=True, text=True, cwd=self.repo
        )
        if run.returncode not in (0, 1):
            raise RuntimeError(f"ruff {args[0]} failed on {path}: {run.stderr.strip()}")
        return run.stdout


def run_file(
    text: str,
    path: str,
    codemods: Sequence[Codemod],
    target: EvalTarget,
    formatter: Formatter | None = None,
) -> FileResult:
    """Apply `codemods` in order to one file's text.

    Args:
        text: The file's current text ("" for a file that does not exist yet).
        path: Its path from the repo root.
        codemods: The codemods that touch this file, in pipeline order.
        target: The eval being migrated.
        formatter: Formats rewritten Python files; None leaves them as written.

    Returns:
        The `FileResult`; ``after`` equals ``before`` unless rewritten.
    """
    current, applied = text, []
    try:
        for codemod in codemods:
            rewritten = codemod.transform(current, path, target)
            if rewritten != current:
                applied.append(codemod.name)
                current = rewritten
        if current != text and path.endswith(".py"):
            current = _checked_python(current, path, formatter)
    except Skip as skip:
        return FileResult(path, "skipped", text, text, tuple(applied), str(skip))
    except Exception as error:  # a codemod bug must not stop the other evals
        reason = f"{type(error).__name__}: {error}"
        return FileResult(path, "failed", text, text, tuple(applied), reason)
    status: Status = "rewritten" if current != text else "unchanged"
    return FileResult(path, status, text, current, tuple(applied))


def _checked_python(text: str, path: str, formatter: Formatter | None) -> str:
    if formatter is not None:
        text = formatter.format(text, path)
    cst.parse_module(text)
    compile(text, path, "exec")
    return text


def migrate_eval(
    target: EvalTarget,
    codemods: Sequence[Codemod],
    workspace: dict[str, str],
    formatter: Formatter | None = None,
) -> EvalResult:
    """Migrate one eval against `workspace` (path -> current text), all or nothing.

    Files are read from the target tree unless the workspace already holds
    them (an earlier eval in the same run changed them). On success the
    rewritten texts are stored back into the workspace.
    """
    result = EvalResult(target.name)
    code = [c for c in codemods if not c.follows_changes]
    follow_ups = [c for c in codemods if c.follows_changes]
    result.files = _run(target, code, workspace, formatter)
    changed_by = tuple(dict.fromkeys(n for f in result.files for n in f.codemods))
    if changed_by and follow_ups:
        target = replace(target, changed_by=changed_by)
        result.files += _run(target, follow_ups, workspace, formatter)
    blocked = [f for f in result.files if f.status in ("skipped", "failed")]
    if blocked:
        result.reason = "; ".join(f"{f.path}: {f.reason}" for f in blocked)
        result.files = [
            f
            if f in blocked
            else replace(
                f,
                status="skipped",
                after=f.before,
                reason="eval skipped: " + result.reason,
            )
            for f in result.files
            if f.status != "unchanged" or f in blocked
        ]
        return result
    for file in result.files:
        workspace[file.path] = file.after
    return result


def _run(
    target: EvalTarget,
    codemods: Sequence[Codemod],
    workspace: dict[str, str],
    formatter: Formatter | None,
) -> list[FileResult]:
    return [
        run_file(
            workspace.get(path, _read(target.repo / path)),
            path,
            touching,
            target,
            formatter,
        )
        for path, touching in _files_and_codemods(target, codemods)
    ]


def _files_and_codemods(
    target: EvalTarget, codemods: Sequence[Codemod]
) -> list[tuple[str, list[Codemod]]]:
    touching: dict[str, list[Codemod]] = {}
    for codemod in codemods:
        for path in codemod.files(target):
            touching.setdefault(path, []).append(codemod)
    return list(touching.items())


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""
