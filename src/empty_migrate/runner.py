"""Run codemods: per file, text in and a result out; per eval, all or nothing.

`run_file` takes a file's text and returns a `FileResult`: rewritten,
unchanged, skipped (with the reason) or failed (with the error). A Python
result is formatted with the target's own ruff configuration and must parse
and byte-compile, or it fails. `migrate_eval` runs every codemod an eval's
registry entry asks for; if any file of the eval is skipped or fails, none of
the eval's files change.
"""

import difflib
import functools
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import libcst as cst

from empty_migrate.codemods._changelog_text import scoring_changes
from empty_migrate.codemods.base import Codemod, EvalTarget, Skip
from empty_migrate.comment_review import CommentReview, ReviewNote
from empty_migrate.ruff_tool import Ruff, ruff_for
from empty_migrate.workspace import Workspace

__all__ = ["EvalResult", "FileResult", "Formatter", "Workspace", "migrate_eval"]

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
    review: tuple[ReviewNote, ...] = ()
    """Comments on code the codemods changed, at their lines in ``after``."""

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
        return header + "".join(map(_terminated, lines))


def _terminated(line: str) -> str:
    """A diff line ends in a newline; a file's unterminated last line says so."""
    if line.endswith("\n"):
        return line
    return f"{line}\n\\ No newline at end of file\n"


@dataclass
class EvalResult:
    """What the migration did to one eval.

    Attributes:
        eval: The eval's name.
        files: What happened to each file it touched.
        reason: Why it was skipped or failed, if it was.
        scoring: What the migration changes in its scoring, line by line.
        tests_updated: The target tests the migration updated on purpose.
    """

    eval: str
    files: list[FileResult] = field(default_factory=list)
    reason: str | None = None
    scoring: list[str] = field(default_factory=list)
    tests_updated: list[str] = field(default_factory=list)

    @property
    def review(self) -> list[tuple[str, ReviewNote]]:
        """(path, note) of each comment on changed code in its rewritten files."""
        return [
            (f.path, note)
            for f in self.files
            if f.status == "rewritten"
            for note in f.review
        ]

    @property
    def status(self) -> Status:
        """The worst status of its files: failed, skipped, rewritten, unchanged."""
        statuses = {f.status for f in self.files}
        for status in ("failed", "skipped", "rewritten"):
            if status in statuses or (status == "skipped" and self.reason):
                return status  # type: ignore[return-value]
        return "unchanged"


class FormatterError(Exception):
    """The target's formatter could not run; the message says why."""


class Formatter:
    """Formats Python text as the target's ruff does (isort, then format).

    The ruff is the version the target pins, with the target's configuration
    (see `empty_migrate.ruff_tool`); it is chosen on first use.
    """

    def __init__(self, repo: Path) -> None:
        self.repo = repo

    @functools.cached_property
    def ruff(self) -> Ruff:
        """The ruff that formats, and a notice if it is not the pinned one."""
        return ruff_for(self.repo)

    def format(self, text: str, path: str) -> str:
        """The text as the target's isort fix and ruff format leave it."""
        return self.format_all({path: text})[path]

    def format_all(self, texts: dict[str, str]) -> dict[str, str]:
        """Format many files with two ruff runs in all (a process per file is slow).

        The files are written into a scratch tree beside a copy of the target's
        ruff configuration, so paths, first-party detection and per-file rules
        are the target's own.
        """
        if not texts:
            return {}
        with tempfile.TemporaryDirectory(prefix="empty-migrate-") as scratch:
            root = Path(scratch)
            for config in ("pyproject.toml", "ruff.toml", ".ruff.toml"):
                if (self.repo / config).is_file():
                    shutil.copy(self.repo / config, root / config)
            self._mirror_packages(root, texts)
            for path, text in texts.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text, encoding="utf-8")
            self._ruff(["check", "--select", "I", "--fix", "--quiet"], root, texts)
            self._ruff(["format", "--quiet"], root, texts)
            return {p: (root / p).read_text(encoding="utf-8") for p in texts}

    def _mirror_packages(self, root: Path, texts: dict[str, str]) -> None:
        # isort calls an import first-party when its module's path exists under
        # a `src` root, or when it is in the formatted file's own package, so
        # the scratch tree needs those paths (not their content): empty
        # stand-ins for each imported module and for the packages' __init__.py
        packages = {package for path in texts for package in Path(path).parents}
        for package in packages:
            self._mirror(root, package / "__init__.py")
        modules = set().union(*map(_imported_modules, texts.values()))
        prefixes = {
            Path("src", *parts[:depth])
            for parts in (module.split(".") for module in modules)
            for depth in range(1, len(parts) + 1)
        }
        for relative in sorted(prefixes):  # a package before its modules
            if (self.repo / relative).is_dir():
                (root / relative).mkdir(parents=True, exist_ok=True)
                self._mirror(root, relative / "__init__.py")
            else:
                self._mirror(root, relative.with_suffix(".py"))

    def _mirror(self, root: Path, relative: Path) -> bool:
        """Create an empty stand-in for a file that exists in the target."""
        if not (self.repo / relative).is_file():
            return False
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).touch()
        return True

    def _ruff(self, args: list[str], root: Path, texts: dict[str, str]) -> None:
        # --force-exclude off: a migrated file must be formatted even if excluded
        command = [*self.ruff.command, *args, "--no-cache", *texts]
        try:
            run = subprocess.run(command, capture_output=True, text=True, cwd=root)
        except OSError as error:
            raise FormatterError(f"cannot run ruff ({error})") from None
        if run.returncode not in (0, 1):
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise FormatterError(f"ruff {args[0]} failed: {last}")


