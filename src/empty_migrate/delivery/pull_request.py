"""What a branch's commit and pull request say, in the target's own forms.

The pull-request text follows the target's ``.github/PULL_REQUEST_TEMPLATE.md``
section by section: the sections this tool can fill (what the PR contains,
the description, the related issue, how to reproduce) are filled, a section
it does not know is kept as the template has it, and in the checklist only
what the migration itself did is ticked; what needs a person stays open.
Sections start at H1 and H2 headings, or at the top level of a template that
has neither (only ``###``); a template with no heading at all is kept as it
is, followed by the default sections.
"""

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

import yaml

from empty_migrate import __version__
from empty_migrate.audit.matrix import FAULTS, Audit
from empty_migrate.audit.report import OUTCOMES, describe_row, grid, tasks_label
from empty_migrate.codemods.bump_task_version.rewrite import task_version
from empty_migrate.codemods.changelog.text import capital
from empty_migrate.delivery.branches import PREFIX, Branch
from empty_migrate.pipeline.runner import EvalResult
from empty_migrate.target.yaml_files import load_yaml

TEMPLATE = ".github/PULL_REQUEST_TEMPLATE.md"
"""Where the target keeps its pull-request template."""

DEFAULT_TEMPLATE = """\
# This PR contains

## Description

## Related issue

Closes: #<issue_number>

## How to reproduce

## Checklist

- [ ] Does this change affect existing eval(s)? If yes:
  - [ ] Have the affected task version(s) been incremented?
  - [ ] Have the affected task changelog(s) been updated?
- [ ] Is this change consequential to users? If yes:
  - [ ] Has the changelog fragment been committed?
"""
"""The sections used when the target has no template (inspect_evals' own)."""

NO_ISSUE = (
    "Closes: no linked issue as this is part of the repository-wide "
    "empty-response migration"
)
_ROLES = {
    "contains": ("this pr contains",),
    "description": ("description",),
    "issue": ("related issue",),
    "reproduce": ("reproduce", "testing", "how to test"),
    "checklist": ("checklist",),
}
"""Template sections this tool fills, by words of their heading (first match)."""
_HEADING = re.compile(r"^(#{1,6}) +(.+?)\s*$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->\n?", re.DOTALL)
_BOX = re.compile(r"^(\s*- \[) \](.*)$")
_POLICY = (
    "An empty completion can be genuine silence, reasoning cut off at "
    "`max_tokens`, a turn of tool calls only, a platform content filter, a "
    "refusal or an overflowed context. Each provider represents these "
    "differently, and scorers that treat them as answers mis-score them "
    "without warning. The shared router, `inspect_evals.utils.empty_response`, "
    "classifies the model's final output and routes each kind of non-answer by "
    "one policy (category x outcome), before the scorer or its judge runs; a "
    "substantive answer is scored exactly as before."
)
RAISES_IN_A_RUN = (
    "The router raises on two outcomes only: a prompt that overflows the context "
    "before any tool ran (`ContextOverflowError`) and a response with no output "
    "at all (`EmptyResponseError`). Inspect records a raise as a sample error, "
    "left out of the metrics. Under Inspect's default `fail_on_error` (unset, "
    "which means `True`), one sample error stops the whole run. `retry_on_error` "
    "runs a sample that errors again, from a new generation: an empty response "
    "may then succeed, an overflow repeats. Recommended: `inspect eval ... "
    "--retry-on-error=3 --fail-on-error=0.05` (`retry_on_error=3, "
    "fail_on_error=0.05` in `eval()`): each errored sample is retried up to three "
    "times, and the run fails only when 5% of its samples still error."
)
"""What a raised route means for a run, and the settings we recommend for it.

Every PR text says it; the README and MIGRATION.md quote it (docs/figures.py).
"""
_ON_FOUNDATION = (
    "This PR is built on `{name}`, whose PR adds the shared router "
    "`inspect_evals.utils.empty_response` and the emitted tests' utilities, and "
    "explains the empty-response policy: merge that one first. This one routes "
    "this eval's non-answers through it; a substantive answer is scored exactly "
    "as before."
)


@dataclass(frozen=True)
class EvalChange:
    """One eval's part of a branch, as the commit and the PR describe it."""

    name: str
    title: str
    version_before: str | None
    version_after: str | None
    result: EvalResult
    emitted_test: str | None

    @property
    def label(self) -> str:
        """``XSTest (`xstest`)``."""
        return f"{self.title} (`{self.name}`)"


def eval_changes(branch: Branch) -> list[EvalChange]:
    """What the branch changes for each of its evals."""
    return [_eval_change(branch, result) for result in branch.results]


