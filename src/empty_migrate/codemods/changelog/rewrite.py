"""changelog: record a migrated eval's change where inspect_evals asks for it.

CONTRIBUTING.md gives a change that bumps a task version two entries: a short
scriv fragment in ``changelog.d/`` (PACKAGE_VERSIONING.md, "Fragment Format":
``- <title from eval.yaml> (vN-X): ...`` under ``### Existing Evals``) and a
``### [N-X] - YYYY-MM-DD`` entry, newest first, under the ``## Changelog``
section that ends the eval's README (TASK_VERSIONING.md). A README without the
section gets it appended. A change that bumps no version gets the fragment
only, without a version. The words come from the registry (see
`text`): what each kind of non-answer now scores, for this eval.

The version is the one ``bump_task_version`` leaves in ``eval.yaml``, computed
from the files on disk, since both run in the same pass. An eval whose README
already has this migration's entry for its current version is left alone, so
a second run changes nothing. Safe: it changes no score.
"""

import re

import yaml

from empty_migrate.codemods.bump_task_version.rewrite import (
    TaskVersion,
    already_bumped,
    changelog_entries,
    changelog_section,
    code_changes,
    eval_yaml,
    read,
    readme,
    records_this_migration,
    scores_changed,
    task_version,
)
from empty_migrate.codemods.changelog import text as words
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.target.yaml_files import load_yaml, yaml_problem

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class Changelog(Codemod):
    """Add the scriv fragment and the README changelog entry of a migration."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not (self.applies(target) and code_changes(target)):
            return []
        if _recorded(target):
            return []
        return [fragment(target), readme(target)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        if not _DATE.fullmatch(target.today):
            raise Skip(f"no YYYY-MM-DD date for the changelog: {target.today!r}")
        version = release_version(target)
        if path == readme(target):
            return _with_entry(text, version, target)
        return _fragment(text, version, target)


def fragment(target: EvalTarget) -> str:
    """The scriv fragment of the migration, named for its date and eval."""
    date = target.today.replace("-", "")
    return f"changelog.d/{date}_empty_migrate_{target.name}.md"


def release_version(target: EvalTarget) -> TaskVersion | None:
    """The version the change ships as: what bump_task_version leaves; None if none.

    Raises:
        Skip: If the change bumps the version and eval.yaml has no ``N-X``.
    """
    if not (target.wants("bump_task_version") and scores_changed(target)):
        return None
    version = task_version(read(target, eval_yaml(target)))
    if already_bumped(version, read(target, readme(target))):
        return version
    return version.bumped()


def _recorded(target: EvalTarget) -> bool:
    try:
        version = task_version(read(target, eval_yaml(target)))
        entries = changelog_entries(read(target, readme(target)))
    except Skip:
        return False  # transform reports it
    return records_this_migration(entries.get(version, ""))


def _fragment(text: str, version: TaskVersion | None, target: EvalTarget) -> str:
    name = _title(target) + (f" (v{version})" if version else "")
    new = f"### Existing Evals\n\n- {name}: {words.summary(target)}\n"
    if text and text != new:
        raise Skip(f"{fragment(target)} exists with other text")
    return new


def _with_entry(text: str, version: TaskVersion | None, target: EvalTarget) -> str:
    if version is None:
        return text
    if not text:
        raise Skip(f"{readme(target)} does not exist")
    if version in (entries := changelog_entries(text)):
        if records_this_migration(entries[version]):
            return text
        raise Skip(
            f"README changelog already has a [{version}] entry; extend it by hand"
        )
    entry = f"### [{version}] - {target.today}\n\n{_bullets(target)}"
    section = changelog_section(text)
    if section is None:
        return text.rstrip("\n") + "\n\n## Changelog\n\n" + entry
    rest = text[section[0] :].lstrip("\n")
    return text[: section[0]] + "\n\n" + entry + ("\n" + rest if rest else "")


def _bullets(target: EvalTarget) -> str:
    items = [words.lead(target)]
    shapes = words.shapes(target)
    for label, description in shapes:
        text = " ".join(description.sentences())
        items.append(f"{words.capital(label)}: {text}" if label else text)
    if shapes:
        items += words.overrides(target)
        items.append(words.before(target))
    items += words.test_updates(target)
    return "".join(f"- {item}\n" for item in items)


def _title(target: EvalTarget) -> str:
    try:
        metadata = load_yaml(read(target, eval_yaml(target))) or {}
    except yaml.YAMLError as error:
        line, problem = yaml_problem(error)
        raise Skip(f"eval.yaml does not parse (line {line}): {problem}") from None
    title = metadata.get("title") if isinstance(metadata, dict) else None
    if not isinstance(title, str) or not title.strip():
        raise Skip("eval.yaml has no title for the changelog")
    # scriv's CHANGELOG.md goes through mdformat, which would escape it
    return " ".join(title.split()).replace("*", "\\*")