_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;]+)", re.M)


def _imported_modules(text: str) -> set[str]:
    """The absolute modules a file imports (a superset: lines in strings count)."""
    modules = set(_FROM_IMPORT.findall(text))
    for names in _IMPORT.findall(text):
        modules |= {part.split()[0] for part in names.split(",") if part.split()}
    return modules


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
    review = CommentReview(text) if path.endswith(".py") else None
    try:
        for codemod in codemods:
            rewritten = codemod.transform(current, path, target)
            if rewritten != current:
                applied.append(codemod.name)
                current = rewritten
                if review is not None:
                    review.rewritten(current, codemod.name)
        if current != text and path.endswith(".py"):
            current = _checked_python(current, path, formatter)
            if review is not None:
                review.rewritten(current, None)
    except Skip as skip:
        return FileResult(path, "skipped", text, text, tuple(applied), str(skip))
    except cst.ParserSyntaxError as error:
        reason = f"does not parse (line {error.raw_line}): {error.message}"
        return FileResult(path, "skipped", text, text, tuple(applied), reason)
    except Exception as error:  # a codemod bug must not stop the other evals
        reason = f"{type(error).__name__}: {error}"
        return FileResult(path, "failed", text, text, tuple(applied), reason)
    if current == text:
        return FileResult(path, "unchanged", text, current, tuple(applied))
    notes = review.notes() if review else ()
    return FileResult(path, "rewritten", text, current, tuple(applied), None, notes)


def _checked_python(text: str, path: str, formatter: Formatter | None) -> str:
    if formatter is not None:
        text = formatter.format(text, path)
    compile(text, path, "exec")  # parses and byte-compiles; raises SyntaxError
    return text


def migrate_eval(
    target: EvalTarget,
    codemods: Sequence[Codemod],
    workspace: Workspace,
    formatter: Formatter | None = None,
) -> EvalResult:
    """Migrate one eval against `workspace`, all or nothing.

    Every file is read through the workspace, the codemods' own reads
    included (the target is bound to it), so an earlier eval's rewrite in the
    same run is what a later one sees. On success the rewritten texts are
    stored back into the workspace.
    """
    target = replace(target, workspace=workspace)
    result = EvalResult(target.name)
    code = [c for c in codemods if not c.follows_changes]
    follow_ups = [c for c in codemods if c.follows_changes]
    result.files = _run(target, code, workspace, formatter)
    shared = {c.name for c in code if c.repo_level}
    changed_by = tuple(
        dict.fromkeys(
            name
            for f in result.files
            for name in (*workspace.changed_by.get(f.path, ()), *f.codemods)
            if name not in shared
        )
    )
    if changed_by:
        target = replace(target, changed_by=changed_by)
        result.scoring = scoring_changes(target)
    if changed_by and follow_ups:
        result.files += _run(target, follow_ups, workspace, formatter)
        result.tests_updated = [
            update.test
            for update in target.entry.test_updates
            if any(
                f.status == "rewritten" and f.path == update.file for f in result.files
            )
        ]
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
                review=(),
            )
            for f in result.files
            if f.status != "unchanged" or f in blocked
        ]
        return result
    for file in result.files:
        workspace[file.path] = file.after
        if file.status == "rewritten":
            names = (*workspace.changed_by.get(file.path, ()), *file.codemods)
            workspace.changed_by[file.path] = tuple(dict.fromkeys(names))
    return result


def _run(
    target: EvalTarget,
    codemods: Sequence[Codemod],
    workspace: Workspace,
    formatter: Formatter | None,
) -> list[FileResult]:
    return [
        run_file(workspace.read(path), path, touching, target, formatter)
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
