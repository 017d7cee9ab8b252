"""bump_task_version: bump ``N`` of the eval's task version when its scores change.

TASK_VERSIONING.md asks for ``N`` in ``version: "N-X"`` to go up by one when
scoring logic changes, because results stop being comparable; ``X`` tracks the
task interface and stays. The line in ``eval.yaml`` is edited as text, so its
quoting, any comment and every other byte are kept.

Whether the eval is already bumped is read from its README changelog, which in
inspect_evals always has an entry for the current version (a new eval starts
at ``1-A`` with none). An ``N`` ahead of the newest entry is a bump still
waiting for its entry, and an entry for the current version that cites the
router module (see `records_this_migration`) is this migration already
recorded. Either way a second bump would skip a version, so nothing changes:
that keeps a repeated run a no-op even when it is told the code changed. Safe:
it changes no score.
"""

import re
from dataclasses import dataclass

from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE

ROUTER_REFERENCE = f"`{ROUTER_MODULE}`"
"""What every README entry the changelog codemod writes contains: the router
module, as code, in its first sentence."""

_VERSION_KEY = re.compile(r"^version:.*$", re.MULTILINE)
_VERSION_LINE = re.compile(
    r"""^version:[ \t]*(?P<quote>["']?)(?P<n>\d+)-(?P<x>[A-Z]+)(?P=quote)"""
    r"[ \t]*(?:#.*)?$",
    re.MULTILINE,
)
_CHANGELOG = re.compile(r"^## Changelog[ \t]*$", re.MULTILINE)
_HEADING = re.compile(r"^### (?:\[(?P<n>\d+)-(?P<x>[A-Z]+)\])?", re.MULTILINE)
_NEXT_SECTION = re.compile(r"^## ", re.MULTILINE)


@dataclass(frozen=True)
class TaskVersion:
    """A task version ``N-X``: comparability number and interface letters."""

    comparability: int
    interface: str

    def __str__(self) -> str:
        return f"{self.comparability}-{self.interface}"

    def bumped(self) -> "TaskVersion":
        """The next comparability version, e.g. ``3-D`` to ``4-D``."""
        return TaskVersion(self.comparability + 1, self.interface)


class BumpTaskVersion(Codemod):
    """Bump ``N`` in ``eval.yaml`` after a score-changing migration."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not (self.applies(target) and scores_changed(target)):
            return []
        return [eval_yaml(target)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        match = _version_match(text)
        if already_bumped(_version(match), read(target, readme(target))):
            return text
        start, end = match.span("n")
        return text[:start] + str(int(match["n"]) + 1) + text[end:]


def eval_yaml(target: EvalTarget) -> str:
    """The eval's ``eval.yaml``, from the repo root."""
    return target.source(f"{target.name}/eval.yaml")


def readme(target: EvalTarget) -> str:
    """The eval's ``README.md``, from the repo root."""
    return target.source(f"{target.name}/README.md")


def read(target: EvalTarget, path: str) -> str:
    """A file of the target tree as the run holds it, or "" if it does not exist."""
    return target.read(path)


def code_changes(target: EvalTarget) -> list[Declaration]:
    """The code codemods (not the follow-ups) that rewrote the eval in this run."""
    return [d for d in target.changed_by if not d.follows_changes]


def scores_changed(target: EvalTarget) -> bool:
    """Whether a codemod that changes score values rewrote the eval in this run."""
    return any(codemod.changes_scores for codemod in code_changes(target))


def task_version(eval_yaml_text: str) -> TaskVersion:
    """The ``version: "N-X"`` of an ``eval.yaml``.

    Raises:
        Skip: If there is not exactly one top-level version, or it is not ``N-X``.
    """
    return _version(_version_match(eval_yaml_text))


def already_bumped(version: TaskVersion, readme_text: str) -> bool:
    """Whether `version` is a bump not yet documented, or this migration's own.

    Args:
        version: The version in ``eval.yaml``.
        readme_text: The eval's README.
    """
    entries = changelog_entries(readme_text)
    documented = max((v.comparability for v in entries), default=1)
    return version.comparability > documented or records_this_migration(
        entries.get(version, "")
    )


def records_this_migration(entry: str) -> bool:
    """Whether a README changelog entry is this migration's.

    It is if it cites the router module as code. Every entry the changelog
    codemod writes does, and that module exists only because of this
    migration, so neither rewording the entries nor an unrelated entry that
    happens to describe empty responses can fool the test.
    """
    return ROUTER_REFERENCE in entry


def changelog_entries(readme_text: str) -> dict[TaskVersion, str]:
    """The ``### [N-X]`` entries of the README's ``## Changelog``, newest first."""
    section = changelog_section(readme_text)
    if section is None:
        return {}
    start, end = section
    headings = list(_HEADING.finditer(readme_text, start, end))
    # each entry runs to the next heading; the last to the section's end
    ends = [h.start() for h in headings[1:]] + [end]
    entries: dict[TaskVersion, str] = {}
    for heading, stop in zip(headings, ends[: len(headings)], strict=True):
        if heading["n"] is not None:
            entry = readme_text[heading.start() : stop]
            entries.setdefault(_version(heading), entry)
    return entries


def changelog_section(readme_text: str) -> tuple[int, int] | None:
    """Where the body of ``## Changelog`` starts and ends; None if it is missing.

    Raises:
        Skip: If the README has several ``## Changelog`` sections.
    """
    headings = list(_CHANGELOG.finditer(readme_text))
    if len(headings) > 1:
        raise Skip("README.md has several '## Changelog' sections")
    if not headings:
        return None
    start = headings[0].end()
    following = _NEXT_SECTION.search(readme_text, start)
    return start, following.start() if following else len(readme_text)


def _version_match(text: str) -> re.Match[str]:
    keys = list(_VERSION_KEY.finditer(text))
    if len(keys) != 1:
        raise Skip(f"eval.yaml has {len(keys)} top-level version lines, not one")
    match = _VERSION_LINE.fullmatch(text, *keys[0].span())
    if match is None:
        raise Skip(f"eval.yaml {keys[0].group(0)!r} is not N-X")
    return match


def _version(match: re.Match[str]) -> TaskVersion:
    return TaskVersion(int(match["n"]), match["x"])
