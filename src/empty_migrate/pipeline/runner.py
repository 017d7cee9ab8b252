"""Run codemods: per file, text in and a result out; per eval, all or nothing.

`run_file` takes a file's text and returns a `FileResult`: rewritten,
unchanged, skipped (with the reason) or failed (with the error). A Python
result is formatted with the target's own ruff configuration and must parse
and byte-compile, or it fails. `migrate_eval` runs every codemod an eval's
registry entry asks for; if any file of the eval is skipped or fails, none of
the eval's files change.
"""

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from empty_migrate.analysis.syntax import NestedTooDeeply
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.codemods import declared
from empty_migrate.codemods.changelog.text import scoring_changes
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.pipeline.comment_review import CommentReview, ReviewNote
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.target.files import linked_part
from empty_migrate.target.text_files import NotUtf8, lines, restored

__all__ = ["EvalResult", "FileResult", "migrate_eval", "run_file"]

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
    found: str | None = None
    """The file's own text in the tree, when its line ends or BOM are not the
    LF, BOM-less ones of ``before`` and ``after`` (see `written`)."""

    def written(self) -> str:
        """``after`` as it is output: in the file's own line ends and BOM."""
        return restored(self.found, self.after)

    def diff(self) -> str:
        """A unified diff that ``git apply`` accepts (empty when unchanged).

        It is a diff of the file's bytes, CRLF line ends and BOM included: it
        applies to the file as it is, and gives what a write gives.
        """
        if self.before == self.after:
            return ""
        old = "/dev/null" if not self.before else f"a/{self.path}"
        diff = difflib.unified_diff(
            lines(restored(self.found, self.before)),
            lines(self.written()),
            old,
            f"b/{self.path}",
        )
        header = f"diff --git a/{self.path} b/{self.path}\n"
        if not self.before:
            header += "new file mode 100644\n"
        return header + "".join(map(_terminated, diff))


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
        crashed: Whether the tool failed on the eval itself (an error outside
            any one file's codemods): it is ``failed``, with `reason`.
        scoring: What the migration changes in its scoring, line by line.
        tests_updated: The target tests the migration updated on purpose.
    """

    eval: str
    files: list[FileResult] = field(default_factory=list)
    reason: str | None = None
    scoring: list[str] = field(default_factory=list)
    tests_updated: list[str] = field(default_factory=list)
    crashed: bool = False

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
        statuses = {f.status for f in self.files} | (
            {"failed"} if self.crashed else set()
        )
        for status in ("failed", "skipped", "rewritten"):
            if status in statuses or (status == "skipped" and self.reason):
                return status
        return "unchanged"


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
    review = (
        CommentReview(text, target.workspace.parse) if path.endswith(".py") else None
    )
    try:
        for codemod in codemods:
            rewritten = codemod.transform(current, path, target)
            if rewritten != current:
                applied.append(codemod.name)
                current = rewritten
                if review is not None:
                    review.rewritten(current, codemod.name)
        if current != text and path.endswith(".py"):
            current = _checked_python(current, path, formatter, target)
            if review is not None:
                review.rewritten(current, None)
    except Skip as skip:
        return FileResult(path, "skipped", text, text, tuple(applied), str(skip))
    except NotUtf8:
        raise  # a file the eval needs cannot be read: the eval is skipped whole
    except Exception as error:  # a codemod bug must not stop the other evals
        if (reason := _parse_failure(error)) is not None:
            return FileResult(path, "skipped", text, text, tuple(applied), reason)
        reason = f"{type(error).__name__}: {error}"
        return FileResult(path, "failed", text, text, tuple(applied), reason)
    if current == text:
        return FileResult(path, "unchanged", text, current, tuple(applied))
    notes = review.notes() if review else ()
    return FileResult(path, "rewritten", text, current, tuple(applied), None, notes)


def _parse_failure(error: Exception) -> str | None:
    """Why the file could not be parsed, if that is what `error` says."""
    # imported here: LibCST is loaded only by codemods that rewrite through it
    from libcst import ParserSyntaxError

    if isinstance(error, ParserSyntaxError):
        return f"does not parse (line {error.raw_line}): {error.message}"
    if isinstance(error, NestedTooDeeply):
        return f"does not parse: {error}"
    return None


def _checked_python(
    text: str, path: str, formatter: Formatter | None, target: EvalTarget
) -> str:
    """The text, formatted if a formatter is given; raises SyntaxError if broken."""
    if formatter is None:
        # a run formats in one batch at its end, and byte-compiles the result
        target.workspace.parse(text, path)
        return text
    text = formatter.format(text, path)
    compile(text, path, "exec")  # parses and byte-compiles
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
        target = replace(target, changed_by=declared(changed_by))
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
    result.files = [_refused_if_linked(f, workspace) for f in result.files]
    blocked = [f for f in result.files if f.status in ("skipped", "failed")]
    if blocked:
        result.reason = _blocked_reason(blocked)
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


def _blocked_reason(blocked: list[FileResult]) -> str:
    """Why an eval was stopped: each reason once, after the files it stopped."""
    paths: dict[str | None, list[str]] = {}
    for file in blocked:
        paths.setdefault(file.reason, []).append(file.path)
    return "; ".join(f"{', '.join(p)}: {reason}" for reason, p in paths.items())


def _refused_if_linked(file: FileResult, workspace: Workspace) -> FileResult:
    """A rewrite of a file reached through a symbolic link is skipped.

    Writing it would change a file outside the tree, or replace the link with
    a plain file: the eval is skipped instead, whether this run writes or not.
    """
    if file.status != "rewritten":
        return file
    linked = linked_part(workspace.repo, file.path)
    if linked is None:
        return file
    reason = f"{linked} is a symbolic link: migrate the files where they live"
    return replace(file, status="skipped", after=file.before, reason=reason, review=())


def _run(
    target: EvalTarget,
    codemods: Sequence[Codemod],
    workspace: Workspace,
    formatter: Formatter | None,
) -> list[FileResult]:
    results = []
    for path, touching in _files_and_codemods(target, codemods):
        result = run_file(workspace.read(path), path, touching, target, formatter)
        found = workspace.found(path)
        results.append(result if found is None else replace(result, found=found))
    return results


def _files_and_codemods(
    target: EvalTarget, codemods: Sequence[Codemod]
) -> list[tuple[str, list[Codemod]]]:
    touching: dict[str, list[Codemod]] = {}
    for codemod in codemods:
        for path in codemod.files(target):
            touching.setdefault(path, []).append(codemod)
    return list(touching.items())
