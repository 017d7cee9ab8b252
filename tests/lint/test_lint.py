"""``empty-migrate lint`` on small target trees: each rule, the exceptions, --fix."""

import json
import subprocess
import sys

import pytest

from empty_migrate.cli.main import main
from tests.demo import DEMO_SCORER, EVAL, PACKAGE, SCORER_PATH, manual_entry

WRAPPED = DEMO_SCORER.replace(
    "from inspect_ai.solver import TaskState\n",
    "from inspect_ai.solver import TaskState\n\n"
    "from inspect_evals.utils.empty_response import route_empty_responses\n",
).replace(
    "    return score\n", '    return route_empty_responses(score, category="qa")\n'
)
"""The demo scorer as the migration leaves it."""

PRESETS_INCORRECT = """\
from inspect_ai.scorer import INCORRECT, Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def fresh_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        if not state.output.completion:
            return Score(value=INCORRECT)
        return Score(value=state.output.completion == target.text)

    return score
"""

GRADED_UNWRAPPED = """\
from inspect_ai import Task, task
from inspect_ai.scorer import model_graded_qa


@task
def graded():
    return Task(dataset=[], scorer=model_graded_qa())
"""


DEMO_TASK = """\
from inspect_ai import Task, task

from inspect_evals.demo.scorer import demo_scorer


@task
def demo():
    return Task(dataset=[], scorer=demo_scorer())
"""


@pytest.fixture
def tree(demo, monkeypatch, tmp_path):
    """The demo eval, migrated (its scorer wrapped), in a tree lint accepts."""
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    demo.add_demo_eval(scorer=WRAPPED)
    demo.write({f"{PACKAGE}/{EVAL}/{EVAL}.py": DEMO_TASK})
    monkeypatch.chdir(demo.repo)  # findings are shown from the current folder
    return demo


def lint(demo, *args: str, capsys) -> tuple[int, list[str], str]:
    code = main(
        ["lint", *args, "--repo", str(demo.repo), "--registry", str(demo.registry)]
    )
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def finding_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(("src/", "fresh/"))]


def codes(lines: list[str]) -> list[str]:
    return [line.split(": ", 2)[1].split()[0] for line in finding_lines(lines)]


def test_a_migrated_eval_is_clean(tree, capsys):
    assert lint(tree, capsys=capsys)[:2] == (0, [])


def test_a_new_eval_that_presets_incorrect_on_an_empty_completion(tree, capsys):
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    code, lines, _ = lint(tree, capsys=capsys)
    assert code == 1
    shown = f"{PACKAGE}/fresh/scorer.py"
    assert lines[:2] == [
        f"{shown}:6:1: EM001 @scorer fresh_scorer reads the model's output and is "
        "not routed; no registry entry for eval fresh "
        "(`empty-migrate registry scaffold fresh > "
        "src/inspect_evals/fresh/empty_response.yaml`)",
        f"{shown}:8:12: EM003 empty check on the output `not state.output.completion`"
        " in a scorer that is not routed: the policy scores empty answers",
    ]
    # the suggested entry follows the findings: registry scaffold's text
    assert (
        "# suggested registry entry: src/inspect_evals/fresh/empty_response.yaml"
        in lines
    )
    assert "  - name: fresh_scorer" in lines


def test_a_new_eval_sending_the_completion_to_an_unwrapped_judge(tree, capsys):
    tree.add_eval("graded", {"graded.py": GRADED_UNWRAPPED})
    code, lines, _ = lint(tree, capsys=capsys)
    assert code == 1
    assert codes(lines) == ["EM006"]
    assert finding_lines(lines)[0].endswith(
        "graded/graded.py:7:36: EM006 judge `model_graded_qa()` is called on the "
        "output before any routing: wrap the scorer or guard with classify"
    )


ROUTER_IMPORTS = {
    "aliased": (
        "from inspect_evals.utils.empty_response import route_empty_responses as route",
        "route",
    ),
    "module_alias": (
        "import inspect_evals.utils.empty_response as er",
        "er.route_empty_responses",
    ),
    "module": (
        "from inspect_evals.utils import empty_response",
        "empty_response.route_empty_responses",
    ),
}


@pytest.mark.parametrize("how", ROUTER_IMPORTS)
def test_a_scorer_wrapped_through_any_import_of_the_router_is_routed(tree, capsys, how):
    imported, called = ROUTER_IMPORTS[how]
    wrapped = DEMO_SCORER.replace(
        "from inspect_ai.solver import TaskState\n",
        f"from inspect_ai.solver import TaskState\n\n{imported}\n",
    ).replace("    return score\n", f'    return {called}(score, category="qa")\n')
    tree.write({SCORER_PATH: wrapped})
    assert lint(tree, capsys=capsys)[:2] == (0, [])


