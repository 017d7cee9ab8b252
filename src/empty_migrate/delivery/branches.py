"""Split a migration run into a foundation branch and small branches on it.

The foundation holds every file the evals' migrations share: a file its
codemods declare shared (the router module, the emitted tests' helper, both
new, so no eval scores through them until its own branch calls them), and
any file the migrations of more than one group of evals rewrite. Each eval's branch is
built on the foundation and holds only that eval's own files: its folder
under ``src/inspect_evals/``, ``tests/<eval>/`` and its ``changelog.d/``
fragment. So a reviewer reads the shared code once, in the foundation's pull
request, and the eval branches merge after it in any order and any subset.

Evals the run migrated together, as one unit of the plan
(`empty_migrate.pipeline.plan`), get one branch, named for the module they
share, that holds it with their own files: the AIME family with
``utils/aime_common.py``, the last callers of ``preset_score_on_no_response``
with ``utils/scorers.py``. A branch for one of them, or the module in the
foundation, would change the others' scores without their version bumps.
"""

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from empty_migrate.errors import EmptyMigrateError, ExitCode
from empty_migrate.pipeline.comment_review import ReviewNote
from empty_migrate.pipeline.migrate import RunResult, is_shared
from empty_migrate.pipeline.runner import EvalResult, FileResult
from empty_migrate.target.text_files import restored

PREFIX = "empty-policy/"
"""Every branch the campaign makes is named under this prefix."""
FOUNDATION = "foundation"
"""The key of the branch of the shared files, which every other one is built on."""


class PlanError(EmptyMigrateError):
    """The run cannot be split into branches; the message says why."""

    exit_code = ExitCode.TOOL_ERROR


@dataclass(frozen=True)
class Branch:
    """One branch to make: its name, the evals it migrates, its files' texts.

    Attributes:
        key: The name after the prefix: the eval, the shared scorer module's
            stem, or `FOUNDATION`.
        evals: The evals whose migration it holds (none for the foundation).
        files: Every file it changes against its base, by path, with its final text.
        results: The run's result for each of `evals`.
        before: Each changed file's text at the campaign's base ("" for a new file).
        note: Why the branch is not a plain one-eval branch, if it is not.
        callers: For the foundation, the eval packages whose code at the base
            calls a definition it changes (their scores change through it).
        found: The base's own text of each of `files` whose line ends or BOM
            the migration saw normalized (see `contents`).
        on: The key of the branch it is built on (None: the campaign's base).
    """

    key: str
    evals: tuple[str, ...]
    files: dict[str, str]
    results: tuple[EvalResult, ...]
    before: dict[str, str]
    note: str | None = None
    callers: tuple[str, ...] = ()
    found: dict[str, str] = field(default_factory=dict)
    on: str | None = None

    @property
    def name(self) -> str:
        """The git branch name, ``empty-policy/<key>``."""
        return PREFIX + self.key

    @property
    def is_foundation(self) -> bool:
        """Whether it is the branch of the shared files."""
        return self.key == FOUNDATION and not self.evals

    def contents(self) -> dict[str, str]:
        """Its files' final texts as committed: in their own line ends and BOM."""
        return {
            path: restored(self.found.get(path), t) for path, t in self.files.items()
        }

    def changed_files(self) -> list[str]:
        """The paths it changes against its base, sorted."""
        return sorted(self.files)

    def review(self) -> list[tuple[str, ReviewNote]]:
        """(path, note) of each comment on code its evals' migration changed."""
        return [
            (path, note)
            for result in self.results
            for path, note in result.review
            if path in self.files
        ]


def plan_branches(run: RunResult, base: Path) -> list[Branch]:
    """The branches for `run`, computed against the base tree at `base`.

    The foundation comes first, when the run changes a shared file; every
    other branch is built on it. Evals with no changes (skipped, failed,
    already migrated) get none.

    Raises:
        PlanError: If two branches would have the same name.
    """
    final = run.changed_files()
    firsts = _first_rewrites(run)
    before = {path: file.before for path, file in firsts.items()}
    by_name = {result.eval: result for result in run.evals}
    changed_groups = [
        [by_name[n] for n in group if by_name[n].status == "rewritten"]
        for group in run.groups
    ]
    changed_groups = [group for group in changed_groups if group]
    common = foundation_paths(run, changed_groups)
    branches: list[Branch] = []
    if common:
        branches.append(_foundation(common, final, before, base))
    on = FOUNDATION if common else None
    for group in changed_groups:
        branches.append(_eval_branch(group, final, common, before, on))
    found = run.found_texts()
    branches = [
        replace(b, found={p: found[p] for p in b.files if p in found}) for b in branches
    ]
    names = [branch.name for branch in branches]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:  # a helper's stem that is also an eval's name, say
        raise PlanError(
            f"two branches would be named {', '.join(clashes)}: migrate those "
            "evals in separate runs"
        )
    return branches


