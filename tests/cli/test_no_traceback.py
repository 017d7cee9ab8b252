"""Every command, on what a user can type or a file can hold, ends in one line.

The sweep runs each command through the real command line (`main`, in
process; a few through the ``empty-migrate`` program) on bad input: a path that
does not exist, a folder where a file is expected, an empty file, binary
garbage, text that is not JSON as a log or a saved audit, a tree that is not a
git repository, an eval no registry knows (`tests.cli.hostile`). Each must end
with the exit code the case expects, one of `ExitCode`, with no traceback; an
error is one line on stderr (after argparse's usage, for what argparse refuses).

"""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from tests.cli.hostile import HostileInputs, commit_all
from tests.demo import GIT_IDENTITY

OK, WORK, USAGE = ExitCode.OK, ExitCode.WORK_REMAINS, ExitCode.USAGE
BAD_FILES = ["nope", "folder", "empty", "empty_eval", "garbage", "garbage_eval", "text"]
"""Inputs that are no log and no saved audit."""
TREE = ["--repo", "{tree}", "--registry", "{registry}"]
"""The demo tree (no git repository) and its registry."""
DEMO = ["--eval", "demo", *TREE]


SLOW = pytest.mark.slow
"""A case that builds a git repository, or starts a migration: over 0.3 s."""


def _case(
    name: str, line: list[str], codes: set[int], *marks: pytest.MarkDecorator
) -> Any:
    return pytest.param(line, codes, marks=marks, id=name)


def _cases() -> list[tuple[Any, ...]]:
    """(id, command line, the exit codes it may end with[, SLOW]): every command's."""
    return [
        *[(f"outcomes {f}", ["outcomes", f"{{{f}}}"], {USAGE}) for f in BAD_FILES],
        *[
            (f"audit --log {f}", ["audit", "--log", f"{{{f}}}"], {USAGE})
            for f in BAD_FILES
        ],
        ("audit --log folders", ["audit", "--log", "{folder}", "{nope}"], {USAGE}),
        *[
            (
                f"audit --compare {f}",
                ["audit", "--compare", "{audit}", f"{{{f}}}"],
                {USAGE},
            )
            for f in BAD_FILES
        ],
        ("audit --compare saved", ["audit", "--compare", "{audit}", "{audit}"], {OK}),
        *[
            (
                f"audit --compare {f} {fmt}",
                ["audit", "--compare", "{audit}", f"{{{f}}}", "--format", fmt],
                {USAGE},
            )
            for f in ["bad_route", "bad_count", "bad_faults", "no_eval"]
            for fmt in ["text", "html", "json"]
        ],
        *[
            (
                f"audit --output {out}",
                ["audit", "--compare", "{audit}", "{audit}", "--output", out],
                {USAGE},
            )
            for out in ["{folder}", "{link}", "{garbage}/x.html", "."]
        ],
        ("audit --repo nope", ["audit", "--eval", "demo", "--repo", "{nope}"], {USAGE}),
        (
            "audit --repo file",
            ["audit", "--eval", "demo", "--repo", "{garbage}"],
            {USAGE},
        ),
        ("audit unknown eval", ["audit", "--eval", "no_such_eval", *TREE], {USAGE}),
        (
            "audit --registry file",
            ["audit", "--eval", "demo", "--repo", "{tree}", "--registry", "{garbage}"],
            {USAGE},
        ),
        ("audit --python folder", ["audit", *DEMO, "--python", "{folder}"], {USAGE}),
        ("audit --python garbage", ["audit", *DEMO, "--python", "{garbage}"], {USAGE}),
        ("audit --workers 0", ["audit", *DEMO, "--workers", "0"], {USAGE}),
        ("audit --before nope", ["audit", *DEMO, "--before", "{nope}"], {USAGE}),
        (
            "migrate --repo nope",
            ["--eval", "demo", "--dry-run", "--repo", "{nope}"],
            {USAGE},
        ),
        (
            "migrate --repo file",
            ["--eval", "demo", "--dry-run", "--repo", "{garbage}"],
            {USAGE},
        ),
        (
            "migrate unknown eval",
            ["--eval", "no_such_eval", "--dry-run", *TREE],
            {USAGE},
        ),
        ("migrate --eval ''", ["--eval", "", "--dry-run", *TREE], {USAGE}),
        (
            "migrate --all --registry file",
            ["--all", "--check", "--repo", "{tree}", "--registry", "{garbage}"],
            {USAGE},
        ),
        (
            "migrate --all --registry empty folder",
            ["--all", "--dry-run", "--repo", "{tree}", "--registry", "{folder}"],
            {USAGE},
        ),
        ("migrate --today", [*DEMO, "--dry-run", "--today", "someday"], {USAGE}),
        ("migrate --issue", [*DEMO, "--dry-run", "--issue", "x"], {USAGE}),
        ("migrate --only", [*DEMO, "--dry-run", "--only", "no_such_codemod"], {USAGE}),
        ("migrate, no eval", ["--dry-run", *TREE], {USAGE}),
        (
            "branch mode, not git",
            [*DEMO, "--branch-per-eval", "--dry-run"],
            {USAGE},
            SLOW,
        ),
        (
            "branch mode --pr-dir file",
            [
                "--eval",
                "gamma",
                "--branch-per-eval",
                "--repo",
                "{git}",
                "--registry",
                "{git_registry}",
                "--pr-dir",
                "{garbage}",
            ],
            {USAGE},
            SLOW,
        ),
        (
            "branch mode --base",
            [
                "--eval",
                "gamma",
                "--branch-per-eval",
                "--dry-run",
                "--repo",
                "{git}",
                "--registry",
                "{git_registry}",
                "--base",
                "no-such-branch",
            ],
            {USAGE},
            SLOW,
        ),
        ("lint nope", ["lint", "{nope}"], {USAGE}),
        ("lint garbage", ["lint", "{garbage}"], {USAGE}),
        ("lint --repo nope", ["lint", "--repo", "{nope}"], {USAGE}),
        ("lint --repo file", ["lint", "--repo", "{garbage}"], {USAGE}),
        (
            "lint --registry file",
            ["lint", *TREE[:2], "--registry", "{garbage}"],
            {USAGE},
        ),
        ("lint outside the tree", ["lint", "{garbage}", "--repo", "{tree}"], {USAGE}),
        *[
            (
                f"registry {action} --repo nope",
                ["registry", *action.split(), "--repo", "{nope}"],
                {USAGE},
            )
            for action in ["list", "show demo", "validate", "scan", "scaffold demo"]
        ],
        ("registry show unknown", ["registry", "show", "no_such_eval", *TREE], {USAGE}),
        (
            "registry scaffold unknown",
            ["registry", "scaffold", "no_such_eval", *TREE],
            {USAGE},
        ),
        (
            "registry validate --registry file",
            ["registry", "validate", "--repo", "{tree}", "--registry", "{garbage}"],
            {USAGE},
        ),
        (
            "registry list --registry nope",
            ["registry", "list", "--registry", "{nope}"],
            {USAGE},
        ),
        *[
            (
                f"campaign {action} --repo {repo}",
                ["campaign", action, "--repo", f"{{{repo}}}"],
                {USAGE},
            )
            for action in ["status", "rebase"]
            for repo in ["nope", "garbage", "tree"]
        ],
        (
            "campaign rebase --onto",
            ["campaign", "rebase", "--repo", "{git}", "--onto", "no-such-branch"],
            {USAGE},
            SLOW,
        ),
        ("policy --format", ["policy", "--format", "yaml"], {USAGE}),
        ("unknown command", ["no-such-command"], {USAGE}),
    ]


