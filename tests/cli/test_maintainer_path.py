"""A maintainer's path across commands, from inside the checkout: one answer each.

A new eval goes lint -> the entry lint suggests, filled in, where it says ->
``--eval`` -> ``registry show`` -> ``--all`` -> ``--branch-per-eval``; an eval
whose code drifted from its entry gets the same words from ``lint``, ``lint
--fix`` and ``--eval``, and ``--fix`` does not promise what it then skips.
"""

import json

import pytest

from empty_migrate.cli.main import main
from tests.demo import GIT_IDENTITY, PACKAGE, choice_entry, choice_task, git

NEW_SCORER = """\
from inspect_ai import Task, task
from inspect_ai.scorer import INCORRECT, Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def newbench_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        if not state.output.completion:
            return Score(value=INCORRECT)
        return Score(value=state.output.completion == target.text)

    return score


@task
def newbench() -> Task:
    return Task(dataset=[], scorer=newbench_scorer())
"""
FILLED = {
    "category: TODO": "category: qa",
    "polarity: TODO": "polarity: neutral",
    "judge: TODO": "judge: none",
    "today: TODO": 'today: "empty -> I (newbench/newbench.py::newbench_scorer)"',
    "codemods: TODO": "codemods: [wrap_router, replace_dead_check]",
}
"""What a maintainer fills in for the scaffold's TODOs."""


@pytest.fixture
def checkout(demo, monkeypatch, tmp_path):
    """gamma, registered in this test's registry, and newbench, in no registry."""
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    demo.add_eval("newbench", {"newbench.py": NEW_SCORER})
    demo.commit()
    monkeypatch.chdir(demo.repo / PACKAGE / "newbench")  # inside the checkout
    return demo


def run(demo, capsys, *args):
    code = main([*args, "--registry", str(demo.registry)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_new_eval_from_lint_to_branches(checkout, capsys):
    code, out, err = run(checkout, capsys, "lint")
    assert code == 1
    entry_path = f"{PACKAGE}/newbench/empty_response.yaml"
    assert f"# suggested registry entry: {entry_path}" in out
    suggested = out.split(f"# suggested registry entry: {entry_path}\n")[1]
    code, scaffolded, _ = run(checkout, capsys, "registry", "scaffold", "newbench")
    assert code == 0 and scaffolded == suggested  # one place, one text
    # every run names it until it has an entry
    code, _, err = run(checkout, capsys, "--all", "--dry-run")
    assert code == 0
    assert "1 eval(s) not in the registry, left as they are: newbench" in err
    assert f"scaffold newbench > {entry_path}" in err
    code, _, err = run(checkout, capsys, "--eval", "newbench", "--dry-run")
    assert code == 2 and "eval 'newbench' has no registry entry" in err

    filled = suggested
    for todo, value in FILLED.items():
        filled = "\n".join(
            value if line.startswith(todo) else line for line in filled.splitlines()
        )
    (checkout.repo / entry_path).write_text(filled + "\n")
    git(checkout.repo, "add", "-A")
    git(checkout.repo, "commit", "-qm", "newbench: its empty-response entry")

    code, out, err = run(checkout, capsys, "--eval", "newbench", "--dry-run", "-v")
    assert code == 0, err
    assert "newbench: rewritten" in err and "not in the registry" not in err
    assert "route_empty_responses(" in out
    code, out, _ = run(checkout, capsys, "registry", "show", "newbench")
    assert code == 0 and out.startswith(f"newbench  ({entry_path})")
    code, out, _ = run(checkout, capsys, "registry", "list", "--format", "json")
    assert {row["eval"] for row in json.loads(out)} == {"gamma", "newbench"}
    code, out, err = run(checkout, capsys, "--all", "--dry-run", "--format", "json")
    report = json.loads(out)
    assert {e["eval"]: e["status"] for e in report["evals"]} == {
        "gamma": "rewritten",
        "newbench": "rewritten",
    }
    assert report["summary"]["not_in_registry"] == 0
    code, out, err = run(checkout, capsys, "--all", "--branch-per-eval")
    assert code == 0, err
    made = git(checkout.repo, "branch", "--list", "empty-policy/*").split()
    assert "empty-policy/newbench" in made


def test_a_drifted_eval_gets_one_answer_from_every_command(checkout, capsys):
    gamma = checkout.repo / PACKAGE / "gamma/gamma.py"
    gamma.write_text(
        gamma.read_text().replace(
            "from inspect_ai.scorer import choice",
            "from inspect_ai.scorer import Score, choice, scorer",
        )
        + "\n\n@scorer(metrics=[])\ndef gamma_extra():\n"
        "    async def score(state, target):\n"
        "        return Score(value=state.output.completion == target.text)\n\n"
        "    return score\n"
    )
    said = (
        "new scorer: @scorer gamma_extra at gamma/gamma.py:11 (add it "
        "to the entry's scorers (name, file, construct), or with rewrite: false "
        "and a note saying why it is left)"
    )
    code, out, err = run(checkout, capsys, "lint", str(gamma))
    assert code == 1
    assert "EM007 new scorer: @scorer gamma_extra" in out
    assert "gamma: --fix leaves it as it is: code no longer matches its entry" in err
    assert said in err and "--fix migrates" not in err
    before = gamma.read_text()
    for _ in range(2):  # --fix does what lint said: nothing, and says so again
        code, _, fixed = run(checkout, capsys, "lint", "--fix", str(gamma))
        assert code == 1 and fixed == err
        assert gamma.read_text() == before
    code, _, err = run(checkout, capsys, "--eval", "gamma", "--dry-run")
    assert code == 0 and said in err
    assert "gamma: skipped: code no longer matches its entry" in err