def foundation_paths(run: RunResult, groups: list[list[EvalResult]]) -> set[str]:
    """The rewritten paths every branch builds on.

    A path is the foundation's when a codemod that rewrote it declares it a
    file every migrated eval shares, or when the migrations of evals in more
    than one group rewrote it; any other path goes with its group.
    """
    writers: dict[str, set[int]] = {}
    declared: set[str] = set()
    for number, group in enumerate(groups):
        for result in group:
            for file in result.files:
                if file.status != "rewritten":
                    continue
                writers.setdefault(file.path, set()).add(number)
                if is_shared(file):
                    declared.add(file.path)
    return declared | {path for path, seen in writers.items() if len(seen) > 1}


def _first_rewrites(run: RunResult) -> dict[str, FileResult]:
    """Each rewritten path's first rewrite, which holds its text at the base."""
    firsts: dict[str, FileResult] = {}
    for result in run.evals:
        for file in result.files:
            if file.status == "rewritten":
                firsts.setdefault(file.path, file)
    return firsts


def _eval_branch(
    results: list[EvalResult],
    final: dict[str, str],
    common: set[str],
    before: dict[str, str],
    on: str | None,
) -> Branch:
    own = {
        f.path
        for result in results
        for f in result.files
        if f.status == "rewritten" and f.path not in common
    }
    evals = tuple(result.eval for result in results)
    key, note = evals[0], None
    if len(evals) > 1:
        helpers = sorted(p for p in own if not belongs_to_any(p, evals))
        key = "+".join(PurePosixPath(p).stem for p in helpers) or "+".join(evals)
        note = (
            f"{', '.join(evals)} share {', '.join(f'`{h}`' for h in helpers)}: "
            "one branch migrates them together, so each gets its version bump "
            "and changelog entry with the change to its scores"
        )
    files = {path: final[path] for path in own}
    return Branch(
        key,
        evals,
        files,
        tuple(results),
        {path: before[path] for path in files},
        note,
        on=on,
    )


def _foundation(
    common: set[str], final: dict[str, str], before: dict[str, str], base: Path
) -> Branch:
    callers: set[str] = set()
    changes = []
    for path in sorted(p for p in common if before[p] and p.endswith(".py")):
        names = changed_definitions(before[path], final[path])
        callers.update(_callers(base, path, names))
        if names:
            listed = ", ".join(f"`{name}`" for name in names)
            changes.append(f"{listed} in `{path}`")
    note = None
    if changes:
        note = f"changes {'; '.join(changes)}, which evals share; " + (
            f"the evals that call it today ({', '.join(sorted(callers))}) score "
            "differently through it until their own branches replace the call: "
            "merge theirs soon after this one"
            if callers
            else "no eval calls it today"
        )
    files = {p: final[p] for p in common}
    return Branch(
        FOUNDATION,
        (),
        files,
        (),
        {p: before[p] for p in files},
        note,
        tuple(sorted(callers)),
    )


def belongs_to_any(path: str, evals: Iterable[str]) -> bool:
    """Whether `path` is one of the evals' own files (or a changelog fragment)."""
    return path.startswith("changelog.d/") or any(
        path.startswith((f"src/inspect_evals/{name}/", f"tests/{name}/"))
        for name in evals
    )


def module_paths(module: str) -> list[str]:
    """Where a module's file would be, under ``src/`` or at the root."""
    stem = module.replace(".", "/")
    return [
        f"{root}{stem}{suffix}"
        for root in ("src/", "")
        for suffix in (".py", "/__init__.py")
    ]


def changed_definitions(before: str, after: str) -> list[str]:
    """The top-level functions and classes whose source differs between two texts."""

    def definitions(text: str) -> dict[str, str]:
        tree = ast.parse(text)
        return {
            node.name: ast.unparse(node)
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }

    old, new = definitions(before), definitions(after)
    return sorted(name for name in old if old[name] != new.get(name))


def _callers(base: Path, path: str, names: list[str]) -> list[str]:
    """The eval packages whose code at the base names one of `names`."""
    package = base / "src" / "inspect_evals"
    callers = set()
    for file in package.glob("*/**/*.py"):
        relative = file.relative_to(base).as_posix()
        if relative == path or not names:
            continue
        text = file.read_text(encoding="utf-8", errors="replace")
        if any(name in text for name in names):
            callers.add(file.relative_to(package).parts[0])
    return sorted(callers - {"utils"})
