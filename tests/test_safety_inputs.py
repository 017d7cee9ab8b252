"""Hostile files in the target end in a line, never a traceback.

Each case is a real small target tree in ``tmp_path`` (`tests.demo`), run
through the real command line:

- a ``.pre-commit-config.yaml`` of another shape (``repos:`` empty or not a
  list, a ``rev`` that is not a string) pins no ruff, as one that does not
  parse;
- a Python file nested deeper than the migration reads (``DEEP = 1 + 1 + …``)
  does not parse: its eval is skipped naming the file, the other evals are
  migrated, and ``registry scan`` and ``lint`` say it in one line;
- ``lint`` on a file that does not parse says so, and nothing else of its eval
  (no finding about code it could not read, no ``--fix``);
- a pull-request template with no H1 or H2 heading (prose, or only ``###``)
  gives a PR text, in branch mode and its dry run.
"""

import json
import re
import sys

import pytest

from empty_migrate.analysis.syntax import MAX_DEPTH, NestedTooDeeply, parse_python
from empty_migrate.cli.main import main
from empty_migrate.delivery.pull_request import render
from empty_migrate.target.ruff import installed_ruff, pinned_version, ruff_for
from tests.delivery.campaigns import CLOSES, gamma_branch
from tests.demo import GIT_IDENTITY, PACKAGE, choice_entry, choice_task

EVALS = ("alpha", "beta")
DEEP = "DEEP = " + " + ".join(["1"] * 5000) + "\n"
"""Deeper than ``ast`` builds (RecursionError before the fix)."""
DEEP_FILE = f"{PACKAGE}/alpha/deep.py"
DEEP_AT = ", line 2" if sys.version_info >= (3, 13) else ""
"""Where the error puts `DEEP` in `DEEP_FILE`: Python 3.13's parser reads it, so
the depth check names its line; 3.11's and 3.12's give up first, naming none."""
"""A module of alpha that the scan reads (it names a scorer)."""


@pytest.fixture
def tree(demo, monkeypatch, tmp_path):
    """Two evals scored by choice(), each in a task of its own."""
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    for name in EVALS:
        demo.add_eval(name, {f"{name}.py": choice_task(name)}, choice_entry(name))
    return demo


def run(tree, *args: str) -> int:
    return main([*args, "--repo", str(tree.repo), "--registry", str(tree.registry)])


def said(capsys) -> str:
    """What the run printed, stdout then stderr (the report is on stderr)."""
    out, err = capsys.readouterr()
    return out + err


# -- item 7: a pre-commit config of another shape pins nothing ---------------

RUFF_HOOK = "  - repo: https://github.com/astral-sh/ruff-pre-commit\n"


@pytest.mark.parametrize(
    "config",
    [
        "repos:\n",
        "repos: 5\n",
        "repos: true\n",
        f"repos:\n{RUFF_HOOK}    rev: 0.15\n",
        f"repos:\n{RUFF_HOOK}    rev: [v0.15.11]\n",
        f"repos:\n{RUFF_HOOK}    rev: 15\n    hooks: 3\n",
    ],
    ids=["null", "int", "bool", "rev-float", "rev-list", "rev-int"],
)
def test_a_config_of_another_shape_pins_no_ruff(tmp_path, config):
    (tmp_path / ".pre-commit-config.yaml").write_text(config)
    assert pinned_version(tmp_path) is None
    assert ruff_for(tmp_path) == installed_ruff()


def test_the_pin_is_still_found_after_entries_of_another_shape(tmp_path):
    config = (
        "repos:\n  - just a string\n  - 7\n  - repo: 5\n"
        f"{RUFF_HOOK}    rev: v0.15.11\n    hooks: 3\n"
    )
    (tmp_path / ".pre-commit-config.yaml").write_text(config)
    assert pinned_version(tmp_path) == "0.15.11"


@pytest.mark.slow
@pytest.mark.parametrize("config", ["repos:\n", "repos: 5\n"], ids=["null", "int"])
def test_a_migration_runs_whatever_the_config_holds(tree, capsys, config):
    tree.write({".pre-commit-config.yaml": config})
    assert run(tree, "--eval", "alpha", "--dry-run", "--verbose") == 0
    assert "alpha: rewritten" in said(capsys)


# -- item 8: a file nested too deeply does not parse -------------------------


@pytest.mark.parametrize("terms", [MAX_DEPTH, 1_000, 5_000])
def test_a_text_nested_too_deeply_is_a_syntax_error(terms):
    text = "x = 1\nDEEP = " + " + ".join(["1"] * terms) + "\n"
    with pytest.raises(NestedTooDeeply, match=f"nested deeper than {MAX_DEPTH}"):
        parse_python(text, "alpha/deep.py")
    assert issubclass(NestedTooDeeply, SyntaxError)  # every reader's except


def test_a_text_just_within_the_depth_parses():
    text = "DEEP = " + " + ".join(["1"] * (MAX_DEPTH - 5)) + "\n"
    assert parse_python(text).body