HOSTILE_FILES = [
    pytest.param(
        ["audit", "--log", "{deep_log}", "--eval", "xstest"],
        {OK, USAGE},
        id="audit --log, metadata 3,000 deep",
    ),
    pytest.param(
        ["outcomes", "{deep_log}"], {OK, USAGE}, id="outcomes, metadata 3,000 deep"
    ),
]
"""Hostile logs: a copy of a real log, changed."""


@pytest.fixture
def inputs(tmp_path, monkeypatch) -> HostileInputs:
    """The inputs, under a folder that is no checkout (the current one)."""
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EMPTY_MIGRATE_TARGET_ENV", raising=False)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return HostileInputs(tmp_path)


def run_main(args: list[str], capsys) -> tuple[int, str, str]:
    """Run the command line in process: its exit code, stdout and stderr."""
    try:
        code = main(args)
    except SystemExit as stop:  # what argparse refuses
        code = stop.code if isinstance(stop.code, int) else USAGE
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_ending(code: int, out: str, err: str, expected: set[int]) -> None:
    """The run ended as the sweep requires: see the module's docstring."""
    assert "Traceback" not in out + err, err
    assert code in set(ExitCode) and code in expected, (code, err)
    if code >= USAGE:
        assert len(_message(err)) == 1, err


def _message(err: str) -> list[str]:
    """stderr's lines after argparse's usage (``usage:`` and its indented lines)."""
    lines = err.strip().splitlines()
    if lines and lines[0].startswith("usage:"):
        lines = lines[1:]
        while lines and lines[0].startswith(" "):
            lines = lines[1:]
    return lines


@pytest.mark.parametrize(
    ("template", "expected"),
    [_case(*case) for case in _cases()],
)
def test_bad_input_ends_in_one_line_and_its_exit_code(
    template, expected, inputs, capsys
):
    code, out, err = run_main(inputs.line(template), capsys)
    assert_one_line_ending(code, out, err, expected)


@pytest.mark.slow
@pytest.mark.parametrize(("template", "expected"), HOSTILE_FILES)
def test_a_hostile_log_ends_in_one_line(template, expected, inputs, capsys):
    code, out, err = run_main(inputs.line(template), capsys)
    assert_one_line_ending(code, out, err, expected)


