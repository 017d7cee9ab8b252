"""Split a migration run into branches that each stand alone.

One branch per eval with changes: its own files (scorers, tests, eval.yaml,
README, changelog fragment) plus the shared files its code imports (the
router module, the emitted tests' helper), so every branch can be merged on
its own and in any order: branches that add the same shared file add it
byte for byte alike, which git merges cleanly.

Two cases are made explicit rather than hidden in an eval's branch:

- evals the run migrated together because they share a scorer helper (the
  AIME family's ``utils/aime_common.py``) get one branch, named for the helper:
  a branch for one of them would change the others' scores without their
  version bumps;
- an existing file every eval shares that the run changes but no eval's code
  needs (the deprecated ``preset_score_on_no_response`` becoming a shim over
  the router) gets a branch of its own. It changes the scores of the evals
  that still call it, so its note names them: merge it after their branches.
"""

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from empty_migrate.pipeline.comment_review import ReviewNote
from empty_migrate.pipeline.migrate import RunResult, is_shared
from empty_migrate.pipeline.runner import EvalResult, FileResult
from empty_migrate.source import syntax
from empty_migrate.target.text_files import restored

PREFIX = "empty-policy/"
"""Every branch the campaign makes is named under this prefix."""


class PlanError(Exception):
    """The run cannot be split into branches; the message says why."""


@dataclass(frozen=True)
class Branch:
    """One branch to make: its name, the evals it migrates, its files' texts.

    Attributes:
        key: The name after the prefix: the eval, the shared helper's stem,
            or the shared module's dotted name.
        evals: The evals whose migration it holds (none for a shared module).
        files: Every file it changes, by path, with its final text.
        shared: The paths among `files` that other branches change alike.
        results: The run's result for each of `evals`.
        before: Each changed file's text at the base ("" for a new file).
        note: Why the branch is not a plain one-eval branch, if it is not.
        callers: For a shared module's branch, the eval packages whose code
            calls what it changes (merge it after theirs).
        found: The base's own text of each of `files` whose line ends or BOM
            the migration saw normalized (see `contents`).
    """

    key: str
    evals: tuple[str, ...]
    files: dict[str, str]
    shared: tuple[str, ...]
    results: tuple[EvalResult, ...]
    before: dict[str, str]
    note: str | None = None
    callers: tuple[str, ...] = ()
    found: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The git branch name, ``empty-policy/<key>``."""
        return PREFIX + self.key

    def contents(self) -> dict[str, str]:
        """Its files' final texts as committed: in their own line ends and BOM."""
        return {
            path: restored(self.found.get(path), t) for path, t in self.files.items()
        }

    def changed_files(self) -> list[str]:
        """The paths it changes, its own first, then the shared ones."""
        own = sorted(p for p in self.files if p not in self.shared)
        return own + sorted(self.shared)

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

    Evals with no changes (skipped, failed, already migrated) get none.

    Raises:
        PlanError: If two branches would have the same name.
    """
    final = run.changed_files()
    firsts = _first_rewrites(run)
    shared = {path for path, file in firsts.items() if is_shared(file)}
    before = {path: file.before for path, file in firsts.items()}
    by_name = {result.eval: result for result in run.evals}
    branches: list[Branch] = []
    for group in run.groups:
        changed = [by_name[n] for n in group if by_name[n].status == "rewritten"]
        if changed:
            branches.append(_eval_branch(changed, final, shared, before))
    needed = {path for branch in branches for path in branch.shared}
    for path in sorted(shared - needed):
        if before[path]:  # an existing file changed for everyone
            branches.append(_shared_branch(path, final, shared, before, base))
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
    shared: set[str],
    before: dict[str, str],
) -> Branch:
    own = {
        f.path
        for result in results
        for f in result.files
        if f.status == "rewritten" and f.path not in shared
    }
    needs = needed_shared(own, final, shared, before)
    evals = tuple(result.eval for result in results)
    key, note = evals[0], None
    if len(evals) > 1:
        helpers = sorted(p for p in own if not _belongs_to_any(p, evals))
        key = "+".join(PurePosixPath(p).stem for p in helpers) or "+".join(evals)
        note = (
            f"{', '.join(evals)} share {', '.join(f'`{h}`' for h in helpers)}: "
            "one branch migrates them together, so each gets its version bump "
            "and changelog entry with the change to its scores"
        )
    files = {path: final[path] for path in own | needs}
    return Branch(
        key,
        evals,
        files,
        tuple(sorted(needs)),
        tuple(results),
        {path: before[path] for path in files},
        note,
    )


def _shared_branch(
    path: str,
    final: dict[str, str],
    shared: set[str],
    before: dict[str, str],
    base: Path,
) -> Branch:
    needs = needed_shared({path}, final, shared, before) - {path}
    module = module_name(path)
    changed = changed_definitions(before[path], final[path])
    callers = tuple(_callers(base, path, changed))
    names = ", ".join(f"`{name}`" for name in changed)
    note = f"changes {names} in `{path}`, which evals share; " + (
        f"the evals that call it today ({', '.join(callers)}) score differently "
        "through it until their own branches replace the call: merge this "
        "branch after theirs"
        if callers
        else "no eval calls it today"
    )
    files = {p: final[p] for p in {path} | needs}
    return Branch(
        module.removeprefix("inspect_evals."),
        (),
        files,
        tuple(sorted(needs)),
        (),
        {p: before[p] for p in files},
        note,
        callers,
    )


def _belongs_to_any(path: str, evals: Iterable[str]) -> bool:
    """Whether `path` is one of the evals' own files (or a changelog fragment)."""
    return path.startswith("changelog.d/") or any(
        path.startswith((f"src/inspect_evals/{name}/", f"tests/{name}/"))
        for name in evals
    )


def needed_shared(
    paths: Iterable[str],
    texts: dict[str, str],
    shared: set[str],
    before: dict[str, str],
) -> set[str]:
    """The shared files that the Python files in `paths` need, transitively.

    A new shared file (the router module) is needed when it is imported. An
    existing one (``utils/scorers.py``, which many evals import for other
    helpers) is needed only when the importing code names a definition the
    run changed in it: a branch must not carry a change its eval does not use.
    """
    changed = {
        path: changed_definitions(before[path], texts[path])
        for path in shared
        if before[path]
    }
    found: set[str] = set()
    pending = [p for p in paths if p.endswith(".py")]
    while pending:
        path = pending.pop()
        for module in imported_modules(texts[path], path):
            for candidate in module_paths(module):
                if candidate not in shared or candidate in found:
                    continue
                names = changed.get(candidate)
                if names is None or any(name in texts[path] for name in names):
                    found.add(candidate)
                    pending.append(candidate)
    return found


def imported_modules(text: str, path: str) -> set[str]:
    """Every module the file at `path` could import (see `syntax.imported_modules`)."""
    package = module_name(path).rpartition(".")[0]
    return syntax.imported_modules(ast.parse(text), package)


def module_paths(module: str) -> list[str]:
    """Where a module's file would be, under ``src/`` or at the root."""
    stem = module.replace(".", "/")
    return [
        f"{root}{stem}{suffix}"
        for root in ("src/", "")
        for suffix in (".py", "/__init__.py")
    ]


def module_name(path: str) -> str:
    """``src/inspect_evals/utils/scorers.py`` -> ``inspect_evals.utils.scorers``."""
    parts = PurePosixPath(path.removeprefix("src/")).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


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
