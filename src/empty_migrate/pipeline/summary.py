"""What a migration run says on stderr when it is done, at each level of detail.

By default a few lines in plain words: how many evals change (and how many
files), the evals left as they are (those the registry leaves grouped by
name, any other with its reason, as that is for the user to act on), each
failed eval, the comments to read, and what to do next. ``--verbose`` gives
each eval's line, what changes in its scoring, its updated tests and its
comments (`detailed_lines`), as the JSON report carries them; ``--quiet``
only the failed evals (`failed_lines`).
"""

from collections.abc import Iterator
from typing import Literal

from empty_migrate.pipeline.migrate import RunResult
from empty_migrate.pipeline.plan import Plan
from empty_migrate.pipeline.runner import EvalResult
from empty_migrate.registry.loader import Registry

Mode = Literal["dry-run", "check", "write"]
"""The kind of run: a diff printed, a check, or the changes written."""

_LEFT_BY_REGISTRY = {
    "none": "nothing to rewrite in",
    "manual": "left to a person in",
}
"""What an entry's ``codemods: none|manual`` means, for the evals it leaves."""


def detailed_lines(run: RunResult, plan: Plan, mode: Mode) -> list[str]:
    """Each eval's line and what changes in it, then the totals (``--verbose``)."""
    return [*_eval_lines(run), totals_line(run, plan, mode)]


def _eval_lines(run: RunResult) -> Iterator[str]:
    for result in run.evals:
        yield _status_line(result)
        if result.status == "rewritten":
            yield from (f"  {change}" for change in result.scoring)
            yield from (f"  updated test {test}" for test in result.tests_updated)
            yield from (
                f"  review: {note.describe(path)}" for path, note in result.review
            )


def _status_line(result: EvalResult) -> str:
    if result.status == "rewritten":
        rewritten = [f for f in result.files if f.status == "rewritten"]
        codemods = sorted({c for f in rewritten for c in f.codemods})
        line = f"{len(rewritten)} file(s): {', '.join(codemods)}"
    elif result.status in ("skipped", "failed"):
        line = result.reason or ""
    else:
        line = "already migrated"
    return f"{result.eval}: {result.status}: {line}"


def totals_line(run: RunResult, plan: Plan, mode: Mode) -> str:
    """The run's counts by status and the files it changes, in one line."""
    verb = "changed" if mode == "write" else "would change"
    counts = ", ".join(
        f"{run.count(s)} {s}" for s in ("rewritten", "unchanged", "skipped", "failed")
    )
    files = len(run.changed_files())
    unknown = f", {len(plan.unknown)} not in the registry" if plan.unknown else ""
    return f"{len(run.evals)} evals: {counts}{unknown}; {verb} {files} file(s)"


def failed_lines(run: RunResult) -> list[str]:
    """One line for each eval the tool failed on, with the reason (``--quiet``)."""
    return [_status_line(r) for r in run.evals if r.status == "failed"]


def short_lines(
    run: RunResult, plan: Plan, registry: Registry, mode: Mode
) -> list[str]:
    """The default summary: counts, what is left and why, what to do next."""
    lines = [_counts(run, mode)]
    left_by_registry: dict[str, list[str]] = {}
    for result in run.evals:
        said = _registry_word(registry, result)
        if said in _LEFT_BY_REGISTRY:
            left_by_registry.setdefault(said, []).append(result.eval)
        elif result.status in ("skipped", "failed"):
            lines.append(_status_line(result))
    if left_by_registry:
        lines.insert(1, _left_by_registry(left_by_registry))
    comments = sum(len(r.review) for r in run.evals if r.status == "rewritten")
    if comments:
        lines.append(
            f"{comments} comment(s) stand above changed code and may no longer "
            "fit it: read them (-v names each)"
        )
    lines += _next_steps(run, mode)
    return lines


def _counts(run: RunResult, mode: Mode) -> str:
    changed = run.count("rewritten")
    files = len(run.changed_files())
    if mode == "check" and not changed:
        head = f"all {len(run.evals)} evals are migrated or left as they are"
    else:
        done = {
            "dry-run": f"would be migrated ({files} files would change)",
            "check": f"still need migrating ({files} files would change)",
            "write": f"migrated ({files} files changed)",
        }[mode]
        head = f"{changed} of {len(run.evals)} evals {done}"
    rest = [
        f"{run.count('unchanged')} already migrated",
        f"{run.count('skipped')} left as they are",
        f"{run.count('failed')} failed",
    ]
    return "; ".join([head, *(part for part in rest if not part.startswith("0 "))])


def _registry_word(registry: Registry, result: EvalResult) -> str | None:
    """``none`` or ``manual`` for an eval its registry entry leaves as it is."""
    if result.status != "skipped" or result.eval not in registry.files:
        return None
    codemods = registry.get(result.eval).codemods
    return codemods if isinstance(codemods, str) else None


def _left_by_registry(left: dict[str, list[str]]) -> str:
    parts = [
        f"{_LEFT_BY_REGISTRY[word]} {len(names)} ({', '.join(names)})"
        for word, names in sorted(left.items(), key=lambda item: -len(item[1]))
    ]
    return f"left as their registry entries say: {'; '.join(parts)}"


def _next_steps(run: RunResult, mode: Mode) -> list[str]:
    steps = []
    if run.count("rewritten") and mode == "dry-run":
        steps.append(
            "next: run the same command without --dry-run in a checkout "
            "(--repo PATH) to write the changes, or add --branch-per-eval for "
            "a branch and a PR text per eval"
        )
    elif run.count("rewritten") and mode == "check":
        steps.append("next: run the same command without --check to migrate them")
    elif run.count("rewritten"):
        steps.append(
            "next: read the changes (git diff), run the target's tests of the "
            "migrated evals, then commit"
        )
    if run.evals:
        steps.append(
            "-v prints each eval's changes to its scores and why each was left; "
            "--format json gives them as data"
        )
    return steps