def _pre_commit_without_repos(repo: Path) -> None:
    (repo / ".pre-commit-config.yaml").write_text("repos:\n")


def _template_without_headings(repo: Path) -> None:
    template = repo / ".github" / "PULL_REQUEST_TEMPLATE.md"
    template.write_text("Say what changed.\n\n### Checklist\n\n- [ ] tests\n")


def _deep_expression(repo: Path) -> None:
    scorer = repo / "src" / "inspect_evals" / "gamma" / "gamma.py"
    deep = "DEEP = " + " + ".join(["1"] * 5000) + "\n"
    scorer.write_text(scorer.read_text() + deep)


def _entry_outside(repo: Path) -> None:
    # gamma's entry, kept in the tree, naming a copy of its scorer outside it
    gamma = repo / "src" / "inspect_evals" / "gamma"
    (repo.parent / "outside.py").write_text((gamma / "gamma.py").read_text())
    entry = (repo.parent / "registry" / "gamma.yaml").read_text()
    outside = entry.replace("file: gamma/gamma.py", "file: ../../../outside.py")
    (gamma / "empty_response.yaml").write_text(outside)


def _missing_object(repo: Path) -> None:
    blob = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD:src/inspect_evals/gamma/gamma.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # a blob of the base commit, gone from the object store
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()


_missing_object.after_commit = True  # type: ignore[attr-defined]
"""Made after the commit, which would otherwise write the blob again."""


GAMMA = ["--eval", "gamma", "--repo", "{git}", "--registry", "{git_registry}"]
BRANCH_DRY_RUN = [*GAMMA, "--branch-per-eval", "--dry-run", "--today", "2026-11-29"]
HOSTILE_TREES = [
    pytest.param(
        _pre_commit_without_repos,
        [*GAMMA, "--dry-run"],
        {OK, USAGE},
        id="pre-commit config, repos null",
    ),
    pytest.param(
        _deep_expression,
        ["registry", "scan", "--repo", "{git}", "--registry", "{git_registry}"],
        {OK, WORK, USAGE},
        id="registry scan, expression 5,000 terms",
    ),
    pytest.param(
        _deep_expression,
        ["lint", "--repo", "{git}", "--registry", "{git_registry}"],
        {OK, WORK, USAGE},
        id="lint, expression 5,000 terms",
    ),
    pytest.param(
        _entry_outside,
        ["lint", "--repo", "{git}", "--registry", "{git_registry}"],
        {USAGE},
        id="lint, entry naming a file outside",
    ),
    pytest.param(
        _template_without_headings,
        BRANCH_DRY_RUN,
        {OK},
        id="branch mode, PR template without H1 or H2",
    ),
    pytest.param(
        _missing_object,
        BRANCH_DRY_RUN,
        {USAGE, ExitCode.TOOL_ERROR},
        id="branch mode, a missing object",
    ),
]
"""Hostile repositories: a campaign tree under git, changed and committed."""


@pytest.mark.slow
@pytest.mark.parametrize(("change", "template", "expected"), HOSTILE_TREES)
def test_a_hostile_repository_ends_in_one_line(
    change, template, expected, inputs, capsys
):
    repo = Path(inputs["git"])
    if getattr(change, "after_commit", False):
        commit_all(repo, "hostile")
        change(repo)
    else:
        change(repo)
        commit_all(repo, "hostile")
    code, out, err = run_main(inputs.line(template), capsys)
    assert_one_line_ending(code, out, err, expected)


PROGRAM_CASES = [
    pytest.param(["outcomes", "{garbage_eval}"], {USAGE}, id="outcomes garbage"),
    pytest.param(
        ["audit", "--compare", "{audit}", "{bad_route}", "--format", "html"],
        {USAGE},
        id="audit --compare, unknown route",
    ),
    pytest.param(
        ["audit", "--compare", "{audit}", "{audit}", "--output", "{folder}"],
        {USAGE},
        id="audit --output folder",
    ),
    pytest.param(["lint", "--repo", "{nope}"], {USAGE}, id="lint --repo nope"),
    pytest.param(
        ["outcomes", "{huge_int_log}"],
        {OK, USAGE},
        id="outcomes, integer of 5,000 digits",
    ),
    pytest.param(
        ["audit", "--log", "{huge_int_log}", "--eval", "xstest"],
        {OK, USAGE},
        id="audit --log, integer of 5,000 digits",
    ),
]
"""Through the program itself: what only a process shows (a crash of C code)."""


@pytest.mark.slow
@pytest.mark.parametrize(("template", "expected"), PROGRAM_CASES)
def test_the_program_ends_in_one_line(template, expected, inputs):
    done = subprocess.run(
        [sys.executable, "-m", "empty_migrate", *inputs.line(template)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=300,
        check=False,
    )
    assert_one_line_ending(done.returncode, done.stdout, done.stderr, expected)