@pytest.mark.slow
def test_a_deep_file_skips_its_eval_and_the_others_are_migrated(tree, capsys):
    tree.write({DEEP_FILE: "# a scorer's data\n" + DEEP})
    assert run(tree, "--all", "--dry-run", "--verbose") == 0
    out = said(capsys)
    assert (
        "alpha: skipped: alpha/deep.py does not parse (nested deeper than "
        f"{MAX_DEPTH} levels"
    ) in out
    assert "beta: rewritten" in out
    assert "1 rewritten, 0 unchanged, 1 skipped, 0 failed" in out


def test_a_deep_scorer_module_skips_its_eval(tree, capsys):
    module = tree.repo / f"{PACKAGE}/alpha/alpha.py"
    module.write_text(module.read_text() + DEEP)
    assert run(tree, "--eval", "alpha", "--dry-run") == 0
    assert "alpha: skipped: alpha/alpha.py does not parse" in said(capsys)


def test_registry_scan_says_a_deep_file_does_not_parse_in_one_line(tree, capsys):
    tree.write({DEEP_FILE: "# a scorer's data\n" + DEEP})
    assert run(tree, "registry", "scan") == 1
    out = capsys.readouterr().out
    drift = [line for line in out.splitlines() if line.startswith("drift: ")]
    assert drift == [
        "drift: alpha: does not parse: alpha/deep.py: nested deeper than "
        f"{MAX_DEPTH} levels, which empty-migrate does not read (deep.py{DEEP_AT})"
    ]


# -- item 8 and the small one: lint on a file it cannot read -----------------


def lint(tree, capsys, *args: str) -> tuple[int, str, str]:
    code = run(tree, "lint", *args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("def broken(:\n", "alpha.py:8:1: does not parse: invalid syntax"),
        (DEEP, f"alpha.py:{8 if DEEP_AT else 1}:1: does not parse: nested deeper than"),
    ],
    ids=["syntax-error", "too-deep"],
)
def test_lint_says_a_file_does_not_parse_and_nothing_else_of_its_eval(
    tree, capsys, monkeypatch, text, problem
):
    module = tree.repo / f"{PACKAGE}/alpha/alpha.py"
    module.write_text(module.read_text() + text)
    monkeypatch.chdir(tree.repo)
    code, out, err = lint(tree, capsys, f"{PACKAGE}/alpha")
    assert code == 1
    (line,) = out.splitlines()  # no EM002 "wrap removed", no EM007
    assert line.startswith(f"{PACKAGE}/alpha/") and problem in line
    assert "--fix" not in err
    assert "not linted: alpha, as a file of it cannot be read" in err
    # and again: an eval lint could not read is not kept as clean
    assert lint(tree, capsys, f"{PACKAGE}/alpha")[:2] == (1, out)


def test_lint_json_lists_a_file_it_cannot_read(tree, capsys, monkeypatch):
    tree.write({DEEP_FILE: "# a scorer's data\n" + DEEP})
    monkeypatch.chdir(tree.repo)
    code, out, _ = lint(tree, capsys, f"{PACKAGE}/alpha", "--format", "json", "--fix")
    report = json.loads(out)
    assert code == 1
    assert [(u["path"], u["eval"]) for u in report["unreadable"]] == [
        (DEEP_FILE, "alpha")
    ]
    assert not [f for f in report["findings"] if f["eval"] == "alpha"]
    assert "alpha" not in report["fixable"]


# -- item 9: a template with no H1 or H2 heading -----------------------------

PROSE = "Thanks for your PR! Please describe what it changes and how you tested it.\n"
H3_ONLY = """\
### Description

_What changed and why._

### Checklist

- [ ] Does this change affect existing eval(s)? If yes:
  - [ ] Have the affected task version(s) been incremented?
"""


def test_a_prose_template_keeps_its_text_and_adds_the_default_sections():
    text = render(gamma_branch(), PROSE)
    assert text.startswith(PROSE)
    assert "A scoring change to Gamma (`gamma`), task version 2-B → 3-B" in text
    assert re.findall(r"^#{1,2} (.+)$", text, re.MULTILINE) == [
        "This PR contains",
        "Description",
        "Related issue",
        "How to reproduce",
        "Checklist",
    ]
    assert CLOSES.search(text)


def test_a_template_of_h3_sections_is_filled_section_by_section():
    text = render(gamma_branch(), H3_ONLY)
    assert text.startswith("### Description\n\n### What changed and why")
    assert "_What changed and why._" not in text  # the section is filled
    assert "- [x] Does this change affect existing eval(s)?" in text
    assert "  - [x] Have the affected task version(s) been incremented?" in text


@pytest.mark.slow
@pytest.mark.parametrize("template", [PROSE, H3_ONLY], ids=["prose", "h3"])
def test_branch_mode_runs_with_a_template_of_no_h1_or_h2(tree, capsys, template):
    tree.write({".github/PULL_REQUEST_TEMPLATE.md": template})
    tree.commit()
    assert run(tree, "--eval", "alpha", "--branch-per-eval", "--dry-run") == 0
    assert "empty-policy/alpha" in said(capsys)