GUARD_IMPORTS = {
    "aliased": (
        "from inspect_evals.utils.empty_response import Outcome, classify as verdict",
        "verdict",
        "Outcome",
    ),
    "module_alias": (
        "import inspect_evals.utils.empty_response as er",
        "er.classify",
        "er.Outcome",
    ),
}


@pytest.mark.parametrize("how", GUARD_IMPORTS)
def test_a_new_scorer_guarded_through_any_import_of_classify_is_routed(
    tree, capsys, how
):
    imported, classify, outcome = GUARD_IMPORTS[how]
    guarded = PRESETS_INCORRECT.replace(
        "from inspect_ai.solver import TaskState\n",
        f"from inspect_ai.solver import TaskState\n\n{imported}\n",
    ).replace(
        "if not state.output.completion:",
        f"if {classify}(state.output) is not {outcome}.ANSWERED:",
    )
    tree.add_eval("fresh", {"scorer.py": guarded})
    assert lint(tree, capsys=capsys)[:2] == (0, [])


def test_a_judge_imported_under_an_alias_is_found(tree, capsys):
    aliased = GRADED_UNWRAPPED.replace(
        "import model_graded_qa", "import model_graded_qa as mgq"
    ).replace("scorer=model_graded_qa()", "scorer=mgq()")
    tree.add_eval("graded", {"graded.py": aliased})
    code, lines, _ = lint(tree, capsys=capsys)
    assert (code, codes(lines)) == (1, ["EM006"])
    assert finding_lines(lines)[0].endswith(
        "graded/graded.py:7:36: EM006 judge `mgq()` is called on the "
        "output before any routing: wrap the scorer or guard with classify"
    )


def test_a_reverted_wrap(tree, capsys):
    tree.write({SCORER_PATH: DEMO_SCORER})
    code, lines, _ = lint(tree, capsys=capsys)
    assert (code, codes(lines)) == (1, ["EM002"])
    assert ":6:1: EM002 scorer demo_scorer is registered with wrap_router" in lines[0]


def test_a_dead_check_in_a_migrated_scorer(tree, capsys):
    dead = WRAPPED.replace(
        "        return Score(value=state.output.completion",
        "        if not state.output:\n            return Score(value=0)\n"
        "        return Score(value=state.output.completion",
    )
    tree.write({SCORER_PATH: dead})
    code, lines, _ = lint(tree, capsys=capsys)
    assert (code, codes(lines)) == (1, ["EM004"])
    assert ":10:12: EM004 dead check `not state.output`" in lines[0]


def test_a_preset_call(tree, capsys):
    tree.write(
        {
            f"{PACKAGE}/{EVAL}/task.py": (
                "from inspect_ai import Task, task\n"
                "from inspect_evals.utils.scorers import preset_score_on_no_response\n"
                "from inspect_evals.demo.scorer import demo_scorer\n\n\n"
                "@task\ndef demo():\n"
                "    return Task(\n"
                "        scorer=preset_score_on_no_response(demo_scorer(), 0)\n"
                "    )\n"
            )
        }
    )
    code, lines, _ = lint(tree, capsys=capsys)
    assert (code, codes(lines)) == (1, ["EM005"])


def test_manual_and_none_evals_are_clean(tree, capsys):
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    reason = "the scorer needs a person (fresh/scorer.py::fresh_scorer)"
    today = "empty -> INCORRECT (fresh/scorer.py::fresh_scorer)"
    tree.register("fresh", manual_entry(reason, today))
    assert lint(tree, capsys=capsys)[:2] == (0, [])


def test_json_lists_findings_fixable_evals_and_suggested_entries(tree, capsys):
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    tree.write({SCORER_PATH: DEMO_SCORER})
    code, lines, _ = lint(tree, "--format", "json", capsys=capsys)
    report = json.loads("\n".join(lines))
    assert code == 1
    assert [(f["eval"], f["code"], f["line"]) for f in report["findings"]] == [
        ("demo", "EM002", 6),
        ("fresh", "EM001", 6),
        ("fresh", "EM003", 8),
    ]
    assert report["fixable"] == ["demo"]
    assert list(report["suggested_entries"]) == ["fresh"]
    assert "name: fresh_scorer" in report["suggested_entries"]["fresh"]