def _eval_change(branch: Branch, result: EvalResult) -> EvalChange:
    name = result.eval
    yaml_path = f"src/inspect_evals/{name}/eval.yaml"
    after = branch.files.get(yaml_path)
    before = branch.before.get(yaml_path)
    test = f"tests/{name}/test_empty_response_policy.py"
    return EvalChange(
        name,
        _short_title(after, name),
        _version(before),
        _version(after),
        result,
        test if test in branch.files else None,
    )


def _short_title(eval_yaml: str | None, name: str) -> str:
    try:
        metadata = load_yaml(eval_yaml or "") or {}
    except yaml.YAMLError:
        return name
    title = metadata.get("title") if isinstance(metadata, dict) else None
    if not isinstance(title, str) or not title.strip():
        return name
    return " ".join(title.split(": ")[0].split())


def _version(eval_yaml: str | None) -> str | None:
    if not eval_yaml:
        return None
    try:
        return str(task_version(eval_yaml))
    except ValueError:
        return None


def title(branch: Branch) -> str:
    """The pull request's title, also the commit's subject without a type."""
    if branch.is_foundation:
        return "Empty-response policy: the shared router and its test utilities"
    if not branch.evals:
        return f"{branch.key}: route its helper through the empty-response policy"
    names = ", ".join(branch.evals)
    return f"{names}: route non-answers through the empty-response policy"


def commit_message(branch: Branch, conventional: bool) -> str:
    """The commit message, in the target history's style (conventional or plain)."""
    subject = title(branch)
    if conventional:
        scope, _, rest = subject.partition(": ")
        scope = branch.key if len(branch.evals) != 1 else scope
        subject = f"fix({scope}): {rest}"
    body = []
    for change in eval_changes(branch):
        lines = [f"{change.name}:"] + [f"- {line}" for line in change.result.scoring]
        if change.version_before != change.version_after:
            lines.append(
                f"- Task version {change.version_before} -> {change.version_after}."
            )
        lines += [f"- Updated test {test}." for test in change.result.tests_updated]
        body.append("\n".join(_wrap(line) for line in lines))
    if branch.note:
        body.append(_wrap(f"Note: {branch.note}."))
    trailer = f"Generated-by: empty-migrate {__version__}"
    return "\n\n".join([subject, *body, trailer]) + "\n"


