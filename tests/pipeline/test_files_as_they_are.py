"""Files as they are: a file that is not UTF-8 skips its eval, and the run goes on."""

import pytest

from empty_migrate.cli.main import main
from tests.demo import EVAL, DemoTree, choice_entry, choice_task

EVALS = ["alpha", "beta", "gamma"]  # --all runs them in this order


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


def migrate(tree: DemoTree, *args: str) -> int:
    places = ["--repo", str(tree.repo), "--registry", str(tree.registry)]
    return main([*places, "--today", "2026-12-01", *args])


def choice_evals(tree: DemoTree) -> DemoTree:
    for name in EVALS:
        tree.add_eval(name, {f"{name}.py": choice_task(name)}, choice_entry(name))
    return tree


DEMO_TASK = f"""\
from inspect_ai import Task, task

from inspect_evals.{EVAL}.scorer import {EVAL}_scorer


@task
def {EVAL}() -> Task:
    return Task(dataset=[], scorer={EVAL}_scorer())
"""


def demo_eval(tree: DemoTree) -> DemoTree:
    """The demo eval, with its task: wrap_router, the version bump, the changelog."""
    tree.write({f"src/inspect_evals/{EVAL}/{EVAL}.py": DEMO_TASK})
    return tree.add_demo_eval()


# a file that is not UTF-8


@pytest.mark.parametrize("coding_line", [True, False], ids=["coding", "no-coding"])
def test_a_latin_1_file_skips_its_eval_with_the_reason_and_the_others_migrate(
    demo, capsys, coding_line
):
    tree = choice_evals(demo)
    path = tree.repo / "src/inspect_evals/beta/beta.py"
    text = choice_task("beta").replace("choice()", "choice()  # café")
    data = (("# -*- coding: latin-1 -*-\n" if coding_line else "") + text).encode(
        "latin-1"
    )
    path.write_bytes(data)

    assert migrate(tree, "--all") == 0

    assert path.read_bytes() == data
    err = capsys.readouterr().err
    declared = "; it declares latin-1" if coding_line else ""
    line = 8 if coding_line else 7
    offset = data.index(b"\xe9")
    assert (
        f"beta: skipped: src/inspect_evals/beta/beta.py is not UTF-8 (byte 0xe9 at "
        f"offset {offset}, line {line}{declared}): convert it to UTF-8 to migrate "
        "this eval\n"
    ) in err
    assert "Traceback" not in err
    for name in ("alpha", "gamma"):
        assert (
            "route_empty_responses"
            in (tree.repo / f"src/inspect_evals/{name}/{name}.py").read_text()
        )
    assert "3 evals: 2 rewritten, 0 unchanged, 1 skipped, 0 failed" in err


def test_a_latin_1_file_outside_the_package_skips_the_eval_that_needs_it(demo, capsys):
    tree = demo_eval(choice_evals(demo))
    readme = tree.repo / f"src/inspect_evals/{EVAL}/README.md"
    data = readme.read_text().replace("Fix a parser", "Fix a café").encode("latin-1")
    readme.write_bytes(data)

    assert migrate(tree, "--all", "--dry-run") == 0

    err = capsys.readouterr().err
    assert (
        f"{EVAL}: skipped: src/inspect_evals/{EVAL}/README.md is not UTF-8 (byte 0xe9"
    ) in err
    assert "Traceback" not in err
    assert "4 evals: 3 rewritten, 0 unchanged, 1 skipped, 0 failed" in err