def test_paths_select_the_evals_they_belong_to(tree, capsys):
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    demo_file = str(tree.repo / SCORER_PATH)
    assert lint(tree, demo_file, capsys=capsys)[:2] == (0, [])
    fresh = str(tree.repo / PACKAGE / "fresh")
    assert lint(tree, fresh, capsys=capsys)[0] == 1


def test_the_root_is_found_from_the_paths(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree.repo / PACKAGE)
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    code = main(["lint", "fresh/scorer.py", "--registry", str(tree.registry)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("fresh/scorer.py:6:1: EM001")


@pytest.mark.parametrize("where", ["outside", "not_a_checkout", "missing"])
def test_bad_input_exits_2_with_one_line(tree, capsys, tmp_path, where):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("")
    args = {
        "outside": ["lint", str(outside), "--repo", str(tree.repo)],
        "not_a_checkout": ["lint", "--repo", str(tmp_path)],
        "missing": ["lint", str(tree.repo / "nothing.py"), "--repo", str(tree.repo)],
    }[where]
    assert main([*args, "--registry", str(tree.registry)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("empty-migrate: ")


def test_lint_writes_nothing_and_takes_no_lock(tree, capsys):
    tree.write({SCORER_PATH: DEMO_SCORER})

    def files():
        paths = [*tree.repo.rglob("*"), *tree.registry.rglob("*")]
        return {path: path.read_bytes() for path in paths if path.is_file()}

    before = files()
    assert lint(tree, capsys=capsys)[0] == 1
    assert not list(tree.root.glob("**/*.lock")) + list(tree.repo.glob(".git*"))
    after = files()
    assert after == before


@pytest.mark.parametrize("change", ["reverted_wrap", "dead_check"])
def test_fix_migrates_the_eval_and_lints_clean(tree, capsys, change):
    text = {
        "reverted_wrap": DEMO_SCORER,
        "dead_check": DEMO_SCORER.replace(
            "        return Score(",
            "        if not state.output:\n            return Score(value=0)\n"
            "        return Score(",
        ),
    }[change]
    tree.write({SCORER_PATH: text})
    tree.register(
        EVAL,
        (tree.registry / f"{EVAL}.yaml")
        .read_text()
        .replace(
            "codemods: [wrap_router,", "codemods: [wrap_router, replace_dead_check,"
        ),
    )
    assert lint(tree, capsys=capsys)[0] == 1
    code, lines, err = lint(tree, "--fix", capsys=capsys)
    assert (code, finding_lines(lines)) == (0, []), err
    assert "route_empty_responses(" in (tree.repo / SCORER_PATH).read_text()
    assert "if not state.output:" not in (tree.repo / SCORER_PATH).read_text()
    assert lint(tree, capsys=capsys)[:2] == (0, [])


def test_fix_leaves_a_new_eval_and_suggests_its_entry(tree, capsys):
    tree.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    code, lines, _ = lint(tree, "--fix", capsys=capsys)
    assert code == 1
    assert (
        "# suggested registry entry: src/inspect_evals/fresh/empty_response.yaml"
        in lines
    )
    assert (tree.repo / PACKAGE / "fresh/scorer.py").read_text() == PRESETS_INCORRECT


def test_lint_loads_neither_libcst_nor_inspect_ai(tree):
    code = (
        "import sys\nfrom empty_migrate.cli.main import main\n"
        f"main(['lint', '--repo', {str(tree.repo)!r}, '--registry', "
        f"{str(tree.registry)!r}])\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(loaded & {'libcst', 'inspect_ai'}))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert run.stdout.splitlines()[-1] == "[]"


def test_a_finding_no_listed_codemod_clears_says_what_to_add(tree, capsys):
    """The demo entry lists no replace_dead_check: --fix cannot clear the check."""
    dead = WRAPPED.replace(
        "        return Score(value=state.output.completion",
        "        if not state.output:\n            return Score(value=0)\n"
        "        return Score(value=state.output.completion",
    )
    tree.write({SCORER_PATH: dead})
    code, lines, err = lint(tree, "--format", "json", capsys=capsys)
    report = json.loads("\n".join(lines))
    assert (code, report["fixable"]) == (1, [])
    assert report["unfixable"] == [
        f"{SCORER_PATH}:10: EM004 is not fixed by --fix: the registry entry of "
        f"{EVAL} lists no replace_dead_check; add it to its codemods"
    ]
    code, _, err = lint(tree, capsys=capsys)
    assert report["unfixable"][0] in err