def _wrap(line: str) -> str:
    indent = "  " if line.startswith("- ") else ""
    return textwrap.fill(
        line,
        72,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


@dataclass(frozen=True)
class Behaviour:
    """One scorer's measured behaviour on each kind of non-answer, from the audit."""

    eval: str
    scorer: str
    tasks: str
    rows: list[tuple[str, str, str]]
    """(outcome, before, after) for each outcome whose cell changed."""
    not_run: str | None = None
    """Why the audit could not run this scorer offline, if it could not."""


def measured(before: Audit, after: Audit) -> list[Behaviour]:
    """Each scorer's changed cells between two audits, and the ones not run."""
    changed = [
        Behaviour(
            line.eval,
            line.scorer,
            tasks_label(line.tasks),
            [
                (o, describe_row(cell.before), describe_row(cell.after))
                for o in OUTCOMES
                if (cell := line.cells.get(o)) and cell.changed
            ],
        )
        for line in grid(after, before)
        if line.changed
    ]
    not_run = {(n.eval, n.scorer): n for n in after.not_run}.values()
    return changed + [
        Behaviour(item.eval, item.scorer, item.task or "-", [], item.reason)
        for item in not_run
    ]


def render(
    branch: Branch,
    template: str | None,
    issue: int | None = None,
    behaviour: Sequence[Behaviour] | None = None,
) -> str:
    """The pull-request description of `branch`, in the sections of `template`."""
    changes = eval_changes(branch)
    sections = _sections(template or DEFAULT_TEMPLATE)
    if len(sections) == 1:  # no heading (prose only): its text, then the default's
        sections += _sections(DEFAULT_TEMPLATE)[1:]
    reproduce = _reproduce(branch, changes)
    has_reproduce = any(h and _role(h) == "reproduce" for h, _, _ in sections)
    filled = {
        "contains": _contains(branch, changes),
        "description": _description(branch, changes, behaviour)
        + ("" if has_reproduce else f"\n\n### How to test\n\n{reproduce}"),
        "issue": f"Closes: #{issue}" if issue else NO_ISSUE,
        "reproduce": reproduce,
    }
    out = []
    for heading, level, body in sections:
        if heading is None:
            out.append(body.strip("\n"))
            continue
        role = _role(heading)
        if role in filled:
            text = filled[role]
        elif role == "checklist":
            text = _checklist(body, branch, changes)
        else:
            text = body.strip("\n")
        out.append(f"{'#' * level} {heading}\n\n{text}".rstrip())
    return "\n\n".join(part for part in out if part) + "\n"


def _role(heading: str) -> str | None:
    """What a template section is for, from words in its heading."""
    words = heading.lower()
    for role, keys in _ROLES.items():
        if any(key in words for key in keys):
            return role
    return None


def _sections(template: str) -> list[tuple[str | None, int, str]]:
    """(heading, level, body) of each section; the preamble has no heading.

    Sections start at the H1 and H2 headings; a template with neither (only
    ``###`` headings, a common style) has its sections at its top level.
    """
    headings = list(_HEADING.finditer(template))
    top = max(2, min((len(mark.group(1)) for mark in headings), default=2))
    marks = [mark for mark in headings if len(mark.group(1)) <= top]
    starts = [mark.start() for mark in marks] + [len(template)]
    sections: list[tuple[str | None, int, str]] = [(None, 0, template[: starts[0]])]
    for mark, end in zip(marks, starts[1:], strict=True):
        sections.append((mark.group(2), len(mark.group(1)), template[mark.end() : end]))
    return sections


def _contains(branch: Branch, changes: list[EvalChange]) -> str:
    if not changes:
        lines = [
            f"- {'A new' if not branch.before.get(path) else 'A change to'} "
            f"`{path}`, which the evals share."
            for path in branch.changed_files()
        ]
        lines.append(
            "- No eval's scoring change: each follows in a PR of its own, built on "
            "this one."
        )
        return "\n".join(lines)
    lines = []
    for change in changes:
        version = (
            f", task version {change.version_before} → {change.version_after}"
            if change.version_before != change.version_after
            else ""
        )
        lines.append(
            f"- A scoring change to {change.label}{version}: its non-answers follow "
            "the shared empty-response policy."
        )
    return "\n".join(lines)


def _description(
    branch: Branch, changes: list[EvalChange], behaviour: Sequence[Behaviour] | None
) -> str:
    why = _ON_FOUNDATION.format(name=PREFIX + branch.on) if branch.on else _POLICY
    parts = [f"### What changed and why\n\n{why}"]
    if branch.note:
        parts.append(f"**Note:** {capital(branch.note)}.")
    for change in changes:
        lines = [f"#### {change.label}", ""]
        lines += [f"- {line}" for line in change.result.scoring]
        parts.append("\n".join(lines))
    parts.append(_behaviour(branch, behaviour))
    parts.append(f"### When the router raises\n\n{RAISES_IN_A_RUN}")
    parts.append(_comments_to_review(branch))
    parts.append(_versions(changes))
    parts.append(_tests(branch, changes))
    files = "\n".join(f"- `{path}`" for path in branch.changed_files())
    parts.append(f"### Files\n\n{files}{_merge_order(branch)}")
    parts.append(
        f"_Generated by empty-migrate {__version__}; the text was reviewed by "
        "no person yet: read the diff before marking this ready._"
    )
    return "\n\n".join(part for part in parts if part)


def _merge_order(branch: Branch) -> str:
    if branch.is_foundation:
        return (
            "\n\nEvery other PR of this migration is built on this one and "
            "changes only its own eval's files: merge this one first, then any of "
            "them, in any order."
        )
    if branch.on:
        return (
            f"\n\nOnly this eval's files, against `{PREFIX + branch.on}`: after that "
            "one, the PRs of this migration merge in any order."
        )
    return ""


def _behaviour(branch: Branch, behaviour: Sequence[Behaviour] | None) -> str:
    heading = "### Before and after, on each kind of non-answer"
    if not branch.evals:
        return ""  # a shared module's branch: its note names the evals it affects
    if behaviour is None:
        evals = " ".join(f"--eval {name}" for name in branch.evals) or "--all"
        return (
            f"{heading}\n\nNot measured for this text. "
            f"`empty-migrate audit {evals} --before BASE --repo BRANCH` runs every "
            "scorer on one provider-shaped output of each kind, on both trees."
        )
    mine = [b for b in behaviour if b.eval in branch.evals]
    measured = [b for b in mine if b.not_run is None]
    if not mine:
        return f"{heading}\n\nThe audit measured no change in these evals' scorers."
    parts = [
        f"{heading}\n\nMeasured by `empty-migrate audit`: each scorer, built by the "
        "eval's own code, scored one provider-shaped output of each kind, offline, "
        "with a recording judge. Only the outcomes that changed are listed; `!` "
        f"marks a fault of the code before: {_faults()}."
    ]
    for line in measured:
        rows = "\n".join(
            f"| {o} | {before} | {after} |" for o, before, after in line.rows
        )
        parts.append(
            f"`{line.eval}` / `{line.scorer}` ({line.tasks}):\n\n"
            f"| outcome | before | after |\n|---|---|---|\n{rows}"
        )
    parts += [
        f"`{line.eval}` / `{line.scorer}` ({line.tasks}): not measured, as the audit "
        f"cannot run it offline ({line.not_run})."
        for line in mine
        if line.not_run is not None
    ]
    return "\n\n".join(parts)


def _comments_to_review(branch: Branch) -> str:
    notes = branch.review()
    if not notes:
        return ""
    lines = [
        "### Comments to review",
        "",
        "The migration changed the code under these comments, so they may no "
        "longer be true. empty-migrate never rewrites prose: keep or edit each one.",
        "",
    ]
    for path, note in notes:
        where = "on" if note.trailing else "above"
        names = ", ".join(f"`{name}`" for name in note.codemods)
        lines.append(f"- `{path}:{note.line}`, {where} code changed by {names}:")
        lines += ["", "  ```python", *(f"  {c}" for c in note.comment.splitlines())]
        lines += ["  ```", ""]
    return "\n".join(lines).rstrip()


def _faults() -> str:
    return "; ".join(f"`{name}`, {meaning}" for name, meaning in FAULTS.items())


def _versions(changes: list[EvalChange]) -> str:
    lines = []
    for change in changes:
        if change.version_before == change.version_after:
            lines.append(f"- `{change.name}`: no task version change.")
            continue
        lines.append(
            f"- `{change.name}`: {change.version_before} → {change.version_after} "
            "(the N of N-X, as TASK_VERSIONING.md asks when scoring changes), with an "
            "entry in its README's changelog and a fragment in `changelog.d/`."
        )
    return "### Task version\n\n" + "\n".join(lines) if lines else ""


def _tests(branch: Branch, changes: list[EvalChange]) -> str:
    lines = []
    for change in changes:
        if change.emitted_test:
            lines.append(
                f"- Added `{change.emitted_test}`: every routed scorer of "
                f"`{change.name}`, built by the eval's code, on each kind of "
                "non-answer (value, reason, no judge call), and an answer still "
                "reaching the scorer."
            )
        for test in change.result.tests_updated:
            lines.append(
                f"- Updated `{test}`: it pinned the old non-answer score on purpose."
            )
    helpers = [f"`{p}`" for p in branch.changed_files() if p.startswith("tests/")]
    if not changes and helpers:
        lines.append(
            f"- Added {', '.join(helpers)}: the utilities the emitted tests of the "
            "per-eval PRs import; the tests come with those PRs."
        )
    elif not changes:
        lines.append("- No test changes.")
    return "### Tests\n\n" + "\n".join(lines)


def _reproduce(branch: Branch, changes: list[EvalChange]) -> str:
    folders = [f"tests/{c.name}" for c in changes if _has_tests(branch, c.name)]
    python = " ".join(p for p in branch.changed_files() if p.endswith(".py"))
    commands = [f"git checkout {branch.name}"]
    if folders:
        commands.append(f"uv run pytest {' '.join(folders)}")
    if python:
        commands.append(f"uv run ruff check {python}")
        commands.append(f"uv run ruff format --check {python}")
    text = "```bash\n" + "\n".join(commands) + "\n```"
    for change in changes:
        text += (
            f"\n\nWhat it changes in the metrics of existing logs of "
            f"`{change.name}`, without calling a model (LOGS are `.eval` or "
            "`.json` logs, or folders of them; each log's task names its eval, "
            f"so `--eval {change.name}` is optional):\n\n```bash\n"
            "empty-migrate audit --log LOGS…\n```"
        )
    return text


def _has_tests(branch: Branch, name: str) -> bool:
    return any(PurePosixPath(p).parts[:2] == ("tests", name) for p in branch.files)


def _checklist(body: str, branch: Branch, changes: list[EvalChange]) -> str:
    """The template's checklist, with only what the migration did ticked."""
    bumped = bool(changes) and all(c.version_before != c.version_after for c in changes)
    readmes = bool(changes) and all(
        f"src/inspect_evals/{c.name}/README.md" in branch.files for c in changes
    )
    fragments = bool(changes) and all(
        any(
            p.startswith("changelog.d/") and p.endswith(f"_{c.name}.md")
            for p in branch.files
        )
        for c in changes
    )
    done = {
        "Does this change affect existing eval(s)?": bool(changes or branch.callers),
        "task version(s)": bumped,
        "task changelog(s) been updated": readmes,
        "Is this change consequential to users?": bool(changes or branch.callers),
        "changelog fragment": fragments,
    }
    lines = []
    for line in _COMMENT.sub("", body).strip("\n").splitlines():
        box = _BOX.match(line)
        if box and any(key in line and ticked for key, ticked in done.items()):
            line = f"{box.group(1)}x]{box.group(2)}"
        lines.append(line)
    return "\n".join(lines)
